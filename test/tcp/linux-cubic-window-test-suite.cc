/*
 * TcpLinuxCubic's window, driven without a network (linux-cubic-driver.h) and compared with RFC 9438's
 * closed forms computed here from the formulas: W_cubic(t) = C (t - K)^3 + W_max with
 * K = cbrt((W_max - cwnd_epoch) / C) (§4.2), the Reno estimate W_est (§4.3), fast convergence (§4.7),
 * the timeout (§4.8), slow start counted in segments, idle time kept out of t, and the attributes'
 * refusal of meaningless values.
 */
#include "tcp/linux-cubic-driver.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

const double kC = 0.4;
const double kBeta = 0.7;
const double kAlpha = 3 * (1 - kBeta) / (1 + kBeta); // §4.3

double
ClosedFormK(double wMax, double cwndEpoch)
{
    return std::cbrt((wMax - cwndEpoch) / kC);
}

double
ClosedFormWCubic(double t, double wMax, double k)
{
    return kC * std::pow(t - k, 3) + wMax;
}

/**
 * W_est under an ACK clock of one window per RTT: it grows by alpha_cubic per RTT until it reaches
 * cwnd_prior, by one segment per RTT after (§4.3).
 */
double
ClosedFormWEst(double t, double rtt, double cwndEpoch, double cwndPrior)
{
    double tPrior = (cwndPrior - cwndEpoch) / kAlpha * rtt;
    if (t <= tPrior)
    {
        return cwndEpoch + kAlpha * t / rtt;
    }
    return cwndPrior + (t - tPrior) / rtt;
}

Ptr<TcpLinuxCubic>
MakeCubic(bool hyStart = false)
{
    Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
    cc->SetAttribute("HyStart", BooleanValue(hyStart));
    return cc;
}

/** Largest |cwnd - expected(t)| over an ACK clock, in segments. */
struct MaxError
{
    double value{0};
    double at{0};
    void Add(double err, double t)
    {
        if (std::abs(err) > std::abs(value))
        {
            value = err;
            at = t;
        }
    }
};

class CubicRegionTestCase : public TestCase
{
  public:
    CubicRegionTestCase()
        : TestCase("large BDP: after a loss cwnd follows W_cubic(t) through K, concave then convex")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        CubicDriver d(cc, 1000, MilliSeconds(100));
        uint32_t ssthresh = d.Loss();
        NS_TEST_EXPECT_MSG_EQ(ssthresh, 700 * 1448u, "ssthresh = 0.7 x flight, to the nearest octet");
        NS_TEST_EXPECT_MSG_EQ(d.Tcb()->m_cWnd.Get(), 700 * 1448u, "recovery leaves cwnd at ssthresh");
        double k = ClosedFormK(1000, 700);
        MaxError err;
        double atK = 0;
        double estAtEnd = 0;
        d.RunAckClock(Seconds(14), [&](Time t) {
            double s = t.GetSeconds();
            err.Add(d.CwndSegments() - ClosedFormWCubic(s, 1000, k), s);
            if (atK == 0 && s >= k)
            {
                atK = d.CwndSegments();
            }
            estAtEnd = cc->GetWEst();
        });
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetK(), k, 1e-9, "K = cbrt((W_max - cwnd_epoch) / C)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetWMax(), 1000.0, 1e-9, "W_max = cwnd at the loss");
        // Tracking W_cubic(t + RTT) one window of ACKs ahead keeps cwnd on W_cubic(t) to well under a
        // segment; heading for W_cubic(t) instead would lag by W_cubic' x RTT, ~10 segments just after the
        // loss.
        NS_TEST_EXPECT_MSG_LT(std::abs(err.value), 0.5,
                              "cwnd strays " << err.value << " segments from W_cubic at t = " << err.at << " s");
        NS_TEST_EXPECT_MSG_EQ_TOL(atK, 1000.0, 1.0, "cwnd is back at W_max at t = K");
        double end = ClosedFormWCubic(14, 1000, k);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.CwndSegments(), end, 1.0, "convex region: W_cubic(14 s) = " << end);
        NS_TEST_EXPECT_MSG_LT(estAtEnd, end - 100, "W_est is far below: this is the cubic region");
        Simulator::Destroy();
    }
};

class FastConvergenceTestCase : public TestCase
{
  public:
    FastConvergenceTestCase()
        : TestCase("fast convergence: a loss below W_max lowers W_max to cwnd x (1 + beta) over 2")
    {
    }

  private:
    /** Loss at 1000 segments, then at `second`; returns W_max after the second. */
    static Ptr<TcpLinuxCubic> TwoLosses(bool fastConvergence, double second)
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        cc->SetAttribute("FastConvergence", BooleanValue(fastConvergence));
        CubicDriver d(cc, 1000, MilliSeconds(100));
        d.Loss();
        d.Tcb()->m_cWnd = static_cast<uint32_t>(second * CubicDriver::kMss); // the window at the next loss
        d.Loss();
        return cc;
    }

    void DoRun() override
    {
        Ptr<TcpLinuxCubic> on = TwoLosses(true, 800);
        NS_TEST_EXPECT_MSG_EQ_TOL(on->GetWMax(), 800 * (1 + kBeta) / 2, 1e-9, "W_max = 680");
        NS_TEST_EXPECT_MSG_EQ_TOL(on->GetCwndPrior(), 800.0, 1e-9, "cwnd_prior is the window at the loss");
        Ptr<TcpLinuxCubic> off = TwoLosses(false, 800);
        NS_TEST_EXPECT_MSG_EQ_TOL(off->GetWMax(), 800.0, 1e-9, "without fast convergence W_max = cwnd");
        Ptr<TcpLinuxCubic> above = TwoLosses(true, 1200);
        NS_TEST_EXPECT_MSG_EQ_TOL(above->GetWMax(), 1200.0, 1e-9, "a loss above W_max is not shrunk");

        // The lowered W_max is the plateau: cwnd levels off at 680 segments at t = K, not at 800.
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        CubicDriver d(cc, 1000, MilliSeconds(100));
        d.Loss();
        d.Tcb()->m_cWnd = 800 * CubicDriver::kMss;
        d.Loss();
        double k = ClosedFormK(680, 560);
        double atK = 0;
        d.RunAckClock(Seconds(k + 0.5), [&](Time t) {
            if (atK == 0 && t.GetSeconds() >= k)
            {
                atK = d.CwndSegments();
            }
        });
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetK(), k, 1e-9, "K from the lowered W_max");
        NS_TEST_EXPECT_MSG_EQ_TOL(atK, 680.0, 1.0, "plateau at the lowered W_max");
        Simulator::Destroy();
    }
};

class RenoFriendlyTestCase : public TestCase
{
  public:
    RenoFriendlyTestCase()
        : TestCase("small BDP: cwnd follows W_est, alpha_cubic then 1 past cwnd_prior; off, it does not")
    {
    }

  private:
    /** 2 ms RTT, loss at 20 segments, 200 ms of ACKs; the largest deviation from W_est's closed form. */
    static MaxError Run(bool renoFriendly, double* endCwnd)
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        cc->SetAttribute("RenoFriendly", BooleanValue(renoFriendly));
        CubicDriver d(cc, 20, MilliSeconds(2));
        d.Loss();
        MaxError err;
        d.RunAckClock(MilliSeconds(200), [&](Time t) {
            err.Add(d.CwndSegments() - ClosedFormWEst(t.GetSeconds(), 0.002, 14, 20), t.GetSeconds());
        });
        *endCwnd = d.CwndSegments();
        Simulator::Destroy();
        return err;
    }

    void DoRun() override
    {
        double friendlyEnd = 0;
        MaxError err = Run(true, &friendlyEnd);
        // Halfway to cwnd_prior the two slopes differ by 2.7 segments, so 0.5 tells alpha_cubic from 1.
        NS_TEST_EXPECT_MSG_LT(std::abs(err.value), 0.5,
                              "cwnd strays " << err.value << " segments from W_est at t = " << err.at << " s");
        double k = ClosedFormK(20, 14);
        double cubic = ClosedFormWCubic(0.2, 20, k);
        NS_TEST_EXPECT_MSG_GT(friendlyEnd, 100.0, "Reno's pace: about one segment per 2 ms round trip");
        double unfriendlyEnd = 0;
        Run(false, &unfriendlyEnd);
        NS_TEST_EXPECT_MSG_EQ_TOL(unfriendlyEnd, cubic, 1.0, "without the region: W_cubic(0.2 s)");
    }
};

class TimeoutTestCase : public TestCase
{
  public:
    TimeoutTestCase()
        : TestCase("timeout: ssthresh held on repeated RTOs; the next epoch has K = 0, W_max = cwnd_epoch")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        CubicDriver d(cc, 1000, MilliSeconds(100));
        d.Loss();
        d.RunAckClock(Seconds(2));
        double atRto = d.CwndSegments();
        uint32_t ssthresh = d.Rto(atRto);
        NS_TEST_EXPECT_MSG_EQ(ssthresh, static_cast<uint32_t>(std::llround(uint32_t(atRto * 1448) * kBeta)), "0.7 x flight");
        NS_TEST_EXPECT_MSG_EQ(d.Rto(1), ssthresh, "a repeated RTO keeps ssthresh (RFC 5681, Linux)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwndPrior(), atRto, 1e-9, "and cwnd_prior");
        NS_TEST_EXPECT_MSG_EQ(cc->InEpoch(), false, "the epoch ended with the timeout");

        // Slow start from one segment, two segments per ACK of two, up to ssthresh.
        d.LeaveLoss();
        d.Ack(2);
        NS_TEST_EXPECT_MSG_EQ(d.Tcb()->m_cWnd.Get(), 3 * 1448u, "1 + 2 segments");
        while (d.Tcb()->m_cWnd < d.Tcb()->m_ssThresh)
        {
            d.Ack(2);
        }
        double epoch = cc->GetCwndEpoch();
        NS_TEST_EXPECT_MSG_EQ_TOL(epoch, ssthresh / 1448.0, 1e-9, "the epoch starts at ssthresh");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetK(), 0.0, 1e-12, "K = 0 after a timeout (§4.8)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetWMax(), epoch, 1e-9, "W_max = cwnd_epoch (§4.8)");

        double at1 = 0;
        d.RunAckClock(Seconds(8), [&](Time t) {
            if (at1 == 0 && t >= Seconds(1))
            {
                at1 = d.CwndSegments();
            }
        });
        // First W_est leads (C t^3 is slow near K = 0), then the convex curve takes over.
        NS_TEST_EXPECT_MSG_EQ_TOL(at1, ClosedFormWEst(1, 0.1, epoch, atRto), 0.5, "Reno-friendly at 1 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(d.CwndSegments(), ClosedFormWCubic(8, epoch, 0), 1.0, "W_cubic at 8 s");

        // An RTO during fast recovery keeps the ssthresh of that recovery.
        Ptr<TcpLinuxCubic> cc2 = MakeCubic();
        CubicDriver d2(cc2, 500, MilliSeconds(100));
        uint32_t recovery = d2.EnterRecovery(500);
        NS_TEST_EXPECT_MSG_EQ(d2.Rto(300), recovery, "RTO in recovery: ssthresh of the recovery");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc2->GetCwndPrior(), 500.0, 1e-9, "cwnd_prior of the recovery");
        Simulator::Destroy();
    }
};

class IdleTestCase : public TestCase
{
  public:
    IdleTestCase()
        : TestCase("idle: restarting to send moves t_epoch forward by the idle time")
    {
    }

  private:
    /** Growth (segments) of the first ACK after 5 s idle, with or without the TX_START event. */
    static double GrowthAfterIdle(bool txStart, Time* shift)
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        CubicDriver d(cc, 1000, MilliSeconds(100));
        d.Loss();
        d.RunAckClock(Seconds(2));
        Time before = cc->GetEpochStart();
        d.Idle(Seconds(5));
        if (txStart)
        {
            cc->CwndEvent(d.Tcb(), TcpSocketState::CA_EVENT_TX_START);
        }
        *shift = cc->GetEpochStart() - before;
        double cwnd = d.CwndSegments();
        d.Ack(2);
        Simulator::Destroy();
        return d.CwndSegments() - cwnd;
    }

    void DoRun() override
    {
        Time shift;
        double withEvent = GrowthAfterIdle(true, &shift);
        NS_TEST_EXPECT_MSG_EQ(shift, Seconds(5), "t_epoch moved by the idle time");
        Time none;
        double without = GrowthAfterIdle(false, &none);
        NS_TEST_EXPECT_MSG_EQ(none, Time(0), "no event, no shift");
        // Before the idle period one ACK of two grew cwnd by ~0.014 segments; counting the idle 5 s as
        // growth time would jump toward W_cubic(7.1 s).
        NS_TEST_EXPECT_MSG_LT(withEvent, 0.05, "growth continues where it stopped");
        NS_TEST_EXPECT_MSG_GT(without, 0.2, "without the shift the idle time would count");
    }
};

class SlowStartTestCase : public TestCase
{
  public:
    SlowStartTestCase()
        : TestCase("slow start counts acknowledged segments; ssthresh from flight size, at least 2")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpLinuxCubic> cc = MakeCubic();
        CubicDriver d(cc, 10, MilliSeconds(20));
        d.Tcb()->m_ssThresh = 13 * 1448;
        d.Ack(2);
        NS_TEST_EXPECT_MSG_EQ(d.Tcb()->m_cWnd.Get(), 12 * 1448u, "a delayed ACK of two grows cwnd by two");
        d.Ack(2);
        // One segment reaches ssthresh, the other is congestion avoidance of a first epoch with no loss
        // behind it: W_max = cwnd_epoch = cwnd_prior = 13, so alpha is already 1: W_est = 13 + 1/13.
        NS_TEST_EXPECT_MSG_EQ(cc->InEpoch(), true, "the leftover segment started an epoch");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetK(), 0.0, 1e-12, "K = 0");
        NS_TEST_EXPECT_MSG_EQ(d.Tcb()->m_cWnd.Get(), static_cast<uint32_t>(13 * 1448 + 1448.0 / 13),
                              "13 segments + 1/13 of one");

        CubicDriver small(MakeCubic(), 3, MilliSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(small.EnterRecovery(2), 2 * 1448u, "0.7 x 2 segments is raised to 2");
        CubicDriver limited(MakeCubic(), 100, MilliSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(limited.EnterRecovery(50), 35 * 1448u,
                              "flight size, not cwnd (100 segments) x beta");
        Simulator::Destroy();
    }
};

class AttributesTestCase : public TestCase
{
  public:
    AttributesTestCase()
        : TestCase("attributes: meaningless values refused, configuration forked, state not")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(TypeId::LookupByName("ns3::TcpLinuxCubic"), TcpLinuxCubic::GetTypeId(),
                              "selectable by name");
        NS_TEST_EXPECT_MSG_EQ_TOL(TcpLinuxCubic::RenoFriendlyAlpha(0.7), 0.9 / 1.7, 1e-15, "alpha_cubic");
        Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
        struct Bad
        {
            const char* name;
            Ptr<AttributeValue> value;
        };
        const Bad bad[] = {
            {"Beta", Create<DoubleValue>(0.0)},          {"Beta", Create<DoubleValue>(1.0)},
            {"Beta", Create<DoubleValue>(-0.3)},         {"C", Create<DoubleValue>(0.0)},
            {"C", Create<DoubleValue>(-0.4)},            {"TargetCap", Create<DoubleValue>(0.99)},
            {"MinSsThresh", Create<UintegerValue>(0)},   {"HyStartCssRounds", Create<UintegerValue>(0)},
            {"HyStartLimit", Create<UintegerValue>(0)},  {"HyStartMinRttDivisor", Create<UintegerValue>(0)},
            {"HyStartRttSamples", Create<UintegerValue>(0)}, {"HyStartCssGrowthDivisor", Create<UintegerValue>(0)},
            {"HyStartMinRttThresh", Create<TimeValue>(MilliSeconds(-1))},
        };
        for (const Bad& b : bad)
        {
            NS_TEST_EXPECT_MSG_EQ(cc->SetAttributeFailSafe(b.name, *b.value), false,
                                  b.name << " = " << b.value->SerializeToString(nullptr) << " accepted");
        }
        NS_TEST_EXPECT_MSG_EQ(cc->SetAttributeFailSafe("Beta", DoubleValue(0.5)), true, "beta 0.5");
        NS_TEST_EXPECT_MSG_EQ(cc->SetAttributeFailSafe("C", DoubleValue(0.8)), true, "C 0.8");

        CubicDriver d(cc, 100, MilliSeconds(20));
        d.Loss();
        NS_TEST_EXPECT_MSG_EQ(d.Tcb()->m_ssThresh.Get(), 50 * 1448u, "beta 0.5 used");
        Ptr<TcpLinuxCubic> fork = DynamicCast<TcpLinuxCubic>(cc->Fork());
        DoubleValue beta;
        fork->GetAttribute("Beta", beta);
        NS_TEST_EXPECT_MSG_EQ(beta.Get(), 0.5, "the fork keeps the configuration");
        NS_TEST_EXPECT_MSG_EQ(fork->GetWMax(), 0.0, "but not the parent's connection state");
        NS_TEST_EXPECT_MSG_EQ(fork->GetName(), "TcpLinuxCubic", "name");
        Simulator::Destroy();
    }
};

class LinuxCubicWindowTestSuite : public TestSuite
{
  public:
    LinuxCubicWindowTestSuite()
        : TestSuite("iwarp-linux-cubic-window", UNIT)
    {
        AddTestCase(new CubicRegionTestCase(), TestCase::QUICK);
        AddTestCase(new FastConvergenceTestCase(), TestCase::QUICK);
        AddTestCase(new RenoFriendlyTestCase(), TestCase::QUICK);
        AddTestCase(new TimeoutTestCase(), TestCase::QUICK);
        AddTestCase(new IdleTestCase(), TestCase::QUICK);
        AddTestCase(new SlowStartTestCase(), TestCase::QUICK);
        AddTestCase(new AttributesTestCase(), TestCase::QUICK);
    }
};

LinuxCubicWindowTestSuite g_linuxCubicWindowTestSuite;

} // namespace
