/*
 * Linux's HyStart (tcp_cubic.c) in TcpLinuxCubic, the default HyStartVariant: the ACK-train test and its
 * threshold (half the minimum RTT unpaced, the whole of it paced), trains broken by a gap above AckDelta,
 * rounds, the low-window gate, the delay-increase test with its clamped threshold and minimum sample count,
 * the handover to congestion avoidance (ssthresh = cwnd, K = 0), watching again after a timeout (which
 * HyStart++ does not), and end to end: slow start into a shallow data-center queue and into a 2000-packet
 * FIFO on a 20 ms path, against HyStart++ and against no HyStart on the same paths.
 */
#include "tcp/linux-cubic-bulk.h"
#include "tcp/linux-cubic-driver.h"
#include "tcp/tcp-hystart-linux.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/test.h"

#include <cstdio>
#include <vector>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using Trigger = LinuxHyStart::Trigger;

LinuxHyStart
Fresh(bool ackTrain = true, bool delay = true)
{
    LinuxHyStart h;
    LinuxHyStart::Params p;
    p.ackTrain = ackTrain;
    p.delay = delay;
    h.SetParams(p);
    h.Reset();
    return h;
}

/**
 * ACKs every `gap`, all with the sample `rtt`, of one round that ends at sequence 1,000,000 (so no ACK
 * starts another); returns the index of the ACK that fired (or -1) and what fired.
 */
std::pair<int, Trigger>
Train(LinuxHyStart& h, Time gap, int acks, Time rtt, Time minRtt, double cwnd = 20, bool paced = false)
{
    SequenceNumber32 sndNxt(1000000);
    for (int i = 0; i < acks; ++i)
    {
        Trigger t = h.OnAck(SequenceNumber32(1 + i), sndNxt, NanoSeconds(gap.GetNanoSeconds() * i), rtt, minRtt, cwnd, paced);
        if (t != Trigger::None)
        {
            return {i, t};
        }
    }
    return {-1, Trigger::None};
}

class AckTrainTestCase : public TestCase
{
  public:
    AckTrainTestCase()
        : TestCase("ACK train: fires past half the min RTT (all of it paced); a gap over 2 ms breaks it")
    {
    }

  private:
    void DoRun() override
    {
        // Min RTT 100 us, ACKs 5 us apart from the round's start at 0: the threshold is 50 us, so the ACK
        // at 55 us (the 12th, index 11) is the first past it. The delay test is off here.
        LinuxHyStart h = Fresh(true, false);
        auto r = Train(h, MicroSeconds(5), 40, MicroSeconds(100), MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(r.second, Trigger::AckTrain, "the ACK train fired");
        NS_TEST_EXPECT_MSG_EQ(r.first, 11, "at the first ACK more than 50 us after the round began");
        NS_TEST_EXPECT_MSG_EQ(h.IsDone(), true, "found");
        NS_TEST_EXPECT_MSG_EQ(Train(h, MicroSeconds(5), 40, MicroSeconds(100), MicroSeconds(100)).second,
                              Trigger::None,
                              "nothing more until a reset");

        LinuxHyStart paced = Fresh(true, false);
        r = Train(paced, MicroSeconds(5), 40, MicroSeconds(100), MicroSeconds(100), 20, true);
        NS_TEST_EXPECT_MSG_EQ(r.first, 21, "paced: the first ACK more than 100 us after the round began");

        // 10 ms min RTT, threshold 5 ms: ACKs 3 ms apart never extend the train (Linux keeps last_ack at
        // the round's start once a gap exceeds hystart_ack_delta).
        LinuxHyStart gaps = Fresh(true, false);
        r = Train(gaps, MilliSeconds(3), 20, MilliSeconds(10), MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(r.second, Trigger::None, "3 ms gaps are no train");
        // 2 ms apart is still a train: the ACK at 6 ms is the first past 5 ms.
        LinuxHyStart edge = Fresh(true, false);
        r = Train(edge, MilliSeconds(2), 20, MilliSeconds(10), MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(r.first, 3, "2 ms gaps (= AckDelta) are a train");

        // Below hystart_low_window (16 segments) nothing is tested; at 16 it is.
        LinuxHyStart low = Fresh(true, false);
        NS_TEST_EXPECT_MSG_EQ(Train(low, MicroSeconds(5), 40, MicroSeconds(100), MicroSeconds(100), 15.9).second,
                              Trigger::None,
                              "cwnd 15.9 segments: not watched");
        NS_TEST_EXPECT_MSG_EQ(Train(low, MicroSeconds(5), 40, MicroSeconds(100), MicroSeconds(100), 16).second,
                              Trigger::AckTrain,
                              "cwnd 16: watched");

        // A new round (the ACK passes the sequence sent when the last began) restarts the train: rounds
        // of 40 us never reach 50 us.
        LinuxHyStart rounds = Fresh(true, false);
        Trigger seen = Trigger::None;
        SequenceNumber32 end(100);
        for (int i = 0; i < 200 && seen == Trigger::None; ++i)
        {
            SequenceNumber32 ack(101 + i);
            if (i % 8 == 0)
            {
                end = ack; // the round that starts at this ACK ends at the next multiple of 8
                end += 7;
            }
            seen = rounds.OnAck(ack, end, MicroSeconds(5 * i), MicroSeconds(100), MicroSeconds(100), 20, false);
        }
        NS_TEST_EXPECT_MSG_EQ(seen, Trigger::None, "each round's train is 35 us");

        // No RTT sample, no test (tcp_cubic.c returns before hystart_update).
        LinuxHyStart noSample = Fresh(true, false);
        NS_TEST_EXPECT_MSG_EQ(Train(noSample, MicroSeconds(5), 40, Time(0), MicroSeconds(100)).second,
                              Trigger::None,
                              "ACKs without a sample");
    }
};

class DelayIncreaseTestCase : public TestCase
{
  public:
    DelayIncreaseTestCase()
        : TestCase("delay increase: from the 9th sample, the round minimum over min RTT + clamp(min RTT over 8)")
    {
    }

  private:
    void DoRun() override
    {
        LinuxHyStart h = Fresh(false, true);
        NS_TEST_EXPECT_MSG_EQ(h.DelayThreshold(MicroSeconds(20)), MilliSeconds(4), "floor HYSTART_DELAY_MIN");
        NS_TEST_EXPECT_MSG_EQ(h.DelayThreshold(MilliSeconds(64)), MilliSeconds(8), "64 ms / 8");
        NS_TEST_EXPECT_MSG_EQ(h.DelayThreshold(MilliSeconds(200)), MilliSeconds(16), "cap HYSTART_DELAY_MAX");

        // Min RTT 20 ms: the threshold is 24 ms. Samples 3 ms apart (no train matters: it is off).
        auto r = Train(h, MilliSeconds(3), 20, MicroSeconds(24100), MilliSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(r.second, Trigger::Delay, "24.1 ms > 20 + 4 ms");
        NS_TEST_EXPECT_MSG_EQ(r.first, 8, "the first 8 samples only count; the 9th tests");
        LinuxHyStart below = Fresh(false, true);
        NS_TEST_EXPECT_MSG_EQ(Train(below, MilliSeconds(3), 20, MilliSeconds(24), MilliSeconds(20)).second,
                              Trigger::None,
                              "24 ms is not above the threshold");
        // The round's minimum decides, not the latest sample.
        LinuxHyStart mixed = Fresh(false, true);
        SequenceNumber32 sndNxt(1000000);
        Trigger t = Trigger::None;
        for (int i = 0; i < 20; ++i)
        {
            Time rtt = i == 3 ? MilliSeconds(21) : MilliSeconds(30);
            t = mixed.OnAck(SequenceNumber32(1 + i), sndNxt, MilliSeconds(3 * i), rtt, MilliSeconds(20), 20, false);
        }
        NS_TEST_EXPECT_MSG_EQ(t, Trigger::None, "a 21 ms sample in the round keeps its minimum low");
    }
};

/** Records SlowStartExit. */
void
Record(std::vector<uint32_t>* exits, uint32_t ssthresh)
{
    exits->push_back(ssthresh);
}

class HandoverTestCase : public TestCase
{
  public:
    HandoverTestCase()
        : TestCase("TcpLinuxCubic: Linux HyStart by default; ssthresh = cwnd, K = 0; again after a timeout")
    {
    }

  private:
    /** Slow start under the driver's ACK clock (RTT 1 ms) for up to 50 ms: the exits seen. */
    static std::vector<uint32_t> SlowStart(CubicDriver& d, Ptr<TcpLinuxCubic> cc)
    {
        std::vector<uint32_t> exits;
        cc->TraceConnectWithoutContext("SlowStartExit", MakeBoundCallback(&Record, &exits));
        d.RunAckClock(MilliSeconds(50));
        cc->TraceDisconnectWithoutContext("SlowStartExit", MakeBoundCallback(&Record, &exits));
        return exits;
    }

    void DoRun() override
    {
        EnumValue variant;
        Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
        cc->GetAttribute("HyStartVariant", variant);
        NS_TEST_EXPECT_MSG_EQ(variant.Get(), int(TcpLinuxCubic::HYSTART_LINUX), "Linux's HyStart by default");

        CubicDriver d(cc, 10, MilliSeconds(1));
        std::vector<uint32_t> exits = SlowStart(d, cc);
        NS_TEST_ASSERT_MSG_EQ(exits.size(), 1u, "one exit from slow start");
        NS_TEST_EXPECT_MSG_EQ(cc->GetLinuxHyStartTrigger(), Trigger::AckTrain, "the driver's ACKs are a train");
        double exitCwnd = exits[0] / double(CubicDriver::kMss);
        // The driver spreads a window's ACKs over the RTT, so a round's train passes RTT / 2 in the first
        // round watched: the window is between hystart_low_window and twice it.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(exitCwnd, 16.0, "not below the low window");
        NS_TEST_EXPECT_MSG_LT(exitCwnd, 32.0, "within the first round watched");
        NS_TEST_EXPECT_MSG_EQ(cc->InEpoch(), true, "congestion avoidance followed");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetWMax(), cc->GetCwndEpoch(), 1e-9, "W_max = cwnd_epoch (§4.10)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwndPrior(), exitCwnd, 1e-9, "cwnd_prior = cwnd at the exit");

        // A timeout with 200 segments in flight (ssthresh 140): Linux's bictcp_reset watches the slow start
        // that follows afresh, and it ends there as the first did, far below ssthresh.
        d.Rto(200);
        d.LeaveLoss();
        NS_TEST_EXPECT_MSG_EQ(cc->LinuxHyStartDone(), false, "watching again after the timeout");
        std::vector<uint32_t> again = SlowStart(d, cc);
        NS_TEST_ASSERT_MSG_EQ(again.size(), 1u, "HyStart ended the slow start after the timeout too");
        NS_TEST_EXPECT_MSG_LT(again[0] / double(CubicDriver::kMss), 32.0, "below the 140-segment ssthresh");

        // HyStart off: no exit, cwnd grows in slow start throughout (two per ACK of two).
        Ptr<TcpLinuxCubic> off = CreateObject<TcpLinuxCubic>();
        off->SetAttribute("HyStart", BooleanValue(false));
        CubicDriver o(off, 10, MilliSeconds(1));
        for (int i = 0; i < 100; ++i)
        {
            o.Ack(2);
        }
        NS_TEST_EXPECT_MSG_EQ(off->LinuxHyStartDone(), true, "off: never watching");
        NS_TEST_EXPECT_MSG_EQ(o.Tcb()->m_ssThresh.Get(), UINT32_MAX, "still slow start");
        NS_TEST_EXPECT_MSG_EQ(o.Tcb()->m_cWnd.Get(), (10 + 2 * 100) * CubicDriver::kMss, "two per ACK of two");

        // HyStart++ chosen: the Linux tests stay quiet.
        Ptr<TcpLinuxCubic> pp = CreateObject<TcpLinuxCubic>();
        pp->SetAttribute("HyStartVariant", EnumValue(TcpLinuxCubic::HYSTART_RFC9406));
        CubicDriver p(pp, 10, MilliSeconds(1));
        p.Ack(2);
        NS_TEST_EXPECT_MSG_EQ(pp->LinuxHyStartDone(), true, "RFC9406: the Linux variant does not watch");
        Simulator::Destroy();
    }
};

class EndToEndTestCase : public TestCase
{
  public:
    EndToEndTestCase()
        : TestCase("end to end: Linux HyStart leaves slow start before a shallow or a deep FIFO overflows")
    {
    }

  private:
    static CubicBulkResult Run(CubicBulkConfig c,
                               bool hyStart,
                               TcpLinuxCubic::HyStartVariant v,
                               std::vector<uint32_t>* exits = nullptr)
    {
        Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
        cc->SetAttribute("HyStart", BooleanValue(hyStart));
        cc->SetAttribute("HyStartVariant", EnumValue(v));
        if (exits)
        {
            cc->TraceConnectWithoutContext("SlowStartExit", MakeBoundCallback(&Record, exits));
        }
        c.cc = cc;
        return RunCubicBulk(c);
    }

    static void Print(const char* what, const char* name, const CubicBulkResult& r)
    {
        std::printf("linux-hystart %s, %s: %u drops, %u recoveries, %u timeouts, %.2f Mb/s, ssthresh %u segs\n",
                    what,
                    name,
                    r.queueDrops,
                    r.recoveries,
                    r.timeouts,
                    r.goodputMbps,
                    r.finalSsThresh / 1448);
    }

    void DoRun() override
    {
        // A data-center path: 10 Gb/s, 20 us RTT, a 100-packet FIFO: the path holds 17 segments (the
        // bandwidth-delay product) plus 100 queued. HyStart++'s delay test cannot fire below its 4 ms floor,
        // so its slow start overflows the queue. Congestion avoidance then probes past the 117 segments
        // (Reno-friendly growth, a segment per 20 us), so a few drops in 30 ms are the probing's, not slow
        // start's.
        CubicBulkConfig dc;
        dc.rate = "10Gbps";
        dc.oneWayDelay = MicroSeconds(10);
        dc.fifoPackets = 100;
        dc.warmup = MilliSeconds(5);
        dc.duration = MilliSeconds(30);
        std::vector<uint32_t> exits;
        CubicBulkResult linux = Run(dc, true, TcpLinuxCubic::HYSTART_LINUX, &exits);
        CubicBulkResult rfc = Run(dc, true, TcpLinuxCubic::HYSTART_RFC9406);
        Print("10 Gb/s, 20 us, 100-packet FIFO", "Linux", linux);
        Print("10 Gb/s, 20 us, 100-packet FIFO", "RFC9406", rfc);
        NS_TEST_ASSERT_MSG_EQ(exits.size(), 1u, "Linux HyStart ended the slow start");
        std::printf("linux-hystart 10 Gb/s, 20 us: Linux HyStart left slow start at %u segments\n", exits[0] / 1448);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(exits[0] / 1448, 117u, "with a window the path holds");
        NS_TEST_EXPECT_MSG_GT(rfc.queueDrops, 0u, "HyStart++ overflows it (else this path tests nothing)");
        NS_TEST_EXPECT_MSG_LT(linux.queueDrops * 10, rfc.queueDrops, "under a tenth of HyStart++'s drops");
        double dcLink = 10000.0 * 1448 / 1502;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(linux.goodputMbps, 0.95 * dcLink, "and the link is full");

        // The HyStart++ suite's path: 100 Mb/s, 20 ms, a 2000-packet FIFO.
        CubicBulkConfig wan;
        wan.fifoPackets = 2000;
        wan.duration = Seconds(5);
        CubicBulkResult deep = Run(wan, true, TcpLinuxCubic::HYSTART_LINUX);
        CubicBulkResult none = Run(wan, false, TcpLinuxCubic::HYSTART_LINUX);
        Print("100 Mb/s, 20 ms, 2000-packet FIFO", "Linux", deep);
        Print("100 Mb/s, 20 ms, 2000-packet FIFO", "off", none);
        NS_TEST_EXPECT_MSG_EQ(deep.queueDrops, 0u, "Linux HyStart overflowed the deep queue");
        NS_TEST_EXPECT_MSG_EQ(deep.recoveries + deep.timeouts, 0u, "no loss, no recovery");
        NS_TEST_EXPECT_MSG_GT(none.queueDrops, 0u, "plain slow start overflows it (else no test)");
        double wanLink = 100.0 * 1448 / 1502;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(deep.goodputMbps, 0.95 * wanLink, "and the link is full (2-5 s)");
    }
};

class LinuxHyStartTestSuite : public TestSuite
{
  public:
    LinuxHyStartTestSuite()
        : TestSuite("iwarp-linux-hystart", UNIT)
    {
        AddTestCase(new AckTrainTestCase(), TestCase::QUICK);
        AddTestCase(new DelayIncreaseTestCase(), TestCase::QUICK);
        AddTestCase(new HandoverTestCase(), TestCase::QUICK);
        AddTestCase(new EndToEndTestCase(), TestCase::QUICK);
    }
};

LinuxHyStartTestSuite g_linuxHyStartTestSuite;

} // namespace
