/*
 * What the scenario-loader and graphml targets share: loading a scenario the way `iwarp-sim run` does, the
 * round trip of its resolved YAML, and building its network (as the runner does before any workload).
 */
#ifndef IWARP_FUZZ_SCENARIO_H
#define IWARP_FUZZ_SCENARIO_H

#include "helper/scenario/scenario-config.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace fuzz
{

/**
 * LoadScenarioFile(path, overrides), the entry point of iwarp-sim. nullopt for a ScenarioError (a bad scenario
 * reported as one: exit 2 in iwarp-sim); any other exception is a finding (iwarp-sim would exit 1 with no
 * file:line), as is an abort inside.
 */
std::optional<ScenarioConfig> LoadScenario(const std::string& path, const std::vector<std::string>& overrides);

/**
 * Invariant: the resolved YAML of a loaded scenario (what the results folder keeps as scenario.yaml), saved
 * beside the original and loaded again without overrides, loads and resolves to the same text.
 */
void CheckResolvedRoundTrip(const ScenarioConfig& cfg);

/**
 * Builds the network of `cfg` as the runner does (its attribute defaults in force; pcaps into the scratch
 * folder when the scenario traces) when its graph has at most `maxNodes` nodes, checks that every node and
 * link of the graph was built, and tears it down. Returns the number of nodes built (0: skipped).
 */
uint32_t BuildNetwork(const ScenarioConfig& cfg, uint32_t maxNodes);

} // namespace fuzz
} // namespace ns3

#endif // IWARP_FUZZ_SCENARIO_H
