/*
 * PFC in a built topology (TopologySpec::pfc): every port's queues are PFC queues (InstallPfcPortQueues, when the
 * links are made), and once the loss models are on the devices each device gets its PfcPort: a switch's ports
 * send PAUSE at the spec's thresholds, a host's obey. Each port's headroom is what its link needs (pfc::Headroom),
 * reported with its counters.
 */
#include "helper/topology/topology-builder.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <functional>
#include <map>
#include <tuple>

namespace ns3
{

namespace
{
/** The point-to-point devices' MTU: the builder leaves ns-3's default. */
uint32_t
DefaultMtu()
{
    TypeId::AttributeInformation info;
    PointToPointNetDevice::GetTypeId().LookupAttributeByName("Mtu", &info);
    return uint32_t(DynamicCast<const UintegerValue>(info.initialValue)->Get());
}
} // namespace

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
    if (pfc.shared)
    {
        if (pfc.shared->buffer == 0 || !(pfc.shared->alpha > 0))
        {
            throw TopologyError("pfc: a shared buffer needs a size above 0 and alpha above 0");
        }
    }
    else if (pfc.xoff.GetUnit() != QueueSizeUnit::BYTES || pfc.xon.GetUnit() != QueueSizeUnit::BYTES)
    {
        throw TopologyError("pfc: xoff and xon are octets (a size such as 30KB)");
    }
    else if (pfc.xoff.GetValue() == 0 || pfc.xon.GetValue() > pfc.xoff.GetValue())
    {
        throw TopologyError("pfc: xoff must be above 0 and at least xon");
    }
    const uint32_t frame = DefaultMtu() + pfc::kPppLen;
    struct SwitchPort
    {
        const PortQueueSpec& queues;
        TopoVertexId vertex;
        std::string name;
        uint64_t headroom;
    };
    std::vector<SwitchPort> ports;
    std::map<TopoVertexId, uint64_t> reserved; // a switch's ports' headroom, which its shared buffer keeps back
    for (const BuiltLink& link : topo.links)
    {
        for (const auto& [queues, vertex, name] : {std::tuple(std::cref(link.queuesA), link.vertexA, link.a + " -> " + link.b),
                                                  std::tuple(std::cref(link.queuesB), link.vertexB, link.b + " -> " + link.a)})
        {
            const PortQueueSpec& q = queues.get();
            if (q.disc.kind == QueueDiscKind::None)
            {
                throw TopologyError("pfc: every port needs a queue disc (its priorities' queues); the port " + name +
                                    " has queue-disc kind none");
            }
            if (q.deviceQueue.GetUnit() != QueueSizeUnit::PACKETS)
            {
                throw TopologyError("pfc: device queues are sized in packets (the headroom counts them)");
            }
            if (!topo.graph[vertex].IsHost())
            {
                const uint64_t h = pfc::Headroom(link.params.rate, link.params.delay, frame, q.deviceQueue.GetValue());
                ports.push_back(SwitchPort{q, vertex, name, h});
                reserved[vertex] += h;
            }
        }
    }
    for (const SwitchPort& port : ports)
    {
        uint64_t threshold = pfc.xoff.GetValue();
        if (pfc.shared)
        {
            if (pfc.shared->buffer <= reserved[port.vertex])
            {
                throw TopologyError("pfc: the shared buffer (" + std::to_string(pfc.shared->buffer) +
                                    " octets) must be above its switch's ports' headroom (" +
                                    std::to_string(reserved[port.vertex]) + " at " + topo.graph[port.vertex].name + ")");
            }
            threshold = uint64_t(pfc.shared->alpha * double(pfc.shared->buffer - reserved[port.vertex]));
        }
        // One ingress port alone fills one egress queue to its threshold plus its headroom before its peer stops.
        const uint64_t need = threshold + port.headroom;
        const PortQueueSpec& q = port.queues;
        const uint64_t limit =
            q.queue.GetUnit() == QueueSizeUnit::BYTES ? q.queue.GetValue() : uint64_t(q.queue.GetValue()) * frame;
        if (limit < need)
        {
            throw TopologyError("pfc: the switch port " + port.name + " holds " + std::to_string(limit) +
                                " octets, below its XOFF threshold + its headroom (" + std::to_string(need) +
                                "): its lossless priority would drop before XOFF");
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
            Ptr<PfcNode> node = PfcNode::Get(dev->GetNode());
            if (pfc.shared && !topo.graph[v].IsHost() && !node->HasSharedBuffer())
            {
                node->SetAttribute("SharedBuffer", UintegerValue(pfc.shared->buffer));
                node->SetAttribute("Alpha", DoubleValue(pfc.shared->alpha));
                node->SetAttribute("ResumeOffset", UintegerValue(pfc.shared->resumeOffset));
            }
            node->AddPort(port);
            return port;
        };
        link.pfcA = attach(link.devA, link.vertexA, link.queuesA);
        link.pfcB = attach(link.devB, link.vertexB, link.queuesB);
    }
}

} // namespace ns3
