/*
 * iwarp-scenario-outcomes: what a run did is in its results, never silent (issue 14, item 7; the
 * load-time parts are in iwarp-scenario-input).  Reproduced on 19cc24b first:
 *
 *  - a connection that never got through, or that TCP gave up after its retries (or an SCTP
 *    association that aborted), left no trace in summary.json: a workload just posted fewer
 *    messages.  Each workload now counts its connections: attempted, established, lost;
 *  - `tracing.directory` was ignored (pcaps always went to pcap/); it is honoured, and
 *    summary.json's `files.pcap` names it;
 *  - a directory outside the results folder is refused (it would escape its all-or-nothing).
 */
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

fs::path
Folder(const std::string& tag)
{
    return fs::temp_directory_path() / ("iwarp-outcomes-" + std::to_string(::getpid()) + "-" + tag);
}

/** Run `yaml` into a temporary folder (removed again), keeping the result. */
RunResult
RunYaml(const std::string& yaml, const std::string& tag)
{
    return RunYamlInTemp(yaml, "outcomes", tag);
}

/** Fast-failing transports: a 1 ms minimum and initial RTO and two retries (TCP and SCTP alike); delayed
 *  ACKs shorter than the RTO, as the loader demands. */
const std::string kGiveUpSoon = "host: {TcpSocket::ConnCount: \"1\", SctpSocket::MaxInitRetransmits: \"1\"}\n"
                                "transport: {tcp: {min-rto: 1ms, initial-rto: 1ms, delayed-ack-timeout: 500us, "
                                "data-retries: 2}, "
                                "sctp: {rto-min: 1ms, rto-initial: 1ms, sack-delay: 500us, "
                                "association-max-retrans: 2, path-max-retrans: 2}}\n";

class ConnectionsTestCase : public TestCase
{
  public:
    ConnectionsTestCase()
        : TestCase("connections that never got through or were given up are counted per workload")
    {
    }

  private:
    void Expect(const RunResult& r, std::size_t i, uint64_t attempted, uint64_t established, uint64_t lost,
                const std::string& what)
    {
        const ConnectionCounts& c = r.workloads.at(i).connections;
        NS_TEST_EXPECT_MSG_EQ(c.attempted, attempted, what << ": attempted");
        NS_TEST_EXPECT_MSG_EQ(c.established, established, what << ": established");
        NS_TEST_EXPECT_MSG_EQ(c.lost, lost, what << ": lost");
    }

    void DoRun() override
    {
        for (const char* llp : {"tcp", "sctp"})
        {
            // Every packet lost: the connection is never established.
            const RunResult never = RunYaml(std::string("stop: 50ms\ntopology: {kind: two-hosts}\nlinks: {loss: 1}\n") +
                                            kGiveUpSoon + "workloads:\n  - {kind: stream, from: h0, to: h1, "
                                                          "count: 2, llp: " + llp + "}\n",
                                        std::string("never-") + llp);
            Expect(never, 0, 1, 0, 0, std::string("no packet through over ") + llp);
            // A link that fails for good after a while: established, then given up.
            const RunResult gone =
                RunYaml(std::string("stop: 200ms\ntopology: {kind: two-hosts}\n"
                                "links: {gilbert-elliott: {p: 0.001, r: 0, loss-good: 0, loss-bad: 1}}\n") +
                        kGiveUpSoon + "workloads:\n  - {kind: stream, from: h0, to: h1, size: 64KiB, count: 100, "
                                      "llp: " + llp + "}\n",
                    std::string("gone-") + llp);
            Expect(gone, 0, 1, 1, 1, std::string("a link that dies over ") + llp);
            NS_TEST_EXPECT_MSG_EQ(gone.workloads[0].completed, false, "not completed");
        }
        // The sockets baseline: a stream and a ping-pong over the dying link.
        // On host-2005's hosts the ping-pong's client is the one sending when the link dies, so its own
        // connection is the one given up (which end is sending then depends on the hosts' speed).
        const RunResult sockets =
            RunYaml("stop: 200ms\ntopology: {kind: two-hosts}\n"
                "links: {gilbert-elliott: {p: 0.001, r: 0, loss-good: 0, loss-bad: 1}}\n" +
                    std::string(kGiveUpSoon).replace(kGiveUpSoon.find("host: {"), 7, "host: {profile: host-2005, ") +
                    "workloads:\n  - {kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: 100}\n"
                    "  - {kind: sockets-ping-pong, from: h0, to: h1, size: 64KiB, count: 100}\n",
                "sockets");
        Expect(sockets, 0, 1, 1, 1, "a sockets stream over a link that dies");
        Expect(sockets, 1, 1, 1, 1, "a sockets ping-pong over a link that dies");
        // A clean run counts every connection established and none lost; a ping-pong opens one per size.
        const RunResult clean = RunYaml("stop: 20ms\ntopology: {kind: dumbbell, hosts-per-side: 2}\nworkloads:\n"
                                    "  - {kind: incast, senders: [h0, h1], to: h2, count: 2}\n"
                                    "  - {kind: ping-pong, from: h3, to: h1, sizes: [64, 4KiB], count: 2}\n"
                                    "  - {kind: sockets-stream, from: h1, to: h3, count: 2}\n"
                                    "  - {kind: read, from: h3, to: h0, count: 2}\n",
                                    "clean");
        Expect(clean, 0, 2, 2, 0, "incast");
        Expect(clean, 1, 2, 2, 0, "ping-pong of two sizes");
        Expect(clean, 2, 1, 1, 0, "sockets stream");
        Expect(clean, 3, 1, 1, 0, "read");

        // summary.json carries them (doc/metrics.md).
        RunResult r;
        WorkloadResult w;
        w.connections = ConnectionCounts{3, 1, 1};
        r.workloads.push_back(w);
        const std::string json = ResultsWriter::SummaryJson(r);
        const bool found = json.find("\"connections\": {\n        \"attempted\": 3,\n        \"established\": 1,\n"
                                     "        \"lost\": 1,\n        \"not_established\": 2\n      }") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(found, true, json);
    }
};

class PcapDirectoryTestCase : public TestCase
{
  public:
    PcapDirectoryTestCase()
        : TestCase("tracing.directory is where the pcaps go, and summary.json's files.pcap names it")
    {
    }

  private:
    void DoRun() override
    {
        const std::string base = "stop: 5ms\ntopology: {kind: two-hosts}\n"                    // 1, 2
                                 "workloads:\n  - {kind: stream, from: h0, to: h1, count: 2}\n"; // 3, 4
        for (const auto& [tracing, dir] : std::vector<std::pair<std::string, std::string>>{
                 {"tracing: {pcap: all}\n", "pcap"},
                 {"tracing: {pcap: [[h0, h1]], directory: traces/links/}\n", "traces/links"}})
        {
            const ScenarioConfig cfg = LoadScenarioString(base + tracing);
            const fs::path folder = Folder("pcap");
            RunInto(cfg, folder.string());
            NS_TEST_EXPECT_MSG_EQ(fs::exists(folder / dir / "link-h0-h1.pcap"), true, dir << "/link-h0-h1.pcap");
            NS_TEST_EXPECT_MSG_EQ(fs::exists(folder / dir / "link-h1-h0.pcap"), true, dir << "/link-h1-h0.pcap");
            NS_TEST_EXPECT_MSG_EQ((dir == "pcap" || !fs::exists(folder / "pcap")), true, "no pcap/ beside " << dir);
            std::ostringstream summary;
            summary << std::ifstream(folder / "summary.json").rdbuf();
            const bool named = summary.str().find("\"pcap\": \"" + dir + "\"") != std::string::npos;
            NS_TEST_EXPECT_MSG_EQ(named, true, "files.pcap is " << dir);
            fs::remove_all(folder);
        }
        for (const char* bad : {"/tmp/x", "../x", "a/../b", "./a", "a//b", ""})
        {
            NS_TEST_EXPECT_MSG_EQ(ErrorOf(base + "tracing: {pcap: all, directory: \"" + bad + "\"}\n"),
                                  "s.yaml:5:33: tracing.directory: the pcap folder is a relative path inside the "
                                  "results folder, without empty, '.' or '..' parts; got \"" + std::string(bad) + "\"",
                                  "directory " << bad);
        }
    }
};

class ScenarioOutcomesTestSuite : public TestSuite
{
  public:
    ScenarioOutcomesTestSuite()
        : TestSuite("iwarp-scenario-outcomes", UNIT)
    {
        AddTestCase(new ConnectionsTestCase, TestCase::QUICK);
        AddTestCase(new PcapDirectoryTestCase, TestCase::QUICK);
    }
};

static ScenarioOutcomesTestSuite g_scenarioOutcomesTestSuite;

} // namespace
} // namespace ns3
