/*
 * iwarp-sctp-failover-scenario: SCTP multihoming in a scenario (doc/failures.md, issue 29). Dual-homed hosts
 * on a two-plane leaf-spine; the primary plane's only spine link cut under an RDMA Write stream over SCTP and
 * one over MPA/TCP. With `sctp.multihoming` the association fails over to the peer's plane-1 address and its
 * application's outage ends long before MPA/TCP's, which waits for the link; summary records the change of
 * data path, its time since the failure and each path's counters; nothing is lost. Without it (RFC 5043's
 * default, one address) SCTP waits like TCP, and no association is reported.
 */
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

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

class SctpFailoverScenarioTestSuite : public TestSuite
{
  public:
    SctpFailoverScenarioTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new FailoverInScenarioTestCase, TestCase::QUICK);
    }
};

SctpFailoverScenarioTestSuite g_sctpFailoverScenarioTestSuite;

} // namespace
} // namespace ns3
