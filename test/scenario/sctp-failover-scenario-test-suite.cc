/*
 * iwarp-sctp-failover-scenario: SCTP multihoming in a scenario (doc/failures.md, issue 29). Dual-homed hosts
 * on a two-plane leaf-spine; the primary plane's only spine link cut under an RDMA Write stream over SCTP and
 * one over MPA/TCP. With `sctp.multihoming` the association fails over to the peer's plane-1 address and its
 * application's outage ends long before MPA/TCP's, which waits for the link; summary records the change of
 * data path, its time since the failure and each path's counters; nothing is lost. Without it (RFC 5043's
 * default, one address) SCTP waits like TCP, and no association is reported. The series' `paths` show the
 * data path leave the primary and come back at the recorded times, and the HEARTBEATs counted in summary.
 */
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-sctp-failover-scenario";

/** The cut from 5 to 45 ms at 1 Gb/s; `multihoming` for SCTP. */
std::string
DualPlane(bool multihoming)
{
    return std::string("stop: 120ms\n"
                       "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, planes: 2}\n"
                       "links: {rate: 1Gbps, delay: 1us}\n"
                       "transport:\n  sctp: {multihoming: ") +
           (multihoming ? "true" : "false") +
           ", path-max-retrans: 1, hb-interval: 10ms}\n"
           "events:\n  - {at: 5ms, action: link-down, between: [leaf0, spine0]}\n"
           "  - {at: 45ms, action: link-up, between: [leaf0, spine0]}\n"
           "workloads:\n"
           "  - {name: sctp, kind: stream, op: write, llp: sctp, from: h0, to: h2, size: 16KiB, outstanding: 4, "
           "duration: 100ms}\n"
           "  - {name: tcp, kind: stream, op: write, from: h1, to: h3, size: 16KiB, outstanding: 4, "
           "duration: 100ms}\n";
}

class FailoverInScenarioTestCase : public TestCase
{
  public:
    FailoverInScenarioTestCase()
        : TestCase("multihomed SCTP fails over to the second plane and back, its outage shorter than MPA over TCP's; "
                   "single-homed it waits like TCP")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult on = RunYamlInTemp(DualPlane(true), kSuite, "multihomed");
        const RunResult off = RunYamlInTemp(DualPlane(false), kSuite, "single-homed");
        const WorkloadResult& sctp = on.workloads.at(0);
        const WorkloadResult& tcp = on.workloads.at(1);
        NS_TEST_ASSERT_MSG_EQ(sctp.llp, "sctp", "workload order");
        // Both ends are followed; the sender's end is the one that changes paths.
        NS_TEST_ASSERT_MSG_EQ(sctp.sctpAssociations.size(), 2u, "the association, seen from both ends");
        const SctpAssociationRecord* sender = nullptr;
        for (const SctpAssociationRecord& a : sctp.sctpAssociations)
        {
            NS_TEST_EXPECT_MSG_EQ(a.paths.size(), 2u, "two paths at " << a.node);
            sender = a.node == "h0" ? &a : sender;
        }
        NS_TEST_ASSERT_MSG_NE(sender, nullptr, "h0's end");
        if (sender == nullptr || sender->failovers.size() != 2)
        {
            NS_TEST_EXPECT_MSG_EQ((sender ? sender->failovers.size() : 0), 2u, "failover and back");
            return;
        }
        const SctpFailoverRecord& away = sender->failovers[0];
        const SctpFailoverRecord& back = sender->failovers[1];
        NS_TEST_EXPECT_MSG_EQ((!away.toPrimary && back.toPrimary), true, "away, then back to the primary");
        NS_TEST_EXPECT_MSG_EQ((away.sinceFailure.has_value() && *away.sinceFailure < MilliSeconds(20)), true,
                              "failed over within two timeouts");
        NS_TEST_EXPECT_MSG_GT(back.at, MilliSeconds(45), "back only once the link is");
        NS_TEST_EXPECT_MSG_EQ(sender->paths[0].primary, true, "path 0 is the primary");
        NS_TEST_EXPECT_MSG_GT(sender->paths[0].counters.timeouts, 1u, "the primary's timeouts");
        NS_TEST_EXPECT_MSG_GT(sender->paths[1].counters.dataChunks, 100u, "the second plane carried the data");
        NS_TEST_EXPECT_MSG_GT(sender->paths[1].counters.retransmissions, 0u, "and the retransmissions");
        const std::optional<Time> sctpOutage = sctp.outages.at(0).longest;
        const std::optional<Time> tcpOutage = tcp.outages.at(0).longest;
        NS_TEST_ASSERT_MSG_EQ((sctpOutage.has_value() && tcpOutage.has_value()), true, "both saw the cut");
        NS_TEST_EXPECT_MSG_LT(*sctpOutage, MilliSeconds(20), "SCTP: an outage of a few RTOs");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(*tcpOutage, MilliSeconds(40), "MPA/TCP: until the link is back");
        NS_TEST_EXPECT_MSG_EQ(sctp.messagesDelivered, sctp.messagesPosted, "nothing lost across it");
        NS_TEST_EXPECT_MSG_EQ(sctp.connections.lost, 0u, "the association survives");

        const WorkloadResult& single = off.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(single.sctpAssociations.size(), 0u, "single-homed: nothing to report");
        const std::optional<Time> singleOutage = single.outages.at(0).longest;
        NS_TEST_EXPECT_MSG_EQ((singleOutage.has_value() && *singleOutage >= MilliSeconds(40)), true,
                              "single-homed SCTP waits for the link too");
    }
};

class PathsSeriesTestCase : public TestCase
{
  public:
    PathsSeriesTestCase()
        : TestCase("the series' data_path leaves the primary and comes back at the changes summary records; its "
                   "heartbeats end at the count summary gives; a TCP flow has neither")
    {
    }

  private:
    void DoRun() override
    {
        const std::string folder =
            (std::filesystem::temp_directory_path() / ("iwarp-sctp-paths-series-" + std::to_string(::getpid())))
                .string();
        const RunResult r =
            RunInto(LoadScenarioString(DualPlane(true) + "tracing:\n  series: {interval: 1ms, what: [paths]}\n", {},
                                       "paths.yaml"),
                    folder)
                .result;
        // subject,quantity -> (time ns -> value)
        std::map<std::string, std::map<int64_t, double>> series;
        std::ifstream in(folder + "/series.csv");
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line))
        {
            const std::size_t a = line.find(',');
            const std::size_t b = line.find(',', a + 1);
            const std::size_t c = line.find(',', b + 1);
            series[line.substr(a + 1, c - a - 1)][std::stoll(line.substr(0, a))] = std::stod(line.substr(c + 1));
        }
        std::filesystem::remove_all(folder);
        NS_TEST_EXPECT_MSG_EQ(series.count("tcp/h1,data_path") + series.count("tcp/h1,heartbeats"), 0u,
                              "a TCP sender has no paths to show");
        const WorkloadResult& sctp = r.workloads.at(0);
        const SctpAssociationRecord* sender = nullptr;
        for (const SctpAssociationRecord& a : sctp.sctpAssociations)
        {
            sender = a.node == "h0" ? &a : sender;
        }
        NS_TEST_ASSERT_MSG_EQ((sender != nullptr && sender->failovers.size() == 2), true, "away and back");
        const std::map<int64_t, double>& path = series["sctp/h0,data_path"];
        NS_TEST_ASSERT_MSG_EQ(path.size(), 120u, "a sample every ms");
        for (const auto& [at, value] : path)
        {
            const bool away = at >= sender->failovers[0].at.GetNanoSeconds() && at < sender->failovers[1].at.GetNanoSeconds();
            NS_TEST_EXPECT_MSG_EQ(value, away ? 1.0 : 0.0, "data path at " << at << " ns");
        }
        uint64_t heartbeats = 0;
        for (const SctpPathRecord& p : sender->paths)
        {
            heartbeats += p.counters.heartbeats;
        }
        const std::map<int64_t, double>& sent = series["sctp/h0,heartbeats"];
        NS_TEST_ASSERT_MSG_EQ(sent.empty(), false, "heartbeats sampled");
        NS_TEST_EXPECT_MSG_EQ(sent.rbegin()->second, double(heartbeats), "the last sample is summary's count");
        NS_TEST_EXPECT_MSG_GT(heartbeats, 1u, "more than the first probe: the dead primary was probed");
        double previous = 0;
        for (const auto& [at, value] : sent)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(value, previous, "a count never falls");
            previous = value;
        }
    }
};

class SctpFailoverScenarioTestSuite : public TestSuite
{
  public:
    SctpFailoverScenarioTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new FailoverInScenarioTestCase, TestCase::QUICK);
        AddTestCase(new PathsSeriesTestCase, TestCase::QUICK);
    }
};

SctpFailoverScenarioTestSuite g_sctpFailoverScenarioTestSuite;

} // namespace
} // namespace ns3
