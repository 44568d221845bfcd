/*
 * iwarp-sockets-host-costs: what the sockets baseline costs its receiving host, as a whole scenario measures
 * it (doc/host-model.md). Regressions of the defects issue 27 reported, each reproduced first:
 * - a stream ended by `duration` cost 12.7 cycles per delivered octet where one ended by `count` cost 8.0:
 *   the receiver took everything TCP held into host processing at once, so at the stop megabytes had been
 *   DMA'd and partly copied but never delivered. Now a connection has one read (64 KiB) in processing;
 * - reordering lowered the cycles per delivered octet (12.98 -> 9.18): duplicates cost nothing, and the
 *   backlog above hid it. Now a segment of data already received costs its DMA and protocol cycles;
 * - a short flow waited behind every queued read of a long flow on its core (449 us for 4 KiB that takes
 *   26 us alone): protocol cycles of later reads slipped in before its copy. Now reads take turns at a core
 *   and a read's protocol cycles and copy are one stretch of it.
 * And the zero-copy send of `sockets-stream` (`zero-copy: true`): one bus crossing at the sender, no copy.
 */
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-sockets-host-costs";

/** host-2005 (doc/host-model.md), with the core costs of the host the defects were reported on: 2.5 GHz,
 *  10000 cycles per received packet, 1 cycle per octet. */
constexpr double kFrequency = 2.5e9;
constexpr double kRxCyclesPerPacket = 10000;
constexpr double kCopyCyclesPerByte = 1.0;
constexpr uint32_t kMss = 1448;
constexpr uint32_t kRead = 65536; // SocketStream's RxReadSize default: one read

std::string
TwoHosts(const std::string& links, const std::string& stop, const std::string& workload)
{
    return "stop: " + stop + "\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 5us" + links +
           "}\nhost: {profile: host-2005}\nworkloads:\n  - " + workload + "\n";
}

/** The receiver's (h1's) cycles per octet its application was delivered. */
double
CyclesPerDeliveredOctet(const RunResult& r)
{
    return NamedHost(r, "h1").counters.at("cpu_cycles") / double(r.workloads.at(0).octetsDelivered);
}

class DurationVersusCountTestCase : public TestCase
{
  public:
    DurationVersusCountTestCase()
        : TestCase("a stream ended by duration costs what one ended by count does per delivered octet; at the "
                   "stop the receiver holds at most one read undelivered")
    {
    }

  private:
    void DoRun() override
    {
        // The sender (4.5 Gb/s) outruns the receiver's core (2.5 Gb/s); the stop comes 1 ms after posting ends.
        const RunResult byDuration = RunYamlInTemp(
            TwoHosts("", "21ms", "{name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, duration: 20ms}"),
            kSuite, "duration");
        const RunResult byCount = RunYamlInTemp(
            TwoHosts("", "200ms", "{name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 100}"),
            kSuite, "count");
        NS_TEST_ASSERT_MSG_EQ(byCount.workloads.at(0).completed, true, "the count stream completed");
        const double d = CyclesPerDeliveredOctet(byDuration);
        const double c = CyclesPerDeliveredOctet(byCount);
        NS_TEST_EXPECT_MSG_EQ_TOL(d, c, 0.05 * c, "same cycles per delivered octet (was 12.7 against 8.0)");
        // The octets DMA'd and never delivered: one read in processing, and the part of a message delivered
        // so far (a message is counted when whole).
        const double dma = NamedHost(byDuration, "h1").counters.at("bus_bytes_NicDmaWrite");
        const double delivered = double(byDuration.workloads.at(0).octetsDelivered);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(dma - delivered, double(2 * kRead), "at most a read and a message undelivered");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dma, delivered, "nothing delivered that was not DMA'd");
    }
};

class ReorderingTestCase : public TestCase
{
  public:
    ReorderingTestCase()
        : TestCase("reordering makes the receiving host dearer per delivered octet, never cheaper: a duplicate "
                   "costs its DMA and protocol cycles")
    {
    }

  private:
    void DoRun() override
    {
        const std::string stream = "{name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 100}";
        const RunResult plain = RunYamlInTemp(TwoHosts("", "300ms", stream), kSuite, "in-order");
        const RunResult reordered =
            RunYamlInTemp(TwoHosts(", reorder: {fraction: 0.2, delay: 20us}", "300ms", stream), kSuite, "reordered");
        NS_TEST_ASSERT_MSG_EQ(plain.workloads.at(0).completed, true, "in order: completed");
        NS_TEST_ASSERT_MSG_EQ(reordered.workloads.at(0).completed, true, "reordered: completed");
        NS_TEST_ASSERT_MSG_GT(reordered.workloads.at(0).retransmissions.total, 0u, "spurious retransmissions");
        NS_TEST_EXPECT_MSG_GT(CyclesPerDeliveredOctet(reordered), CyclesPerDeliveredOctet(plain),
                              "dearer with reordering (was 9.18 against 12.98)");
        // Every duplicate is DMA'd: more than the delivered octets cross into the receiver.
        NS_TEST_EXPECT_MSG_GT(NamedHost(reordered, "h1").counters.at("bus_bytes_NicDmaWrite"),
                              double(reordered.workloads.at(0).octetsDelivered), "duplicates DMA'd");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(plain, "h1").counters.at("bus_bytes_NicDmaWrite"),
                              double(plain.workloads.at(0).octetsDelivered), "in order: each octet DMA'd once");
    }
};

class ShortBehindLongTestCase : public TestCase
{
  public:
    ShortBehindLongTestCase()
        : TestCase("a 4 KiB flow sharing a receiver's only core with a long flow waits for at most one read of "
                   "it")
    {
    }

  private:
    static Time MouseFct(bool withElephant)
    {
        std::string yaml = "stop: 40ms\n"
                           "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 3}\n"
                           "links: {rate: 10Gbps, delay: 1us}\n"
                           "host: {profile: host-2005}\n"
                           "per-host: {h2: {host: {HostCpuModel::Cores: 1}}}\n"
                           "workloads:\n"
                           "  - {name: mouse, kind: sockets-stream, from: h1, to: h2, size: 4KiB, count: 1, start: 10ms}\n";
        if (withElephant)
        {
            yaml += "  - {name: elephant, kind: sockets-stream, from: h0, to: h2, size: 64KiB, duration: 20ms}\n";
        }
        const RunResult r = RunYamlInTemp(yaml, kSuite, withElephant ? "both" : "alone");
        const WorkloadResult& mouse = NamedWorkload(r, "mouse");
        NS_ABORT_MSG_UNLESS(mouse.completed && mouse.fctNs.count == 1, "the mouse was delivered");
        return NanoSeconds(int64_t(std::llround(mouse.fctNs.p50)));
    }

    void DoRun() override
    {
        const Time alone = MouseFct(false);
        const Time shared = MouseFct(true);
        // One read of the long flow: its packets' protocol cycles and its copy on the core.
        const double readCycles = std::ceil(double(kRead) / kMss) * kRxCyclesPerPacket + kRead * kCopyCyclesPerByte;
        const Time oneRead = Seconds(readCycles / kFrequency);
        NS_TEST_EXPECT_MSG_GT(shared, alone, "the long flow was there");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(shared - alone, oneRead,
                                    "delayed by at most one read of the long flow (was 424 us, two reads)");
    }
};

class ZeroCopyTestCase : public TestCase
{
  public:
    ZeroCopyTestCase()
        : TestCase("zero-copy: a sockets-stream's sender crosses its bus once per octet and copies nothing; the "
                   "receiver pays as before")
    {
    }

  private:
    void DoRun() override
    {
        const std::string plain = "{name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 50}";
        const std::string zero =
            "{name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 50, zero-copy: true}";
        const RunResult copied = RunYamlInTemp(TwoHosts("", "100ms", plain), kSuite, "copied");
        const RunResult pinned = RunYamlInTemp(TwoHosts("", "100ms", zero), kSuite, "zero-copy");
        const double octets = 50.0 * 65536;
        NS_TEST_ASSERT_MSG_EQ(pinned.workloads.at(0).completed, true, "zero-copy: completed");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(copied, "h0").busBytes), 3 * octets, "copy: 3 crossings");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(pinned, "h0").busBytes), octets, "zero-copy: 1");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(pinned, "h0").counters.at("copies"), 0.0, "nothing copied");
        NS_TEST_EXPECT_MSG_LT(NamedHost(pinned, "h0").counters.at("cpu_cycles"),
                              NamedHost(copied, "h0").counters.at("cpu_cycles"), "fewer sender cycles");
        NS_TEST_EXPECT_MSG_EQ(double(NamedHost(pinned, "h1").busBytes), 3 * octets, "the receiver still copies");
    }
};

class SocketsHostCostsTestSuite : public TestSuite
{
  public:
    SocketsHostCostsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new DurationVersusCountTestCase(), TestCase::QUICK);
        AddTestCase(new ReorderingTestCase(), TestCase::QUICK);
        AddTestCase(new ShortBehindLongTestCase(), TestCase::QUICK);
        AddTestCase(new ZeroCopyTestCase(), TestCase::QUICK);
    }
};

SocketsHostCostsTestSuite g_socketsHostCostsTestSuite;

} // namespace
} // namespace ns3
