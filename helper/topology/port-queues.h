/*
 * The queues of one port: a device transmit queue and, above it, a queue disc from ns-3's
 * traffic-control module, joined by ns-3's flow control so that the queue disc holds back what the
 * device ring has no room for (PortQueueSpec, topology-spec.h; doc/transports.md, "Queues").
 *
 *   CheckPortQueues(spec);                        // TopologyError on bad input, no ns-3 object made
 *   InstallPortQueues(dev, spec, rate, delay);    // dev on a node with the Internet stack
 *   Ptr<QueueDisc> qd = RootQueueDisc(dev);       // null for QueueDiscKind::None
 */
/**
 * \file
 * \ingroup iwarp-helper-topology
 */
#ifndef IWARP_PORT_QUEUES_H
#define IWARP_PORT_QUEUES_H

#include "helper/topology/topology-spec.h"
#include "net/pfc-queue-disc.h"

#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"

#include <string>

namespace ns3
{

/** Throws TopologyError (naming `where`) when `spec` cannot be built: thresholds, units, limits. */
void CheckPortQueues(const PortQueueSpec& spec, const std::string& where);

/**
 * Give `dev` (already on its node, whose Internet stack is installed) its device queue and, unless
 * the kind is None, a NetDeviceQueueInterface for flow control and the root queue disc `spec`
 * describes. `rate` and `delay` are the link's, which RED uses for its idle-time estimate.
 */
void InstallPortQueues(Ptr<PointToPointNetDevice> dev, const PortQueueSpec& spec, DataRate rate, Time delay);

/**
 * The same for a PFC port (net/pfc-port.h): a PfcDeviceQueue of `spec.deviceQueue` and a PfcQueueDisc whose eight
 * priorities each have the queue disc `spec` describes (a kind other than None). Returns the PfcQueueDisc.
 */
Ptr<PfcQueueDisc> InstallPfcPortQueues(Ptr<PointToPointNetDevice> dev, const PortQueueSpec& spec, DataRate rate,
                                       Time delay);

/** The root queue disc on `dev`, or null when it has none. */
Ptr<QueueDisc> RootQueueDisc(Ptr<NetDevice> dev);

} // namespace ns3

#endif // IWARP_PORT_QUEUES_H
