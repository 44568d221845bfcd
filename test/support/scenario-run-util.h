/*
 * Running a scenario in a test: RunInto(cfg, folder) removes `folder` first (the runner refuses an
 * existing one) and runs without a progress bar; RunInTemp and RunYamlInTemp run into a temporary
 * folder of their own and remove it again (the figures stay in the returned RunResult).  ErrorOf(yaml, overrides) is the message loading
 * it from a string named "s.yaml" fails with ("" when it loads).
 */
#ifndef IWARP_TEST_SCENARIO_RUN_UTIL_H
#define IWARP_TEST_SCENARIO_RUN_UTIL_H

#include "helper/scenario/scenario-runner.h"

#include "support/thrown-message.h"

#include <algorithm>
#include <filesystem>
#include <unistd.h>
#include <string>
#include <vector>

namespace ns3
{

inline ScenarioOutcome
RunInto(const ScenarioConfig& cfg, const std::string& folder)
{
    std::filesystem::remove_all(folder);
    ScenarioRunOptions o;
    o.outDir = folder;
    o.progress = false;
    return RunScenario(cfg, o);
}

/** Run `cfg` into <tmp>/iwarp-<suite>-<pid>-<tag>, removed again afterwards. */
inline RunResult
RunInTemp(const ScenarioConfig& cfg, const std::string& suite, const std::string& tag)
{
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("iwarp-" + suite + "-" + std::to_string(::getpid()) + "-" + tag);
    RunResult r = RunInto(cfg, folder.string()).result;
    std::filesystem::remove_all(folder);
    return r;
}

/** Load `yaml` (as "<tag>.yaml", with `overrides`) and RunInTemp it. */
inline RunResult
RunYamlInTemp(const std::string& yaml,
              const std::string& suite,
              const std::string& tag,
              const std::vector<std::string>& overrides = {})
{
    return RunInTemp(LoadScenarioString(yaml, overrides, tag + ".yaml"), suite, tag);
}

/** The result of `r`'s workload called `name` (aborts if there is none). */
inline const WorkloadResult&
NamedWorkload(const RunResult& r, const std::string& name)
{
    auto it = std::find_if(r.workloads.begin(), r.workloads.end(),
                           [&name](const WorkloadResult& w) { return w.name == name; });
    NS_ABORT_MSG_IF(it == r.workloads.end(), "no workload " << name);
    return *it;
}

/** The counters of `r`'s host called `node` (aborts if there is none). */
inline const HostResult&
NamedHost(const RunResult& r, const std::string& node)
{
    auto it = std::find_if(r.hosts.begin(), r.hosts.end(), [&node](const HostResult& h) { return h.node == node; });
    NS_ABORT_MSG_IF(it == r.hosts.end(), "no host " << node);
    return *it;
}

/** Messages of `r` delivered in [from, to). */
inline std::size_t
DeliveredBetween(const RunResult& r, Time from, Time to)
{
    return std::count_if(r.messages.begin(), r.messages.end(), [&](const MessageRecord& m) {
        return m.delivered && *m.delivered >= from && *m.delivered < to;
    });
}

inline std::string
ErrorOf(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ThrownMessage<ScenarioError>([&] { LoadScenarioString(yaml, overrides, "s.yaml"); });
}

} // namespace ns3

#endif // IWARP_TEST_SCENARIO_RUN_UTIL_H
