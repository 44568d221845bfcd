/*
 * iwarp-topology-planes: a leaf-spine fabric built twice (`TopologySpec::planes`, scenario key
 * `topology.planes`) with one NIC per host in each plane: counts and names, one address per NIC, an echo to
 * each address that stays in that address's plane (static routes, hashed routes, ECMP), Reroute around a cut
 * plane-0 host link, and the refusals of planes where they do not apply (doc/topology.md, "Planes").
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-error.h"
#include "helper/topology/topology-builder.h"
#include "topology/multihome-test-util.h"
#include "topology/topology-builder-test-util.h"

#include "support/thrown-message.h"

#include "ns3/test.h"

#include <algorithm>
#include <functional>

using namespace ns3;
using namespace ns3::topotest;

namespace
{

/** 2 leaves, 2 spines, 2 hosts per leaf, in two planes. */
BuiltTopology
TwoPlanes(RouteTable table, bool ecmp)
{
    return BuildKind(TopologyKind::LeafSpine, [table, ecmp](TopologySpec& s) {
        s.leaves = 2;
        s.spines = 2;
        s.hostsPerLeaf = 2;
        s.planes = 2;
        s.routeTable = table;
        s.ecmp = ecmp;
    });
}

/** The plane of a switch by its name ("leaf1_p1": 1, "spine0": 0); -1 for a host. */
int
PlaneOfNode(const BuiltTopology& t, const std::string& name)
{
    if (std::find(t.hostNames.begin(), t.hostNames.end(), name) != t.hostNames.end())
    {
        return -1;
    }
    const auto at = name.rfind("_p");
    return at == std::string::npos ? 0 : std::stoi(name.substr(at + 2));
}

/** The plane of a link: its switch ends' (the planes share no switch, so a link has one). */
int
PlaneOfLink(const BuiltTopology& t, const BuiltLink& link)
{
    return std::max(PlaneOfNode(t, link.a), PlaneOfNode(t, link.b));
}

class PlanesCountsTest : public TestCase
{
  public:
    PlanesCountsTest()
        : TestCase("Two planes: counts, names, one address per NIC, no switch shared")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = TwoPlanes(RouteTable::Static, false);
        NS_TEST_EXPECT_MSG_EQ(t.hosts.GetN(), 4, "hosts are not doubled");
        NS_TEST_EXPECT_MSG_EQ(t.switches.GetN(), 8, "2 x (2 leaves + 2 spines)");
        NS_TEST_EXPECT_MSG_EQ(t.NodeCount(), 12, "nodes");
        NS_TEST_EXPECT_MSG_EQ(t.LinkCount(), 16, "2 x (4 host links + 4 fabric links)");
        const std::vector<std::string> plane0{"leaf0", "leaf1", "spine0", "spine1"};
        const std::vector<std::string> plane1{"leaf0_p1", "leaf1_p1", "spine0_p1", "spine1_p1"};
        std::vector<std::string> expected = plane0;
        expected.insert(expected.end(), plane1.begin(), plane1.end());
        NS_TEST_EXPECT_MSG_EQ((t.switchNames == expected), true, "plane 0 keeps the names, plane 1 adds _p1");
        std::vector<Ipv4Address> seen;
        for (uint32_t h = 0; h < 4; ++h)
        {
            const std::string name = "h" + std::to_string(h);
            const std::vector<Ipv4Address> a = t.GetHostAddresses(name);
            NS_TEST_ASSERT_MSG_EQ(a.size(), 2, name << " has two addresses");
            NS_TEST_EXPECT_MSG_EQ(a[0], t.GetHostAddress(name), "the first is the primary");
            NS_TEST_EXPECT_MSG_EQ(a[0], t.hostAddresses[h], "hostAddresses holds the primary");
            const std::string leaf = "leaf" + std::to_string(h / 2);
            NS_TEST_EXPECT_MSG_EQ(t.FindLinks(name, leaf).size(), 1, name << " on " << leaf);
            NS_TEST_EXPECT_MSG_EQ(t.FindLinks(name, leaf + "_p1").size(), 1, name << " on " << leaf << "_p1");
            const BuiltLink& first = t.links[t.FindLinks(name, leaf)[0]];
            NS_TEST_EXPECT_MSG_EQ((first.a == name ? first.addrA : first.addrB), a[0], "primary on plane 0");
            seen.insert(seen.end(), a.begin(), a.end());
        }
        std::sort(seen.begin(), seen.end());
        NS_TEST_EXPECT_MSG_EQ((std::adjacent_find(seen.begin(), seen.end()) == seen.end()), true, "distinct");
        for (const BuiltLink& link : t.links)
        {
            if (link.tier == LinkTier::Fabric)
            {
                NS_TEST_EXPECT_MSG_EQ(PlaneOfNode(t, link.a), PlaneOfNode(t, link.b),
                                      link.a << " -- " << link.b << " joins no two planes");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<TopologyError>([&t]() { t.GetHostAddresses("leaf0_p1"); }),
                              "'leaf0_p1' is a switch, not a host",
                              "a switch has no host addresses");
        // One plane is today's leaf-spine: the same names and the same addresses link by link.
        BuiltTopology one = BuildKind(TopologyKind::LeafSpine, [](TopologySpec& s) { s.planes = 1; });
        NS_TEST_EXPECT_MSG_EQ(one.LinkCount(), 8, "planes = 1: one fabric");
        NS_TEST_EXPECT_MSG_EQ(one.GetHostAddresses("h3").size(), 1, "planes = 1: one address");
        Simulator::Destroy();
    }
};

class PlanesEchoTest : public TestCase
{
  public:
    PlanesEchoTest(RouteTable table, bool ecmp)
        : TestCase(std::string("Two planes, ") + (ecmp ? "ECMP" : table == RouteTable::Static ? "static" : "hashed") +
                   " routes: an echo to each of h3's addresses arrives and stays in that address's plane"),
          m_table(table),
          m_ecmp(ecmp)
    {
    }

    void DoRun() override
    {
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            BuiltTopology t = TwoPlanes(m_table, m_ecmp);
            EchoServerOn(t, "h3");
            const EchoPath path = EchoTo(t, "h0", t.GetHostAddresses("h3")[plane], 5);
            NS_TEST_EXPECT_MSG_EQ(path.replies, 5, "every echo to plane " << plane << " came back");
            uint64_t inPlane = 0;
            for (uint32_t i = 0; i < t.LinkCount(); ++i)
            {
                const BuiltLink& link = t.links[i];
                if (PlaneOfLink(t, link) == int(plane))
                {
                    inPlane += path.rxPerLink[i];
                    continue;
                }
                NS_TEST_EXPECT_MSG_EQ(path.rxPerLink[i], 0,
                                      link.a << " -- " << link.b << " is not in plane " << plane);
            }
            // h0 -> leaf0 -> spine -> leaf1 -> h3 and back: 4 hops each way for each of 5 echoes.
            NS_TEST_EXPECT_MSG_EQ(inPlane, 40, "4 hops each way, in plane " << plane);
            Simulator::Destroy();
        }
    }

  private:
    RouteTable m_table;
    bool m_ecmp;
};

class PlanesRerouteTest : public TestCase
{
  public:
    PlanesRerouteTest()
        : TestCase("Two planes: h3's plane-0 link cut and rerouted, its plane-1 address still answers")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = TwoPlanes(RouteTable::Hashed, true);
        const std::vector<Ipv4Address> a = t.GetHostAddresses("h3");
        std::vector<bool> down(t.LinkCount(), false);
        const std::vector<uint32_t> cut = t.FindLinks("h3", "leaf1");
        NS_TEST_ASSERT_MSG_EQ(cut.size(), 1, "one plane-0 link");
        down[cut[0]] = true;
        const std::vector<Ipv4EcmpRouting::NextHop> before = *t.HostRoutes("leaf0_p1")->GetNextHops(a[1]);
        t.Reroute(down);
        for (const std::string& name : t.hostNames)
        {
            if (name != "h3")
            {
                NS_TEST_EXPECT_MSG_EQ(t.HostRoutes(name)->GetNextHops(a[0]), nullptr, name << ": plane 0 cut off");
                NS_TEST_EXPECT_MSG_NE(t.HostRoutes(name)->GetNextHops(a[1]), nullptr, name << ": plane 1 reached");
            }
        }
        for (const std::string& name : t.switchNames)
        {
            NS_TEST_EXPECT_MSG_EQ(t.HostRoutes(name)->GetNextHops(a[0]), nullptr, name << ": no route to plane 0");
        }
        NS_TEST_EXPECT_MSG_EQ((*t.HostRoutes("leaf0_p1")->GetNextHops(a[1]) == before), true,
                              "plane 1's routes unchanged by a cut in plane 0");
        NS_TEST_EXPECT_MSG_NE(t.HostRoutes("h0")->GetNextHops(t.GetHostAddresses("h2")[0]), nullptr,
                              "h2's plane-0 address, on the same leaf, still reached");
        EchoServerOn(t, "h3");
        const EchoPath path = EchoTo(t, "h0", a[1], 5);
        NS_TEST_EXPECT_MSG_EQ(path.replies, 5, "h3 answers at its plane-1 address");
        NS_TEST_EXPECT_MSG_EQ(path.rxPerLink[cut[0]], 0, "nothing over the cut link");
        // And back: every link up gives the routes of the build again.
        t.Reroute(std::vector<bool>(t.LinkCount(), false));
        NS_TEST_EXPECT_MSG_NE(t.HostRoutes("h0")->GetNextHops(a[0]), nullptr, "plane 0 reached again");
        Simulator::Destroy();
    }
};

/** A scenario needs a workload. */
constexpr const char* kWorkload = "workloads:\n  - {name: s, kind: stream, from: h0, to: h3, size: 4KiB, count: 1}\n";

class PlanesRefusedTest : public TestCase
{
  public:
    PlanesRefusedTest()
        : TestCase("planes refused on other kinds, and 0 or more than 4, in code and in scenario files")
    {
    }

    /** `error` must be thrown (an empty message fails) and contain `part`. */
    void Expect(const std::string& error, const std::string& part)
    {
        NS_TEST_EXPECT_MSG_EQ(error.empty(), false, "an error is thrown (expected '" << part << "')");
        NS_TEST_EXPECT_MSG_NE(error.find(part), std::string::npos, "'" << error << "' says '" << part << "'");
    }

    static std::string Built(TopologyKind kind, uint32_t planes)
    {
        return ThrownMessage<TopologyError>(
            [=]() { TopologyBuilder::Check(BuildSpec(kind, planes)); });
    }

    static TopologySpec BuildSpec(TopologyKind kind, uint32_t planes)
    {
        TopologySpec s;
        s.kind = kind;
        s.planes = planes;
        return s;
    }

    static std::string Loaded(const std::string& topology)
    {
        return ThrownMessage<ScenarioError>([&]() {
            LoadScenarioString("stop: 1ms\ntopology: " + topology + "\n" + kWorkload, {}, "planes.yaml");
        });
    }

    void DoRun() override
    {
        Expect(Built(TopologyKind::FatTree, 2), "fat-tree: planes applies to leaf-spine only (got 2)");
        Expect(Built(TopologyKind::Dumbbell, 2), "dumbbell: planes applies to leaf-spine only (got 2)");
        Expect(Built(TopologyKind::LeafSpine, 0), "leaf-spine: planes must be 1 to 4 (got 0)");
        Expect(Built(TopologyKind::LeafSpine, 5), "leaf-spine: planes must be 1 to 4 (got 5)");
        NS_TEST_EXPECT_MSG_EQ(Built(TopologyKind::LeafSpine, 4), "", "four planes are fine");
        NS_TEST_EXPECT_MSG_EQ(Built(TopologyKind::FatTree, 1), "", "planes = 1 is every kind's");

        Expect(Loaded("{kind: fat-tree, k: 4, planes: 2}"),
               "topology.planes: key 'planes' does not apply to topology kind 'fat-tree'");
        Expect(Loaded("{kind: graphml, file: x.graphml, planes: 2}"),
               "key 'planes' does not apply to topology kind 'graphml'");
        Expect(Loaded("{kind: leaf-spine, planes: 0}"), "topology.planes: planes must be at least 1");
        Expect(Loaded("{kind: leaf-spine, planes: 5}"), "topology.planes");
        const ScenarioConfig cfg = LoadScenarioString(
            std::string("stop: 1ms\ntopology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, planes: 2}\n"
                        "per-link:\n  - {between: [leaf0_p1, spine1_p1], rate: 40Gbps}\n") +
                kWorkload,
            {},
            "planes.yaml");
        NS_TEST_EXPECT_MSG_EQ(cfg.topology.planes, 2, "read");
        const std::vector<std::string> names = ExpectedNodeNames(cfg.topology);
        NS_TEST_EXPECT_MSG_EQ(names.size(), 12, "4 hosts and 8 switches");
        NS_TEST_EXPECT_MSG_EQ((std::find(names.begin(), names.end(), "spine1_p1") != names.end()), true,
                              "plane 1's switches are names a scenario can use");
        Expect(ThrownMessage<ScenarioError>([]() {
                   LoadScenarioString("stop: 1ms\ntopology: {kind: leaf-spine}\n"
                                      "per-link:\n  - {between: [leaf0_p1, spine1_p1], rate: 40Gbps}\n" +
                                      std::string(kWorkload));
               }),
               "leaf0_p1");
    }
};

class TopologyPlanesTestSuite : public TestSuite
{
  public:
    TopologyPlanesTestSuite()
        : TestSuite("iwarp-topology-planes", UNIT)
    {
        AddTestCase(new PlanesCountsTest, TestCase::QUICK);
        AddTestCase(new PlanesEchoTest(RouteTable::Static, false), TestCase::QUICK);
        AddTestCase(new PlanesEchoTest(RouteTable::Hashed, false), TestCase::QUICK);
        AddTestCase(new PlanesEchoTest(RouteTable::Hashed, true), TestCase::QUICK);
        AddTestCase(new PlanesRerouteTest, TestCase::QUICK);
        AddTestCase(new PlanesRefusedTest, TestCase::QUICK);
    }
};

TopologyPlanesTestSuite g_topologyPlanesTestSuite;

} // namespace
