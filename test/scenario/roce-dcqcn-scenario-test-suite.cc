/*
 * iwarp-roce-dcqcn-scenario: DCQCN end to end in a scenario, the convergence Zhu et al. (SIGCOMM 2015) show:
 * two RoCEv2 Write streams share a 40 Gb/s bottleneck whose RED queue marks as the paper's switches do
 * (Kmin 5 KB, Kmax 200 KB, Pmax 1 %, the instantaneous queue), the second joining 2 ms after the first at the
 * line rate. With DCQCN (the default) both end with a fair share of the port at nearly its payload limit and
 * the queue never overflows; with CongestionControl None the same marks are ignored, the queue overflows, and
 * go-back-N leaves the first flow starved. Measured over [50 ms, 60 ms), with the numbers printed.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <iostream>
#include <string>

namespace ns3
{
namespace
{

/** Two flows, 40 Gb/s everywhere; `rnic` is the scenario's rnic map. */
std::string
TwoFlows(const std::string& rnic)
{
    return R"(stop: 62ms
topology:
  kind: dumbbell
  hosts-per-side: 2
  bottleneck:
    rate: 40Gbps
    delay: 1us
    queue: 1MB
    queue-disc: {kind: red, red: {min-th: 5KB, max-th: 200KB, max-p: 0.01}}
links: {rate: 40Gbps, delay: 1us}
measure: {from: 50ms, to: 60ms}
rnic: )" + rnic + R"(
workloads:
  - {name: f1, kind: stream, llp: rocev2, from: h0, to: h2, op: write, size: 64KiB, outstanding: 16, duration: 61ms}
  - {name: f2, kind: stream, llp: rocev2, from: h1, to: h3, op: write, size: 64KiB, outstanding: 16, duration: 59ms,
     start: 2ms}
)";
}

/** The left-to-right bottleneck port. */
const QueueResult&
Bottleneck(const RunResult& r)
{
    for (const QueueResult& q : r.queues)
    {
        if (q.node == "left" && q.peer == "right")
        {
            return q;
        }
    }
    NS_ABORT_MSG("no bottleneck port");
}

/** Jain's fairness index of two rates. */
double
Jain(double a, double b)
{
    return (a + b) * (a + b) / (2 * (a * a + b * b));
}

class ConvergenceTestCase : public TestCase
{
  public:
    ConvergenceTestCase()
        : TestCase("two flows on 40 Gbps: DCQCN converges to a fair share without loss; without it one starves")
    {
    }

  private:
    void DoRun() override
    {
        // 1024-octet payloads in 1070-octet frames (IPv4, UDP, BTH, ICRC, PPP): 38.28 Gb/s of payload at most.
        const double limit = 40e9 * 1024 / 1070;
        const RunResult on = RunYamlInTemp(TwoFlows("{}"), "roce-dcqcn", "on");
        const RunResult off = RunYamlInTemp(TwoFlows("{ns3::RoceTransport::CongestionControl: None}"), "roce-dcqcn",
                                            "off");
        for (const auto* run : {&on, &off})
        {
            const double g1 = NamedWorkload(*run, "f1").goodputWindowBps.value_or(0);
            const double g2 = NamedWorkload(*run, "f2").goodputWindowBps.value_or(0);
            const QueueResult& q = Bottleneck(*run);
            std::clog << "  " << (run == &on ? "DCQCN" : "none ") << ": f1 " << g1 / 1e9 << " Gb/s, f2 " << g2 / 1e9
                      << " Gb/s, Jain " << Jain(g1, g2) << "; bottleneck peak " << q.peakBytes << " B, "
                      << q.marked << " marked, " << q.dropped << " dropped\n";
        }
        const double g1 = NamedWorkload(on, "f1").goodputWindowBps.value_or(0);
        const double g2 = NamedWorkload(on, "f2").goodputWindowBps.value_or(0);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(Jain(g1, g2), 0.99, "a fair share: " << g1 << " and " << g2);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(std::min(g1, g2) / std::max(g1, g2), 0.8, "neither far behind");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(g1 + g2, 0.95 * limit, "the port nearly full");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(g1 + g2, limit, "never above the payload limit");
        NS_TEST_EXPECT_MSG_GT(Bottleneck(on).marked, 0u, "the bottleneck marked");
        NS_TEST_EXPECT_MSG_EQ(Bottleneck(on).dropped, 0u, "and dropped nothing");

        const double o1 = NamedWorkload(off, "f1").goodputWindowBps.value_or(0);
        const double o2 = NamedWorkload(off, "f2").goodputWindowBps.value_or(0);
        NS_TEST_EXPECT_MSG_GT(Bottleneck(off).dropped, 0u, "without DCQCN the queue overflows");
        NS_TEST_EXPECT_MSG_LT(Jain(o1, o2), 0.75, "and the share is far from fair: " << o1 << " and " << o2);
    }
};

class RoceDcqcnScenarioTestSuite : public TestSuite
{
  public:
    RoceDcqcnScenarioTestSuite()
        : TestSuite("iwarp-roce-dcqcn-scenario", UNIT)
    {
        AddTestCase(new ConvergenceTestCase, TestCase::QUICK);
    }
};

RoceDcqcnScenarioTestSuite g_roceDcqcnScenarioTestSuite;

} // namespace
} // namespace ns3
