/*
 * The SCTP model's parts on their own, with numbers worked out by hand from RFC 9260: the state table
 * (§4), the RTO estimator (§6.3.1), the congestion-control policy (§7.2), the receive queue (TSN
 * wrap, gap ack blocks, duplicates, reassembly, per-stream order) and the send queue (fragmentation, SACK
 * processing, Karn's rule, three miss indications, work per SACK independent of the unsent backlog).
 */
#include "sctp/sctp-congestion-ops.h"
#include "sctp/sctp-rto.h"
#include "sctp/sctp-rx-queue.h"
#include "sctp/sctp-state.h"
#include "sctp/sctp-tx-queue.h"

#include "ns3/test.h"


using namespace ns3;

namespace
{

class SctpStateTableTestCase : public TestCase
{
  public:
    SctpStateTableTestCase()
        : TestCase("state table: set-up, both teardowns, aborts, ignored events")
    {
    }

  private:
    void Expect(SctpState s, SctpEvent e, std::optional<SctpState> want)
    {
        auto got = SctpNextState(s, e);
        NS_TEST_EXPECT_MSG_EQ(got.has_value(), want.has_value(),
                              SctpStateName(s) << " + " << SctpEventName(e) << " applies?");
        if (got && want)
        {
            NS_TEST_EXPECT_MSG_EQ(SctpStateName(*got), SctpStateName(*want),
                                  SctpStateName(s) << " + " << SctpEventName(e));
        }
    }

    void DoRun() override
    {
        using S = SctpState;
        using E = SctpEvent;
        Expect(S::Closed, E::AssociateCmd, S::CookieWait);
        Expect(S::CookieWait, E::RcvInitAck, S::CookieEchoed);
        Expect(S::CookieEchoed, E::RcvCookieAck, S::Established);
        Expect(S::Closed, E::CookieAccepted, S::Established);
        Expect(S::Established, E::ShutdownCmd, S::ShutdownPending);
        Expect(S::ShutdownPending, E::AllDataAcked, S::ShutdownSent);
        Expect(S::ShutdownSent, E::RcvShutdownAck, S::Closed);
        Expect(S::Established, E::RcvShutdown, S::ShutdownReceived);
        Expect(S::ShutdownReceived, E::AllDataAcked, S::ShutdownAckSent);
        Expect(S::ShutdownAckSent, E::RcvShutdownComplete, S::Closed);
        Expect(S::ShutdownSent, E::RcvShutdown, S::ShutdownAckSent);
        Expect(S::CookieEchoed, E::RcvStaleCookie, S::CookieWait);
        Expect(S::Established, E::RcvStaleCookie, std::nullopt);
        for (S s : {S::CookieWait, S::CookieEchoed, S::Established, S::ShutdownPending, S::ShutdownSent,
                    S::ShutdownReceived, S::ShutdownAckSent})
        {
            Expect(s, E::RcvAbort, S::Closed);
            Expect(s, E::AbortCmd, S::Closed);
            Expect(s, E::RetransLimit, S::Closed);
        }
        Expect(S::Closed, E::RcvAbort, std::nullopt);
        Expect(S::Closed, E::RcvShutdown, std::nullopt);
        Expect(S::Established, E::RcvCookieAck, std::nullopt);
        Expect(S::CookieWait, E::RcvCookieAck, std::nullopt);
        Expect(S::ShutdownPending, E::ShutdownCmd, std::nullopt);
    }
};

class SctpRtoTestCase : public TestCase
{
  public:
    SctpRtoTestCase()
        : TestCase("RTO: first sample, smoothing with alpha 0.125 and beta 0.25, clamping, back-off")
    {
    }

  private:
    void DoRun() override
    {
        SctpRtoEstimator d;
        NS_TEST_EXPECT_MSG_EQ(d.GetRto(), Seconds(1), "RTO.Initial");
        d.Measure(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(d.GetRto(), Seconds(1), "SRTT + 4 RTTVAR = 300 ms, clamped to RTO.Min");

        SctpRtoEstimator::Params p;
        p.min = MilliSeconds(10);
        p.max = Seconds(1);
        SctpRtoEstimator r(p);
        r.Measure(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(r.GetSrtt(), MilliSeconds(100), "SRTT = R");
        NS_TEST_EXPECT_MSG_EQ(r.GetRttvar(), MilliSeconds(50), "RTTVAR = R/2");
        NS_TEST_EXPECT_MSG_EQ(r.GetRto(), MilliSeconds(300), "RTO");
        r.Measure(MilliSeconds(200));
        // RTTVAR = 3/4 50 + 1/4 |100 - 200| = 62.5; SRTT = 7/8 100 + 1/8 200 = 112.5; RTO = 362.5 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetRttvar().GetSeconds(), 0.0625, 1e-9, "RTTVAR");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetSrtt().GetSeconds(), 0.1125, 1e-9, "SRTT");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetRto().GetSeconds(), 0.3625, 1e-9, "RTO");
        r.BackOff();
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetRto().GetSeconds(), 0.725, 1e-9, "doubled");
        r.BackOff();
        NS_TEST_EXPECT_MSG_EQ(r.GetRto(), Seconds(1), "capped at RTO.Max");
    }
};

class SctpCongestionTestCase : public TestCase
{
  public:
    SctpCongestionTestCase()
        : TestCase("congestion control: initial cwnd, slow start, congestion avoidance, loss reactions")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SctpRfc9260Congestion> cc = CreateObject<SctpRfc9260Congestion>();
        SctpCcState s;
        s.mtu = 1500;
        cc->Init(s, 100000);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 4380u, "min(4 MTU, max(2 MTU, 4380))");
        NS_TEST_EXPECT_MSG_EQ(s.ssthresh, 100000u, "peer a_rwnd");
        cc->OnAck(s, 3000, true, true);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 5880u, "slow start: + min(acked, MTU)");
        cc->OnAck(s, 3000, true, false);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 5880u, "no growth when cwnd was not used");
        cc->OnAck(s, 3000, false, true);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 5880u, "no growth without a cumulative ack advance");
        s.cwnd = 20000;
        s.ssthresh = 10000;
        s.flightSize = 10000;
        cc->OnAck(s, 15000, true, true);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 20000u, "congestion avoidance: not yet a cwnd's worth");
        NS_TEST_EXPECT_MSG_EQ(s.partialBytesAcked, 15000u, "partial_bytes_acked");
        cc->OnAck(s, 6000, true, true);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 21500u, "+ one MTU");
        NS_TEST_EXPECT_MSG_EQ(s.partialBytesAcked, 1000u, "pba - cwnd");
        cc->OnFastRetransmit(s);
        NS_TEST_EXPECT_MSG_EQ(s.ssthresh, 10750u, "ssthresh = max(cwnd/2, 4 MTU)");
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 10750u, "cwnd = ssthresh");
        s.inFastRecovery = true;
        cc->OnAck(s, 5000, true, true);
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 10750u, "frozen in fast recovery");
        cc->OnRetransmissionTimeout(s);
        NS_TEST_EXPECT_MSG_EQ(s.ssthresh, 6000u, "max(5375, 4 MTU)");
        NS_TEST_EXPECT_MSG_EQ(s.cwnd, 1500u, "one MTU");
    }
};

std::shared_ptr<SctpDataChunk>
Frag(uint32_t tsn, uint16_t sid, uint16_t ssn, bool b, bool e, bool u, std::vector<uint8_t> data)
{
    auto c = std::make_shared<SctpDataChunk>();
    c->SetFlags(0);
    c->SetTsn(tsn);
    c->SetStreamId(sid);
    c->SetSsn(ssn);
    c->SetBeginning(b);
    c->SetEnding(e);
    c->SetUnordered(u);
    c->SetUserData(std::move(data));
    return c;
}

class SctpRxQueueTestCase : public TestCase
{
  public:
    SctpRxQueueTestCase()
        : TestCase("receive queue: TSN wrap, gap blocks, duplicates, reassembly, stream order")
    {
    }

  private:
    void DoRun() override
    {
        SctpRxQueue q;
        q.Reset(0xFFFFFFFEu, 2, 100000);
        NS_TEST_EXPECT_MSG_EQ(int(q.Receive(*Frag(0xFFFFFFFEu, 0, 0, true, true, false, {1}))),
                              int(SctpRxQueue::Verdict::New), "first");
        NS_TEST_EXPECT_MSG_EQ(q.Ready().size(), 1u, "delivered");
        q.Ready().clear();
        // TSN 1 is across the wrap, with 0xFFFFFFFF and 0 missing: gap block 3..3 from 0xFFFFFFFE.
        q.Receive(*Frag(1, 1, 0, false, true, false, {'c', 'd'}));
        SctpSackChunk s1;
        q.FillSack(s1);
        NS_TEST_EXPECT_MSG_EQ(s1.GetCumTsnAck(), 0xFFFFFFFEu, "cum");
        NS_TEST_ASSERT_MSG_EQ(s1.GetGapBlocks().size(), 1u, "one gap block");
        NS_TEST_EXPECT_MSG_EQ(s1.GetGapBlocks()[0].start, 3, "start");
        NS_TEST_EXPECT_MSG_EQ(s1.GetGapBlocks()[0].end, 3, "end");
        // Stream 0 SSN 2 before SSN 1: held back.
        q.Receive(*Frag(0xFFFFFFFFu, 0, 2, true, true, false, {2}));
        NS_TEST_EXPECT_MSG_EQ(q.Ready().size(), 0u, "SSN 2 waits for SSN 1");
        NS_TEST_EXPECT_MSG_EQ(int(q.Receive(*Frag(0xFFFFFFFFu, 0, 2, true, true, false, {2}))),
                              int(SctpRxQueue::Verdict::Duplicate), "duplicate");
        q.Receive(*Frag(0, 1, 0, true, false, false, {'a', 'b'})); // completes "abcd" on stream 1
        NS_TEST_ASSERT_MSG_EQ(q.Ready().size(), 1u, "reassembled");
        NS_TEST_EXPECT_MSG_EQ(std::string(q.Ready()[0].data.begin(), q.Ready()[0].data.end()), "abcd", "octets");
        NS_TEST_EXPECT_MSG_EQ(q.Ready()[0].firstTsn, 0u, "first TSN");
        q.Ready().clear();
        SctpSackChunk s2;
        q.FillSack(s2);
        NS_TEST_EXPECT_MSG_EQ(s2.GetCumTsnAck(), 1u, "cum across the wrap");
        NS_TEST_EXPECT_MSG_EQ(s2.GetGapBlocks().size(), 0u, "no gaps");
        NS_TEST_EXPECT_MSG_EQ(s2.GetDupTsns().size(), 1u, "the duplicate is reported once");
        // Unordered is delivered at once even behind a hole; SSN 1 then releases SSN 2.
        q.Receive(*Frag(4, 0, 0, true, true, true, {7}));
        NS_TEST_EXPECT_MSG_EQ(q.Ready().size(), 1u, "unordered behind a hole");
        q.Ready().clear();
        q.Receive(*Frag(2, 0, 1, true, true, false, {1}));
        NS_TEST_ASSERT_MSG_EQ(q.Ready().size(), 2u, "SSN 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(q.Ready()[0].ssn, 1, "in order");
        NS_TEST_EXPECT_MSG_EQ(q.Ready()[1].ssn, 2, "in order");
        // a_rwnd counts what the user has not read.
        NS_TEST_EXPECT_MSG_EQ(q.GetArwnd(), 100000u - 8, "8 octets unread");
        q.OnUserRead(8);
        NS_TEST_EXPECT_MSG_EQ(q.GetArwnd(), 100000u, "read");
    }
};

class SctpTxQueueTestCase : public TestCase
{
  public:
    SctpTxQueueTestCase()
        : TestCase("send queue: fragments, cumulative and gap acks, Karn's rule, three misses, unacked chunks per stream")
    {
    }

  private:
    void DoRun() override
    {
        SctpTxQueue q;
        q.Reset(100);
        NS_TEST_EXPECT_MSG_EQ(q.Enqueue(std::vector<uint8_t>(2500, 1), 1, 7, 99, false, 1000), 3u, "3 fragments");
        for (int k = 0; k < 5; ++k)
        {
            q.Enqueue(std::vector<uint8_t>(100, 2), 0, uint16_t(k), 0, true, 1000);
        }
        NS_TEST_EXPECT_MSG_EQ(q.GetNextTsn(), 108u, "TSNs 100..107");
        // Per stream, queued and outstanding chunks count until the cumulative ack passes them (SCTP-044).
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(1), 3u, "stream 1: three fragments");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(0), 5u, "stream 0: five messages");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(2), 0u, "stream 2: none");
        std::vector<std::shared_ptr<SctpDataChunk>> sent;
        while (SctpTxQueue::Entry* e = q.NextToSend(false))
        {
            sent.push_back(e->chunk);
            q.OnSent(*e, Seconds(0));
        }
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 8u, "all sent");
        NS_TEST_EXPECT_MSG_EQ(bool(sent[0]->IsBeginning() && !sent[0]->IsEnding()), true, "B");
        NS_TEST_EXPECT_MSG_EQ(bool(!sent[1]->IsBeginning() && !sent[1]->IsEnding()), true, "middle");
        NS_TEST_EXPECT_MSG_EQ(bool(!sent[2]->IsBeginning() && sent[2]->IsEnding()), true, "E");
        NS_TEST_EXPECT_MSG_EQ(sent[2]->GetUserData().size(), 500u, "last fragment");
        NS_TEST_EXPECT_MSG_EQ(bool(sent[3]->IsUnordered() && sent[3]->IsBeginning() && sent[3]->IsEnding()),
                              true, "unordered single");
        uint32_t flight = q.GetFlightSize();
        NS_TEST_EXPECT_MSG_EQ(flight, 2u * 1016 + 516 + 5u * 116, "flight counts chunk sizes");

        // SACK 1: cum 100, gap 2..2 (TSN 102). TSN 100 was the timed chunk: RTT 1 s.
        auto r = q.ProcessSack(100, {{2, 2}}, Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(r.cumAdvanced, true, "cum advanced");
        NS_TEST_EXPECT_MSG_EQ(r.bytesAcked, 1016u + 516, "100 and 102 (the 500-octet fragment)");
        NS_TEST_EXPECT_MSG_EQ(r.rtt.value_or(Seconds(0)), Seconds(1), "RTT sample");
        NS_TEST_EXPECT_MSG_EQ(r.fastRtx.size(), 0u, "one miss for 101");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(1), 2u, "a gap ack does not count: it may be reneged");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 1016u + 5 * 116, "101 and 103..107 in flight");
        r = q.ProcessSack(100, {{2, 3}}, Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(r.fastRtx.size(), 0u, "two misses");
        r = q.ProcessSack(100, {{2, 4}}, Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(r.fastRtx.size(), 1u, "third miss");
        NS_TEST_EXPECT_MSG_EQ(r.fastRtx[0], 101u, "TSN 101");
        q.MarkFastRetransmit(r.fastRtx);
        NS_TEST_EXPECT_MSG_EQ(q.HasMarked(), true, "101 marked");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 3u * 116, "105..107: 101 marked, 102..104 gap-acked");
        SctpTxQueue::Entry* e = q.NextToSend(true);
        NS_TEST_ASSERT_MSG_NE(e, nullptr, "retransmission queued");
        NS_TEST_EXPECT_MSG_EQ(e->chunk->GetTsn(), 101u, "101 first");
        q.OnSent(*e, Seconds(2));
        NS_TEST_EXPECT_MSG_EQ(q.HasMarked(), false, "retransmitted");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 1016u + 3 * 116, "101 in flight again");
        NS_TEST_EXPECT_MSG_EQ(q.ProcessSack(99, {}, Seconds(2)).stale, true, "older cum ack ignored");
        r = q.ProcessSack(104, {}, Seconds(3));
        NS_TEST_EXPECT_MSG_EQ(r.rtt.has_value(), false, "Karn: no sample from a retransmitted chunk");
        NS_TEST_EXPECT_MSG_EQ(q.GetCumAckPoint(), 104u, "cum");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(1), 0u, "stream 1 all acked");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(0), 3u, "stream 0: 105..107");
        NS_TEST_EXPECT_MSG_EQ(q.GetHighestSentTsn(), 107u, "highest sent");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 3u * 116, "105..107 in flight");
        // T3: everything still outstanding is marked and leaves the flight.
        NS_TEST_EXPECT_MSG_EQ(q.MarkAllForRetransmission(), 3u, "105..107");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 0u, "nothing in flight");
        NS_TEST_EXPECT_MSG_EQ(q.HasMarked(), true, "marked");
        NS_TEST_EXPECT_MSG_EQ(q.NextToSend(false)->chunk->GetTsn(), 105u, "105 goes first");
        r = q.ProcessSack(107, {}, Seconds(4));
        NS_TEST_EXPECT_MSG_EQ(q.Empty(), true, "all acknowledged");
        NS_TEST_EXPECT_MSG_EQ(q.GetBufferedBytes(), 0u, "send buffer empty");
        NS_TEST_EXPECT_MSG_EQ(q.GetUnackedChunks(0), 0u, "stream 0 all acked");
        NS_TEST_EXPECT_MSG_EQ(q.HasMarked() || q.HasOutstanding() || q.HasUnsent(), false, "nothing left");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(), 0u, "no flight");
    }
};

class SctpTxQueuePathsTestCase : public TestCase
{
  public:
    SctpTxQueuePathsTestCase()
        : TestCase("send queue per destination: flight, outstanding chunks, acks and earliest acked by path; T3 marks "
                   "one path's chunks; fast retransmit names every path it resends for")
    {
    }

  private:
    void DoRun() override
    {
        SctpTxQueue q;
        q.Reset(1);
        for (int k = 0; k < 8; ++k)
        {
            q.Enqueue(std::vector<uint8_t>(100, uint8_t(k)), 0, uint16_t(k), 0, false, 1000);
        }
        // TSNs 1..8: the odd ones to path 0, the even ones to path 1 (116 octets each as booked).
        while (SctpTxQueue::Entry* e = q.NextToSend(false))
        {
            q.OnSent(*e, Seconds(0), uint8_t(1 - e->chunk->GetTsn() % 2));
        }
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(0), 4u * 116, "path 0: 1, 3, 5, 7");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(1), 4u * 116, "path 1: 2, 4, 6, 8");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(2), 0u, "path 2: nothing");
        NS_TEST_EXPECT_MSG_EQ((q.HasOutstanding(0) && q.HasOutstanding(1) && !q.HasOutstanding(2)), true, "by path");

        // Cum 2: path 0's earliest (1) and path 1's (2) acknowledged; 4 by a gap block (TSN 4 = cum + 2).
        auto r = q.ProcessSack(2, {{2, 2}}, Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(r.bytesAckedByPath[0], 116u, "path 0: TSN 1");
        NS_TEST_EXPECT_MSG_EQ(r.bytesAckedByPath[1], 2u * 116, "path 1: TSNs 2 and 4");
        NS_TEST_EXPECT_MSG_EQ(r.pathsAcked, 3u, "both paths had chunks acknowledged");
        NS_TEST_EXPECT_MSG_EQ(r.pathsEarliestAcked, 3u, "and both their earliest");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(1), 2u * 116, "path 1: 6, 8 (4 gap-acked)");

        // Gaps up to 8 leave 3, 5 and 7 (path 0) missing: three SACKs give them three misses.
        r = q.ProcessSack(2, {{2, 2}, {4, 4}}, Seconds(1)); // 6 acked: path 1's earliest outstanding
        NS_TEST_EXPECT_MSG_EQ(r.pathsEarliestAcked, 2u, "path 1's earliest (6) acked by a gap, path 0's (3) not");
        r = q.ProcessSack(2, {{2, 2}, {4, 4}, {6, 6}}, Seconds(1)); // 8 acked: 3's third miss
        NS_TEST_ASSERT_MSG_EQ(r.fastRtx.size(), 1u, "3 reaches three misses (5 and 7 have fewer)");
        NS_TEST_EXPECT_MSG_EQ((r.fastRtxPath == 0 && r.fastRtxPaths == 1u), true, "sent to path 0 only");
        NS_TEST_EXPECT_MSG_EQ(q.MarkAllForRetransmission(1), 0u, "path 1's T3: its chunks are all acknowledged");
        NS_TEST_EXPECT_MSG_EQ(q.MarkAllForRetransmission(0), 3u, "path 0's T3: 3, 5, 7");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(0), 0u, "path 0: nothing in flight");
        NS_TEST_EXPECT_MSG_EQ(q.GetFlightSize(1), 0u, "path 1: nothing in flight");

        // Chunks of two paths missing together: the fast retransmission names both destinations.
        SctpTxQueue two;
        two.Reset(1);
        for (int k = 0; k < 5; ++k)
        {
            two.Enqueue(std::vector<uint8_t>(100, uint8_t(k)), 0, uint16_t(k), 0, false, 1000);
        }
        while (SctpTxQueue::Entry* e = two.NextToSend(false))
        {
            two.OnSent(*e, Seconds(0), uint8_t(1 - e->chunk->GetTsn() % 2)); // 1, 3, 5 to path 0; 2, 4 to 1
        }
        for (uint16_t last = 3; last <= 5; ++last)
        {
            r = two.ProcessSack(0, {{3, last}}, Seconds(1)); // 3, then 4, then 5 acked: 1 and 2 missed
        }
        NS_TEST_ASSERT_MSG_EQ(r.fastRtx.size(), 2u, "1 and 2 reach three misses together");
        NS_TEST_EXPECT_MSG_EQ(r.fastRtxPaths, 3u, "sent to paths 0 and 1: both windows adjust (§7.2.4)");
        NS_TEST_EXPECT_MSG_EQ(r.fastRtxPath, 0u, "the first of them to path 0");
    }
};

class SctpUnitsTestSuite : public TestSuite
{
  public:
    SctpUnitsTestSuite()
        : TestSuite("iwarp-sctp-units", UNIT)
    {
        AddTestCase(new SctpStateTableTestCase(), TestCase::QUICK);
        AddTestCase(new SctpRtoTestCase(), TestCase::QUICK);
        AddTestCase(new SctpCongestionTestCase(), TestCase::QUICK);
        AddTestCase(new SctpRxQueueTestCase(), TestCase::QUICK);
        AddTestCase(new SctpTxQueueTestCase(), TestCase::QUICK);
        AddTestCase(new SctpTxQueuePathsTestCase(), TestCase::QUICK);
    }
};

SctpUnitsTestSuite g_sctpUnitsTestSuite;

} // namespace
