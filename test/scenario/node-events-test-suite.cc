/*
 * iwarp-node-events: `node-down` and `node-up` events (doc/failures.md, issue 29): every link of the node goes
 * down both ways and comes back; with static routes a flow through a failed spine waits for it, with routes
 * recomputed after `reroute-after` it goes round through the other spine; a link-down and a node-down that
 * hold one link keep it down until both have come up; the records name the node and count its losses; bad
 * node events are refused at load.
 */
#include "helper/scenario/scenario-runner.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-node-events";

/** Two leaves, two spines, h0 -> h1 streaming across a spine; `spine` down 5 to 15 ms; `reroute` in topology. */
std::string
SpineFailure(const std::string& spine, const std::string& reroute)
{
    return "stop: 40ms\ntopology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 1, ecmp: true" +
           reroute + "}\nlinks: {rate: 10Gbps, delay: 1us}\nevents:\n  - {at: 5ms, action: node-down, node: " +
           spine + "}\n  - {at: 15ms, action: node-up, node: " + spine +
           "}\nworkloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 64KiB, outstanding: 4, "
           "duration: 30ms}\n";
}

class SpineFailureTestCase : public TestCase
{
  public:
    SpineFailureTestCase()
        : TestCase("a failed spine: static routes wait for it, recomputed ones go round; the node-down names the "
                   "node and counts what its links lost")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t crossed = 0;
        for (const char* spine : {"spine0", "spine1"})
        {
            const RunResult fixed = RunYamlInTemp(SpineFailure(spine, ""), kSuite, std::string("static-") + spine);
            const RunResult moved =
                RunYamlInTemp(SpineFailure(spine, ", reroute-after: 1ms"), kSuite, std::string("moved-") + spine);
            NS_TEST_ASSERT_MSG_EQ(fixed.linkEvents.size(), 2u, "both events recorded");
            const EventRecord& down = fixed.linkEvents[0];
            NS_TEST_EXPECT_MSG_EQ(down.action, "node-down", "action");
            NS_TEST_EXPECT_MSG_EQ(down.node, spine, "the node named");
            NS_TEST_EXPECT_MSG_EQ((down.a.empty() && down.b.empty()), true, "no `between`");
            uint64_t linkDown = 0;
            for (const LinkDrops& d : fixed.drops)
            {
                linkDown += d.linkDown;
            }
            NS_TEST_EXPECT_MSG_EQ(linkDown, down.dropped, "every loss on the spine's links is the node-down's");
            const std::optional<Time> stuck = fixed.workloads.at(0).outages.at(0).longest;
            const std::optional<Time> back = moved.workloads.at(0).outages.at(0).longest;
            NS_TEST_ASSERT_MSG_EQ((stuck.has_value() && back.has_value()), true, "the flow was active in both");
            if (*stuck < MilliSeconds(1))
            {
                NS_TEST_EXPECT_MSG_EQ(down.dropped, 0u, "the flow did not cross this spine: nothing lost");
                continue;
            }
            ++crossed;
            NS_TEST_EXPECT_MSG_GT(down.dropped, 0u, "the spine's links lost packets");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*stuck, MilliSeconds(10), "static routes: until the spine returns");
            NS_TEST_EXPECT_MSG_LT(*back, MilliSeconds(10), "rerouted: resumed while the spine was still down");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*back, MilliSeconds(1), "but not before the routes changed");
        }
        NS_TEST_EXPECT_MSG_EQ(crossed, 1u, "the flow crossed one of the two spines");
    }
};

class OverlapTestCase : public TestCase
{
  public:
    OverlapTestCase()
        : TestCase("a link held down by a node-down and a link-down carries again only when both have come up")
    {
    }

  private:
    void DoRun() override
    {
        // h1 down 5-10 ms; its link to h0 down 7-14 ms on its own: nothing arrives from 5 to 14 ms.
        const RunResult r = RunYamlInTemp(
            "stop: 40ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 1us}\nevents:\n"
            "  - {at: 5ms, action: node-down, node: h1}\n"
            "  - {at: 7ms, action: link-down, between: [h0, h1]}\n"
            "  - {at: 10ms, action: node-up, node: h1}\n"
            "  - {at: 14ms, action: link-up, between: [h0, h1]}\n"
            "workloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 16KiB, outstanding: 4, "
            "duration: 30ms}\n",
            kSuite, "overlap");
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(r, MilliSeconds(4), MilliSeconds(5)), 0u, "carrying before");
        NS_TEST_EXPECT_MSG_EQ(DeliveredBetween(r, MilliSeconds(5) + MicroSeconds(20), MilliSeconds(14)), 0u,
                              "nothing while either holds the link");
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(r, MilliSeconds(14), MilliSeconds(40)), 0u, "carrying after both");
        NS_TEST_ASSERT_MSG_EQ(r.linkEvents.size(), 4u, "four events");
        NS_TEST_EXPECT_MSG_GT(r.linkEvents[0].dropped, 0u, "the node-down took the losses while it held the link");
        NS_TEST_EXPECT_MSG_EQ(r.workloads.at(0).outages.size(), 2u, "an outage per failure");
    }
};

class RefusedTestCase : public TestCase
{
  public:
    RefusedTestCase()
        : TestCase("node events refused at load: an unknown node, `between` or `direction` on one, `node` on a link "
                   "event, a node down twice or up without a down")
    {
    }

  private:
    void DoRun() override
    {
        auto error = [](const std::string& events) {
            return ErrorOf("stop: 30ms\ntopology: {kind: two-hosts}\nevents:\n" + events +
                           "workloads:\n  - {kind: stream, from: h0, to: h1, count: 1}\n");
        };
        const std::pair<const char*, const char*> cases[] = {
            {"  - {at: 5ms, action: node-down, node: h7}\n", "h7"},
            {"  - {at: 5ms, action: node-down}\n", "node"},
            {"  - {at: 5ms, action: node-down, node: h1, between: [h0, h1]}\n", "`between` is for link events"},
            {"  - {at: 5ms, action: link-down, between: [h0, h1], node: h1}\n", "`node` is for node events"},
            {"  - {at: 5ms, action: node-down, node: h1, direction: forward}\n", "every link of the node"},
            {"  - {at: 5ms, action: node-down, node: h1}\n  - {at: 6ms, action: node-down, node: h1}\n",
             "node h1 is already down"},
            {"  - {at: 5ms, action: node-up, node: h1}\n", "node h1 is not down (no node-down before it)"},
        };
        for (const auto& [events, part] : cases)
        {
            const std::string e = error(events);
            NS_TEST_EXPECT_MSG_NE(e.find(part), std::string::npos, events << " gave: " << (e.empty() ? "no error" : e));
        }
        NS_TEST_EXPECT_MSG_EQ(error("  - {at: 5ms, action: node-down, node: h1}\n"
                                    "  - {at: 6ms, action: link-down, between: [h0, h1]}\n"
                                    "  - {at: 7ms, action: node-up, node: h1}\n"
                                    "  - {at: 8ms, action: link-up, between: [h0, h1]}\n"),
                              "", "a node-down and a link-down over one link are held apart");
    }
};

class NodeEventsTestSuite : public TestSuite
{
  public:
    NodeEventsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new SpineFailureTestCase, TestCase::QUICK);
        AddTestCase(new OverlapTestCase, TestCase::QUICK);
        AddTestCase(new RefusedTestCase, TestCase::QUICK);
    }
};

NodeEventsTestSuite g_nodeEventsTestSuite;

} // namespace
} // namespace ns3
