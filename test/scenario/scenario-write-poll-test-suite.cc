/*
 * iwarp-scenario-write-poll: a ping-pong's `poll: true` (issue 13) runs RdmaPingPong in WritePoll
 * mode: the responder sees each Write when the last octet of its buffer is placed, as
 * ib_write_lat waits, instead of at a zero-length Send's receive completion. Its half round trip
 * is therefore shorter than the Write + Send one by at least the receive engine's cost of that
 * Send, and never below propagation plus serialisation (the physics checks pass). The workload's
 * op reads "write-poll" in the results; poll with another op is refused at load.
 */
#include "rnic/rnic-pipeline.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <filesystem>

namespace ns3
{
namespace
{

const std::string kPingPong = R"(
stop: 50ms
topology: {kind: two-hosts}
links: {rate: 40Gbps, delay: 500ns}
workloads:
  - {name: pp, kind: ping-pong, from: h0, to: h1, op: write, sizes: [64, 4096], count: 50}
)";

class WritePollCase : public TestCase
{
  public:
    WritePollCase()
        : TestCase("poll: true shortens a Write ping-pong by at least the notifying Send's receive cost; op write-poll")
    {
    }

  private:
    void DoRun() override
    {
        const std::string base = (std::filesystem::temp_directory_path() / "iwarp-write-poll").string();
        const RunResult notify = RunInto(LoadScenarioString(kPingPong, {}, "pp.yaml"), base + "-send").result;
        const RunResult poll =
            RunInto(LoadScenarioString(kPingPong, {"workloads.0.poll=true"}, "pp.yaml"), base + "-poll").result;
        NS_TEST_ASSERT_MSG_EQ(poll.workloads.size(), 1u, "one workload");
        NS_TEST_EXPECT_MSG_EQ(poll.workloads[0].op, "write-poll", "the op names the poll");
        NS_TEST_EXPECT_MSG_EQ(notify.workloads[0].op, "write", "the default is Write + Send");
        NS_TEST_EXPECT_MSG_EQ(poll.FailedChecks(), 0u, "the physics checks pass");
        const Time sendRx = CreateObject<RnicPipeline>()->Cost(0, true, false);
        const auto& a = poll.workloads[0].latencyBySize;
        const auto& b = notify.workloads[0].latencyBySize;
        NS_TEST_ASSERT_MSG_EQ(a.size(), 2u, "two sizes");
        NS_TEST_ASSERT_MSG_EQ(b.size(), 2u, "two sizes");
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a[i].ns.count, 50u, "every round trip of size " << a[i].size);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(a[i].ns.p50 + sendRx.GetNanoSeconds(), b[i].ns.p50,
                                        "size " << a[i].size << ": poll p50 " << a[i].ns.p50 << " ns vs Write+Send "
                                                << b[i].ns.p50 << " ns");
            std::cout << "ping-pong " << a[i].size << " B at 40 Gb/s, 500 ns: half RTT p50 " << a[i].ns.p50
                      << " ns polling, " << b[i].ns.p50 << " ns with the notifying Send" << std::endl;
        }
        std::filesystem::remove_all(base + "-send");
        std::filesystem::remove_all(base + "-poll");
    }
};

class WritePollRefusedCase : public TestCase
{
  public:
    WritePollRefusedCase()
        : TestCase("poll: true with op send is refused at load")
    {
    }

  private:
    void DoRun() override
    {
        const std::string e = ErrorOf(kPingPong, {"workloads.0.op=send", "workloads.0.poll=true"});
        NS_TEST_EXPECT_MSG_NE(e.find("workloads.0.poll: poll: true waits for a Write's last octet, but op is 'send'"),
                              std::string::npos, e);
    }
};

class ScenarioWritePollSuite : public TestSuite
{
  public:
    ScenarioWritePollSuite()
        : TestSuite("iwarp-scenario-write-poll", UNIT)
    {
        AddTestCase(new WritePollCase, QUICK);
        AddTestCase(new WritePollRefusedCase, QUICK);
    }
};

ScenarioWritePollSuite g_scenarioWritePollSuite;

} // namespace
} // namespace ns3
