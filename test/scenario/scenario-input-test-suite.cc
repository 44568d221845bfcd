/*
 * iwarp-scenario-input: bad input is a scenario error with a place, before anything runs (issue
 * 14, items 4, 6 and the load-time part of 7).  Each case was reproduced on 19cc24b first:
 *
 *  - item 4, values that reached ns-3's aborting parsers: a GraphML delay "1u/" and a rate with
 *    trailing junk (NS_ABORT), rate "0bps" (SIGFPE, the temporary results folder left behind), a
 *    node id with '/' under pcap (the pcap file could not be opened: abort), `size: 0` (the
 *    application's checker: abort), attribute values "1Gbps x" and "5 x" (NS_ABORT in the attribute
 *    parser), a pointer or address attribute (segfault, std::out_of_range), a TypeId of the wrong
 *    family, `--set workloads.18446744073709551616.size=1` (an uncaught std::out_of_range);
 *  - item 6, no input limits: /dev/zero and a 25-million-entry `sizes` list ran out of memory
 *    after tens of seconds; a leaf-spine of 65535 x 65535 hosts tried to allocate 4 billion nodes;
 *  - item 7, accepted and then silently ignored: a second YAML document, GraphML negative delays
 *    and `0p` queues, a per-host attribute of a type no per-host object has, an injected segment
 *    longer than the connection's MULPDU (retried every microsecond until the stop), a path longer
 *    than IPv4's TTL (nothing delivered).
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include "support/graphml-file.h"
#include "support/scenario-run-util.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::string kStream = "stop: 10ms\n"                                        // 1
                            "topology: {kind: two-hosts}\n"                       // 2
                            "workloads:\n"                                        // 3
                            "  - {kind: stream, from: h0, to: h1, count: 2}\n";   // 4

class AbortingValuesTestCase : public TestCase
{
  public:
    AbortingValuesTestCase()
        : TestCase("values that reached ns-3's aborting parsers are scenario errors with a place")
    {
    }

  private:
    void DoRun() override
    {
        // GraphML: the file and the element; the values are read by the scenario's own parsers.
        const std::vector<std::pair<std::string, std::string>> edges = {
            {"<data key=\"d\">1u/</data>", "unknown unit 'u/' in time \"1u/\" (expected one of ns, us, ms, s)"},
            {"<data key=\"r\">1Gbps x</data>",
             "unknown unit 'Gbps x' in rate \"1Gbps x\" (expected one of bps, Kbps, Mbps, Gbps)"},
            {"<data key=\"r\">0bps</data>", "rate \"0bps\" must be above zero"},
            {"<data key=\"d\">-1us</data>", "negative time \"-1us\""},
            {"<data key=\"q\">0p</data>", "queue \"0p\" must hold at least one packet"},
            {"<data key=\"q\">0KiB</data>", "queue \"0KiB\" must hold at least one packet"},
        };
        for (std::size_t i = 0; i < edges.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(EdgeError("edge" + std::to_string(i) + ".graphml", edges[i].first), edges[i].second,
                                  edges[i].first);
        }
        const std::string slash = GraphMl("slash.graphml", "", "x/y");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(OnGraphMl(slash, "tracing: {pcap: all}\n", "x/y")),
                              "s.yaml:2:33: topology.file: GraphML file '" + slash +
                                  "': node id 'x/y' has a '/' or a control character (it names pcap files)",
                              "a node id that cannot name a pcap file");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(OnGraphMl(GraphMl("fine.graphml", "<data key=\"r\">2.5Gbps</data>"
                                                                        "<data key=\"d\">1.5us</data>"
                                                                        "<data key=\"q\">64KiB</data>"))),
                              "", "values in the scenario's units");

        // Workload values the applications' checkers would abort on.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.0.size=0"}),
                              "--set workloads.0.size=0: workloads.0.size: size 0 is below the smallest message of "
                              "workload kind 'stream' (1 octet)",
                              "size 0");
        const std::string sockets = "stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                    "  - {kind: sockets-stream, from: h0, to: h1, count: 2, size: SIZE}\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(sockets, {"workloads.0.size=8"}),
                              "--set workloads.0.size=8: workloads.0.size: size 8 is below the smallest message of "
                              "workload kind 'sockets-stream' (16 octets: its send timestamp)",
                              "a sockets message without room for its timestamp");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(sockets, {"workloads.0.size=4GiB"}),
                              "--set workloads.0.size=4GiB: workloads.0.size: size 4294967296 is above the largest "
                              "message of the sockets applications (2^32-1 octets)",
                              "a sockets message above 32 bits");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.0.count=18446744073709551615"}),
                              "--set workloads.0.count=18446744073709551615: workloads.0.count: count "
                              "18446744073709551615 x size 4096 is more than 2^64-1 octets",
                              "count x size past 64 bits");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                      "  - {kind: ping-pong, from: h0, to: h1, count: 4294967296}\n"),
                              "s.yaml:4:48: workloads.0.count: value 4294967296 is above the largest allowed, "
                              "4294967295",
                              "a ping-pong counts round trips in 32 bits");

        // Attribute values: screened before ns-3's parsers see them.
        const std::vector<std::pair<std::string, std::string>> attributes = {
            {"rnic.RnicPipeline::EngineRate=1Gbps x",
             "\"1Gbps x\" is not a valid value for ns3::RnicPipeline::EngineRate (DataRateValue): one word, without "
             "spaces"},
            {"host.TcpSocket::SegmentSize=5 x",
             "\"5 x\" is not a valid value for ns3::TcpSocket::SegmentSize (ns3::UintegerValue): one word, without "
             "spaces"},
            {"host.TcpSocket::SegmentSize=5x",
             "\"5x\" is not a valid value for ns3::TcpSocket::SegmentSize (ns3::UintegerValue): a whole number in "
             "decimal, and nothing after it"},
            {"host.TcpSocket::SegmentSize=0x10",
             "\"0x10\" is not a valid value for ns3::TcpSocket::SegmentSize (ns3::UintegerValue): a whole number in "
             "decimal, and nothing after it"},
            {"host.GilbertElliottErrorModel::LossGood=0.5x",
             "\"0.5x\" is not a valid value for ns3::GilbertElliottErrorModel::LossGood (ns3::DoubleValue): a number, "
             "and nothing after it"},
            {"host.FifoQueueDisc::MaxSize=10 p",
             "\"10 p\" is not a valid value for ns3::FifoQueueDisc::MaxSize (QueueSizeValue): one word, without "
             "spaces"},
            {"host.TcpSocketBase::CongestionOps=xyz",
             "\"xyz\" is not a valid value for ns3::TcpSocketBase::CongestionOps (ns3::PointerValue): a scenario "
             "does not set attributes of this type"},
            {"host.PointToPointNetDevice::Address=zz",
             "\"zz\" is not a valid value for ns3::PointToPointNetDevice::Address (Mac48AddressValue): a scenario "
             "does not set attributes of this type"},
            {"host.TcpL4Protocol::SocketType=ns3::Rnic",
             "\"ns3::Rnic\" is not a valid value for ns3::TcpL4Protocol::SocketType (TypeIdValue): the type must be "
             "a ns3::TcpCongestionOps"},
            {"host.TcpL4Protocol::SocketType=ns3::Nothing",
             "\"ns3::Nothing\" is not a valid value for ns3::TcpL4Protocol::SocketType (TypeIdValue): no ns-3 type "
             "named ns3::Nothing"},
            {"host.TcpSocketBase::MinRto=1s x",
             "\"1s x\" is not a valid value for ns3::TcpSocketBase::MinRto (ns3::TimeValue): one word, without "
             "spaces"},
        };
        for (const auto& [set, detail] : attributes)
        {
            const std::string path = set.substr(0, set.find('='));
            NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {set}), "--set " + set + ": " + path + ": " + detail, set);
        }
        // (The congestion control and the RTOs are the transport section's: TcpL4Protocol::SocketType and
        // TcpSocketBase::MinRto are refused in host:, doc/transports.md.)
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"host.TcpL4Protocol::RecoveryType=ns3::TcpClassicRecovery",
                                                "host.TcpSocket::PersistTimeout=200ms"}),
                              "", "a recovery algorithm of the family, a time");

        // Indices too large for 64 bits.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"workloads.18446744073709551616.size=1"}),
                              "--set workloads.18446744073709551616.size=1: workloads.18446744073709551616: no "
                              "element 18446744073709551616 in 'workloads' (it has 1)",
                              "an override index past 64 bits");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "  - {kind: inject, target: 99999999999999999999999, from: h0, to: "
                                                "h1, at: 1ms, hex: \"00\"}\n"),
                              "s.yaml:5:28: workloads.1.target: no workload '99999999999999999999999' (give a "
                              "workload name or index)",
                              "an inject target index past 64 bits");
    }
};

class LimitsTestCase : public TestCase
{
  public:
    LimitsTestCase()
        : TestCase("the file, its lists and the topology have limits, each a clear error")
    {
    }

  private:
    void DoRun() override
    {
        const auto t0 = std::chrono::steady_clock::now();
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([] { LoadScenarioFile("/dev/zero"); }),
                              "/dev/zero: the scenario file is larger than 1MiB, the most this program reads",
                              "/dev/zero");
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        NS_TEST_EXPECT_MSG_EQ((seconds < 2), true, "refused at once (" << seconds << " s), not after 40 s");

        // Exactly the limit loads; one octet more does not.
        const fs::path file = fs::temp_directory_path() / ("iwarp-input-" + std::to_string(::getpid()) + ".yaml");
        std::string text = kStream + "#";
        text += std::string(kMaxScenarioOctets - text.size() - 1, 'x') + "\n";
        std::ofstream(file) << text;
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([&] { LoadScenarioFile(file.string()); }), "",
                              "a file of exactly the limit");
        std::ofstream(file) << text << "\n";
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([&] { LoadScenarioFile(file.string()); }),
                              file.string() + ": the scenario file is larger than 1MiB, the most this program reads",
                              "a file one octet above it");
        fs::remove(file);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(text + "\n"),
                              "s.yaml: the scenario is larger than 1MiB, the most this program reads",
                              "a string above it");

        // Lists.
        auto list = [](std::size_t n, const std::string& item) {
            std::string s = "[" + item;
            for (std::size_t i = 1; i < n; ++i)
            {
                s += ", " + item;
            }
            return s + "]";
        };
        const std::string pingPong = "stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                     "  - {kind: ping-pong, from: h0, to: h1, count: 1, sizes: [64]}\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(pingPong, {"workloads.0.sizes=" + list(kMaxSizes, "64")}), "",
                              "a sweep of the most sizes");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(pingPong, {"workloads.0.sizes=" + list(kMaxSizes + 1, "64")}),
                              "--set workloads.0.sizes=" + list(kMaxSizes + 1, "64") +
                                  ": workloads.0.sizes: a list of 1025 entries; at most 1024 are allowed "
                                  "(doc/scenario-format.md, Limits)",
                              "one size too many");
        const std::string incast = "stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                   "  - {kind: incast, senders: [h0], to: h1, count: 1}\n";
        const std::string senders = ErrorOf(incast, {"workloads.0.senders=" + list(kMaxListLength + 1, "h0")});
        const std::string tail = ": workloads.0.senders: a list of 16385 entries; at most 16384 are allowed "
                                 "(doc/scenario-format.md, Limits)";
        NS_TEST_EXPECT_MSG_EQ(senders.substr(senders.size() - std::min(senders.size(), tail.size())), tail,
                              "a list past the limit, refused before its entries are read");

        // Topologies counted before they are made.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 10ms\ntopology: {kind: leaf-spine, leaves: 65535, spines: 2, "
                                      "hosts-per-leaf: 65535}\nworkloads:\n  - {kind: stream, from: h0, to: h1, "
                                      "count: 1}\n"),
                              "s.yaml:2:11: topology: leaf-spine: 4294836225 hosts, 4294901762 nodes and 4294967295 "
                              "links are more than this builder supports (131072 nodes, 4194304 links)",
                              "4 billion hosts");
        const std::string longId(101, 'n');
        const std::string path = GraphMl("long.graphml", "", longId);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(OnGraphMl(path, "", longId)),
                              "s.yaml:2:33: topology.file: GraphML file '" + path + "': node id '" +
                                  longId.substr(0, 40) + "...' must have 1 to 100 characters",
                              "a node id past 100 characters");
    }
};

class SilentAtLoadTestCase : public TestCase
{
  public:
    SilentAtLoadTestCase()
        : TestCase("what used to be accepted and then ignored is refused when loading")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "---\nstop: 20ms\n"),
                              "s.yaml:6:1: a second YAML document (after '---'); a scenario file holds one",
                              "a second document");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("---\n" + kStream + "...\n"), "", "one document, marked");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "---\n"), "", "an empty document after a trailing '---'");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"per-host.h0.host.TcpSocket::SegmentSize=1000"}),
                              "--set per-host.h0.host.TcpSocket::SegmentSize=1000: "
                              "per-host.h0.host.TcpSocket::SegmentSize: a per-host setting reaches only "
                              "ns3::HostMemoryModel, ns3::HostCpuModel, ns3::HostModel; ns3::TcpSocket::SegmentSize "
                              "applies to none of them (set it for every host in the scenario's `host` or `rnic` map)",
                              "a per-host attribute no per-host object has (it was ignored)");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream, {"per-host.h0.rnic.RnicPipeline::TxPerMessage=1us",
                                                "per-host.h1.rnic.RnicPipeline::RxPerSegment=90ns"})
                                  .find("a per-host setting"),
                              std::string::npos, "pipeline attributes reach the queue pairs");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "links: {queue: 0p}\n"),
                              "s.yaml:5:16: links.queue: queue \"0p\" must hold at least one packet", "0p in links");
        // Through a child type, a socket attribute slipped past the transport section's and the segment
        // size's checks, which compare the declaring type's name, and was then overridden at run time.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "host: {TcpSocketBase::SndBufSize: \"1048576\"}\n"),
                              "s.yaml:5:8: host.TcpSocketBase::SndBufSize: SndBufSize is an attribute of "
                              "ns3::TcpSocket, which ns3::TcpSocketBase inherits: write TcpSocket::SndBufSize",
                              "an inherited attribute named through the child");
        NS_TEST_EXPECT_MSG_NE(ErrorOf(kStream + "host: {ns3::TcpSocketBase::SegmentSize: \"9000\"}\n")
                                  .find("write TcpSocket::SegmentSize"),
                              std::string::npos, "the segment size likewise");
        NS_TEST_EXPECT_MSG_NE(ErrorOf(kStream + "host: {TcpSocket::SndBufSize: \"1048576\"}\n")
                                  .find("set on every socket by the transport section"),
                              std::string::npos, "the declaring spelling meets the transport section's refusal");
    }
};

/**
 * An injected segment longer than the MULPDU of its connection: refused at load (it used to be
 * retried every microsecond until the stop, never taken); one of exactly the MULPDU is taken.
 */
class InjectSizeTestCase : public TestCase
{
  public:
    InjectSizeTestCase()
        : TestCase("an injected segment must fit the MULPDU of the connection it rides on")
    {
    }

  private:
    static std::string Scenario(const std::string& llp, uint32_t payload, const std::string& more = "")
    {
        return "stop: 5ms\n"                                                                      // 1
               "topology: {kind: two-hosts}\n"                                                    // 2
               "workloads:\n"                                                                     // 3
               "  - {name: s, kind: stream, from: h0, to: h1, size: 4KiB, count: 4, llp: " + llp + "}\n" // 4
               "  - {kind: inject, target: s, from: h0, to: h1, at: 1ms,\n"                        // 5
               "     fields: {tagged: true, stag: 0xdead, payload: " + std::to_string(payload) + "}}\n" + more;
    }

    void DoRun() override
    {
        // 1500-octet MTU: TCP segments of 1448, MULPDU 1448 - 6 (no markers) = 1442 = 14 + 1428;
        // with markers 1448 - 6 - 3 x 4 = 1430.  SCTP: 1500 - 20 - 12 - 16 - 2 - 16 = 1434 = 14 + 1420.
        const std::vector<std::tuple<std::string, uint32_t, std::string, std::string>> cases = {
            {"tcp", 1428, "", "MPA over TCP segments of 1448"},
            {"tcp", 1416, "rnic: {MpaConnection::Markers: \"true\"}\n", "MPA over TCP segments of 1448, with markers"},
            {"sctp", 1420, "", "DDP over SCTP with a path MTU of 1500"},
        };
        for (const auto& [llp, fits, more, how] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(ErrorOf(Scenario(llp, fits + 1, more)),
                                  "s.yaml:6:52: workloads.1.fields.payload: the segment is " +
                                      std::to_string(fits + 15) + " octets, more than the " +
                                      std::to_string(fits + 14) +
                                      " (MULPDU) that workload 's's connection carries from h0 to h1 (" + how +
                                      "); the LLP would never take it",
                                  llp << " " << more);
            // The largest that fits is taken by the LLP (its status in messages.csv: injected); one
            // octet more, past the loader, is not: the loader's MULPDU is the LLP's own.
            ScenarioConfig cfg = LoadScenarioString(Scenario(llp, fits, more));
            for (uint32_t extra : {0u, 1u})
            {
                cfg.workloads[1].inject->fields->payload = fits + extra;
                const fs::path folder =
                    fs::temp_directory_path() / ("iwarp-input-inject-" + std::to_string(::getpid()) + "-" + llp);
                const RunResult r = RunInto(cfg, folder.string()).result;
                fs::remove_all(folder);
                bool injected = false;
                for (const MessageRecord& m : r.messages)
                {
                    injected = injected || (m.op == "inject" && m.Status() == MessageStatus::Injected);
                }
                NS_TEST_EXPECT_MSG_EQ(injected, (extra == 0),
                                      "MULPDU + " << extra << " taken by the LLP over " << llp << " " << more);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 5ms\ntopology: {kind: two-hosts}\nlinks: {mtu: 200}\nworkloads:\n"
                                      "  - {name: s, kind: stream, from: h0, to: h1, count: 4}\n"
                                      "  - {kind: inject, target: s, from: h1, to: h0, at: 1ms, hex: \"" +
                                      std::string(2 * 143, '0') + "\"}\n"),
                              "s.yaml:6:63: workloads.1.hex: the segment is 143 octets, more than the 142 (MULPDU) "
                              "that workload 's's connection carries from h1 to h0 (MPA over TCP segments of 148); "
                              "the LLP would never take it",
                              "raw octets, the responder's direction, a small MTU");
    }
};

/** A GraphML chain h0 - s1 - ... - h1 of `links` links. */
std::string
Chain(uint32_t links)
{
    const std::string path =
        (fs::temp_directory_path() / ("iwarp-input-chain" + std::to_string(links) + "-" + std::to_string(::getpid())))
            .string();
    std::ofstream out(path);
    out << "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
           "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n<graph edgedefault=\"undirected\">\n";
    std::vector<std::string> nodes{"h0"};
    for (uint32_t i = 1; i < links; ++i)
    {
        nodes.push_back("s" + std::to_string(i));
    }
    nodes.push_back("h1");
    for (const std::string& n : nodes)
    {
        out << "<node id=\"" << n << "\"><data key=\"k\">" << (n[0] == 'h' ? "host" : "switch") << "</data></node>\n";
    }
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i)
    {
        out << "<edge source=\"" << nodes[i] << "\" target=\"" << nodes[i + 1] << "\"/>\n";
    }
    out << "</graph>\n</graphml>\n";
    return path;
}

class TtlTestCase : public TestCase
{
  public:
    TtlTestCase()
        : TestCase("a path longer than IPv4's TTL is refused with its hop count, or runs under a larger TTL")
    {
    }

  private:
    void DoRun() override
    {
        auto scenario = [](const std::string& path) {
            return "stop: 20ms\ntopology: {kind: graphml, file: " + path +
                   "}\nworkloads:\n  - {kind: stream, from: h0, to: h1, count: 2}\n"
                   "  - {kind: sockets-stream, from: h1, to: h0, count: 2}\n";
        };
        const std::string longest = Chain(64);
        const std::string tooLong = Chain(65);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(scenario(tooLong)),
                              "s.yaml:4:34: workloads.0.to: the path from h0 to h1 crosses 65 links, more than "
                              "IPv4's TTL of 64 lets a packet cross (ns3::Ipv4L3Protocol::DefaultTtl, Linux's default "
                              "too); set host: {Ipv4L3Protocol::DefaultTtl: \"255\"} for paths of up to 255 links",
                              "65 links");
        // 64 links deliver (a packet arrives with TTL 1); 65 do under a TTL of 255.
        for (const auto& [path, overrides] :
             std::vector<std::pair<std::string, std::vector<std::string>>>{
                 {longest, {}}, {tooLong, {"host.Ipv4L3Protocol::DefaultTtl=255"}}})
        {
            const ScenarioConfig cfg = LoadScenarioString(scenario(path), overrides);
            const fs::path folder = fs::temp_directory_path() / ("iwarp-input-ttl-" + std::to_string(::getpid()));
            const RunResult r = RunInto(cfg, folder.string()).result;
            fs::remove_all(folder);
            for (const WorkloadResult& w : r.workloads)
            {
                NS_TEST_EXPECT_MSG_EQ(w.completed, true, w.name << " over " << path);
            }
        }
    }
};

class ScenarioInputTestSuite : public TestSuite
{
  public:
    ScenarioInputTestSuite()
        : TestSuite("iwarp-scenario-input", UNIT)
    {
        AddTestCase(new AbortingValuesTestCase, TestCase::QUICK);
        AddTestCase(new LimitsTestCase, TestCase::QUICK);
        AddTestCase(new SilentAtLoadTestCase, TestCase::QUICK);
        AddTestCase(new InjectSizeTestCase, TestCase::QUICK);
        AddTestCase(new TtlTestCase, TestCase::QUICK);
    }
};

static ScenarioInputTestSuite g_scenarioInputTestSuite;

} // namespace
} // namespace ns3
