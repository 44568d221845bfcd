/*
 * iwarp-workload-after: the `after` key (doc/scenario-format.md, issue 28), a workload that starts when others
 * have completed. A chain across kinds (sockets stream, Read, traffic load, collective, ping-pong) starts each
 * link `start` after the instant the last of those it waits for completed, by the one definition of
 * `completed` (doc/metrics.md); a workload ended by `duration` completes when its last message arrives after
 * posting ended; one that never completes holds its dependents back, which the results say; bad lists are
 * refused (an unknown name, itself, twice, a cycle, named in the message), and so is an injection into a
 * workload that waits.
 */
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <algorithm>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-workload-after";

std::string
Scenario(const std::string& workloads, const std::string& extra = "")
{
    return "stop: 50ms\n" + extra +
           "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 4}\n"
           "links: {rate: 10Gbps, delay: 1us}\n"
           "workloads:\n" +
           workloads;
}

class ChainTestCase : public TestCase
{
  public:
    ChainTestCase()
        : TestCase("a chain across kinds: each starts `start` after the last it waits for completed")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario("  - {name: sock, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 5, start: 1ms}\n"
                     "  - {name: rd, kind: read, from: h2, to: h3, size: 64KiB, count: 5, after: [sock]}\n"
                     "  - {name: load, kind: traffic, load: 0.2, flow-sizes: hadoop, count: 20, after: [rd], "
                     "start: 20us}\n"
                     "  - {name: ar, kind: collective, size: 1MiB, after: [sock, load]}\n"
                     "  - {name: pp, kind: ping-pong, from: h0, to: h3, size: 64, count: 3, after: [ar]}\n"
                     "  - {name: tail, kind: incast, senders: [h1, h2], to: h0, op: send, size: 4KiB, count: 2, "
                     "after: [pp], start: 5us}\n"),
            kSuite, "chain");
        const WorkloadResult& sock = NamedWorkload(r, "sock");
        NS_TEST_ASSERT_MSG_EQ(sock.start.has_value(), true, "started");
        NS_TEST_EXPECT_MSG_EQ(*sock.start, MilliSeconds(1), "without `after`: at `start`");
        const std::vector<std::pair<std::string, std::pair<std::vector<std::string>, Time>>> chain = {
            {"rd", {{"sock"}, Time(0)}},
            {"load", {{"rd"}, MicroSeconds(20)}},
            {"ar", {{"sock", "load"}, Time(0)}},
            {"pp", {{"ar"}, Time(0)}},
            {"tail", {{"pp"}, MicroSeconds(5)}}};
        for (const auto& [name, waits] : chain)
        {
            const WorkloadResult& w = NamedWorkload(r, name);
            NS_TEST_EXPECT_MSG_EQ((w.after == waits.first), true, name << " lists what it waits for");
            Time last(0);
            for (const std::string& before : waits.first)
            {
                const WorkloadResult& b = NamedWorkload(r, before);
                NS_TEST_ASSERT_MSG_EQ((b.completed && b.completedAt.has_value()), true, before << " completed");
                // Completed at its last delivery (a ping-pong: its last round trip back, after it), not before.
                if (b.pingPong)
                {
                    NS_TEST_EXPECT_MSG_GT(*b.completedAt, *b.lastDelivery, before << ": the pong came back after");
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(*b.completedAt, *b.lastDelivery, before << " completed at its last delivery");
                }
                last = std::max(last, *b.completedAt);
            }
            NS_TEST_ASSERT_MSG_EQ(w.start.has_value(), true, name << " started");
            NS_TEST_EXPECT_MSG_EQ(*w.start, last + waits.second, name << ": `start` after the last completed");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*w.firstPost, *w.start, name << " posts nothing before its start");
            // And soon after it (its connection set up first): not a start counted twice from now. A load's
            // first flow comes a Poisson gap later.
            if (name != "load")
            {
                NS_TEST_EXPECT_MSG_LT(*w.firstPost - *w.start, MicroSeconds(100), name << " posts right after start");
            }
            NS_TEST_EXPECT_MSG_EQ(w.completed, true, name << " completed in turn");
        }
        for (const CheckResult& c : r.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(c.pass, true, c.name << " (" << c.subject << ")");
        }
    }
};

class DurationTestCase : public TestCase
{
  public:
    DurationTestCase()
        : TestCase("after a `duration` stream: once posting ended and its last message arrived")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario("  - {name: bulk, kind: stream, from: h0, to: h1, size: 64KiB, duration: 2ms, outstanding: 4}\n"
                     "  - {name: next, kind: stream, from: h1, to: h0, size: 4KiB, count: 3, after: [bulk]}\n"),
            kSuite, "duration");
        const WorkloadResult& bulk = NamedWorkload(r, "bulk");
        const WorkloadResult& next = NamedWorkload(r, "next");
        NS_TEST_ASSERT_MSG_EQ(bulk.completedAt.has_value(), true, "the bulk stream completed");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(*bulk.completedAt, MilliSeconds(2), "not before its posting ended");
        NS_TEST_EXPECT_MSG_EQ(*bulk.completedAt, *bulk.lastDelivery, "at its last delivery");
        NS_TEST_ASSERT_MSG_EQ(next.start.has_value(), true, "started");
        NS_TEST_EXPECT_MSG_EQ(*next.start, *bulk.completedAt, "then");
        NS_TEST_EXPECT_MSG_EQ(next.messagesDelivered, 3u, "and ran");
    }
};

class NeverTestCase : public TestCase
{
  public:
    NeverTestCase()
        : TestCase("a workload that never completes holds back what waits for it, and the results say so")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(
            Scenario("  - {name: lost, kind: stream, from: h0, to: h3, size: 4KiB, count: 5}\n"
                     "  - {name: later, kind: stream, from: h1, to: h2, size: 4KiB, count: 5, after: [lost]}\n",
                     "per-link:\n  - {between: [leaf0, h3], loss: 1}\n"),
            {}, "never.yaml");
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() /
            ("iwarp-" + std::string(kSuite) + "-" + std::to_string(::getpid()) + "-never");
        const ScenarioOutcome o = RunInto(cfg, dir.string());
        std::filesystem::remove_all(dir);
        const WorkloadResult& later = NamedWorkload(o.result, "later");
        NS_TEST_EXPECT_MSG_EQ(NamedWorkload(o.result, "lost").completed, false, "the lost stream never completes");
        NS_TEST_EXPECT_MSG_EQ(later.start.has_value(), false, "so the later one never starts");
        NS_TEST_EXPECT_MSG_EQ(later.messagesPosted, 0u, "nothing posted");
        NS_TEST_EXPECT_MSG_EQ(later.completed, false, "not completed");
        NS_TEST_EXPECT_MSG_NE(SummarizeRun(o).find("later (stream write): 0/0 messages delivered, never started "
                                                   "(waits for lost to complete), not completed"),
                              std::string::npos, "the run's summary line says why");
    }
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: an unknown workload, itself, one listed twice, a cycle, an empty list")
    {
    }

  private:
    void DoRun() override
    {
        auto has = [](const std::string& workloads, const std::string& part) {
            const std::string e = ErrorOf(Scenario(workloads));
            return e.find(part) != std::string::npos ? std::string() : e.empty() ? std::string("(no error)") : e;
        };
        const std::string a = "  - {name: a, kind: stream, from: h0, to: h1, count: 1";
        const std::string b = "  - {name: b, kind: stream, from: h1, to: h2, count: 1";
        NS_TEST_EXPECT_MSG_EQ(has(a + ", after: [z]}\n", "workloads.0.after.0: no workload 'z'"), "", "unknown");
        NS_TEST_EXPECT_MSG_EQ(has(a + ", after: [a]}\n", "cannot wait for itself"), "", "itself");
        NS_TEST_EXPECT_MSG_EQ(has(a + "}\n" + b + ", after: [a, 0]}\n", "workloads.1.after.1: workload 'a' is listed "
                                                                        "twice"),
                              "", "by name and by index");
        NS_TEST_EXPECT_MSG_EQ(has(a + ", after: [b]}\n" + b + ", after: [a]}\n",
                                  "the workloads wait for each other in a cycle: a -> b -> a"),
                              "", "a cycle, named");
        NS_TEST_EXPECT_MSG_EQ(has(a + ", after: []}\n", "after needs at least one workload"), "", "empty");
        NS_TEST_EXPECT_MSG_EQ(has(a + "}\n" + b + ", after: [a]}\n"
                                  "  - {kind: inject, target: b, from: h1, to: h2, at: 1ms, hex: '00'}\n",
                                  "workload 'b' starts after other workloads (`after`): an injection at a fixed time "
                                  "cannot know its connection is up"),
                              "", "an injection into a workload that waits");
    }
};

class WorkloadAfterTestSuite : public TestSuite
{
  public:
    WorkloadAfterTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new ChainTestCase, TestCase::QUICK);
        AddTestCase(new DurationTestCase, TestCase::QUICK);
        AddTestCase(new NeverTestCase, TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
    }
};

WorkloadAfterTestSuite g_workloadAfterTestSuite;

} // namespace
} // namespace ns3
