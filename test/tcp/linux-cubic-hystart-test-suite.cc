/*
 * HyStart++ (RFC 9406) in TcpLinuxCubic: the round-trip rounds, the delay-increase test and its clamped
 * threshold, Conservative Slow Start (growth / CSS_GROWTH_DIVISOR, at most L segments per ACK, CSS_ROUNDS
 * rounds, back to slow start when the delay falls), the handover to congestion avoidance (RFC 9438
 * §4.10), and end to end: over a 2000-packet FIFO the initial slow start ends without a drop, where
 * plain slow start overflows the queue. (ns-3 3.37 sends slow start's bursts unpaced, so a round's minimum
 * RTT lags the queue by a round: CSS began at about 3.3 BDP here, and its five rounds at x1.25 still
 * overflowed a 1000-packet FIFO, with a fifth of plain slow start's drops; doc/tcp-congestion.md.)
 */
#include "tcp/linux-cubic-bulk.h"
#include "tcp/linux-cubic-driver.h"
#include "tcp/tcp-hystart-pp.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/test.h"

#include <cstdio>
#include <memory>
#include <vector>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using Phase = HyStartPlusPlus::Phase;
using Verdict = HyStartPlusPlus::Verdict;

/** Feeds a HyStartPlusPlus whole rounds of ACKs: each round acknowledges up to the previous one's end. */
class RoundFeeder
{
  public:
    explicit RoundFeeder(HyStartPlusPlus& h)
        : m_h(h)
    {
    }

    /** One round of `samples.size()` ACKs with these RTTs (ms); the last verdict. */
    Verdict Round(const std::vector<double>& samplesMs)
    {
        Verdict v = Verdict::Continue;
        for (size_t i = 0; i < samplesMs.size(); ++i)
        {
            // The first ACK reaches the previous round's end (a new round); the rest stay below it.
            SequenceNumber32 ack = m_end + static_cast<uint32_t>(i);
            v = m_h.OnAck(ack, m_end + 1000, MicroSeconds(static_cast<int64_t>(samplesMs[i] * 1000)));
            if (v == Verdict::EnterCongestionAvoidance)
            {
                return v;
            }
        }
        m_end = m_end + 1000;
        return v;
    }

    static std::vector<double> Same(double ms, size_t n = 10) { return std::vector<double>(n, ms); }

  private:
    HyStartPlusPlus& m_h;
    SequenceNumber32 m_end{1};
};

class DelayIncreaseTestCase : public TestCase
{
  public:
    DelayIncreaseTestCase()
        : TestCase("delay increase: CSS when a round's min RTT is a clamped threshold above the last")
    {
    }

  private:
    /** Rounds at `baseMs`, then one whose samples are all `nextMs`: the phase after it. */
    static Phase After(double baseMs, double nextMs, size_t samples = 10)
    {
        HyStartPlusPlus h;
        h.Reset();
        RoundFeeder f(h);
        f.Round(RoundFeeder::Same(baseMs));
        f.Round(RoundFeeder::Same(baseMs));
        f.Round(RoundFeeder::Same(nextMs, samples));
        return h.GetPhase();
    }

    void DoRun() override
    {
        // lastRoundMinRTT 20 ms: 20 / 8 = 2.5 ms is below MIN_RTT_THRESH, so the threshold is 4 ms.
        NS_TEST_EXPECT_MSG_EQ(After(20, 22), Phase::SlowStart, "+2 ms: below 4 ms");
        NS_TEST_EXPECT_MSG_EQ(After(20, 23.9), Phase::SlowStart, "+3.9 ms: below 4 ms");
        NS_TEST_EXPECT_MSG_EQ(After(20, 24), Phase::Css, "+4 ms: CSS");
        // lastRoundMinRTT 200 ms: 200 / 8 = 25 ms is capped at MAX_RTT_THRESH 16 ms.
        NS_TEST_EXPECT_MSG_EQ(After(200, 215.9), Phase::SlowStart, "+15.9 ms at 200 ms");
        NS_TEST_EXPECT_MSG_EQ(After(200, 216), Phase::Css, "+16 ms at 200 ms");
        // lastRoundMinRTT 64 ms: 64 / 8 = 8 ms lies between the bounds.
        NS_TEST_EXPECT_MSG_EQ(After(64, 71.9), Phase::SlowStart, "+7.9 ms at 64 ms");
        NS_TEST_EXPECT_MSG_EQ(After(64, 72), Phase::Css, "+8 ms at 64 ms");
        // Fewer than N_RTT_SAMPLE samples decide nothing.
        NS_TEST_EXPECT_MSG_EQ(After(20, 40, 7), Phase::SlowStart, "7 samples are not enough");
        NS_TEST_EXPECT_MSG_EQ(After(20, 40, 8), Phase::Css, "8 are");

        // The round's minimum counts, not its latest sample; the baseline is that minimum.
        HyStartPlusPlus h;
        h.Reset();
        RoundFeeder f(h);
        f.Round(RoundFeeder::Same(20));
        f.Round({30, 30, 30, 23, 30, 30, 30, 30, 30, 30});
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::SlowStart, "min 23 ms is +3 ms");
        f.Round({30, 25, 30, 30, 30, 30, 30, 30});
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::SlowStart, "min 25 ms against last round's 23: +2 ms");
        f.Round(RoundFeeder::Same(29));
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::Css, "29 against 25");
        NS_TEST_EXPECT_MSG_EQ(h.GetCssBaselineMinRtt(), MilliSeconds(29), "cssBaselineMinRtt");
    }
};

class ConservativeSlowStartTestCase : public TestCase
{
  public:
    ConservativeSlowStartTestCase()
        : TestCase("CSS: quarter growth, L per ACK, five rounds then ssthresh, back to slow start on a dip")
    {
    }

  private:
    void DoRun() override
    {
        HyStartPlusPlus h;
        h.Reset();
        NS_TEST_EXPECT_MSG_EQ_TOL(h.Growth(2, false), 2.0, 1e-12, "slow start: N");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.Growth(20, false), 8.0, 1e-12, "at most L = 8 per ACK unpaced");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.Growth(20, true), 20.0, 1e-12, "no limit when paced");
        RoundFeeder f(h);
        f.Round(RoundFeeder::Same(20));
        NS_TEST_EXPECT_MSG_EQ(f.Round(RoundFeeder::Same(30)), Verdict::Continue, "CSS entered");
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::Css, "CSS");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.Growth(2, false), 0.5, 1e-12, "N / CSS_GROWTH_DIVISOR");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.Growth(20, false), 2.0, 1e-12, "min(N, L) / CSS_GROWTH_DIVISOR");

        // A dip below the baseline: the increase was spurious, back to standard slow start.
        f.Round({31, 31, 31, 31, 31, 31, 31, 29.9});
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::SlowStart, "29.9 ms < baseline 30 ms");
        NS_TEST_EXPECT_MSG_EQ(h.GetCssBaselineMinRtt(), Time::Max(), "baseline forgotten");

        // Into CSS again (35 >= 29.9 + 4); the round it starts in counts as the first of CSS_ROUNDS.
        f.Round(RoundFeeder::Same(35));
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::Css, "CSS again");
        Verdict v = Verdict::Continue;
        uint32_t rounds = 0;
        while (v == Verdict::Continue && rounds < 10)
        {
            v = f.Round(RoundFeeder::Same(36));
            ++rounds;
        }
        NS_TEST_EXPECT_MSG_EQ(v, Verdict::EnterCongestionAvoidance, "CSS ends");
        NS_TEST_EXPECT_MSG_EQ(rounds, 5u, "after CSS_ROUNDS round ends (entry round, four more)");
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::Done, "done");
        NS_TEST_EXPECT_MSG_EQ(f.Round(RoundFeeder::Same(10)), Verdict::Continue, "done stays done");
        NS_TEST_EXPECT_MSG_EQ(h.GetPhase(), Phase::Done, "no slow start after it");

        HyStartPlusPlus stopped;
        stopped.Reset();
        stopped.Stop();
        RoundFeeder g(stopped);
        g.Round(RoundFeeder::Same(20));
        g.Round(RoundFeeder::Same(40));
        NS_TEST_EXPECT_MSG_EQ(stopped.GetPhase(), Phase::Done, "a loss ends HyStart++ for good");
    }
};

class HandoverTestCase : public TestCase
{
  public:
    HandoverTestCase()
        : TestCase("TcpLinuxCubic: HyStart++ sets ssthresh = cwnd, then K = 0 and W_max = cwnd_epoch")
    {
    }

  private:
    /** Slow start from 10 segments in ACKs of two: RTT 20 ms for 30 segments, 30 ms after. */
    static std::unique_ptr<CubicDriver> Run(Ptr<TcpLinuxCubic> cc, bool hyStart, std::vector<uint32_t>* exits)
    {
        auto d = std::make_unique<CubicDriver>(cc, 10, MilliSeconds(20));
        // After Init, as when a socket got the algorithm before its attributes were set: they still count.
        cc->SetAttribute("HyStart", BooleanValue(hyStart));
        cc->SetAttribute("HyStartVariant", EnumValue(TcpLinuxCubic::HYSTART_RFC9406));
        cc->TraceConnectWithoutContext("SlowStartExit", MakeBoundCallback(&Record, exits));
        SequenceNumber32 slowEnd = d->Tcb()->m_lastAckedSeq + 30 * CubicDriver::kMss;
        for (int i = 0; i < 400 && d->Tcb()->m_cWnd < d->Tcb()->m_ssThresh; ++i)
        {
            d->Ack(2, d->Tcb()->m_lastAckedSeq < slowEnd ? MilliSeconds(20) : MilliSeconds(30));
        }
        return d;
    }

    static void Record(std::vector<uint32_t>* exits, uint32_t ssthresh)
    {
        exits->push_back(ssthresh);
    }

    void DoRun() override
    {
        std::vector<uint32_t> exits;
        Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
        std::unique_ptr<CubicDriver> d = Run(cc, true, &exits);
        NS_TEST_ASSERT_MSG_EQ(exits.size(), 1u, "one exit from slow start");
        NS_TEST_EXPECT_MSG_EQ(d->Tcb()->m_ssThresh.Get(), exits[0], "traced ssthresh");
        double exitCwnd = exits[0] / double(CubicDriver::kMss);
        // No loss: the window reached in CSS is kept; CSS grew it by a quarter of slow start's pace.
        NS_TEST_EXPECT_MSG_GT(exitCwnd, 40.0, "past the 20 ms windows");
        NS_TEST_EXPECT_MSG_EQ(cc->GetHyStartPhase(), Phase::Done, "HyStart++ done");
        d->Ack(2);
        NS_TEST_EXPECT_MSG_EQ(cc->InEpoch(), true, "congestion avoidance");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetK(), 0.0, 1e-12, "K = 0 (RFC 9438 §4.10)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetWMax(), cc->GetCwndEpoch(), 1e-9, "W_max = cwnd_epoch");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwndPrior(), exitCwnd, 1e-9, "cwnd_prior = cwnd at the exit");

        std::vector<uint32_t> none;
        d = Run(CreateObject<TcpLinuxCubic>(), false, &none);
        NS_TEST_EXPECT_MSG_EQ(none.size(), 0u, "HyStart off: the delay is ignored");
        NS_TEST_EXPECT_MSG_EQ(d->Tcb()->m_ssThresh.Get(), UINT32_MAX, "still slow start");
        NS_TEST_EXPECT_MSG_EQ(d->Tcb()->m_cWnd.Get(), (10 + 2 * 400) * CubicDriver::kMss, "two per ACK of two");
        Simulator::Destroy();
    }
};

class SlowStartOvershootTestCase : public TestCase
{
  public:
    SlowStartOvershootTestCase()
        : TestCase("end to end: HyStart++ leaves slow start before a 2000-packet FIFO overflows")
    {
    }

  private:
    static CubicBulkResult Run(bool hyStart)
    {
        Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
        cc->SetAttribute("HyStart", BooleanValue(hyStart));
        cc->SetAttribute("HyStartVariant", EnumValue(TcpLinuxCubic::HYSTART_RFC9406));
        CubicBulkConfig c;
        c.cc = cc;
        c.fifoPackets = 2000;
        c.duration = Seconds(5);
        return RunCubicBulk(c);
    }

    void DoRun() override
    {
        CubicBulkResult with = Run(true);
        CubicBulkResult without = Run(false);
        std::printf("linux-cubic slow start into a 2000-packet FIFO, 100 Mb/s, 20 ms: HyStart++ %u drops, "
                    "%u recoveries, %u timeouts, %.2f Mb/s; without %u drops, %u recoveries, %u timeouts, "
                    "%.2f Mb/s (2-5 s); HyStart++ set ssthresh to %u segments\n",
                    with.queueDrops, with.recoveries, with.timeouts, with.goodputMbps, without.queueDrops,
                    without.recoveries, without.timeouts, without.goodputMbps, with.finalSsThresh / 1448);
        NS_TEST_EXPECT_MSG_LT(with.finalSsThresh, UINT32_MAX, "HyStart++ ended slow start (ssthresh = cwnd)");
        NS_TEST_EXPECT_MSG_EQ(with.queueDrops, 0u, "HyStart++ overflowed the queue");
        NS_TEST_EXPECT_MSG_EQ(with.recoveries + with.timeouts, 0u, "no loss, no recovery");
        NS_TEST_EXPECT_MSG_GT(without.queueDrops, 0u, "plain slow start must overflow it (else no test)");
        double linkGoodput = 100.0 * 1448 / 1502;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(with.goodputMbps, 0.95 * linkGoodput, "and the link is full");
    }
};

class LinuxCubicHyStartTestSuite : public TestSuite
{
  public:
    LinuxCubicHyStartTestSuite()
        : TestSuite("iwarp-linux-cubic-hystart", UNIT)
    {
        AddTestCase(new DelayIncreaseTestCase(), TestCase::QUICK);
        AddTestCase(new ConservativeSlowStartTestCase(), TestCase::QUICK);
        AddTestCase(new HandoverTestCase(), TestCase::QUICK);
        AddTestCase(new SlowStartOvershootTestCase(), TestCase::QUICK);
    }
};

LinuxCubicHyStartTestSuite g_linuxCubicHyStartTestSuite;

} // namespace
