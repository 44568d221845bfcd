/*
 * The network part of a scenario run: the topology (TopologyBuilder) with the scenario's link
 * settings and impairments, a HostModel and an RNIC on every host, and the scenario's attribute
 * maps applied. Internal to the ScenarioRunner.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_NETWORK_H
#define IWARP_SCENARIO_NETWORK_H

#include "helper/scenario/scenario-config.h"
#include "helper/topology/topology-builder.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * The types a `per-host` entry's attributes may name: its `host` map a host's memory, CPU and host
 * model, its `rnic` map the RNIC and each queue pair's RDMAP, DDP and pipeline.  The loader refuses
 * any other type there; scenario-wide `host:`/`rnic:` reach more (ScenarioWideTypes,
 * host-attributes.h).
 */
const std::vector<std::string>& PerHostHostTypes();
const std::vector<std::string>& PerHostRnicTypes();

/**
 * A per-link entry's (or the bottleneck's) impairment on top of `links`': each part `over` gives
 * replaces `base`'s, the others are inherited (doc/scenario-format.md).
 */
ImpairmentSpec Overlay(ImpairmentSpec base, const ImpairmentSpec& over);

/** TopologySpec from the scenario's topology, links and impairments (per-link rate/delay later). */
TopologySpec MakeTopologySpec(const ScenarioConfig& cfg);

/**
 * Build everything below the workloads. Throws ScenarioError naming the scenario key when the
 * builder refuses the topology or a per-link entry names two nodes with no link between them.
 */
std::unique_ptr<BuiltTopology> BuildScenarioNetwork(const ScenarioConfig& cfg);

} // namespace ns3

#endif // IWARP_SCENARIO_NETWORK_H
