/*
 * A workload kind that exists only in the test runner, to show that a kind is one file: its keys
 * (with a range of its own), its installer and its registration are all here, through the public registry
 * API (helper/scenario/workloads/workload-kind.h), and nothing else in the tree names it.
 *
 * test-burst: `count` RDMA Writes of `size` octets from `from` to `to`, all posted at once (as many
 * outstanding as there are messages), where a stream keeps a fixed number in flight.
 */
#include "support/scenario-run-util.h"

#include "helper/rdma-app-helper.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/workloads/common-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include "ns3/inet-socket-address.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace
{

/** The most messages one burst may post: each is a buffer the server registers. */
constexpr uint64_t kMaxBurst = 1024;

WorkloadKindInfo
TestBurstKind()
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = "test-burst";
    k.family = WorkloadFamily::Rdma;
    k.summary = "test only: `count` RDMA Writes posted at once";
    // Its count has a range of its own, and no `duration` to stand in for it.
    WorkloadKey count = Count(kMaxBurst);
    count.info.required = true;
    count.info.defaultText = "**required**";
    k.keys = {Start(), From(), To(), Size(), count, LlpKey()};
    k.ops = {RdmaOp::Write};
    k.install = [](WorkloadSite& site) {
        const WorkloadConfig& c = site.Config();
        const uint32_t burst = uint32_t(*c.count);
        RdmaStreamHelper server(RDMA_ROLE_SERVER, site.Port());
        server.SetAttribute("Size", UintegerValue(c.size));
        server.SetAttribute("Outstanding", UintegerValue(burst));
        site.SizeSockets(c.to, c.start);
        ApplicationContainer s = server.Install(site.GetNode(c.to));
        s.Start(c.start);
        site.AddApplications(s, 0);
        RdmaStreamHelper client(RDMA_ROLE_CLIENT,
                                site.Port(),
                                InetSocketAddress(site.GetHostAddress(c.to), site.Port()));
        client.SetAttribute("Op", StringValue("Write"));
        client.SetAttribute("Size", UintegerValue(c.size));
        client.SetAttribute("Outstanding", UintegerValue(burst));
        client.SetAttribute("TotalBytes", UintegerValue(burst * c.size));
        site.SizeSockets(c.from, c.start);
        ApplicationContainer a = client.Install(site.GetNode(c.from));
        a.Start(c.start);
        site.AddApplications(a, 1);
        site.FollowStreamClient(a.Get(0), c.from);
    };
    k.metrics = {"goodput_bps", "fct_ns"};
    return k;
}

/** Registers test-burst once per process (the suites of one test runner share the registry). */
void
RegisterTestBurst()
{
    if (!FindWorkloadKind("test-burst"))
    {
        RegisterWorkloadKind(TestBurstKind());
    }
}

class TestBurstRunsTestCase : public TestCase
{
  public:
    TestBurstRunsTestCase()
        : TestCase("a kind registered from one file loads, installs and reports like a built-in one")
    {
    }

  private:
    void DoRun() override
    {
        RegisterTestBurst();
        const RunResult r = RunYamlInTemp(R"(
stop: 20ms
topology: {kind: two-hosts}
links: {rate: 10Gbps, delay: 2us}
workloads:
  - {kind: test-burst, from: h0, to: h1, size: 4KiB, count: 8, start: 1ms}
)",
                                          "workload-kind-burst",
                                          "burst");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), 1u, "one workload");
        const WorkloadResult& w = r.workloads[0];
        NS_TEST_EXPECT_MSG_EQ(w.name, "test-burst-0", "named after its kind");
        NS_TEST_EXPECT_MSG_EQ(w.kind, "test-burst", "summary kind");
        NS_TEST_EXPECT_MSG_EQ(w.op, "write", "the RDMA op is its label");
        NS_TEST_EXPECT_MSG_EQ(w.llp, "tcp", "the default LLP");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 8u, "every Write delivered at the sink");
        NS_TEST_EXPECT_MSG_EQ(w.completed, true, "the burst completed");
        NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, 1u, "one connection");
        NS_TEST_EXPECT_MSG_EQ(w.connections.established, 1u, "established");
        NS_TEST_ASSERT_MSG_EQ(r.messages.size(), 8u, "a record per message");
        for (const MessageRecord& m : r.messages)
        {
            // All at once: what sets this kind apart from a stream with one outstanding.
            NS_TEST_EXPECT_MSG_EQ(m.post, r.messages[0].post, "message " << m.id << " posted with the first");
            NS_TEST_EXPECT_MSG_EQ(bool(m.firstPlaced && m.delivered), true, "placed and delivered at the sink");
        }
    }
};

class TestBurstReaderTestCase : public TestCase
{
  public:
    TestBurstReaderTestCase()
        : TestCase("the kind's own range and its key list apply")
    {
    }

  private:
    void DoRun() override
    {
        RegisterTestBurst();
        const std::string base =
            "stop: 1ms\ntopology: {kind: two-hosts}\nworkloads:\n  - {kind: test-burst, from: h0, to: h1, ";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(base + "count: 1025}\n"),
                              "s.yaml:4:49: workloads.0.count: value 1025 is above the largest allowed, 1024",
                              "its declared range refuses a burst too large");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(base + "size: 4KiB}\n"),
                              "s.yaml:4:5: workloads.0.count: missing required key 'count'",
                              "its count is required, with no duration offered instead");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(base + "count: 2, outstanding: 4}\n"),
                              "s.yaml:4:52: workloads.0.outstanding: key 'outstanding' does not apply to "
                              "workload kind 'test-burst' (it applies to: stream, read, incast, traffic, sockets-traffic)",
                              "a key it does not list");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(base + "count: 2}\n"), "", "loads");
    }
};

class WorkloadKindBurstTestSuite : public TestSuite
{
  public:
    WorkloadKindBurstTestSuite()
        : TestSuite("iwarp-workload-kind-burst", UNIT)
    {
        AddTestCase(new TestBurstRunsTestCase, TestCase::QUICK);
        AddTestCase(new TestBurstReaderTestCase, TestCase::QUICK);
    }
};

static WorkloadKindBurstTestSuite g_workloadKindBurstTestSuite;

} // namespace
} // namespace ns3
