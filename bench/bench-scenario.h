/*
 * What the fabric benchmarks (iwarp-bench-fat-tree, -traffic, -scaling, -roce) share: a scenario's YAML run
 * through the scenario runner and timed as one benchmark run, its results folder in a temporary directory
 * removed afterwards.
 */
#ifndef IWARP_BENCH_SCENARIO_H
#define IWARP_BENCH_SCENARIO_H

#include "bench/bench-common.h"
#include "helper/scenario/scenario-runner.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace bench
{

/** What a caller takes from the scenario's own result beyond what RunScenarioYaml fills in. */
using ScenarioExtra = std::function<void(const ns3::RunResult&, RunResult&)>;

/**
 * Loads `yaml` (with `overrides`, as `--set`), runs it to `stop` and returns: wall and CPU time (load to the
 * folder removed), the events, `stop` as the simulated time, the octets delivered at the receivers over all
 * workloads (doc/metrics.md), and the heap in use 1 ns before the stop (every connection and buffer still
 * alive). `extra` may add more from the runner's result.
 */
RunResult RunScenarioYaml(const std::string& yaml,
                          const std::string& name,
                          Time stop,
                          const std::vector<std::string>& overrides = {},
                          const ScenarioExtra& extra = {});

/** A Side (bench-common.h) whose run is RunScenarioYaml: name and --only key are `name`. */
Side ScenarioSide(const std::string& name,
                  const std::string& yaml,
                  Time stop,
                  const std::vector<std::string>& overrides = {},
                  const ScenarioExtra& extra = {});

} // namespace bench
} // namespace ns3

#endif // IWARP_BENCH_SCENARIO_H
