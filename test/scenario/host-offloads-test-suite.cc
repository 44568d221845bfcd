/*
 * iwarp-host-offloads: the sockets path's offloads a current kernel and NIC have, each an attribute of
 * HostModel (doc/host-model.md, "Offloads"), measured through whole scenarios on `current` hosts:
 * - checksum offload: off, every octet sent and received costs ChecksumCyclesPerByte on the core, and a
 *   zero-copy send falls back to a copy (as Linux's does without checksum offload);
 * - interrupt coalescing: data reaching an idle connection waits InterruptDelay for its interrupt, or
 *   less once InterruptFrames packets have arrived; a stream gets fuller aggregates for it;
 * - DDIO: received data still in the last-level cache when the copy reads it crosses the bus once (the
 *   copy's write), data that later NIC writes pushed out of the cache three times (leaky DMA);
 * - RSS and aRFS: without aRFS a connection's receive stack runs on its receive queue's core, its copy on
 *   the application's core; with aRFS both on the application's.
 */
#include "helper/host-helper.h"
#include "helper/scenario/scenario-runner.h"
#include "host/host-model.h"
#include "host/host-profile.h"

#include "support/scenario-run-util.h"

#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-host-offloads";

/** One sockets stream h0 -> h1 of `count` messages of `size` on `current` hosts with `host` settings added. */
std::string
Stream(const std::string& rate, const std::string& host, const std::string& size, uint32_t count)
{
    return "stop: 200ms\ntopology: {kind: two-hosts}\nlinks: {rate: " + rate + ", delay: 1us, mtu: 9000}\n" +
           "host: {profile: current" + (host.empty() ? "" : ", " + host) + "}\n" +
           "workloads:\n  - {name: s, kind: sockets-stream, from: h0, to: h1, size: " + size +
           ", count: " + std::to_string(count) + "}\n";
}

double
Counter(const RunResult& r, const std::string& host, const std::string& name)
{
    return NamedHost(r, host).counters.at(name);
}

double
Delivered(const RunResult& r)
{
    return double(NamedWorkload(r, "s").octetsDelivered);
}

class ChecksumTestCase : public TestCase
{
  public:
    ChecksumTestCase()
        : TestCase("without checksum offload each octet sent and received costs the checksum's cycles; with it none")
    {
    }

  private:
    void DoRun() override
    {
        const std::string off = "HostModel::ChecksumOffload: false";
        const RunResult offloaded = RunYamlInTemp(Stream("10Gbps", "", "64KiB", 50), kSuite, "offloaded");
        const RunResult software = RunYamlInTemp(Stream("10Gbps", off, "64KiB", 50), kSuite, "software");
        for (const RunResult* r : {&offloaded, &software})
        {
            NS_TEST_ASSERT_MSG_EQ(NamedWorkload(*r, "s").completed, true, "the stream completed");
        }
        const double perOctet = HostCpuModel().GetChecksumCyclesPerByte();
        NS_TEST_EXPECT_MSG_GT(perOctet, 0.0, "a software checksum costs cycles");
        NS_TEST_EXPECT_MSG_EQ(Counter(offloaded, "h0", "cpu_cycles_checksum") + Counter(offloaded, "h1", "cpu_cycles_checksum"),
                              0.0, "offloaded: no checksum cycles");
        // The sender sums each 64 KiB message once; the receiver each read (rounded up per read).
        NS_TEST_EXPECT_MSG_EQ(Counter(software, "h0", "cpu_cycles_checksum"), 50 * std::ceil(perOctet * 65536),
                              "the sender sums every octet it sends");
        const double rx = Counter(software, "h1", "cpu_cycles_checksum");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(rx, perOctet * Delivered(software), "the receiver sums every octet");
        // Reads take whole segments (MTU 9000: 8948 octets), each rounding up by less than a cycle.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rx, perOctet * Delivered(software) + Delivered(software) / 8948,
                                    "and no more (a cycle of rounding per read)");
        // The checksum's cycles shift the reads a little (their aggregates differ by a few), nothing else.
        NS_TEST_EXPECT_MSG_EQ_TOL(Counter(software, "h1", "cpu_cycles") - rx, Counter(offloaded, "h1", "cpu_cycles"),
                                  0.01 * Counter(offloaded, "h1", "cpu_cycles"),
                                  "the checksum is all the receiver pays more");
    }
};

class ZeroCopyNeedsOffloadTestCase : public TestCase
{
  public:
    ZeroCopyNeedsOffloadTestCase()
        : TestCase("a zero-copy send without checksum offload falls back to a copy, as Linux's does")
    {
    }

  private:
    void DoRun() override
    {
        auto run = [](const std::string& host, const std::string& tag) {
            const std::string yaml =
                "stop: 200ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 1us}\nhost: {profile: current" +
                host + "}\nworkloads:\n  - {name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 20, "
                       "zero-copy: true}\n";
            return RunYamlInTemp(yaml, kSuite, tag);
        };
        const RunResult offloaded = run("", "zc-offloaded");
        const RunResult software = run(", HostModel::ChecksumOffload: false", "zc-software");
        const double octets = Delivered(offloaded);
        NS_TEST_ASSERT_MSG_EQ(octets, 20.0 * 65536, "every message delivered");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(offloaded, "h0").busBytes), octets, "zero-copy: the NIC's read only");
        NS_TEST_EXPECT_MSG_EQ(Counter(offloaded, "h0", "cpu_cycles_copy"), 0.0, "zero-copy: nothing copied");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(software, "h0").busBytes), 3 * octets,
                              "without checksum offload the message is copied: three crossings");
        NS_TEST_EXPECT_MSG_GT(Counter(software, "h0", "cpu_cycles_copy"), 0.0, "and its copy costs cycles");
    }
};

/** The first (only) message's delivery latency in ns. */
double
FirstLatencyNs(const RunResult& r)
{
    return NamedWorkload(r, "s").fctNs.max;
}

class CoalescingLatencyTestCase : public TestCase
{
  public:
    CoalescingLatencyTestCase()
        : TestCase("a message reaching an idle receiver waits InterruptDelay for its interrupt, or not at all once "
                   "InterruptFrames packets have arrived")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult none = RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 0s", "64", 1), kSuite, "irq0");
        const RunResult eight = RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 8us", "64", 1), kSuite, "irq8");
        const RunResult fifty = RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 50us", "64", 1), kSuite, "irq50");
        const RunResult frame =
            RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 50us, HostModel::InterruptFrames: 1", "64", 1),
                          kSuite, "irq-frame");
        NS_TEST_EXPECT_MSG_EQ_TOL(FirstLatencyNs(eight) - FirstLatencyNs(none), 8000.0, 1.0,
                                  "one segment waits the whole delay");
        NS_TEST_EXPECT_MSG_EQ_TOL(FirstLatencyNs(fifty) - FirstLatencyNs(none), 50000.0, 1.0,
                                  "whatever the delay");
        NS_TEST_EXPECT_MSG_EQ_TOL(FirstLatencyNs(frame), FirstLatencyNs(none), 1.0,
                                  "one frame is enough to raise the interrupt at once");
        // 20000 octets in 3 segments of MTU 9000, 7.2 us apart: with InterruptFrames 3 the third raises the
        // interrupt, long before the 1 ms timer would; the reads then take what has arrived.
        const RunResult third = RunYamlInTemp(
            Stream("10Gbps", "HostModel::InterruptDelay: 1ms, HostModel::InterruptFrames: 3", "20000", 1), kSuite, "irq3");
        const RunResult prompt = RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 0s", "20000", 1), kSuite,
                                               "irq-prompt");
        NS_TEST_EXPECT_MSG_EQ_TOL(FirstLatencyNs(third), FirstLatencyNs(prompt), 10000.0,
                                  "the frame count raised the interrupt, not the 1 ms timer");
    }
};

class CoalescingBatchesTestCase : public TestCase
{
  public:
    CoalescingBatchesTestCase()
        : TestCase("coalescing gives a stream that the receiver keeps up with fuller aggregates; a saturated one "
                   "is polled and loses nothing")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult each = RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 0s", "64KiB", 100), kSuite, "each");
        const RunResult coalesced =
            RunYamlInTemp(Stream("10Gbps", "HostModel::InterruptDelay: 8us", "64KiB", 100), kSuite, "coalesced");
        const double stackEach = Counter(each, "h1", "cpu_cycles_stack") / Delivered(each);
        const double stackCoalesced = Counter(coalesced, "h1", "cpu_cycles_stack") / Delivered(coalesced);
        NS_TEST_EXPECT_MSG_LT(stackCoalesced, 0.8 * stackEach, "fewer, fuller aggregates per octet");
        NS_TEST_EXPECT_MSG_EQ_TOL(*NamedWorkload(coalesced, "s").goodputBps, *NamedWorkload(each, "s").goodputBps,
                                  0.01 * *NamedWorkload(each, "s").goodputBps, "at the same goodput");
        // At 100 Gb/s the receiving core is the bottleneck: reads follow each other, polled, never waiting.
        const RunResult busyEach = RunYamlInTemp(Stream("100Gbps", "HostModel::InterruptDelay: 0s", "64KiB", 200), kSuite,
                                                 "busy-each");
        const RunResult busyCoalesced = RunYamlInTemp(
            Stream("100Gbps", "HostModel::InterruptDelay: 64us", "64KiB", 200), kSuite, "busy-coalesced");
        // The first read waits for its interrupt (and a read after the receiver has drained all it had, as
        // in slow start); the ~200 reads that follow one another are polled: the stream takes about one
        // delay longer, not one per read.
        auto seconds = [](const RunResult& r) { return Delivered(r) * 8 / *NamedWorkload(r, "s").goodputBps; };
        const double longer = seconds(busyCoalesced) - seconds(busyEach);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(longer, 64e-6, "the first read waited for the interrupt");
        NS_TEST_EXPECT_MSG_LT(longer, 2 * 64e-6, "a saturated receiver is polled: its reads do not wait");
    }
};

class DdioTestCase : public TestCase
{
  public:
    DdioTestCase()
        : TestCase("with DDIO data the copy reads from the cache crosses the bus once; data evicted by later NIC "
                   "writes crosses it three times")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult off = RunYamlInTemp(Stream("10Gbps", "HostModel::DdioOctets: 0", "64KiB", 100), kSuite, "ddio-off");
        const RunResult on = RunYamlInTemp(Stream("10Gbps", "", "64KiB", 100), kSuite, "ddio-on");
        const double octets = Delivered(on);
        NS_TEST_ASSERT_MSG_EQ(octets, 100.0 * 65536, "every message delivered");
        // Messages that do not line up with the reads or the segments: each octet is counted as its segment is.
        const RunResult odd = RunYamlInTemp(Stream("10Gbps", "", "100000", 50), kSuite, "ddio-odd");
        NS_TEST_EXPECT_MSG_EQ(Counter(odd, "h1", "ddio_bytes"), Delivered(odd), "reads that cut segments: all cached");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(off, "h1").busBytes), 3 * octets, "without DDIO: DMA, copy read, write");
        NS_TEST_EXPECT_MSG_EQ(Counter(off, "h1", "ddio_bytes"), 0.0, "and nothing from the cache");
        NS_TEST_EXPECT_MSG_EQ(Counter(on, "h1", "ddio_bytes"), octets, "a receiver that keeps up reads all from cache");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(on, "h1").busBytes), octets, "only the copy's write crosses the bus");
        // Leaky DMA: at 100 Gb/s the receiving core falls behind and its socket buffer holds more than the
        // cache DDIO writes into, so the oldest data is evicted before the copy reads it.
        const RunResult leaky = RunYamlInTemp(Stream("100Gbps", "", "64KiB", 200), kSuite, "leaky");
        const RunResult vast = RunYamlInTemp(Stream("100Gbps", "HostModel::DdioOctets: 1073741824", "64KiB", 200),
                                             kSuite, "vast");
        const double leakyOctets = Delivered(leaky);
        NS_TEST_EXPECT_MSG_LT(Counter(leaky, "h1", "ddio_bytes"), 0.9 * leakyOctets, "a backlog larger than the cache leaks");
        NS_TEST_EXPECT_MSG_GT(Counter(leaky, "h1", "ddio_bytes"), 0.0, "but not all of it");
        const double leakyBus = double(NamedHost(leaky, "h1").busBytes);
        NS_TEST_EXPECT_MSG_EQ(leakyBus, 3 * leakyOctets - 2 * Counter(leaky, "h1", "ddio_bytes"),
                              "each cached octet saves two crossings, each evicted one saves none");
        NS_TEST_EXPECT_MSG_EQ(Counter(vast, "h1", "ddio_bytes"), Delivered(vast), "a cache larger than the backlog keeps all");
    }
};

class CacheAccountingTestCase : public TestCase
{
  public:
    CacheAccountingTestCase()
        : TestCase("HostModel::CachedOctets: data stays in the cache until DdioOctets of later NIC writes, RDMA "
                   "placements included, have followed it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        HostHelper().Install(NodeContainer(node));
        Ptr<HostModel> host = node->GetObject<HostModel>();
        const uint64_t mark = host->NoteNicWrite(1000);
        NS_TEST_EXPECT_MSG_EQ(host->CachedOctets(mark, 1000), 0u, "without DDIO nothing is cached");
        host->SetAttribute("DdioOctets", UintegerValue(4096));
        NS_TEST_EXPECT_MSG_EQ(host->CachedOctets(mark, 1000), 1000u, "nothing written after it: in the cache");
        host->NoteNicWrite(4095);
        NS_TEST_EXPECT_MSG_EQ(host->CachedOctets(mark, 1000), 1000u, "4095 octets after it: still there");
        host->RdmaReceive(1, Callback<void>());
        NS_TEST_EXPECT_MSG_EQ(host->CachedOctets(mark, 1000), 0u, "an RDMA placement pushed it out");
        Simulator::Run();
        Simulator::Destroy();
    }
};

/** Two sockets streams into h1 of two cores, each connection's application on its own core. */
RunResult
TwoFlowsInto(const std::string& steering, const std::string& tag)
{
    const std::string yaml =
        "stop: 200ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 1us, mtu: 9000}\n"
        "host: {profile: current, HostCpuModel::Cores: 2, " +
        steering +
        "}\nworkloads:\n"
        "  - {name: a, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 50}\n"
        "  - {name: b, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 50}\n";
    return RunYamlInTemp(yaml, kSuite, tag);
}

class SteeringTestCase : public TestCase
{
  public:
    SteeringTestCase()
        : TestCase("RSS without aRFS runs every connection's receive stack on its queue's core and the copy on the "
                   "application's; with aRFS both on the application's")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult rss = TwoFlowsInto("HostModel::ReceiveQueues: 1, HostModel::Arfs: false", "rss");
        const RunResult arfs = TwoFlowsInto("HostModel::ReceiveQueues: 1, HostModel::Arfs: true", "arfs");
        const double hz = std::stod(FindHostProfile("current")->ValueOf("ns3::HostCpuModel::Frequency"));
        for (const RunResult* r : {&rss, &arfs})
        {
            NS_TEST_ASSERT_MSG_EQ(NamedWorkload(*r, "a").completed && NamedWorkload(*r, "b").completed, true,
                                  "both streams completed");
        }
        // One queue: its core (0) runs both connections' stacks and the first's copy; core 1 only the second's copy.
        const HostResult& h = NamedHost(rss, "h1");
        const double copy = h.counters.at("cpu_cycles_copy");
        const double stack = h.counters.at("cpu_cycles_stack");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.cpuBusyPerCore.at(1).GetSeconds() * hz, copy / 2, 0.01 * copy,
                                  "the second application's core copies, nothing else");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.cpuBusyPerCore.at(0).GetSeconds() * hz, stack + copy / 2, 0.01 * stack,
                                  "the queue's core runs every stack");
        // Without aRFS the queue follows the connection's hash, whatever its application's core; with it, the
        // application's core.
        Ptr<Node> node = CreateObject<Node>();
        HostHelper().Install(NodeContainer(node));
        Ptr<HostModel> model = node->GetObject<HostModel>();
        model->GetCpu()->SetAttribute("Cores", UintegerValue(2));
        model->SetAttribute("Arfs", BooleanValue(false));
        model->SetAttribute("ReceiveQueues", UintegerValue(4));
        for (uint32_t app : {0u, 1u})
        {
            NS_TEST_EXPECT_MSG_EQ(model->StackCore(app, 6), 0u, "hash 6: queue 2, on core 0");
            NS_TEST_EXPECT_MSG_EQ(model->StackCore(app, 7), 1u, "hash 7: queue 3, on core 1");
        }
        model->SetAttribute("Arfs", BooleanValue(true));
        NS_TEST_EXPECT_MSG_EQ(model->StackCore(1, 6), 1u, "aRFS: the application's core");
        Simulator::Destroy();
        // aRFS: each connection's stack follows its application: the two cores carry the same work.
        const HostResult& a = NamedHost(arfs, "h1");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.cpuBusyPerCore.at(0).GetSeconds(), a.cpuBusyPerCore.at(1).GetSeconds(),
                                  0.05 * a.cpuBusyPerCore.at(1).GetSeconds(), "each core its own connection's work");
    }
};

class HostOffloadsTestSuite : public TestSuite
{
  public:
    HostOffloadsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new ChecksumTestCase, TestCase::QUICK);
        AddTestCase(new ZeroCopyNeedsOffloadTestCase, TestCase::QUICK);
        AddTestCase(new CoalescingLatencyTestCase, TestCase::QUICK);
        AddTestCase(new CoalescingBatchesTestCase, TestCase::QUICK);
        AddTestCase(new DdioTestCase, TestCase::QUICK);
        AddTestCase(new CacheAccountingTestCase, TestCase::QUICK);
        AddTestCase(new SteeringTestCase, TestCase::QUICK);
    }
};

HostOffloadsTestSuite g_hostOffloadsTestSuite;

} // namespace
} // namespace ns3
