/*
 * SCTP data transfer between two ns-3 nodes: numbered messages with random octets (fragmented up to 8 KB,
 * ordered on several streams and unordered) both ways at once, checked octet for octet, with no loss and
 * with 1 % and 5 % random packet loss (RateErrorModel on both receiving devices); fast retransmit after one
 * dropped packet; the RTO doubling on each T3-rtx expiry and the ABORT at Association.Max.Retrans.
 */
#include "sctp/sctp-two-node-fixture.h"

#include "ns3/test.h"

#include <algorithm>
#include <iostream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** Stops the simulation as soon as both directions are complete. */
void
StopWhenDone(SctpTwoNodeFixture* f, Time* doneAt)
{
    if (f->AllDelivered(true) && f->AllDelivered(false))
    {
        *doneAt = Simulator::Now();
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(MilliSeconds(10), &StopWhenDone, f, doneAt);
}

class SctpBothWaysTestCase : public TestCase
{
  public:
    SctpBothWaysTestCase(double loss, uint32_t seed)
        : TestCase("messages both ways, octet-exact, with " + std::to_string(int(loss * 100)) + " % loss"),
          m_loss(loss),
          m_seed(seed)
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture::Options o;
        o.lossRate = m_loss;
        o.lossStream = m_seed;
        SctpTwoNodeFixture f(o);
        f.Start();
        const uint32_t n = 200;
        f.QueueMessages(true, n, 8000, 4, m_seed);
        f.QueueMessages(false, n, 8000, 4, m_seed + 100);
        Time doneAt;
        Simulator::Schedule(MilliSeconds(10), &StopWhenDone, &f, &doneAt);
        Simulator::Stop(Seconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "client to server");
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(false), "", "server to client");
        uint64_t bytes = 0;
        for (bool c : {true, false})
        {
            for (const auto& m : f.Sent(c))
            {
                bytes += m.data.size();
            }
        }
        NS_TEST_EXPECT_MSG_GT(doneAt, Seconds(0), "finished");
        if (m_loss > 0)
        {
            NS_TEST_EXPECT_MSG_GT(f.clientLog.fastRtx + f.clientLog.rtx.size() + f.serverLog.fastRtx +
                                      f.serverLog.rtx.size(),
                                  0u,
                                  "losses were repaired by retransmissions");
            NS_TEST_EXPECT_MSG_GT(f.clientLog.sacksWithGaps + f.serverLog.sacksWithGaps, 0u, "gap ack blocks");
        }
        // Both ends send data and SACKs at once, so SACKs ride along with DATA.
        NS_TEST_EXPECT_MSG_GT(f.clientLog.bundledPackets + f.serverLog.bundledPackets, 0u, "bundling");
        std::cout << "SCTP both ways, loss " << m_loss * 100 << " %: " << bytes << " octets in "
                  << doneAt.GetSeconds() << " s simulated, goodput "
                  << (doneAt.IsPositive() ? bytes * 8 / doneAt.GetSeconds() / 1e6 : 0) << " Mb/s; fast rtx "
                  << f.clientLog.fastRtx << "/" << f.serverLog.fastRtx << ", T3 rtx " << f.clientLog.rtx.size()
                  << "/" << f.serverLog.rtx.size() << ", cwnd " << f.client->GetCwnd() << "/"
                  << f.server->GetCwnd() << ", SRTT " << f.client->GetSrtt().As(Time::MS) << "; SACKs with gaps "
                  << f.clientLog.sacksWithGaps + f.serverLog.sacksWithGaps << ", with duplicates "
                  << f.clientLog.sacksWithDups + f.serverLog.sacksWithDups << ", bundled packets "
                  << f.clientLog.bundledPackets + f.serverLog.bundledPackets << std::endl;
    }

    double m_loss;
    uint32_t m_seed;
};

class SctpFastRetransmitTestCase : public TestCase
{
  public:
    SctpFastRetransmitTestCase()
        : TestCase("one dropped DATA packet is fast-retransmitted after three miss indications, no T3")
    {
    }

  private:
    std::vector<uint32_t> m_cwnd;

    void Cwnd(uint32_t, uint32_t now)
    {
        m_cwnd.push_back(now);
    }

    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        Ptr<SctpDropListErrorModel> em = f.DropOn(1);
        em->drop = {8}; // INIT, COOKIE ECHO, then DATA: the sixth DATA packet
        f.Start([this](Ptr<SctpSocket> c) {
            c->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&SctpFastRetransmitTestCase::Cwnd, this));
        });
        f.QueueMessages(true, 60, 1000, 1, 5);
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(em->dropped, 1u, "one packet dropped");
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "everything delivered");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(f.clientLog.fastRtx, 1u, "fast retransmit");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.rtx.size(), 0u, "no T3-rtx");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(f.serverLog.CountTx(SctpChunkType::Sack), 3u, "SACKs with gaps");
        bool reduced = false;
        for (size_t k = 1; k < m_cwnd.size(); ++k)
        {
            reduced = reduced || m_cwnd[k] < m_cwnd[k - 1];
        }
        NS_TEST_EXPECT_MSG_EQ(reduced, true, "cwnd reduced on fast retransmit");
    }
};

class SctpFastRetransmitTwoPacketsTestCase : public TestCase
{
  public:
    SctpFastRetransmitTwoPacketsTestCase()
        : TestCase("two DATA packets lost back to back: both chunks are fast-retransmitted and traced as fast")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        Ptr<SctpDropListErrorModel> em = f.DropOn(1);
        em->drop = {8, 9}; // INIT, COOKIE ECHO, then DATA: the sixth and seventh DATA packets
        f.Start();
        f.QueueMessages(true, 60, 8000, 1, 5); // mostly full-sized fragments: one chunk per packet
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(em->dropped, 2u, "two packets dropped");
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "everything delivered");
        // Both chunks reach three miss indications with the same SACK; they do not fit one packet, so the
        // second goes out in a packet of its own (§7.2.4: the rest as cwnd allows). It is still a fast
        // retransmission, and the Retransmission trace must say so.
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.fastRtx, 2u, "two fast retransmissions");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.rtx.size(), 0u, "no T3-rtx retransmission");
    }
};

class SctpLostFastRetransmitTestCase : public TestCase
{
  public:
    SctpLostFastRetransmitTestCase()
        : TestCase("a lost fast retransmission of the earliest TSN is resent by T3 one RTO later, while later "
                   "losses go on triggering fast retransmits")
    {
    }

  private:
    void DoRun() override
    {
        // Buffers large enough that neither end's window stops the sender while the hole is open, so new
        // DATA, and with it new losses and fast retransmits, keeps flowing behind the hole.
        Config::SetDefault("ns3::SctpSocket::SndBufSize", UintegerValue(8u << 20));
        Config::SetDefault("ns3::SctpSocket::RcvBufSize", UintegerValue(8u << 20));
        SctpTwoNodeFixture f({});
        Ptr<SctpTsnDropErrorModel> em = CreateObject<SctpTsnDropErrorModel>();
        em->targetIndex = 200;
        em->targetDrops = 2; // the first transmission and the fast retransmission
        em->everyNth = 30;   // then one new packet in 30, about every 40 ms at 10 Mb/s
        f.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        std::vector<std::pair<Time, uint32_t>> rtx; // when the client resent which TSN
        f.Start([&rtx](Ptr<SctpSocket> c) {
            c->TraceConnectWithoutContext(
                "Retransmission",
                MakeBoundCallback(
                    +[](std::vector<std::pair<Time, uint32_t>>* v, uint32_t tsn, bool) {
                        v->emplace_back(Simulator::Now(), tsn);
                    },
                    &rtx));
        });
        f.QueueMessages(true, 1500, 4000, 1, 7); // about 3 MB on one ordered stream: some 2.5 s of sending
        Simulator::Stop(Seconds(30));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(em->target.has_value(), true, "a TSN was chosen");
        std::vector<Time> resent;
        for (const auto& [t, tsn] : rtx)
        {
            if (tsn == *em->target)
            {
                resent.push_back(t);
            }
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(em->targetSeen.size(), 3u, "sent, fast-retransmitted, then retransmitted again");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(resent.size(), 2u, "the client resent it twice");
        Time fastRtx = resent[0];
        Time t3Rtx = resent[1];
        // Losses while the fast retransmission was on its way or the T3 timer running (arrival times).
        auto dropsMeanwhile = std::count_if(em->laterDrops.begin(), em->laterDrops.end(), [&](Time t) {
            return t > fastRtx && t < em->targetSeen[2];
        });
        std::cout << "SCTP lost fast retransmission: fast rtx at " << fastRtx.As(Time::MS) << ", T3 rtx at "
                  << t3Rtx.As(Time::MS) << ", " << dropsMeanwhile << " other losses in between" << std::endl;
        // RFC 9260 §6.3.2 R3 and §7.2.4: T3-rtx restarts when the earliest outstanding TSN is acknowledged
        // or resent, not for the fast retransmission of a later one. So the earliest TSN, whose fast
        // retransmission was lost too, goes out again one RTO (RTO.Min, 1 s here) after it.
        NS_TEST_EXPECT_MSG_GT(dropsMeanwhile, 10, "later losses kept fast retransmit busy");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t3Rtx - fastRtx, Seconds(1), "not before the RTO");
        NS_TEST_EXPECT_MSG_LT(t3Rtx - fastRtx, Seconds(1.01), "one RTO after the lost fast retransmission");
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "everything delivered, in order");
        Config::Reset();
    }
};

class SctpRtoBackoffTestCase : public TestCase
{
  public:
    SctpRtoBackoffTestCase()
        : TestCase("T3-rtx doubles RTO on every expiry; Association.Max.Retrans ends in ABORT")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::AssociationMaxRetrans", UintegerValue(4));
        Config::SetDefault("ns3::SctpSocket::PathMaxRetrans", UintegerValue(4));
        Config::SetDefault("ns3::SctpSocket::HeartbeatEnabled", BooleanValue(false));
        SctpTwoNodeFixture f({});
        f.Start();
        f.QueueMessages(true, 5, 500, 1, 3);
        Ptr<SctpDropListErrorModel> em;
        Simulator::Schedule(Seconds(1), [&]() {
            em = f.DropOn(1);
            em->dropFrom = 1; // the server hears nothing more
            f.QueueMessages(true, 1, 500, 1, 4);
        });
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        const auto& r = f.clientLog.rtx;
        NS_TEST_ASSERT_MSG_EQ(r.size(), 4u, "four retransmissions");
        // First after RTO (RTO.Min = 1 s with a 10 ms RTT), then 2, 4, 8 s apart.
        NS_TEST_EXPECT_MSG_EQ_TOL((r[0].first - Seconds(1)).GetSeconds(), 1.0, 0.01, "first T3 after 1 s");
        for (size_t k = 1; k < r.size(); ++k)
        {
            double gap = (r[k].first - r[k - 1].first).GetSeconds();
            NS_TEST_EXPECT_MSG_EQ_TOL(gap, double(1u << k), 0.01, "RTO doubled");
        }
        bool saw16 = false;
        for (Time t : f.clientLog.rtoValues)
        {
            saw16 = saw16 || t == Seconds(16);
        }
        NS_TEST_EXPECT_MSG_EQ(saw16, true, "RTO trace reached 16 s");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.errorClose, 1u, "association aborted after the fifth expiry");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "CLOSED");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountTx(SctpChunkType::Abort), 1u, "ABORT sent");
        Config::Reset();
    }
};

class SctpFlowControlTestCase : public TestCase
{
  public:
    SctpFlowControlTestCase()
        : TestCase("a_rwnd: a receiver that does not read stops the sender; reading reopens the window")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::RcvBufSize", UintegerValue(16000));
        SctpTwoNodeFixture f({});
        f.serverReads = false;
        f.Start();
        f.QueueMessages(true, 40, 2000, 2, 8);
        size_t arwndSeenAt2s = 0;
        Simulator::Schedule(Seconds(2), [&]() {
            arwndSeenAt2s = f.serverLog.sackArwnd.size();
            NS_TEST_EXPECT_MSG_EQ(f.serverLog.received.size(), 0u, "nothing read yet");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(f.server->GetRxAvailable(), 16000u + 2004, "buffer respected");
            NS_TEST_EXPECT_MSG_EQ(f.AllDelivered(true), false, "sender held back");
            f.serverReads = true;
            f.DrainServer();
        });
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(arwndSeenAt2s, 0u, "SACKs before 2 s");
        uint32_t minArwnd = *std::min_element(f.serverLog.sackArwnd.begin(),
                                              f.serverLog.sackArwnd.begin() + arwndSeenAt2s);
        NS_TEST_EXPECT_MSG_LT(minArwnd, 2004u, "the window closed");
        std::cout << "SCTP flow control: smallest a_rwnd " << minArwnd << ", most in flight "
                  << f.clientLog.maxFlight << ", zero-window T3 probes " << f.clientLog.rtx.size()
                  << ", all delivered by " << f.serverLog.received.size() << " messages" << std::endl;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.clientLog.maxFlight, 16000u + 2 * 1468, "flight bounded by the window");
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "everything delivered once the window reopened");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Established), "probing did not abort");
        Config::Reset();
    }
};

class SctpTransferTestSuite : public TestSuite
{
  public:
    SctpTransferTestSuite()
        : TestSuite("iwarp-sctp-transfer", UNIT)
    {
        AddTestCase(new SctpBothWaysTestCase(0.0, 1), TestCase::QUICK);
        AddTestCase(new SctpBothWaysTestCase(0.01, 2), TestCase::QUICK);
        AddTestCase(new SctpBothWaysTestCase(0.05, 3), TestCase::QUICK);
        AddTestCase(new SctpFastRetransmitTestCase(), TestCase::QUICK);
        AddTestCase(new SctpFastRetransmitTwoPacketsTestCase(), TestCase::QUICK);
        AddTestCase(new SctpLostFastRetransmitTestCase(), TestCase::QUICK);
        AddTestCase(new SctpRtoBackoffTestCase(), TestCase::QUICK);
        AddTestCase(new SctpFlowControlTestCase(), TestCase::QUICK);
    }
};

SctpTransferTestSuite g_sctpTransferTestSuite;

} // namespace
