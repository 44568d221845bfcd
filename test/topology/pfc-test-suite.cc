/*
 * iwarp-pfc: IEEE 802.1Qbb in the network layer (model/net/pfc-*.h).
 *
 *  - The PAUSE frame's octets are where 802.1Qbb and RFC 3518 put them (PPP Bridged PDU, BCP, Ethernet MAC
 *    Control, opcode 0x0101, class-enable vector, eight pause times) and read back; tshark decodes it as
 *    PPP / BCP / Ethernet / MAC Control CBFC with the fields as written.
 *  - A PAUSE received stops its priority for its quanta x 512 bit times exactly, and an XON ends it at once;
 *    other priorities keep going.
 *  - Incast: two senders at 10 Gb/s into one 10 Gb/s port of a switch, priority 3 (DSCP 26) lossless. Each
 *    switch port sends XOFF as its ingress octets reach Xoff and XON as they fall to Xon, the senders' ports
 *    pause (paused time counted), the ingress never passes Xoff + the headroom the link needs, and the switch
 *    drops nothing; every packet sent arrives. Without PFC the same incast overflows the switch's queue. The
 *    switch port's capture holds each PAUSE it sent, decoded by tshark with nothing malformed.
 *  - The same incast with a shared buffer (PfcNode's SharedBuffer): each XOFF at the dynamic threshold then in
 *    force, alpha x (buffer - headroom - held), which falls below its most as the other port fills the buffer;
 *    each XON ResumeOffset below it; nothing dropped, never more held than the buffer.
 */
#include "helper/topology/port-queues.h"
#include "net/pfc-port.h"

#include "support/roce-pcap.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/pcap-file.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

#include <filesystem>
#include <optional>

namespace ns3
{
namespace
{

constexpr uint8_t kLossless = 3;
constexpr uint8_t kDscp26Tos = 26 << 2; ///< DSCP 26 (AF31): priority 3
constexpr uint32_t kPacket = 1000;      ///< UDP payload
constexpr uint32_t kWire = kPacket + 8 + 20 + 2; ///< UDP, IPv4, PPP
/**
 * What a switch port needs above its threshold here: after XOFF the peer goes on for the PAUSE's way there (one
 * frame on the wire, 64 octets, 1 us), what it has on the wire and in hand (a frame sending, one in its 1-packet
 * ring) and the way back (1 us): 2 x 1 us x 10 Gb/s + 3 frames + the PAUSE.
 */
constexpr uint64_t kHeadroom = 2 * 1250 + 3 * kWire + 64;

std::vector<uint8_t>
Octets(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), uint32_t(v.size()));
    return v;
}

class FrameTestCase : public TestCase
{
  public:
    FrameTestCase()
        : TestCase("the PAUSE frame's octets, read back, and as tshark decodes them")
    {
    }

  private:
    void DoRun() override
    {
        PfcFrame f;
        f.SetSource(Mac48Address("02:00:00:00:00:07"));
        f.SetPause(3, 0xFFFF);
        f.SetPause(5, 0);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(f);
        const std::vector<uint8_t> o = Octets(p);
        NS_TEST_ASSERT_MSG_EQ(o.size(), 64u, "PPP 2 + BCP 2 + Ethernet's minimum 60");
        const std::vector<uint8_t> head = {0x00, 0x31, 0x00, 0x01, 0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,
                                           0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x88, 0x08, 0x01, 0x01, 0x00, 0x28};
        NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(o.begin(), o.begin() + 22) == head), true,
                              "PPP 0x0031, BCP Ethernet, 01-80-C2-00-00-01, source, 0x8808, 0x0101, vector 0x28");
        NS_TEST_EXPECT_MSG_EQ((o[22 + 6] << 8 | o[22 + 7]), 0xFFFF, "priority 3's pause time at its place");
        NS_TEST_EXPECT_MSG_EQ((o[22 + 10] << 8 | o[22 + 11]), 0, "priority 5's (XON)");
        NS_TEST_EXPECT_MSG_EQ(pfc::IsPauseFrame(p), true, "recognised");
        PfcFrame back;
        p->PeekHeader(back);
        NS_TEST_EXPECT_MSG_EQ(back.IsValid(), true, "valid");
        NS_TEST_EXPECT_MSG_EQ(back.GetClassEnableVector(), 0x28, "priorities 3 and 5");
        NS_TEST_EXPECT_MSG_EQ(back.GetQuanta(3), 0xFFFF, "quanta read back");
        NS_TEST_EXPECT_MSG_EQ(pfc::PauseTime(0xFFFF, DataRate("10Gb/s")), NanoSeconds(3355392), "65535 x 512 bits");
        // Not a PAUSE: an IPv4 frame, and a Bridged PDU with another opcode.
        std::vector<uint8_t> other = o;
        other[18] = 0x00; // opcode 0x0001: 802.3x PAUSE, not PFC
        PfcFrame x;
        Create<Packet>(other.data(), uint32_t(other.size()))->PeekHeader(x);
        NS_TEST_EXPECT_MSG_EQ(x.IsValid(), false, "another MAC Control opcode is not read as PFC");
        other[0] = 0x00;
        other[1] = 0x21;
        NS_TEST_EXPECT_MSG_EQ(pfc::IsPauseFrame(Create<Packet>(other.data(), uint32_t(other.size()))), false,
                              "a PPP IPv4 frame is not a PAUSE");

        const std::string file = iwarptest::TempPcapName("pfc-frame");
        {
            PcapFile pcap;
            pcap.Open(file, std::ios::out);
            pcap.Init(9 /* LINKTYPE_PPP, as the point-to-point pcaps */);
            pcap.Write(0, 0, o.data(), uint32_t(o.size()));
        }
        int status = 0;
        std::string out;
        const auto rows = iwarptest::TsharkFields(
            file, {"frame.protocols", "macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3", "_ws.malformed"},
            &status, &out);
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 1u, out);
        NS_TEST_EXPECT_MSG_EQ(rows[0][0], "ppp:bcp_bpdu:eth:ethertype:macc", out);
        NS_TEST_EXPECT_MSG_EQ(rows[0][1], "0x0101", out);
        NS_TEST_EXPECT_MSG_EQ(rows[0][2], "0x0028", out);
        NS_TEST_EXPECT_MSG_EQ(rows[0][3], "65535", out);
        NS_TEST_EXPECT_MSG_EQ(rows[0][4], "", "nothing malformed: " << out);
        std::filesystem::remove(file);
    }
};

/** s0, s1 -> sw -> r, 10 Gb/s and 1 us each; every port a PFC port (the switch's generating unless `pfcOff`). */
struct Incast
{
    NodeContainer nodes; // s0 s1 sw r
    std::vector<Ptr<PfcPort>> senders;     ///< s0's and s1's ports
    std::vector<Ptr<PfcPort>> switchIn;    ///< the switch's ports toward s0 and s1
    Ptr<PfcQueueDisc> switchOut;           ///< the switch's port toward r
    std::vector<Ptr<PointToPointNetDevice>> switchDevs;
    Ptr<PacketSink> sink;
    uint64_t sent{0};
    std::vector<std::pair<uint16_t, uint64_t>> pausesOf0; ///< (quanta, ingress octets) sent by switchIn[0]
    std::vector<uint64_t> thresholdsOf0; ///< with a shared buffer: the switch's threshold at each of those
    static constexpr uint32_t kXoff = 30000;
    static constexpr uint32_t kXon = 15000;

    /** The switch's shared buffer (PfcNode), instead of the ports' fixed Xoff and Xon. */
    struct Shared
    {
        uint64_t buffer;
        double alpha;
        uint32_t resumeOffset;
    };

    explicit Incast(bool pfcOff,
                    const std::string& pcap = "",
                    uint16_t quanta = pfc::kMaxQuanta,
                    std::optional<Shared> shared = std::nullopt)
    {
        nodes.Create(4);
        InternetStackHelper().Install(nodes);
        if (shared)
        {
            Ptr<PfcNode> sw = PfcNode::Get(nodes.Get(2));
            sw->SetAttribute("SharedBuffer", UintegerValue(shared->buffer));
            sw->SetAttribute("Alpha", DoubleValue(shared->alpha));
            sw->SetAttribute("ResumeOffset", UintegerValue(shared->resumeOffset));
        }
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        link.SetChannelAttribute("Delay", StringValue("1us"));
        Ipv4AddressHelper addr("10.1.0.0", "255.255.255.0");
        Ipv4Address rAddr;
        for (uint32_t h : {0u, 1u, 3u})
        {
            NetDeviceContainer d = link.Install(nodes.Get(h), nodes.Get(2));
            Ipv4InterfaceContainer ifs = addr.Assign(d);
            addr.NewNetwork();
            rAddr = ifs.GetAddress(0);
            const bool toReceiver = h == 3;
            Ptr<PfcPort> host = Install(DynamicCast<PointToPointNetDevice>(d.Get(0)), false, "10000p");
            Ptr<PfcPort> sw =
                Install(DynamicCast<PointToPointNetDevice>(d.Get(1)), !pfcOff, "100000B", quanta, !shared);
            switchDevs.push_back(DynamicCast<PointToPointNetDevice>(d.Get(1)));
            if (toReceiver)
            {
                switchOut = sw->GetQueueDisc();
            }
            else
            {
                senders.push_back(host);
                switchIn.push_back(sw);
            }
        }
        if (!pcap.empty())
        {
            link.EnablePcap(pcap, switchDevs[0], false, true);
        }
        switchIn[0]->TraceConnectWithoutContext(
            "PauseSent", MakeBoundCallback(+[](Incast* self, uint8_t, uint16_t quanta, uint64_t ingress) {
                self->pausesOf0.emplace_back(quanta, ingress);
                self->thresholdsOf0.push_back(PfcNode::Get(self->nodes.Get(2))->GetThreshold());
            }, this));
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink = DynamicCast<PacketSink>(sinkHelper.Install(nodes.Get(3)).Get(0));
        InetSocketAddress to(rAddr, 9);
        to.SetTos(kDscp26Tos);
        OnOffHelper onoff("ns3::UdpSocketFactory", to);
        onoff.SetConstantRate(DataRate("10Gb/s"), kPacket);
        for (uint32_t s : {0u, 1u})
        {
            ApplicationContainer a = onoff.Install(nodes.Get(s));
            a.Start(MicroSeconds(10));
            a.Stop(MicroSeconds(1010));
            nodes.Get(s)->GetDevice(1)->TraceConnectWithoutContext(
                "MacTx", MakeBoundCallback(+[](uint64_t* n, Ptr<const Packet> p) { *n += p->GetSize() > 2; }, &sent));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
    }

    ~Incast() { Simulator::Destroy(); }

    static Ptr<PfcPort> Install(Ptr<PointToPointNetDevice> dev, bool generate, const std::string& limit,
                                uint16_t quanta = pfc::kMaxQuanta, bool fixedThresholds = true)
    {
        PortQueueSpec spec;
        spec.queue = QueueSize(limit);
        spec.deviceQueue = QueueSize("1p");
        InstallPfcPortQueues(dev, spec, DataRate("10Gb/s"), MicroSeconds(1));
        Ptr<PfcPort> port = CreateObject<PfcPort>();
        port->SetAttribute("Generate", BooleanValue(generate));
        port->SetAttribute("Xoff", UintegerValue(fixedThresholds ? kXoff : 0));
        port->SetAttribute("Xon", UintegerValue(fixedThresholds ? kXon : 0));
        port->SetAttribute("Headroom", UintegerValue(kHeadroom));
        port->SetAttribute("PauseQuanta", UintegerValue(quanta));
        port->Attach(dev);
        PfcNode::Get(dev->GetNode())->AddPort(port);
        return port;
    }
};

class PauseTimingTestCase : public TestCase
{
  public:
    PauseTimingTestCase()
        : TestCase("a PAUSE stops its priority for quanta x 512 bit times, XON ends it at once, others go on")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer n;
        n.Create(2);
        InternetStackHelper().Install(n);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        NetDeviceContainer d = link.Install(n);
        Ptr<PfcPort> port = Incast::Install(DynamicCast<PointToPointNetDevice>(d.Get(0)), false, "100p");
        Ptr<PfcQueueDisc> disc = port->GetQueueDisc();
        std::vector<std::pair<Time, bool>> changes;
        disc->TraceConnectWithoutContext(
            "Paused", MakeBoundCallback(+[](std::vector<std::pair<Time, bool>>* c, uint8_t p, bool paused) {
                if (p == kLossless)
                {
                    c->emplace_back(Simulator::Now(), paused);
                }
            }, &changes));
        PfcFrame pause;
        pause.SetPause(kLossless, 100);
        PfcFrame xon;
        xon.SetPause(kLossless, 0);
        Simulator::Schedule(MicroSeconds(1), &PfcPort::OnPauseFrame, port, pause);
        Simulator::Schedule(MicroSeconds(20), &PfcPort::OnPauseFrame, port, pause);
        Simulator::Schedule(MicroSeconds(22), &PfcPort::OnPauseFrame, port, xon);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(changes.size(), 4u, "paused, resumed, paused, resumed");
        NS_TEST_EXPECT_MSG_EQ(changes[1].first - changes[0].first, NanoSeconds(5120), "100 quanta at 10 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(changes[3].first, MicroSeconds(22), "XON ends the second pause at once");
        NS_TEST_EXPECT_MSG_EQ(disc->GetPausedTime(kLossless), NanoSeconds(5120) + MicroSeconds(2), "paused time");
        NS_TEST_EXPECT_MSG_EQ(disc->GetPausedTime(0), Time(0), "priority 0 never paused");
        NS_TEST_EXPECT_MSG_EQ(port->GetPausesReceived(), 3u, "three PAUSE frames");
        Simulator::Destroy();
    }
};

class IncastTestCase : public TestCase
{
  public:
    IncastTestCase()
        : TestCase("incast on a lossless priority: XOFF at Xoff, XON at Xon, no drop; without PFC the queue overflows")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = iwarptest::TempPcapName("pfc-incast");
        uint64_t xoffOn0 = 0;
        uint64_t xonOn0 = 0;
        {
            std::vector<std::tuple<uint16_t, uint64_t>> sentPauses;
            Incast on(false, file);
            const QueueDisc::Stats stats = on.switchOut->GetStats();
            std::clog << "  PFC: " << on.sent << " sent, " << on.sink->GetTotalRx() / kPacket << " received, "
                      << stats.nTotalDroppedPackets << " dropped at the switch; XOFF " << on.switchIn[0]->GetXoffSent()
                      << " + " << on.switchIn[1]->GetXoffSent() << ", XON " << on.switchIn[0]->GetXonSent() << " + "
                      << on.switchIn[1]->GetXonSent() << "; peak ingress " << on.switchIn[0]->GetPeakIngress(kLossless)
                      << " B; senders paused " << on.senders[0]->GetQueueDisc()->GetPausedTime(kLossless).As(Time::US)
                      << ", " << on.senders[1]->GetQueueDisc()->GetPausedTime(kLossless).As(Time::US) << "\n";
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets, 0u, "the switch drops nothing");
            NS_TEST_EXPECT_MSG_EQ(on.sink->GetTotalRx(), on.sent * kPacket, "every packet sent arrives");
            NS_TEST_EXPECT_MSG_GT(on.sent, 2000u, "both senders sent for 1 ms");
            const uint64_t headroom = kHeadroom;
            for (size_t i = 0; i < 2; ++i)
            {
                Ptr<PfcPort> in = on.switchIn[i];
                NS_TEST_EXPECT_MSG_GT(in->GetXoffSent(), 0u, "port " << i << " paused its sender");
                NS_TEST_EXPECT_MSG_GT(in->GetXonSent(), 0u, "and let it go");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(in->GetPeakIngress(kLossless), Incast::kXoff + headroom, "headroom held");
                NS_TEST_EXPECT_MSG_GT(in->GetPeakIngress(kLossless), uint64_t(Incast::kXoff), "Xoff was reached");
                NS_TEST_EXPECT_MSG_EQ(in->GetIngressOctets(kLossless), 0u, "all gone by the end");
                NS_TEST_EXPECT_MSG_EQ(on.senders[i]->GetPausesReceived(), in->GetXoffSent() + in->GetXonSent(),
                                      "each PAUSE arrived");
                NS_TEST_EXPECT_MSG_GT(on.senders[i]->GetQueueDisc()->GetPausedTime(kLossless), MicroSeconds(100),
                                      "the sender's port spent time paused");
            }
            // Each XOFF as the ingress octets cross Xoff (the packet that crossed it, at most, above), each XON
            // as they fall to Xon (the packet that left, at most, below); they alternate.
            NS_TEST_ASSERT_MSG_EQ(on.pausesOf0.size(), on.switchIn[0]->GetXoffSent() + on.switchIn[0]->GetXonSent(),
                                  "the trace saw each PAUSE");
            for (size_t k = 0; k < on.pausesOf0.size(); ++k)
            {
                const auto [quanta, ingress] = on.pausesOf0[k];
                NS_TEST_EXPECT_MSG_EQ(quanta, (k % 2 == 0 ? pfc::kMaxQuanta : 0), "XOFF and XON alternate");
                if (quanta > 0)
                {
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(ingress, uint64_t(Incast::kXoff), "XOFF " << k << " at Xoff");
                    NS_TEST_EXPECT_MSG_LT(ingress, uint64_t(Incast::kXoff + kWire), "XOFF " << k << " at Xoff");
                }
                else
                {
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(ingress, uint64_t(Incast::kXon), "XON " << k << " at Xon");
                    NS_TEST_EXPECT_MSG_GT(ingress + kWire, uint64_t(Incast::kXon), "XON " << k << " at Xon");
                }
            }
            xoffOn0 = on.switchIn[0]->GetXoffSent();
            xonOn0 = on.switchIn[0]->GetXonSent();
        }
        {
            Incast off(true);
            const QueueDisc::Stats stats = off.switchOut->GetStats();
            std::clog << "  no PFC: " << off.sent << " sent, " << off.sink->GetTotalRx() / kPacket << " received, "
                      << stats.nTotalDroppedPackets << " dropped at the switch\n";
            NS_TEST_EXPECT_MSG_GT(stats.nTotalDroppedPackets, 100u, "without PFC the switch's queue overflows");
            NS_TEST_EXPECT_MSG_EQ(off.switchIn[0]->GetXoffSent(), 0u, "and no PAUSE is sent");
        }
        int status = 0;
        std::string out;
        const auto rows = iwarptest::TsharkFields(file, {"macc.opcode", "macc.cbfc.pause_time.c3", "_ws.malformed"},
                                                  &status, &out);
        uint64_t xoff = 0;
        uint64_t xon = 0;
        for (const auto& r : rows)
        {
            if (r[0] == "0x0101")
            {
                NS_TEST_EXPECT_MSG_EQ(r[2], "", "nothing malformed");
                (r[1] == "0" ? xon : xoff) += 1;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(xoff, xoffOn0, "each XOFF the port sent is in its capture: " << out.substr(0, 300));
        NS_TEST_EXPECT_MSG_EQ(xon, xonOn0, "and each XON");
        std::filesystem::remove(file);
    }
};

class RefreshTestCase : public TestCase
{
  public:
    RefreshTestCase()
        : TestCase("a pause longer than an XOFF's pause time is kept up by repeating XOFF every half of it")
    {
    }

  private:
    void DoRun() override
    {
        // 64 quanta at 10 Gb/s pause 3.28 us: each pause here lasts longer, so the port repeats its XOFF.
        const Incast on(false, "", 64);
        Ptr<PfcPort> in = on.switchIn[0];
        std::clog << "  " << in->GetXoffSent() << " XOFF (repeats included), " << in->GetXonSent() << " XON; "
                  << on.switchOut->GetStats().nTotalDroppedPackets << " dropped\n";
        NS_TEST_EXPECT_MSG_GT(in->GetXoffSent(), 2 * in->GetXonSent(), "XOFFs repeated within each pause");
        NS_TEST_EXPECT_MSG_EQ(on.switchOut->GetStats().nTotalDroppedPackets, 0u, "the repeats held the pause");
        NS_TEST_EXPECT_MSG_EQ(on.sink->GetTotalRx(), on.sent * kPacket, "every packet sent arrives");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(in->GetPeakIngress(kLossless), uint64_t(Incast::kXoff + kHeadroom),
                                    "within the headroom");
        // Runs: the first XOFF of each at Xoff, repeats while above Xon, one XON to end it.
        bool paused = false;
        for (size_t k = 0; k < on.pausesOf0.size(); ++k)
        {
            const auto [quanta, ingress] = on.pausesOf0[k];
            if (quanta == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(paused, true, "an XON ends a pause (" << k << ")");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(ingress, uint64_t(Incast::kXon), "XON at Xon");
                paused = false;
            }
            else if (!paused)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(ingress, uint64_t(Incast::kXoff), "a pause starts at Xoff (" << k << ")");
                paused = true;
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(ingress, uint64_t(Incast::kXon), "a repeat while above Xon (" << k << ")");
            }
        }
    }
};

class SharedBufferTestCase : public TestCase
{
  public:
    SharedBufferTestCase()
        : TestCase("a shared buffer's dynamic threshold: XOFF at alpha x the free buffer, lower as the switch fills")
    {
    }

  private:
    void DoRun() override
    {
        // 200 KB shared by the switch's three ports (each keeps kHeadroom back), alpha 1/4, XON 3 KB below.
        const Incast::Shared shared{200000, 0.25, 3000};
        const Incast on(false, "", pfc::kMaxQuanta, shared);
        Ptr<PfcNode> sw = PfcNode::Get(on.nodes.Get(2));
        const uint64_t most = sw->GetLoneXoff();
        const double free = double(200000 - 3 * kHeadroom); // B': the buffer less its ports' headroom
        NS_TEST_ASSERT_MSG_EQ(sw->GetReservedHeadroom(), 3 * kHeadroom, "each switch port's headroom kept back");
        NS_TEST_ASSERT_MSG_EQ(most, uint64_t(0.25 * free / 1.25), "alone: x = alpha (B' - x)");
        NS_TEST_EXPECT_MSG_EQ(on.switchIn[0]->GetXoff(), most, "a port reports its most");
        // Two ports filling one buffer each settle where x = alpha (B' - 2x).
        const uint64_t two = uint64_t(0.25 * free / 1.5);
        std::clog << "  " << on.switchIn[0]->GetXoffSent() << " + " << on.switchIn[1]->GetXoffSent() << " XOFF; "
                  << "threshold at most " << most << " B; peak ingress " << on.switchIn[0]->GetPeakIngress(kLossless)
                  << " B; peak held " << sw->GetPeakHeld() << " B of 200000\n";
        NS_TEST_EXPECT_MSG_EQ(on.switchOut->GetStats().nTotalDroppedPackets, 0u, "lossless");
        NS_TEST_EXPECT_MSG_EQ(on.sink->GetTotalRx(), on.sent * kPacket, "every packet sent arrives");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(sw->GetPeakHeld(), 2 * (most + kWire + kHeadroom),
                                    "two ports, each at most its XOFF, the packet that crossed it and its headroom");
        NS_TEST_EXPECT_MSG_EQ(sw->GetHeld(), 0u, "all gone by the end");
        NS_TEST_ASSERT_MSG_GT(on.switchIn[0]->GetXoffSent(), 0u, "the port paused its sender");
        NS_TEST_ASSERT_MSG_EQ(on.thresholdsOf0.size(), on.pausesOf0.size(), "a threshold per PAUSE");
        bool paused = false;
        uint64_t lowest = most;
        for (size_t k = 0; k < on.pausesOf0.size(); ++k)
        {
            const auto [quanta, ingress] = on.pausesOf0[k];
            const uint64_t t = on.thresholdsOf0[k];
            if (quanta == 0)
            {
                NS_TEST_EXPECT_MSG_EQ((ingress == 0 || ingress + 3000 <= t), true, "XON " << k << " at " << ingress);
                paused = false;
            }
            else if (!paused)
            {
                // The packet that crossed it: before it came, the port held a packet less and the node too.
                NS_TEST_EXPECT_MSG_GT_OR_EQ(ingress, t, "XOFF " << k << " at the threshold");
                NS_TEST_EXPECT_MSG_LT(ingress, t + uint64_t(1.25 * kWire) + 1, "XOFF " << k << " at the threshold");
                lowest = std::min(lowest, t);
                paused = true;
            }
        }
        NS_TEST_EXPECT_MSG_LT(lowest, most * 9 / 10, "the threshold fell as the other port filled the buffer");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(lowest, two + kWire, "to where two ports settle");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(on.switchIn[0]->GetPeakIngress(kLossless), most + kWire + kHeadroom,
                                    "headroom held");
    }
};

class PfcTestSuite : public TestSuite
{
  public:
    PfcTestSuite()
        : TestSuite("iwarp-pfc", UNIT)
    {
        AddTestCase(new FrameTestCase, TestCase::QUICK);
        AddTestCase(new PauseTimingTestCase, TestCase::QUICK);
        AddTestCase(new IncastTestCase, TestCase::QUICK);
        AddTestCase(new RefreshTestCase, TestCase::QUICK);
        AddTestCase(new SharedBufferTestCase, TestCase::QUICK);
    }
};

PfcTestSuite g_pfcTestSuite;

} // namespace
} // namespace ns3
