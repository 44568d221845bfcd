/*
 * iwarp-rdma-apps: the RDMA applications end to end on two nodes joined by a 10 Gb/s
 * point-to-point link, RNICs installed by IwarpHelper, MPA over ns-3 TCP.
 *
 *  - ping-pong, Send and Write mode: Count round trips, each half round trip between a lower
 *    bound (propagation + serialization of the payload + the RNIC engine's fixed costs on both
 *    sides) and an upper bound (everything serialized, with every header, no overlap).
 *  - a Write stream with real payload: TotalBytes moved, the server's buffer equal to the
 *    client's octet for octet, throughput within (0.5, 1.0] of the link rate.
 *  - Read and Send streams complete.
 *  - The same ping-pongs and streams over the loopback transport (its LlpConnector's pair
 *    LoopbackRdmaTransport, set up by LoopbackLlpConnector): the applications run unchanged on
 *    another RdmaTransport, each half round trip is the loopback's one delay, and the octets arrive.
 */
#include "helper/host-helper.h"
#include "helper/two-host-topology.h"
#include "helper/iwarp-helper.h"
#include "helper/rdma-app-helper.h"
#include "host/host-counters.h"
#include "rnic/loopback-llp-connector.h"
#include "rnic/loopback-rdma-transport.h"
#include "rnic/rnic-pair.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>

namespace ns3
{
namespace
{

const DataRate kLinkRate("10Gbps");
const Time kLinkDelay = MicroSeconds(5);
constexpr uint32_t kSegmentSize = 1448;

/**
 * Two hosts, a 10 Gb/s link, an RNIC on each; host 0 is the client, host 1 the server. Over the
 * loopback transport the link stays (the connector finds listeners by IPv4 address) but carries
 * nothing: the RNICs make LoopbackRdmaTransports and set them up through LoopbackLlpConnector.
 */
class TwoHosts : public TwoHostTopology
{
  public:
    explicit TwoHosts(TestTransport t = TestTransport::Iwarp)
        : TwoHostTopology(kLinkRate, kLinkDelay, true, kSegmentSize),
          serverIp(serverAddress)
    {
        if (t == TestTransport::Loopback)
        {
            for (const Ptr<Rnic>& rnic : rnics)
            {
                rnic->GetConnectionManager()->SetAttribute("LlpConnector",
                                                           TypeIdValue(LoopbackLlpConnector::GetTypeId()));
            }
        }
    }

    ~TwoHosts() { Simulator::Destroy(); }

    void Run(Time until = Seconds(5))
    {
        Simulator::Stop(until);
        Simulator::Run();
    }

    Ipv4Address serverIp;
};

/** Wire time of `octets` at the link rate. */
Time
Wire(uint64_t octets)
{
    return kLinkRate.CalculateBytesTxTime(octets);
}

/**
 * One-way bounds for a message of `size` octets (plus `extraMessages` zero-length Sends behind
 * it), from the link and the RNIC engine's costs (RnicPipeline::Cost, per segment + per message
 * on a message's last segment, each direction).
 * Lower: the link delay, the payload's wire time, the transmit engine's per-segment cost of the
 * first segment (and its per-message cost when the message is surely one segment: otherwise it
 * overlaps the wire time of earlier segments), the receive engine's full cost of the last
 * segment, and the receive cost of each trailing Send (serial behind it in the receive engine).
 * Upper: every segment processed and sent one after another with every header (PPP 2 + IPv4 20
 * + TCP 20 + options 12 + MPA 2 + pad 3 + CRC 4 + DDP/RDMAP 18 < 100 octets per segment) and
 * the engine's full costs on both sides, nothing overlapped.
 */
std::pair<Time, Time>
OneWayBounds(uint32_t size, uint32_t extraMessages)
{
    Ptr<RnicPipeline> pl = CreateObject<RnicPipeline>();
    const bool oneSegment = size + 100 <= kSegmentSize;
    Time lower = kLinkDelay + Wire(size) + pl->Cost(0, oneSegment, true) + pl->Cost(0, true, false);
    const uint32_t perSegPayload = kSegmentSize - 100;
    const uint32_t segs = (size + perSegPayload - 1) / perSegPayload + extraMessages;
    Time upper = kLinkDelay + Wire(uint64_t(size) + uint64_t(segs) * 100);
    upper += pl->Cost(size, true, true) + pl->Cost(size, true, false);
    upper += (pl->Cost(0, false, true) + pl->Cost(0, false, false)) * segs;
    for (uint32_t i = 0; i < extraMessages; ++i)
    {
        lower += pl->Cost(0, true, false);
        upper += pl->Cost(0, true, true) + pl->Cost(0, true, false);
    }
    return {lower, upper};
}

/** Run `count` round trips of `mode` with `size` octets; returns the client's half round trips. */
std::vector<Time>
RunPingPong(const std::string& mode, uint32_t size, uint32_t count, uint32_t* serverSaw = nullptr,
            std::vector<Time>* traced = nullptr, TestTransport transport = TestTransport::Iwarp)
{
    TwoHosts h(transport);
    RdmaPingPongHelper server(RDMA_ROLE_SERVER, 9000);
    server.SetAttribute("Size", UintegerValue(size));
    server.SetAttribute("Mode", StringValue(mode));
    RdmaPingPongHelper client(RDMA_ROLE_CLIENT, 9000, InetSocketAddress(h.serverIp, 9000));
    client.SetAttribute("Size", UintegerValue(size));
    client.SetAttribute("Count", UintegerValue(count));
    client.SetAttribute("Mode", StringValue(mode));
    ApplicationContainer s = server.Install(h.nodes.Get(1));
    ApplicationContainer c = client.Install(h.nodes.Get(0));
    c.Start(MicroSeconds(10));
    if (traced)
    {
        c.Get(0)->TraceConnectWithoutContext(
            "Completed",
            MakeBoundCallback(+[](std::vector<Time>* v, uint32_t, uint32_t, Time t) { v->push_back(t); }, traced));
    }
    h.Run();
    if (serverSaw)
    {
        *serverSaw = DynamicCast<RdmaPingPong>(s.Get(0))->GetMessagesReceived();
    }
    return DynamicCast<RdmaPingPong>(c.Get(0))->GetHalfRtts();
}

/**
 * WritePoll (ib_write_lat's way of waiting) against Write + zero-length Send: the same Write,
 * seen at placement of its last octet instead of at the Send's receive completion, so each half
 * round trip is shorter by at least the receive engine's cost of that Send.
 */
class PollVersusNotifyTestCase : public TestCase
{
  public:
    explicit PollVersusNotifyTestCase(uint32_t size)
        : TestCase("ping-pong " + std::to_string(size) + " octets: WritePoll's half RTT is Write's less at least "
                   "the notifying Send's receive cost"),
          m_size(size)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t saw = 0;
        const std::vector<Time> poll = RunPingPong("WritePoll", m_size, 10, &saw);
        NS_TEST_ASSERT_MSG_EQ(poll.size(), 10u, "every WritePoll round trip completed");
        NS_TEST_EXPECT_MSG_EQ(saw, 10u, "the server saw every Write by its last octet");
        const std::vector<Time> notify = RunPingPong("Write", m_size, 10);
        NS_TEST_ASSERT_MSG_EQ(notify.size(), 10u, "every Write round trip completed");
        const Time sendRx = CreateObject<RnicPipeline>()->Cost(0, true, false);
        for (std::size_t i = 0; i < poll.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(poll[i] + sendRx, notify[i],
                                        "iteration " << i << ": " << poll[i] << " + " << sendRx << " vs " << notify[i]);
        }
    }

    uint32_t m_size;
};

class PingPongTestCase : public TestCase
{
  public:
    PingPongTestCase(std::string mode, uint32_t size, TestTransport transport = TestTransport::Iwarp)
        : TestCase(TransportCaseName("ping-pong " + mode + " " + std::to_string(size) +
                                         " octets: Count round trips, half RTT within computed bounds",
                                     transport)),
          m_mode(mode),
          m_size(size),
          m_transport(transport)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t count = 10;
        std::vector<Time> traced;
        uint32_t serverSaw = 0;
        const std::vector<Time> halves = RunPingPong(m_mode, m_size, count, &serverSaw, &traced, m_transport);
        NS_TEST_ASSERT_MSG_EQ(halves.size(), std::size_t(count), "every round trip completed");
        NS_TEST_ASSERT_MSG_EQ(serverSaw, count, "the server saw every message");
        NS_TEST_ASSERT_MSG_EQ(traced.size(), std::size_t(count), "one trace per round trip");
        if (m_transport == TestTransport::Loopback)
        {
            // Each message (the Write mode's Write and its Send alike) runs one Delay after it is
            // posted, and the applications add no time of their own: half an RTT is one Delay.
            TimeValue delay;
            CreateObject<LoopbackRdmaTransport>()->GetAttribute("Delay", delay);
            for (const Time& t : halves)
            {
                NS_TEST_EXPECT_MSG_EQ(t, delay.Get(), "half RTT over the loopback");
            }
            return;
        }
        const auto [lower, upper] = OneWayBounds(m_size, m_mode == "Write" ? 1 : 0);
        for (const Time& t : halves)
        {
            NS_TEST_EXPECT_MSG_GT(t, kLinkDelay, "half RTT exceeds the one-way link delay");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t, lower, "half RTT below the computed lower bound");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t, upper, "half RTT above the computed upper bound");
        }
    }

    std::string m_mode;
    uint32_t m_size;
    TestTransport m_transport;
};

class StreamTestCase : public TestCase
{
  public:
    StreamTestCase(std::string op, bool real, uint64_t total, bool checkRate, bool zeroCostEngine = false,
                   TestTransport transport = TestTransport::Iwarp)
        : TestCase(TransportCaseName("stream of " + op + (real ? " (real payload)" : " (virtual payload)") +
                                         (zeroCostEngine ? " on a zero-cost RNIC engine" : "") + ": moves TotalBytes" +
                                         (checkRate ? ", throughput in (0.5, 1] of the link" : ""),
                                     transport)),
          m_op(op),
          m_real(real),
          m_total(total),
          m_checkRate(checkRate),
          m_zeroCost(zeroCostEngine),
          m_transport(transport)
    {
    }

  private:
    /**
     * Zero engine costs make the pipeline a pass-through: a Write can complete inside PostSend.
     * Given to these RNICs' pipelines only, never as ns-3 defaults.
     */
    static AttributeSet ZeroCostEngine()
    {
        AttributeSet zero;
        for (const char* cost : {"TxPerMessage", "TxPerSegment", "RxPerMessage", "RxPerSegment"})
        {
            zero.Set(RnicPipeline::GetTypeId(), cost, TimeValue(Time(0)));
        }
        zero.Set(RnicPipeline::GetTypeId(), "EngineRate", DataRateValue(DataRate(0)));
        return zero;
    }

    void DoRun() override
    {
        TwoHosts h(m_transport);
        if (m_zeroCost)
        {
            for (const Ptr<Rnic>& rnic : h.rnics)
            {
                rnic->SetPartAttributes(ZeroCostEngine());
            }
        }
        const uint32_t size = 65536;
        RdmaStreamHelper server(RDMA_ROLE_SERVER, 9001);
        server.SetAttribute("Payload", StringValue(m_real ? "Real" : "Virtual"));
        RdmaStreamHelper client(RDMA_ROLE_CLIENT, 9001, InetSocketAddress(h.serverIp, 9001));
        client.SetAttribute("Op", StringValue(m_op));
        client.SetAttribute("Size", UintegerValue(size));
        client.SetAttribute("Outstanding", UintegerValue(8));
        client.SetAttribute("TotalBytes", UintegerValue(m_total));
        client.SetAttribute("Payload", StringValue(m_real ? "Real" : "Virtual"));
        ApplicationContainer s = server.Install(h.nodes.Get(1));
        ApplicationContainer c = client.Install(h.nodes.Get(0));
        c.Start(MicroSeconds(10));
        h.Run();
        Ptr<RdmaStream> cl = DynamicCast<RdmaStream>(c.Get(0));
        Ptr<RdmaStream> sv = DynamicCast<RdmaStream>(s.Get(0));
        NS_TEST_ASSERT_MSG_EQ(cl->IsFinished(), true, "the client saw the fin answered");
        NS_TEST_ASSERT_MSG_EQ(sv->IsFinished(), true, "the server saw the fin");
        NS_TEST_EXPECT_MSG_EQ(cl->GetBytes(), m_total, "the client completed TotalBytes");
        NS_TEST_EXPECT_MSG_EQ(cl->GetCompletions(), (m_total + size - 1) / size, "one completion per op");
        if (m_op != "Read")
        {
            NS_TEST_EXPECT_MSG_EQ(sv->GetBytes(), m_total, "the server received TotalBytes");
        }
        if (m_real)
        {
            Ptr<ByteBuffer> a = cl->GetRegion()->GetBuffer();
            Ptr<ByteBuffer> b = sv->GetRegion()->GetBuffer();
            NS_TEST_ASSERT_MSG_EQ(a->GetSize(), b->GetSize(), "same buffer shape at both ends");
            NS_TEST_EXPECT_MSG_EQ(std::memcmp(a->Data(), b->Data(), a->GetSize()), 0,
                                  "the server's buffer equals the client's, octet for octet");
        }
        if (m_checkRate)
        {
            const double ratio = double(cl->GetThroughput().GetBitRate()) / double(kLinkRate.GetBitRate());
            NS_TEST_EXPECT_MSG_GT(ratio, 0.5, "throughput above half the link rate");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(ratio, 1.0, "throughput not above the link rate");
        }
    }

    std::string m_op;
    bool m_real;
    uint64_t m_total;
    bool m_checkRate;
    bool m_zeroCost;
    TestTransport m_transport;
};

/**
 * A stream over a lossy link (RateErrorModel on the server's device, so TCP holds segments out
 * of order and MPA hands their FPDUs to DDP as early-placement hints before the in-order copy).
 * Each octet and each message must still count once: the server's bytes equal TotalBytes, a
 * Send stream completes one receive per operation, and the data arrive byte-exact.
 */
class LossyStreamTestCase : public TestCase
{
  public:
    LossyStreamTestCase(std::string op, double loss, uint64_t total, uint32_t seed)
        : TestCase("stream of " + op + " (real payload) with " + std::to_string(loss * 100).substr(0, 4) +
                   "% loss, run " + std::to_string(seed) +
                   ": the server counts TotalBytes and one completion per op, not the early-placed copies"),
          m_op(op),
          m_loss(loss),
          m_total(total),
          m_seed(seed)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(m_seed);
        TwoHosts h;
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(m_loss));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        h.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        uint64_t dropped = 0;
        h.devices.Get(1)->TraceConnectWithoutContext(
            "PhyRxDrop", MakeBoundCallback(+[](uint64_t* n, Ptr<const Packet>) { ++*n; }, &dropped));
        const uint32_t size = 65536;
        RdmaStreamHelper server(RDMA_ROLE_SERVER, 9001);
        server.SetAttribute("Payload", StringValue("Real"));
        RdmaStreamHelper client(RDMA_ROLE_CLIENT, 9001, InetSocketAddress(h.serverIp, 9001));
        client.SetAttribute("Op", StringValue(m_op));
        client.SetAttribute("Size", UintegerValue(size));
        client.SetAttribute("Outstanding", UintegerValue(8));
        client.SetAttribute("TotalBytes", UintegerValue(m_total));
        client.SetAttribute("Payload", StringValue("Real"));
        ApplicationContainer s = server.Install(h.nodes.Get(1));
        ApplicationContainer c = client.Install(h.nodes.Get(0));
        c.Start(MicroSeconds(10));
        uint64_t early = 0;
        uint64_t earlyOctets = 0;
        // Count MPA's early-placement hints at the server, once its QP is bound to its LLP.
        std::function<void()> hook = [&h, &early, &earlyOctets, &hook]() {
            for (Ptr<QueuePair> qp : h.ServerRnic()->GetQps())
            {
                if (Ptr<DdpLowerLayer> llp = IwarpTransport::Of(qp, "the early-placement count")->GetLlp())
                {
                    llp->TraceConnectWithoutContext(
                        "EarlyPlacement",
                        MakeBoundCallback(+[](uint64_t* n, uint64_t* o, Ptr<const Packet> p) {
                            ++*n;
                            *o += p->GetSize();
                        }, &early, &earlyOctets));
                    return;
                }
            }
            Simulator::Schedule(MicroSeconds(5), hook);
        };
        Simulator::Schedule(MicroSeconds(5), hook);
        h.Run(Seconds(20));
        Ptr<RdmaStream> cl = DynamicCast<RdmaStream>(c.Get(0));
        Ptr<RdmaStream> sv = DynamicCast<RdmaStream>(s.Get(0));
        const uint64_t ops = (m_total + size - 1) / size;
        std::cout << GetName() << ": " << dropped << " packets dropped, " << early << " FPDUs ("
                  << earlyOctets << " octets) placed early; client " << cl->GetBytes() << " B / "
                  << cl->GetCompletions() << " completions, server " << sv->GetBytes() << " B / "
                  << sv->GetCompletions() << " completions" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(cl->IsFinished(), true, "the client saw the fin answered");
        NS_TEST_ASSERT_MSG_EQ(sv->IsFinished(), true, "the server saw the fin");
        NS_TEST_EXPECT_MSG_GT(dropped, 0u, "the link lost packets");
        NS_TEST_EXPECT_MSG_GT(early, 0u, "FPDUs held out of order were placed early");
        NS_TEST_EXPECT_MSG_EQ(cl->GetBytes(), m_total, "the client completed TotalBytes");
        NS_TEST_EXPECT_MSG_EQ(cl->GetCompletions(), ops, "one client completion per op");
        NS_TEST_EXPECT_MSG_EQ(sv->GetBytes(), m_total, "the server received TotalBytes, each octet once");
        if (m_op == "Send")
        {
            NS_TEST_EXPECT_MSG_EQ(sv->GetCompletions(), ops, "one server receive completion per Send");
        }
        Ptr<ByteBuffer> a = cl->GetRegion()->GetBuffer();
        Ptr<ByteBuffer> b = sv->GetRegion()->GetBuffer();
        NS_TEST_ASSERT_MSG_EQ(a->GetSize(), b->GetSize(), "same buffer shape at both ends");
        NS_TEST_EXPECT_MSG_EQ(std::memcmp(a->Data(), b->Data(), a->GetSize()), 0,
                              "the server's buffer equals the client's, octet for octet");
    }

    std::string m_op;
    double m_loss;
    uint64_t m_total;
    uint32_t m_seed;
};

/**
 * The host model charges the RNIC's DMA through RdmaTransport::WatchOctets, whatever the transport: a 1 MiB
 * Write stream moves its payload over the client's bus once (NicDmaRead) and the server's once
 * (NicDmaWrite). Regression: the charge took the DDP endpoint of an IwarpTransport and aborted for any other.
 */
class HostChargeTestCase : public TestCase
{
  public:
    explicit HostChargeTestCase(TestTransport t)
        : TestCase(TransportCaseName("the host model charges each payload octet once per end, on any transport", t)),
          m_transport(t)
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint64_t kTotal = 1 << 20;
        TwoHosts h(m_transport);
        HostHelper().Install(h.nodes); // before the applications make their queue pairs
        RdmaStreamHelper server(RDMA_ROLE_SERVER, 9002);
        RdmaStreamHelper client(RDMA_ROLE_CLIENT, 9002, InetSocketAddress(h.serverIp, 9002));
        client.SetAttribute("Op", StringValue("Write"));
        client.SetAttribute("Size", UintegerValue(64 << 10));
        client.SetAttribute("TotalBytes", UintegerValue(kTotal));
        server.Install(h.nodes.Get(1));
        client.Install(h.nodes.Get(0)).Start(MicroSeconds(10));
        h.Run();
        const HostCounters sender = HostCounters::FromNode(h.nodes.Get(0));
        const HostCounters receiver = HostCounters::FromNode(h.nodes.Get(1));
        NS_TEST_EXPECT_MSG_EQ(sender.BusBytes(MemoryTransaction::NicDmaRead), kTotal, "the payload read once");
        NS_TEST_EXPECT_MSG_EQ(receiver.BusBytes(MemoryTransaction::NicDmaWrite), kTotal, "the payload placed once");
        NS_TEST_EXPECT_MSG_EQ(receiver.copies + sender.copies, 0u, "no CPU copy on either end");
    }

    TestTransport m_transport;
};

class RdmaAppsTestSuite : public TestSuite
{
  public:
    RdmaAppsTestSuite()
        : TestSuite("iwarp-rdma-apps", UNIT)
    {
        AddTestCase(new PingPongTestCase("Send", 64), TestCase::QUICK);
        AddTestCase(new PingPongTestCase("Send", 4096), TestCase::QUICK);
        AddTestCase(new PingPongTestCase("Write", 64), TestCase::QUICK);
        AddTestCase(new PingPongTestCase("Write", 4096), TestCase::QUICK);
        AddTestCase(new PingPongTestCase("WritePoll", 64), TestCase::QUICK);
        AddTestCase(new PingPongTestCase("WritePoll", 4096), TestCase::QUICK);
        AddTestCase(new PollVersusNotifyTestCase(64), TestCase::QUICK);
        AddTestCase(new PollVersusNotifyTestCase(4096), TestCase::QUICK);
        AddTestCase(new StreamTestCase("Write", true, 16 << 20, true), TestCase::QUICK);
        AddTestCase(new StreamTestCase("Read", false, 4 << 20, false), TestCase::QUICK);
        AddTestCase(new StreamTestCase("Send", false, 4 << 20, false), TestCase::QUICK);
        // Regression: with a pass-through engine a completion used to arrive inside PostSend and stall the stream.
        AddTestCase(new HostChargeTestCase(TestTransport::Iwarp), TestCase::QUICK);
        AddTestCase(new HostChargeTestCase(TestTransport::Loopback), TestCase::QUICK);
        AddTestCase(new StreamTestCase("Write", false, 4 << 20, true, true), TestCase::QUICK);
        // Regression: with loss, early-placed FPDUs were counted again when TCP delivered them in order.
        for (uint32_t run = 1; run <= 3; ++run)
        {
            AddTestCase(new LossyStreamTestCase("Write", 0.01, 1 << 20, run), TestCase::QUICK);
            AddTestCase(new LossyStreamTestCase("Send", 0.01, 1 << 20, run), TestCase::QUICK);
        }
        // The same applications over another RdmaTransport (doc/architecture.md, RdmaTransport).
        for (const char* mode : {"Send", "Write", "WritePoll"})
        {
            AddTestCase(new PingPongTestCase(mode, 4096, TestTransport::Loopback), TestCase::QUICK);
        }
        for (const char* op : {"Write", "Read", "Send"})
        {
            AddTestCase(new StreamTestCase(op, true, 4 << 20, false, false, TestTransport::Loopback), TestCase::QUICK);
        }
    }
};

RdmaAppsTestSuite g_rdmaAppsTestSuite;

} // namespace
} // namespace ns3
