/*
 * iwarp-link-change: `link-change` events (doc/failures.md, issue 29). At its time, and not before, a change
 * sets the sending device's rate, the channel's delay, the receiving end's loss and the sending port's
 * limit, on the ways it names; a smaller limit than the queue holds is reached as the queue drains (PortLimit),
 * never by dropping what is queued; a stream's goodput follows a rate change; the physics checks hold a run
 * to every rate and delay its links had; summary.json records what each change set; bad changes are refused
 * (at load, or when the run is built for what depends on the port), leaving nothing behind in the simulator.
 */
#include "helper/scenario/path-limits.h"
#include "helper/scenario/scenario-events.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-runner.h"
#include "helper/topology/port-limit.h"
#include "helper/topology/port-queues.h"

#include "support/scenario-run-util.h"

#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-link-change";

class PortLimitTestCase : public TestCase
{
  public:
    PortLimitTestCase()
        : TestCase("a smaller limit than the queue holds follows it down as it drains; a larger one holds at once; "
                   "another unit is refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
        node->AddDevice(dev);
        Ptr<DropTailQueue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
        queue->SetMaxSize(QueueSize("10p"));
        dev->SetQueue(queue);
        for (int i = 0; i < 8; ++i)
        {
            queue->Enqueue(Create<Packet>(100));
        }
        Ptr<PortLimit> limit = Create<PortLimit>(dev);
        NS_TEST_EXPECT_MSG_EQ(limit->Limit(), QueueSize("10p"), "the device queue's limit (no queue disc)");
        limit->Set(QueueSize("3p"));
        NS_TEST_EXPECT_MSG_EQ(limit->Limit(), QueueSize("8p"), "not below what it holds");
        NS_TEST_EXPECT_MSG_EQ(queue->GetNPackets(), 8u, "nothing queued is dropped");
        NS_TEST_EXPECT_MSG_EQ(queue->Enqueue(Create<Packet>(100)), false, "an arrival is dropped meanwhile");
        for (uint32_t held = 7; held >= 3; --held)
        {
            queue->Dequeue();
            NS_TEST_EXPECT_MSG_EQ(limit->Limit(), QueueSize(QueueSizeUnit::PACKETS, held), "follows the queue down");
        }
        queue->Dequeue();
        NS_TEST_EXPECT_MSG_EQ(limit->Limit(), QueueSize("3p"), "stops at the new limit");
        NS_TEST_EXPECT_MSG_EQ(queue->Enqueue(Create<Packet>(100)), true, "below it, arrivals are queued");
        limit->Set(QueueSize("20p"));
        NS_TEST_EXPECT_MSG_EQ(limit->Limit(), QueueSize("20p"), "a larger limit at once");
        const std::string refused = ThrownMessage<std::invalid_argument>([&] { limit->Set(QueueSize("3000B")); });
        NS_TEST_EXPECT_MSG_EQ((refused.find("packets") != std::string::npos), true, "octets for a port that counts packets: refused, naming its unit");
        NS_TEST_EXPECT_MSG_EQ(limit->Target(), QueueSize("20p"), "and nothing changed");
        Simulator::Destroy();
    }
};

/** Two hosts at 10 Gb/s, 1 us, with `events` added; h0 streams 16 KiB RDMA Writes to h1 for `duration`. */
std::string
TwoHostStream(const std::string& events, const std::string& rate = "10Gbps", const std::string& duration = "20ms")
{
    return "stop: 30ms\ntopology: {kind: two-hosts}\nlinks: {rate: " + rate + ", delay: 1us}\nevents:\n" + events +
           "workloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 16KiB, outstanding: 4, "
           "duration: " +
           duration + "}\n";
}

class AtItsTimeTestCase : public TestCase
{
  public:
    AtItsTimeTestCase()
        : TestCase("a change sets rate, delay, loss and limit at its time and not before, on the ways it names")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(
            TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], direction: forward, rate: 1Gbps, "
                          "loss: 0.25, queue: 7p}\n  - {at: 6ms, action: link-change, between: [h0, h1], delay: 40us}\n"),
            {}, "at.yaml");
        // The network and its events, no workload: the queues stay empty.
        std::unique_ptr<BuiltTopology> topo = BuildScenarioNetwork(cfg);
        ScenarioEvents events(cfg, *topo);
        const BuiltLink& link = topo->links.at(0);
        const bool h0IsA = link.a == "h0";
        Ptr<PointToPointNetDevice> sender = h0IsA ? link.devA : link.devB;
        Ptr<PointToPointNetDevice> receiver = h0IsA ? link.devB : link.devA;
        struct Seen
        {
            uint64_t sendRate, backRate;
            Time delay;
            double loss, backLoss;
            QueueSize limit, backLimit;
        };
        std::vector<Seen> seen;
        auto lossAt = [](Ptr<PointToPointNetDevice> dev) {
            PointerValue model;
            dev->GetAttribute("ReceiveErrorModel", model);
            Ptr<LinkGate> gate = DynamicCast<LinkGate>(model.Get<ErrorModel>());
            DoubleValue loss(-1); // -1: no loss model at all
            if (gate && gate->GetInner())
            {
                gate->GetInner()->GetAttribute("LossGood", loss);
            }
            return loss.Get();
        };
        auto limitOf = [](Ptr<PointToPointNetDevice> dev) {
            return RootQueueDisc(dev) ? RootQueueDisc(dev)->GetMaxSize() : dev->GetQueue()->GetMaxSize();
        };
        auto look = [&] {
            DataRateValue send;
            DataRateValue back;
            sender->GetAttribute("DataRate", send);
            receiver->GetAttribute("DataRate", back);
            TimeValue delay;
            link.channel->GetAttribute("Delay", delay);
            seen.push_back({send.Get().GetBitRate(), back.Get().GetBitRate(), delay.Get(), lossAt(receiver),
                            lossAt(sender), limitOf(sender), limitOf(receiver)});
        };
        for (Time t : {MilliSeconds(5) - NanoSeconds(1), MilliSeconds(5), MilliSeconds(6) - NanoSeconds(1), MilliSeconds(6)})
        {
            Simulator::Schedule(t, look);
        }
        Simulator::Stop(MilliSeconds(7));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 4u, "looked four times");
        NS_TEST_EXPECT_MSG_EQ(seen[0].sendRate, 10000000000u, "10 Gb/s until 5 ms");
        NS_TEST_EXPECT_MSG_EQ(seen[0].loss, 0.0, "a link without loss gets a model that drops nothing");
        NS_TEST_EXPECT_MSG_EQ(seen[1].sendRate, 1000000000u, "1 Gb/s from 5 ms");
        NS_TEST_EXPECT_MSG_EQ(seen[1].backRate, 10000000000u, "forward only: the other way keeps its rate");
        NS_TEST_EXPECT_MSG_EQ(seen[1].loss, 0.25, "the loss");
        NS_TEST_EXPECT_MSG_EQ(seen[1].limit, QueueSize("7p"), "the sending port's limit (an idle queue: at once)");
        NS_TEST_EXPECT_MSG_EQ(seen[1].backLoss, -1.0, "forward only: the other way has no loss model");
        NS_TEST_EXPECT_MSG_EQ(seen[1].backLimit, seen[0].backLimit, "nor a new limit");
        NS_TEST_EXPECT_MSG_EQ((seen[0].limit == QueueSize("7p")), false, "not before");
        NS_TEST_EXPECT_MSG_EQ(seen[2].delay, MicroSeconds(1), "1 us until 6 ms");
        NS_TEST_EXPECT_MSG_EQ(seen[3].delay, MicroSeconds(40), "40 us from 6 ms");
        Simulator::Destroy();
    }
};

/** Goodput of `r`'s 16 KiB messages delivered in [from, to), in bit/s. */
double
GoodputBetween(const RunResult& r, Time from, Time to)
{
    return double(DeliveredBetween(r, from, to)) * 16384 * 8 / (to - from).GetSeconds();
}

/** The shortest post-to-delivery time of `r`'s messages posted after `from`. */
Time
FastestAfter(const RunResult& r, Time from)
{
    Time fastest = Time::Max();
    for (const MessageRecord& m : r.messages)
    {
        if (m.post > from && m.delivered)
        {
            fastest = std::min(fastest, *m.delivered - m.post);
        }
    }
    return fastest;
}

class GoodputFollowsTestCase : public TestCase
{
  public:
    GoodputFollowsTestCase()
        : TestCase("a stream's goodput follows a rate change; loss from a change loses, counted as impairment; "
                   "a delay change delays what is sent after it")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            TwoHostStream("  - {at: 10ms, action: link-change, between: [h0, h1], rate: 1Gbps}\n"), kSuite, "rate");
        const double before = GoodputBetween(r, MilliSeconds(2), MilliSeconds(10));
        const double after = GoodputBetween(r, MilliSeconds(12), MilliSeconds(20));
        // The payload limit at 1 Gb/s: 1500-octet packets carrying 1500 - 20 - 20 - 12 - 6 - 14 - 4 octets.
        NS_TEST_EXPECT_MSG_GT(before, 8e9, "about 10 Gb/s before");
        NS_TEST_EXPECT_MSG_LT(after, 1e9 * 1424 / 1502 + 16384 * 8 / 8e-3, "at most 1 Gb/s's payload after");
        NS_TEST_EXPECT_MSG_GT(after, 0.8e9, "and close to it");
        NS_TEST_EXPECT_MSG_EQ(r.FailedChecks(), 0u, "the physics checks hold");
        NS_TEST_ASSERT_MSG_EQ(r.linkEvents.size(), 1u, "recorded");
        NS_TEST_EXPECT_MSG_EQ(r.linkEvents[0].rateBps.value_or(0), 1000000000u, "with its rate");
        NS_TEST_EXPECT_MSG_EQ(r.linkEvents[0].loss.has_value(), false, "and nothing it did not set");

        const RunResult lossy = RunYamlInTemp(
            TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], direction: forward, loss: 1}\n"),
            kSuite, "loss");
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(lossy, MilliSeconds(4), MilliSeconds(5)), 0u, "carrying before");
        NS_TEST_EXPECT_MSG_EQ(DeliveredBetween(lossy, MilliSeconds(5) + MicroSeconds(20), MilliSeconds(30)), 0u,
                              "nothing after");
        NS_TEST_ASSERT_MSG_EQ(lossy.drops.size(), 1u, "drops on the link");
        NS_TEST_EXPECT_MSG_GT(lossy.drops[0].impairment, 0u, "counted as loss");
        NS_TEST_EXPECT_MSG_EQ(lossy.drops[0].linkDown, 0u, "not as the link down");

        // A lossy link (Gilbert-Elliott) made lossless at 5 ms: its model set to independent loss 0.
        const std::string bursty = TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], loss: 0}\n");
        const std::string withLoss = bursty.substr(0, bursty.find("}\nevents")) +
                                     ", gilbert-elliott: {p: 0.01, r: 0.2}" + bursty.substr(bursty.find("}\nevents"));
        const RunResult healed = RunYamlInTemp(withLoss, kSuite, "healed");
        const RunResult stays = RunYamlInTemp(withLoss, kSuite, "stays", {"events.0.at=29ms"});
        NS_TEST_EXPECT_MSG_GT(GoodputBetween(healed, MilliSeconds(10), MilliSeconds(20)),
                              1.5 * GoodputBetween(stays, MilliSeconds(10), MilliSeconds(20)), "loss ended: faster");

        // 200 us of delay from 5 ms: a message posted after it takes at least that to arrive, where on the link
        // unchanged the fastest takes less (one outstanding: no message waits behind another).
        const std::string delayed =
            TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], delay: 200us}\n");
        const RunResult slow = RunYamlInTemp(delayed, kSuite, "delay", {"workloads.0.outstanding=1"});
        const RunResult plain =
            RunYamlInTemp(delayed, kSuite, "no-delay", {"workloads.0.outstanding=1", "events.0.delay=1us"});
        NS_TEST_EXPECT_MSG_GT_OR_EQ(FastestAfter(slow, MilliSeconds(6)), MicroSeconds(200),
                                    "no message faster than the new delay");
        NS_TEST_EXPECT_MSG_LT(FastestAfter(plain, MilliSeconds(6)), MicroSeconds(200), "on the link unchanged");
    }
};

class ChecksWidenTestCase : public TestCase
{
  public:
    ChecksWidenTestCase()
        : TestCase("a link raised from 1 to 10 Gbps: the goodput bound and ideal FCTs are the higher rate's, and Paths::Widen keeps "
                   "the highest rate and the lowest delay")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYamlInTemp(TwoHostStream("  - {at: 1ms, action: link-change, between: [h0, h1], rate: 10Gbps}\n", "1Gbps"),
                          kSuite, "raised");
        NS_TEST_EXPECT_MSG_GT(NamedWorkload(r, "w").goodputBps.value_or(0), 2e9, "above what the link had as built");
        NS_TEST_EXPECT_MSG_EQ(r.FailedChecks(), 0u, "and no check fails: its bound is 10 Gb/s's");
        // Flows of the traffic workload after the raise beat their ideal at 1 Gb/s: the ideal is taken at 10.
        const RunResult traffic = RunYamlInTemp(
            "stop: 30ms\ntopology: {kind: dumbbell, hosts-per-side: 2, bottleneck: {rate: 1Gbps}}\n"
            "links: {rate: 10Gbps, delay: 1us}\nevents:\n"
            "  - {at: 2ms, action: link-change, between: [left, right], rate: 10Gbps}\n"
            "workloads:\n  - {name: web, kind: traffic, load: 0.3, flow-sizes: web-search, duration: 10ms}\n",
            kSuite, "traffic");
        NS_TEST_EXPECT_MSG_GT(traffic.checks.size(), 0u, "checked");
        NS_TEST_EXPECT_MSG_EQ(traffic.FailedChecks(), 0u, "fct >= ideal fct holds: the ideal is on the raised link");

        // Only the network is built (no workload, nothing run): the paths as built, 1 Gb/s and 1 us.
        const ScenarioConfig cfg = LoadScenarioString(
            TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], rate: 2Gbps}\n", "1Gbps"), {},
            "widen.yaml");
        std::unique_ptr<BuiltTopology> topo = BuildScenarioNetwork(cfg);
        Paths paths(*topo);
        const PathLimits built = paths.Limits("h0", "h1", 0);
        paths.Widen(0, 0.5e9, MicroSeconds(20)); // slower and longer: nothing widens
        NS_TEST_EXPECT_MSG_EQ(paths.Limits("h0", "h1", 0).bottleneckBps, built.bottleneckBps, "rate kept");
        NS_TEST_EXPECT_MSG_EQ(paths.Limits("h0", "h1", 0).propagation, built.propagation, "delay kept");
        paths.Widen(0, 4e9, NanoSeconds(500));
        NS_TEST_EXPECT_MSG_EQ(paths.Limits("h0", "h1", 0).bottleneckBps, 4e9, "the higher rate");
        NS_TEST_EXPECT_MSG_EQ(paths.Limits("h0", "h1", 0).propagation, NanoSeconds(500), "the lower delay");
        Simulator::Destroy();
    }
};

class QueueLimitTestCase : public TestCase
{
  public:
    QueueLimitTestCase()
        : TestCase("a bottleneck port cut from 100 to 5 packets under two streams holds no more than 5 once it "
                   "has drained")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml =
            "stop: 20ms\ntopology: {kind: dumbbell, hosts-per-side: 2, bottleneck: {rate: 1Gbps}}\n"
            "links: {rate: 10Gbps, delay: 5us}\nevents:\n"
            "  - {at: 10ms, action: link-change, between: [left, right], direction: forward, queue: 5p}\n"
            "tracing:\n  series: {interval: 100us, what: [queue]}\nworkloads:\n"
            "  - {name: a, kind: stream, op: write, from: h0, to: h2, size: 64KiB, outstanding: 4, duration: 18ms}\n"
            "  - {name: b, kind: stream, op: write, from: h1, to: h3, size: 64KiB, outstanding: 4, duration: 18ms}\n";
        const std::string folder = (std::filesystem::temp_directory_path() /
                                    ("iwarp-link-change-" + std::to_string(::getpid()) + "-queue"))
                                       .string();
        RunInto(LoadScenarioString(yaml, {}, "queue.yaml"), folder);
        std::ifstream series(folder + "/series.csv");
        std::string line;
        uint64_t before = 0;
        uint64_t drained = 0;
        while (std::getline(series, line))
        {
            if (line.find(",left->right,queue_packets,") == std::string::npos)
            {
                continue;
            }
            const double at = std::stod(line);
            const uint64_t held = std::stoull(line.substr(line.find("queue_packets,") + 14));
            if (at < 10e6)
            {
                before = std::max(before, held);
            }
            else if (at >= 11e6)
            {
                drained = std::max(drained, held);
            }
        }
        std::filesystem::remove_all(folder);
        NS_TEST_EXPECT_MSG_GT(before, 20u, "a standing queue before the change");
        // The series counts the queue disc and the device queue under it (2 packets).
        NS_TEST_EXPECT_MSG_LT_OR_EQ(drained, 5u + 2u, "at most the new limit once drained (from 11 ms)");
    }
};

class RefusedTestCase : public TestCase
{
  public:
    RefusedTestCase()
        : TestCase("a change that sets nothing, a change key on another action, a one-way delay, a bad value and "
                   "a limit in the wrong unit are refused")
    {
    }

  private:
    void DoRun() override
    {
        auto error = [](const std::string& events) { return ErrorOf(TwoHostStream(events)); };
        auto has = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-change, between: [h0, h1]}\n"), "at least one of"),
                              true, "a change of nothing");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-down, between: [h0, h1], rate: 1Gbps}\n"),
                                  "for link-change events"),
                              true, "rate on a link-down");
        NS_TEST_EXPECT_MSG_EQ(
            has(error("  - {at: 5ms, action: link-change, between: [h0, h1], direction: forward, delay: 5us}\n"),
                "both ways"),
            true, "a delay one way");
        NS_TEST_EXPECT_MSG_EQ(error("  - {at: 5ms, action: link-change, between: [h0, h1], loss: 1.5}\n").empty(),
                              false, "loss above 1");
        NS_TEST_EXPECT_MSG_EQ(error("  - {at: 5ms, action: link-change, between: [h0, h1], queue: lots}\n").empty(),
                              false, "a queue that is no size");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-change, node: h0, rate: 1Gbps}\n"), "between"),
                              true, "a change names a link");
        // A change of a link that is down is accepted, and is no up: the link-up after it is still needed.
        NS_TEST_EXPECT_MSG_EQ(error("  - {at: 5ms, action: link-down, between: [h0, h1]}\n"
                                    "  - {at: 6ms, action: link-change, between: [h0, h1], rate: 1Gbps}\n"
                                    "  - {at: 7ms, action: link-up, between: [h0, h1]}\n"),
                              "", "a change while down");
        // Host NICs hold packets; a limit in octets is refused when the run is built, naming the port.
        const std::string wrongUnit = ThrownMessage<ScenarioError>([] {
            RunYamlInTemp(TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], queue: 30000B}\n"),
                          kSuite, "unit");
        });
        NS_TEST_EXPECT_MSG_EQ(has(wrongUnit, "on h0's port towards h1, but the port counts its buffer in packets"), true,
                              wrongUnit);
        // The refused run left nothing scheduled behind: the next one in this process runs as usual.
        const RunResult after = RunYamlInTemp(TwoHostStream("  - {at: 5ms, action: link-change, between: [h0, h1], "
                                                            "queue: 50p}\n"),
                                              kSuite, "after");
        NS_TEST_EXPECT_MSG_EQ(NamedWorkload(after, "w").messagesDelivered, NamedWorkload(after, "w").messagesPosted,
                              "a clean run after a refused one");

        // Switch ports counting octets: `unlimited` in their unit; fq-codel's flow queues and a limit at RED's
        // threshold are refused.
        auto bottleneck = [](const std::string& queues, const std::string& queue) {
            return "stop: 10ms\ntopology: {kind: dumbbell, hosts-per-side: 1}\nlinks: {rate: 10Gbps, delay: 1us, " +
                   queues + "}\nevents:\n  - {at: 5ms, action: link-change, between: [left, right], queue: " + queue +
                   "}\nworkloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 16KiB, count: 20}\n";
        };
        const RunResult octets = RunYamlInTemp(bottleneck("queue: 150000B", "unlimited"), kSuite, "unlimited");
        NS_TEST_EXPECT_MSG_EQ(octets.linkEvents.at(0).queue.value_or(""), "unlimited", "recorded as written");
        const std::string fq = ThrownMessage<ScenarioError>(
            [&] { RunYamlInTemp(bottleneck("queue-disc: {kind: fq-codel}", "50p"), kSuite, "fq"); });
        NS_TEST_EXPECT_MSG_EQ(has(fq, "fq-codel queue disc's flow queues"), true, fq);
        const std::string red = ThrownMessage<ScenarioError>([&] {
            RunYamlInTemp(bottleneck("queue: 100p, queue-disc: {kind: red, red: {threshold: 30p}}", "30p"), kSuite,
                          "red");
        });
        NS_TEST_EXPECT_MSG_EQ(has(red, "max-th 30p must be below the queue's limit 30p"), true, red);
        Simulator::Destroy();
    }
};

class LinkChangeTestSuite : public TestSuite
{
  public:
    LinkChangeTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new PortLimitTestCase, TestCase::QUICK);
        AddTestCase(new AtItsTimeTestCase, TestCase::QUICK);
        AddTestCase(new GoodputFollowsTestCase, TestCase::QUICK);
        AddTestCase(new ChecksWidenTestCase, TestCase::QUICK);
        AddTestCase(new QueueLimitTestCase, TestCase::QUICK);
        AddTestCase(new RefusedTestCase, TestCase::QUICK);
    }
};

LinkChangeTestSuite g_linkChangeTestSuite;

} // namespace
} // namespace ns3
