/*
 * Physics checks on a finished run (doc/metrics.md, "Checks"): bounds that no correct result can
 * cross, derived from the topology the run was built on, never from the run's own figures:
 *
 *  - goodput <= the payload limit of the path's bottleneck for the workload's LLP and MTU
 *    (link rate x payload octets / wire octets of a full-size packet: PPP 2, IP 20, TCP 20 (+12
 *    with timestamps), MPA 6, DDP/RDMAP 14 tagged or 18 untagged; SCTP 12 + DATA chunk 16);
 *  - every delivered message's FCT >= its size serialised at the fastest bottleneck rate of its
 *    shortest paths + their smallest propagation delay (a Read: twice the propagation);
 *  - every ping-pong half round trip >= the same for its size;
 *  - per-core CPU and memory-bus busy time <= the simulated time (utilisation <= 100%);
 *  - octets delivered <= octets posted; every posted message delivered, outstanding or flushed.
 *
 *   result.checks = RunPhysicsChecks(cfg, topo, result);
 *   if (result.FailedChecks()) ... // iwarp-sim warns on stderr; --strict exits 3
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_PHYSICS_CHECKS_H
#define IWARP_SCENARIO_PHYSICS_CHECKS_H

#include "helper/scenario/path-limits.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
#include "helper/topology/topology-builder.h"

#include <vector>

namespace ns3
{

/** All checks of a finished run; `r` holds its workloads (in cfg's order), messages and hosts. */
/**
 * Whether a workload's TCP connections carry timestamps (then 12 octets per segment): only if every end has
 * them on (transport.tcp.timestamps), as RFC 7323 negotiates them in the handshake.
 */
bool TcpTimestampsOn(const ScenarioConfig& cfg, const WorkloadConfig& w);

/**
 * The paths read before the run (`asBuilt`) widened by every link-change's rate and delay (Paths::Widen):
 * each link at the highest rate and the lowest delay it had, so that a bound drawn from them (a physics
 * check, an ideal FCT) holds over the whole run.
 */
Paths BoundingPaths(const Paths& asBuilt, const BuiltTopology& topo, const std::vector<EventRecord>& events);

/** All checks, their bounds drawn from `paths` (BoundingPaths). */
std::vector<CheckResult> RunPhysicsChecks(const ScenarioConfig& cfg, const Paths& paths, const RunResult& r);
/** The same, for a run without link-changes: the paths read from `topo` as it is. */
std::vector<CheckResult> RunPhysicsChecks(const ScenarioConfig& cfg, const BuiltTopology& topo, const RunResult& r);

} // namespace ns3

#endif // IWARP_SCENARIO_PHYSICS_CHECKS_H
