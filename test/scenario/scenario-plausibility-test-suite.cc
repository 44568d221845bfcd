/*
 * iwarp-scenario-plausibility: every physical quantity a scenario gives is refused at load when it
 * lies outside its family's plausible range (helper/common/plausibility.h), with the limit and the
 * reason in the message, and taken at both ends of the range (issue "Headroom"). Reproduced on
 * 0de3e0e first with iwarp-scenario-check on test/data/bad-inputs/stream.yaml: each of these
 * passed as "ok": links.rate=100000000Gbps (10^17 bit/s), links.delay=36000s, stop=100000000s,
 * workloads.0.count=10^12, host-nic.queue=4000000000p, HostCpuModel::Frequency=2e11 (200 GHz),
 * RnicPipeline::TxPerMessage=-5us (a negative engine time), and min-rto=100ns with a 50 ns
 * delayed-ACK timeout.
 */
#include "helper/common/plausibility.h"

#include "support/graphml-file.h"
#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <cmath>

namespace ns3
{
namespace
{

using scenario::Implausible;
using scenario::Quantity;
using scenario::RangeOf;

const std::string kStream = "stop: 10ms\n"
                            "topology: {kind: two-hosts}\n"
                            "workloads:\n"
                            "  - {kind: stream, from: h0, to: h1, count: 2}\n";

/** The message `--set key=value` on kStream fails with when q refuses `base` (the value in q's base unit). */
std::string
Refused(const std::string& key, const std::string& value, Quantity q, double base)
{
    return "--set " + key + "=" + value + ": " + key + ": " + Implausible(q, base);
}

/** True when `text` contains `part` (messages whose middle comes from ns-3's own checker text). */
bool
Has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

class RangesTestCase : public TestCase
{
  public:
    RangesTestCase()
        : TestCase("each family has one range with a reason at each end; values in it pass, values outside fail")
    {
    }

  private:
    void DoRun() override
    {
        for (const scenario::PlausibleRange& r : scenario::PlausibleRanges())
        {
            NS_TEST_EXPECT_MSG_EQ(&RangeOf(r.quantity), &r, r.name << ": RangeOf finds its own entry");
            NS_TEST_EXPECT_MSG_LT(r.min, r.max, r.name << ": min below max");
            NS_TEST_EXPECT_MSG_EQ(std::string(r.belowWhy).empty() || std::string(r.aboveWhy).empty(), false,
                                  r.name << ": both ends say why");
            NS_TEST_EXPECT_MSG_EQ(Implausible(r.quantity, r.min), "", r.name << ": the smallest value passes");
            NS_TEST_EXPECT_MSG_EQ(Implausible(r.quantity, r.max), "", r.name << ": the largest value passes");
            const std::string above = Implausible(r.quantity, r.max * 1.01 + 1);
            NS_TEST_EXPECT_MSG_EQ(Has(above, "is above the largest " + std::string(r.name)), true, above);
            NS_TEST_EXPECT_MSG_EQ(Has(above, scenario::FormatQuantity(r.quantity, r.max) + ": " + r.aboveWhy), true,
                                  above);
            NS_TEST_EXPECT_MSG_EQ(Implausible(r.quantity, std::nan("")).empty(), false, r.name << ": NaN fails");
            if (r.min > 0)
            {
                const std::string below = Implausible(r.quantity, r.min * 0.99);
                NS_TEST_EXPECT_MSG_EQ(Has(below, "is below the smallest " + std::string(r.name)), true, below);
                NS_TEST_EXPECT_MSG_EQ(Has(below, r.belowWhy), true, below);
            }
        }
        // The message a user sees for the issue's own example, to the letter.
        NS_TEST_EXPECT_MSG_EQ(Implausible(Quantity::LinkRate, 1e17),
                              "100000 Tb/s is above the largest link rate this model supports (1.6 Tb/s: the "
                              "fastest Ethernet rate, IEEE 802.3dj)",
                              "10^17 bit/s");
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatQuantity(Quantity::ProtocolTimer, 250e3), "250 us", "a time");
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatQuantity(Quantity::MemoryRate, 204.8e9), "204.8 Gb/s", "a rate");
        NS_TEST_EXPECT_MSG_EQ(scenario::ImplausibleQueue("100p"), "", "a queue in packets");
        NS_TEST_EXPECT_MSG_EQ(scenario::ImplausibleQueue("4294967295B"), "", "octets: bounded by the parser");
        NS_TEST_EXPECT_MSG_EQ((scenario::RateFamilyOfAttribute("ns3::HostMemoryModel::Bandwidth") ==
                               Quantity::MemoryRate),
                              true, "the memory bus is a memory rate");
        NS_TEST_EXPECT_MSG_EQ((scenario::RateFamilyOfAttribute("ns3::RnicPipeline::EngineRate") == Quantity::LinkRate),
                              true, "an RNIC engine is a link rate");
    }
};

class LinksTestCase : public TestCase
{
  public:
    LinksTestCase()
        : TestCase("link rates, delays and queues: in the scenario, per link and in a GraphML file")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "links:\n  rate: 100000000Gbps\n"),
                              "s.yaml:6:9: links.rate: " + Implausible(Quantity::LinkRate, 1e17),
                              "a rate typed with a few zeros too many, at its line");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.rate=999Kbps"}),
                              Refused("links.rate", "999Kbps", Quantity::LinkRate, 999e3), "below 1 Mb/s");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.rate=1600Gbps"}), "", "1.6 Tb/s is taken");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.rate=1Mbps"}), "", "1 Mb/s is taken");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.delay=1001ms"}),
                              Refused("links.delay", "1001ms", Quantity::Propagation, 1001e6), "a 1.001 s link");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.delay=1s"}), "", "a 1 s link is taken");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"links.reorder={fraction: 0.1, delay: 2s}"}),
                              "--set links.reorder={fraction: 0.1, delay: 2s}: links.reorder.delay: " +
                                  Implausible(Quantity::Propagation, 2e9),
                              "a reordering hold-back of 2 s");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host-nic.queue=67108864p"}),
                              Refused("host-nic.queue", "67108864p", Quantity::QueuePackets, 67108864),
                              "more packets than 2^32-1 octets hold at 64 octets each");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host-nic.queue=67108863p"}), "", "the largest queue in packets");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host-nic.queue=unlimited"}), "", "unlimited says so itself");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOf(kStream, {"host-nic.queue-disc={kind: red, red: {threshold: 100000000p}}"}),
            "--set host-nic.queue-disc={kind: red, red: {threshold: 100000000p}}: host-nic.queue-disc.red.threshold: " +
                Implausible(Quantity::QueuePackets, 1e8),
            "a RED threshold");

        // A GraphML file: the edge named, as its other errors are.
        const std::vector<std::pair<std::string, std::string>> edges = {
            {"<data key=\"r\">2000Gbps</data>", "rate: " + Implausible(Quantity::LinkRate, 2e12)},
            {"<data key=\"d\">5s</data>", "delay: " + Implausible(Quantity::Propagation, 5e9)},
            {"<data key=\"q\">100000000p</data>", "queue: " + Implausible(Quantity::QueuePackets, 1e8)},
        };
        for (std::size_t i = 0; i < edges.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(EdgeError("plausible" + std::to_string(i) + ".graphml", edges[i].first),
                                  edges[i].second, edges[i].first);
        }
    }
};

class TimesTestCase : public TestCase
{
  public:
    TimesTestCase()
        : TestCase("simulated times and protocol timers")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"stop=86401s"}),
                              Refused("stop", "86401s", Quantity::RunTime, 86401e9), "a stop past a day");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"stop=86400s"}), "", "a day is taken");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.0.start=100000s"}),
                              Refused("workloads.0.start", "100000s", Quantity::RunTime, 1e14), "a start");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                      "  - {kind: stream, from: h0, to: h1, duration: 2ms}\n",
                                      {"workloads.0.duration=90000s"}),
                              Refused("workloads.0.duration", "90000s", Quantity::RunTime, 9e13), "a duration");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"transport.tcp.min-rto=999ns"}),
                              Refused("transport.tcp.min-rto", "999ns", Quantity::ProtocolTimer, 999),
                              "an RTO shorter than a packet's time on the wire");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"transport.tcp.min-rto=0"}),
                              "--set transport.tcp.min-rto=0: transport.tcp.min-rto: min-rto must be above zero",
                              "zero keeps its own message");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"transport.tcp.min-rto=2us", "transport.tcp.delayed-ack-timeout=1us"}),
                              "", "1 us timers are taken");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"transport.sctp.rto-max=601s"}),
                              Refused("transport.sctp.rto-max", "601s", Quantity::ProtocolTimer, 601e9),
                              "an SCTP RTO.Max past ten minutes");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"transport.tcp.initial-rto=600s"}), "", "600 s is taken");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOf(kStream, {"host-nic.queue-disc={kind: codel, codel: {target: 100ns}}"}),
            "--set host-nic.queue-disc={kind: codel, codel: {target: 100ns}}: host-nic.queue-disc.codel.target: " +
                Implausible(Quantity::ProtocolTimer, 100),
            "a CoDel target");
    }
};

class CountsTestCase : public TestCase
{
  public:
    CountsTestCase()
        : TestCase("message counts")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.0.count=1000000001"}),
                              Refused("workloads.0.count", "1000000001", Quantity::MessageCount, 1000000001),
                              "more than a billion messages");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.0.count=1000000000"}), "", "a billion is taken");
    }
};

class HostRnicTestCase : public TestCase
{
  public:
    HostRnicTestCase()
        : TestCase("host and RNIC parameters: rates by family, the others by their TypeIds' ranges")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"rnic.RnicPipeline::EngineRate=2000Gbps"}),
                              "--set rnic.RnicPipeline::EngineRate=2000Gbps: rnic.RnicPipeline::EngineRate: " + Implausible(Quantity::LinkRate, 2e12),
                              "an RNIC engine faster than any link");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host.HostMemoryModel::Bandwidth=200000Gbps"}),
                              "--set host.HostMemoryModel::Bandwidth=200000Gbps: host.HostMemoryModel::Bandwidth: " +
                                  Implausible(Quantity::MemoryRate, 2e14),
                              "a memory bus past HBM");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host.HostMemoryModel::Bandwidth=3200Gbps"}), "",
                              "3.2 Tb/s is a memory rate, not a link's");
        // The ranges of the TypeIds themselves, stated in the message with the attribute's help.
        const std::vector<std::pair<std::string, std::string>> refused = {
            {"host.HostCpuModel::Frequency=2e11", "Core clock in Hz, 1 MHz to 10 GHz"},
            {"host.HostCpuModel::Cores=2000", "at most 1024"},
            {"host.HostCpuModel::CopyCyclesPerByte=1000", "0 to 100"},
            {"host.HostCpuModel::CrcCyclesPerByte=1000", "0 to 100"},
            {"host.HostCpuModel::RxCyclesPerPacket=100000000", "at most 10^7"},
            {"host.HostCpuModel::TxCyclesPerPacket=100000000", "at most 10^7"},
            {"host.HostMemoryModel::TransactionOverhead=1ms", "0 to 10 us"},
            {"rnic.RnicPipeline::TxPerMessage=2ms", "at most 1 ms (Transmit engine time per message"},
            {"rnic.RnicPipeline::RxPerSegment=-1ns", "0 to 1 ms"},
            {"rnic.RnicPipeline::TxBatchWindow=1s", "at most 1 ms"},
        };
        for (const auto& [setting, help] : refused)
        {
            const std::string e = ErrorOf(kStream, {setting});
            NS_TEST_EXPECT_MSG_EQ(Has(e, "is not a valid value for ns3::"), true, setting << ": " << e);
            NS_TEST_EXPECT_MSG_EQ(Has(e, "it is at least "), true, setting << ": the range: " << e);
            NS_TEST_EXPECT_MSG_EQ(Has(e, help), true, setting << ": the reason: " << e);
        }
        for (const char* taken : {"host.HostCpuModel::Frequency=6.2e9", "rnic.RnicPipeline::TxPerMessage=1ms",
                                  "host.HostCpuModel::Cores=1024"})
        {
            NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {taken}), "", taken);
        }
    }
};

class ScenarioPlausibilityTestSuite : public TestSuite
{
  public:
    ScenarioPlausibilityTestSuite()
        : TestSuite("iwarp-scenario-plausibility", UNIT)
    {
        AddTestCase(new RangesTestCase, TestCase::QUICK);
        AddTestCase(new LinksTestCase, TestCase::QUICK);
        AddTestCase(new TimesTestCase, TestCase::QUICK);
        AddTestCase(new CountsTestCase, TestCase::QUICK);
        AddTestCase(new HostRnicTestCase, TestCase::QUICK);
    }
};

ScenarioPlausibilityTestSuite g_scenarioPlausibilityTestSuite;

} // namespace
} // namespace ns3
