/*
 * iwarp-stall-metrics: longest_stall_ns (doc/metrics.md), the longest time a workload had messages outstanding
 * while nothing arrived at its sink. Issue 28 reported a stream that stalled for 250 ms behind a goodput of
 * 9.45 Gb/s, which nothing in the results showed; the records below stall in the middle and at the end, and
 * the figure names the longer. Then a healthy run: its longest stall is its set-up and first octet.
 */
#include "helper/scenario/workload-metrics.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <vector>

namespace ns3
{
namespace
{

MessageRecord
Write(Time post, std::optional<Time> firstPlaced, std::optional<Time> delivered)
{
    MessageRecord m;
    m.workload = "w";
    m.op = "write";
    m.size = 1000;
    m.sender = "h0";
    m.post = post;
    m.firstPlaced = firstPlaced;
    m.delivered = delivered;
    return m;
}

class RecordsTestCase : public TestCase
{
  public:
    RecordsTestCase()
        : TestCase("outstanding and nothing arriving: the longest stretch, in the middle or at the end")
    {
    }

  private:
    void DoRun() override
    {
        // m1 arrives over [10, 20] us; m2 arrives only over [270, 280] us, 250 us later; m3, posted at 100 us,
        // is still outstanding at the end.
        const std::vector<MessageRecord> records = {
            Write(Time(0), MicroSeconds(10), MicroSeconds(20)),
            Write(Time(0), MicroSeconds(270), MicroSeconds(280)),
            Write(MicroSeconds(100), std::nullopt, std::nullopt)};
        NS_TEST_EXPECT_MSG_EQ(LongestStall(records, MicroSeconds(300)), MicroSeconds(250), "the 250 us gap");
        NS_TEST_EXPECT_MSG_EQ(LongestStall(records, MicroSeconds(600)), MicroSeconds(320),
                              "m3 outstanding from 280 us to an end at 600 us: a longer stall at the end");

        WorkloadResult r;
        WorkloadMetricsInput in;
        in.end = MicroSeconds(300);
        SummarizeMessages(records, in, r);
        NS_TEST_ASSERT_MSG_EQ(r.longestStall.has_value(), true, "a stream's longest stall is reported");
        NS_TEST_EXPECT_MSG_EQ(*r.longestStall, MicroSeconds(250), "the same figure in the results");

        // A flushed message stops being outstanding at its (failed) completion.
        MessageRecord flushed = Write(MicroSeconds(100), std::nullopt, std::nullopt);
        flushed.failed = true;
        flushed.completed = MicroSeconds(290);
        NS_TEST_EXPECT_MSG_EQ(LongestStall({records[0], records[1], flushed}, MicroSeconds(600)), MicroSeconds(250),
                              "outstanding until its flush at 290 us, not to the end");

        // Single-segment messages are placed and delivered in one instant: each arrival still ends a stall
        // (regression: their spans have no length, and a stream of them read as one long stall).
        NS_TEST_EXPECT_MSG_EQ(LongestStall({Write(Time(0), MicroSeconds(10), MicroSeconds(10)),
                                            Write(Time(0), MicroSeconds(20), MicroSeconds(20))},
                                           MicroSeconds(20)),
                              MicroSeconds(10), "the gap before each instant arrival, not their sum");

        // Nothing outstanding: no stall, however long the idle time around the messages.
        NS_TEST_EXPECT_MSG_EQ(LongestStall({Write(MicroSeconds(50), MicroSeconds(50), MicroSeconds(60))},
                                           MilliSeconds(10)),
                              Time(0), "idle is no stall");

        // A ping-pong's figure is its latency per size: no stall is reported for it.
        WorkloadResult pp;
        in.pingPong = true;
        SummarizeMessages(records, in, pp);
        NS_TEST_EXPECT_MSG_EQ(pp.longestStall.has_value(), false, "none for ping-pong kinds");
    }
};

class HealthyRunTestCase : public TestCase
{
  public:
    HealthyRunTestCase()
        : TestCase("a healthy stream's longest stall is its set-up and first octet: a few percent of its run")
    {
    }

  private:
    void DoRun() override
    {
        // Large messages, and single-segment ones (placed and delivered in one instant), 4 in flight.
        for (const char* sized : {"size: 64KiB, count: 60", "size: 1KiB, count: 2000"})
        {
            const RunResult r = RunYamlInTemp("stop: 5ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 2us}\n"
                                              "workloads:\n  - {kind: stream, from: h0, to: h1, " +
                                                  std::string(sized) + ", outstanding: 4}\n",
                                              "stall-metrics",
                                              "healthy");
            const WorkloadResult& w = r.workloads.at(0);
            NS_TEST_ASSERT_MSG_EQ(w.completed, true, sized << ": every message delivered");
            NS_TEST_ASSERT_MSG_EQ(w.longestStall.has_value(), true, sized << ": a longest stall");
            const Time span = *w.lastDelivery - *w.firstPost;
            std::clog << "  " << sized << ": longest stall " << w.longestStall->As(Time::US) << " of "
                      << span.As(Time::US) << "\n";
            NS_TEST_EXPECT_MSG_GT(*w.longestStall, Time(0), sized << ": the first octet's latency at least");
            NS_TEST_EXPECT_MSG_LT(*w.longestStall, span / 20, sized << ": under 5 % of the stream's span");
        }
    }
};

class StallMetricsTestSuite : public TestSuite
{
  public:
    StallMetricsTestSuite()
        : TestSuite("iwarp-stall-metrics", UNIT)
    {
        AddTestCase(new RecordsTestCase, TestCase::QUICK);
        AddTestCase(new HealthyRunTestCase, TestCase::QUICK);
    }
};

StallMetricsTestSuite g_stallMetricsTestSuite;

} // namespace
} // namespace ns3
