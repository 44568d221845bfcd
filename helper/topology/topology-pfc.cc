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

#include <map>
#include <vector>

namespace ns3
{

namespace
{
/** The largest frame on the wire: the spec's largest MTU (or ns-3's default, which the builder leaves), PPP on. */
uint32_t
LargestFrame(const PfcSpec& pfc)
{
    TypeId::AttributeInformation info;
    PointToPointNetDevice::GetTypeId().LookupAttributeByName("Mtu", &info);
    const uint32_t byDefault = uint32_t(DynamicCast<const UintegerValue>(info.initialValue)->Get());
    return std::max(pfc.largestMtu, byDefault) + pfc::kPppLen;
}

/** One switch port, as CheckPfc weighs it. */
struct SwitchPort
{
    const PortQueueSpec* queues;
    TopoVertexId vertex;
    std::string name; ///< "a -> b"
    uint64_t headroom;
};

/** Every switch port with its headroom (refusing ports PFC cannot run on), and per switch the headroom summed. */
std::vector<SwitchPort>
SwitchPorts(const BuiltTopology& topo, uint32_t frame, std::map<TopoVertexId, uint64_t>& reserved)
{
    std::vector<SwitchPort> ports;
    for (const BuiltLink& link : topo.links)
    {
        for (const SwitchPort& end : {SwitchPort{&link.queuesA, link.vertexA, link.a + " -> " + link.b, 0},
                                      SwitchPort{&link.queuesB, link.vertexB, link.b + " -> " + link.a, 0}})
        {
            const PortQueueSpec& q = *end.queues;
            if (q.disc.kind == QueueDiscKind::None)
            {
                throw TopologyError("pfc: every port needs a queue disc (its priorities' queues); the port " +
                                    end.name + " has queue-disc kind none");
            }
            if (q.deviceQueue.GetUnit() != QueueSizeUnit::PACKETS)
            {
                throw TopologyError("pfc: device queues are sized in packets (the headroom counts them)");
            }
            if (!topo.graph[end.vertex].IsHost())
            {
                ports.push_back(end);
                ports.back().headroom =
                    pfc::Headroom(link.params.rate, link.params.delay, frame, q.deviceQueue.GetValue());
                reserved[end.vertex] += ports.back().headroom;
            }
        }
    }
    return ports;
}

/** The spec's own values, before any port is weighed. */
void
CheckPfcValues(const PfcSpec& pfc)
{
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
    CheckPfcValues(pfc);
    const uint32_t frame = LargestFrame(pfc);
    std::map<TopoVertexId, uint64_t> reserved; // a switch's ports' headroom, which its shared buffer keeps back
    for (const SwitchPort& port : SwitchPorts(topo, frame, reserved))
    {
        uint64_t xoff = pfc.xoff.GetValue();
        std::string what = "xoff";
        if (pfc.shared)
        {
            const uint64_t held = reserved[port.vertex];
            if (pfc.shared->buffer <= held)
            {
                throw TopologyError("pfc: the shared buffer (" + std::to_string(pfc.shared->buffer) +
                                    " octets) must be above its switch's ports' headroom (" + std::to_string(held) +
                                    " at " + topo.graph[port.vertex].name + ")");
            }
            // The latest a port sends XOFF: alone in the buffer, then the packet that crossed it arrives.
            xoff = pfc::LoneThreshold(pfc.shared->buffer, pfc.shared->alpha, held) + frame;
            what = "alpha x (buffer - the switch's headroom, " + std::to_string(held) + ") / (1 + alpha) + a frame";
        }
        // One ingress port alone fills one egress queue to its XOFF plus its headroom before its peer stops.
        const uint64_t need = xoff + port.headroom;
        const PortQueueSpec& q = *port.queues;
        const uint64_t limit =
            q.queue.GetUnit() == QueueSizeUnit::BYTES ? q.queue.GetValue() : uint64_t(q.queue.GetValue()) * frame;
        if (limit < need)
        {
            throw TopologyError("pfc: the switch port " + port.name + " holds " + std::to_string(limit) +
                                " octets, below its XOFF point (" + what + ": " + std::to_string(xoff) +
                                ") + its headroom, " + std::to_string(need) +
                                ": its lossless priority would drop before XOFF");
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
    const uint32_t frame = LargestFrame(pfc); // the MTUs are set after the build: size headroom for the largest
    for (BuiltLink& link : topo.links)
    {
        auto attach = [&](Ptr<PointToPointNetDevice> dev, TopoVertexId v, const PortQueueSpec& queues) {
            Ptr<PfcPort> port = CreateObject<PfcPort>();
            port->SetAttribute("Lossless", UintegerValue(1u << pfc.priority));
            port->SetAttribute("Generate", BooleanValue(!topo.graph[v].IsHost()));
            port->SetAttribute("Xoff", UintegerValue(pfc.xoff.GetValue()));
            port->SetAttribute("Xon", UintegerValue(pfc.xon.GetValue()));
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
