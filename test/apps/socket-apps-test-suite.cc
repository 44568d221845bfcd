/*
 * iwarp-socket-apps: the ordinary-sockets baseline (SocketStream, SocketPingPong) over ns-3 TCP
 * on two hosts joined by a 10 Gb/s point-to-point link, without and with a host model.
 *
 *  - stream totals: every posted octet and message is delivered; with a host model the
 *    receiver's bus carries each octet three times (DMA, copy read, copy write) and the
 *    sender's once per message copy;
 *  - contention: a slow memory bus or a slow core caps the delivered throughput at the model's
 *    bound (bus rate / 3; clock / cycles per octet) and far below the fast host's;
 *  - ping-pong: the half round trip grows by exactly the sender's SocketSend plus the
 *    receiver's SocketReceive time (doc/host-model.md equations), and grows with the cost.
 */
#include "helper/host-helper.h"
#include "helper/socket-app-helper.h"
#include "helper/two-host-topology.h"
#include "transport/transport-profile.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <functional>

namespace ns3
{
namespace
{

const DataRate kLinkRate("10Gbps");
const Time kLinkDelay = MicroSeconds(5);
constexpr uint16_t kPort = 9200;

/** Host attributes for one run; an empty configure function means no host model. */
using HostSetup = std::function<void(HostHelper&)>;

struct StreamResult
{
    uint64_t postedBytes{0};
    uint64_t postedMessages{0};
    uint64_t deliveredBytes{0};
    uint64_t deliveredMessages{0};
    double throughputBps{0};
    Time meanLatency;
    Time firstLatency; ///< message 0's: no queueing behind earlier messages in either case
    HostCounters client;
    HostCounters server;
};

/** A host model on `node` configured by `setup`, or none when `setup` is empty. */
void
MaybeInstall(const HostSetup& setup, Ptr<Node> node)
{
    if (setup)
    {
        HostHelper host;
        setup(host);
        host.Install(node);
    }
}

/** A stream from node 0 (client, `clientSetup`) to node 1 (server, `serverSetup`, reading `readSize` at most). */
StreamResult
RunStream(const HostSetup& clientSetup,
          const HostSetup& serverSetup,
          uint64_t total,
          uint32_t size,
          uint32_t readSize = 65536)
{
    StreamResult r;
    {
        TwoHostTopology t(kLinkRate, kLinkDelay, false);
        MaybeInstall(clientSetup, t.nodes.Get(0));
        MaybeInstall(serverSetup, t.nodes.Get(1));
        SocketStreamHelper server(SOCKET_ROLE_SERVER, kPort);
        server.SetAttribute("RxReadSize", UintegerValue(readSize));
        SocketStreamHelper client(SOCKET_ROLE_CLIENT, kPort, InetSocketAddress(t.serverAddress, kPort));
        client.SetAttribute("TotalBytes", UintegerValue(total));
        client.SetAttribute("Size", UintegerValue(size));
        Ptr<SocketStream> s = DynamicCast<SocketStream>(server.Install(t.nodes.Get(1)).Get(0));
        ApplicationContainer c = client.Install(t.nodes.Get(0));
        c.Start(MicroSeconds(10));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Ptr<SocketStream> cl = DynamicCast<SocketStream>(c.Get(0));
        r.postedBytes = cl->GetPostedBytes();
        r.postedMessages = cl->GetPostedMessages();
        r.deliveredBytes = s->GetDeliveredBytes();
        r.deliveredMessages = s->GetDeliveredMessages();
        r.throughputBps = double(s->GetThroughput().GetBitRate());
        Time sum;
        for (const Time& l : s->GetLatencies())
        {
            sum += l;
        }
        r.meanLatency = r.deliveredMessages ? sum / int64_t(r.deliveredMessages) : Time(0);
        r.firstLatency = r.deliveredMessages ? s->GetLatencies().front() : Time(0);
        r.client = HostCounters::FromNode(t.nodes.Get(0));
        r.server = HostCounters::FromNode(t.nodes.Get(1));
    }
    Simulator::Destroy();
    return r;
}

std::vector<Time>
RunPingPong(const HostSetup& setup, uint32_t size, uint32_t count)
{
    std::vector<Time> halves;
    {
        TwoHostTopology t(kLinkRate, kLinkDelay, false);
        if (setup)
        {
            HostHelper host;
            setup(host);
            host.Install(t.nodes);
        }
        SocketPingPongHelper server(SOCKET_ROLE_SERVER, kPort);
        server.SetAttribute("Size", UintegerValue(size));
        SocketPingPongHelper client(SOCKET_ROLE_CLIENT, kPort, InetSocketAddress(t.serverAddress, kPort));
        client.SetAttribute("Size", UintegerValue(size));
        client.SetAttribute("Count", UintegerValue(count));
        server.Install(t.nodes.Get(1));
        ApplicationContainer c = client.Install(t.nodes.Get(0));
        c.Start(MicroSeconds(10));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        halves = DynamicCast<SocketPingPong>(c.Get(0))->GetHalfRtts();
    }
    Simulator::Destroy();
    return halves;
}

/** 1 core at 1 GHz, an 8 Gb/s bus without overhead: one cycle and one octet per ns. */
HostSetup
SimpleHost(uint64_t rxCyclesPerPacket)
{
    return [rxCyclesPerPacket](HostHelper& h) {
        h.SetMemoryAttribute("Bandwidth", DataRateValue(DataRate("8Gbps")));
        h.SetMemoryAttribute("TransactionOverhead", TimeValue(Time(0)));
        h.SetCpuAttribute("Cores", UintegerValue(1));
        h.SetCpuAttribute("Frequency", DoubleValue(1e9));
        h.SetCpuAttribute("CopyCyclesPerByte", DoubleValue(1.0));
        h.SetCpuAttribute("RxCyclesPerPacket", UintegerValue(rxCyclesPerPacket));
        h.SetCpuAttribute("TxCyclesPerPacket", UintegerValue(700));
    };
}

class StreamTotalsTestCase : public TestCase
{
  public:
    StreamTotalsTestCase()
        : TestCase("stream totals: all posted octets delivered, uncharged and charged; the "
                   "charged receiver's bus carries them 3 times, the sender copies each message")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t total = 2 << 20;
        const uint32_t size = 65536;
        StreamResult plain = RunStream(HostSetup(), HostSetup(), total, size);
        NS_TEST_EXPECT_MSG_EQ(plain.postedBytes, total, "posted");
        NS_TEST_EXPECT_MSG_EQ(plain.deliveredBytes, total, "uncharged: all delivered");
        NS_TEST_EXPECT_MSG_EQ(plain.deliveredMessages, total / size, "uncharged: every message");
        NS_TEST_EXPECT_MSG_EQ(plain.server.valid, false, "no host model");

        const HostSetup defaults = [](HostHelper&) {};
        StreamResult host = RunStream(defaults, defaults, total, size);
        NS_TEST_EXPECT_MSG_EQ(host.deliveredBytes, total, "charged: all delivered");
        NS_TEST_EXPECT_MSG_EQ(host.deliveredMessages, total / size, "charged: every message");
        NS_TEST_ASSERT_MSG_EQ(host.server.valid, true, "host model");
        NS_TEST_EXPECT_MSG_EQ(host.server.BusBytes(MemoryTransaction::NicDmaWrite), total, "DMA into kernel");
        NS_TEST_EXPECT_MSG_EQ(host.server.BusBytes(MemoryTransaction::CpuCopyRead), total, "copy read");
        NS_TEST_EXPECT_MSG_EQ(host.server.BusBytes(MemoryTransaction::CpuCopyWrite), total, "copy write");
        NS_TEST_EXPECT_MSG_EQ(host.server.busBytes, 3 * total, "3x the octets on the receiver's bus");
        // At least one packet per 1448 octets at 10000 cycles, and one cycle per octet copied.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(host.server.cpuCycles, total + (total + 1447) / 1448 * 10000,
                                    "receiver cycles");
        uint32_t busyCores = 0;
        for (const Time& t : host.server.coreBusy)
        {
            busyCores += t.IsStrictlyPositive() ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(busyCores, 1u, "one connection's processing stays on one core (RSS)");
        NS_TEST_EXPECT_MSG_EQ(host.client.copies, total / size, "one user->kernel copy per message");
        NS_TEST_EXPECT_MSG_EQ(host.client.BusBytes(MemoryTransaction::NicDmaRead), total, "sender DMA");
        NS_TEST_EXPECT_MSG_EQ(host.client.busBytes, 3 * total, "3x on the sender's bus");
        // Each read copies at most RxReadSize octets: one copy per read.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(host.server.copies, total / 65536, "reads of 64 KiB at most");
        StreamResult small = RunStream(defaults, defaults, total, size, 4096);
        NS_TEST_EXPECT_MSG_EQ(small.deliveredBytes, total, "4 KiB reads: all delivered");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(small.server.copies, total / 4096, "reads of 4 KiB at most");
        NS_TEST_EXPECT_MSG_GT(small.server.copies, host.server.copies, "smaller reads, more of them");
        // (Mean latencies are not comparable: an uncharged sender fills the socket buffer at once,
        // so its later messages queue longer behind earlier ones.)
        NS_TEST_EXPECT_MSG_GT(host.firstLatency, plain.firstLatency, "host costs add latency");
    }
};

class StreamContentionTestCase : public TestCase
{
  public:
    StreamContentionTestCase(bool bus)
        : TestCase(std::string("stream contention: a slow ") + (bus ? "memory bus" : "core") +
                   " caps delivered throughput at the model's bound"),
          m_bus(bus)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t total = 2 << 20;
        // Only the receiver is slow: the sender keeps the default host, so the cap is the
        // receiver's processing and nothing else.
        const HostSetup defaults = [](HostHelper&) {};
        StreamResult fast = RunStream(defaults, defaults, total, 65536);
        double bound;
        StreamResult slow;
        if (m_bus)
        {
            // Each delivered octet crosses the receiver's bus 3 times: goodput <= rate / 3.
            const DataRate rate("2Gbps");
            slow = RunStream(defaults,
                             [rate](HostHelper& h) { h.SetMemoryAttribute("Bandwidth", DataRateValue(rate)); },
                             total,
                             65536);
            bound = double(rate.GetBitRate()) / 3.0;
        }
        else
        {
            // One core at 0.5 GHz; per octet >= Ccopy + Crx / 1448 cycles at the receiver.
            const double f = 0.5e9;
            slow = RunStream(
                defaults,
                [f](HostHelper& h) {
                    h.SetCpuAttribute("Cores", UintegerValue(1));
                    h.SetCpuAttribute("Frequency", DoubleValue(f));
                },
                total,
                65536);
            bound = 8.0 * f / (1.0 + 10000.0 / 1448.0);
        }
        NS_TEST_EXPECT_MSG_EQ(slow.deliveredBytes, total, "still all delivered");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(slow.throughputBps, bound * 1.001, "at most the host's bound");
        NS_TEST_EXPECT_MSG_GT(slow.throughputBps, bound * 0.5, "and the host is the bottleneck, near it");
        NS_TEST_EXPECT_MSG_LT(slow.throughputBps, fast.throughputBps * 0.5, "far below the fast host");
        NS_TEST_EXPECT_MSG_GT(slow.firstLatency, fast.firstLatency, "a slow host delays delivery");
    }

    bool m_bus;
};

class PingPongTestCase : public TestCase
{
  public:
    PingPongTestCase()
        : TestCase("ping-pong: half RTT grows by exactly SocketSend + SocketReceive, and with "
                   "the per-packet cost")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 1000; // one segment each way
        const uint32_t count = 5;
        std::vector<Time> plain = RunPingPong(HostSetup(), size, count);
        std::vector<Time> cheap = RunPingPong(SimpleHost(1000), size, count);
        std::vector<Time> dear = RunPingPong(SimpleHost(20000), size, count);
        NS_TEST_ASSERT_MSG_EQ(plain.size(), count, "uncharged iterations");
        NS_TEST_ASSERT_MSG_EQ(cheap.size(), count, "charged iterations");
        NS_TEST_ASSERT_MSG_EQ(dear.size(), count, "charged iterations");
        // SocketSend(1000, 1) = max(1000 cycles, 2 x 1000 ns) + 700 + 1000 = 3700 ns
        // SocketReceive(1000, 1) = 1000 + Crx + max(1000, 2000)               = 3000 + Crx ns
        // plus one time step, independent of the costs (a host with zero cycle costs shows it too):
        // when Send() is called from a later event rather than from inside TCP's receive callback,
        // ns-3's TCP puts the data out one time step later (its m_sendPendingDataEvent
        // micro-delay, TimeStep(1): 1 ps at the module's resolution, common/time-resolution.h).
        const Time tcpMicroDelay = TimeStep(1);
        for (uint32_t i = 1; i < count; ++i) // iteration 0 may carry connection set-up effects
        {
            NS_TEST_EXPECT_MSG_EQ(cheap[i] - plain[i], NanoSeconds(3700 + 3000 + 1000) + tcpMicroDelay,
                                  "iteration " << i << ": host costs on the one-way path");
            NS_TEST_EXPECT_MSG_EQ(dear[i] - plain[i], NanoSeconds(3700 + 3000 + 20000) + tcpMicroDelay,
                                  "iteration " << i << ": grows with RxCyclesPerPacket");
        }
    }
};

class StreamDurationTestCase : public TestCase
{
  public:
    StreamDurationTestCase()
        : TestCase("stream for a Duration: posting stops after it, every posted message is delivered")
    {
    }

  private:
    static void OnPosted(std::vector<Time>* times, uint64_t, uint32_t)
    {
        times->push_back(Simulator::Now());
    }

    void DoRun() override
    {
        const Time duration = MilliSeconds(2);
        std::vector<Time> posts;
        uint64_t posted = 0;
        uint64_t delivered = 0;
        {
            TwoHostTopology t(kLinkRate, kLinkDelay, false);
            MaybeInstall([](HostHelper&) {}, t.nodes.Get(0));
            MaybeInstall([](HostHelper&) {}, t.nodes.Get(1));
            SocketStreamHelper server(SOCKET_ROLE_SERVER, kPort);
            SocketStreamHelper client(SOCKET_ROLE_CLIENT, kPort, InetSocketAddress(t.serverAddress, kPort));
            client.SetAttribute("TotalBytes", UintegerValue(0));
            client.SetAttribute("Duration", TimeValue(duration));
            client.SetAttribute("Size", UintegerValue(8192));
            Ptr<SocketStream> s = DynamicCast<SocketStream>(server.Install(t.nodes.Get(1)).Get(0));
            ApplicationContainer c = client.Install(t.nodes.Get(0));
            c.Start(MicroSeconds(10));
            c.Get(0)->TraceConnectWithoutContext("Posted", MakeBoundCallback(&OnPosted, &posts));
            Simulator::Stop(Seconds(1));
            Simulator::Run();
            posted = DynamicCast<SocketStream>(c.Get(0))->GetPostedMessages();
            delivered = s->GetDeliveredMessages();
        }
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_GT(posted, 10u, "posted for a while");
        NS_TEST_EXPECT_MSG_EQ(posts.size(), posted, "one trace per post");
        // Connection set-up (one RTT after the start at 10 us) precedes the first post.
        NS_TEST_EXPECT_MSG_LT(posts.back() - posts.front(), duration, "no post after Duration");
        NS_TEST_EXPECT_MSG_EQ(delivered, posted, "all delivered");
    }
};

class SocketTraceTestCase : public TestCase
{
  public:
    SocketTraceTestCase()
        : TestCase("Socket trace: the client reports its TCP socket once, as it connects to the server")
    {
    }

  private:
    static void OnSocket(std::vector<std::pair<Time, Ptr<Socket>>>* seen, Ptr<Socket> s)
    {
        seen->emplace_back(Simulator::Now(), s);
    }

    void DoRun() override
    {
        std::vector<std::pair<Time, Ptr<Socket>>> clientSockets;
        std::vector<std::pair<Time, Ptr<Socket>>> serverSockets;
        Address peer;
        int peerStatus = -1;
        Ipv4Address serverAddress;
        {
            TwoHostTopology t(kLinkRate, kLinkDelay, false);
            serverAddress = t.serverAddress;
            SocketPingPongHelper server(SOCKET_ROLE_SERVER, kPort);
            SocketPingPongHelper client(SOCKET_ROLE_CLIENT, kPort, InetSocketAddress(t.serverAddress, kPort));
            client.SetAttribute("Count", UintegerValue(2));
            ApplicationContainer s = server.Install(t.nodes.Get(1));
            ApplicationContainer c = client.Install(t.nodes.Get(0));
            c.Start(MicroSeconds(10));
            c.Get(0)->TraceConnectWithoutContext("Socket", MakeBoundCallback(&OnSocket, &clientSockets));
            s.Get(0)->TraceConnectWithoutContext("Socket", MakeBoundCallback(&OnSocket, &serverSockets));
            Simulator::Stop(Seconds(1));
            Simulator::Run();
            if (clientSockets.size() == 1)
            {
                peerStatus = clientSockets[0].second->GetPeerName(peer);
                clientSockets[0].second = nullptr;
            }
        }
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(clientSockets.size(), 1u, "the client reports one socket");
        NS_TEST_EXPECT_MSG_EQ(clientSockets[0].first, MicroSeconds(10), "as it starts and connects");
        NS_TEST_EXPECT_MSG_EQ(peerStatus, 0, "a connected socket");
        NS_TEST_EXPECT_MSG_EQ(InetSocketAddress::ConvertFrom(peer).GetIpv4(), serverAddress, "to the server");
        NS_TEST_EXPECT_MSG_EQ(InetSocketAddress::ConvertFrom(peer).GetPort(), kPort, "on its port");
        NS_TEST_EXPECT_MSG_EQ(serverSockets.size(), 0u, "a server reports none (its connections are accepted)");
    }
};

class FlowControlTestCase : public TestCase
{
  public:
    FlowControlTestCase()
        : TestCase("RxBacklog: a slow receiving host closes TCP's window and holds the sender "
                   "back; without it the sender runs ahead, and the stream never stalls")
    {
    }

  private:
    struct Run
    {
        uint64_t maxGap{0}; ///< most octets posted and not yet delivered, sampled every 100 us
        uint64_t delivered{0};
        double throughputBps{0};
    };

    static void Sample(Ptr<SocketStream> c, Ptr<SocketStream> s, uint64_t* maxGap)
    {
        *maxGap = std::max(*maxGap, c->GetPostedBytes() - s->GetDeliveredBytes());
        Simulator::Schedule(MicroSeconds(100), &FlowControlTestCase::Sample, c, s, maxGap);
    }

    static Run RunOne(uint32_t rxBacklog, uint64_t total)
    {
        Run r;
        {
            TwoHostTopology t(kLinkRate, kLinkDelay, false);
            for (uint32_t i = 0; i < t.nodes.GetN(); ++i)
            {
                // Over the topology's 4 MiB, on these nodes' sockets only.
                Ptr<TransportProfile> profile = t.nodes.Get(i)->GetObject<TransportProfile>();
                profile->SetTcpAttribute("SndBufSize", UintegerValue(128 << 10));
                profile->SetTcpAttribute("RcvBufSize", UintegerValue(128 << 10));
            }
            MaybeInstall([](HostHelper&) {}, t.nodes.Get(0));
            MaybeInstall(
                [](HostHelper& h) {
                    h.SetCpuAttribute("Cores", UintegerValue(1));
                    h.SetCpuAttribute("Frequency", DoubleValue(0.5e9));
                },
                t.nodes.Get(1));
            SocketStreamHelper server(SOCKET_ROLE_SERVER, kPort);
            server.SetAttribute("RxBacklog", UintegerValue(rxBacklog));
            SocketStreamHelper client(SOCKET_ROLE_CLIENT, kPort, InetSocketAddress(t.serverAddress, kPort));
            client.SetAttribute("TotalBytes", UintegerValue(total));
            Ptr<SocketStream> s = DynamicCast<SocketStream>(server.Install(t.nodes.Get(1)).Get(0));
            ApplicationContainer c = client.Install(t.nodes.Get(0));
            c.Start(MicroSeconds(10));
            Simulator::Schedule(MicroSeconds(10), &Sample, DynamicCast<SocketStream>(c.Get(0)), s, &r.maxGap);
            Simulator::Stop(Seconds(5));
            Simulator::Run();
            r.delivered = s->GetDeliveredBytes();
            r.throughputBps = double(s->GetThroughput().GetBitRate());
        }
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const uint64_t total = 4 << 20;
        const double bound = 8.0 * 0.5e9 / (1.0 + 10000.0 / 1448.0); // receiver's core bound
        Run limited = RunOne(64 << 10, total);
        Run unlimited = RunOne(0, total);
        NS_TEST_EXPECT_MSG_EQ(limited.delivered, total, "limited: all delivered");
        NS_TEST_EXPECT_MSG_EQ(unlimited.delivered, total, "unlimited: all delivered");
        // Posted and undelivered with the limit: one message in the sender's host, its socket
        // buffer (128 KiB, which covers what is on the wire), the receiver's socket buffer
        // (128 KiB) and the host backlog (64 KiB).
        NS_TEST_EXPECT_MSG_LT_OR_EQ(limited.maxGap, uint64_t((64 + 128 + 128 + 64) << 10),
                                    "the window held the sender back");
        NS_TEST_EXPECT_MSG_GT(unlimited.maxGap, uint64_t(1 << 20), "without the limit it runs ahead");
        // No persist-timer stalls: the receiver's core stays the bottleneck.
        for (const Run* r : {&limited, &unlimited})
        {
            NS_TEST_EXPECT_MSG_GT(r->throughputBps, 0.8 * bound, "near the receiver's bound");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r->throughputBps, bound * 1.001, "not above it");
        }
    }
};

class BadAttributesTestCase : public TestCase
{
  public:
    BadAttributesTestCase()
        : TestCase("socket apps refuse sizes below their minimum and cores below -1")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SocketStream> s = CreateObject<SocketStream>();
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("Size", UintegerValue(SocketStream::kStampSize - 1)),
                              false,
                              "no room for the stamp");
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("Size", UintegerValue(SocketStream::kStampSize)), true,
                              "just the stamp");
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("Core", IntegerValue(-2)), false, "no such core");
        Ptr<SocketPingPong> p = CreateObject<SocketPingPong>();
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("Size", UintegerValue(0)), false, "empty message");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("Count", UintegerValue(0)), false, "no iterations");
    }
};

class SocketAppsTestSuite : public TestSuite
{
  public:
    SocketAppsTestSuite()
        : TestSuite("iwarp-socket-apps", UNIT)
    {
        AddTestCase(new StreamTotalsTestCase(), TestCase::QUICK);
        AddTestCase(new StreamContentionTestCase(true), TestCase::QUICK);
        AddTestCase(new StreamContentionTestCase(false), TestCase::QUICK);
        AddTestCase(new PingPongTestCase(), TestCase::QUICK);
        AddTestCase(new StreamDurationTestCase(), TestCase::QUICK);
        AddTestCase(new SocketTraceTestCase(), TestCase::QUICK);
        AddTestCase(new FlowControlTestCase(), TestCase::QUICK);
        AddTestCase(new BadAttributesTestCase(), TestCase::QUICK);
    }
};

SocketAppsTestSuite g_socketAppsTestSuite;

} // namespace
} // namespace ns3
