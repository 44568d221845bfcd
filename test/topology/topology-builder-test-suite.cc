/*
 * iwarp-topology-builder: TopologyBuilder's node and link counts of every kind, GraphML input
 * with its attributes, clear errors on bad input, and pcaps by link (doc/topology.md
 * "Validation"). Traffic across a fat-tree with ECMP and ECMP's path choice are
 * iwarp-topology-builder-ecmp (topology-builder-ecmp-test-suite.cc).
 */
#include "helper/topology/port-queues.h"
#include "helper/topology/topology-builder.h"
#include "topology/topology-builder-test-util.h"
#include "topology/topology-test-util.h"

#include "support/thrown-message.h"

#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/test.h"

#include <fstream>
#include <functional>

using namespace ns3;
using namespace ns3::topotest;

namespace
{

bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/** UDP echo from `from` to `to`; returns the replies that came back. */
uint32_t
Echo(const BuiltTopology& t, const std::string& from, const std::string& to, uint32_t n)
{
    UdpEchoServerHelper server(9);
    server.Install(t.GetNode(to)).Start(Seconds(0));
    UdpEchoClientHelper client(t.GetHostAddress(to), 9);
    client.SetAttribute("MaxPackets", UintegerValue(n));
    client.SetAttribute("Interval", TimeValue(MicroSeconds(100)));
    ApplicationContainer apps = client.Install(t.GetNode(from));
    apps.Start(MilliSeconds(1));
    uint32_t replies = 0;
    apps.Get(0)->TraceConnectWithoutContext(
        "Rx",
        MakeBoundCallback(+[](uint32_t* r, Ptr<const Packet>) { ++*r; }, &replies));
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    return replies;
}

class CountsTest : public TestCase
{
  public:
    CountsTest()
        : TestCase("Counts, names, addresses, reachability and per-tier link parameters")
    {
    }

    void Check(const BuiltTopology& t, uint32_t hosts, uint32_t switches, uint32_t links,
               const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(t.hosts.GetN(), hosts, what << ": hosts");
        NS_TEST_ASSERT_MSG_EQ(t.switches.GetN(), switches, what << ": switches");
        NS_TEST_ASSERT_MSG_EQ(t.NodeCount(), hosts + switches, what << ": nodes");
        NS_TEST_ASSERT_MSG_EQ(t.LinkCount(), links, what << ": links");
        NS_TEST_ASSERT_MSG_EQ(boost::num_edges(t.graph), links, what << ": graph edges");
        std::set<uint32_t> addrs;
        for (uint32_t i = 0; i < hosts; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(t.hostNames[i], "h" + std::to_string(i), what << ": host name");
            NS_TEST_ASSERT_MSG_EQ(t.GetNode(t.hostNames[i]), t.hosts.Get(i), what << ": lookup");
            NS_TEST_ASSERT_MSG_EQ(t.GetHostAddress(t.hostNames[i]), t.hostAddresses[i], what);
            addrs.insert(t.hostAddresses[i].Get());
        }
        NS_TEST_ASSERT_MSG_EQ(addrs.size(), hosts, what << ": distinct host addresses");
        // Hosts keep ns-3's weak end-system model and do not forward; switches forward and take a
        // packet as theirs only on the port that has the address (the strong model: no walk over
        // every port per forwarded packet).
        for (uint32_t i = 0; i < t.NodeCount(); ++i)
        {
            const bool host = i < hosts;
            Ptr<Ipv4> ipv4 = (host ? t.hosts.Get(i) : t.switches.Get(i - hosts))->GetObject<Ipv4>();
            BooleanValue weak;
            BooleanValue forward;
            ipv4->GetAttribute("WeakEsModel", weak);
            ipv4->GetAttribute("IpForward", forward);
            NS_TEST_EXPECT_MSG_EQ(weak.Get(), host, what << ": weak end-system model on hosts only");
            NS_TEST_EXPECT_MSG_EQ(forward.Get(), !host, what << ": forwarding on switches only");
        }
        NS_TEST_EXPECT_MSG_EQ(Echo(t, t.hostNames.front(), t.hostNames.back(), 2), 2u,
                              what << ": first and last host reach each other");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Check(BuildKind(TopologyKind::TwoHosts), 2, 0, 1, "two-hosts");
        Check(BuildKind(TopologyKind::Dumbbell, [](TopologySpec& s) { s.hostsPerSide = 3; }),
              6, 2, 7, "dumbbell");
        Check(BuildKind(TopologyKind::LeafSpine,
                        [](TopologySpec& s) {
                            s.leaves = 4;
                            s.spines = 2;
                            s.hostsPerLeaf = 3;
                        }),
              12, 6, 12 + 8, "leaf-spine");
        Check(BuildKind(TopologyKind::FatTree, [](TopologySpec& s) { s.k = 4; }), 16, 20, 48,
              "fat-tree k=4");

        // Per-tier parameters: hosts, fabric and the dumbbell's bottleneck each their own.
        BuiltTopology t = BuildKind(TopologyKind::Dumbbell, [](TopologySpec& s) {
            s.hostLinks.emplace();
            s.hostLinks->rate = DataRate("25Gbps");
            s.hostLinks->delay = MicroSeconds(2);
            s.hostLinks->queue = QueueSize("50p");
            s.bottleneck.emplace();
            s.bottleneck->rate = DataRate("1Gbps");
            s.bottleneck->delay = MicroSeconds(10);
            s.bottleneck->queue = QueueSize("30000B");
        });
        const std::vector<uint32_t> mid = t.FindLinks("right", "left");
        NS_TEST_ASSERT_MSG_EQ(mid.size(), 1u, "one bottleneck link");
        const BuiltLink& b = t.links[mid[0]];
        NS_TEST_EXPECT_MSG_EQ((b.tier == LinkTier::Bottleneck), true, "tier");
        DataRateValue rate;
        b.devA->GetAttribute("DataRate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("1Gbps"), "bottleneck rate on the device");
        TimeValue delay;
        b.channel->GetAttribute("Delay", delay);
        NS_TEST_EXPECT_MSG_EQ(delay.Get(), MicroSeconds(10), "bottleneck delay on the channel");
        // A switch port's buffer is its queue disc's limit, over a small device queue.
        NS_TEST_EXPECT_MSG_EQ(RootQueueDisc(b.devB)->GetMaxSize(), QueueSize("30000B"), "queue");
        NS_TEST_EXPECT_MSG_EQ(b.devB->GetQueue()->GetMaxSize(), QueueSize("2p"), "device queue");
        const BuiltLink& h = t.links[t.FindLinks("h0", "left").at(0)];
        h.devA->GetAttribute("DataRate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("25Gbps"), "host link rate");
        const Ptr<PointToPointNetDevice> leftPort = h.a == "left" ? h.devA : h.devB;
        const Ptr<PointToPointNetDevice> nic = h.a == "left" ? h.devB : h.devA;
        NS_TEST_EXPECT_MSG_EQ(RootQueueDisc(leftPort)->GetMaxSize(), QueueSize("50p"), "host link's switch port");
        NS_TEST_EXPECT_MSG_EQ(RootQueueDisc(nic)->GetMaxSize(), UnlimitedQueue(), "the host's NIC");
        Simulator::Destroy();
    }
};

class FatTree8Test : public TestCase
{
  public:
    FatTree8Test()
        : TestCase("Fat-tree k=8: 128 hosts, 80 switches, 384 links; h0 echoes with h127")
    {
    }

    void DoRun() override
    {
        const char* modes[] = {"static routes", "hashed routes", "ecmp"};
        for (int mode : {0, 1, 2})
        {
            BuiltTopology t = BuildKind(TopologyKind::FatTree, [mode](TopologySpec& s) {
                s.k = 8;
                s.ecmp = mode == 2;
                s.routeTable = mode == 1 ? RouteTable::Hashed : RouteTable::Static;
            });
            std::cout << "fat-tree k=8 (" << modes[mode] << "): build "
                      << t.buildSeconds * 1e3 << " ms wall for " << t.NodeCount() << " nodes, "
                      << t.LinkCount() << " links" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(t.hosts.GetN(), 128u, "k^3/4 hosts");
            NS_TEST_ASSERT_MSG_EQ(t.switches.GetN(), 80u, "5k^2/4 switches");
            NS_TEST_ASSERT_MSG_EQ(t.LinkCount(), 384u, "3k^3/4 links");
            NS_TEST_ASSERT_MSG_EQ(t.HasNode("core15"), true, "k^2/4 core switches");
            NS_TEST_ASSERT_MSG_EQ(t.HasNode("core16"), false, "no more");
            NS_TEST_ASSERT_MSG_EQ(Echo(t, "h0", "h127", 5), 5u, "echo across the core");
            Simulator::Destroy();
        }
    }
};

class GraphMlTest : public TestCase
{
  public:
    GraphMlTest()
        : TestCase("GraphML: names from node ids, kinds, per-edge rate, delay and queue, echo")
    {
    }

    void DoRun() override
    {
        const std::string path = CreateTempDirFilename("small.graphml");
        std::ofstream(path) << R"(<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="k" for="node" attr.name="kind" attr.type="string"/>
  <key id="r" for="edge" attr.name="rate" attr.type="string"/>
  <key id="d" for="edge" attr.name="delay" attr.type="string"/>
  <key id="q" for="edge" attr.name="queue" attr.type="string"/>
  <graph id="G" edgedefault="undirected">
    <node id="alice"><data key="k">host</data></node>
    <node id="bob"><data key="k">host</data></node>
    <node id="tor1"><data key="k">switch</data></node>
    <node id="tor2"><data key="k">switch</data></node>
    <node id="carol"><data key="k">host</data></node>
    <edge source="alice" target="tor1"/>
    <edge source="bob" target="tor1"/>
    <edge source="tor1" target="tor2">
      <data key="r">1Gbps</data><data key="d">5us</data><data key="q">20p</data>
    </edge>
    <edge source="carol" target="tor2"/>
  </graph>
</graphml>
)";
        TopologySpec spec;
        spec.kind = TopologyKind::GraphMl;
        spec.graphmlPath = path;
        BuiltTopology t = TopologyBuilder::Build(spec);
        NS_TEST_ASSERT_MSG_EQ(t.hosts.GetN(), 3u, "hosts");
        NS_TEST_ASSERT_MSG_EQ(t.switches.GetN(), 2u, "switches");
        NS_TEST_ASSERT_MSG_EQ(t.LinkCount(), 4u, "links");
        NS_TEST_ASSERT_MSG_EQ(t.hostNames[2], "carol", "names in file order");
        NS_TEST_ASSERT_MSG_EQ(t.switchNames[1], "tor2", "switch names");
        const BuiltLink& core = t.links[t.FindLinks("tor1", "tor2").at(0)];
        NS_TEST_EXPECT_MSG_EQ(core.params.rate, DataRate("1Gbps"), "edge rate");
        NS_TEST_EXPECT_MSG_EQ(core.params.delay, MicroSeconds(5), "edge delay");
        NS_TEST_EXPECT_MSG_EQ(core.params.queue, QueueSize("20p"), "edge queue");
        NS_TEST_EXPECT_MSG_EQ((core.tier == LinkTier::Fabric), true, "switch-switch is fabric");
        const BuiltLink& edge = t.links[t.FindLinks("alice", "tor1").at(0)];
        NS_TEST_EXPECT_MSG_EQ(edge.params.rate, spec.link.rate, "default rate elsewhere");
        NS_TEST_EXPECT_MSG_EQ(Echo(t, "alice", "carol", 3), 3u, "echo over the file's graph");
        Simulator::Destroy();
    }
};

class BadInputTest : public TestCase
{
  public:
    BadInputTest()
        : TestCase("Bad input: odd or zero k, missing file, no kind, bad attribute, unknown names")
    {
    }

    void Expect(const std::function<void()>& build, const std::string& part)
    {
        const std::string msg = ThrownMessage<TopologyError>(build);
        std::cout << "error: " << msg << std::endl;
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, part), true, "'" << msg << "' names '" << part << "'");
    }

    std::string WriteGraphMl(const std::string& name, const std::string& nodeKindAlice,
                             const std::string& rate)
    {
        const std::string path = CreateTempDirFilename(name);
        std::ofstream(path)
            << "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
               "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
               "<key id=\"r\" for=\"edge\" attr.name=\"rate\" attr.type=\"string\"/>\n"
               "<graph id=\"G\" edgedefault=\"undirected\">\n<node id=\"alice\">"
            << nodeKindAlice
            << "</node>\n<node id=\"bob\"><data key=\"k\">host</data></node>\n"
               "<edge source=\"alice\" target=\"bob\">"
            << rate << "</edge>\n</graph>\n</graphml>\n";
        return path;
    }

    void DoRun() override
    {
        auto fatTree = [](uint32_t k) {
            return [k]() { BuildKind(TopologyKind::FatTree, [k](TopologySpec& s) { s.k = k; }); };
        };
        Expect(fatTree(3), "even");
        Expect(fatTree(3), "got 3");
        Expect(fatTree(0), "got 0");
        auto graphml = [](std::string path) {
            return [path]() {
                BuildKind(TopologyKind::GraphMl, [path](TopologySpec& s) { s.graphmlPath = path; });
            };
        };
        Expect(graphml(CreateTempDirFilename("absent.graphml")), "cannot be opened");
        Expect(graphml(WriteGraphMl("nokind.graphml", "", "")),
               "node 'alice' has no 'kind' attribute");
        Expect(graphml(WriteGraphMl("router.graphml", "<data key=\"k\">router</data>", "")),
               "kind 'router'");
        Expect(graphml(WriteGraphMl("rate.graphml", "<data key=\"k\">host</data>",
                                    "<data key=\"r\">fast</data>")),
               "<edge source=\"alice\" target=\"bob\">: not a rate: \"fast\"");
        Expect([]() { BuildKind(TopologyKind::Dumbbell, [](TopologySpec& s) { s.hostsPerSide = 0; }); },
               "hostsPerSide");
        Expect([]() {
            BuildKind(TopologyKind::TwoHosts,
                      [](TopologySpec& s) { s.impairLinks.push_back({"h0", "h9", {}}); });
        },
               "no node named 'h9'");
        Expect([]() {
            BuildKind(TopologyKind::TwoHosts, [](TopologySpec& s) {
                ImpairmentSpec imp;
                imp.loss = 1.5;
                s.impairAll = imp;
            });
        },
               "impairment: loss must be in [0, 1] (got 1.5)");
        // The rules are CheckImpairment's, the scenario reader's: the same ones reach specs built here.
        auto badLink = [this](const std::function<void(ImpairmentSpec&)>& set, const std::string& part) {
            Expect([&set]() {
                BuildKind(TopologyKind::TwoHosts, [&set](TopologySpec& s) {
                    ImpairmentSpec imp;
                    set(imp);
                    s.impairLinks.push_back({"h0", "h1", imp});
                });
            },
                   part);
        };
        badLink([](ImpairmentSpec& i) { i.gilbertElliott = GilbertElliottSpec{0.1, 0.5, -0.25, 1.0}; },
                "impairment: gilbert-elliott.loss-good must be in [0, 1] (got -0.25)");
        badLink([](ImpairmentSpec& i) { i.reorder = ReorderSpec{2.0, MicroSeconds(5)}; },
                "impairment: reorder.fraction must be in [0, 1] (got 2)");
        badLink([](ImpairmentSpec& i) { i.reorder = ReorderSpec{0.1, MicroSeconds(-5)}; },
                "impairment: reorder.delay must not be negative");
        badLink(
            [](ImpairmentSpec& i) {
                i.loss = 0.01;
                i.gilbertElliott = GilbertElliottSpec{};
            },
            "impairment: loss and gilbert-elliott on one link");
        NS_TEST_EXPECT_MSG_EQ(NodeList::GetNNodes(), 0u, "failed builds leave no nodes behind");
        Expect([]() { ParseTopologyKind("fattree"); }, "unknown topology kind 'fattree'");
        NS_TEST_EXPECT_MSG_EQ((ParseTopologyKind("leaf-spine") == TopologyKind::LeafSpine), true,
                              "names parse back");
        Simulator::Destroy();
        BuiltTopology t = BuildKind(TopologyKind::Dumbbell);
        Expect([&t]() { t.GetHostAddress("left"); }, "is a switch");
        Expect([&t]() { t.GetNode("nobody"); }, "no node named 'nobody'");
        Simulator::Destroy();
    }
};

class PcapTest : public TestCase
{
  public:
    PcapTest()
        : TestCase("Pcap on one link by endpoint names, or on every link")
    {
    }

    static uint64_t Size(const std::string& path)
    {
        std::ifstream f(path, std::ios::binary | std::ios::ate);
        return f ? static_cast<uint64_t>(f.tellg()) : 0;
    }

    void DoRun() override
    {
        const std::string one = CreateTempDirFilename("one");
        {
            BuiltTopology t = BuildKind(TopologyKind::Dumbbell);
            t.EnablePcap(one, "left", "h0");
            const std::string err = ThrownMessage<TopologyError>([&t, &one]() { t.EnablePcap(one, "h0", "h1"); });
            NS_TEST_EXPECT_MSG_EQ(Contains(err, "no link between 'h0' and 'h1'"), true,
                                  "pcap on a link that does not exist");
            NS_TEST_ASSERT_MSG_EQ(Echo(t, "h0", "h3", 2), 2u, "echo");
            Simulator::Destroy();
        }
        // The graph's edge is h0 -> left, so that end names the first file. Each end records
        // what it sends and receives: 2 requests and 2 replies of 16 (pcap record header) + 2
        // (PPP) + 20 (IPv4) + 8 (UDP) + 100 octets, after the 24-octet file header.
        const uint64_t expect = 24 + 4 * (16 + 2 + 20 + 8 + 100);
        NS_TEST_EXPECT_MSG_EQ(Size(one + "-h0-left.pcap"), expect, "h0's end");
        NS_TEST_EXPECT_MSG_EQ(Size(one + "-left-h0.pcap"), expect, "the switch's end");
        NS_TEST_EXPECT_MSG_EQ(Size(one + "-left-h1.pcap"), 0u, "no other link captured");

        const std::string all = CreateTempDirFilename("all");
        {
            // Files are complete once the devices are gone: the simulator and the topology.
            BuiltTopology t = BuildKind(TopologyKind::TwoHosts);
            t.EnablePcapAll(all);
            NS_TEST_ASSERT_MSG_EQ(Echo(t, "h0", "h1", 2), 2u, "echo");
            Simulator::Destroy();
        }
        NS_TEST_EXPECT_MSG_EQ(Size(all + "-h0-h1.pcap"), expect, "every link, one end");
        NS_TEST_EXPECT_MSG_EQ(Size(all + "-h1-h0.pcap"), expect, "and the other");
    }
};

class TopologyBuilderSuite : public TestSuite
{
  public:
    TopologyBuilderSuite()
        : TestSuite("iwarp-topology-builder", UNIT)
    {
        AddTestCase(new CountsTest, TestCase::QUICK);
        AddTestCase(new FatTree8Test, TestCase::QUICK);
        AddTestCase(new GraphMlTest, TestCase::QUICK);
        AddTestCase(new BadInputTest, TestCase::QUICK);
        AddTestCase(new PcapTest, TestCase::QUICK);
    }
};

TopologyBuilderSuite g_topologyBuilderSuite;

} // namespace
