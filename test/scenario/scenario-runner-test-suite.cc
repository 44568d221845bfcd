/*
 * iwarp-scenario-runner: the shipped scenario files run end to end through RunScenario
 * (doc/scenario-format.md). What RunScenario does with small inline scenarios (savings direction,
 * impairments, injects, SCTP, no overwrite) is iwarp-scenario-runner-behaviour
 * (scenario-runner-behaviour-test-suite.cc).
 *
 *  - every file in scenarios/ runs, shortened by overrides (fewer messages, shorter durations),
 *    but fat-tree-k16 (1,024 hosts: loaded and its shape checked only), and its results folder
 *    has the documented schema: summary.json with its keys and one entry
 *    per workload that completed messages, messages.csv with its header and a completed row per
 *    counted message, host.csv with one row per host.
 */
#include "helper/scenario/data-flows.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"
#include "scenario/scenario-runner-test-util.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#ifndef IWARP_SOURCE_DIR
#define IWARP_SOURCE_DIR "."
#endif

namespace ns3
{
namespace
{

namespace fs = std::filesystem;
using nlohmann::json;
using runnertest::ReadAll;

std::vector<std::string>
Split(const std::string& line, char sep)
{
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, sep))
    {
        out.push_back(cell);
    }
    if (!line.empty() && line.back() == sep)
    {
        out.emplace_back();
    }
    return out;
}

std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        out.push_back(line);
    }
    return out;
}

// ------------------------------------------------------------------------ the shipped scenarios

/** Every file in scenarios/, shortened, runs and writes the documented results folder. */
class ShippedScenariosTestCase : public TestCase
{
  public:
    ShippedScenariosTestCase()
        : TestCase("every file of scenarios runs (shortened) and writes the documented results folder")
    {
    }

  private:
    /** Overrides that keep the scenario's shape but make it short: 2 messages per workload
     *  (per size, per sender), at most 16 KiB each, at most 5 ms of posting. */
    static std::vector<std::string> Shorten(const ScenarioConfig& cfg)
    {
        std::vector<std::string> o;
        for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
        {
            const WorkloadConfig& w = cfg.workloads[i];
            const std::string p = "workloads." + std::to_string(i) + ".";
            if (w.kind == WorkloadKind::Inject)
            {
                continue;
            }
            if (w.count)
            {
                o.push_back(p + "count=" + std::to_string(std::min<uint64_t>(*w.count, 2)));
            }
            if (w.duration && *w.duration > MilliSeconds(5))
            {
                o.push_back(p + "duration=5ms");
            }
            if (w.sizes.empty() && w.size > 16384)
            {
                o.push_back(p + "size=16KiB");
            }
        }
        return o;
    }

    void CheckFolder(const std::string& file, const ScenarioConfig& cfg, const ScenarioOutcome& out)
    {
        const fs::path dir(out.folder);
        NS_TEST_ASSERT_MSG_EQ(fs::is_directory(dir), true, file << ": no results folder " << dir);
        for (const char* f : {"summary.json", "messages.csv", "host.csv", "scenario.yaml"})
        {
            NS_TEST_ASSERT_MSG_EQ(fs::is_regular_file(dir / f), true, file << ": no " << f);
        }

        // summary.json: the documented keys, one entry per workload, each with completed messages.
        const json s = json::parse(ReadAll(dir / "summary.json"));
        for (const char* k : {"format", "scenario", "seed", "run", "overrides", "wall_time_s", "simulated_time_s",
                              "stop_time_s", "events", "events_per_wall_s", "workloads", "hosts", "files"})
        {
            NS_TEST_ASSERT_MSG_EQ(s.contains(k), true, file << ": summary.json has no '" << k << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(s["format"].get<int>(), kSummaryFormat, file);
        NS_TEST_EXPECT_MSG_EQ(s["checks_failed"].get<int>(), 0, file << ": " << FailedChecksReport(out.result));
        NS_TEST_EXPECT_MSG_GT(s["checks"].size(), 0u, file << ": physics checks are recorded");
        NS_TEST_EXPECT_MSG_EQ(s["scenario"].get<std::string>(), cfg.name, file);
        NS_TEST_EXPECT_MSG_EQ(s["overrides"].size(), cfg.overrides.size(), file);
        NS_TEST_ASSERT_MSG_EQ(s["workloads"].size(), cfg.workloads.size(), file << ": one entry per workload");
        std::map<std::string, uint64_t> messages; // workload -> messages in summary.json
        for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
        {
            const json& w = s["workloads"][i];
            for (const char* k : {"name", "kind", "op", "llp", "data_flows", "messages", "octets", "completed",
                                  "goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_ns", "sender_completion_ns", "latency_by_size",
                                  "retransmissions", "terminates"})
            {
                NS_TEST_ASSERT_MSG_EQ(w.contains(k), true, file << ": workload " << i << " has no '" << k << "'");
            }
            const std::string name = w["name"].get<std::string>();
            NS_TEST_EXPECT_MSG_EQ(name, cfg.workloads[i].name, file);
            NS_TEST_EXPECT_MSG_EQ(w["data_flows"].size(), DataFlowsOf(cfg.workloads[i]).size(),
                                  file << ": workload " << name << "'s data flows");
            const bool inject = cfg.workloads[i].kind == WorkloadKind::Inject;
            NS_TEST_EXPECT_MSG_GT(w["messages"]["posted"].get<uint64_t>(), 0u, file << ": workload " << name);
            if (!inject)
            {
                NS_TEST_EXPECT_MSG_GT(w["messages"]["delivered"].get<uint64_t>(), 0u, file << ": workload " << name);
                NS_TEST_EXPECT_MSG_GT(w["octets"]["delivered"].get<uint64_t>(), 0u, file << ": workload " << name);
                messages[name] = w["messages"]["delivered"].get<uint64_t>();
            }
        }
        const std::size_t hosts = ExpectedHostNames(cfg.topology).size();
        NS_TEST_EXPECT_MSG_EQ(s["hosts"].size(), hosts, file << ": one entry per host");

        // messages.csv: the header, and as many delivered rows per workload as summary.json counts
        // (incast rows are "<workload>:<sender>"), each with its FCT = delivered - post.
        const std::vector<std::string> rows = Lines(ReadAll(dir / "messages.csv"));
        NS_TEST_ASSERT_MSG_EQ(rows.empty(), false, file << ": empty messages.csv");
        NS_TEST_EXPECT_MSG_EQ(rows[0],
                              "workload,id,op,size_bytes,post_ns,first_placed_ns,delivered_ns,completed_ns,fct_ns,"
                              "status,ideal_fct_ns",
                              file);
        std::map<std::string, uint64_t> delivered;
        const std::size_t columns = Split(rows[0], ',').size();
        for (std::size_t i = 1; i < rows.size(); ++i)
        {
            const std::vector<std::string> c = Split(rows[i], ',');
            NS_TEST_ASSERT_MSG_EQ(c.size(), columns, file << ": messages.csv row " << i << ": " << rows[i]);
            if (c[9] == "delivered")
            {
                ++delivered[c[0].substr(0, c[0].find(':'))];
                // The columns are whole nanoseconds of picosecond times (doc/metrics.md): the FCT,
                // taken from the exact times, is the difference of the columns to within 1 ns.
                const int64_t fromColumns = std::stoll(c[6]) - std::stoll(c[4]);
                NS_TEST_EXPECT_MSG_EQ((std::llabs(std::stoll(c[8]) - fromColumns) <= 1), true,
                                      file << ": fct_ns is delivered_ns - post_ns: " << rows[i]);
            }
        }
        for (const auto& [name, n] : messages)
        {
            NS_TEST_EXPECT_MSG_EQ(delivered[name], n, file << ": delivered rows of " << name << " in messages.csv");
        }

        // host.csv: the header and one row per host.
        const std::vector<std::string> h = Lines(ReadAll(dir / "host.csv"));
        NS_TEST_ASSERT_MSG_EQ(h.size(), hosts + 1, file << ": host.csv has a header and one row per host");
        NS_TEST_EXPECT_MSG_EQ(h[0].rfind("node,cores,cpu_busy_ns_total,cpu_busy_ns_per_core,bus_bytes", 0), 0u,
                              file << ": host.csv header " << h[0]);
    }

    /**
     * fat-tree-k16 is not run here: its 1,024 hosts cost about 14 s of CPU for even 100 us simulated
     * (its header quotes the full run), more than a test may take. Loading it checks every key,
     * node name and LLP as a run would; this checks that it is still the scenario its header
     * describes: a permutation h(i) -> h((i + 512) mod 1024), 10 ms, one flow in 8 over sockets.
     */
    static constexpr const char* kTooLargeToRun = "fat-tree-k16";

    void CheckK16(const ScenarioConfig& cfg)
    {
        NS_TEST_EXPECT_MSG_EQ(ExpectedHostNames(cfg.topology).size(), 1024u, "fat-tree-k16: hosts");
        NS_TEST_ASSERT_MSG_EQ(cfg.workloads.size(), 1024u, "fat-tree-k16: one flow per host");
        NS_TEST_EXPECT_MSG_EQ(cfg.stop, MilliSeconds(10), "fat-tree-k16: stop");
        uint32_t sockets = 0;
        for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
        {
            const WorkloadConfig& w = cfg.workloads[i];
            NS_TEST_EXPECT_MSG_EQ(w.from, "h" + std::to_string(i), "fat-tree-k16: workload " << i);
            NS_TEST_EXPECT_MSG_EQ(w.to, "h" + std::to_string((i + 512) % 1024), "fat-tree-k16: workload " << i);
            NS_TEST_EXPECT_MSG_EQ((w.duration && *w.duration == MilliSeconds(10)), true,
                                  "fat-tree-k16: workload " << i << " posts for the whole run");
            sockets += w.kind == WorkloadKind::SocketsStream;
            NS_TEST_EXPECT_MSG_EQ((w.kind == WorkloadKind::SocketsStream || w.kind == WorkloadKind::Stream), true,
                                  "fat-tree-k16: workload " << i << " is a stream");
        }
        NS_TEST_EXPECT_MSG_EQ(sockets, 128u, "fat-tree-k16: one flow in 8 over sockets");
    }

    void DoRun() override
    {
        const fs::path src = fs::path(IWARP_SOURCE_DIR) / "scenarios";
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(src))
        {
            if (e.path().extension() == ".yaml")
            {
                files.push_back(e.path());
            }
        }
        std::sort(files.begin(), files.end());
        std::vector<std::string> stems;
        for (const fs::path& f : files)
        {
            stems.push_back(f.stem().string());
        }
        for (const char* expected :
             {"cpu-savings", "fat-tree-k8", "fat-tree-k16", "incast-leaf-spine", "lossy-wan", "two-hosts-latency"})
        {
            NS_TEST_ASSERT_MSG_EQ(std::count(stems.begin(), stems.end(), expected), 1,
                                  "scenarios/" << expected << ".yaml is missing");
        }
        for (const fs::path& f : files)
        {
            const ScenarioConfig full = LoadScenarioFile(f.string());
            if (f.stem() == kTooLargeToRun)
            {
                CheckK16(full);
                continue;
            }
            const ScenarioConfig cfg = LoadScenarioFile(f.string(), Shorten(full));
            const ScenarioOutcome out = RunInto(cfg, CreateTempDirFilename("run-" + f.stem().string()));
            std::clog << "  " << f.filename().string() << " (shortened): " << out.result.wallSeconds << " s wall, "
                      << out.result.simulatedTime.GetMilliSeconds() << " ms simulated\n";
            CheckFolder(f.filename().string(), cfg, out);
        }
    }
};

class ScenarioRunnerTestSuite : public TestSuite
{
  public:
    ScenarioRunnerTestSuite()
        : TestSuite("iwarp-scenario-runner", UNIT)
    {
        AddTestCase(new ShippedScenariosTestCase(), TestCase::QUICK);
    }
};

ScenarioRunnerTestSuite g_scenarioRunnerTestSuite;

} // namespace
} // namespace ns3
