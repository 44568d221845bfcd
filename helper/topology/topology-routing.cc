/*
 * TopologyBuilder::InstallRoutes: host routes from breadth-first shortest paths on the Boost
 * graph. One BFS per destination host (O(hosts x links), milliseconds for a k=8 fat-tree),
 * instead of ns-3's global routing, which runs an SPF per node over its own link-state
 * database and does not know which nodes are hosts.
 */
#include "helper/topology/topology-builder.h"

#include "net/ipv4-ecmp-routing.h"
#include "net/switch-forwarder.h"

#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "common/class-log-component.h"


namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(TopologyBuilder);

void
TopologyBuilder::InstallRoutes(const TopologySpec& spec, BuiltTopology& topo)
{
    const TopologyGraph& g = topo.graph;
    const size_t n = boost::num_vertices(g);

    std::vector<Ptr<Ipv4StaticRouting>> statics(n);
    std::vector<Ptr<Ipv4EcmpRouting>> ecmp(n);
    const bool hashed = spec.ecmp || spec.routeTable == RouteTable::Hashed;
    Ipv4StaticRoutingHelper helper;
    for (TopoVertexId v = 0; v < n; ++v)
    {
        Ptr<Ipv4> ipv4 = g[v].node->GetObject<Ipv4>();
        statics[v] = helper.GetStaticRouting(ipv4);
        if (hashed)
        {
            // Above static routing (priority 0): it answers for the hosts, static for the /30s.
            ecmp[v] = CreateObject<Ipv4EcmpRouting>();
            ecmp[v]->Reserve(topo.hosts.GetN());
            DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol())->AddRoutingProtocol(ecmp[v], 10);
        }
    }

    std::vector<Ipv4EcmpRouting::NextHop> hops;
    uint64_t unreachable = 0;
    for (TopoVertexId d = 0; d < n; ++d)
    {
        if (!g[d].IsHost())
        {
            continue;
        }
        const Ipv4Address dest = topo.hostAddresses[g[d].index];
        const std::vector<int32_t> dist = HopDistances(g, d);

        for (TopoVertexId u = 0; u < n; ++u)
        {
            if (dist[u] <= 0)
            {
                // the destination itself, or cut off from it (a GraphML file can be disconnected)
                unreachable += dist[u] < 0 && g[u].IsHost();
                continue;
            }
            hops.clear();
            for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(u, g)))
            {
                const TopoVertexId v = boost::target(e, g);
                if (dist[v] != dist[u] - 1 || (v != d && g[v].IsHost()))
                {
                    continue;
                }
                const BuiltLink& link = topo.links[g[e].link];
                const bool atA = link.vertexA == u;
                hops.push_back({atA ? link.ifA : link.ifB,
                                v == d ? Ipv4Address::GetZero() : (atA ? link.addrB : link.addrA)});
            }
            NS_ASSERT(!hops.empty());
            if (spec.ecmp)
            {
                ecmp[u]->SetRoute(dest, hops);
                continue;
            }
            // Deterministic, and spread by destination (as D-mod-k routing in fat-trees)
            // rather than all traffic on the first equal-cost hop.
            const Ipv4EcmpRouting::NextHop hop = hops[g[d].index % hops.size()];
            if (hashed)
            {
                ecmp[u]->SetRoute(dest, {hop});
            }
            else if (hop.gateway == Ipv4Address::GetZero())
            {
                statics[u]->AddHostRouteTo(dest, hop.interface);
            }
            else
            {
                statics[u]->AddHostRouteTo(dest, hop.gateway, hop.interface);
            }
        }
    }
    if (hashed && spec.switchFastPath)
    {
        for (TopoVertexId v = 0; v < n; ++v)
        {
            if (!g[v].IsHost())
            {
                CreateObject<SwitchForwarder>()->Install(g[v].node, ecmp[v]);
            }
        }
    }
    if (unreachable > 0)
    {
        NS_LOG_WARN(unreachable << " ordered host pairs have no path: the graph is disconnected");
    }
}

} // namespace ns3
