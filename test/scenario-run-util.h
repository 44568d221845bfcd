/*
 * Running a scenario in a test: RunInto(cfg, folder) removes `folder` first (the runner refuses an
 * existing one) and runs without a progress bar.  ErrorOf(yaml, overrides) is the message loading
 * it from a string named "s.yaml" fails with ("" when it loads).
 */
#ifndef IWARP_TEST_SCENARIO_RUN_UTIL_H
#define IWARP_TEST_SCENARIO_RUN_UTIL_H

#include "helper/scenario/scenario-runner.h"

#include "thrown-message.h"

#include <filesystem>
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

inline std::string
ErrorOf(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ThrownMessage<ScenarioError>([&] { LoadScenarioString(yaml, overrides, "s.yaml"); });
}

} // namespace ns3

#endif // IWARP_TEST_SCENARIO_RUN_UTIL_H
