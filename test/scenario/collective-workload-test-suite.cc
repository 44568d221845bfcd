/*
 * iwarp-collective-workload: the `collective` workload (doc/collectives.md, issue 28) run end to end. A ring
 * all-reduce on an idle switch completes within 5 % of its ideal, which is at least the textbook bound, and
 * every step is posted the instant the data it depends on arrives; iterations begin a gap after the first rank
 * ends the one before; every algorithm completes with the messages its schedule has; a slow link shows as the
 * straggler in the per-rank step times; a rank that never connects leaves the collective unstarted and says so;
 * bad keys are refused with what is wrong.
 */
#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-collective-workload";
constexpr double kRateBps = 25e9;
constexpr uint32_t kRanks = 8;

/** Eight hosts on one switch at 25 Gb/s; `workload` is the collective entry's keys. */
std::string
Scenario(const std::string& workload, const std::string& extra = "")
{
    return "stop: 100ms\n" + extra +
           "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 8}\n"
           "links: {rate: 25Gbps, delay: 1us}\n"
           "workloads:\n"
           "  - {name: coll, kind: collective, " +
           workload + "}\n";
}

const CollectiveResult&
CollectiveOf(TestCase* tc, const RunResult& r)
{
    NS_ABORT_MSG_UNLESS(r.workloads.size() == 1 && r.workloads[0].collective, tc->GetName() << ": no collective");
    return *r.workloads[0].collective;
}

/** (iteration, rank, step) -> its record. */
std::map<std::tuple<uint32_t, uint32_t, uint32_t>, CollectiveStepRecord>
StepsOf(const CollectiveResult& c)
{
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, CollectiveStepRecord> out;
    for (const CollectiveStepRecord& s : c.steps)
    {
        out[{s.iteration, s.rank, s.step}] = s;
    }
    return out;
}

class IdleRingTestCase : public TestCase
{
  public:
    IdleRingTestCase()
        : TestCase("ring all-reduce on an idle switch: within 5 % of its ideal, each step posted on arrival")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t size = 4 << 20;
        const RunResult r = RunYamlInTemp(Scenario("algorithm: ring-allreduce, size: 4MiB, iterations: 3"), kSuite,
                                          "idle-ring");
        const WorkloadResult& w = r.workloads.at(0);
        const CollectiveResult& c = CollectiveOf(this, r);
        const uint32_t steps = 2 * (kRanks - 1);
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, uint64_t(kRanks) * steps * 3, "N x 2(N-1) Sends per iteration");
        NS_TEST_EXPECT_MSG_EQ(w.completed, true, "completed");
        NS_TEST_EXPECT_MSG_EQ(c.ranksReady, kRanks, "every rank connected");
        NS_TEST_ASSERT_MSG_EQ(c.ideal.has_value(), true, "an ideal");
        // The ideal carries the headers the textbook's 2 (N-1)/N x size / rate leaves out, and 14 latencies.
        const double bound = 2.0 * (kRanks - 1) / kRanks * double(size) * 8 / kRateBps;
        NS_TEST_EXPECT_MSG_GT(c.ideal->GetSeconds(), bound, "above the bandwidth term");
        NS_TEST_EXPECT_MSG_LT(c.ideal->GetSeconds(), bound * 1.08 + steps * 20e-6, "headers and latencies only");
        NS_TEST_ASSERT_MSG_EQ(c.started.size(), 3u, "three iterations");
        for (const CollectiveIteration& i : c.started)
        {
            NS_TEST_ASSERT_MSG_EQ(i.End().has_value(), true, "iteration " << i.iteration << " ended");
            const double t = (*i.End() - i.begun).GetSeconds();
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t, c.ideal->GetSeconds(), "never faster than ideal");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t, c.ideal->GetSeconds() * 1.05, "iteration " << i.iteration);
        }
        // Each step after the first is posted the instant the step before has arrived, and not before.
        const auto stepsOf = StepsOf(c);
        NS_TEST_EXPECT_MSG_EQ(stepsOf.size(), std::size_t(3) * kRanks * steps, "a record per rank and step");
        for (const auto& [key, s] : stepsOf)
        {
            NS_TEST_ASSERT_MSG_EQ((s.posted.has_value() && s.done.has_value()), true, "posted and done");
            if (s.step > 0)
            {
                const auto before = stepsOf.at({s.iteration, s.rank, s.step - 1});
                NS_TEST_EXPECT_MSG_EQ(*s.posted, *before.done, "rank " << s.rank << " step " << s.step);
            }
        }
        const double busBw = double(size) * 8 / (c.CompletionNs().mean * 1e-9) * 2 * (kRanks - 1) / kRanks;
        NS_TEST_EXPECT_MSG_EQ_TOL(*c.BusBandwidthBps(), busBw, busBw * 1e-12, "nccl-tests' bus bandwidth");
        NS_TEST_EXPECT_MSG_LT(busBw, kRateBps, "below the link rate");
        for (const CheckResult& check : r.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(check.pass, true, check.name << " (" << check.subject << ")");
        }
    }
};

class GapTestCase : public TestCase
{
  public:
    GapTestCase()
        : TestCase("iterations: each begins `gap` after the first rank ends the one before")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario("algorithm: allgather, size: 256KiB, iterations: 4, gap: 50us, start: 1ms"), kSuite, "gap");
        const CollectiveResult& c = CollectiveOf(this, r);
        NS_TEST_ASSERT_MSG_EQ(c.started.size(), 4u, "four iterations");
        NS_TEST_EXPECT_MSG_GT(c.started[0].begun, MilliSeconds(1), "the first once every rank is connected");
        const auto steps = StepsOf(c);
        for (uint32_t i = 1; i < 4; ++i)
        {
            const auto& before = c.started[i - 1].rankEnd;
            const Time firstEnd = **std::min_element(before.begin(), before.end());
            NS_TEST_EXPECT_MSG_EQ(c.started[i].begun, firstEnd + MicroSeconds(50), "iteration " << i);
            for (uint32_t rank = 0; rank < kRanks; ++rank)
            {
                NS_TEST_EXPECT_MSG_EQ(*steps.at({i, rank, 0}).posted, *before[rank] + MicroSeconds(50),
                                      "rank " << rank << " posts its first step a gap after its own end");
            }
        }
    }
};

class AlgorithmsTestCase : public TestCase
{
  public:
    AlgorithmsTestCase()
        : TestCase("every algorithm completes with its schedule's messages, never faster than its ideal")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t size = 1 << 20;
        for (CollectiveAlgorithm a : CollectiveAlgorithms())
        {
            const std::string name = ToString(a);
            const RunResult r =
                RunYamlInTemp(Scenario("algorithm: " + name + ", size: 1MiB, iterations: 2"), kSuite, name);
            const CollectiveSchedule s = MakeCollectiveSchedule(a, kRanks, size);
            uint64_t sends = 0;
            uint64_t octets = 0;
            for (const RankProgram& p : s.programs)
            {
                sends += p.sends.size();
                for (const CollectiveSend& m : p.sends)
                {
                    octets += m.octets;
                }
            }
            const WorkloadResult& w = r.workloads.at(0);
            const CollectiveResult& c = CollectiveOf(this, r);
            NS_TEST_EXPECT_MSG_EQ(c.algorithm, name, "its name");
            NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 2 * sends, name);
            NS_TEST_EXPECT_MSG_EQ(w.octetsDelivered, 2 * octets, name);
            NS_TEST_EXPECT_MSG_EQ(w.completed, true, name);
            NS_TEST_EXPECT_MSG_EQ(c.busFactor, s.BusFactor(), name);
            NS_TEST_ASSERT_MSG_EQ(c.ideal.has_value(), true, name);
            NS_TEST_EXPECT_MSG_EQ(c.CompletionNs().count, 2u, name);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(c.CompletionNs().min, double(c.ideal->GetNanoSeconds()), name);
        }
    }
};

class StragglerTestCase : public TestCase
{
  public:
    StragglerTestCase()
        : TestCase("a slow link: its rank ends last and its steps take longest")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYamlInTemp(Scenario("algorithm: ring-allreduce, size: 4MiB",
                                   "per-link:\n  - {between: [leaf0, h5], rate: 5Gbps}\n"),
                          kSuite, "straggler");
        const CollectiveResult& c = CollectiveOf(this, r);
        NS_TEST_ASSERT_MSG_EQ(c.started.size(), 1u, "one iteration");
        const auto& ends = c.started[0].rankEnd;
        const auto last = std::max_element(ends.begin(), ends.end()) - ends.begin();
        NS_TEST_EXPECT_MSG_EQ(c.ranks.at(last), "h5", "the rank behind the slow link ends last");
        // Step 0: rank 5 receives over h5's slow downlink, rank 6 from h5 over its slow uplink; the rest at 25 Gb/s.
        const auto steps = StepsOf(c);
        auto took = [&steps](uint32_t rank) {
            const CollectiveStepRecord& s = steps.at({0, rank, 0});
            return (*s.done - *s.posted).GetSeconds();
        };
        for (uint32_t rank = 0; rank < kRanks; ++rank)
        {
            if (rank != 5 && rank != 6)
            {
                NS_TEST_EXPECT_MSG_GT(took(5), 3 * took(rank), "rank 5 against rank " << rank);
                NS_TEST_EXPECT_MSG_GT(took(6), 3 * took(rank), "rank 6 against rank " << rank);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(c.ideal.has_value(), true, "an ideal");
        NS_TEST_EXPECT_MSG_GT(c.ideal->GetSeconds(), 2.0 * (kRanks - 1) / kRanks * (4 << 20) * 8 / 5e9,
                              "the ideal runs at the slow link's rate");
    }
};

class NeverConnectedTestCase : public TestCase
{
  public:
    NeverConnectedTestCase()
        : TestCase("a rank that never connects: no iteration begins, and the result says so")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(Scenario("algorithm: ring-allreduce, size: 1MiB",
                                                   "per-link:\n  - {between: [leaf0, h3], loss: 1}\n"),
                                          kSuite, "never");
        const WorkloadResult& w = r.workloads.at(0);
        const CollectiveResult& c = CollectiveOf(this, r);
        NS_TEST_EXPECT_MSG_LT(c.ranksReady, kRanks, "not every rank connected");
        NS_TEST_EXPECT_MSG_EQ(c.started.size(), 0u, "no iteration began");
        NS_TEST_EXPECT_MSG_EQ(c.CompletionNs().count, 0u, "no completion time");
        NS_TEST_EXPECT_MSG_EQ(c.BusBandwidthBps().has_value(), false, "no bandwidth");
        NS_TEST_EXPECT_MSG_EQ(c.ideal.has_value(), false, "no ideal without the connections it needs");
        NS_TEST_EXPECT_MSG_EQ(w.completed, false, "not completed");
    }
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: halving-doubling over 6 ranks, a chunk left empty, an unknown algorithm, no iterations")
    {
    }

  private:
    void DoRun() override
    {
        auto has = [](const std::string& keys, const std::string& part) {
            const std::string e = ErrorOf(Scenario(keys));
            return e.find(part) != std::string::npos ? std::string() : e.empty() ? std::string("(no error)") : e;
        };
        NS_TEST_EXPECT_MSG_EQ(has("algorithm: halving-doubling-allreduce, hosts: [h0, h1, h2, h3, h4, h5]",
                                  "power-of-two rank count, not 6"),
                              "", "six ranks");
        NS_TEST_EXPECT_MSG_EQ(has("size: 4", "leaves a chunk empty"), "", "4 octets over 8 ranks");
        NS_TEST_EXPECT_MSG_EQ(has("algorithm: tree", "ring-allreduce"), "", "the names are listed");
        NS_TEST_EXPECT_MSG_EQ(has("iterations: 0", "workloads.0.iterations: iterations must be at least 1"), "",
                              "no iterations");
        NS_TEST_EXPECT_MSG_EQ(has("hosts: [h0]", "at least two hosts"), "", "one rank");
        NS_TEST_EXPECT_MSG_EQ(has("to: h1", "does not apply"), "", "no `to`: every rank is both ends");
        NS_TEST_EXPECT_MSG_EQ(has("op: write", "key 'op' does not apply to workload kind 'collective'"), "",
                              "Sends only: a rank must see its data arrive");
    }
};

class CollectiveWorkloadTestSuite : public TestSuite
{
  public:
    CollectiveWorkloadTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new IdleRingTestCase, TestCase::QUICK);
        AddTestCase(new GapTestCase, TestCase::QUICK);
        AddTestCase(new AlgorithmsTestCase, TestCase::QUICK);
        AddTestCase(new StragglerTestCase, TestCase::QUICK);
        AddTestCase(new NeverConnectedTestCase, TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
    }
};

CollectiveWorkloadTestSuite g_collectiveWorkloadTestSuite;

} // namespace
} // namespace ns3
