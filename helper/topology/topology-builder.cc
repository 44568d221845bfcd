#include "helper/topology/topology-builder.h"

#include "helper/topology/port-queues.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/point-to-point-helper.h"

#include <chrono>
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(TopologyBuilder)

namespace
{

/** 10.0.0.0/8 cut into /30s: link i is 10.0.0.0 + 4i, its ends .1 and .2 of that block. */
constexpr uint32_t kBase = 0x0A000000; // 10.0.0.0/8 holds kMaxLinks (topology-graph.h) /30s

template <class V>
void
Override(const std::string& text, V& value, Ptr<const AttributeChecker> checker,
         const std::string& what,
         const BuiltLink& link)
{
    if (text.empty())
    {
        return;
    }
    if (!value.DeserializeFromString(text, checker))
    {
        throw TopologyError("link " + link.a + " -- " + link.b + ": cannot parse " + what + " '" +
                            text + "'");
    }
}

/** A spec built in code breaks the same rules a scenario file would (CheckImpairment). */
void
ThrowIfInvalid(const ImpairmentSpec& imp)
{
    if (auto problem = CheckImpairment(imp))
    {
        throw TopologyError("impairment: " + problem->message);
    }
}

/** A named link's impairment replaces the everywhere one; the last naming wins. */
const ImpairmentSpec*
ImpairmentFor(const TopologySpec& spec, const BuiltLink& link)
{
    const ImpairmentSpec* imp = spec.impairAll ? &*spec.impairAll : nullptr;
    for (const LinkImpairment& li : spec.impairLinks)
    {
        if ((li.a == link.a && li.b == link.b) || (li.a == link.b && li.b == link.a))
        {
            imp = &li.impairment;
        }
    }
    return imp;
}

Ptr<GilbertElliottErrorModel>
MakeLossModel(const ImpairmentSpec& imp)
{
    // Independent loss is the chain that never leaves its good state.
    GilbertElliottSpec ge = imp.gilbertElliott.value_or(GilbertElliottSpec{0.0, 1.0, imp.loss.value_or(0.0), 1.0});
    Ptr<GilbertElliottErrorModel> em = CreateObject<GilbertElliottErrorModel>();
    em->SetAttribute("PGoodToBad", DoubleValue(ge.p));
    em->SetAttribute("RBadToGood", DoubleValue(ge.r));
    em->SetAttribute("LossGood", DoubleValue(ge.lossGood));
    em->SetAttribute("LossBad", DoubleValue(ge.lossBad));
    return em;
}

} // namespace

// ----------------------------------------------------------------------------------------------
// BuiltTopology
// ----------------------------------------------------------------------------------------------

TopoVertexId
BuiltTopology::Vertex(const std::string& name) const
{
    auto it = m_vertex.find(name);
    if (it == m_vertex.end())
    {
        throw TopologyError("topology has no node named '" + name + "'");
    }
    return it->second;
}

Ptr<Node>
BuiltTopology::GetNode(const std::string& name) const
{
    return graph[Vertex(name)].node;
}

Ipv4Address
BuiltTopology::GetHostAddress(const std::string& name) const
{
    const TopoVertex& v = graph[Vertex(name)];
    if (!v.IsHost())
    {
        throw TopologyError("'" + name + "' is a switch, not a host");
    }
    return hostAddresses.at(v.index);
}

Ipv4Address
BuiltTopology::AddressAt(TopoVertexId v, TopoEdgeId e) const
{
    const BuiltLink& link = links[graph[e].link];
    return link.vertexA == v ? link.addrA : link.addrB;
}

std::vector<Ipv4Address>
BuiltTopology::GetHostAddresses(const std::string& name) const
{
    const TopoVertexId v = Vertex(name);
    if (!graph[v].IsHost())
    {
        throw TopologyError("'" + name + "' is a switch, not a host");
    }
    std::vector<Ipv4Address> addresses;
    for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(v, graph)))
    {
        addresses.push_back(AddressAt(v, e));
    }
    return addresses;
}

uint32_t
BuiltTopology::HostAddressCount() const
{
    uint64_t n = 0;
    for (TopoVertexId v = 0; v < boost::num_vertices(graph); ++v)
    {
        n += graph[v].IsHost() ? boost::out_degree(v, graph) : 0;
    }
    return static_cast<uint32_t>(n);
}

std::vector<uint32_t>
BuiltTopology::FindLinks(const std::string& a, const std::string& b) const
{
    const TopoVertexId va = Vertex(a);
    const TopoVertexId vb = Vertex(b);
    std::vector<uint32_t> found;
    for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(va, graph)))
    {
        if (boost::target(e, graph) == vb)
        {
            found.push_back(graph[e].link);
        }
    }
    return found;
}

void
BuiltTopology::EnablePcapOn(const std::string& prefix, const BuiltLink& link) const
{
    PointToPointHelper p2p;
    p2p.EnablePcap(prefix + "-" + link.a + "-" + link.b + ".pcap", link.devA, false, true);
    p2p.EnablePcap(prefix + "-" + link.b + "-" + link.a + ".pcap", link.devB, false, true);
}

void
BuiltTopology::EnablePcap(const std::string& prefix, const std::string& a,
                          const std::string& b) const
{
    std::vector<uint32_t> found = FindLinks(a, b);
    if (found.empty())
    {
        throw TopologyError("EnablePcap: no link between '" + a + "' and '" + b + "'");
    }
    for (uint32_t i : found)
    {
        EnablePcapOn(prefix, links[i]);
    }
}

void
BuiltTopology::EnablePcapAll(const std::string& prefix) const
{
    for (const BuiltLink& link : links)
    {
        EnablePcapOn(prefix, link);
    }
}

int64_t
BuiltTopology::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (BuiltLink& link : links)
    {
        for (const auto& em : {link.lossAtA, link.lossAtB})
        {
            if (em)
            {
                used += em->AssignStreams(stream + used);
            }
        }
        if (link.reorder)
        {
            used += link.reorder->AssignStreams(stream + used);
        }
    }
    return used;
}

ImpairmentCounters
BuiltTopology::Counters() const
{
    ImpairmentCounters c;
    for (const BuiltLink& link : links)
    {
        for (const auto& em : {link.lossAtA, link.lossAtB})
        {
            if (em)
            {
                c.seen += em->GetSeen();
                c.dropped += em->GetDropped();
            }
        }
        if (link.reorder)
        {
            c.delayed += link.reorder->GetDelayed();
        }
    }
    return c;
}

// ----------------------------------------------------------------------------------------------
// TopologyBuilder
// ----------------------------------------------------------------------------------------------

LinkParams
TopologyBuilder::ParamsFor(const TopologySpec& spec, LinkTier tier)
{
    switch (tier)
    {
    case LinkTier::Host:
        return spec.hostLinks.value_or(spec.link);
    case LinkTier::Fabric:
        return spec.fabricLinks.value_or(spec.link);
    case LinkTier::Bottleneck:
        return spec.bottleneck.value_or(spec.fabricLinks.value_or(spec.link));
    }
    return spec.link;
}

void
TopologyBuilder::Check(const TopologySpec& spec)
{
    BuiltTopology topo;
    CheckInput(spec, topo);
}

void
TopologyBuilder::CheckInput(const TopologySpec& spec, BuiltTopology& topo)
{
    if (spec.impairAll)
    {
        ThrowIfInvalid(*spec.impairAll);
    }
    for (const LinkImpairment& li : spec.impairLinks)
    {
        ThrowIfInvalid(li.impairment);
    }
    topo.graph = MakeTopologyGraph(spec);
    if (boost::num_edges(topo.graph) > kMaxLinks)
    {
        throw TopologyError("more than " + std::to_string(kMaxLinks) +
                            " links do not fit the 10.0.0.0/8 /30 plan");
    }
    // Every input error is thrown from here, so a failed build leaves no nodes behind.
    Describe(spec, topo);
    CheckPfc(spec, topo);
    for (const LinkImpairment& li : spec.impairLinks)
    {
        if (topo.FindLinks(li.a, li.b).empty())
        {
            throw TopologyError("impairLinks: no link between '" + li.a + "' and '" + li.b + "'");
        }
    }
    for (const LinkQueues& lq : spec.queueLinks)
    {
        if (topo.FindLinks(lq.a, lq.b).empty())
        {
            throw TopologyError("queueLinks: no link between '" + lq.a + "' and '" + lq.b + "'");
        }
    }
    for (const auto& [name, nic] : spec.hostNicByName)
    {
        if (!topo.HasNode(name) || !topo.graph[topo.Vertex(name)].IsHost())
        {
            throw TopologyError("hostNicByName: no host named '" + name + "'");
        }
    }
}

BuiltTopology
TopologyBuilder::Build(const TopologySpec& spec)
{
    const auto start = std::chrono::steady_clock::now();
    BuiltTopology topo;
    CheckInput(spec, topo);
    CreateNodes(topo);
    CreateLinks(spec, topo);
    AddImpairments(spec, topo);
    AddPfc(spec, topo);
    topo.AssignStreams(spec.firstStream);
    InstallRoutes(spec, topo);
    topo.buildSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    NS_LOG_INFO(ToString(spec.kind) << ": " << topo.hosts.GetN() << " hosts, "
                                    << topo.switches.GetN() << " switches, " << topo.LinkCount()
                                    << " links in " << topo.buildSeconds << " s");
    return topo;
}

void
TopologyBuilder::Describe(const TopologySpec& spec, BuiltTopology& topo)
{
    TopologyGraph& g = topo.graph;
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        if (!topo.m_vertex.emplace(g[v].name, v).second)
        {
            throw TopologyError("two nodes are named '" + g[v].name + "'");
        }
        if (boost::out_degree(v, g) == 0)
        {
            throw TopologyError("node '" + g[v].name + "' has no link");
        }
    }
    for (TopoEdgeId e : boost::make_iterator_range(boost::edges(g)))
    {
        BuiltLink link;
        link.vertexA = boost::source(e, g);
        link.vertexB = boost::target(e, g);
        link.a = g[link.vertexA].name;
        link.b = g[link.vertexB].name;
        link.tier = g[e].tier;
        link.params = ParamsFor(spec, link.tier);
        DataRateValue rate(link.params.rate);
        TimeValue delay(link.params.delay);
        QueueSizeValue queue(link.params.queue);
        Override(g[e].rate, rate, MakeDataRateChecker(), "rate", link);
        Override(g[e].delay, delay, MakeTimeChecker(), "delay", link);
        Override(g[e].queue, queue, MakeQueueSizeChecker(), "queue", link);
        link.params.rate = rate.Get();
        link.params.delay = delay.Get();
        link.params.queue = queue.Get();
        for (const LinkQueues& lq : spec.queueLinks)
        {
            if ((lq.a == link.a && lq.b == link.b) || (lq.a == link.b && lq.b == link.a))
            {
                link.params.queue = lq.queue.value_or(link.params.queue);
                link.params.deviceQueue = lq.deviceQueue.value_or(link.params.deviceQueue);
                link.params.queueDisc = lq.disc.value_or(link.params.queueDisc);
            }
        }
        // A host's end gets the host's NIC queues, a switch's end the link's port queues.
        auto portOf = [&](TopoVertexId v) {
            if (!g[v].IsHost())
            {
                return link.params.Ports();
            }
            auto it = spec.hostNicByName.find(g[v].name);
            return it != spec.hostNicByName.end() ? it->second : spec.hostNic;
        };
        link.queuesA = portOf(link.vertexA);
        link.queuesB = portOf(link.vertexB);
        CheckPortQueues(link.queuesA, "link " + link.a + " -- " + link.b + " at " + link.a);
        CheckPortQueues(link.queuesB, "link " + link.a + " -- " + link.b + " at " + link.b);
        g[e].link = static_cast<uint32_t>(topo.links.size());
        topo.links.push_back(std::move(link));
    }
}

void
TopologyBuilder::CreateNodes(BuiltTopology& topo)
{
    TopologyGraph& g = topo.graph;
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        g[v].node = CreateObject<Node>();
        if (g[v].IsHost())
        {
            g[v].index = topo.hosts.GetN();
            topo.hosts.Add(g[v].node);
            topo.hostNames.push_back(g[v].name);
        }
        else
        {
            g[v].index = topo.switches.GetN();
            topo.switches.Add(g[v].node);
            topo.switchNames.push_back(g[v].name);
        }
    }
    topo.nodes.Add(topo.hosts);
    topo.nodes.Add(topo.switches);

    // Static routing only: routes come from the graph, not from ns-3's global routing (whose
    // SPF over every node and interface is what makes large builds slow).
    Ipv4StaticRoutingHelper staticRouting;
    Ipv4ListRoutingHelper list;
    list.Add(staticRouting, 0);
    InternetStackHelper stack;
    stack.SetRoutingHelper(list);
    stack.Install(topo.nodes);
}

void
TopologyBuilder::CreateLinks(const TopologySpec& spec, BuiltTopology& topo)
{
    TopologyGraph& g = topo.graph;
    const Ipv4Mask mask("255.255.255.252");
    for (uint32_t index = 0; index < topo.links.size(); ++index)
    {
        BuiltLink& link = topo.links[index];
        // Reordering needs the channel subclass; plain links keep ns-3's own channel.
        const ImpairmentSpec* imp = ImpairmentFor(spec, link);
        if (imp && imp->reorder && imp->reorder->fraction > 0)
        {
            link.reorder = CreateObject<ReorderingChannel>();
            link.reorder->SetAttribute("ReorderFraction", DoubleValue(imp->reorder->fraction));
            link.reorder->SetAttribute("ReorderDelay", TimeValue(imp->reorder->delay));
            link.channel = link.reorder;
        }
        else
        {
            link.channel = CreateObject<PointToPointChannel>();
        }
        link.channel->SetAttribute("Delay", TimeValue(link.params.delay));

        const uint32_t net = kBase + 4 * index;
        auto makeEnd = [&](TopoVertexId v, uint32_t host, const PortQueueSpec& queues, uint32_t& ifIndex,
                           Ipv4Address& addr) {
            Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
            dev->SetAddress(Mac48Address::Allocate());
            dev->SetDataRate(link.params.rate);
            g[v].node->AddDevice(dev);
            dev->Attach(link.channel);
            addr = Ipv4Address(net + host);
            Ptr<Ipv4> ipv4 = g[v].node->GetObject<Ipv4>();
            ifIndex = ipv4->AddInterface(dev);
            ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(addr, mask));
            ipv4->SetUp(ifIndex);
            // Addresses are assigned by hand, so no helper installs a queue disc: the port's
            // queues are all made here (helper/topology/port-queues.h).
            if (spec.pfc)
            {
                InstallPfcPortQueues(dev, queues, link.params.rate, link.params.delay);
            }
            else
            {
                InstallPortQueues(dev, queues, link.params.rate, link.params.delay);
            }
            return dev;
        };
        link.devA = makeEnd(link.vertexA, 1, link.queuesA, link.ifA, link.addrA);
        link.devB = makeEnd(link.vertexB, 2, link.queuesB, link.ifB, link.addrB);
    }

    // A host has an address on each link (GetHostAddresses); its first link's is its primary, the
    // one workloads address. Hosts do not forward.
    topo.hostAddresses.resize(topo.hosts.GetN());
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        if (!g[v].IsHost())
        {
            // A switch takes a packet as its own only on the port that has the address (RFC 1122's
            // strong end-system model). No workload addresses a switch, so what is forwarded and
            // delivered is the same; but ns-3's weak model (its default) compares every packet's
            // destination with the addresses of every other port first, per hop (2.3 % of a k = 16
            // fat-tree run's CPU time, doc/performance.md).
            g[v].node->GetObject<Ipv4>()->SetAttribute("WeakEsModel", BooleanValue(false));
            continue;
        }
        topo.hostAddresses[g[v].index] = topo.AddressAt(v, *boost::out_edges(v, g).first);
        g[v].node->GetObject<Ipv4>()->SetAttribute("IpForward", BooleanValue(false));
    }
}

void
TopologyBuilder::AddImpairments(const TopologySpec& spec, BuiltTopology& topo)
{
    for (BuiltLink& link : topo.links)
    {
        const ImpairmentSpec* imp = ImpairmentFor(spec, link);
        if (!imp || (imp->loss.value_or(0.0) <= 0 && !imp->gilbertElliott))
        {
            continue;
        }
        // Loss is applied where packets arrive, one model (and RNG stream) per direction.
        link.lossAtA = MakeLossModel(*imp);
        link.lossAtB = MakeLossModel(*imp);
        link.devA->SetReceiveErrorModel(link.lossAtA);
        link.devB->SetReceiveErrorModel(link.lossAtB);
    }
}

} // namespace ns3
