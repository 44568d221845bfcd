/*
 * iwarp-traffic-workload: the `traffic` workload (doc/traffic.md, issue 28) run end to end: `count` flows in
 * all, each delivered and recorded with its receiver, over connections kept per host pair (one per pair used,
 * far fewer than flows); a permutation sends each host to one other; `duration` bounds when flows start; a
 * seed gives the same flows and another run other ones; a flow whose connection never comes up is counted as
 * not completed; bad keys are refused with what is wrong.
 */
#include "support/scenario-run-util.h"
#include "support/traffic-records.h"

#include "ns3/test.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-traffic-workload";

/** Four hosts on two leaves, 10 Gb/s; `workload` is the traffic entry's keys (kind traffic unless `kind`). */
std::string
Scenario(const std::string& workload, const std::string& extra = "", const std::string& kind = "traffic")
{
    return testing::FourHostLoad(kind, workload, extra);
}

class CountTestCase : public TestCase
{
  public:
    CountTestCase()
        : TestCase("count: every flow delivered, numbered once, over one connection per host pair used")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYamlInTemp(Scenario("load: 0.3, flow-sizes: hadoop, count: 200"), kSuite, "count");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), 1u, "one workload");
        const WorkloadResult& w = r.workloads[0];
        NS_TEST_EXPECT_MSG_EQ(w.messagesPosted, 200u, "count flows in all");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 200u, "every one delivered at its receiver");
        NS_TEST_EXPECT_MSG_EQ(w.octetsDelivered, w.octetsPosted, "every octet");
        std::set<uint64_t> ids;
        std::set<std::pair<std::string, std::string>> pairs;
        bool ownHost = false;
        bool fctFromArrival = true;
        for (const MessageRecord& m : r.messages)
        {
            ids.insert(m.id);
            pairs.emplace(m.sender, m.receiver);
            ownHost = ownHost || m.sender == m.receiver || m.receiver.empty() || m.receiver == "?";
            fctFromArrival = fctFromArrival && m.Fct() && *m.Fct() == *m.delivered - m.post;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(m.size, 10'000'000u, "within hadoop's sizes");
        }
        NS_TEST_EXPECT_MSG_EQ(ids.size(), 200u, "ids unique over the workload");
        NS_TEST_EXPECT_MSG_EQ(*ids.rbegin(), 199u, "numbered 0..count-1 in arrival order");
        NS_TEST_EXPECT_MSG_EQ(ownHost, false, "every flow to another, known host");
        NS_TEST_EXPECT_MSG_EQ(fctFromArrival, true, "FCT from the flow's arrival to its delivery");
        NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, pairs.size(), "one connection per ordered pair used");
        NS_TEST_EXPECT_MSG_EQ(w.connections.established, pairs.size(), "all of them up");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(pairs.size(), 12u, "at most the 4 x 3 ordered pairs");

        // The operating point: what was asked, and the load the hosts offered while flows started.
        NS_TEST_ASSERT_MSG_EQ(w.traffic.has_value(), true, "a traffic workload states its operating point");
        NS_TEST_EXPECT_MSG_EQ(*w.traffic->load, 0.3, "load");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->arrivals, "poisson", "arrivals");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->flowSizes, "hadoop", "flow sizes");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->pattern, "all-to-all", "pattern");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->hosts, 4u, "hosts");
        Time lastStart(0);
        double octets = 0;
        for (const MessageRecord& m : r.messages)
        {
            lastStart = std::max(lastStart, m.post);
            octets += double(m.size);
        }
        const double offered = octets * 8 / (lastStart.GetSeconds() * 4 * 10e9);
        NS_TEST_ASSERT_MSG_EQ(w.traffic->offeredLoad.has_value(), true, "measured");
        NS_TEST_EXPECT_MSG_EQ_TOL(*w.traffic->offeredLoad, offered, 1e-9 * offered,
                                  "the flows' octets over the time they started in and the four 10 Gb/s links");
        for (const CheckResult& c : r.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(c.pass, true, c.name << " (" << c.subject << ")");
        }
    }
};

class PermutationTestCase : public TestCase
{
  public:
    PermutationTestCase()
        : TestCase("permutation: each host sends to one other, and each receives from one")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario("pattern: permutation, load: 0.2, flow-sizes: hadoop, count: 60"), kSuite, "perm");
        std::map<std::string, std::set<std::string>> to;
        std::set<std::string> receivers;
        for (const MessageRecord& m : r.messages)
        {
            to[m.sender].insert(m.receiver);
            receivers.insert(m.receiver);
        }
        NS_TEST_EXPECT_MSG_EQ(to.size(), 4u, "every host sends");
        for (const auto& [sender, peers] : to)
        {
            NS_TEST_EXPECT_MSG_EQ(peers.size(), 1u, sender << " sends to one host only");
            NS_TEST_EXPECT_MSG_EQ(peers.count(sender), 0u, sender << " not to itself");
        }
        NS_TEST_EXPECT_MSG_EQ(receivers.size(), 4u, "every host receives");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].connections.attempted, 4u, "four connections for 60 flows");
    }
};

class DurationTestCase : public TestCase
{
  public:
    DurationTestCase()
        : TestCase("duration: flows start from `start` until start + duration, none after")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario("start: 1ms, duration: 2ms, load: 0.3, flow-sizes: hadoop, hosts: [h0, h1, h2]"), kSuite,
            "duration");
        NS_TEST_EXPECT_MSG_GT(r.messages.size(), 10u, "flows started");
        double octets = 0;
        for (const MessageRecord& m : r.messages)
        {
            octets += double(m.size);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(*r.workloads[0].traffic->offeredLoad, octets * 8 / (2e-3 * 3 * 10e9),
                                  1e-9, "over the duration and the three hosts' links");
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_EXPECT_MSG_GT(m.post, MilliSeconds(1), "after the start");
            NS_TEST_EXPECT_MSG_LT(m.post, MilliSeconds(3), "before start + duration");
            NS_TEST_EXPECT_MSG_NE(m.sender, "h3", "only the listed hosts send");
            NS_TEST_EXPECT_MSG_NE(m.receiver, "h3", "only the listed hosts receive");
        }
    }
};

class SeedTestCase : public TestCase
{
  public:
    SeedTestCase()
        : TestCase("a seed gives the same flows; another run, other flows")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml = Scenario("load: 0.3, flow-sizes: hadoop, count: 40");
        const std::vector<testing::FlowKey> a = testing::FlowKeys(RunYamlInTemp(yaml, kSuite, "seed-a"));
        const std::vector<testing::FlowKey> b = testing::FlowKeys(RunYamlInTemp(yaml, kSuite, "seed-b"));
        const std::vector<testing::FlowKey> c = testing::FlowKeys(RunYamlInTemp(yaml, kSuite, "seed-c", {"run=2"}));
        NS_TEST_EXPECT_MSG_EQ(a.size(), 40u, "forty flows");
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "same seed and run: the same arrivals, sizes and pairs");
        NS_TEST_EXPECT_MSG_EQ((a == c), false, "run 2: other flows");
    }
};

class NeverConnectedTestCase : public TestCase
{
  public:
    explicit NeverConnectedTestCase(std::string kind)
        : TestCase(kind + ": a flow whose connection never comes up is counted as not completed, never dropped"),
          m_kind(std::move(kind))
    {
    }

  private:
    void DoRun() override
    {
        // h3's link loses every packet: no connection to or from h3 comes up within the run.
        const RunResult r = RunYamlInTemp(Scenario("load: 0.2, flow-sizes: hadoop, count: 60",
                                                   "per-link:\n  - {between: [leaf1, h3], loss: 1}\n", m_kind),
                                          kSuite, "never-" + m_kind);
        const WorkloadResult& w = r.workloads.at(0);
        uint64_t toOrFromH3 = 0;
        for (const MessageRecord& m : r.messages)
        {
            const bool h3 = m.sender == "h3" || m.receiver == "h3";
            toOrFromH3 += h3 ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(m.delivered.has_value(), !h3, "flow " << m.id << " " << m.sender << ">" << m.receiver);
        }
        NS_TEST_ASSERT_MSG_GT(toOrFromH3, 0u, "some flows involve h3");
        NS_TEST_EXPECT_MSG_EQ(w.messagesPosted, 60u, "every flow is in the records");
        NS_TEST_EXPECT_MSG_EQ(w.messagesOutstanding + w.messagesFlushed, toOrFromH3, "those never delivered");
        NS_TEST_EXPECT_MSG_EQ(w.completed, false, "the workload did not complete");
        uint64_t notCompleted = 0;
        uint64_t flows = 0;
        for (const SlowdownBucket& b : *w.slowdown)
        {
            notCompleted += b.notCompleted;
            flows += b.flows;
        }
        NS_TEST_EXPECT_MSG_EQ(flows, 60u, "every flow in a slowdown bucket");
        NS_TEST_EXPECT_MSG_EQ(notCompleted, toOrFromH3, "counted beside the percentiles");
    }

    std::string m_kind;
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: load outside (0, 1], one host, an unknown distribution, a bad CDF file, no count")
    {
    }

  private:
    void DoRun() override
    {
        auto has = [](const std::string& keys, const std::string& part) {
            const std::string e = ErrorOf(Scenario(keys));
            return e.find(part) != std::string::npos ? std::string() : e.empty() ? std::string("(no error)") : e;
        };
        NS_TEST_EXPECT_MSG_EQ(has("load: 0, flow-sizes: hadoop, count: 5", "load 0 is not in (0, 1]"), "", "zero");
        NS_TEST_EXPECT_MSG_EQ(has("load: 1.2, flow-sizes: hadoop, count: 5", "load 1.2 is not in (0, 1]"), "",
                              "overload");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: hadoop, count: 5, hosts: [h0]", "at least two hosts"), "",
                              "one host");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: hadoop, count: 5, hosts: [h0, h0]", "listed twice"), "",
                              "a host twice");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: websearch, count: 5",
                                  "'websearch' is no built-in distribution (web-search, data-mining, hadoop)"),
                              "", "unknown distribution");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: hadoop", "missing required key 'count' (or 'duration')"),
                              "", "neither count nor duration");
        NS_TEST_EXPECT_MSG_EQ(has("flow-sizes: hadoop, count: 5", "load"), "", "no load");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: hadoop, count: 10000001", "10000000"), "", "too many");
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, flow-sizes: hadoop, count: 5, to: h1", "does not apply"), "",
                              "no `to`: every host is both ends");

        const std::filesystem::path cdf = std::filesystem::temp_directory_path() / "iwarp-traffic-bad.cdf";
        {
            std::ofstream out(cdf);
            out << "0 0\n1000 0.7\n500 1\n";
        }
        NS_TEST_EXPECT_MSG_EQ(has("load: 0.5, count: 5, flow-sizes: " + cdf.string(),
                                  cdf.string() + ":3: sizes must increase"),
                              "", "a CDF file that is no CDF, with its line");
        std::filesystem::remove(cdf);

        const std::string series = "tracing: {series: {interval: 1ms, what: [goodput], flows: [load]}}\n";
        NS_TEST_EXPECT_MSG_NE(ErrorOf(Scenario("load: 0.5, flow-sizes: hadoop, count: 5", series))
                                  .find("not sampled per flow"),
                              std::string::npos, "a traffic load is not sampled per flow");
    }
};

class TrafficWorkloadTestSuite : public TestSuite
{
  public:
    TrafficWorkloadTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new CountTestCase, TestCase::QUICK);
        AddTestCase(new PermutationTestCase, TestCase::QUICK);
        AddTestCase(new DurationTestCase, TestCase::QUICK);
        AddTestCase(new SeedTestCase, TestCase::QUICK);
        AddTestCase(new NeverConnectedTestCase("traffic"), TestCase::QUICK);
        AddTestCase(new NeverConnectedTestCase("sockets-traffic"), TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
    }
};

TrafficWorkloadTestSuite g_trafficWorkloadTestSuite;

} // namespace
} // namespace ns3
