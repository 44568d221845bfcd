#include "helper/scenario/link-drops.h"

#include "net/pfc-frame.h"

#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

LinkDropCounters::LinkDropCounters(const BuiltTopology& topo)
{
    m_links.reserve(topo.links.size());
    for (const BuiltLink& l : topo.links)
    {
        m_links.push_back(LinkDrops{l.a, l.b, 0, 0, 0});
    }
    for (std::size_t i = 0; i < topo.links.size(); ++i)
    {
        Follow(topo.links[i].devA, &m_links[i]);
        Follow(topo.links[i].devB, &m_links[i]);
    }
}

void
LinkDropCounters::Follow(Ptr<PointToPointNetDevice> dev, LinkDrops* counts)
{
    if (!dev)
    {
        return;
    }
    dev->GetQueue()->TraceConnectWithoutContext(
        "Drop", MakeBoundCallback(+[](LinkDrops* c, Ptr<const Packet>) { ++c->queue; }, counts));
    // Scenario events (made before this) put a LinkGate in front of the link's own loss model.
    PointerValue model;
    dev->GetAttribute("ReceiveErrorModel", model);
    m_receivers.push_back(Receiver{counts, DynamicCast<LinkGate>(model.Get<ErrorModel>())});
    dev->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&LinkDropCounters::PhyRxDrop, &m_receivers.back()));
    // A queue disc, where one is installed, drops before the device queue sees the packet.
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    if (Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr)
    {
        qd->TraceConnectWithoutContext(
            "Drop", MakeBoundCallback(+[](LinkDrops* c, Ptr<const QueueDiscItem>) { ++c->queue; }, counts));
    }
}

void
LinkDropCounters::PhyRxDrop(Receiver* r, Ptr<const Packet> p)
{
    const bool down = r->gate && r->gate->IsDown();
    if (!down && pfc::IsPauseFrame(p))
    {
        return; // a PFC port took its PAUSE off the wire: delivered, not lost
    }
    ++(down ? r->counts->linkDown : r->counts->impairment);
}

std::vector<LinkDrops>
LinkDropCounters::Collect() const
{
    std::vector<LinkDrops> out;
    for (const LinkDrops& l : m_links)
    {
        if (l.queue + l.impairment + l.linkDown > 0)
        {
            out.push_back(l);
        }
    }
    return out;
}

} // namespace ns3
