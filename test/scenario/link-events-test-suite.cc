/*
 * iwarp-link-events: a scenario's `events` (doc/failures.md, issue 29). A LinkGate loses exactly what
 * reaches it while down and hands the rest to the link's own loss model; a link down from one time to
 * another carries nothing to its far end then and carries again after, in one direction or both; routes
 * recomputed around a dead link (BuiltTopology::Reroute) shrink an equal-cost group and grow it back, and
 * `topology.reroute-after` shortens the outage a workload sees against static routes; a file whose events
 * name no link, fall after the stop or bring up a link that is up is refused at load.
 */
#include "helper/scenario/scenario-runner.h"
#include "helper/scenario/workload-metrics.h"
#include "helper/topology/topology-builder.h"
#include "net/link-gate.h"

#include "support/scenario-run-util.h"
#include "topology/topology-builder-test-util.h"

#include "ns3/error-model.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-link-events";

class GateTestCase : public TestCase
{
  public:
    GateTestCase()
        : TestCase("a LinkGate loses every packet while down, and hands the rest to the model it wraps")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LinkGate> gate = CreateObject<LinkGate>();
        Ptr<Packet> p = Create<Packet>(100);
        NS_TEST_EXPECT_MSG_EQ(gate->IsCorrupt(p), false, "up, nothing wrapped: passes");
        gate->SetDown(true);
        NS_TEST_EXPECT_MSG_EQ((gate->IsCorrupt(p) && gate->IsCorrupt(p)), true, "down: lost");
        NS_TEST_EXPECT_MSG_EQ(gate->GetDropped(), 2u, "each counted");
        Ptr<RateErrorModel> lossy = CreateObject<RateErrorModel>();
        lossy->SetRate(1.0);
        lossy->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        gate->SetInner(lossy);
        gate->SetDown(false);
        NS_TEST_EXPECT_MSG_EQ(gate->IsCorrupt(p), true, "up: the wrapped model decides (it loses all)");
        NS_TEST_EXPECT_MSG_EQ(gate->GetDropped(), 2u, "not the gate's loss");
    }
};

/** A 10 Gb/s RDMA Write stream h0 -> h1 over two hosts, with `events` added. */
std::string
TwoHostStream(const std::string& events)
{
    return "stop: 30ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 1us}\nevents:\n" + events +
           "workloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 16KiB, outstanding: 4, "
           "duration: 20ms}\n";
}

class DownUpTestCase : public TestCase
{
  public:
    DownUpTestCase()
        : TestCase("a link down from 5 to 10 ms delivers nothing then, loses what reached it, and carries again "
                   "after; one way down leaves the other carrying")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(TwoHostStream("  - {at: 5ms, action: link-down, between: [h0, h1]}\n"
                                                        "  - {at: 10ms, action: link-up, between: [h0, h1]}\n"),
                                          kSuite, "down-up");
        // A message in its last microseconds of flight at 5 ms may still land (one-way delay and a frame).
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(r, MilliSeconds(4), MilliSeconds(5)), 0u, "carrying before");
        NS_TEST_EXPECT_MSG_EQ(DeliveredBetween(r, MilliSeconds(5) + MicroSeconds(20), MilliSeconds(10)), 0u,
                              "nothing delivered while down");
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(r, MilliSeconds(10), MilliSeconds(20)), 0u, "carrying after");
        NS_TEST_ASSERT_MSG_EQ(r.linkEvents.size(), 2u, "both events recorded");
        NS_TEST_EXPECT_MSG_GT(r.linkEvents[0].dropped, 0u, "the link-down lost packets");
        NS_TEST_EXPECT_MSG_EQ(r.linkEvents[1].dropped, 0u, "a link-up loses none");
        uint64_t linkDown = 0;
        uint64_t impairment = 0;
        for (const LinkDrops& d : r.drops)
        {
            linkDown += d.linkDown;
            impairment += d.impairment;
        }
        NS_TEST_EXPECT_MSG_EQ(linkDown, r.linkEvents[0].dropped, "drops say why: link down");
        NS_TEST_EXPECT_MSG_EQ(impairment, 0u, "and not loss");
        const WorkloadResult& w = NamedWorkload(r, "w");
        NS_TEST_ASSERT_MSG_EQ(w.outages.size(), 1u, "one outage, for the one link-down");
        NS_TEST_EXPECT_MSG_EQ(w.outages[0].at, MilliSeconds(5), "taken from the event");
        NS_TEST_EXPECT_MSG_EQ(w.outages[0].flows, 1u, "the stream's one flow was active");
        NS_TEST_ASSERT_MSG_EQ(w.outages[0].longest.has_value(), true, "an outage");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(*w.outages[0].longest, MilliSeconds(5), "at least until the link came back");
        NS_TEST_EXPECT_MSG_EQ(w.outages[0].recovered, true, "and it ended");

        // The data way down: nothing arrives. The acknowledgement way down: data still arrives for a while.
        const RunResult data = RunYamlInTemp(
            TwoHostStream("  - {at: 5ms, action: link-down, between: [h0, h1], direction: forward}\n"), kSuite, "fwd");
        const RunResult acks = RunYamlInTemp(
            TwoHostStream("  - {at: 5ms, action: link-down, between: [h1, h0], direction: forward}\n"), kSuite, "rev");
        NS_TEST_EXPECT_MSG_EQ(DeliveredBetween(data, MilliSeconds(5) + MicroSeconds(20), MilliSeconds(30)), 0u,
                              "the data way down: nothing delivered");
        NS_TEST_EXPECT_MSG_GT(DeliveredBetween(acks, MilliSeconds(5) + MicroSeconds(20), MilliSeconds(30)), 0u,
                              "the other way down: what was in flight still arrives");
        NS_TEST_EXPECT_MSG_GT(acks.linkEvents[0].dropped, 0u, "and the acknowledgements are lost");
    }
};

class RerouteTestCase : public TestCase
{
  public:
    RerouteTestCase()
        : TestCase("routes recomputed around a dead link: the equal-cost group shrinks, a cut-off host has no "
                   "route, and all grows back when the link returns")
    {
    }

  private:
    void DoRun() override
    {
        BuiltTopology t = topotest::BuildKind(TopologyKind::LeafSpine, [](TopologySpec& s) {
            s.leaves = 2;
            s.spines = 2;
            s.hostsPerLeaf = 1;
            s.ecmp = true;
        });
        Ptr<Ipv4EcmpRouting> leaf0 = t.HostRoutes("leaf0");
        const Ipv4Address h1 = t.GetHostAddress("h1");
        NS_TEST_ASSERT_MSG_EQ(bool(leaf0), true, "hashed routes");
        NS_TEST_EXPECT_MSG_EQ(leaf0->GetNextHops(h1)->size(), 2u, "two spines: two hops");
        std::vector<bool> down(t.LinkCount(), false);
        down.at(t.FindLinks("leaf0", "spine0").at(0)) = true;
        t.Reroute(down);
        NS_TEST_ASSERT_MSG_EQ((leaf0->GetNextHops(h1) != nullptr), true, "still a route");
        NS_TEST_EXPECT_MSG_EQ(leaf0->GetNextHops(h1)->size(), 1u, "one spine left");
        down.at(t.FindLinks("leaf1", "h1").at(0)) = true;
        t.Reroute(down);
        NS_TEST_EXPECT_MSG_EQ((leaf0->GetNextHops(h1) == nullptr), true, "h1 cut off: no route");
        t.Reroute(std::vector<bool>(t.LinkCount(), false));
        NS_TEST_ASSERT_MSG_EQ((leaf0->GetNextHops(h1) != nullptr), true, "back");
        NS_TEST_EXPECT_MSG_EQ(leaf0->GetNextHops(h1)->size(), 2u, "both spines again");
        Simulator::Destroy();
    }
};

/** h0 -> h1 across a 2x2 leaf-spine with ECMP, the flow's spine link down at 5 ms and up at 15 ms. */
std::string
LeafSpineOutage(const std::string& reroute)
{
    return "stop: 40ms\ntopology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 1, ecmp: true" + reroute +
           "}\nlinks: {rate: 10Gbps, delay: 1us}\nevents:\n"
           "  - {at: 5ms, action: link-down, between: [leaf0, spine0]}\n"
           "  - {at: 5ms, action: link-down, between: [leaf0, spine1]}\n"
           "  - {at: 15ms, action: link-up, between: [leaf0, spine0]}\n"
           "  - {at: 15ms, action: link-up, between: [leaf0, spine1]}\n"
           "workloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: 64KiB, outstanding: 4, "
           "duration: 30ms}\n";
}

class RerouteOutageTestCase : public TestCase
{
  public:
    RerouteOutageTestCase()
        : TestCase("reroute-after: routes follow each event after the delay, and a flow rerouted around one dead "
                   "link resumes long before the link returns")
    {
    }

  private:
    void DoRun() override
    {
        // Both of leaf0's spine links down: no way around, the flow waits for the link whatever the routing.
        const RunResult cut = RunYamlInTemp(LeafSpineOutage(", reroute-after: 1ms"), kSuite, "cut");
        for (const EventRecord& e : cut.linkEvents)
        {
            NS_TEST_EXPECT_MSG_EQ((e.reroutedAt.has_value() && *e.reroutedAt == e.at + MilliSeconds(1)), true,
                                  "routes recomputed 1 ms after each event");
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(NamedWorkload(cut, "w").outages.at(0).longest.value_or(Time(0)), MilliSeconds(10),
                                    "no path: the outage lasts until the links return");
        // One of them only, 5 to 15 ms (whichever the flow hashed to, both tried): rerouting finds the other.
        uint32_t crossed = 0;
        for (const char* spine : {"spine0", "spine1"})
        {
            const std::string one = std::string("stop: 60ms\ntopology: {kind: leaf-spine, leaves: 2, spines: 2, "
                                                "hosts-per-leaf: 1, ecmp: true%s}\nlinks: {rate: 10Gbps, delay: 1us}\n"
                                                "events:\n  - {at: 5ms, action: link-down, between: [leaf0, ") +
                                    spine + "]}\n  - {at: 15ms, action: link-up, between: [leaf0, " + spine +
                                    "]}\nworkloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, "
                                    "size: 64KiB, outstanding: 4, duration: 30ms}\n";
            const auto yaml = [&one](const std::string& reroute) {
                std::string s = one;
                s.replace(s.find("%s"), 2, reroute);
                return s;
            };
            const RunResult fixed = RunYamlInTemp(yaml(""), kSuite, std::string("static-") + spine);
            const RunResult moved = RunYamlInTemp(yaml(", reroute-after: 1ms"), kSuite, std::string("moved-") + spine);
            const std::optional<Time> stuck = NamedWorkload(fixed, "w").outages.at(0).longest;
            const std::optional<Time> back = NamedWorkload(moved, "w").outages.at(0).longest;
            NS_TEST_ASSERT_MSG_EQ((stuck.has_value() && back.has_value()), true, "the flow was active in both");
            if (*stuck < MilliSeconds(1))
            {
                continue; // the flow did not cross this spine
            }
            ++crossed;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*stuck, MilliSeconds(10), "static routes: until the link returns");
            NS_TEST_EXPECT_MSG_LT(*back, MilliSeconds(10), "rerouted: resumed while the link was still down");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*back, MilliSeconds(1), "but not before the routes changed");
        }
        NS_TEST_EXPECT_MSG_EQ(crossed, 1u, "the flow crossed one of the two spines");
    }
};

class LossAndDownTestCase : public TestCase
{
  public:
    LossAndDownTestCase()
        : TestCase("on a lossy link that goes down, losses while up are the loss model's and while down the "
                   "link's, each counted once")
    {
    }

  private:
    void DoRun() override
    {
        std::string yaml = TwoHostStream("  - {at: 5ms, action: link-down, between: [h0, h1]}\n"
                                         "  - {at: 10ms, action: link-up, between: [h0, h1]}\n");
        yaml.replace(yaml.find("delay: 1us}"), 11, "delay: 1us, loss: 0.01}");
        const RunResult r = RunYamlInTemp(yaml, kSuite, "lossy");
        uint64_t linkDown = 0;
        uint64_t impairment = 0;
        for (const LinkDrops& d : r.drops)
        {
            linkDown += d.linkDown;
            impairment += d.impairment;
        }
        NS_TEST_EXPECT_MSG_GT(impairment, 0u, "the loss model lost packets while up");
        NS_TEST_EXPECT_MSG_EQ(linkDown, r.linkEvents.at(0).dropped, "the gate's losses are the link-down's");
        NS_TEST_EXPECT_MSG_GT(linkDown, 0u, "and there were some");
        NS_TEST_EXPECT_MSG_EQ(NamedWorkload(r, "w").completed || NamedWorkload(r, "w").messagesDelivered > 0, true,
                              "the stream goes on");
    }
};

MessageRecord
Message(const std::string& sender, Time post, std::optional<Time> delivered)
{
    MessageRecord m;
    m.workload = "w";
    m.op = "write";
    m.size = 1000;
    m.sender = sender;
    m.post = post;
    m.delivered = delivered;
    return m;
}

class OutageRuleTestCase : public TestCase
{
  public:
    OutageRuleTestCase()
        : TestCase("an outage is the longest wait for a delivery from the failure, of the flows active at it; a "
                   "delivery just after the cut does not end it, idle flows do not count, an open one is not over")
    {
    }

  private:
    void DoRun() override
    {
        const auto ms = [](double x) { return NanoSeconds(int64_t(x * 1e6)); };
        std::vector<MessageRecord> m{
            // a: delivers at 1, 2; a message in flight lands 5 us after the cut at 3 ms; the next at 10 ms
            Message("a", ms(0.5), ms(1)), Message("a", ms(1.5), ms(2)), Message("a", ms(2.5), ms(3.005)),
            Message("a", ms(2.6), ms(10)),
            // b: idle at the cut (all delivered before), then starts again later: not counted
            Message("b", ms(0.1), ms(0.2)), Message("b", ms(5), ms(5.1))};
        std::vector<Outage> o = Outages(m, {ms(3)}, ms(20));
        NS_TEST_ASSERT_MSG_EQ(o.size(), 1u, "one failure");
        NS_TEST_EXPECT_MSG_EQ(o[0].flows, 1u, "only a was active");
        NS_TEST_EXPECT_MSG_EQ(o[0].longest.value_or(Time(0)), ms(10) - ms(3.005), "from the stray delivery to 10 ms");
        NS_TEST_EXPECT_MSG_EQ(o[0].recovered, true, "over");
        // c never delivers again: its wait runs to the end and is not over.
        m.push_back(Message("c", ms(2), std::nullopt));
        o = Outages(m, {ms(3)}, ms(20));
        NS_TEST_EXPECT_MSG_EQ(o[0].flows, 2u, "a and c");
        NS_TEST_EXPECT_MSG_EQ(o[0].longest.value_or(Time(0)), ms(17), "c waited from the cut to the end");
        NS_TEST_EXPECT_MSG_EQ(o[0].recovered, false, "not over");
        // A second failure closes the first one's window.
        o = Outages(m, {ms(3), ms(4)}, ms(20));
        NS_TEST_EXPECT_MSG_EQ(o[0].longest.value_or(Time(0)), ms(1), "up to the next failure");
        o = Outages(m, {ms(3), ms(3)}, ms(20));
        NS_TEST_EXPECT_MSG_EQ(o[0].longest.value_or(Time(0)), ms(17), "two at one instant share the window");
        NS_TEST_EXPECT_MSG_EQ(Outages(m, {ms(0.05)}, ms(20))[0].longest.has_value(), false,
                              "nothing outstanding at 0.05 ms: no outage");
    }
};

class RefusedTestCase : public TestCase
{
  public:
    RefusedTestCase()
        : TestCase("events naming no link, at or after the stop, bringing up a link that is up or downing one "
                   "that is down are refused at load")
    {
    }

  private:
    void DoRun() override
    {
        auto error = [](const std::string& events) { return ErrorOf(TwoHostStream(events)); };
        auto has = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-down, between: [h0, h0]}\n"), "twice"), true,
                              "a node with itself");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-down, between: [h0, h7]}\n"), "unknown node"),
                              true, "no such node");
        const std::string spread = LeafSpineOutage("");
        NS_TEST_EXPECT_MSG_EQ(has(ErrorOf(spread.substr(0, spread.find("events:")) +
                                          "events:\n  - {at: 5ms, action: link-down, between: [h0, spine0]}\n" +
                                          spread.substr(spread.find("workloads:"))),
                                  "share no link"),
                              true, "no link between them");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 30ms, action: link-down, between: [h0, h1]}\n"), "stop time"), true,
                              "at the stop");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-up, between: [h0, h1]}\n"), "is not down"), true,
                              "up without down");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-down, between: [h0, h1]}\n"
                                        "  - {at: 6ms, action: link-down, between: [h1, h0], direction: forward}\n"),
                                  "already down"),
                              true, "down twice");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-down, between: [h0, h1], direction: forward}\n"
                                        "  - {at: 6ms, action: link-up, between: [h0, h1]}\n"),
                                  "h1 -> h0 is not down"),
                              true, "both up after one way down");
        NS_TEST_EXPECT_MSG_EQ(has(error("  - {at: 5ms, action: link-cut, between: [h0, h1]}\n"), "link-down"), true,
                              "unknown action: the allowed ones listed");
        // The same events in another file order, time order right: accepted.
        NS_TEST_EXPECT_MSG_EQ(error("  - {at: 6ms, action: link-up, between: [h0, h1]}\n"
                                    "  - {at: 5ms, action: link-down, between: [h0, h1]}\n"),
                              "", "events are taken in time order");
    }
};

class LinkEventsTestSuite : public TestSuite
{
  public:
    LinkEventsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new GateTestCase, TestCase::QUICK);
        AddTestCase(new DownUpTestCase, TestCase::QUICK);
        AddTestCase(new RerouteTestCase, TestCase::QUICK);
        AddTestCase(new RerouteOutageTestCase, TestCase::QUICK);
        AddTestCase(new LossAndDownTestCase, TestCase::QUICK);
        AddTestCase(new OutageRuleTestCase, TestCase::QUICK);
        AddTestCase(new RefusedTestCase, TestCase::QUICK);
    }
};

LinkEventsTestSuite g_linkEventsTestSuite;

} // namespace
} // namespace ns3
