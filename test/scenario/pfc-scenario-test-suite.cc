/*
 * iwarp-pfc-scenario: `topology.pfc` end to end. A RoCEv2 incast (three senders at 25 Gb/s into a 10 Gb/s
 * bottleneck, DCQCN off so that only PFC holds the queue) on a dumbbell: with PFC on priority 3 (RoCEv2's DSCP
 * 26) no port drops a packet, the left switch's host ports send XOFF and XON, the senders' NICs spend time paused,
 * no packet is sent twice and every Write is delivered; each port's ingress peak stays within Xoff and the
 * headroom its link needs. Without PFC the bottleneck's queue overflows and go-back-N resends. queues.csv carries
 * the PFC columns, empty without PFC. With a shared buffer's dynamic threshold instead (`buffer`, `alpha`,
 * `resume-offset`) the same incast is lossless too. With `tracing.series`, each link direction's `paused` share
 * of every interval sums to the paused time queues.csv counts, and the bottleneck's egress is never paused.
 * Bad `pfc` settings are refused at load with the key's path.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"
#include "support/series-csv.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <filesystem>
#include <iostream>
#include <map>
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
        std::map<std::string, uint64_t> reserved; // per switch: its ports' headroom, kept out of the buffer
        for (const QueueResult& q : r.queues)
        {
            NS_TEST_ASSERT_MSG_EQ(q.pfc.has_value(), true, q.node << " -> " << q.peer << ": a PFC port");
            reserved[q.node] += q.role == "host-nic" ? 0 : q.pfc->headroom;
        }
        for (const QueueResult& q : r.queues)
        {
            xoff += q.pfc->xoffSent;
            if (q.role != "host-nic")
            {
                // xoff_bytes: where a port alone in the buffer pauses, alpha B' / (1 + alpha), B' = 300 KB less
                // its switch's ports' headroom; its ingress passes that by a frame and its headroom at most.
                const uint64_t lone = uint64_t(0.5 * double(300000 - reserved[q.node]) / 1.5);
                NS_TEST_EXPECT_MSG_EQ(q.pfc->xoff, lone, q.node << ": alpha B' / (1 + alpha)");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(q.pfc->peakIngress, q.pfc->xoff + 1502 + q.pfc->headroom,
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

class PauseSeriesTestCase : public TestCase
{
  public:
    PauseSeriesTestCase()
        : TestCase("series.csv shows each link direction's paused share of every interval, summing to its paused time")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml =
            Incast("  pfc: {priority: 3, xoff: 20KB, xon: 10KB}") +
            "tracing: {series: {interval: 1ms, what: [queue], links: [[h0, left], [left, right]]}}\n";
        const std::filesystem::path folder =
            std::filesystem::temp_directory_path() / ("iwarp-pfc-series-" + std::to_string(::getpid()));
        const RunResult r = RunInto(LoadScenarioString(yaml, {}, "series.yaml"), folder.string()).result;
        const auto series = iwarptest::BySeries(iwarptest::ReadCsv(folder / "series.csv"));
        std::filesystem::remove_all(folder);
        for (const char* subject : {"h0->left", "left->h0", "left->right", "right->left"})
        {
            const auto it = series.find({subject, "paused"});
            NS_TEST_ASSERT_MSG_EQ((it != series.end()), true, subject << ": a paused series");
            NS_TEST_EXPECT_MSG_EQ(it->second.size(), 20u, subject << ": a sample per ms");
            double pausedNs = 0;
            int64_t before = 0;
            for (const auto& [t, share] : it->second)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(share, 0.0, subject << " at " << t);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(share, 1.0 + 1e-9, subject << " at " << t << ": at most the interval");
                pausedNs += share * double(t - before);
                before = t;
            }
            // The same time queues.csv counts for the port (the sending side of the direction).
            const std::string from = std::string(subject).substr(0, std::string(subject).find("->"));
            const std::string to = std::string(subject).substr(std::string(subject).find("->") + 2);
            for (const QueueResult& q : r.queues)
            {
                if (q.node == from && q.peer == to)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(pausedNs, double(q.pfc->pausedTime.GetNanoSeconds()), 20.0,
                                              subject << ": the series sums to pfc_paused_ns");
                }
            }
            if (std::string(subject) == "h0->left")
            {
                NS_TEST_EXPECT_MSG_GT(pausedNs, 1e6, "the sender h0 spends more than 1 ms paused");
            }
            if (std::string(subject) == "left->right")
            {
                NS_TEST_EXPECT_MSG_EQ(pausedNs, 0.0, "the bottleneck's egress is never paused");
            }
        }
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
            {"  pfc: {xon: 20KB}", "topology.pfc: xoff and xon are both needed"},
            {"  pfc: {buffer: 0, alpha: 0.5, resume-offset: 3KB}", "needs buffer (above 0)"},
            {"  pfc: {buffer: 300KB, alpha: 0, resume-offset: 3KB}", "topology.pfc.alpha: value 0 is outside"},
            {"  pfc: {buffer: 300KB, alpha: 0.005, resume-offset: 3KB}", "topology.pfc.alpha: value 0.005 is outside"},
            {"  pfc: {buffer: 300KB, alpha: 0.5, resume-offset: 5GiB}", "resume-offset (below 4 GiB)"},
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
        AddTestCase(new PauseSeriesTestCase, TestCase::QUICK);
        AddTestCase(new BadPfcTestCase, TestCase::QUICK);
    }
};

PfcScenarioTestSuite g_pfcScenarioTestSuite;

} // namespace
} // namespace ns3
