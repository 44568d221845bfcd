/*
 * iwarp-topology-multihome: every host address is routed over its own link (doc/topology.md, "Routing").
 * A dual-homed host of a GraphML file (test/data/dual-homed.graphml) is reached at both addresses, each over
 * its own link even where the other is nearer, and Reroute cuts one address off without the other; and on
 * single-homed topologies the routes are the ones a breadth-first search from each destination host gave
 * before (same next hops in the same order, the same hops[index % n] choice), static, hashed and ECMP.
 */
#include "helper/topology/topology-builder.h"
#include "topology/multihome-test-util.h"
#include "topology/topology-builder-test-util.h"

#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;
using namespace ns3::topotest;

namespace
{

#ifndef IWARP_SOURCE_DIR
#define IWARP_SOURCE_DIR "."
#endif

BuiltTopology
DualHomed()
{
    return BuildKind(TopologyKind::GraphMl, [](TopologySpec& s) {
        s.graphmlPath = std::string(IWARP_SOURCE_DIR) + "/test/data/dual-homed.graphml";
        s.routeTable = RouteTable::Hashed;
    });
}

/** Link between two named nodes (exactly one). */
uint32_t
LinkOf(const BuiltTopology& t, const std::string& a, const std::string& b)
{
    const std::vector<uint32_t> found = t.FindLinks(a, b);
    NS_ABORT_MSG_IF(found.size() != 1, a << " -- " << b);
    return found[0];
}

/** Node `at`'s address on its link to `to`. */
Ipv4Address
AddressOn(const BuiltTopology& t, const std::string& at, const std::string& to)
{
    const BuiltLink& link = t.links[LinkOf(t, at, to)];
    return link.a == at ? link.addrA : link.addrB;
}

class GraphMlDualHomedTest : public TestCase
{
  public:
    GraphMlDualHomedTest()
        : TestCase("GraphML: a dual-homed host answers at both addresses, each over its own link")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = DualHomed();
        const std::vector<Ipv4Address> a = t.GetHostAddresses("a");
        NS_TEST_ASSERT_MSG_EQ(a.size(), 2, "a has two links, so two addresses");
        NS_TEST_EXPECT_MSG_EQ(a[0], AddressOn(t, "a", "s1"), "its first link's is first");
        NS_TEST_EXPECT_MSG_EQ(a[1], AddressOn(t, "a", "s2"), "then its second link's");
        NS_TEST_EXPECT_MSG_EQ(t.GetHostAddress("a"), a[0], "the primary");
        NS_TEST_EXPECT_MSG_EQ(t.GetHostAddresses("b").size(), 1, "b is single-homed");
        // s3 reaches a's second address by s4 and s2, not by s1 (one hop shorter, but a's other link).
        const auto* viaS4 = t.HostRoutes("s3")->GetNextHops(a[1]);
        NS_TEST_ASSERT_MSG_NE(viaS4, nullptr, "s3 has a route to a's second address");
        NS_TEST_EXPECT_MSG_EQ(viaS4->size(), 1, "one path");
        NS_TEST_EXPECT_MSG_EQ(viaS4->at(0).gateway, AddressOn(t, "s4", "s3"), "over s4");
        const auto* viaS1 = t.HostRoutes("s3")->GetNextHops(a[0]);
        NS_TEST_ASSERT_MSG_NE(viaS1, nullptr, "s3 has a route to a's first address");
        NS_TEST_EXPECT_MSG_EQ(viaS1->at(0).gateway, AddressOn(t, "s1", "s3"), "over s1");
        NS_TEST_EXPECT_MSG_EQ(t.HostRoutes("s1")->GetNextHops(a[1])->at(0).gateway, AddressOn(t, "s3", "s1"),
                              "s1 sends a's second address back through s3, never through host a");
        EchoServerOn(t, "a");
        const EchoPath first = EchoTo(t, "b", a[0], 3);
        NS_TEST_EXPECT_MSG_EQ(first.replies, 3, "a answers at its first address");
        ExpectCrossed(t, first, {{"b", "s3", 6}, {"s1", "s3", 6}, {"a", "s1", 6}});
        Simulator::Destroy();

        // The requests go by a's second link; the replies take a's shortest way back to b, its first
        // link (the route to b's address picks the NIC, and so the reply's source address).
        BuiltTopology t2 = DualHomed();
        EchoServerOn(t2, "a");
        const EchoPath second = EchoTo(t2, "b", a[1], 3);
        NS_TEST_EXPECT_MSG_EQ(second.replies, 3, "a answers at its second address");
        ExpectCrossed(t2,
                      second,
                      {{"b", "s3", 6}, {"s4", "s3", 3}, {"s2", "s4", 3}, {"a", "s2", 3}, {"a", "s1", 3},
                       {"s1", "s3", 3}});
        Simulator::Destroy();
    }

    /** Packets received on each link, both ways, as listed; on every other link none. */
    struct Crossing
    {
        std::string x;
        std::string y;
        uint64_t packets;
    };

    void ExpectCrossed(const BuiltTopology& t, const EchoPath& path, const std::vector<Crossing>& links)
    {
        std::vector<uint64_t> expected(t.LinkCount(), 0);
        for (const Crossing& c : links)
        {
            expected[LinkOf(t, c.x, c.y)] = c.packets;
        }
        for (uint32_t i = 0; i < t.LinkCount(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(path.rxPerLink[i], expected[i], t.links[i].a << " -- " << t.links[i].b);
        }
    }
};

class GraphMlRerouteTest : public TestCase
{
  public:
    GraphMlRerouteTest()
        : TestCase("GraphML: the dual-homed host's first link cut and rerouted, its second address answers")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = DualHomed();
        const std::vector<Ipv4Address> a = t.GetHostAddresses("a");
        std::vector<bool> down(t.LinkCount(), false);
        down[LinkOf(t, "a", "s1")] = true;
        t.Reroute(down);
        for (const char* n : {"b", "s1", "s2", "s3", "s4"})
        {
            NS_TEST_EXPECT_MSG_EQ(t.HostRoutes(n)->GetNextHops(a[0]), nullptr, n << ": a's first address cut off");
            NS_TEST_EXPECT_MSG_NE(t.HostRoutes(n)->GetNextHops(a[1]), nullptr, n << ": its second reached");
        }
        const auto* back = t.HostRoutes("a")->GetNextHops(t.GetHostAddress("b"));
        NS_TEST_ASSERT_MSG_NE(back, nullptr, "a still reaches b");
        NS_TEST_EXPECT_MSG_EQ(back->at(0).gateway, AddressOn(t, "s2", "a"), "by its second link");
        EchoServerOn(t, "a");
        const EchoPath path = EchoTo(t, "b", a[1], 3);
        NS_TEST_EXPECT_MSG_EQ(path.replies, 3, "a answers at its second address, and its reply goes by s2");
        NS_TEST_EXPECT_MSG_EQ(path.rxPerLink[LinkOf(t, "a", "s1")], 0, "nothing over the cut link");
        Simulator::Destroy();
    }
};

/** How a single-homed topology's routes are held: they are read back from there. */
enum class Held
{
    Static,
    Hashed,
    Ecmp,
};

class SingleHomedRoutesTest : public TestCase
{
  public:
    SingleHomedRoutesTest(TopologyKind kind, Held held)
        : TestCase(std::string("Single-homed ") + ToString(kind) + ", " +
                   (held == Held::Ecmp ? "ECMP" : held == Held::Hashed ? "hashed" : "static") +
                   ": every route as a search from the destination host gives it"),
          m_kind(kind),
          m_held(held)
    {
    }

    void DoRun() override
    {
        const Held held = m_held;
        BuiltTopology t = BuildKind(m_kind, [held](TopologySpec& s) {
            s.k = 4;
            s.hostsPerSide = 3;
            s.routeTable = held == Held::Static ? RouteTable::Static : RouteTable::Hashed;
            s.ecmp = held == Held::Ecmp;
        });
        const TopologyGraph& g = t.graph;
        uint64_t checked = 0;
        uint64_t groups = 0;
        for (TopoVertexId d = 0; d < boost::num_vertices(g); ++d)
        {
            if (!g[d].IsHost())
            {
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(t.GetHostAddresses(g[d].name).size(), 1, "single-homed");
            const std::vector<int32_t> dist = HopDistances(g, d);
            for (TopoVertexId u = 0; u < boost::num_vertices(g); ++u)
            {
                if (dist[u] <= 0)
                {
                    continue;
                }
                std::vector<Ipv4EcmpRouting::NextHop> ref = ReferenceNextHops(t, u, d, dist);
                groups += ref.size() > 1;
                if (m_held != Held::Ecmp)
                {
                    ref = {ref[g[d].index % ref.size()]};
                }
                NS_TEST_EXPECT_MSG_EQ((Routes(t, u, t.hostAddresses[g[d].index]) == ref), true,
                                      g[u].name << " towards " << g[d].name);
                ++checked;
            }
        }
        NS_TEST_EXPECT_MSG_GT(checked, 0, "routes compared");
        if (m_kind == TopologyKind::FatTree)
        {
            NS_TEST_EXPECT_MSG_GT(groups, 0, "equal-cost groups among them");
        }
    }

    /** u's next hops towards `dest` as installed: the ECMP table's, or its static host route. */
    static std::vector<Ipv4EcmpRouting::NextHop> Routes(const BuiltTopology& t, TopoVertexId u, Ipv4Address dest)
    {
        const std::string& name = t.graph[u].name;
        if (Ptr<Ipv4EcmpRouting> ecmp = t.HostRoutes(name))
        {
            const auto* hops = ecmp->GetNextHops(dest);
            return hops ? *hops : std::vector<Ipv4EcmpRouting::NextHop>{};
        }
        Ptr<Ipv4StaticRouting> st = Ipv4StaticRoutingHelper().GetStaticRouting(t.GetNode(name)->GetObject<Ipv4>());
        std::vector<Ipv4EcmpRouting::NextHop> hops;
        for (uint32_t i = 0; i < st->GetNRoutes(); ++i)
        {
            const Ipv4RoutingTableEntry r = st->GetRoute(i);
            if (r.IsHost() && r.GetDest() == dest)
            {
                hops.push_back({r.GetInterface(), r.GetGateway()});
            }
        }
        return hops;
    }

    void DoTeardown() override { Simulator::Destroy(); }

  private:
    TopologyKind m_kind;
    Held m_held;
};

class TopologyMultihomeTestSuite : public TestSuite
{
  public:
    TopologyMultihomeTestSuite()
        : TestSuite("iwarp-topology-multihome", UNIT)
    {
        AddTestCase(new GraphMlDualHomedTest, TestCase::QUICK);
        AddTestCase(new GraphMlRerouteTest, TestCase::QUICK);
        for (Held held : {Held::Static, Held::Hashed, Held::Ecmp})
        {
            AddTestCase(new SingleHomedRoutesTest(TopologyKind::FatTree, held), TestCase::QUICK);
        }
        AddTestCase(new SingleHomedRoutesTest(TopologyKind::LeafSpine, Held::Ecmp), TestCase::QUICK);
        AddTestCase(new SingleHomedRoutesTest(TopologyKind::LeafSpine, Held::Static), TestCase::QUICK);
        AddTestCase(new SingleHomedRoutesTest(TopologyKind::Dumbbell, Held::Static), TestCase::QUICK);
        AddTestCase(new SingleHomedRoutesTest(TopologyKind::TwoHosts, Held::Hashed), TestCase::QUICK);
    }
};

TopologyMultihomeTestSuite g_topologyMultihomeTestSuite;

} // namespace
