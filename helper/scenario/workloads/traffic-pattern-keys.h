/*
 * The keys that say whom a load's flows go to (kinds traffic and sockets-traffic, doc/traffic.md): `pattern`,
 * and the parameters of the patterns that have some, `target` and `incast-fraction` (many-to-one) and `pairs`
 * (pairs). Each parameter is refused with another pattern and required with its own, once the whole entry has
 * been read (CheckTrafficPattern); TrafficPatternOf turns them into FlowArrivals' pattern.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_TRAFFIC_PATTERN_KEYS_H
#define IWARP_TRAFFIC_PATTERN_KEYS_H

#include "helper/scenario/workloads/workload-kind.h"

#include "traffic/flow-arrivals.h"

#include <vector>

namespace ns3
{

/** `pattern`, `target`, `incast-fraction`, `pairs`, in the order the docs list them. */
std::vector<WorkloadKey> TrafficPatternKeys();

/**
 * After the entry `entry` at `path` is read (its `hosts` filled in): the pattern's parameters are given where
 * it takes them and nowhere else, and name hosts of the load. Fails through `r`.
 */
void CheckTrafficPattern(const scenario::ScenarioReader& r,
                         const YAML::Node& entry,
                         const std::string& path,
                         const WorkloadConfig& w);

/** The pattern of `w` (a traffic kind's, checked), its hosts numbered as in `w.hosts`. */
TrafficPatternSpec TrafficPatternOf(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_TRAFFIC_PATTERN_KEYS_H
