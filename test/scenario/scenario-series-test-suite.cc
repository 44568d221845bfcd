/*
 * iwarp-scenario-series: `tracing.series` (doc/metrics.md, "Time series"). Five flows share a
 * dumbbell whose 1 Gb/s bottleneck they congest: a Write stream over MPA/TCP, one over SCTP, a
 * sockets stream, a sockets ping-pong and an RDMA Read (whose data flows back from its responder).
 *
 *  - series.csv has goodput, cwnd and rtt rows for every flow (no goodput for the ping-pong) and
 *    queue rows for every link direction, at the end of each interval up to the stop; summary.json
 *    lists it;
 *  - each flow's goodput integrates to the octets delivered at its sink; the bottleneck's queue
 *    stays within its configured limit and is not empty; the Read's window is its responder's;
 *  - the last cwnd and rtt samples are what the sockets' own traces (TCP CongestionWindow and RTT,
 *    SCTP CongestionWindow and Rtt) last said;
 *  - without `tracing.series` nothing is scheduled: with it, exactly one event per sample but the last;
 *  - the loader's checks: interval, the row limit, quantities, flows and links.
 */
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-runner.h"
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/series-recorder.h"

#include "support/scenario-run-util.h"
#include "support/series-csv.h"

#include "sctp/sctp-socket.h"

#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;
using iwarptest::BySeries;
using iwarptest::ReadCsv;
using iwarptest::Row;

const std::string kDumbbell = R"(
stop: 20ms
topology: {kind: dumbbell, hosts-per-side: 5, bottleneck: {rate: 1Gbps, queue: 40p}}
links: {rate: 10Gbps, delay: 5us}
workloads:
  - {name: mpa, kind: stream, from: h0, to: h5, op: write, size: 64KiB, outstanding: 4, duration: 15ms}
  - {name: sctp, kind: stream, from: h1, to: h6, op: write, size: 64KiB, outstanding: 4, duration: 15ms, llp: sctp}
  - {name: sockets, kind: sockets-stream, from: h2, to: h7, size: 64KiB, duration: 15ms}
  - {name: pp, kind: sockets-ping-pong, from: h3, to: h8, size: 1KiB, count: 20}
  - {name: read, kind: read, from: h4, to: h9, size: 64KiB, outstanding: 4, duration: 15ms}
tracing:
  series: {interval: 500us}
)";


fs::path
TempFolder(const std::string& tag)
{
    return fs::temp_directory_path() / ("iwarp-series-" + std::to_string(::getpid()) + "-" + tag);
}

class SeriesFileTestCase : public TestCase
{
  public:
    SeriesFileTestCase()
        : TestCase("series.csv: every flow's goodput, cwnd and rtt, every link direction's queue, summed up right")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path folder = TempFolder("file");
        // ns-3's TCP measures the RTT from its timestamp option, whose clock ticks in milliseconds
        // (any RTT below 1 ms reads 1 us): without it, from its send times, at full resolution.
        const ScenarioOutcome out = RunInto(
            LoadScenarioString(kDumbbell, {"transport.tcp.timestamps=false"}, "series.yaml"), folder.string());
        std::ifstream summaryFile(folder / "summary.json");
        const nlohmann::json summary = nlohmann::json::parse(summaryFile);
        NS_TEST_ASSERT_MSG_EQ(summary["files"].value("series", ""), std::string("series.csv"),
                              "summary.json lists series.csv");
        const std::vector<Row> rows = ReadCsv(folder / "series.csv");
        fs::remove_all(folder);
        const auto series = BySeries(rows);

        // Samples at the end of each 500 us interval, the last at the stop: 40 of each queue series.
        const auto& queue = series.at({"left->right", "queue_packets"});
        NS_TEST_ASSERT_MSG_EQ(queue.size(), 40u, "one sample per interval");
        for (std::size_t k = 0; k < queue.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(queue[k].first, int64_t(k + 1) * 500000, "sampled at the interval's end");
        }
        // Every link direction by default (11 links of the dumbbell), packets and octets.
        std::size_t directions = 0;
        for (const auto& [key, samples] : series)
        {
            directions += key.second == "queue_octets" ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(directions, 22u, "both directions of every link");
        NS_TEST_EXPECT_MSG_EQ(series.count({"h0->left", "queue_packets"}), 1u, "a host's NIC queue too");

        // The congested bottleneck queues, within its 40-packet limit: the switch port's queue disc
        // (40p) plus the 2-packet device ring below it (doc/transports.md, "Queues"), which the
        // series sums. The reverse direction carries only ACKs and the Read's data.
        const double limit = 40.0 + 2.0;
        double peak = 0;
        for (const auto& [t, v] : queue)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(v, limit, "never above the configured queue limit");
            peak = std::max(peak, v);
        }
        NS_TEST_EXPECT_MSG_GT(peak, 0.0, "two senders into one bottleneck queue up");
        for (const auto& [t, v] : series.at({"left->right", "queue_octets"}))
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(v, limit * 1502, "octets: at most 42 full-size packets");
        }

        const std::map<std::string, std::string> initiators = {
            {"mpa", "h0"}, {"sctp", "h1"}, {"sockets", "h2"}, {"pp", "h3"}, {"read", "h4"}};
        for (const WorkloadResult& w : out.result.workloads)
        {
            const std::string subject = w.name + "/" + initiators.at(w.name);
            NS_TEST_EXPECT_MSG_EQ(series.at({subject, "cwnd"}).empty(), false, subject << ": cwnd rows");
            NS_TEST_EXPECT_MSG_EQ(series.at({subject, "rtt"}).empty(), false, subject << ": rtt rows");
            for (const auto& [t, rtt] : series.at({subject, "rtt"}))
            {
                // Three links of 5 us each way, at least.
                NS_TEST_EXPECT_MSG_GT_OR_EQ(rtt, 30000.0, subject << ": the RTT is at least the propagation");
            }
            if (w.pingPong)
            {
                NS_TEST_EXPECT_MSG_EQ(series.count({subject, "goodput"}), 0u, "a ping-pong has no goodput");
                continue;
            }
            // The goodput series integrates to what the sink received (within one interval's worth
            // at the bottleneck's rate; the two share one definition, so it is exact).
            double octets = 0;
            for (const auto& [t, bps] : series.at({subject, "goodput"}))
            {
                octets += bps * 500e-6 / 8;
            }
            NS_TEST_EXPECT_MSG_GT(w.octetsDelivered, 0u, subject << " delivered data");
            NS_TEST_EXPECT_MSG_EQ_TOL(octets, double(w.octetsDelivered), 1e9 * 500e-6 / 8,
                                      subject << ": goodput x interval sums to the octets delivered");
            NS_TEST_EXPECT_MSG_EQ_TOL(octets, double(w.octetsDelivered), 1e-3, subject << ": exactly");
        }
        // A Read's data flows from its responder: the window sampled is that end's, which grows far
        // beyond the initial 10 segments (the requester's, carrying 28-octet Read Requests, would not).
        double readCwnd = 0;
        for (const auto& [t, v] : series.at({"read/h4", "cwnd"}))
        {
            readCwnd = std::max(readCwnd, v);
        }
        NS_TEST_EXPECT_MSG_GT(readCwnd, 20.0 * 1448, "the Read's responder's window");
    }
};

/** The last value a socket's trace gave. */
struct LastTraced
{
    double cwnd{-1};
    double rtt{-1};
};

class SocketTracesTestCase : public TestCase
{
  public:
    SocketTracesTestCase()
        : TestCase("the last cwnd and rtt samples are the sockets' own CongestionWindow and RTT (TCP), Rtt (SCTP)")
    {
    }

  private:
    void DoRun() override
    {
        // The runner's steps, with the sockets' traces followed beside the recorder's samples.
        const ScenarioConfig cfg = LoadScenarioString(kDumbbell, {}, "series.yaml");
        std::unique_ptr<BuiltTopology> topo = BuildScenarioNetwork(cfg);
        ScenarioWorkloads workloads(cfg, *topo);
        workloads.Install();
        std::unique_ptr<SeriesRecorder> series = StartScenarioSeries(cfg, *topo, workloads);
        const SeriesPlan& plan = series->Plan();
        std::map<std::size_t, LastTraced> traced; // by flow
        workloads.SetSenderSocketCallback([&](std::size_t w, const std::string& initiator, Ptr<Socket> socket) {
            for (std::size_t f = 0; f < plan.flows.size(); ++f)
            {
                if (plan.flows[f].workload != w || plan.flows[f].initiator != initiator)
                {
                    continue;
                }
                series->SetSender(f, socket);
                LastTraced* last = &traced[f];
                const bool tcp = DynamicCast<TcpSocketBase>(socket) != nullptr;
                socket->TraceConnectWithoutContext(
                    "CongestionWindow",
                    MakeBoundCallback(+[](LastTraced* l, uint32_t, uint32_t now) { l->cwnd = now; }, last));
                socket->TraceConnectWithoutContext(
                    tcp ? "RTT" : "Rtt",
                    MakeBoundCallback(+[](LastTraced* l, Time, Time now) { l->rtt = double(now.GetNanoSeconds()); },
                                      last));
            }
        });
        Simulator::Stop(cfg.stop);
        Simulator::Run();
        const fs::path folder = TempFolder("traces");
        fs::create_directories(folder);
        FinishScenarioSeries(*series, workloads, folder.string());
        fs::remove_all(folder);
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(traced.size(), plan.flows.size(), "every flow's sender was reported");
        for (const auto& s : series->GetSeries())
        {
            if (s.quantity != "cwnd" && s.quantity != "rtt")
            {
                continue;
            }
            std::size_t f = 0;
            while (plan.flows[f].subject != s.subject)
            {
                ++f;
            }
            const double traceValue = s.quantity == "cwnd" ? traced[f].cwnd : traced[f].rtt;
            NS_TEST_EXPECT_MSG_GT(traceValue, 0.0, s.subject << ": its " << s.quantity << " trace fired");
            NS_TEST_EXPECT_MSG_EQ(s.values.back(), traceValue, s.subject << ": the last " << s.quantity << " sample");
        }
    }
};

class NothingScheduledTestCase : public TestCase
{
  public:
    NothingScheduledTestCase()
        : TestCase("without tracing.series nothing is scheduled and no series.csv is written")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml = R"(
stop: 3ms
topology: {kind: two-hosts}
links: {rate: 10Gbps, delay: 2us}
workloads:
  - {name: s, kind: stream, from: h0, to: h1, size: 16KiB, count: 20}
)";
        const fs::path off = TempFolder("off");
        const fs::path on = TempFolder("on");
        const RunResult without = RunInto(LoadScenarioString(yaml, {}, "s.yaml"), off.string()).result;
        const RunResult with =
            RunInto(LoadScenarioString(yaml, {"tracing.series={interval: 250us, what: [cwnd, queue]}"}, "s.yaml"),
                    on.string())
                .result;
        NS_TEST_EXPECT_MSG_EQ(fs::exists(off / "series.csv"), false, "no series.csv without tracing.series");
        NS_TEST_EXPECT_MSG_EQ(without.seriesFile, std::string(), "nor in summary.json's files");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(on / "series.csv"), true, "series.csv with it");
        fs::remove_all(off);
        fs::remove_all(on);
        // 12 samples: 11 events before the stop, the last taken after the run. Sampling changes nothing else.
        NS_TEST_EXPECT_MSG_EQ(with.events - without.events, 11u, "one event per sample but the last");
        NS_TEST_EXPECT_MSG_EQ(with.workloads.at(0).octetsDelivered, without.workloads.at(0).octetsDelivered,
                              "the same run");
    }
};

class SeriesErrorsTestCase : public TestCase
{
  public:
    SeriesErrorsTestCase()
        : TestCase("tracing.series errors: interval, row limit, quantities, flows and links, with file:line:col")
    {
    }

  private:
    void Expect(const std::string& series, const std::string& message)
    {
        const std::string yaml = R"(
stop: 10ms
topology: {kind: dumbbell}
workloads:
  - {name: bulk, kind: stream, from: h0, to: h1, count: 2}
  - {name: pp, kind: ping-pong, from: h1, to: h0, count: 2}
  - {name: bad, kind: inject, target: bulk, from: h0, to: h1, at: 1ms, fields: {payload: 4}}
tracing:
  series: )" + series + "\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(yaml), message, series);
    }

    void DoRun() override
    {
        const std::string at = "s.yaml:9:";
        Expect("{what: [cwnd]}", "s.yaml:9:11: tracing.series.interval: missing required key 'interval'");
        Expect("{interval: 0ns}", at + "22: tracing.series.interval: the interval must be above zero");
        Expect("{interval: 11ms}",
               at + "22: tracing.series.interval: the interval 11ms is longer than the run (stop 10ms)");
        // 10 ms / 1 ns = 10^7 samples of 2 flows x 2 + 3 links x 2 directions x 2 series.
        Expect("{interval: 1ns, what: [cwnd, rtt, queue]}",
               at + "22: tracing.series.interval: the interval 1ns over the stop 10ms makes 10000000 samples of 16 "
                    "series, 160000000 rows, more than the 5000000 a series.csv may hold (doc/scenario-format.md, "
                    "Limits); lengthen the interval or choose fewer flows, links or quantities");
        Expect("{interval: 1ms, intervall: 2ms}",
               at + "27: tracing.series.intervall: unknown key 'intervall'; did you mean 'interval'?");
        Expect("{interval: 1ms, what: [cwnd, cwin]}",
               at + "40: tracing.series.what.1: unknown series quantity 'cwin' (expected one of goodput, cwnd, rtt, "
                    "queue, paths)");
        Expect("{interval: 1ms, what: [rtt, rtt]}", at + "39: tracing.series.what.1: 'rtt' is listed twice");
        Expect("{interval: 1ms, what: []}",
               at + "33: tracing.series.what: an empty list samples nothing (leave `what` out for goodput, cwnd, rtt "
                    "and queue)");
        Expect("{interval: 1ms, flows: [nope]}",
               at + "35: tracing.series.flows.0: no workload 'nope' (give a workload name or index)");
        Expect("{interval: 1ms, flows: [bulk, 0]}", at + "41: tracing.series.flows.1: workload 'bulk' is listed twice");
        Expect("{interval: 1ms, flows: [bad]}",
               at + "35: tracing.series.flows.0: workload 'bad' (inject) has no flow of its own to sample");
        Expect("{interval: 1ms, what: [goodput, queue], flows: [pp]}",
               at + "59: tracing.series.flows.0: workload 'pp' (ping-pong) has no goodput (doc/metrics.md: a round "
                    "trip at a time is no throughput); sample its cwnd or rtt");
        Expect("{interval: 1ms, what: [queue], flows: [bulk]}",
               at + "49: tracing.series.flows: flows are chosen, but `what` samples no flow quantity (goodput, cwnd, "
                    "rtt, paths)");
        Expect("{interval: 1ms, flows: []}",
               at + "34: tracing.series.flows: an empty list samples no flow (leave `flows` out to sample every flow)");
        Expect("{interval: 1ms, links: [[h0, right]]}",
               at + "35: tracing.series.links.0: h0 and right share no link (h0's neighbours: left)");
        Expect("{interval: 1ms, links: [[left, right], [right, left]]}",
               at + "50: tracing.series.links.1: the link between right and left is listed twice (both directions "
                    "are sampled)");
        Expect("{interval: 1ms, what: [cwnd], links: [[left, right]]}",
               at + "48: tracing.series.links: links are chosen, but `what` does not sample their queues (add queue)");
        Expect("{interval: 1ms, what: [goodput], flows: [bulk, pp]}",
               at + "58: tracing.series.flows.1: workload 'pp' (ping-pong) has no goodput (doc/metrics.md: a round "
                    "trip at a time is no throughput); sample its cwnd or rtt");
        // An override's error names the override.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(R"(
stop: 10ms
topology: {kind: two-hosts}
workloads: [{kind: stream, from: h0, to: h1, count: 2}]
)",
                                      {"tracing.series.interval=0ms"}),
                              "--set tracing.series.interval=0ms: tracing.series.interval: the interval must be above "
                              "zero",
                              "an override");
    }
};

class ScenarioSeriesTestSuite : public TestSuite
{
  public:
    ScenarioSeriesTestSuite()
        : TestSuite("iwarp-scenario-series", UNIT)
    {
        AddTestCase(new SeriesFileTestCase, TestCase::QUICK);
        AddTestCase(new SocketTracesTestCase, TestCase::QUICK);
        AddTestCase(new NothingScheduledTestCase, TestCase::QUICK);
        AddTestCase(new SeriesErrorsTestCase, TestCase::QUICK);
    }
};

static ScenarioSeriesTestSuite g_scenarioSeriesTestSuite;

} // namespace
} // namespace ns3
