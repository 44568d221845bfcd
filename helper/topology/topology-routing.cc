/*
 * TopologyBuilder::InstallRoutes: host routes to every host address from breadth-first shortest
 * paths on the Boost graph. About one BFS per switch that hosts hang off (O(addresses x links)
 * at most, milliseconds for a k=8 fat-tree), instead of ns-3's global routing, which runs an SPF
 * per node over its own link-state database and does not know which nodes are hosts.
 */
#include "helper/topology/topology-builder.h"

#include "net/ipv4-ecmp-routing.h"
#include "net/switch-forwarder.h"

#include "ns3/abort.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "common/class-log-component.h"

#include <iterator>

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
    const uint32_t routes = topo.HostAddressCount(); // one route per host address at most
    Ipv4StaticRoutingHelper helper;
    for (TopoVertexId v = 0; v < n; ++v)
    {
        Ptr<Ipv4> ipv4 = g[v].node->GetObject<Ipv4>();
        r.statics[v] = helper.GetStaticRouting(ipv4);
        if (hashed)
        {
            // Above static routing (priority 0): it answers for the hosts, static for the /30s.
            r.ecmp[v] = CreateObject<Ipv4EcmpRouting>();
            r.ecmp[v]->Reserve(routes);
            DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol())->AddRoutingProtocol(r.ecmp[v], 10);
        }
    }
    return r;
}

/** One host address to route to: host d's address on link `last`, whose other end is `s`. */
struct AddressTarget
{
    TopoVertexId d;
    TopoEdgeId last;
    TopoVertexId s;
    Ipv4Address dest;
};

/**
 * Hop distances (HopDistances) from the last few switches searched. The routes to an address start with a
 * search from the switch at the far end of its link; consecutive addresses share that switch in every
 * generated shape (InstallAll's order: a multi-plane fabric one plane after the other), and a few slots more
 * cover GraphML files that interleave, so it takes about one search per such switch, where it was one per
 * destination host before hosts had several addresses.
 */
class DistanceCache
{
  public:
    DistanceCache(const TopologyGraph& g, const std::vector<bool>* linkDown)
        : m_g(g),
          m_linkDown(linkDown)
    {
    }

    const std::vector<int32_t>& From(TopoVertexId s)
    {
        for (std::size_t i = 0; i < m_from.size(); ++i)
        {
            if (m_from[i] == s)
            {
                return m_dist[i];
            }
        }
        std::size_t slot = m_from.size();
        if (slot < kSlots)
        {
            m_from.push_back(s);
            m_dist.emplace_back();
        }
        else
        {
            slot = m_next;
            m_next = (m_next + 1) % kSlots;
            m_from[slot] = s;
        }
        m_dist[slot] = HopDistances(m_g, s, m_linkDown);
        return m_dist[slot];
    }

  private:
    static constexpr std::size_t kSlots = 8;
    const TopologyGraph& m_g;
    const std::vector<bool>* m_linkDown;
    std::vector<TopoVertexId> m_from;
    std::vector<std::vector<int32_t>> m_dist;
    std::size_t m_next{0};
};

/**
 * Into `hops`: u's next hops towards address t. At t.s that is t's own link; elsewhere the neighbours one hop
 * closer to t.s (`dist`: hops to t.s, null when u is t.s), never a host (hosts do not forward, and t.d is
 * reached over t.last only) nor over a link marked in `linkDown` (null: none).
 */
void
NextHops(const BuiltTopology& topo,
         TopoVertexId u,
         const AddressTarget& t,
         const std::vector<int32_t>* dist,
         const std::vector<bool>* linkDown,
         std::vector<Ipv4EcmpRouting::NextHop>& hops)
{
    const TopologyGraph& g = topo.graph;
    hops.clear();
    if (u == t.s)
    {
        const BuiltLink& link = topo.links[g[t.last].link];
        hops.push_back({link.vertexA == u ? link.ifA : link.ifB, Ipv4Address::GetZero()});
        return;
    }
    for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(u, g)))
    {
        const TopoVertexId v = boost::target(e, g);
        if ((*dist)[v] != (*dist)[u] - 1 || g[v].IsHost() || (linkDown && (*linkDown)[g[e].link]))
        {
            continue;
        }
        const BuiltLink& link = topo.links[g[e].link];
        const bool atA = link.vertexA == u;
        hops.push_back({atA ? link.ifA : link.ifB, atA ? link.addrB : link.addrA});
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

/** What InstallAll installs with: the same for a build and for every Reroute. */
struct RouteRun
{
    bool ecmpGroups;
    bool hashed;
    const NodeRouting& routing;
    const std::vector<bool>* linkDown; ///< null: every link up
};

/**
 * Every node's route to address t: shortest paths to t.s that transit no host, then t's link (rule of
 * doc/topology.md, "Routing"). For a host with one link this is the breadth-first search from the host
 * itself that routes were computed by before hosts had several addresses: the same distances, next hops in
 * the same order, the same `destIndex % n` choice. Returns how many other hosts have no path to t.
 */
uint64_t
RoutesTo(const RouteRun& run, const BuiltTopology& topo, const AddressTarget& t, DistanceCache& cache,
         std::vector<Ipv4EcmpRouting::NextHop>& hops)
{
    const TopologyGraph& g = topo.graph;
    const bool lastUp = !run.linkDown || !(*run.linkDown)[g[t.last].link];
    // A host at the far end forwards for nobody: only it reaches t (the two-hosts shape).
    const bool viaSwitch = !g[t.s].IsHost();
    const std::vector<int32_t>* dist = lastUp && viaSwitch ? &cache.From(t.s) : nullptr;
    uint64_t unreachable = 0;
    for (TopoVertexId u = 0; u < boost::num_vertices(g); ++u)
    {
        if (u == t.d)
        {
            continue;
        }
        if (!lastUp || (u != t.s && (!dist || (*dist)[u] <= 0)))
        {
            // cut off from it (a GraphML file can be disconnected, a link can be down)
            unreachable += g[u].IsHost();
            continue;
        }
        NextHops(topo, u, t, dist, run.linkDown, hops);
        NS_ASSERT(!hops.empty());
        SetRoute(run.ecmpGroups, run.hashed, run.routing, u, t.dest, g[t.d].index, hops);
    }
    return unreachable;
}

/**
 * Routes to every host address, the first address of every host, then the second of those with two, ...:
 * with one link per host the order routes were always installed in (host by host, every node's route to it), and with
 * planes one plane after the other, so that consecutive routes share next-hop sets (Ipv4EcmpRouting::SetRoute
 * stores a run of equal sets once) and far-end switches (DistanceCache). Returns the unreachable
 * host-to-address pairs.
 */
uint64_t
InstallAll(const RouteRun& run, const BuiltTopology& topo)
{
    const TopologyGraph& g = topo.graph;
    DistanceCache cache(g, run.linkDown);
    std::vector<Ipv4EcmpRouting::NextHop> hops;
    uint64_t unreachable = 0;
    bool more = true;
    for (std::size_t rank = 0; more; ++rank)
    {
        more = false;
        for (TopoVertexId d = 0; d < boost::num_vertices(g); ++d)
        {
            const std::size_t degree = boost::out_degree(d, g);
            if (!g[d].IsHost() || degree <= rank)
            {
                continue;
            }
            more = more || degree > rank + 1;
            const TopoEdgeId last = *std::next(boost::out_edges(d, g).first, rank);
            const BuiltLink& link = topo.links[g[last].link];
            const bool atA = link.vertexA == d;
            const AddressTarget t{d, last, atA ? link.vertexB : link.vertexA, atA ? link.addrA : link.addrB};
            unreachable += RoutesTo(run, topo, t, cache, hops);
        }
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
    const uint64_t unreachable = InstallAll(RouteRun{spec.ecmp, hashed, routing, nullptr}, topo);
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
        NS_LOG_WARN(unreachable << " pairs of a host and another host's address have no path: the graph is "
                                   "disconnected");
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
    InstallAll(RouteRun{m_ecmpGroups, true, routing, &linkDown}, *this);
}

} // namespace ns3
