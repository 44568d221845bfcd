/*
 * The scenario's queue keys (`queue`, `device-queue`, `queue-disc` on links, `host-nic` and
 * `per-host.<name>.nic`) turned into the builder's PortQueueSpecs, with their fallbacks: a per-link
 * entry over `links`, a host's `nic` over `host-nic` over DefaultHostNic() (doc/scenario-format.md).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_QUEUES_H
#define IWARP_SCENARIO_QUEUES_H

#include "helper/scenario/scenario-config.h"
#include "helper/topology/topology-spec.h"

namespace ns3
{

/** `over`'s queue fields on top of `base`'s switch-port queues. */
LinkParams OverlayQueues(LinkParams base, const LinkConfig& over);

/** `over`'s fields on top of `base`. */
PortQueueSpec OverlayNic(PortQueueSpec base, const NicConfig& over);

/** True when a link entry sets any queue key. */
bool HasQueueKeys(const LinkConfig& c);

/** The host NICs and the per-link switch-port queues of `cfg` into `spec` (whose `link` is set). */
void ApplyScenarioQueues(const ScenarioConfig& cfg, TopologySpec& spec);

} // namespace ns3

#endif // IWARP_SCENARIO_QUEUES_H
