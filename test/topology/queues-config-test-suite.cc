/*
 * iwarp-queues-config: the scenario's queue keys (doc/scenario-format.md, "Queues") reach the
 * builder's PortQueueSpecs with their fallbacks, and every bad value is refused at load with the
 * file, line, column and key path: RED thresholds against the limit they fall back to, sub-maps of
 * another kind, switch-port keys where no port is a switch's, sizes ns-3 cannot hold.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-queues.h"

#include "support/thrown-message.h"

#include "ns3/test.h"

namespace ns3
{
namespace
{

std::string
Error(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ThrownMessage<ScenarioError>([&] { LoadScenarioString(yaml, overrides, "q.yaml"); });
}

// Line numbers matter: the error cases below name them.
const std::string kDumbbell = "stop: 10ms\n"                                       // 1
                              "topology: {kind: dumbbell, hosts-per-side: 2}\n"    // 2
                              "workloads:\n"                                       // 3
                              "  - {kind: stream, from: h0, to: h2, count: 1}\n";  // 4

const std::string kTwoHosts = "stop: 10ms\n"
                              "topology: {kind: two-hosts}\n"
                              "workloads:\n"
                              "  - {kind: stream, from: h0, to: h1, count: 1}\n";

class QueueKeysTestCase : public TestCase
{
  public:
    QueueKeysTestCase()
        : TestCase("queue keys: links, bottleneck, per-link, host-nic and per-host nic reach the builder's specs")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml = kDumbbell + R"(links:
  queue: 300KB
  device-queue: 4p
  queue-disc: {kind: red, red: {threshold: 90000B, ecn: true}}
per-link:
  - {between: [left, right], queue-disc: {kind: codel, codel: {target: 1ms, interval: 20ms}}}
host-nic: {queue: 5000p, queue-disc: {kind: fq-codel, fq-codel: {flows: 64}}}
per-host:
  h1: {nic: {queue: unlimited, queue-disc: {kind: fifo}}}
)";
        const ScenarioConfig cfg = LoadScenarioString(yaml, {}, "q.yaml");
        const TopologySpec spec = MakeTopologySpec(cfg);
        NS_TEST_EXPECT_MSG_EQ(spec.link.queue, QueueSize("300000B"), "a size is octets");
        NS_TEST_EXPECT_MSG_EQ(spec.link.deviceQueue, QueueSize("4p"), "device-queue");
        NS_TEST_EXPECT_MSG_EQ(int(spec.link.queueDisc.kind), int(QueueDiscKind::Red), "red");
        NS_TEST_EXPECT_MSG_EQ(spec.link.queueDisc.red.minTh, QueueSize("90000B"), "threshold sets min-th");
        NS_TEST_EXPECT_MSG_EQ(spec.link.queueDisc.red.maxTh, QueueSize("90000B"), "and max-th");
        NS_TEST_EXPECT_MSG_EQ(spec.link.queueDisc.red.weight, 1.0, "instantaneous queue by default");
        NS_TEST_ASSERT_MSG_EQ(spec.queueLinks.size(), 1u, "one per-link queue entry");
        const LinkQueues& lq = spec.queueLinks[0];
        NS_TEST_EXPECT_MSG_EQ(lq.queue.has_value(), false, "the per-link entry leaves the limit to its tier");
        NS_TEST_ASSERT_MSG_EQ(lq.disc.has_value(), true, "its queue disc");
        NS_TEST_EXPECT_MSG_EQ(int(lq.disc->kind), int(QueueDiscKind::CoDel), "codel");
        NS_TEST_EXPECT_MSG_EQ(lq.disc->codel.target, MilliSeconds(1), "target");
        NS_TEST_EXPECT_MSG_EQ(lq.disc->codel.interval, MilliSeconds(20), "interval");
        NS_TEST_EXPECT_MSG_EQ(lq.disc->codel.ecn, false, "codel does not mark by default (as Linux)");
        NS_TEST_EXPECT_MSG_EQ(spec.hostNic.queue, QueueSize("5000p"), "host-nic queue");
        NS_TEST_EXPECT_MSG_EQ(spec.hostNic.deviceQueue, DefaultHostNic().deviceQueue, "host-nic device queue default");
        NS_TEST_EXPECT_MSG_EQ(int(spec.hostNic.disc.kind), int(QueueDiscKind::FqCoDel), "fq-codel");
        NS_TEST_EXPECT_MSG_EQ(spec.hostNic.disc.codel.flows, 64u, "flows");
        NS_TEST_EXPECT_MSG_EQ(spec.hostNic.disc.codel.ecn, true, "fq-codel marks by default (as Linux)");
        NS_TEST_ASSERT_MSG_EQ(spec.hostNicByName.count("h1"), 1u, "h1's own NIC");
        const PortQueueSpec& h1 = spec.hostNicByName.at("h1");
        NS_TEST_EXPECT_MSG_EQ(h1.queue, UnlimitedQueue(), "unlimited");
        NS_TEST_EXPECT_MSG_EQ(int(h1.disc.kind), int(QueueDiscKind::Fifo), "fifo");

        // The defaults: unlimited FIFO host NICs, 100-packet FIFO switch ports.
        const TopologySpec plain = MakeTopologySpec(LoadScenarioString(kDumbbell, {}, "q.yaml"));
        NS_TEST_EXPECT_MSG_EQ(plain.hostNic.queue, UnlimitedQueue(), "host NIC: unlimited");
        NS_TEST_EXPECT_MSG_EQ(int(plain.hostNic.disc.kind), int(QueueDiscKind::Fifo), "host NIC: fifo");
        NS_TEST_EXPECT_MSG_EQ(plain.link.queue, QueueSize("100p"), "switch port: 100 packets");
        NS_TEST_EXPECT_MSG_EQ(int(plain.link.queueDisc.kind), int(QueueDiscKind::Fifo), "switch port: fifo");
        NS_TEST_EXPECT_MSG_EQ(plain.queueLinks.empty(), true, "no per-link queues");
    }
};

class QueueErrorsTestCase : public TestCase
{
  public:
    QueueErrorsTestCase()
        : TestCase("queue keys: bad values are refused at load with file:line:col and the key")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {kDumbbell + "links: {queue-disc: {kind: wred}}\n",
             "q.yaml:5:28: links.queue-disc.kind: unknown queue-disc kind 'wred' (expected one of none, fifo, red, "
             "codel, fq-codel)"},
            {kDumbbell + "links: {queue-disc: {kind: fifo, red: {threshold: 20p}}}\n",
             "q.yaml:5:39: links.queue-disc.red: key 'red' does not apply to queue-disc kind 'fifo'"},
            {kDumbbell + "links: {queue-disc: {kind: red, red: {threshold: 20p, max-th: 30p}}}\n",
             "q.yaml:5:50: links.queue-disc.red.threshold: threshold sets min-th and max-th both: give one or the "
             "others"},
            {kDumbbell + "links: {queue-disc: {kind: red, red: {min-th: 20p}}}\n",
             "q.yaml:5:47: links.queue-disc.red.min-th: min-th and max-th go together (or one threshold for both)"},
            {kDumbbell + "links: {queue: 150KB, queue-disc: {kind: red, red: {threshold: 20p}}}\n",
             "q.yaml:5:35: links: RED thresholds (20p, 20p) must be in the unit of the queue (150000B): RED counts "
             "them as its limit counts"},
            {kDumbbell + "links: {queue-disc: {kind: red, red: {threshold: 100p}}}\n",
             "q.yaml:5:21: links: RED's max-th 100p must be below the queue's limit 100p (else it never marks before "
             "the queue overflows)"},
            {kDumbbell + "links: {queue-disc: {kind: red, red: {threshold: 20p, weight: 0}}}\n",
             "q.yaml:5:21: links: RED's weight must be in (0, 1]"},
            {kDumbbell + "links: {queue-disc: {kind: codel, codel: {target: 10ms, interval: 5ms}}}\n",
             "q.yaml:5:21: links: CoDel needs 0 < target <= interval"},
            {kDumbbell + "links: {queue: 0p}\n", "q.yaml:5:16: links.queue: queue \"0p\" must hold at least one packet"},
            {kDumbbell + "links: {device-queue: 5000000000p}\n",
             "q.yaml:5:23: links.device-queue: queue \"5000000000p\" holds more than 2^32-1 packets"},
            {kDumbbell + "links: {queue: 5GB}\n",
             "q.yaml:5:16: links.queue: queue \"5GB\" holds more than 2^32-1 octets"},
            {kDumbbell + "host-nic: {queue: 50p, queue-disc: {kind: red}}\n",
             "q.yaml:5:36: host-nic: RED's max-th 65p must be below the queue's limit 50p (else it never marks "
             "before the queue overflows)"},
            {kDumbbell + "per-host:\n  h1: {nic: {queue-disc: {kind: fifo}, queue: 0p}}\n",
             "q.yaml:6:47: per-host.h1.nic.queue: queue \"0p\" must hold at least one packet"},
            {kDumbbell + "per-link:\n  - {between: [left, right], queue-disc: {kind: red, red: {threshold: 120p}}}\n",
             "q.yaml:6:42: per-link.0: RED's max-th 120p must be below the queue's limit 100p (else it never marks "
             "before the queue overflows)"},
            {kTwoHosts + "links: {rate: 1Gbps, queue: 20p}\n",
             "q.yaml:5:29: links.queue: 'queue' sets switch ports and topology two-hosts has no switch; a host's NIC "
             "queues are set under host-nic"},
            {kDumbbell + "host-nic: {queue-dics: {kind: fifo}}\n",
             "q.yaml:5:12: host-nic.queue-dics: unknown key 'queue-dics'; did you mean 'queue-disc'?"},
        };
        for (const auto& [yaml, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(Error(yaml), expected, yaml);
        }
        // A --set override is named instead of a line.
        NS_TEST_EXPECT_MSG_EQ(Error(kDumbbell, {"links.queue-disc.kind=blue"}),
                              "--set links.queue-disc.kind=blue: links.queue-disc.kind: unknown queue-disc kind "
                              "'blue' (expected one of none, fifo, red, codel, fq-codel)",
                              "override");
    }
};

class QueuesConfigTestSuite : public TestSuite
{
  public:
    QueuesConfigTestSuite()
        : TestSuite("iwarp-queues-config", UNIT)
    {
        AddTestCase(new QueueKeysTestCase, TestCase::QUICK);
        AddTestCase(new QueueErrorsTestCase, TestCase::QUICK);
    }
};

static QueuesConfigTestSuite g_queuesConfigTestSuite;

} // namespace
} // namespace ns3
