/*
 * iwarp-scenario-ports: where workloads listen, and how a connection is traced back to its
 * workload (listening-ports.h).  Reproduced on e5feb9a before the fix:
 *
 *  - workload i listened on 20000 + 100 i in a uint16_t: from workload 456 on the port wrapped
 *    (to 64, ...), and those workloads never connected (700 Write streams between two hosts: 456
 *    delivered, 244 outstanding at stop, no error);
 *  - a connection's workload was found by dividing its local port by 100, so from 292 workloads
 *    on, a client's ephemeral port (49152 and up) was taken for a listening port: all 700
 *    workloads reported "1 of 1 connections not established", also those that delivered;
 *  - a ping-pong with more than 100 sizes (the loader accepts 1024) listened on the next
 *    workload's port: "already listening on port 20100", an abort.
 */
#include "helper/scenario/listening-ports.h"
#include "helper/scenario/scenario-config.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <sstream>


namespace ns3
{
namespace
{

const std::string kTwoHosts = "stop: 20ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 2us}\n"
                              "workloads:\n";

/** Run `yaml` into a temporary folder (removed again), keeping the result. */
RunResult
RunYaml(const std::string& yaml, const std::string& tag)
{
    return RunYamlInTemp(yaml, "ports", tag);
}

std::string
PingPongSizes(std::size_t n)
{
    std::ostringstream s;
    for (std::size_t i = 0; i < n; ++i)
    {
        s << (i ? ", " : "") << 8 + i;
    }
    return s.str();
}

class PlanTestCase : public TestCase
{
  public:
    PlanTestCase()
        : TestCase("ports are given out per serving node: one per workload, one per ping-pong size, none for inject")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg =
            LoadScenarioString("stop: 10ms\ntopology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 3}\n"
                               "workloads:\n"
                               "  - {name: a, kind: stream, from: h0, to: h1, count: 1}\n"
                               "  - {name: b, kind: ping-pong, from: h0, to: h1, sizes: [8, 16, 32], count: 1}\n"
                               "  - {name: c, kind: sockets-stream, from: h0, to: h2, count: 1}\n"
                               "  - {name: d, kind: read, from: h2, to: h1, count: 1}\n",
                               {},
                               "plan.yaml");
        const ListeningPortPlan plan = PlanListeningPorts(cfg.workloads);
        NS_TEST_EXPECT_MSG_EQ(plan.overflowAt.has_value(), false, "no overflow");
        NS_TEST_EXPECT_MSG_EQ(plan.firstPort.at(0), kFirstListeningPort, "first on h1");
        NS_TEST_EXPECT_MSG_EQ(plan.firstPort.at(1), kFirstListeningPort + 1, "after a's one port");
        NS_TEST_EXPECT_MSG_EQ(plan.firstPort.at(2), kFirstListeningPort, "h2 counts on its own");
        NS_TEST_EXPECT_MSG_EQ(plan.firstPort.at(3), kFirstListeningPort + 4, "after b's three sizes");
        NS_TEST_EXPECT_MSG_LT(kLastListeningPort, 49152, "below ns-3's ephemeral ports");
    }
};

class TooManyPortsTestCase : public TestCase
{
  public:
    TooManyPortsTestCase()
        : TestCase("a node that would need more listening ports than 20000-49151 is a load error naming the workload")
    {
    }

  private:
    void DoRun() override
    {
        // 29 ping-pongs of 1024 sizes (the most a sweep may list) to h1: 29696 ports > 29152.
        std::string yaml = kTwoHosts;
        for (int i = 0; i < 29; ++i)
        {
            yaml += "  - {name: p" + std::to_string(i) + ", kind: ping-pong, from: h0, to: h1, count: 1, sizes: [" +
                    PingPongSizes(1024) + "]}\n";
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(yaml),
                              "s.yaml:33:5: workloads.28: node h1 would listen on 29696 ports with this workload; "
                              "29152 are available (20000-49151: one per workload served there, one per size of a "
                              "ping-pong)",
                              "refused at load");
        // The same ports spread over both hosts fit.
        std::string spread = kTwoHosts;
        for (int i = 0; i < 29; ++i)
        {
            spread += std::string("  - {kind: ping-pong, count: 1, ") + (i % 2 ? "from: h0, to: h1" : "from: h1, to: h0") +
                      ", sizes: [" + PingPongSizes(1024) + "]}\n";
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(spread), "", "15 and 14 sweeps per node fit");
    }
};

class ManyWorkloadsTestCase : public TestCase
{
  public:
    ManyWorkloadsTestCase()
        : TestCase("700 workloads between two hosts all connect, deliver and are counted as their own")
    {
    }

  private:
    void DoRun() override
    {
        std::string yaml = kTwoHosts;
        const int n = 700;
        for (int i = 0; i < n; ++i)
        {
            yaml += "  - {name: w" + std::to_string(i) +
                    ", kind: stream, from: h0, to: h1, op: write, size: 4KiB, count: 1, outstanding: 1}\n";
        }
        yaml += "  - {name: sockets, kind: sockets-stream, from: h0, to: h1, size: 4KiB, count: 2}\n";
        const RunResult r = RunYaml(yaml, "many");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), std::size_t(n + 1), "every workload reported");
        int delivered = 0;
        int established = 0;
        for (const WorkloadResult& w : r.workloads)
        {
            delivered += w.messagesDelivered == (w.name == "sockets" ? 2u : 1u);
            established += w.connections.attempted == 1 && w.connections.established == 1;
        }
        NS_TEST_EXPECT_MSG_EQ(delivered, n + 1, "every workload delivered its messages");
        NS_TEST_EXPECT_MSG_EQ(established, n + 1, "every workload's one connection counted as established");
    }
};

class LongSweepTestCase : public TestCase
{
  public:
    LongSweepTestCase()
        : TestCase("a ping-pong of 150 sizes and the workload after it each listen on ports of their own")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYaml(kTwoHosts + "  - {name: pp, kind: ping-pong, from: h0, to: h1, op: send, count: 2, sizes: [" +
                        PingPongSizes(150) + "]}\n" +
                        "  - {name: after, kind: stream, from: h0, to: h1, op: write, size: 4KiB, count: 4}\n",
                    "sweep");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), std::size_t(2), "two workloads");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].latencyBySize.size(), std::size_t(150), "every size measured");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].connections.established, 150u, "one connection per size");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[1].messagesDelivered, 4u, "the next workload delivers");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[1].connections.established, 1u, "and is counted as its own");
    }
};

class SamePortTwoServersTestCase : public TestCase
{
  public:
    SamePortTwoServersTestCase()
        : TestCase("one client's sockets to two servers on the same port number are told apart by address")
    {
    }

  private:
    void DoRun() override
    {
        // h1 and h2 each serve one workload, so both listen on 20000; h0 connects to both.
        const RunResult r =
            RunYaml("stop: 20ms\ntopology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 3}\n"
                    "links: {rate: 10Gbps, delay: 2us}\nworkloads:\n"
                    "  - {name: to-h1, kind: sockets-stream, from: h0, to: h1, size: 4KiB, count: 3}\n"
                    "  - {name: to-h2, kind: sockets-stream, from: h0, to: h2, size: 4KiB, count: 5}\n"
                    "  - {name: rdma-h1, kind: stream, from: h2, to: h1, op: write, size: 4KiB, count: 2}\n"
                    "  - {name: rdma-h2, kind: stream, from: h1, to: h2, op: write, size: 4KiB, count: 4}\n",
                    "same-port");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), std::size_t(4), "four workloads");
        const uint64_t expected[] = {3, 5, 2, 4};
        for (std::size_t i = 0; i < 4; ++i)
        {
            const WorkloadResult& w = r.workloads[i];
            NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, expected[i], w.name + ": its own messages");
            NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, 1u, w.name + ": one connection attempted");
            NS_TEST_EXPECT_MSG_EQ(w.connections.established, 1u, w.name + ": counted once, as its own");
        }
    }
};

class ScenarioPortsTestSuite : public TestSuite
{
  public:
    ScenarioPortsTestSuite()
        : TestSuite("iwarp-scenario-ports", UNIT)
    {
        AddTestCase(new PlanTestCase(), TestCase::QUICK);
        AddTestCase(new TooManyPortsTestCase(), TestCase::QUICK);
        AddTestCase(new ManyWorkloadsTestCase(), TestCase::QUICK);
        AddTestCase(new LongSweepTestCase(), TestCase::QUICK);
        AddTestCase(new SamePortTwoServersTestCase(), TestCase::QUICK);
    }
};

ScenarioPortsTestSuite g_scenarioPortsTestSuite;

} // namespace
} // namespace ns3
