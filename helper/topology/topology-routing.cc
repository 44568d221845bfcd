/*
 * TopologyBuilder::InstallRoutes: host routes from breadth-first shortest paths on the Boost
 * graph. One BFS per destination host (O(hosts x links), milliseconds for a k=8 fat-tree),
 * instead of ns-3's global routing, which runs an SPF per node over its own link-state
 * database and does not know which nodes are hosts.
 */
#include "helper/topology/topology-builder.h"

#include "net/ipv4-ecmp-routing.h"
#include "net/switch-forwarder.h"

#include "ns3/abort.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "common/class-log-component.h"


namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(TopologyBuilder);

namespace
{

/** Each node's static routing, and an Ipv4EcmpRouting above it when routes are hashed (else null). */
struct NodeRouting
{
    std::vector<Ptr<Ipv4StaticRouting>> statics;
    std::vector<Ptr<Ipv4EcmpRouting>> ecmp;
};

NodeRouting
AddRouting(const BuiltTopology& topo, bool hashed)
{
    const TopologyGraph& g = topo.graph;
    const size_t n = boost::num_vertices(g);
    NodeRouting r{std::vector<Ptr<Ipv4StaticRouting>>(n), std::vector<Ptr<Ipv4EcmpRouting>>(n)};
    Ipv4StaticRoutingHelper helper;
    for (TopoVertexId v = 0; v < n; ++v)
    {
        Ptr<Ipv4> ipv4 = g[v].node->GetObject<Ipv4>();
        r.statics[v] = helper.GetStaticRouting(ipv4);
        if (hashed)
        {
            // Above static routing (priority 0): it answers for the hosts, static for the /30s.
            r.ecmp[v] = CreateObject<Ipv4EcmpRouting>();
            r.ecmp[v]->Reserve(topo.hosts.GetN());
            DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol())->AddRoutingProtocol(r.ecmp[v], 10);
        }
    }
    return r;
}

/**
 * Into `hops`: u's neighbours one hop closer to host d (`dist`: hops to d), never through another host nor
 * over a link marked in `linkDown` (null: none).
 */
void
NextHops(const BuiltTopology& topo,
         TopoVertexId u,
         TopoVertexId d,
         const std::vector<int32_t>& dist,
         const std::vector<bool>* linkDown,
         std::vector<Ipv4EcmpRouting::NextHop>& hops)
{
    const TopologyGraph& g = topo.graph;
    hops.clear();
    for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(u, g)))
    {
        const TopoVertexId v = boost::target(e, g);
        if (dist[v] != dist[u] - 1 || (v != d && g[v].IsHost()) || (linkDown && (*linkDown)[g[e].link]))
        {
            continue;
        }
        const BuiltLink& link = topo.links[g[e].link];
        const bool atA = link.vertexA == u;
        hops.push_back({atA ? link.ifA : link.ifB,
                        v == d ? Ipv4Address::GetZero() : (atA ? link.addrB : link.addrA)});
    }
}

/** u's route to `dest`, host number `destIndex`: every equal-cost hop (ecmp), or one of them. */
void
SetRoute(bool ecmpGroups,
         bool hashed,
         const NodeRouting& r,
         TopoVertexId u,
         Ipv4Address dest,
         uint32_t destIndex,
         const std::vector<Ipv4EcmpRouting::NextHop>& hops)
{
    if (ecmpGroups)
    {
        r.ecmp[u]->SetRoute(dest, hops);
        return;
    }
    // Deterministic, and spread by destination (as D-mod-k routing in fat-trees)
    // rather than all traffic on the first equal-cost hop.
    const Ipv4EcmpRouting::NextHop hop = hops[destIndex % hops.size()];
    if (hashed)
    {
        r.ecmp[u]->SetRoute(dest, {hop});
    }
    else if (hop.gateway == Ipv4Address::GetZero())
    {
        r.statics[u]->AddHostRouteTo(dest, hop.interface);
    }
    else
    {
        r.statics[u]->AddHostRouteTo(dest, hop.gateway, hop.interface);
    }
}

/** Every node's route to host d; returns how many hosts have no path to it. */
uint64_t
RoutesTo(bool ecmpGroups,
         const BuiltTopology& topo,
         bool hashed,
         const NodeRouting& r,
         TopoVertexId d,
         const std::vector<bool>* linkDown,
         std::vector<Ipv4EcmpRouting::NextHop>& hops)
{
    const TopologyGraph& g = topo.graph;
    const Ipv4Address dest = topo.hostAddresses[g[d].index];
    const std::vector<int32_t> dist = HopDistances(g, d, linkDown);
    uint64_t unreachable = 0;
    for (TopoVertexId u = 0; u < boost::num_vertices(g); ++u)
    {
        if (dist[u] <= 0)
        {
            // the destination itself, or cut off from it (a GraphML file can be disconnected)
            unreachable += dist[u] < 0 && g[u].IsHost();
            continue;
        }
        NextHops(topo, u, d, dist, linkDown, hops);
        NS_ASSERT(!hops.empty());
        SetRoute(ecmpGroups, hashed, r, u, dest, g[d].index, hops);
    }
    return unreachable;
}

} // namespace

void
TopologyBuilder::InstallRoutes(const TopologySpec& spec, BuiltTopology& topo)
{
    const TopologyGraph& g = topo.graph;
    const size_t n = boost::num_vertices(g);
    const bool hashed = spec.ecmp || spec.routeTable == RouteTable::Hashed;
    const NodeRouting routing = AddRouting(topo, hashed);

    std::vector<Ipv4EcmpRouting::NextHop> hops;
    uint64_t unreachable = 0;
    for (TopoVertexId d = 0; d < n; ++d)
    {
        if (g[d].IsHost())
        {
            unreachable += RoutesTo(spec.ecmp, topo, hashed, routing, d, nullptr, hops);
        }
    }
    topo.m_ecmp = routing.ecmp;
    topo.m_ecmpGroups = spec.ecmp;
    if (hashed && spec.switchFastPath)
    {
        for (TopoVertexId v = 0; v < n; ++v)
        {
            if (!g[v].IsHost())
            {
                CreateObject<SwitchForwarder>()->Install(g[v].node, routing.ecmp[v]);
            }
        }
    }
    if (unreachable > 0)
    {
        NS_LOG_WARN(unreachable << " ordered host pairs have no path: the graph is disconnected");
    }
}

Ptr<Ipv4EcmpRouting>
BuiltTopology::HostRoutes(const std::string& name) const
{
    const TopoVertexId v = Vertex(name);
    return v < m_ecmp.size() ? m_ecmp[v] : nullptr;
}

void
BuiltTopology::Reroute(const std::vector<bool>& linkDown)
{
    NS_ABORT_MSG_IF(linkDown.size() != links.size(), "Reroute: one flag per link");
    if (m_ecmp.empty() || !m_ecmp.front())
    {
        throw TopologyError("rerouting needs the hashed route table (ns-3's static routes cannot be replaced)");
    }
    const NodeRouting routing{std::vector<Ptr<Ipv4StaticRouting>>(m_ecmp.size()), m_ecmp};
    for (const Ptr<Ipv4EcmpRouting>& table : m_ecmp)
    {
        table->ClearRoutes();
    }
    std::vector<Ipv4EcmpRouting::NextHop> hops;
    for (TopoVertexId d = 0; d < boost::num_vertices(graph); ++d)
    {
        if (graph[d].IsHost())
        {
            RoutesTo(m_ecmpGroups, *this, true, routing, d, &linkDown, hops);
        }
    }
}

} // namespace ns3
