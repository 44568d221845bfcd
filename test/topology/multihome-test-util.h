/*
 * Shared by the multi-homing suites (topology-planes-test-suite.cc, topology-multihome-test-suite.cc):
 * a UDP echo to one given address with per-link packet counts, so that a test can say which links a
 * path crossed, and the next hops the routes had before hosts had one address per link (a breadth-first
 * search from each destination host), to compare single-homed topologies' routes with.
 */
#ifndef IWARP_MULTIHOME_TEST_UTIL_H
#define IWARP_MULTIHOME_TEST_UTIL_H

#include "helper/topology/topology-builder.h"
#include "net/ipv4-ecmp-routing.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace topotest
{

/** What an echo to one address did: replies back, and packets received at either end of each link. */
struct EchoPath
{
    uint32_t replies{0};
    std::vector<uint64_t> rxPerLink; ///< by link index, both directions
};

/**
 * `n` UDP echoes from host `from` to `to` (an address of some host), run to 50 ms; the echo server must
 * already be on the destination host (one per build, port 9). Counts every link's received packets.
 */
inline EchoPath
EchoTo(const BuiltTopology& t, const std::string& from, Ipv4Address to, uint32_t n)
{
    EchoPath path;
    path.rxPerLink.assign(t.LinkCount(), 0);
    for (uint32_t i = 0; i < t.LinkCount(); ++i)
    {
        for (const Ptr<PointToPointNetDevice>& dev : {t.links[i].devA, t.links[i].devB})
        {
            dev->TraceConnectWithoutContext(
                "MacRx",
                MakeBoundCallback(+[](uint64_t* c, Ptr<const Packet>) { ++*c; }, &path.rxPerLink[i]));
        }
    }
    UdpEchoClientHelper client(to, 9);
    client.SetAttribute("MaxPackets", UintegerValue(n));
    client.SetAttribute("Interval", TimeValue(MicroSeconds(100)));
    ApplicationContainer apps = client.Install(t.GetNode(from));
    apps.Start(MilliSeconds(1));
    apps.Get(0)->TraceConnectWithoutContext(
        "Rx",
        MakeBoundCallback(+[](uint32_t* r, Ptr<const Packet>) { ++*r; }, &path.replies));
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    return path;
}

/** A UDP echo server (port 9) on host `name`. */
inline void
EchoServerOn(const BuiltTopology& t, const std::string& name)
{
    UdpEchoServerHelper server(9);
    server.Install(t.GetNode(name)).Start(Seconds(0));
}

/**
 * The next hops node u had towards host d before hosts had one address per link: one breadth-first search
 * from d itself (HopDistances), u's neighbours one hop closer, no host but d among them, in u's link order.
 */
inline std::vector<Ipv4EcmpRouting::NextHop>
ReferenceNextHops(const BuiltTopology& t, TopoVertexId u, TopoVertexId d, const std::vector<int32_t>& dist)
{
    const TopologyGraph& g = t.graph;
    std::vector<Ipv4EcmpRouting::NextHop> hops;
    for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(u, g)))
    {
        const TopoVertexId v = boost::target(e, g);
        if (dist[v] != dist[u] - 1 || (v != d && g[v].IsHost()))
        {
            continue;
        }
        const BuiltLink& link = t.links[g[e].link];
        const bool atA = link.vertexA == u;
        hops.push_back({atA ? link.ifA : link.ifB, v == d ? Ipv4Address::GetZero() : (atA ? link.addrB : link.addrA)});
    }
    return hops;
}

} // namespace topotest
} // namespace ns3

#endif // IWARP_MULTIHOME_TEST_UTIL_H
