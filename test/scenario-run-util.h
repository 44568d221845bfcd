/*
 * Running a scenario in a test: RunInto(cfg, folder) removes `folder` first (the runner refuses an
 * existing one) and runs without a progress bar.
 */
#ifndef IWARP_TEST_SCENARIO_RUN_UTIL_H
#define IWARP_TEST_SCENARIO_RUN_UTIL_H

#include "helper/scenario/scenario-runner.h"

#include <filesystem>
#include <string>

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

} // namespace ns3

#endif // IWARP_TEST_SCENARIO_RUN_UTIL_H
