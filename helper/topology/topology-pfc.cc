/*
 * PFC in a built topology (TopologySpec::pfc): every port's queues are PFC queues (InstallPfcPortQueues, when the
 * links are made), and once the loss models are on the devices each device gets its PfcPort: a switch's ports
 * send PAUSE at the spec's thresholds, a host's obey. Each port's headroom is what its link needs (pfc::Headroom),
 * reported with its counters.
 */
#include "helper/topology/topology-builder.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

namespace ns3
{

void
TopologyBuilder::CheckPfc(const TopologySpec& spec, const BuiltTopology& topo)
{
    if (!spec.pfc)
    {
        return;
    }
    const PfcSpec& pfc = *spec.pfc;
    if (pfc.priority >= pfc::kPriorities)
    {
        throw TopologyError("pfc: priority must be 0..7, got " + std::to_string(pfc.priority));
    }
    if (pfc.xoff.GetUnit() != QueueSizeUnit::BYTES || pfc.xon.GetUnit() != QueueSizeUnit::BYTES)
    {
        throw TopologyError("pfc: xoff and xon are octets (a size such as 30KB)");
    }
    if (pfc.xoff.GetValue() == 0 || pfc.xon.GetValue() > pfc.xoff.GetValue())
    {
        throw TopologyError("pfc: xoff must be above 0 and at least xon");
    }
    for (const BuiltLink& link : topo.links)
    {
        for (const PortQueueSpec* q : {&link.queuesA, &link.queuesB})
        {
            if (q->disc.kind == QueueDiscKind::None)
            {
                throw TopologyError("pfc: every port needs a queue disc (its priorities' queues); the link " +
                                    link.a + " - " + link.b + " has queue-disc kind none");
            }
            if (q->deviceQueue.GetUnit() != QueueSizeUnit::PACKETS)
            {
                throw TopologyError("pfc: device queues are sized in packets (the headroom counts them)");
            }
        }
    }
}

void
TopologyBuilder::AddPfc(const TopologySpec& spec, BuiltTopology& topo)
{
    if (!spec.pfc)
    {
        return;
    }
    const PfcSpec& pfc = *spec.pfc;
    for (BuiltLink& link : topo.links)
    {
        auto attach = [&](Ptr<PointToPointNetDevice> dev, TopoVertexId v, const PortQueueSpec& queues) {
            Ptr<PfcPort> port = CreateObject<PfcPort>();
            port->SetAttribute("Lossless", UintegerValue(1u << pfc.priority));
            port->SetAttribute("Generate", BooleanValue(!topo.graph[v].IsHost()));
            port->SetAttribute("Xoff", UintegerValue(pfc.xoff.GetValue()));
            port->SetAttribute("Xon", UintegerValue(pfc.xon.GetValue()));
            const uint32_t frame = dev->GetMtu() + pfc::kPppLen;
            port->SetAttribute("Headroom", UintegerValue(pfc::Headroom(link.params.rate, link.params.delay, frame,
                                                                       queues.deviceQueue.GetValue())));
            port->Attach(dev);
            PfcNode::Get(dev->GetNode())->AddPort(port);
            return port;
        };
        link.pfcA = attach(link.devA, link.vertexA, link.queuesA);
        link.pfcB = attach(link.devB, link.vertexB, link.queuesB);
    }
}

} // namespace ns3
