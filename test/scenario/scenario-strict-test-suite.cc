/*
 * iwarp-scenario-strict: what the scenario loader refuses that used to pass it and fail (or
 * silently do something else) only during the run.  Each case was a defect reproduced first:
 *
 *  - two RDMA workloads sharing a node with different LLPs (the runner sets the node's LLP as
 *    each workload starts, so one of them silently ran over the other's);
 *  - keys that do not apply to a workload kind (`llp` on a sockets workload, `start` on an
 *    inject, `between` outside per-link), audited against the documented key table;
 *  - per-link and pcap links between nodes that share no link, graphml node names, hosts that
 *    no path joins, loss models that meet on one link (examples/scenarios/leaf-spine-mixed.yaml
 *    passed the checker and exited 2 in the run), and whatever else the TopologyBuilder refuses;
 *  - the `measure` window against the stop time;
 *  - the registry of temporary results folders that an interrupted iwarp-sim removes (the
 *    signals themselves are tested on the command line: CTest iwarp-sim-interrupt-int / -term).
 */
#include "helper/scenario/interrupt-cleanup.h"
#include "helper/scenario/remove-tree-no-alloc.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"

#include "support/thrown-message.h"

#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

namespace ns3
{
namespace
{

std::string
ErrorOfString(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ThrownMessage<ScenarioError>([&] { LoadScenarioString(yaml, overrides, "s.yaml"); });
}

const std::string kHead = "stop: 10ms\n"          // line 1
                          "topology:\n"           // 2
                          "  kind: two-hosts\n"   // 3
                          "workloads:\n";         // 4

class LlpConflictTestCase : public TestCase
{
  public:
    LlpConflictTestCase()
        : TestCase("two RDMA workloads that share a node must use one LLP")
    {
    }

  private:
    void DoRun() override
    {
        const std::string bulk = "  - {name: bulk, kind: stream, from: h0, to: h1, count: 4, llp: tcp}\n"; // 5
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(kHead + bulk + "  - {name: other, kind: read, from: h1, to: h0, count: 4, llp: sctp}\n"),
            "s.yaml:6:64: workloads.1.llp: llp 'sctp' conflicts with workload 'bulk' (llp 'tcp') on host h0; an RNIC "
            "runs one LLP at a time in this model",
            "same nodes, different LLPs");
        // Not only at the same start: a ping-pong sweep installs its later sizes during the run.
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(kHead + "  - {name: pp, kind: ping-pong, from: h0, to: h1, sizes: [64, "
                                                    "4KiB], count: 2, llp: sctp}\n" +
                                            "  - {kind: stream, from: h0, to: h1, count: 4, start: 5ms}\n"),
                              "s.yaml:6:5: workloads.1.llp: llp 'tcp' (the default) conflicts with workload 'pp' "
                              "(llp 'sctp') on host h0; an RNIC runs one LLP at a time in this model",
                              "a later workload with the default LLP");
        // An incast shares its receiver and each sender.
        const std::string leafSpine = "stop: 10ms\ntopology: {kind: leaf-spine}\nworkloads:\n";
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(leafSpine + "  - {name: fan, kind: incast, senders: [h0, h1, h2], to: h3, count: 2}\n" +
                          "  - {kind: stream, from: h2, to: h1, count: 2, llp: sctp}\n"),
            "s.yaml:5:53: workloads.1.llp: llp 'sctp' conflicts with workload 'fan' (llp 'tcp', the default) on host "
            "h1; an RNIC runs one LLP at a time in this model",
            "an incast sender");
        // Different nodes, or a sockets workload (no RNIC LLP), do not conflict.
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(leafSpine + "  - {kind: stream, from: h0, to: h1, count: 2}\n" +
                          "  - {kind: stream, from: h2, to: h3, count: 2, llp: sctp}\n" +
                          "  - {kind: sockets-stream, from: h2, to: h0, count: 2}\n"),
            "", "disjoint nodes with different LLPs, and a sockets workload beside them");
        // Set by an override: the error names the override.
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(kHead + bulk + "  - {kind: stream, from: h1, to: h0, count: 4}\n",
                                            {"workloads.1.llp=sctp"}),
                              "--set workloads.1.llp=sctp: workloads.1.llp: llp 'sctp' conflicts with workload "
                              "'bulk' (llp 'tcp') on host h0; an RNIC runs one LLP at a time in this model",
                              "from an override");
    }
};

class KeysPerKindTestCase : public TestCase
{
  public:
    KeysPerKindTestCase()
        : TestCase("every workload key applies exactly to the kinds the format document lists")
    {
    }

  private:
    void DoRun() override
    {
        // The "kinds" column of the workloads table, written out independently of the reader's
        // table: name and kind apply to all.
        const std::vector<std::string> kinds = {"ping-pong", "stream", "read", "sockets-stream",
                                                "sockets-ping-pong", "incast", "inject"};
        const std::set<std::string> rdma = {"ping-pong", "stream", "read", "incast"};
        const std::set<std::string> allButInject = {"ping-pong", "stream", "read", "sockets-stream",
                                                    "sockets-ping-pong", "incast"};
        const std::map<std::string, std::set<std::string>> doc = {
            {"start", allButInject},
            {"after", allButInject},
            {"from", {"ping-pong", "stream", "read", "sockets-stream", "sockets-ping-pong", "inject"}},
            {"to", {"ping-pong", "stream", "read", "sockets-stream", "sockets-ping-pong", "incast", "inject"}},
            {"senders", {"incast"}},
            {"op", rdma},
            {"size", allButInject},
            {"sizes", {"ping-pong", "sockets-ping-pong"}},
            {"count", allButInject},
            {"duration", {"stream", "read", "sockets-stream", "incast"}}, // a ping-pong counts round trips
            {"outstanding", {"stream", "read", "incast"}},
            {"llp", rdma},
            {"payload", rdma},
            {"target", {"inject"}},
            {"at", {"inject"}},
            {"fields", {"inject"}},
            {"hex", {"inject"}},
        };
        for (const auto& kind : kinds)
        {
            for (const auto& [key, applies] : doc)
            {
                // The key's value does not matter: whether the key applies is decided first.
                const std::string yaml = kHead + "  - kind: " + kind + "\n    " + key + ": x\n";
                const std::string msg = ErrorOfString(yaml);
                const std::string refusal = "s.yaml:6:5: workloads.0." + key + ": key '" + key +
                                            "' does not apply to workload kind '" + kind + "'";
                if (applies.count(kind))
                {
                    NS_TEST_EXPECT_MSG_EQ(msg.find("does not apply"), std::string::npos,
                                          key + " applies to " + kind + ", got: " + msg);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(msg.substr(0, refusal.size()), refusal, key + " on " + kind);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(kHead +
                                            "  - {kind: sockets-stream, from: h0, to: h1, count: 1, llp: tcp}\n"),
                              "s.yaml:5:56: workloads.0.llp: key 'llp' does not apply to workload kind "
                              "'sockets-stream' (it applies to: ping-pong, stream, read, incast, traffic, "
                              "collective)",
                              "the sockets baseline has no LLP");
        // `between` names one link: in `links` or the bottleneck it would be ignored.
        const std::string stream = "  - {kind: stream, from: h0, to: h1, count: 1}\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(kHead + stream + "links: {between: [h0, h1], loss: 0.1}\n"),
                              "s.yaml:6:9: links.between: key 'between' applies to per-link entries only",
                              "between in links");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString("stop: 1ms\ntopology:\n  kind: dumbbell\n  bottleneck: {between: [left, right]}\n"
                          "workloads:\n" + stream),
            "s.yaml:4:16: topology.bottleneck.between: key 'between' applies to per-link entries only",
            "between in the bottleneck");
    }
};

class TopologyAtLoadTestCase : public TestCase
{
  public:
    TopologyAtLoadTestCase()
        : TestCase("links, paths, loss models and graphml names are checked when loading")
    {
    }

  private:
    std::string WriteGraphMl(const std::string& name, const std::string& nodes, const std::string& edges)
    {
        const std::string path = CreateTempDirFilename(name);
        std::ofstream out(path);
        out << "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
               "  <key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
               "  <key id=\"r\" for=\"edge\" attr.name=\"rate\" attr.type=\"string\"/>\n"
               "  <graph id=\"G\" edgedefault=\"undirected\">\n"
            << nodes << edges << "  </graph>\n</graphml>\n";
        return path;
    }

    static std::string Node(const std::string& id, const std::string& kind)
    {
        return "    <node id=\"" + id + "\"><data key=\"k\">" + kind + "</data></node>\n";
    }

    static std::string Edge(const std::string& a, const std::string& b, const std::string& rate = "")
    {
        return "    <edge source=\"" + a + "\" target=\"" + b + "\">" +
               (rate.empty() ? "" : "<data key=\"r\">" + rate + "</data>") + "</edge>\n";
    }

    void DoRun() override
    {
        const std::string leafSpine = "stop: 10ms\n"
                                      "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2}\n"
                                      "workloads:\n"
                                      "  - {kind: stream, from: h0, to: h3, count: 4}\n"; // line 4
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(leafSpine + "tracing:\n  pcap: [[h0, leaf0], [h0, h3]]\n"),
                              "s.yaml:6:23: tracing.pcap.1: h0 and h3 share no link (h0's neighbours: leaf0)",
                              "a pcap of no link (was exit 1 in the run: EnablePcap: no link)");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(leafSpine + "per-link:\n  - {between: [leaf0, leaf1], rate: 1Gbps}\n"),
                              "s.yaml:6:15: per-link.0.between: leaf0 and leaf1 share no link (leaf0's neighbours: "
                              "h0, h1, spine0)",
                              "a per-link entry of no link");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(leafSpine + "tracing:\n  pcap: [[spine0, leaf1]]\n"), "",
                              "a switch-to-switch link");

        // Loss models: the builder refused a link with both only when it built it.
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(leafSpine + "links: {loss: 0.001}\nper-link:\n  - between: [leaf0, spine0]\n"
                                      "    gilbert-elliott: {p: 0.01, r: 0.3}\n"),
            "s.yaml:8:22: per-link.0.gilbert-elliott: gilbert-elliott on a link that also takes loss 0.001 from "
            "'links'; a link has one loss model: set loss: 0 on this link (and give the loss outside the bursts as "
            "gilbert-elliott's loss-good)",
            "bursts on a link that inherits independent loss");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(leafSpine + "links: {loss: 0.001}\nper-link:\n  - between: [leaf0, spine0]\n"
                                      "    loss: 0\n    gilbert-elliott: {p: 0.01, r: 0.3}\n"),
            "", "loss: 0 on the link lets the bursts replace it");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(leafSpine + "links: {loss: 0.001, gilbert-elliott: {p: 0.1, r: 0.5}}\n"),
                              "s.yaml:5:39: links.gilbert-elliott: loss and gilbert-elliott on one link; a link has "
                              "one loss model (give the loss outside the bursts as gilbert-elliott's loss-good)",
                              "both in links");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString("stop: 1ms\ntopology:\n  kind: dumbbell\n  bottleneck: {loss: 0.01}\n"
                          "links: {gilbert-elliott: {p: 0.1, r: 0.5}}\n"
                          "workloads:\n  - {kind: stream, from: h0, to: h1, count: 1}\n"),
            "s.yaml:4:22: topology.bottleneck.loss: loss on a link that also takes gilbert-elliott from 'links'; a "
            "link has one loss model (give the loss outside the bursts as gilbert-elliott's loss-good)",
            "loss on a bottleneck under bursts everywhere");
        const std::string example = std::string(IWARP_SOURCE_DIR) + "/examples/scenarios/leaf-spine-mixed.yaml";
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<ScenarioError>([&] { LoadScenarioFile(example, {"per-link.0.loss=0.0001"}); }),
                              "--set per-link.0.loss=0.0001: per-link.0.loss: loss and gilbert-elliott "
                              "on one link; a link has one loss model (give the loss outside the bursts as "
                              "gilbert-elliott's loss-good)",
                              "the example with its per-link loss set");

        // GraphML: the file is read when loading; names, paths and link parameters are checked.
        const std::string split = WriteGraphMl("split.graphml",
                                               Node("alice", "host") + Node("bob", "host") + Node("sw", "switch") +
                                                   Node("carol", "host") + Node("dave", "host"),
                                               Edge("alice", "sw") + Edge("bob", "sw") + Edge("carol", "dave"));
        auto graphml = [](const std::string& path, const std::string& workloads, const std::string& more = "") {
            return "stop: 10ms\ntopology:\n  kind: graphml\n  file: " + path + "\nworkloads:\n" + workloads + more;
        };
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: bob, count: 1}\n")),
                              "", "a connected pair");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: bobb, count: 1}\n")),
                              "s.yaml:6:37: workloads.0.to: unknown host 'bobb'; topology graphml has hosts alice, "
                              "bob, carol, dave; did you mean 'bob'?",
                              "an unknown graphml host");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: sw, count: 1}\n")),
                              "s.yaml:6:37: workloads.0.to: 'sw' is a switch, not a host", "a switch as a host");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: bob, count: 1}\n",
                                  "per-host:\n  eve: {rnic: {RnicPipeline::TxPerMessage: 1us}}\n")),
            "s.yaml:8:3: per-host.eve: unknown host 'eve'; topology graphml has hosts alice, bob, carol, dave",
            "per-host of an unknown graphml host");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: bob, count: 1}\n",
                                  "tracing: {pcap: [[alice, bob]]}\n")),
            "s.yaml:7:18: tracing.pcap.0: alice and bob share no link (alice's neighbours: sw)",
            "a pcap of no graphml link");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(split, "  - {kind: stream, from: alice, to: dave, count: 1}\n")),
                              "s.yaml:6:37: workloads.0.to: no path between alice and dave in the topology graphml "
                              "(they are in parts of the graph that no link joins)",
                              "an unreachable pair");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOfString(graphml(split, "  - {kind: incast, senders: [alice, carol], to: bob, count: 1}\n")),
            "s.yaml:6:37: workloads.0.senders.1: no path between carol and bob in the topology graphml (they are in "
            "parts of the graph that no link joins)",
            "an unreachable incast sender");
        const std::string lonely =
            WriteGraphMl("lonely.graphml", Node("a", "host") + Node("b", "host") + Node("c", "host"), Edge("a", "b"));
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(lonely, "  - {kind: stream, from: a, to: b, count: 1}\n")),
                              "s.yaml:4:9: topology.file: node 'c' has no link", "a node without a link");
        const std::string badRate = WriteGraphMl("rate.graphml", Node("a", "host") + Node("b", "host"),
                                                 Edge("a", "b", "fast"));
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(graphml(badRate, "  - {kind: stream, from: a, to: b, count: 1}\n")),
                              "s.yaml:4:9: topology.file: GraphML file '" + badRate +
                                  "': <edge source=\"a\" target=\"b\">: not a rate: \"fast\" does not start with a number",
                              "a graphml link the builder cannot parse");
        const std::string noKind = CreateTempDirFilename("nokind.graphml");
        {
            std::ofstream(noKind) << "<graphml><graph edgedefault=\"undirected\"><node id=\"a\"/></graph></graphml>\n";
        }
        const std::string msg = ErrorOfString(graphml(noKind, "  - {kind: stream, from: a, to: b, count: 1}\n"));
        NS_TEST_EXPECT_MSG_EQ(msg.substr(0, 26), "s.yaml:4:9: topology.file:", "a bad graphml file: " + msg);
    }
};

class MeasureTestCase : public TestCase
{
  public:
    MeasureTestCase()
        : TestCase("measure: {from, to} within [0, stop]")
    {
    }

  private:
    void DoRun() override
    {
        const std::string s = kHead + "  - {kind: stream, from: h0, to: h1, count: 4}\n"; // 5 lines
        const ScenarioConfig c = LoadScenarioString(s + "measure: {from: 2ms, to: 8ms}\n");
        NS_TEST_ASSERT_MSG_EQ(c.measure.has_value(), true, "measure read");
        NS_TEST_EXPECT_MSG_EQ(c.measure->from, MilliSeconds(2), "from");
        NS_TEST_EXPECT_MSG_EQ(c.measure->to, MilliSeconds(8), "to");
        NS_TEST_EXPECT_MSG_EQ(LoadScenarioString(s).measure.has_value(), false, "no window unless asked");
        const ScenarioConfig o = LoadScenarioString(s, {"measure.from=1ms", "measure.to=10ms"});
        NS_TEST_EXPECT_MSG_EQ(o.measure.has_value() && o.measure->from == MilliSeconds(1) &&
                                  o.measure->to == MilliSeconds(10),
                              true, "--set creates the window; to may equal stop");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s + "measure: {from: 1ms, to: 20ms}\n"),
                              "s.yaml:6:26: measure.to: 20ms is after the stop time 10ms", "to after stop");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s + "measure: {from: 5ms, to: 5ms}\n"),
                              "s.yaml:6:26: measure.to: the window is empty: to 5ms is not after from 5ms",
                              "empty window");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s + "measure: {to: 5ms}\n"),
                              "s.yaml:6:10: measure.from: missing required key 'from'", "from required");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s + "measure: {from: -1ms, to: 5ms}\n"),
                              "s.yaml:6:17: measure.from: negative time \"-1ms\"", "negative from");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s + "measure: {from: 0, to: 5ms, step: 1ms}\n"),
                              "s.yaml:6:29: measure.step: unknown key 'step' (known keys: from, to)", "unknown key");
        NS_TEST_EXPECT_MSG_EQ(ErrorOfString(s, {"measure.to=11ms", "measure.from=0"}),
                              "--set measure.to=11ms: measure.to: 11ms is after the stop time 10ms",
                              "an overridden window");
    }
};

class InterruptRegistryTestCase : public TestCase
{
  public:
    InterruptRegistryTestCase()
        : TestCase("a results writer's temporary folder is registered until Commit or Abandon")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        const fs::path base = CreateTempDirFilename("interrupt-registry");
        fs::remove_all(base);
        fs::create_directories(base);
        {
            ResultsWriter w((base / "a" / "b" / "r").string());
            std::ofstream(w.PcapDirectory() + "/link.pcap") << "open file";
            NS_TEST_EXPECT_MSG_EQ(fs::exists(w.TempPath()), true, "the temporary folder exists");
            // What the signal thread does: the folder and the parents the writer created go.
            NS_TEST_EXPECT_MSG_EQ(RemoveTemporaryFolders(), 1u, "one folder registered");
            NS_TEST_EXPECT_MSG_EQ(fs::exists(base / "a"), false, "folder and created parents removed");
        }
        NS_TEST_EXPECT_MSG_EQ(RemoveTemporaryFolders(), 0u, "unregistered when the writer abandons it");
        {
            ResultsWriter w((base / "done").string());
            w.Commit();
        }
        NS_TEST_EXPECT_MSG_EQ(RemoveTemporaryFolders(), 0u, "unregistered at Commit");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(base / "done"), true, "a committed folder is never touched");
        fs::remove_all(base);
    }
};

/**
 * RemoveTreeNoAlloc, what the signal thread removes a crashed run's folder with (it may not use
 * the heap: the crashed thread may hold malloc's lock, which hung iwarp-sim-interrupt-segv under
 * ASan once in six runs): a folder with more entries than one getdents64 read returns, nested
 * folders, and a symbolic link to a folder outside, which must be removed and not followed.
 */
class RemoveTreeNoAllocTestCase : public TestCase
{
  public:
    RemoveTreeNoAllocTestCase()
        : TestCase("a crashed run's folder is removed without the heap, links not followed")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        const fs::path base = CreateTempDirFilename("remove-tree-no-alloc");
        fs::remove_all(base);
        const fs::path tree = base / "tree";
        const fs::path outside = base / "outside";
        fs::create_directories(tree / "a" / "b" / "c");
        fs::create_directories(outside);
        std::ofstream(outside / "keep") << "not part of the tree";
        for (int i = 0; i < 400; ++i) // 400 names of ~40 octets: several 4 KiB getdents64 reads
        {
            std::ofstream(tree / ("file-with-a-rather-long-name-number-" + std::to_string(i))) << i;
        }
        std::ofstream(tree / "a" / "b" / "c" / "deep") << "deep";
        fs::create_directory_symlink(outside, tree / "a" / "link-to-outside");
        NS_TEST_EXPECT_MSG_EQ(RemoveTreeNoAlloc(tree.c_str()), true, "reports the tree gone");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(tree), false, "the tree is gone");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(outside / "keep"), true, "the link's target is untouched");
        NS_TEST_EXPECT_MSG_EQ(RemoveTreeNoAlloc(tree.c_str()), true, "a missing path counts as gone");
        std::ofstream(base / "plain") << "a file";
        NS_TEST_EXPECT_MSG_EQ(RemoveTreeNoAlloc((base / "plain").c_str()), true, "a plain file");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(base / "plain"), false, "the plain file is gone");
        NS_TEST_EXPECT_MSG_EQ(RemoveTreeNoAlloc(""), false, "an empty path is refused");
        fs::remove_all(base);
    }
};

class ScenarioStrictTestSuite : public TestSuite
{
  public:
    ScenarioStrictTestSuite()
        : TestSuite("iwarp-scenario-strict", UNIT)
    {
        AddTestCase(new LlpConflictTestCase(), TestCase::QUICK);
        AddTestCase(new KeysPerKindTestCase(), TestCase::QUICK);
        AddTestCase(new TopologyAtLoadTestCase(), TestCase::QUICK);
        AddTestCase(new MeasureTestCase(), TestCase::QUICK);
        AddTestCase(new InterruptRegistryTestCase(), TestCase::QUICK);
        AddTestCase(new RemoveTreeNoAllocTestCase(), TestCase::QUICK);
    }
};

ScenarioStrictTestSuite g_scenarioStrictTestSuite;

} // namespace
} // namespace ns3
