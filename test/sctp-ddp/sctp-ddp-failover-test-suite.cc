/*
 * RDMA over a multihomed SCTP association across a failover (issue 29, RFC 5043 §7.2, RFC 9260 §6.4): two
 * RNICs joined by two links (RnicPair, dualHomed), the primary link cut both ways while an RDMA Write, a
 * Send and an RDMA Read are under way, for good or for a while. Every octet arrives byte-exact, each message
 * completes once and in posting order, and the data moves to the second link; single-homed, the same cut
 * (for good) leaves the Write unfinished: the association has no other way.
 */
#include "rnic/rnic-pair.h"
#include "rnic/verbs-test-util.h"

#include "net/link-gate.h"
#include "sctp/sctp-l4-protocol.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/test.h"

#include <algorithm>

using namespace ns3;

namespace
{

using namespace MemAccess;
using iwarptest::Filled;
using iwarptest::SameOctets;
using iwarptest::Wr;

/** Gates on both ends of link `link`: down from `from`, up again at `to` (never if zero). */
void
CutLink(const RnicPair& p, size_t link, Time from, Time to)
{
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<LinkGate> gate = CreateObject<LinkGate>();
        p.links.at(link).Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(gate));
        Simulator::Schedule(from, &LinkGate::SetDown, gate, true);
        if (!to.IsZero())
        {
            Simulator::Schedule(to, &LinkGate::SetDown, gate, false);
        }
    }
}

/** SCTP packets a node sent, by destination address. */
void
CountTx(std::map<Ipv4Address, uint64_t>* out, Ptr<const Packet>, Ipv4Address, Ipv4Address dst)
{
    ++(*out)[dst];
}

class RdmaAcrossFailoverTestCase : public TestCase
{
  public:
    RdmaAcrossFailoverTestCase(bool multihomed, Time upAt)
        : TestCase(Name(multihomed, upAt)),
          m_multihomed(multihomed),
          m_upAt(upAt)
    {
    }

  private:
    static std::string Name(bool multihomed, Time upAt)
    {
        if (!multihomed)
        {
            return "single-homed: the primary link cut for good leaves the Write unfinished";
        }
        return std::string("multihomed: a 4 MB Write, a 60 KB Send and a 2 MB Read byte-exact, once and in order, "
                           "across the primary link cut ") +
               (upAt.IsZero() ? "for good" : "for 300 ms");
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::Multihoming", BooleanValue(m_multihomed));
        Config::SetDefault("ns3::SctpSocket::RtoInitial", TimeValue(MilliSeconds(20)));
        Config::SetDefault("ns3::SctpSocket::RtoMin", TimeValue(MilliSeconds(20)));
        Config::SetDefault("ns3::SctpSocket::RtoMax", TimeValue(MilliSeconds(200)));
        Config::SetDefault("ns3::SctpSocket::PathMaxRetrans", UintegerValue(2));
        Config::SetDefault("ns3::SctpSocket::HbInterval", TimeValue(MilliSeconds(50)));
        Config::SetDefault("ns3::SctpSocket::SackDelay", TimeValue(MilliSeconds(1)));
        {
            RnicPair p("100Mbps", "1ms", true, true);
            Check(p);
        }
        Config::Reset();
    }

    void Check(RnicPair& p)
    {
        p.Connect({}, {}, false);
        p.Run(MilliSeconds(50)); // a few 2 ms round trips
        NS_TEST_ASSERT_MSG_EQ(p.cqp->GetState(), QueuePair::CONNECTED, "connected");
        if (p.cqp->GetState() != QueuePair::CONNECTED)
        {
            return;
        }
        constexpr uint32_t kWrite = 4000000;
        constexpr uint32_t kSend = 60000;
        constexpr uint32_t kRead = 2000000;
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, kWrite, kLocalRead | kLocalWrite, 1);
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, kWrite, kLocalWrite | kRemoteWrite);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, kSend, kLocalWrite);
        Ptr<MemoryRegion> far = Filled(p.server, p.spd, kRead, kLocalRead | kRemoteRead, 77);
        Ptr<MemoryRegion> sink = p.client->RegisterMemory(p.cpd, kRead, kLocalWrite);
        std::map<Ipv4Address, uint64_t> clientTx;
        std::map<Ipv4Address, uint64_t> serverTx;
        p.client->GetNode()->GetObject<SctpL4Protocol>()->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(&CountTx, &clientTx));
        p.server->GetNode()->GetObject<SctpL4Protocol>()->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(&CountTx, &serverTx));
        NS_TEST_ASSERT_MSG_EQ(p.sqp->PostRecv(9, LocalBuffer{rcv->GetStag(), 0, kSend}), true, "post recv");
        NS_TEST_ASSERT_MSG_EQ(p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, kWrite}, dst->GetStag())),
                              true,
                              "post Write");
        NS_TEST_ASSERT_MSG_EQ(p.cqp->PostSend(Wr(2, WrOpcode::Send, {src->GetStag(), 100, kSend})), true, "Send");
        NS_TEST_ASSERT_MSG_EQ(p.cqp->PostSend(Wr(3, WrOpcode::Read, {sink->GetStag(), 0, kRead}, far->GetStag())),
                              true,
                              "post Read");
        // 4 MB at 100 Mb/s take 320 ms: the cut comes a third of the way through the Write.
        const Time cut = Simulator::Now() + MilliSeconds(100);
        CutLink(p, 0, cut, m_upAt.IsZero() ? Time(0) : cut + m_upAt);
        p.Run(Seconds(10));
        if (!m_multihomed)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone.empty() || p.clientDone[0].status != WcStatus::Success,
                                  true,
                                  "no way round the cut");
            NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, kWrite), false, "the Write did not all arrive");
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(p.clientDone.size(), 3u, "three completions");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone.size(), 1u, "one receive, once");
        if (p.clientDone.size() != 3 || p.serverDone.size() != 1)
        {
            return; // (the test runner goes on after a failed assertion)
        }
        for (uint64_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].id, i + 1, "in posting order");
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, WcStatus::Success, "request " << i + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].byteLength, kSend, "Send length");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, kWrite), true, "Write byte-exact");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 100, rcv, 0, kSend), true, "Send byte-exact");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(far, 0, sink, 0, kRead), true, "Read byte-exact");
        const Ipv4Address serverAlt("10.2.2.2");
        const Ipv4Address clientAlt("10.2.2.1");
        NS_TEST_EXPECT_MSG_GT(clientTx[serverAlt], 1000u, "the Write's data took the second link");
        NS_TEST_EXPECT_MSG_GT(serverTx[clientAlt], 500u, "so did the Read Response");
    }

    bool m_multihomed;
    Time m_upAt;
};

class SctpDdpFailoverTestSuite : public TestSuite
{
  public:
    SctpDdpFailoverTestSuite()
        : TestSuite("iwarp-sctp-ddp-failover", UNIT)
    {
        AddTestCase(new RdmaAcrossFailoverTestCase(true, Time(0)), TestCase::QUICK);
        AddTestCase(new RdmaAcrossFailoverTestCase(true, MilliSeconds(300)), TestCase::QUICK);
        AddTestCase(new RdmaAcrossFailoverTestCase(false, Time(0)), TestCase::QUICK);
    }
};

SctpDdpFailoverTestSuite g_sctpDdpFailoverTestSuite;

} // namespace
