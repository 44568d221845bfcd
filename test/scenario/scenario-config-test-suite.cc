/*
 * iwarp-scenario-config: the scenario file language (doc/scenario-format.md).
 *
 *  - units: sizes, times and rates, and the errors for negative values and unknown units;
 *  - node names the generated topology kinds produce;
 *  - a full example (examples/scenarios/leaf-spine-mixed.yaml) read field by field;
 *  - each class of error gives "file:line:column: key.path: detail" with the right place;
 *  - --set overrides: replacing, creating known optional keys, refusing unknown paths, and
 *    errors in overridden values pointing at the override.
 */
#include "helper/scenario/host-attributes.h"
#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-network.h"
#include "helper/common/units.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"

#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <fstream>
#include <functional>

#ifndef IWARP_SOURCE_DIR
#define IWARP_SOURCE_DIR "."
#endif

namespace ns3
{
namespace
{

using namespace scenario;

/** A minimal valid scenario; the error cases change one line of it. */
const std::string kMinimal = "stop: 1ms\n"                // line 1
                             "topology:\n"                // 2
                             "  kind: two-hosts\n"        // 3
                             "workloads:\n"               // 4
                             "  - kind: stream\n"         // 5
                             "    from: h0\n"             // 6
                             "    to: h1\n"               // 7
                             "    size: 64KiB\n"          // 8
                             "    count: 10\n";           // 9

class UnitsTestCase : public TestCase
{
  public:
    UnitsTestCase()
        : TestCase("units: sizes, times, rates and their errors")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ParseSize("4096"), 4096u, "a bare number is octets");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("64KiB"), 65536u, "KiB is 1024");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("64KB"), 64000u, "KB is 1000");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("1MiB"), 1048576u, "MiB");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("1.5MiB"), 1572864u, "a fraction that gives whole octets");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("2GiB"), 2147483648ull, "GiB");
        NS_TEST_EXPECT_MSG_EQ(ParseSize("3GB"), 3000000000ull, "GB");
        NS_TEST_EXPECT_MSG_EQ(ParseSize(" 12 B "), 12u, "spaces around and between");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("10us"), MicroSeconds(10), "us");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("1ms"), MilliSeconds(1), "ms");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("2.5us"), NanoSeconds(2500), "fraction of us");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("3s"), Seconds(3), "s");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("0"), Time(0), "zero needs no unit");
        NS_TEST_EXPECT_MSG_EQ(ParseRate("10Gbps"), 10000000000ull, "Gbps");
        NS_TEST_EXPECT_MSG_EQ(ParseRate("2.5Gbps"), 2500000000ull, "fraction of Gbps");
        NS_TEST_EXPECT_MSG_EQ(ParseRate("100Mbps"), 100000000ull, "Mbps");
        NS_TEST_EXPECT_MSG_EQ(ParseRate("64Kbps"), 64000ull, "Kbps");
        NS_TEST_EXPECT_MSG_EQ(ParseRate("9600bps"), 9600ull, "bps");
        NS_TEST_EXPECT_MSG_EQ(FormatSize(65536), "64KiB", "FormatSize picks the exact binary unit");
        NS_TEST_EXPECT_MSG_EQ(FormatSize(1000), "1000B", "and octets when none is exact");

        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseSize("-4KiB"); }), "negative size \"-4KiB\"", "negative size");
        NS_TEST_EXPECT_MSG_EQ(
            ThrownMessage<UnitError>([] { ParseSize("64KQ"); }),
            "unknown unit 'KQ' in size \"64KQ\" (expected one of B, KB, KiB, MB, MiB, GB, GiB)",
            "unknown size unit");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseSize("0.5B"); }),
                              "size \"0.5B\" is not a whole number of octets",
                              "no silent rounding");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseSize("20GiGiB"); }).empty(), false, "garbage unit");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseSize("99999999999GiB"); }),
                              "size \"99999999999GiB\" is too large",
                              "overflow");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseSize("KiB"); }).empty(), false, "no number");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseTime("10"); }),
                              "time \"10\" has no unit (expected one of ns, us, ms, s)",
                              "a time needs a unit");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseTime("10xs"); }),
                              "unknown unit 'xs' in time \"10xs\" (expected one of ns, us, ms, s)",
                              "unknown time unit");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseTime("-1ms"); }), "negative time \"-1ms\"", "negative time");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseTime("1.5ns"); }),
                              "time \"1.5ns\" is not a whole number of nanoseconds",
                              "sub-nanosecond");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<UnitError>([] { ParseRate("10GB/s"); }),
                              "unknown unit 'GB/s' in rate \"10GB/s\" (expected one of bps, Kbps, Mbps, Gbps)",
                              "unknown rate unit");
    }
};

class NodeNamesTestCase : public TestCase
{
  public:
    NodeNamesTestCase()
        : TestCase("node names of the generated topology kinds")
    {
    }

  private:
    void DoRun() override
    {
        TopologyConfig t;
        t.kind = TopologyKind::TwoHosts;
        NS_TEST_EXPECT_MSG_EQ(ExpectedNodeNames(t).size(), 2u, "two-hosts: h0, h1");
        NS_TEST_EXPECT_MSG_EQ(ExpectedNodeNames(t).back(), "h1", "two-hosts: h1 last");

        t.kind = TopologyKind::Dumbbell;
        t.hostsPerSide = 3;
        auto d = ExpectedNodeNames(t);
        NS_TEST_ASSERT_MSG_EQ(d.size(), 8u, "dumbbell 3: six hosts and two routers");
        NS_TEST_EXPECT_MSG_EQ(d[5], "h5", "hosts left then right, h0..h5");
        NS_TEST_EXPECT_MSG_EQ(d[6], "left", "left router");
        NS_TEST_EXPECT_MSG_EQ(d[7], "right", "right router");

        t.kind = TopologyKind::LeafSpine;
        t.leaves = 3;
        t.spines = 2;
        t.hostsPerLeaf = 4;
        auto ls = ExpectedNodeNames(t);
        NS_TEST_ASSERT_MSG_EQ(ls.size(), 17u, "12 hosts, 3 leaves, 2 spines");
        NS_TEST_EXPECT_MSG_EQ(ls[11], "h11", "last host");
        NS_TEST_EXPECT_MSG_EQ(ls[12], "leaf0", "first leaf");
        NS_TEST_EXPECT_MSG_EQ(ls[16], "spine1", "last spine");

        t.kind = TopologyKind::FatTree;
        t.k = 4;
        auto ft = ExpectedNodeNames(t);
        NS_TEST_EXPECT_MSG_EQ(ExpectedHostNames(t).size(), 16u, "fat-tree k=4: k^3/4 hosts");
        NS_TEST_ASSERT_MSG_EQ(ft.size(), 16u + 8 + 8 + 4, "8 edge, 8 aggregation, 4 core switches");
        NS_TEST_EXPECT_MSG_EQ(ft[16], "core0", "core switches after the hosts");
        NS_TEST_EXPECT_MSG_EQ(ft[20], "agg0_0", "then pod by pod: aggregation");
        NS_TEST_EXPECT_MSG_EQ(ft.back(), "edge3_1", "and edge switches");

        t.kind = TopologyKind::GraphMl;
        NS_TEST_EXPECT_MSG_EQ(ExpectedNodeNames(t).empty(), true, "graphml: names come from the file");
    }
};

class FullExampleTestCase : public TestCase
{
  public:
    FullExampleTestCase()
        : TestCase("the full example file is read field by field")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = std::string(IWARP_SOURCE_DIR) + "/examples/scenarios/leaf-spine-mixed.yaml";
        ScenarioConfig c = LoadScenarioFile(path);
        NS_TEST_EXPECT_MSG_EQ(c.name, "leaf-spine-mixed", "name");
        NS_TEST_EXPECT_MSG_EQ(c.sourceFile, path, "source file");
        NS_TEST_EXPECT_MSG_EQ(c.seed, 3u, "seed");
        NS_TEST_EXPECT_MSG_EQ(c.run, 2u, "run");
        NS_TEST_EXPECT_MSG_EQ(c.stop, MilliSeconds(20), "stop");
        NS_TEST_EXPECT_MSG_EQ(int(c.topology.kind), int(TopologyKind::LeafSpine), "topology kind");
        NS_TEST_EXPECT_MSG_EQ(c.topology.leaves, 2u, "leaves");
        NS_TEST_EXPECT_MSG_EQ(c.topology.hostsPerLeaf, 4u, "hosts-per-leaf");
        NS_TEST_EXPECT_MSG_EQ(c.topology.ecmp, true, "ecmp");
        NS_TEST_EXPECT_MSG_EQ(c.links.rateBps.value_or(0), 25000000000ull, "links.rate");
        NS_TEST_EXPECT_MSG_EQ(c.links.delay.value_or(Time(0)), MicroSeconds(1), "links.delay");
        NS_TEST_EXPECT_MSG_EQ(c.links.queue.value_or(""), "200p", "links.queue");
        NS_TEST_EXPECT_MSG_EQ(c.links.mtu.value_or(0), 1500u, "links.mtu");
        NS_TEST_EXPECT_MSG_EQ(c.links.impairment.loss.value_or(-1), 0.0001, "links.loss");
        NS_TEST_ASSERT_MSG_EQ(c.perLink.size(), 1u, "one per-link entry");
        NS_TEST_EXPECT_MSG_EQ(c.perLink[0].a + "-" + c.perLink[0].b, "leaf0-spine1", "between");
        NS_TEST_EXPECT_MSG_EQ(c.perLink[0].link.rateBps.value_or(0), 10000000000ull, "per-link rate");
        NS_TEST_ASSERT_MSG_EQ(c.perLink[0].link.impairment.gilbertElliott.has_value(), true, "GE given");
        NS_TEST_EXPECT_MSG_EQ(c.perLink[0].link.impairment.gilbertElliott->p, 0.01, "GE p");
        NS_TEST_EXPECT_MSG_EQ(c.perLink[0].link.impairment.gilbertElliott->lossBad, 0.5, "GE loss-bad");
        NS_TEST_ASSERT_MSG_EQ(c.perLink[0].link.impairment.reorder.has_value(), true, "reorder given");
        NS_TEST_EXPECT_MSG_EQ(c.perLink[0].link.impairment.reorder->delay, MicroSeconds(5), "reorder delay");
        NS_TEST_EXPECT_MSG_EQ(c.host.at("ns3::TcpSocket::SegmentSize"), "1448", "short name gets ns3::");
        NS_TEST_EXPECT_MSG_EQ(c.rnic.at("ns3::RnicPipeline::TxPerMessage"), "550ns", "full name kept");
        NS_TEST_EXPECT_MSG_EQ(c.perHost.at("h7").rnic.at("ns3::RnicPipeline::RxPerSegment"), "90ns", "per-host");

        NS_TEST_ASSERT_MSG_EQ(c.workloads.size(), 5u, "five workloads");
        const WorkloadConfig& pp = c.workloads[0];
        NS_TEST_EXPECT_MSG_EQ(pp.name, "latency", "name");
        NS_TEST_EXPECT_MSG_EQ(int(pp.op), int(RdmaOp::Send), "op send");
        NS_TEST_ASSERT_MSG_EQ(pp.sizes.size(), 3u, "sweep sizes");
        NS_TEST_EXPECT_MSG_EQ(pp.sizes[1], 4096u, "4KiB");
        NS_TEST_EXPECT_MSG_EQ(pp.count.value_or(0), 100u, "count");
        NS_TEST_EXPECT_MSG_EQ(int(pp.payload), int(PayloadMode::Real), "payload real");
        const WorkloadConfig& st = c.workloads[1];
        NS_TEST_EXPECT_MSG_EQ(st.size, 1048576u, "1MiB");
        NS_TEST_EXPECT_MSG_EQ(st.duration.value_or(Time(0)), MilliSeconds(10), "duration");
        NS_TEST_EXPECT_MSG_EQ(st.count.has_value(), false, "no count with a duration");
        NS_TEST_EXPECT_MSG_EQ(st.outstanding, 8u, "outstanding");
        NS_TEST_EXPECT_MSG_EQ(st.start, MicroSeconds(10), "start");
        NS_TEST_EXPECT_MSG_EQ(st.llp, &DefaultLlp(), "llp default");
        NS_TEST_EXPECT_MSG_EQ(std::string(st.llp->name), "tcp", "the default is MPA over TCP");
        NS_TEST_EXPECT_MSG_EQ(std::string(ToString(c.workloads[2].kind)), "sockets-stream", "sockets-stream");
        const WorkloadConfig& in = c.workloads[3];
        NS_TEST_EXPECT_MSG_EQ(in.senders.size(), 3u, "incast senders");
        NS_TEST_EXPECT_MSG_EQ(in.to, "h7", "incast receiver");
        const WorkloadConfig& inj = c.workloads[4];
        NS_TEST_ASSERT_MSG_EQ(inj.inject.has_value(), true, "inject config");
        NS_TEST_EXPECT_MSG_EQ(inj.inject->targetIndex, 1u, "target by name resolves to index 1");
        NS_TEST_EXPECT_MSG_EQ(inj.inject->at, MilliSeconds(2), "at");
        NS_TEST_ASSERT_MSG_EQ(inj.inject->fields.has_value(), true, "fields");
        NS_TEST_EXPECT_MSG_EQ(inj.inject->fields->stag.value_or(0), 0xdeadu, "hex STag");
        NS_TEST_EXPECT_MSG_EQ(int(inj.inject->fields->opcode.value_or(99)), 0, "opcode by name");
        NS_TEST_EXPECT_MSG_EQ(inj.inject->fields->msn.has_value(), false, "unset fields stay unset");
        NS_TEST_EXPECT_MSG_EQ(c.tracing.pcapAll, false, "not all links");
        NS_TEST_ASSERT_MSG_EQ(c.tracing.pcapLinks.size(), 1u, "one pcap link");
        NS_TEST_EXPECT_MSG_EQ(c.tracing.pcapLinks[0].second, "leaf0", "pcap link endpoint");

        // Defaults, from the minimal scenario given as a string.
        ScenarioConfig m = LoadScenarioString(kMinimal);
        NS_TEST_EXPECT_MSG_EQ(m.name, "scenario", "default name for a string");
        NS_TEST_EXPECT_MSG_EQ(m.seed, 1u, "default seed");
        NS_TEST_EXPECT_MSG_EQ(m.workloads[0].name, "stream-0", "default workload name");
        NS_TEST_EXPECT_MSG_EQ(m.workloads[0].outstanding, 1u, "default outstanding");
        NS_TEST_EXPECT_MSG_EQ(int(m.workloads[0].payload), int(PayloadMode::Virtual), "default payload");
        NS_TEST_EXPECT_MSG_EQ(m.links.rateBps.has_value(), false, "unset link rate stays unset");
        NS_TEST_EXPECT_MSG_EQ(m.tracing.Enabled(), false, "no pcap by default");
    }
};

/** One error case: a change to kMinimal (a line replaced or added) and the message it must give. */
struct ErrorCase
{
    std::string what;
    std::string yaml;
    std::string expected; ///< the whole message after "<file>"
};

class ErrorsTestCase : public TestCase
{
  public:
    ErrorsTestCase()
        : TestCase("each class of error names file:line:column and the key path")
    {
    }

  private:
    static std::string Replace(std::string s, const std::string& from, const std::string& to)
    {
        const auto at = s.find(from);
        NS_ABORT_MSG_IF(at == std::string::npos, "test bug: '" << from << "' not in the scenario");
        return s.replace(at, from.size(), to);
    }

    void DoRun() override
    {
        const std::string file = CreateTempDirFilename("bad.yaml");
        const std::vector<ErrorCase> cases = {
            {"YAML syntax", Replace(kMinimal, "    to: h1\n", "    to: [h1\n"),
             ":8:9: YAML syntax error: end of sequence flow not found"},
            {"unknown key at the top", "topolgy: {kind: two-hosts}\n" + kMinimal,
             ":1:1: topolgy: unknown key 'topolgy'; did you mean 'topology'?"},
            {"unknown key in a workload", Replace(kMinimal, "    size: 64KiB", "    sise: 64KiB"),
             ":8:5: workloads.0.sise: unknown key 'sise'; did you mean 'size'?"},
            {"unknown key without a close one", Replace(kMinimal, "  kind: two-hosts\n", "  kind: two-hosts\n  zzzzzzzz: 1\n"),
             ":4:3: topology.zzzzzzzz: unknown key 'zzzzzzzz' (known keys: bottleneck, ecmp, file, hosts-per-leaf, "
             "hosts-per-side, k, kind, leaves, pfc, planes, reroute-after, spines, switch-fast-path)"},
            {"wrong type: list for a value", Replace(kMinimal, "count: 10", "count: [10]"),
             ":9:12: workloads.0.count: expected a value, got a list"},
            {"wrong type: value for a mapping", Replace(kMinimal, "topology:\n  kind: two-hosts\n", "topology: two-hosts\n"),
             ":2:11: topology: expected a mapping (key: value lines), got a value"},
            {"wrong type: not a number", Replace(kMinimal, "count: 10", "count: ten"),
             ":9:12: workloads.0.count: expected a whole number, got \"ten\""},
            {"missing stop", Replace(kMinimal, "stop: 1ms\n", "seed: 2\n"), ":1:1: stop: missing required key 'stop'"},
            {"missing topology kind", Replace(kMinimal, "  kind: two-hosts\n", "  ecmp: true\n"),
             ":3:3: topology.kind: missing required key 'kind'"},
            {"missing count", Replace(kMinimal, "    count: 10\n", ""),
             ":5:5: workloads.0.count: missing required key 'count' (or 'duration')"},
            {"unknown node", Replace(kMinimal, "to: h1", "to: h9"),
             ":7:9: workloads.0.to: unknown host 'h9'; topology two-hosts has hosts h0..h1; did you mean 'h0'?"},
            {"unknown node in per-link", kMinimal + "per-link:\n  - between: [h0, r7]\n    loss: 0.1\n",
             ":11:19: per-link.0.between.1: unknown node 'r7'; topology two-hosts has hosts h0..h1"},
            {"unknown node in pcap", Replace(kMinimal, "kind: two-hosts", "kind: dumbbell\n  hosts-per-side: 2") +
                                         "tracing:\n  pcap: [[left, righ]]\n",
             ":12:17: tracing.pcap.0.1: unknown node 'righ'; topology dumbbell has hosts h0..h3 and switches "
             "left..right; did you mean 'right'?"},
            {"negative size", Replace(kMinimal, "64KiB", "-64KiB"), ":8:11: workloads.0.size: negative size \"-64KiB\""},
            {"unknown unit", Replace(kMinimal, "stop: 1ms", "stop: 1xs"),
             ":1:7: stop: unknown unit 'xs' in time \"1xs\" (expected one of ns, us, ms, s)"},
            {"loss above 1", kMinimal + "links:\n  loss: 1.5\n", ":11:9: links.loss: probability 1.5 is outside [0, 1]"},
            {"gilbert-elliott loss-good above 1",
             kMinimal + "links:\n  gilbert-elliott:\n    p: 0.1\n    r: 0.5\n    loss-good: 2\n",
             ":14:16: links.gilbert-elliott.loss-good: probability 2 is outside [0, 1]"},
            {"negative reorder fraction",
             kMinimal + "per-link:\n  - between: [h0, h1]\n    reorder:\n      fraction: -0.5\n      delay: 1us\n",
             ":13:17: per-link.0.reorder.fraction: probability -0.5 is outside [0, 1]"},
            {"odd fat-tree k", Replace(kMinimal, "kind: two-hosts", "kind: fat-tree\n  k: 3"),
             ":4:6: topology.k: fat-tree k must be even and at least 2, got 3"},
            {"zero rate", kMinimal + "links:\n  rate: 0Gbps\n", ":11:9: links.rate: rate \"0Gbps\" must be above zero"},
            {"start after stop", Replace(kMinimal, "    count: 10\n", "    count: 10\n    start: 2ms\n"),
             ":10:12: workloads.0.start: starts at 2000000ns, not before the stop time 1000000ns"},
            {"key of another kind", Replace(kMinimal, "kind: two-hosts", "kind: dumbbell\n  k: 4"),
             ":4:3: topology.k: key 'k' does not apply to topology kind 'dumbbell'"},
            {"key of another workload kind", Replace(kMinimal, "    from: h0\n", "    senders: [h0]\n"),
             ":6:5: workloads.0.senders: key 'senders' does not apply to workload kind 'stream' (it applies to: incast)"},
            {"op impossible for the kind", Replace(kMinimal, "kind: stream", "kind: ping-pong\n    op: read"),
             ":6:9: workloads.0.op: op 'read' is not possible for workload kind 'ping-pong'"},
            {"unknown enumeration value", Replace(kMinimal, "kind: stream", "kind: streem"),
             ":5:11: workloads.0.kind: unknown workload kind 'streem' (expected one of ping-pong, stream, read, "
             "sockets-stream, sockets-ping-pong, incast, inject, traffic, sockets-traffic, collective)"},
            {"unknown attribute", kMinimal + "rnic:\n  RnicPipeline::TxPerMesage: 1us\n",
             ":11:3: rnic.RnicPipeline::TxPerMesage: ns3::RnicPipeline has no attribute 'TxPerMesage'; did you mean "
             "'TxPerMessage'?"},
            {"bad attribute value", kMinimal + "rnic:\n  RnicPipeline::TxPerMessage: fast\n",
             ":11:31: rnic.RnicPipeline::TxPerMessage: \"fast\" is not a valid value for ns3::RnicPipeline::TxPerMessage "
             "(ns3::TimeValue): a number and one of the units s, ms, us, ns, ps, fs, min, h, d, y"},
            {"duplicate key", Replace(kMinimal, "    count: 10\n", "    count: 10\n    size: 1KiB\n"),
             ":10:5: workloads.0.size: key 'size' appears twice (first on line 8)"},
            {"value where a link mapping belongs", kMinimal + "links: 10Gbps\n",
             ":10:8: links: expected a mapping (key: value lines), got a value"},
            {"graphml file missing", Replace(kMinimal, "kind: two-hosts", "kind: graphml\n  file: no-such.graphml"),
             ":4:9: topology.file: cannot open graphml file {dir}/no-such.graphml"},
            {"name that cannot be a folder", "name: a/b\n" + kMinimal,
             ":1:7: name: a name is a non-empty file name: no '/', not starting with '.'"},
            {"two workloads with one name", Replace(kMinimal, "  - kind: stream\n", "  - kind: stream\n    name: w\n") +
                                                "  - {kind: stream, name: w, from: h1, to: h0, count: 1}\n",
             ":11:26: workloads.1.name: a workload named 'w' already exists"},
            {"zero count", Replace(kMinimal, "count: 10", "count: 0"), ":9:12: workloads.0.count: count must be at least 1"},
            {"count and duration", Replace(kMinimal, "count: 10", "count: 10\n    duration: 1ms"),
             ":10:15: workloads.0.duration: give either count or duration, not both"},
            {"inject into an unknown workload",
             kMinimal + "  - {kind: inject, target: nope, from: h0, to: h1, at: 0.5ms, hex: '00'}\n",
             ":10:28: workloads.1.target: no workload 'nope' (give a workload name or index)"},
            {"inject into a sockets workload", Replace(kMinimal, "kind: stream", "kind: sockets-stream") +
                                                   "  - {kind: inject, target: 0, from: h0, to: h1, at: 0.5ms, hex: '00'}\n",
             ":10:28: workloads.1.target: workload 'sockets-stream-0' (sockets-stream) has no DDP stream to inject into"},
            {"inject with fields and hex",
             kMinimal + "  - {kind: inject, target: 0, from: h0, to: h1, at: 0.5ms, hex: '00', fields: {last: true}}\n",
             ":10:65: workloads.1.hex: give either fields or hex, not both"},
            {"inject field out of range",
             kMinimal + "  - {kind: inject, target: 0, from: h0, to: h1, at: 0.5ms, fields: {dv: 4}}\n",
             ":10:73: workloads.1.fields.dv: value 4 is above the largest allowed, 3"},
            // Regression: the reader took the segment for untagged when `tagged` was left out, the builder for
            // tagged, so these were accepted and then cut to 8 bits or left out of the header.
            {"inject qn on a segment tagged by default",
             kMinimal + "  - {kind: inject, target: 0, from: h0, to: h1, at: 0.5ms, fields: {qn: 1}}\n",
             ":10:68: workloads.1.fields: qn, msn and mo belong to untagged segments (tagged: false; a segment is "
             "tagged by default)"},
            {"inject a 40-bit rsvdulp on a segment tagged by default",
             kMinimal + "  - {kind: inject, target: 0, from: h0, to: h1, at: 0.5ms, fields: {rsvdulp: 256}}\n",
             ":10:78: workloads.1.fields.rsvdulp: value 256 is above the largest allowed, 255"},
            {"incast sender twice", Replace(kMinimal, "kind: stream\n    from: h0", "kind: incast\n    senders: [h0, h0]"),
             ":6:19: workloads.0.senders.1: sender 'h0' is listed twice"},
            {"inject in a direction the target does not have",
             kMinimal + "  - kind: inject\n    target: 0\n    from: h1\n    to: h1\n    at: 0.5ms\n    hex: '00 01'\n",
             ":12:11: workloads.1.from: 'h1' -> 'h1' is not a direction of workload 'stream-0's connection"},
        };
        for (const auto& c : cases)
        {
            {
                std::ofstream out(file);
                out << c.yaml;
            }
            const std::string msg = ThrownMessage<ScenarioError>([&] { LoadScenarioFile(file); });
            // {dir}: the scenario's folder, against which relative paths in it are resolved.
            std::string expected = c.expected;
            const auto dirAt = expected.find("{dir}");
            if (dirAt != std::string::npos)
            {
                expected.replace(dirAt, 5, file.substr(0, file.rfind('/')));
            }
            NS_TEST_EXPECT_MSG_EQ(msg, file + expected, c.what);
        }
        // The structured accessors carry the same location.
        try
        {
            LoadScenarioString(Replace(kMinimal, "64KiB", "-64KiB"), {}, "inline.yaml");
            NS_TEST_ASSERT_MSG_EQ(true, false, "a negative size must throw");
        }
        catch (const ScenarioError& e)
        {
            NS_TEST_EXPECT_MSG_EQ(e.Source(), "inline.yaml", "source name of a string");
            NS_TEST_EXPECT_MSG_EQ(e.Line(), 8, "line");
            NS_TEST_EXPECT_MSG_EQ(e.Column(), 11, "column");
            NS_TEST_EXPECT_MSG_EQ(e.Path(), "workloads.0.size", "key path");
        }
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioFile("/nonexistent/x.yaml"); }),
                              "/nonexistent/x.yaml: cannot open the scenario file",
                              "missing file");
    }
};

class OverridesTestCase : public TestCase
{
  public:
    OverridesTestCase()
        : TestCase("--set overrides: replace, create known keys, refuse unknown paths")
    {
    }

  private:
    void DoRun() override
    {
        ScenarioConfig c = LoadScenarioString(kMinimal,
                                              {"workloads.0.size=4KiB",
                                               "links.loss=0.01",
                                               "seed=7",
                                               "topology.ecmp=True",
                                               "per-host.h1.rnic.RnicPipeline::TxPerMessage=600ns",
                                               // a link has one loss model: the bursts on the bottleneck
                                               "topology.kind=dumbbell",
                                               "topology.bottleneck.loss=0",
                                               "topology.bottleneck.gilbert-elliott={p: 0.1, r: 0.5}"});
        NS_TEST_EXPECT_MSG_EQ(c.workloads[0].size, 4096u, "an existing value replaced");
        NS_TEST_EXPECT_MSG_EQ(c.links.impairment.loss.value_or(-1), 0.01, "links created for a known key");
        NS_TEST_EXPECT_MSG_EQ(c.seed, 7u, "a top-level optional key");
        NS_TEST_EXPECT_MSG_EQ(c.topology.ecmp, true, "a nested optional key");
        NS_TEST_EXPECT_MSG_EQ(c.perHost.at("h1").rnic.at("ns3::RnicPipeline::TxPerMessage"), "600ns",
                              "free keys (node and attribute names) are created");
        const ImpairmentSpec& bottleneck = c.topology.bottleneck.impairment;
        NS_TEST_ASSERT_MSG_EQ(bottleneck.gilbertElliott.has_value(), true, "a flow mapping as value");
        NS_TEST_EXPECT_MSG_EQ(bottleneck.gilbertElliott->r, 0.5, "GE r from the flow mapping");

        // resolvedYaml is the scenario as run: read back, it gives the overridden values.
        ScenarioConfig again = LoadScenarioString(c.resolvedYaml);
        NS_TEST_EXPECT_MSG_EQ(again.workloads[0].size, 4096u, "resolvedYaml carries the override");
        NS_TEST_EXPECT_MSG_EQ(again.seed, 7u, "and the created keys");
        NS_TEST_EXPECT_MSG_EQ(c.overrides.size(), 8u, "the overrides are recorded");

        ScenarioConfig sweep = LoadScenarioString(kMinimal, {"workloads.0.kind=ping-pong", "workloads.0.size=64",
                                                             "workloads.0.count=3"});
        NS_TEST_EXPECT_MSG_EQ(std::string(ToString(sweep.workloads[0].kind)), "ping-pong", "kind replaced");
        NS_TEST_EXPECT_MSG_EQ(sweep.workloads[0].count.value_or(0), 3u, "later overrides apply in order");

        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"workloads.0.sise=1"}); }),
                              "--set workloads.0.sise=1: workloads.0.sise: unknown key 'sise'; did you mean 'size'?",
                              "unknown key in a path");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"workloads.3.size=1"}); }),
                              "--set workloads.3.size=1: workloads.3: no element 3 in 'workloads' (it has 1)",
                              "index out of range");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"per-link.0.loss=0.1"}); }),
                              "--set per-link.0.loss=0.1: per-link: 'per-link' is not in the scenario; an index "
                              "needs an existing list",
                              "index into a missing list");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"stop.x=1"}); }),
                              "--set stop.x=1: stop.x: 'stop' is a value and has no key 'x'",
                              "key under a value");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"seed"}); }),
                              "--set seed: an override is key.path=value",
                              "no =");
        // The value is checked like one in the file, and the error points at the override.
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"workloads.0.size=-1"}); }),
                              "--set workloads.0.size=-1: workloads.0.size: negative size \"-1\"",
                              "bad overridden value");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioString(kMinimal, {"links.gilbert-elliott={p: 2, r: 0}"}); }),
                              "--set links.gilbert-elliott={p: 2, r: 0}: links.gilbert-elliott.p: probability 2 is "
                              "outside [0, 1]",
                              "an error inside an overridden subtree");
    }
};

class AttributesTestCase : public TestCase
{
  public:
    AttributesTestCase()
        : TestCase("attribute maps reach the objects they name")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig c = LoadScenarioString(kMinimal + "rnic:\n  RnicPipeline::TxPerMessage: 777ns\n"
                                                               "  TcpSocket::SegmentSize: \"1000\"\n");
        Ptr<RnicPipeline> p = CreateObject<RnicPipeline>();
        NS_TEST_EXPECT_MSG_EQ(ApplyAttributes(p, c.rnic), 1u, "only the RnicPipeline entry applies");
        TimeValue v;
        p->GetAttribute("TxPerMessage", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), NanoSeconds(777), "the value was set");

        // Per object, never as a default: the RNIC a host is given makes its pipelines with the
        // value, and a pipeline made anywhere else keeps ns-3's.
        Ptr<Node> node = CreateObject<Node>();
        InstallHostObjects(node, HostAttributes(c, "h0"));
        Ptr<Rnic> rnic = node->GetObject<Rnic>();
        Ptr<QueuePair> qp = rnic->CreateQp(rnic->AllocatePd(), rnic->CreateCq(), rnic->CreateCq());
        TimeValue made;
        IwarpTransport::Of(qp, "the config test")->GetPipeline()->GetAttribute("TxPerMessage", made);
        NS_TEST_EXPECT_MSG_EQ(made.Get(), NanoSeconds(777), "the RNIC's pipeline got the value");
        TimeValue elsewhere;
        CreateObject<RnicPipeline>()->GetAttribute("TxPerMessage", elsewhere);
        NS_TEST_EXPECT_MSG_NE(elsewhere.Get(), NanoSeconds(777), "ns-3's default is untouched");
        Simulator::Destroy();
    }
};

/** The scenario's impairments are the builder's ImpairmentSpec: carried over as written, overlaid by part. */
class ImpairmentSpecTestCase : public TestCase
{
  public:
    ImpairmentSpecTestCase()
        : TestCase("impairments reach the TopologySpec as written; a per-link entry inherits the parts it leaves out")
    {
    }

    void DoRun() override
    {
        const ScenarioConfig c = LoadScenarioString(kMinimal + "links:\n"
                                                               "  loss: 0.01\n"
                                                               "  reorder: {fraction: 0.1, delay: 0us}\n"
                                                               "per-link:\n"
                                                               "  - between: [h0, h1]\n"
                                                               "    loss: 0\n"
                                                               "    gilbert-elliott: {p: 0.1, r: 0.5}\n",
                                                    {},
                                                    "impair.yaml");
        const TopologySpec spec = MakeTopologySpec(c);
        NS_TEST_ASSERT_MSG_EQ(spec.impairAll.has_value(), true, "links' impairment everywhere");
        NS_TEST_EXPECT_MSG_EQ(spec.impairAll->loss.value_or(-1), 0.01, "links.loss");
        NS_TEST_ASSERT_MSG_EQ(spec.impairAll->reorder.has_value(), true, "links.reorder");
        // A zero delay was once swapped for the builder's 50 us default: the file's value is kept.
        NS_TEST_EXPECT_MSG_EQ(spec.impairAll->reorder->delay, Time(0), "reorder delay as written");
        NS_TEST_ASSERT_MSG_EQ(spec.impairLinks.size(), 1u, "the per-link entry");
        const ImpairmentSpec& own = spec.impairLinks[0].impairment;
        NS_TEST_EXPECT_MSG_EQ(own.loss.value_or(-1), 0.0, "loss: 0 replaces links' loss");
        NS_TEST_ASSERT_MSG_EQ(own.gilbertElliott.has_value(), true, "own gilbert-elliott");
        NS_TEST_EXPECT_MSG_EQ(own.gilbertElliott->r, 0.5, "gilbert-elliott.r");
        NS_TEST_EXPECT_MSG_EQ(own.gilbertElliott->lossBad, 1.0, "loss-bad's default");
        NS_TEST_ASSERT_MSG_EQ(own.reorder.has_value(), true, "reorder inherited from links");
        NS_TEST_EXPECT_MSG_EQ(own.reorder->fraction, 0.1, "inherited fraction");
        NS_TEST_EXPECT_MSG_EQ(CheckImpairment(own).has_value(), false, "the overlay is a valid impairment");
    }
};

class ScenarioConfigTestSuite : public TestSuite
{
  public:
    ScenarioConfigTestSuite()
        : TestSuite("iwarp-scenario-config", UNIT)
    {
        AddTestCase(new UnitsTestCase(), TestCase::QUICK);
        AddTestCase(new NodeNamesTestCase(), TestCase::QUICK);
        AddTestCase(new FullExampleTestCase(), TestCase::QUICK);
        AddTestCase(new ErrorsTestCase(), TestCase::QUICK);
        AddTestCase(new OverridesTestCase(), TestCase::QUICK);
        AddTestCase(new AttributesTestCase(), TestCase::QUICK);
        AddTestCase(new ImpairmentSpecTestCase(), TestCase::QUICK);
    }
};

ScenarioConfigTestSuite g_scenarioConfigTestSuite;

} // namespace
} // namespace ns3
