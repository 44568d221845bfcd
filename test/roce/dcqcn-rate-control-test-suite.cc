/*
 * iwarp-dcqcn: DCQCN's reaction point (model/roce/dcqcn-rate-control.h) follows Zhu et al.'s equations step by
 * step for scripted CNP, timer and byte-counter sequences. Each expected value below is the equation of
 * doc/roce.md written out again with the numbers of the script: a cut (Rt = Rc, Rc = Rc (1 - alpha/2),
 * alpha = (1 - g) alpha + g), alpha's decay per whole K without a CNP, F fast recovery steps, then additive
 * increase, hyper increase once both stage counts reach F, Rt capped at the line rate, the MinRate floor,
 * and the timer stopping once the rate is back at the line rate (an idle queue pair schedules nothing).
 */
#include "roce/dcqcn-rate-control.h"

#include "ns3/data-rate.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <vector>

namespace ns3
{
namespace
{

constexpr double kGbps = 1e9;
constexpr double kG = 1.0 / 256;

/** One change of the rate as the trace reported it. */
struct Change
{
    Time at;
    double rc;
    double rt;
    double alpha;
    DcqcnRateControl::Step step;
};

/** A rate control at 40 Gb/s whose every change is recorded. */
struct Recorded
{
    Ptr<DcqcnRateControl> rp;
    std::vector<Change> changes;

    explicit Recorded(uint64_t byteCounter = 10000000)
    {
        rp = CreateObject<DcqcnRateControl>();
        rp->SetAttribute("ByteCounter", UintegerValue(byteCounter));
        rp->TraceConnectWithoutContext("Rate", MakeCallback(&Recorded::OnRate, this));
        rp->Start(DataRate("40Gb/s"));
    }

    void OnRate(double rc, double rt, double alpha, DcqcnRateControl::Step step)
    {
        changes.push_back(Change{Simulator::Now(), rc, rt, alpha, step});
    }
};

/** Relative closeness, for values derived through different orders of floating-point operations. */
bool
Near(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

class CutAndRecoveryTestCase : public TestCase
{
  public:
    CutAndRecoveryTestCase()
        : TestCase("two cuts, alpha's decay per whole K, F fast recovery steps, then additive increase")
    {
    }

  private:
    void DoRun() override
    {
        Recorded r;
        // Script: CNPs at 0 and 20 us; a third CNP at 20 us + 3 K + 1 us would fall after timer steps, so the
        // timer steps come first (every T = 55 us after the second cut).
        Simulator::Schedule(MicroSeconds(0), &DcqcnRateControl::OnCnp, r.rp);
        Simulator::Schedule(MicroSeconds(20), &DcqcnRateControl::OnCnp, r.rp);
        Simulator::Stop(MicroSeconds(20 + 6 * 55 + 1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(r.changes.size(), 2u + 6u, "two cuts and six timer steps");
        // First cut: alpha is 1 at the start, so Rc halves; alpha stays (1 - g) 1 + g = 1.
        NS_TEST_EXPECT_MSG_EQ(r.changes[0].step, DcqcnRateControl::CUT, "a cut");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[0].rc, 20 * kGbps), true, "Rc = 40 (1 - 1/2)");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[0].rt, 40 * kGbps), true, "Rt = the old Rc");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[0].alpha, 1.0), true, "alpha = (1 - g) + g");
        // Second cut 20 us later: no whole K has passed, alpha is still 1.
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[1].rc, 10 * kGbps), true, "Rc = 20 (1 - 1/2)");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[1].rt, 20 * kGbps), true, "Rt = 20");
        double rc = 10 * kGbps;
        double rt = 20 * kGbps;
        for (int k = 0; k < 5; ++k)
        {
            const Change& c = r.changes[2 + k];
            rc = (rt + rc) / 2;
            NS_TEST_EXPECT_MSG_EQ(c.step, DcqcnRateControl::FAST_RECOVERY, "fast recovery step " << k + 1);
            NS_TEST_EXPECT_MSG_EQ(c.at, MicroSeconds(20 + 55 * (k + 1)), "every T after the cut");
            NS_TEST_EXPECT_MSG_EQ(Near(c.rc, rc), true, "Rc = (Rt + Rc) / 2 at step " << k + 1);
            NS_TEST_EXPECT_MSG_EQ(Near(c.rt, rt), true, "Rt unchanged in fast recovery");
            // alpha decays once per whole K = 55 us since the cut: (1 - g)^(k + 1)
            NS_TEST_EXPECT_MSG_EQ(Near(c.alpha, std::pow(1 - kG, k + 1)), true, "alpha after " << k + 1 << " K");
        }
        const Change& ai = r.changes[7];
        rt += 40e6;
        rc = (rt + rc) / 2;
        NS_TEST_EXPECT_MSG_EQ(ai.step, DcqcnRateControl::ADDITIVE, "the sixth timer step is additive");
        NS_TEST_EXPECT_MSG_EQ(Near(ai.rt, rt), true, "Rt = Rt + R_AI (40 Mb/s)");
        NS_TEST_EXPECT_MSG_EQ(Near(ai.rc, rc), true, "Rc = (Rt + Rc) / 2");

        // A third cut now uses the decayed alpha: six whole K have passed since the second cut.
        const double alpha = std::pow(1 - kG, 6);
        r.rp->OnCnp();
        const Change& cut = r.changes.back();
        NS_TEST_EXPECT_MSG_EQ(Near(cut.rc, rc * (1 - alpha / 2)), true, "Rc = Rc (1 - alpha / 2)");
        NS_TEST_EXPECT_MSG_EQ(Near(cut.rt, rc), true, "Rt = the old Rc");
        NS_TEST_EXPECT_MSG_EQ(Near(cut.alpha, (1 - kG) * alpha + kG), true, "alpha = (1 - g) alpha + g");
        Simulator::Destroy();
    }
};

class ByteCounterAndHyperTestCase : public TestCase
{
  public:
    ByteCounterAndHyperTestCase()
        : TestCase("the byte counter's steps, additive with one count at F, hyper with both: i = min(t, b) - F + 1")
    {
    }

  private:
    void DoRun() override
    {
        Recorded r(1000); // B = 1000 octets, so the script can drive the byte stage
        r.rp->OnCnp();    // at 0: Rc 20, Rt 40
        r.rp->OnCnp();    // Rc 10, Rt 20
        double rc = 10 * kGbps;
        double rt = 20 * kGbps;
        // Five byte-counter steps (b = 0..4 before each): fast recovery. 2500 octets then 2500: the counter
        // expires once per whole 1000.
        r.rp->OnSent(2500);
        r.rp->OnSent(2500);
        NS_TEST_ASSERT_MSG_EQ(r.changes.size(), 2u + 5u, "five byte-counter steps for 5000 octets");
        for (int k = 0; k < 5; ++k)
        {
            rc = (rt + rc) / 2;
            NS_TEST_EXPECT_MSG_EQ(r.changes[2 + k].step, DcqcnRateControl::FAST_RECOVERY, "byte step " << k + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes.back().rc, rc), true, "Rc after five halvings toward Rt");
        // b = 5: the next byte step is additive (t = 0 < F).
        r.rp->OnSent(1000);
        rt += 40e6;
        rc = (rt + rc) / 2;
        NS_TEST_EXPECT_MSG_EQ(r.changes.back().step, DcqcnRateControl::ADDITIVE, "b >= F, t < F: additive");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes.back().rt, rt), true, "Rt + R_AI");
        // Now the timer: its five steps (t = 0..4) are additive, since b >= F; its sixth (t = 5, b = 6) is
        // hyper with i = min(5, 6) - 5 + 1 = 1; its seventh (t = 6) i = 2.
        Simulator::Stop(MicroSeconds(7 * 55 + 1));
        Simulator::Run();
        const size_t base = 2 + 6;
        NS_TEST_ASSERT_MSG_EQ(r.changes.size(), base + 7, "seven timer steps");
        for (int k = 0; k < 5; ++k)
        {
            rt += 40e6;
            rc = (rt + rc) / 2;
            NS_TEST_EXPECT_MSG_EQ(r.changes[base + k].step, DcqcnRateControl::ADDITIVE, "timer step " << k + 1);
        }
        rt += 1 * 400e6;
        rc = (rt + rc) / 2;
        NS_TEST_EXPECT_MSG_EQ(r.changes[base + 5].step, DcqcnRateControl::HYPER, "t, b >= F: hyper");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[base + 5].rt, rt), true, "Rt + 1 R_HAI (400 Mb/s)");
        rt += 2 * 400e6;
        rc = (rt + rc) / 2;
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[base + 6].rt, rt), true, "Rt + 2 R_HAI");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[base + 6].rc, rc), true, "Rc = (Rt + Rc) / 2");
        Simulator::Destroy();
    }
};

class CeilingFloorAndIdleTestCase : public TestCase
{
  public:
    CeilingFloorAndIdleTestCase()
        : TestCase("Rt never above the line rate, Rc never below MinRate, the timer stops once recovered")
    {
    }

  private:
    void DoRun() override
    {
        Recorded r;
        // Thirty cuts in a row at alpha = 1: 40 Gb/s halves past the 100 Mb/s floor.
        for (int k = 0; k < 30; ++k)
        {
            r.rp->OnCnp();
        }
        NS_TEST_EXPECT_MSG_EQ(r.rp->GetRateBps(), 100e6, "Rc stops at MinRate (100 Mb/s)");
        NS_TEST_EXPECT_MSG_EQ(r.rp->GetCnps(), 30u, "every CNP counted");
        // Let it recover: Rt climbs by R_AI and R_HAI toward 40 Gb/s and stays there.
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        bool capped = true;
        for (const Change& c : r.changes)
        {
            capped = capped && c.rt <= 40 * kGbps && c.rc <= c.rt + 1;
        }
        NS_TEST_EXPECT_MSG_EQ(capped, true, "Rt <= line rate and Rc <= Rt throughout");
        NS_TEST_EXPECT_MSG_EQ(r.rp->IsLimiting(), false, "back at the line rate within 1 s");
        NS_TEST_EXPECT_MSG_EQ(r.rp->GetRateBps(), 40 * kGbps, "Rc is the line rate");
        // About 1,040 timer steps bring 100 Mb/s back to 40 Gb/s (additive at 40 Mb/s each); a timer that never
        // stopped would run 18,181 times in 1 s.
        NS_TEST_EXPECT_MSG_EQ((Simulator::GetEventCount() < 2000u), true,
                              "the timer stopped: " << Simulator::GetEventCount() << " events in 1 s");
        const Time last = r.changes.back().at;
        NS_TEST_EXPECT_MSG_EQ((last < MilliSeconds(500)), true, "no change after recovery (last at " << last << ")");
        // Alpha goes on decaying as arithmetic, with no events: (1 - g)^(whole K since the last cut).
        const int64_t periods = Seconds(1).GetTimeStep() / MicroSeconds(55).GetTimeStep();
        NS_TEST_EXPECT_MSG_EQ(Near(r.rp->GetAlpha(), std::pow(1 - kG, double(periods))), true, "alpha decayed");
        Simulator::Destroy();
    }
};

class FirstCnpTestCase : public TestCase
{
  public:
    FirstCnpTestCase()
        : TestCase("the first CNP finds alpha at 1, however long the queue pair was up; Stop ends the timer")
    {
    }

  private:
    void DoRun() override
    {
        Recorded r;
        Simulator::Schedule(MilliSeconds(10), &DcqcnRateControl::OnCnp, r.rp);
        Simulator::Schedule(MilliSeconds(10) + MicroSeconds(120), &DcqcnRateControl::Stop, r.rp);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(r.changes.size(), 3u, "a cut and two timer steps before Stop, nothing after");
        NS_TEST_EXPECT_MSG_EQ(Near(r.changes[0].rc, 20 * kGbps), true, "Rc halves: alpha was 1, not decayed");
        NS_TEST_EXPECT_MSG_EQ(r.rp->IsLimiting(), false, "stopped");
        Simulator::Destroy();
    }
};

class DcqcnTestSuite : public TestSuite
{
  public:
    DcqcnTestSuite()
        : TestSuite("iwarp-dcqcn", UNIT)
    {
        AddTestCase(new CutAndRecoveryTestCase, TestCase::QUICK);
        AddTestCase(new ByteCounterAndHyperTestCase, TestCase::QUICK);
        AddTestCase(new CeilingFloorAndIdleTestCase, TestCase::QUICK);
        AddTestCase(new FirstCnpTestCase, TestCase::QUICK);
    }
};

DcqcnTestSuite g_dcqcnTestSuite;

} // namespace
} // namespace ns3
