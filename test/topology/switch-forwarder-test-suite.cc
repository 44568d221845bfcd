/*
 * SwitchForwarder, the switches' fast path (model/net/switch-forwarder.h): a fabric forwards
 * exactly as through ns-3's IPv4 stack (same arrivals at the same nanosecond, same drops);
 * what it must not forward reaches ns-3 (TTL expiry, packets for the switch itself); its
 * Forward trace and Enabled attribute; and the ECMP table's array lookup (doc/topology.md).
 */
#include "helper/topology/topology-builder.h"
#include "net/ipv4-ecmp-routing.h"
#include "net/switch-forwarder.h"
#include "topology/topology-test-util.h"

#include "helper/scenario/results-writer.h"
#include "support/scenario-run-util.h"

#include "ns3/test.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

#include <nlohmann/json.hpp>

#include <set>

using namespace ns3;
using namespace ns3::topotest;

namespace
{

BuiltTopology
FatTree4(bool fastPath, const std::string& queue = "100p")
{
    TopologySpec spec;
    spec.kind = TopologyKind::FatTree;
    spec.k = 4;
    spec.ecmp = true;
    spec.switchFastPath = fastPath;
    spec.link.rate = DataRate("1Gbps");
    spec.link.queue = QueueSize(queue);
    return TopologyBuilder::Build(spec);
}

struct FabricCounts
{
    uint64_t forwarded{0};
    uint64_t handedOn{0};
    uint32_t forwarders{0};
};

FabricCounts
CountForwarders(const BuiltTopology& t)
{
    FabricCounts c;
    for (uint32_t i = 0; i < t.switches.GetN(); ++i)
    {
        if (Ptr<SwitchForwarder> f = t.switches.Get(i)->GetObject<SwitchForwarder>())
        {
            ++c.forwarders;
            c.forwarded += f->GetForwarded();
            c.handedOn += f->GetHandedOn();
        }
    }
    return c;
}

/** Every switch port's queue-disc drops. */
uint64_t
SwitchQueueDrops(const BuiltTopology& t)
{
    uint64_t drops = 0;
    for (uint32_t i = 0; i < t.switches.GetN(); ++i)
    {
        Ptr<Node> sw = t.switches.Get(i);
        Ptr<TrafficControlLayer> tc = sw->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < sw->GetNDevices(); ++d)
        {
            if (Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(sw->GetDevice(d)))
            {
                drops += q->GetStats().nTotalDroppedPackets;
            }
        }
    }
    return drops;
}

class SameAsNs3Test : public TestCase
{
  public:
    SameAsNs3Test()
        : TestCase("the fast path delivers what ns-3's IPv4 forwarding delivers, at the same "
                   "nanoseconds, with the same queue drops")
    {
    }

    struct Run
    {
        std::vector<std::pair<int64_t, uint32_t>> arrivals; ///< (ns, octets) in arrival order
        uint64_t delivered{0};
        uint64_t drops{0};
        FabricCounts counts;
    };

    static Run Simulate(bool fastPath)
    {
        Run run;
        // A 12-packet switch queue and four senders into h12: TCP fills it, so drops and
        // retransmissions are part of what must match.
        BuiltTopology t = FatTree4(fastPath, "12p");
        std::vector<std::pair<std::string, std::string>> flows;
        for (uint32_t i = 0; i < 8; ++i)
        {
            flows.emplace_back("h" + std::to_string(i), "h" + std::to_string(i + 8));
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            flows.emplace_back("h" + std::to_string(i + 4), "h12");
        }
        uint16_t port = 5000;
        for (const auto& [from, to] : flows)
        {
            PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer s = sink.Install(t.GetNode(to));
            s.Get(0)->TraceConnectWithoutContext(
                "Rx", MakeBoundCallback(+[](Run* r, Ptr<const Packet> p, const Address&) {
                    r->arrivals.emplace_back(Simulator::Now().GetNanoSeconds(), p->GetSize());
                    r->delivered += p->GetSize();
                }, &run));
            BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(t.GetHostAddress(to), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(400000));
            bulk.Install(t.GetNode(from)).Start(MilliSeconds(1));
            ++port;
        }
        Simulator::Stop(MilliSeconds(40));
        Simulator::Run();
        run.drops = SwitchQueueDrops(t);
        run.counts = CountForwarders(t);
        Simulator::Destroy();
        return run;
    }

    void DoRun() override
    {
        const Run ns3Path = Simulate(false);
        const Run fast = Simulate(true);
        NS_TEST_ASSERT_MSG_EQ(ns3Path.counts.forwarders, 0u, "switchFastPath false installs none");
        NS_TEST_ASSERT_MSG_EQ(fast.counts.forwarders, 20u, "one per switch of a k = 4 fat-tree");
        NS_TEST_EXPECT_MSG_GT(fast.counts.forwarded, 10000u, "the fabric's packets took the fast path");
        NS_TEST_EXPECT_MSG_EQ(fast.counts.handedOn, 0u, "TCP between hosts: nothing left to ns-3");
        NS_TEST_EXPECT_MSG_GT(ns3Path.drops, 0u, "the comparison covers queue drops");
        NS_TEST_EXPECT_MSG_EQ(fast.drops, ns3Path.drops, "the same drops");
        NS_TEST_EXPECT_MSG_GT(ns3Path.delivered, 1000000u, "traffic arrived");
        NS_TEST_EXPECT_MSG_EQ(fast.delivered, ns3Path.delivered, "the same octets delivered");
        NS_TEST_ASSERT_MSG_EQ(fast.arrivals.size(), ns3Path.arrivals.size(), "the same arrivals");
        for (size_t i = 0; i < fast.arrivals.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((fast.arrivals[i] == ns3Path.arrivals[i]), true,
                                  "arrival " << i << " at " << fast.arrivals[i].first << " ns vs "
                                             << ns3Path.arrivals[i].first << " ns");
        }
    }
};

class HandsOnTest : public TestCase
{
  public:
    HandsOnTest()
        : TestCase("what the fast path must not forward reaches ns-3: an expiring TTL (dropped, "
                   "ICMP sent) and a packet for the switch itself (delivered locally)")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = FatTree4(true);
        // h0 -> h15 crosses edge0_0, agg0_x, a core, agg3_x, edge3_1. Sent with TTL 2, the
        // edge switch forwards it with TTL 1 and the aggregation switch must drop it.
        uint32_t ttlDrops = 0;
        uint32_t localDeliveries = 0;
        for (uint32_t i = 0; i < t.switches.GetN(); ++i)
        {
            Ptr<Ipv4L3Protocol> ip = t.switches.Get(i)->GetObject<Ipv4L3Protocol>();
            ip->TraceConnectWithoutContext(
                "Drop", MakeBoundCallback(+[](uint32_t* n, const Ipv4Header&, Ptr<const Packet>,
                                              Ipv4L3Protocol::DropReason why, Ptr<Ipv4>, uint32_t) {
                    *n += why == Ipv4L3Protocol::DROP_TTL_EXPIRED;
                }, &ttlDrops));
            ip->TraceConnectWithoutContext(
                "LocalDeliver", MakeBoundCallback(+[](uint32_t* n, const Ipv4Header&,
                                                      Ptr<const Packet>, uint32_t) { ++*n; },
                                                  &localDeliveries));
        }
        SeqSink sink(t.GetNode("h15"), 9000);
        Ptr<Socket> tx = Socket::CreateSocket(t.GetNode("h0"), UdpSocketFactory::GetTypeId());
        tx->SetIpTtl(2);
        tx->Connect(InetSocketAddress(t.GetHostAddress("h15"), 9000));
        Simulator::Schedule(MilliSeconds(1), [tx]() { tx->Send(Create<Packet>(100)); });

        // The edge switch's own address on its link to h0.
        const std::vector<uint32_t> h0Links = t.FindLinks("h0", "edge0_0");
        NS_TEST_ASSERT_MSG_EQ(h0Links.size(), 1u, "h0 hangs off edge0_0");
        const BuiltLink& link = t.links[h0Links[0]];
        const Ipv4Address edgeAddr = link.a == "edge0_0" ? link.addrA : link.addrB;
        Ptr<Socket> toSwitch = Socket::CreateSocket(t.GetNode("h0"), UdpSocketFactory::GetTypeId());
        toSwitch->Connect(InetSocketAddress(edgeAddr, 9001));
        Simulator::Schedule(MilliSeconds(2), [toSwitch]() { toSwitch->Send(Create<Packet>(100)); });

        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        const FabricCounts c = CountForwarders(t);
        NS_TEST_EXPECT_MSG_EQ(sink.received, 0u, "the TTL-2 packet never arrives");
        NS_TEST_EXPECT_MSG_EQ(ttlDrops, 1u, "ns-3 dropped it for its TTL");
        NS_TEST_EXPECT_MSG_EQ(localDeliveries, 1u, "the edge switch took its own packet");
        NS_TEST_EXPECT_MSG_EQ(c.handedOn, 2u, "both went to ns-3's path");
        NS_TEST_EXPECT_MSG_GT(c.forwarded, 0u, "the edge switch forwarded the TTL-2 packet");
        Simulator::Destroy();
    }
};

class MoreHandedOnTest : public TestCase
{
  public:
    MoreHandedOnTest()
        : TestCase("also ns-3's: a packet over the next link's MTU (fragmented, reassembled at "
                   "the host), every packet while checksums are on, and the switch's loopback")
    {
    }

    void DoRun() override
    {
        {
            BuiltTopology t = FatTree4(true);
            // Aggregation-core links carry 1,000 octets: a 1,400-octet datagram from h0 to h15
            // must be fragmented where it enters the core, by ns-3.
            for (const BuiltLink& l : t.links)
            {
                if (l.a.rfind("core", 0) == 0 || l.b.rfind("core", 0) == 0)
                {
                    l.devA->SetMtu(1000);
                    l.devB->SetMtu(1000);
                }
            }
            SeqSink sink(t.GetNode("h15"), 9000);
            StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h15"), 9000, 1, MicroSeconds(50), 1400);
            // A UDP packet a switch sends to itself over its loopback.
            SeqSink self(t.GetNode("edge0_0"), 9002);
            StartUdpFlow(t.GetNode("edge0_0"), Ipv4Address::GetLoopback(), 9002, 1, MicroSeconds(50));
            Simulator::Stop(MilliSeconds(10));
            Simulator::Run();
            const FabricCounts c = CountForwarders(t);
            NS_TEST_EXPECT_MSG_EQ(sink.received, 1u, "the fragmented datagram arrives whole");
            NS_TEST_EXPECT_MSG_EQ(c.handedOn, 1u, "once, at the aggregation switch");
            NS_TEST_EXPECT_MSG_EQ(self.received, 1u, "the switch's loopback delivers once");
            Simulator::Destroy();
        }
        {
            Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
            BuiltTopology t = FatTree4(true);
            SeqSink sink(t.GetNode("h15"), 9000);
            StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h15"), 9000, 10, MicroSeconds(50));
            Simulator::Stop(MilliSeconds(10));
            Simulator::Run();
            Config::SetGlobal("ChecksumEnabled", BooleanValue(false));
            const FabricCounts c = CountForwarders(t);
            NS_TEST_EXPECT_MSG_EQ(sink.received, 10u, "with checksums on, all arrive");
            NS_TEST_EXPECT_MSG_EQ(c.forwarded, 0u, "none on the fast path");
            NS_TEST_EXPECT_MSG_EQ(c.handedOn, 50u, "all five hops of each are ns-3's");
            Simulator::Destroy();
        }
    }
};

class LaterDeviceTest : public TestCase
{
  public:
    LaterDeviceTest()
        : TestCase("a port added to a switch after the build is ns-3's: its packets are "
                   "forwarded once, by ns-3's path, not also by the fast path")
    {
    }

    void DoRun() override
    {
        BuiltTopology t = FatTree4(true);
        Ptr<Node> sw = t.GetNode("edge0_0");
        Ptr<Node> extra = CreateObject<Node>();
        InternetStackHelper().Install(extra);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps")); // its default is 32 kb/s
        NetDeviceContainer devs = p2p.Install(extra, sw);
        Ipv4AddressHelper addr("192.168.50.0", "255.255.255.252");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);
        Ipv4StaticRoutingHelper().GetStaticRouting(extra->GetObject<Ipv4>())->SetDefaultRoute(
            ifs.GetAddress(1), 1);
        uint32_t unicastForward = 0;
        sw->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward", MakeBoundCallback(+[](uint32_t* n, const Ipv4Header&,
                                                    Ptr<const Packet>, uint32_t) { ++*n; },
                                                &unicastForward));
        SeqSink sink(t.GetNode("h15"), 9000);
        StartUdpFlow(extra, t.GetHostAddress("h15"), 9000, 3, MicroSeconds(50));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        Ptr<SwitchForwarder> f = sw->GetObject<SwitchForwarder>();
        NS_TEST_EXPECT_MSG_EQ(sink.received, 3u, "each packet arrives once");
        NS_TEST_EXPECT_MSG_EQ(unicastForward, 3u, "ns-3 forwarded them at the new port's switch");
        NS_TEST_EXPECT_MSG_EQ(f->GetForwarded() + f->GetHandedOn(), 0u,
                              "the fast path left them alone there");
        Simulator::Destroy();
    }
};

class ForwardTraceTest : public TestCase
{
  public:
    ForwardTraceTest()
        : TestCase("Forward trace: one call per hop with the TTL decremented and the TOS's "
                   "priority tag; Enabled false hands every packet to ns-3 (UnicastForward "
                   "fires instead, with the same tags)")
    {
    }

    struct Seen
    {
        uint32_t forward{0};
        uint32_t unicastForward{0};
        std::set<uint32_t> ttls;
        std::set<int> priorities; ///< of the forwarded packets' priority tags (-1: none)
    };

    static int PriorityOf(Ptr<const Packet> p)
    {
        SocketPriorityTag tag;
        return p->PeekPacketTag(tag) ? tag.GetPriority() : -1;
    }

    Seen Run(bool enabled)
    {
        BuiltTopology t = FatTree4(true);
        Seen seen;
        for (uint32_t i = 0; i < t.switches.GetN(); ++i)
        {
            Ptr<Node> sw = t.switches.Get(i);
            Ptr<SwitchForwarder> f = sw->GetObject<SwitchForwarder>();
            f->SetAttribute("Enabled", BooleanValue(enabled));
            f->TraceConnectWithoutContext(
                "Forward", MakeBoundCallback(+[](Seen* s, const Ipv4Header& h, Ptr<const Packet> p,
                                                 uint32_t) {
                    ++s->forward;
                    s->ttls.insert(h.GetTtl());
                    s->priorities.insert(PriorityOf(p));
                }, &seen));
            sw->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "UnicastForward", MakeBoundCallback(+[](Seen* s, const Ipv4Header&,
                                                        Ptr<const Packet> p, uint32_t) {
                    ++s->unicastForward;
                    s->priorities.insert(PriorityOf(p));
                }, &seen));
        }
        SeqSink sink(t.GetNode("h15"), 9000);
        StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h15"), 9000, 10, MicroSeconds(50));
        // One more with TOS 0x10 (low delay): forwarding tags it with the priority the TOS maps to.
        SeqSink tosSink(t.GetNode("h15"), 9001);
        Ptr<Socket> tos = Socket::CreateSocket(t.GetNode("h0"), UdpSocketFactory::GetTypeId());
        tos->Connect(InetSocketAddress(t.GetHostAddress("h15"), 9001));
        Simulator::Schedule(MilliSeconds(3), [tos]() {
            // The tag IPv4 takes the header's TOS from (what Socket::SetIpTos makes TCP add).
            Ptr<Packet> p = Create<Packet>(100);
            SocketIpTosTag tag;
            tag.SetTos(0x10);
            p->AddPacketTag(tag);
            tos->Send(p);
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(sink.received, 10u, "all ten arrive either way");
        NS_TEST_EXPECT_MSG_EQ(tosSink.received, 1u, "and the one with a TOS");
        Simulator::Destroy();
        return seen;
    }

    void DoRun() override
    {
        const Seen fast = Run(true);
        const int lowDelay = Socket::IpTos2Priority(0x10);
        NS_TEST_ASSERT_MSG_GT(lowDelay, 0, "TOS 0x10 maps to a priority");
        NS_TEST_EXPECT_MSG_EQ((fast.priorities == std::set<int>{-1, lowDelay}), true,
                              "untagged at TOS 0, tagged with the TOS's priority at 0x10");
        NS_TEST_EXPECT_MSG_EQ(fast.forward, 55u, "eleven packets, five switches each");
        NS_TEST_EXPECT_MSG_EQ(fast.unicastForward, 0u, "ns-3's forwarding trace sees none of them");
        NS_TEST_EXPECT_MSG_EQ((fast.ttls == std::set<uint32_t>{59, 60, 61, 62, 63}), true,
                              "TTL 64 less one per hop");
        const Seen off = Run(false);
        NS_TEST_EXPECT_MSG_EQ(off.forward, 0u, "disabled: no fast-path forwarding");
        NS_TEST_EXPECT_MSG_EQ(off.unicastForward, 55u, "ns-3 forwarded all of them");
        NS_TEST_EXPECT_MSG_EQ((off.priorities == fast.priorities), true, "ns-3 tags them alike");
    }
};

class ArrayLookupTest : public TestCase
{
  public:
    ArrayLookupTest()
        : TestCase("ECMP forwarding lookup: an array over packed addresses, the hash map over "
                   "spread ones, rebuilt after SetRoute")
    {
    }

    static Ipv4Header To(uint32_t dst)
    {
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(Ipv4Address(dst));
        h.SetProtocol(17);
        return h;
    }

    void DoRun() override
    {
        Ptr<Ipv4EcmpRouting> r = CreateObject<Ipv4EcmpRouting>();
        Ptr<Packet> payload = Create<Packet>(8);
        const uint32_t base = 0x0A000005;
        for (uint32_t i = 0; i < 100; ++i)
        {
            r->SetRoute(Ipv4Address(base + 4 * i), {{1 + i % 3, Ipv4Address(0x0A000000 + i)}});
        }
        NS_TEST_EXPECT_MSG_EQ(r->ForwardsFromArray(), true, "packed routes: an array");
        for (uint32_t i = 0; i < 100; ++i)
        {
            const Ipv4EcmpRouting::NextHop* hop = r->ChooseForwardHop(payload, To(base + 4 * i));
            NS_TEST_ASSERT_MSG_NE(hop, nullptr, "route " << i);
            NS_TEST_EXPECT_MSG_EQ(hop->interface, 1 + i % 3, "route " << i);
            NS_TEST_EXPECT_MSG_EQ(hop->gateway, Ipv4Address(0x0A000000 + i), "route " << i);
        }
        for (uint32_t dst : {base - 1, base - 4, base + 1, base + 4 * 99 + 1, base + 4 * 100, 0u,
                             0xFFFFFFFFu})
        {
            NS_TEST_EXPECT_MSG_EQ(r->ChooseForwardHop(payload, To(dst)), nullptr,
                                  "no route to " << Ipv4Address(dst));
        }
        // Added after lookups within the array's span: the array is rebuilt with it.
        r->SetRoute(Ipv4Address(base + 2), {{5, Ipv4Address::GetZero()}});
        NS_TEST_ASSERT_MSG_NE(r->ChooseForwardHop(payload, To(base + 2)), nullptr, "route set later");
        NS_TEST_EXPECT_MSG_EQ(r->ChooseForwardHop(payload, To(base + 2))->interface, 5u, "its hop");
        NS_TEST_EXPECT_MSG_EQ(r->ForwardsFromArray(), true, "still an array");
        // Added after the first lookups, far from the rest: too spread for an array.
        r->SetRoute(Ipv4Address("192.168.7.9"), {{7, Ipv4Address::GetZero()}});
        const Ipv4EcmpRouting::NextHop* far = r->ChooseForwardHop(payload, To(0xC0A80709));
        NS_TEST_ASSERT_MSG_NE(far, nullptr, "a route set after lookups is found");
        NS_TEST_EXPECT_MSG_EQ(r->ForwardsFromArray(), false, "spread routes: the hash map");
        NS_TEST_EXPECT_MSG_EQ(far->interface, 7u, "its hop");
        const Ipv4EcmpRouting::NextHop* old = r->ChooseForwardHop(payload, To(base + 8));
        NS_TEST_ASSERT_MSG_NE(old, nullptr, "earlier routes still found");
        NS_TEST_EXPECT_MSG_EQ(old->interface, 3u, "route 2's hop");
        NS_TEST_EXPECT_MSG_EQ(r->ChooseForwardHop(payload, To(base + 1)), nullptr, "still none");
        // Replacing a route's hops takes effect.
        r->SetRoute(Ipv4Address(base), {{9, Ipv4Address::GetZero()}});
        NS_TEST_EXPECT_MSG_EQ(r->ChooseForwardHop(payload, To(base))->interface, 9u, "replaced");
    }
};

// RDMA Writes over MPA/TCP and over SCTP and the sockets baseline across the core, with loss
// and reordering on every link: retransmissions and reordered arrivals are part of the figures.
const std::string kFabricScenario = R"(stop: 3ms
links: {rate: 10Gbps, delay: 1us, queue: 30p, loss: 0.002, reorder: {fraction: 0.02, delay: 5us}}
topology: {kind: fat-tree, k: 4, ecmp: true}
workloads:
  - {kind: stream, op: write, from: h0, to: h15, size: 65536, outstanding: 4, duration: 3ms}
  - {kind: stream, op: write, from: h1, to: h14, size: 65536, outstanding: 4, duration: 3ms, llp: sctp}
  - {kind: sockets-stream, from: h2, to: h13, size: 65536, duration: 3ms}
  - {kind: stream, op: write, from: h4, to: h15, size: 65536, outstanding: 4, duration: 3ms}
)";

// DCTCP over RED queue discs that mark ECN: the fast path's queue-disc items get marked (the
// header they carry is what ns-3's would be) and the senders react alike.
const std::string kEcnScenario = R"(stop: 3ms
links: {rate: 10Gbps, delay: 1us, queue: 100p, queue-disc: {kind: red}}
transport: {tcp: {congestion: Dctcp}}
topology: {kind: fat-tree, k: 4, ecmp: true}
workloads:
  - {kind: stream, op: write, from: h0, to: h15, size: 65536, outstanding: 4, duration: 3ms}
  - {kind: stream, op: write, from: h4, to: h15, size: 65536, outstanding: 4, duration: 3ms}
  - {kind: sockets-stream, from: h8, to: h15, size: 65536, duration: 3ms}
)";

class ScenarioKeyTest : public TestCase
{
  public:
    ScenarioKeyTest()
        : TestCase("topology.switch-fast-path: false gives the same summary (but the wall time), "
                   "and summary.json records which ran")
    {
    }

    static nlohmann::json Comparable(const RunResult& r)
    {
        nlohmann::json j = nlohmann::json::parse(ResultsWriter::SummaryJson(r));
        for (const char* key : {"wall_time_s", "events_per_wall_s", "switch_fast_path", "overrides"})
        {
            j.erase(key);
        }
        return j;
    }

    void Compare(const std::string& yaml, const std::string& what)
    {
        const RunResult fast = RunYamlInTemp(yaml, "fastpath", "on");
        const RunResult ns3Path =
            RunYamlInTemp(yaml, "fastpath", "off", {"topology.switch-fast-path=false"});
        NS_TEST_EXPECT_MSG_EQ(fast.switchFastPath, true, "on by default, recorded");
        NS_TEST_EXPECT_MSG_EQ(ns3Path.switchFastPath, false, "off, recorded");
        NS_TEST_ASSERT_MSG_GT(fast.events, 50000u, "the scenario does something");
        const nlohmann::json a = Comparable(fast);
        const nlohmann::json b = Comparable(ns3Path);
        NS_TEST_EXPECT_MSG_EQ(a.size(), b.size(), "the same keys");
        for (const auto& [key, value] : b.items())
        {
            NS_TEST_EXPECT_MSG_EQ(a.value(key, nlohmann::json()).dump(), value.dump(),
                                  what << ": summary." << key << " alike on both paths");
        }
    }

    void DoRun() override
    {
        Compare(kFabricScenario, "loss and reordering");
        Compare(kEcnScenario, "DCTCP over RED marking ECN");
        const std::string bad = ErrorOf(kFabricScenario, {"topology.switch-fast-path=maybe"});
        NS_TEST_EXPECT_MSG_NE(bad.find("switch-fast-path"), std::string::npos, "a bad value: " << bad);
    }
};

class SwitchForwarderSuite : public TestSuite
{
  public:
    SwitchForwarderSuite()
        : TestSuite("iwarp-switch-forwarder", UNIT)
    {
        AddTestCase(new SameAsNs3Test, TestCase::QUICK);
        AddTestCase(new HandsOnTest, TestCase::QUICK);
        AddTestCase(new MoreHandedOnTest, TestCase::QUICK);
        AddTestCase(new LaterDeviceTest, TestCase::QUICK);
        AddTestCase(new ForwardTraceTest, TestCase::QUICK);
        AddTestCase(new ArrayLookupTest, TestCase::QUICK);
        AddTestCase(new ScenarioKeyTest, TestCase::QUICK);
    }
};

SwitchForwarderSuite g_switchForwarderSuite;

} // namespace
