/*
 * iwarp-pfc-scenario: `topology.pfc` end to end. A RoCEv2 incast (three senders at 25 Gb/s into a 10 Gb/s
 * bottleneck, DCQCN off so that only PFC holds the queue) on a dumbbell: with PFC on priority 3 (RoCEv2's DSCP
 * 26) no port drops a packet, the left switch's host ports send XOFF and XON, the senders' NICs spend time paused,
 * no packet is sent twice and every Write is delivered; each port's ingress peak stays within Xoff and the
 * headroom its link needs. Without PFC the bottleneck's queue overflows and go-back-N resends. queues.csv carries
 * the PFC columns, empty without PFC. With a shared buffer's dynamic threshold instead (`buffer`, `alpha`,
 * `resume-offset`) the same incast is lossless too. Bad `pfc` settings are refused at load with the key's path.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <iostream>
#include <string>

namespace ns3
{
namespace
{

std::string
Incast(const std::string& pfc)
{
    return R"(stop: 20ms
topology:
  kind: dumbbell
  hosts-per-side: 4
  bottleneck: {rate: 10Gbps, delay: 1us, queue: 200KB}
)" + pfc + R"(
links: {rate: 25Gbps, delay: 1us}
rnic: {ns3::RoceTransport::CongestionControl: None}
workloads:
  - {name: incast, kind: incast, llp: rocev2, senders: [h0, h1, h2], to: h4, op: write, size: 64KiB, count: 32,
     outstanding: 4}
)";
}

uint64_t
Dropped(const RunResult& r)
{
    uint64_t n = 0;
    for (const QueueResult& q : r.queues)
    {
        n += q.dropped;
    }
    return n;
}

class LosslessIncastTestCase : public TestCase
{
  public:
    LosslessIncastTestCase()
        : TestCase("a RoCEv2 incast with PFC drops nothing and resends nothing; without PFC the bottleneck drops")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult on =
            RunYamlInTemp(Incast("  pfc: {priority: 3, xoff: 20KB, xon: 10KB}"), "pfc-scenario", "on");
        const RunResult off = RunYamlInTemp(Incast(""), "pfc-scenario", "off");
        const WorkloadResult& w = NamedWorkload(on, "incast");
        uint64_t xoff = 0;
        Time hostPaused;
        for (const QueueResult& q : on.queues)
        {
            NS_TEST_ASSERT_MSG_EQ(q.pfc.has_value(), true, q.node << " -> " << q.peer << ": a PFC port");
            xoff += q.pfc->xoffSent;
            if (q.role == "host-nic")
            {
                hostPaused += q.pfc->pausedTime;
                NS_TEST_EXPECT_MSG_EQ(q.pfc->xoffSent, 0u, "hosts obey, they do not pause");
            }
            else
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(q.pfc->peakIngress, q.pfc->xoff + q.pfc->headroom,
                                            q.node << " -> " << q.peer << ": within its headroom");
            }
        }
        std::clog << "  PFC: " << Dropped(on) << " dropped, " << xoff << " XOFF, hosts paused "
                  << hostPaused.As(Time::US) << ", " << w.retransmissions.total << " resent, "
                  << w.messagesDelivered << " delivered; without: " << Dropped(off) << " dropped, "
                  << NamedWorkload(off, "incast").retransmissions.total << " resent\n";
        NS_TEST_EXPECT_MSG_EQ(Dropped(on), 0u, "lossless: no port drops");
        NS_TEST_EXPECT_MSG_GT(xoff, 0u, "the left switch paused its senders");
        NS_TEST_EXPECT_MSG_GT(hostPaused, MicroSeconds(100), "the senders' NICs spent time paused");
        NS_TEST_EXPECT_MSG_EQ(w.retransmissions.total, 0u, "nothing lost, nothing resent");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 96u, "every Write delivered");
        NS_TEST_EXPECT_MSG_GT(Dropped(off), 0u, "without PFC the bottleneck's queue overflows");
        NS_TEST_EXPECT_MSG_GT(NamedWorkload(off, "incast").retransmissions.total, 0u, "and go-back-N resends");
        for (const QueueResult& q : off.queues)
        {
            NS_TEST_EXPECT_MSG_EQ(q.pfc.has_value(), false, "no PFC columns without PFC");
        }
    }
};

class SharedBufferIncastTestCase : public TestCase
{
  public:
    SharedBufferIncastTestCase()
        : TestCase("the same incast with a shared buffer's dynamic threshold: lossless, XOFF below its most")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYamlInTemp(Incast("  pfc: {buffer: 300KB, alpha: 0.5, resume-offset: 3KB}"), "pfc-scenario", "shared");
        const WorkloadResult& w = NamedWorkload(r, "incast");
        uint64_t xoff = 0;
        for (const QueueResult& q : r.queues)
        {
            NS_TEST_ASSERT_MSG_EQ(q.pfc.has_value(), true, q.node << " -> " << q.peer << ": a PFC port");
            xoff += q.pfc->xoffSent;
            if (q.role != "host-nic")
            {
                // xoff_bytes: the threshold with the buffer empty, alpha x (buffer - the switch's ports' headroom).
                NS_TEST_EXPECT_MSG_GT(q.pfc->xoff, 0u, q.node << ": a threshold");
                NS_TEST_EXPECT_MSG_LT(q.pfc->xoff, 150000u, q.node << ": below alpha x buffer");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(q.pfc->peakIngress, q.pfc->xoff + q.pfc->headroom,
                                            q.node << " -> " << q.peer << ": within its headroom");
            }
        }
        std::clog << "  shared buffer: " << Dropped(r) << " dropped, " << xoff << " XOFF, " << w.retransmissions.total
                  << " resent, " << w.messagesDelivered << " delivered\n";
        NS_TEST_EXPECT_MSG_EQ(Dropped(r), 0u, "lossless: no port drops");
        NS_TEST_EXPECT_MSG_GT(xoff, 0u, "the left switch paused its senders");
        NS_TEST_EXPECT_MSG_EQ(w.retransmissions.total, 0u, "nothing lost, nothing resent");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 96u, "every Write delivered");
    }
};

class BadPfcTestCase : public TestCase
{
  public:
    BadPfcTestCase()
        : TestCase("bad pfc settings are refused at load, at their key")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"  pfc: {xoff: 20KB}", "topology.pfc: xoff and xon are both needed"},
            {"  pfc: {}", "not both and not neither"},
            {"  pfc: {xoff: 20KB, xon: 10KB, buffer: 300KB, alpha: 0.5, resume-offset: 3KB}", "not both"},
            {"  pfc: {buffer: 300KB, alpha: 0.5}", "needs buffer (above 0), alpha and resume-offset"},
            {"  pfc: {buffer: 300KB, alpha: 9, resume-offset: 3KB}", "topology.pfc.alpha: value 9 is outside"},
            {"  pfc: {buffer: 300KB, alpha: x, resume-offset: 3KB}", "expected a number"},
            {"  pfc: {buffer: 20KB, alpha: 0.5, resume-offset: 3KB}", "above its switch's ports' headroom"},
            {"  pfc: {buffer: 2MB, alpha: 1, resume-offset: 3KB}", "would drop before XOFF"},
            {"  pfc: {xoff: 10KB, xon: 20KB}", "xon at most xoff"},
            {"  pfc: {priority: 8, xoff: 20KB, xon: 10KB}", "topology.pfc.priority"},
            {"  pfc: {xoff: 20KB, xon: 10KB, xof: 1}", "xof"},
            {"  pfc: {xoff: 195KB, xon: 10KB}", "would drop before XOFF"},
        };
        for (const auto& c : cases)
        {
            const std::string& pfc = c.first; // clang's C++17 cannot capture a structured binding
            const std::string msg =
                ThrownMessage<ScenarioError>([&pfc] { LoadScenarioString(Incast(pfc), {}, "bad.yaml"); });
            NS_TEST_EXPECT_MSG_NE(msg.find(c.second), std::string::npos, pfc << ": " << msg);
        }
    }
};

class PfcScenarioTestSuite : public TestSuite
{
  public:
    PfcScenarioTestSuite()
        : TestSuite("iwarp-pfc-scenario", UNIT)
    {
        AddTestCase(new LosslessIncastTestCase, TestCase::QUICK);
        AddTestCase(new SharedBufferIncastTestCase, TestCase::QUICK);
        AddTestCase(new BadPfcTestCase, TestCase::QUICK);
    }
};

PfcScenarioTestSuite g_pfcScenarioTestSuite;

} // namespace
} // namespace ns3
