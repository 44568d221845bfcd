/*
 * iwarp-results-writer: the results folder of a run and the helpers around it.
 *
 *  - nearest-rank percentiles on known samples;
 *  - the folder appears only at Commit, complete, with summary.json, messages.csv and host.csv
 *    holding the documented columns and values;
 *  - an existing folder is never overwritten (before the run, and one that appears during it);
 *  - a failed run leaves nothing behind;
 *  - pcaps are copied into pcap/;
 *  - the progress bar reports, stays quiet on short runs and never keeps a simulation alive.
 */
#include "helper/scenario/progress-bar.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/workload-metrics.h"
#include "helper/scenario/stats.h"

#include "ns3/simulator.h"
#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

std::string
ReadAll(const fs::path& p)
{
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
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

/** Entries of `dir`, by name. */
std::vector<std::string>
Entries(const fs::path& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
    {
        out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

/** `path` (under the test's temp dir) as a fresh empty folder. */
fs::path
FreshDir(const std::string& path)
{
    fs::path d(path);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

RunResult
SampleRun()
{
    RunResult r;
    r.scenario = "two-hosts-stream";
    r.seed = 7;
    r.run = 3;
    r.wallSeconds = 2.0;
    r.simulatedTime = MilliSeconds(5);
    r.stopTime = MilliSeconds(10);
    r.events = 1000;
    WorkloadResult w;
    w.name = "bulk";
    w.kind = "stream";
    w.op = "write";
    w.llp = "tcp";
    w.retransmissions = RetransmissionCounts{2, 1, 1, 1};
    TerminateRecord t;
    t.time = MicroSeconds(300);
    t.node = "h1";
    t.sent = true;
    t.layer = "ddp";
    t.type = "tagged buffer";
    t.code = 0;
    w.terminates.push_back(t);
    // Four messages, posted at 0, 10, 20, 30 us and completed 5, 6, 7, 100 us later.
    const int64_t lat[] = {5, 6, 7, 100};
    for (int i = 0; i < 4; ++i)
    {
        MessageRecord m;
        m.workload = "bulk";
        m.id = uint64_t(i);
        m.op = "write";
        m.size = 4096;
        m.post = MicroSeconds(10 * i);
        m.firstPlaced = m.post + MicroSeconds(2);
        m.delivered = i == 3 ? std::optional<Time>() : m.post + MicroSeconds(4);
        m.completed = m.post + MicroSeconds(lat[i]);
        m.sender = "h0";
        r.messages.push_back(m);
    }
    WorkloadMetricsInput in;
    in.expectedMessages = 4;
    SummarizeMessages(r.messages, in, w);
    r.workloads.push_back(w);
    HostResult h0;
    h0.node = "h0";
    h0.cpuBusyPerCore = {MicroSeconds(3), MicroSeconds(4)};
    h0.busBytes = 16384;
    h0.counters["copies"] = 0;
    HostResult h1;
    h1.node = "h1";
    h1.cpuBusyPerCore = {MicroSeconds(1)};
    h1.busBytes = 32768;
    h1.counters["dma_transactions"] = 12;
    r.hosts = {h0, h1};
    return r;
}

class PercentileTestCase : public TestCase
{
  public:
    PercentileTestCase()
        : TestCase("nearest-rank percentiles")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<double> hundred;
        for (int i = 100; i >= 1; --i)
        {
            hundred.push_back(i); // unsorted on purpose
        }
        SampleStats s = ComputeStats(hundred);
        NS_TEST_EXPECT_MSG_EQ(s.count, 100u, "count");
        NS_TEST_EXPECT_MSG_EQ(s.p50, 50, "p50 of 1..100 is the 50th smallest");
        NS_TEST_EXPECT_MSG_EQ(s.p99, 99, "p99 of 1..100 is the 99th smallest (not 100, not 99.01)");
        NS_TEST_EXPECT_MSG_EQ(s.max, 100, "max");
        NS_TEST_EXPECT_MSG_EQ(s.min, 1, "min");
        NS_TEST_EXPECT_MSG_EQ(s.mean, 50.5, "mean");
        s = ComputeStats({4, 1, 3, 2});
        NS_TEST_EXPECT_MSG_EQ(s.p50, 2, "p50 of {1,2,3,4} is a sample, 2, not the interpolated 2.5");
        NS_TEST_EXPECT_MSG_EQ(s.p99, 4, "p99 of four samples is the largest");
        s = ComputeStats({42});
        NS_TEST_EXPECT_MSG_EQ((s.p50 == 42 && s.p99 == 42 && s.max == 42), true, "one sample is every percentile");
        NS_TEST_EXPECT_MSG_EQ(ComputeStats({}).count, 0u, "empty sample");
        const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        NS_TEST_EXPECT_MSG_EQ(NearestRankPercentile(ten, 0), 1, "p0 is the minimum");
        NS_TEST_EXPECT_MSG_EQ(NearestRankPercentile(ten, 10), 1, "p10 of 10 samples is the first");
        NS_TEST_EXPECT_MSG_EQ(NearestRankPercentile(ten, 11), 2, "p11 rounds the rank up");
        NS_TEST_EXPECT_MSG_EQ(NearestRankPercentile(ten, 100), 10, "p100 is the maximum");
    }
};

class FolderTestCase : public TestCase
{
  public:
    FolderTestCase()
        : TestCase("the folder appears at Commit, complete, with the documented files and columns")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path parent = FreshDir(CreateTempDirFilename("results-ok"));
        const fs::path final = parent / "run1";
        const RunResult r = SampleRun();
        {
            ResultsWriter w(final.string());
            NS_TEST_EXPECT_MSG_EQ(fs::exists(final), false, "nothing under the final name before Commit");
            NS_TEST_EXPECT_MSG_EQ(fs::path(w.TempPath()).parent_path(), parent, "temp folder is a sibling");
            NS_TEST_EXPECT_MSG_EQ(fs::path(w.TempPath()).filename().string().rfind(".run1.tmp-", 0), 0u,
                                  "temp folder is hidden and named after the final one");
            w.Write(r);
            NS_TEST_EXPECT_MSG_EQ(fs::exists(final), false, "still nothing after Write");
            NS_TEST_EXPECT_MSG_EQ(fs::exists(fs::path(w.TempPath()) / "summary.json"), true, "written in temp");
            w.Commit();
        }
        NS_TEST_ASSERT_MSG_EQ(fs::is_directory(final), true, "the folder exists after Commit");
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).size(), 1u, "the temp folder is gone (renamed)");
        const auto files = Entries(final);
        NS_TEST_ASSERT_MSG_EQ(files.size(), 3u, "three files, no pcap folder without pcaps");
        NS_TEST_EXPECT_MSG_EQ(files[0] + "," + files[1] + "," + files[2], "host.csv,messages.csv,summary.json",
                              "file names");

        const auto j = nlohmann::json::parse(ReadAll(final / "summary.json"));
        NS_TEST_EXPECT_MSG_EQ(j["scenario"].get<std::string>(), "two-hosts-stream", "scenario");
        NS_TEST_EXPECT_MSG_EQ(j["seed"].get<int>(), 7, "seed");
        NS_TEST_EXPECT_MSG_EQ(j["simulated_time_s"].get<double>(), 0.005, "simulated time in seconds");
        NS_TEST_EXPECT_MSG_EQ(j["events"].get<int>(), 1000, "events");
        NS_TEST_EXPECT_MSG_EQ(j["format"].get<int>(), kSummaryFormat, "the current format");
        const auto& jw = j["workloads"][0];
        NS_TEST_EXPECT_MSG_EQ(jw["retransmissions"]["total"].get<int>(), 2, "retransmissions");
        NS_TEST_EXPECT_MSG_EQ(jw["retransmissions"]["timeout"].get<int>(), 1, "after a timeout");
        NS_TEST_EXPECT_MSG_EQ(jw["messages"]["posted"].get<int>(), 4, "posted");
        NS_TEST_EXPECT_MSG_EQ(jw["messages"]["delivered"].get<int>(), 3, "delivered at the sink");
        NS_TEST_EXPECT_MSG_EQ(jw["messages"]["outstanding"].get<int>(), 1, "completed at the source, not delivered");
        NS_TEST_EXPECT_MSG_EQ(jw["completed"].get<bool>(), false, "one message short");
        // FCT (post to delivery): 4 us each; sender completion {5, 6, 7, 100} us apart from it.
        NS_TEST_EXPECT_MSG_EQ(jw["fct_ns"]["p50"].get<double>(), 4000, "FCT p50");
        NS_TEST_EXPECT_MSG_EQ(jw["fct_ns"]["count"].get<int>(), 3, "FCT over delivered messages");
        NS_TEST_EXPECT_MSG_EQ(jw["sender_completion_ns"]["p50"].get<double>(), 6000, "p50 nearest rank");
        NS_TEST_EXPECT_MSG_EQ(jw["sender_completion_ns"]["p99"].get<double>(), 100000, "p99");
        NS_TEST_EXPECT_MSG_EQ(jw.contains("latency_ns"), false, "no ambiguous latency field");
        // 3 x 4096 delivered octets between the first post (0) and the last delivery (24 us).
        NS_TEST_EXPECT_MSG_EQ_TOL(jw["goodput_bps"].get<double>(), 3 * 4096 * 8 / 24e-6, 1, "goodput");
        NS_TEST_EXPECT_MSG_EQ(jw["octets"]["delivered"].get<int>(), 3 * 4096, "octets delivered");
        NS_TEST_EXPECT_MSG_EQ(jw["terminates"][0]["direction"].get<std::string>(), "sent", "terminate direction");
        NS_TEST_EXPECT_MSG_EQ(jw["terminates"][0]["layer"].get<std::string>(), "ddp", "terminate layer");
        NS_TEST_EXPECT_MSG_EQ(jw["terminates"][0]["time_ns"].get<int64_t>(), 300000, "terminate time");
        NS_TEST_EXPECT_MSG_EQ(j["hosts"][0]["cpu_busy_ns"][1].get<int64_t>(), 4000, "cpu busy per core");
        NS_TEST_EXPECT_MSG_EQ(j["hosts"][1]["bus_bytes"].get<int64_t>(), 32768, "bus bytes");

        const auto msg = Lines(ReadAll(final / "messages.csv"));
        NS_TEST_ASSERT_MSG_EQ(msg.size(), 5u, "header and one row per message");
        NS_TEST_EXPECT_MSG_EQ(msg[0],
                              "workload,id,op,size_bytes,post_ns,first_placed_ns,delivered_ns,completed_ns,fct_ns,"
                              "status,ideal_fct_ns",
                              "messages.csv columns");
        NS_TEST_EXPECT_MSG_EQ(msg[2], "bulk,1,write,4096,10000,12000,14000,16000,4000,delivered,",
                              "a row, times in ns");
        NS_TEST_EXPECT_MSG_EQ(msg[4], "bulk,3,write,4096,30000,32000,,130000,,outstanding,",
                              "an unknown time is empty; completed at the source is not delivered");

        const auto host = Lines(ReadAll(final / "host.csv"));
        NS_TEST_ASSERT_MSG_EQ(host.size(), 3u, "header and one row per host");
        NS_TEST_EXPECT_MSG_EQ(host[0],
                              "node,cores,cpu_busy_ns_total,cpu_busy_ns_per_core,bus_bytes,copies,dma_transactions",
                              "host.csv columns: fixed, then the union of the counters");
        NS_TEST_EXPECT_MSG_EQ(host[1], "h0,2,7000,3000;4000,16384,0,", "h0 row; a counter it lacks is empty");
        NS_TEST_EXPECT_MSG_EQ(host[2], "h1,1,1000,1000,32768,,12", "h1 row");
    }
};

class NoOverwriteTestCase : public TestCase
{
  public:
    NoOverwriteTestCase()
        : TestCase("an existing results folder is never overwritten")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path parent = FreshDir(CreateTempDirFilename("results-exists"));
        const fs::path final = parent / "run";
        fs::create_directories(final);
        std::ofstream(final / "summary.json") << "old";
        bool refused = false;
        try
        {
            ResultsWriter w(final.string());
        }
        catch (const ResultsError& e)
        {
            refused = std::string(e.what()).find("already exists; refusing to overwrite") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "the constructor refuses with a clear message");
        NS_TEST_EXPECT_MSG_EQ(ReadAll(final / "summary.json"), "old", "the old results are untouched");
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).size(), 1u, "no temp folder left");

        // A folder (even an empty one, which plain rename(2) would replace) that appears during the run.
        const fs::path late = parent / "late";
        bool refusedLate = false;
        {
            ResultsWriter w(late.string());
            w.Write(SampleRun());
            fs::create_directory(late);
            try
            {
                w.Commit();
            }
            catch (const ResultsError& e)
            {
                refusedLate = std::string(e.what()).find("appeared during the run") != std::string::npos;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(refusedLate, true, "Commit refuses");
        NS_TEST_EXPECT_MSG_EQ(fs::is_empty(late), true, "the folder that appeared is left as it was");
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).size(), 2u, "run and late only: the temp folder was removed");
    }
};

class FailureLeavesNothingTestCase : public TestCase
{
  public:
    FailureLeavesNothingTestCase()
        : TestCase("a failed run leaves nothing; pcaps are copied into the pcap folder")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path parent = FreshDir(CreateTempDirFilename("results-fail"));
        // Failure by exception between Write and Commit (the runner's scope unwinds).
        try
        {
            ResultsWriter w((parent / "a").string());
            w.PcapDirectory();
            w.Write(SampleRun());
            NS_TEST_EXPECT_MSG_EQ(Entries(parent).size(), 1u, "the temp folder exists during the run");
            throw std::runtime_error("simulation failed");
        }
        catch (const std::runtime_error&)
        {
        }
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).empty(), true, "nothing left after a failure");

        // Parent folders the writer created for the run go too.
        {
            ResultsWriter w((parent / "new" / "deeper" / "run").string());
            NS_TEST_EXPECT_MSG_EQ(fs::is_directory(parent / "new" / "deeper"), true, "parents created");
        }
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).empty(), true, "and removed after a failure");

        // Failure inside Write: a pcap that does not exist.
        RunResult r = SampleRun();
        r.pcapFiles = {(parent / "missing.pcap").string()};
        bool threw = false;
        {
            ResultsWriter w((parent / "b").string());
            try
            {
                w.Write(r);
            }
            catch (const ResultsError&)
            {
                threw = true;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "a missing pcap is an error");
        NS_TEST_EXPECT_MSG_EQ(Entries(parent).empty(), true, "and leaves nothing");

        // The scenario as run and the overrides go with the results.
        r.pcapFiles.clear();
        r.scenarioYaml = "stop: 1ms\n";
        r.overrides = {"seed=7"};
        {
            ResultsWriter w((parent / "s").string());
            w.Write(r);
            w.Commit();
        }
        NS_TEST_EXPECT_MSG_EQ(ReadAll(parent / "s" / "scenario.yaml"), "stop: 1ms\n", "scenario.yaml written");
        const auto js = nlohmann::json::parse(ReadAll(parent / "s" / "summary.json"));
        NS_TEST_EXPECT_MSG_EQ(js["overrides"][0].get<std::string>(), "seed=7", "overrides in summary.json");
        fs::remove_all(parent / "s");

        // Success with one pcap copied and one written straight into the temp folder.
        const fs::path src = FreshDir(CreateTempDirFilename("results-pcap-src")) / "h0-h1-0-0.pcap";
        std::ofstream(src) << "pcapdata";
        {
            ResultsWriter w((parent / "c").string());
            const std::string direct = w.PcapDirectory() + "/direct.pcap";
            std::ofstream(direct) << "x";
            r.pcapFiles = {src.string(), direct};
            w.Write(r);
            w.Commit();
        }
        NS_TEST_EXPECT_MSG_EQ(ReadAll(parent / "c" / "pcap" / "h0-h1-0-0.pcap"), "pcapdata", "pcap copied");
        NS_TEST_EXPECT_MSG_EQ(ReadAll(parent / "c" / "pcap" / "direct.pcap"), "x", "direct pcap kept");
        const auto j = nlohmann::json::parse(ReadAll(parent / "c" / "summary.json"));
        NS_TEST_EXPECT_MSG_EQ(j["files"]["pcap"].get<std::string>(), "pcap", "summary lists the pcap folder");
    }
};

/** Schedules `n` events 1 us apart, each burning `burn` of wall time. */
void
Busy(int n, std::chrono::microseconds burn)
{
    if (n == 0)
    {
        return;
    }
    std::this_thread::sleep_for(burn);
    Simulator::Schedule(MicroSeconds(1), &Busy, n - 1, burn);
}

class ProgressBarTestCase : public TestCase
{
  public:
    ProgressBarTestCase()
        : TestCase("progress bar: reports, quiet on short runs, never keeps the simulation alive")
    {
    }

  private:
    void DoRun() override
    {
        // Not a terminal, no quiet period, a line at every check: lines appear and the run ends at
        // its last real event (1 ms), far before the 100 ms stop the bar was told about.
        {
            std::ostringstream out;
            ProgressBar::Options o;
            o.quietSeconds = 0;
            o.lineSeconds = 0;
            ProgressBar bar(MilliSeconds(100), out, false, o);
            Simulator::Schedule(Time(0), &Busy, 1000, std::chrono::microseconds(100));
            bar.Start();
            Simulator::Run();
            bar.Finish();
            const Time end = Simulator::Now();
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_GT(bar.GetReports(), 0u, "at least one report");
            NS_TEST_EXPECT_MSG_EQ(out.str().rfind("progress: ", 0), 0u, "plain lines off a terminal");
            NS_TEST_EXPECT_MSG_EQ((out.str().find("events/s") != std::string::npos), true, "events per second");
            NS_TEST_EXPECT_MSG_EQ((out.str().find(", ETA ") != std::string::npos), true, "the wall time to go");
            NS_TEST_EXPECT_MSG_EQ(out.str().find('\r'), std::string::npos, "no carriage returns off a terminal");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(end, MilliSeconds(1) + MilliSeconds(1),
                                        "the run ends within one check period (stop/100) of its last event");
        }
        // A terminal: redrawn in place, the line finished with a newline.
        {
            std::ostringstream out;
            ProgressBar::Options o;
            o.quietSeconds = 0;
            o.redrawSeconds = 0;
            ProgressBar bar(MilliSeconds(1), out, true, o);
            Simulator::Schedule(Time(0), &Busy, 200, std::chrono::microseconds(200));
            bar.Start();
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            bar.Finish();
            Simulator::Destroy();
            const std::string s = out.str();
            NS_TEST_EXPECT_MSG_EQ((s.empty() ? ' ' : s[0]), '\r', "redraws start with a carriage return");
            NS_TEST_EXPECT_MSG_EQ((s.find("] 100.0% sim") != std::string::npos), true, "the final state is 100%");
            NS_TEST_EXPECT_MSG_EQ((s.empty() ? ' ' : s.back()), '\n', "Finish ends the line");
        }
        // Default quiet second: a short run prints nothing.
        {
            std::ostringstream out;
            ProgressBar bar(MilliSeconds(1), out, false, ProgressBar::Options());
            Simulator::Schedule(Time(0), &Busy, 10, std::chrono::microseconds(0));
            bar.Start();
            Simulator::Run();
            bar.Finish();
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_EQ(out.str(), "", "quiet during the first second");
        }
    }
};

class ProgressEtaTestCase : public TestCase
{
  public:
    ProgressEtaTestCase()
        : TestCase("progress bar: the ETA extrapolates simulated seconds per wall second")
    {
    }

  private:
    void DoRun() override
    {
        // 0.25 of 1 s simulated in 10 s of wall time: 30 s to go.
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(0.25, 1.0, 10.0), "ETA 30 s", "seconds");
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(0.01, 1.0, 4.0), "ETA 6.6 min", "396 s in minutes");
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(0.001, 0.01, 1000.0), "ETA 2.5 h", "9000 s in hours");
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(0.0, 1.0, 5.0), "ETA ?", "no simulated progress yet");
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(0.5, 1.0, 0.0), "ETA ?", "no wall time yet");
        NS_TEST_EXPECT_MSG_EQ(ProgressEta(2.0, 1.0, 4.0), "ETA 0 s", "past the stop time");
    }
};

class ResultsWriterTestSuite : public TestSuite
{
  public:
    ResultsWriterTestSuite()
        : TestSuite("iwarp-results-writer", UNIT)
    {
        AddTestCase(new PercentileTestCase(), TestCase::QUICK);
        AddTestCase(new FolderTestCase(), TestCase::QUICK);
        AddTestCase(new NoOverwriteTestCase(), TestCase::QUICK);
        AddTestCase(new FailureLeavesNothingTestCase(), TestCase::QUICK);
        AddTestCase(new ProgressBarTestCase(), TestCase::QUICK);
        AddTestCase(new ProgressEtaTestCase(), TestCase::QUICK);
    }
};

ResultsWriterTestSuite g_resultsWriterTestSuite;

} // namespace
} // namespace ns3
