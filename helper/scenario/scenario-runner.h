/*
 * ScenarioRunner: turns a validated ScenarioConfig into an ns-3 simulation (topology, hosts,
 * RNICs, workloads, impairments, pcaps), runs it, and writes the results folder
 * (doc/scenario-format.md). `iwarp-sim run` and the Python bindings both call RunScenario.
 *
 *   ScenarioConfig cfg = LoadScenarioFile("scenarios/two-hosts-latency.yaml", {"seed=7"});
 *   ScenarioOutcome out = RunScenario(cfg, ScenarioRunOptions{});
 *   std::cout << out.folder;   // results/two-hosts-latency (summary.json, messages.csv, host.csv)
 *
 * Errors in the scenario that only show when the network is built (a GraphML file that cannot be
 * read, a link between nodes that are not neighbours) are ScenarioErrors too, thrown before the
 * simulation starts and before anything is written.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_RUNNER_H
#define IWARP_SCENARIO_RUNNER_H

#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"

#include "helper/topology/topology-builder.h"

#include <functional>
#include <string>

namespace ns3
{

struct ScenarioRunOptions
{
    /** Results folder; empty: the scenario's `output`, else "results/<name>". */
    std::string outDir;
    /** Draw the progress bar on stderr (runs longer than a second of wall time only). */
    bool progress{true};
    /**
     * Called with the built network (hosts, RNICs, transport profiles, applications installed) just
     * before the simulation runs: tests connect traces and schedule probes of live objects here.
     */
    std::function<void(const BuiltTopology&)> beforeRun;
};

struct ScenarioOutcome
{
    std::string folder; ///< the results folder, complete
    RunResult result;   ///< what was written there
};

/** Build, run and record one scenario. Throws ScenarioError (bad scenario) or ResultsError. */
ScenarioOutcome RunScenario(const ScenarioConfig& cfg, const ScenarioRunOptions& options);

/**
 * A few human lines about a finished run, per workload: messages delivered at the sink, goodput and
 * FCT (streams) or the half round trip per size (ping-pong), retransmissions (doc/metrics.md).
 */
std::string SummarizeRun(const ScenarioOutcome& outcome);

/** One "warning: check failed: ..." line per failed physics check (empty when all pass). */
std::string FailedChecksReport(const RunResult& result);

} // namespace ns3

#endif // IWARP_SCENARIO_RUNNER_H
