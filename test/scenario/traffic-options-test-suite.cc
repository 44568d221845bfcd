/*
 * iwarp-traffic-options: the traffic kinds' options beyond all-to-all (doc/traffic.md, issue 28), run end to
 * end: many-to-one sends the incast fraction of the other hosts' flows to the target; explicit pairs carry
 * flows only between the pairs listed, over their connections alone, the load counted over the hosts that
 * send; a closed loop keeps each host's flows in flight at `outstanding`, drawing what the Poisson load of the
 * same seed draws; a connection per flow carries each flow alone, its times its own; each option is refused
 * where it does not apply and required where it does.
 */
#include "support/scenario-run-util.h"
#include "support/traffic-records.h"

#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-traffic-options";

/** Six hosts on two leaves, 10 Gb/s; `workload` is the load's keys after its kind. */
std::string
Scenario(const std::string& kind, const std::string& workload)
{
    return "stop: 100ms\n"
           "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 3}\n"
           "links: {rate: 10Gbps, delay: 1us}\n"
           "workloads:\n"
           "  - {name: load, kind: " +
           kind + ", " + workload + "}\n";
}

class ManyToOneTestCase : public TestCase
{
  public:
    explicit ManyToOneTestCase(std::string kind)
        : TestCase(kind + ", many-to-one with incast fraction 1: every other host's flow to the target, the "
                          "target's to the others"),
          m_kind(std::move(kind))
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(Scenario(m_kind, "pattern: many-to-one, target: h4, incast-fraction: 1, "
                                                           "load: 0.05, flow-sizes: hadoop, count: 300"),
                                          kSuite, "m2o-" + m_kind);
        const WorkloadResult& w = r.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 300u, "every flow delivered");
        std::set<std::string> fromTarget;
        for (const MessageRecord& m : r.messages)
        {
            if (m.sender == "h4")
            {
                fromTarget.insert(m.receiver);
                NS_TEST_EXPECT_MSG_NE(m.receiver, "h4", "the target's flows go to the others");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(m.receiver, "h4", "flow " << m.id << " from " << m.sender);
            }
        }
        NS_TEST_EXPECT_MSG_GT(fromTarget.size(), 2u, "the target's flows spread over the others");
        NS_TEST_ASSERT_MSG_EQ(w.traffic.has_value(), true, "its operating point");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->pattern, "many-to-one", "pattern");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->target, "h4", "target");
        NS_TEST_EXPECT_MSG_EQ(*w.traffic->incastFraction, 1.0, "incast fraction");
    }

    std::string m_kind;
};

class PairsTestCase : public TestCase
{
  public:
    PairsTestCase()
        : TestCase("pairs: flows only between the pairs listed, one connection each, the load over the senders")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(Scenario("traffic", "pattern: pairs, pairs: [h0>h3, h0>h4, \"h5 > h1\"], "
                                                              "load: 0.2, flow-sizes: hadoop, count: 200"),
                                          kSuite, "pairs");
        const WorkloadResult& w = r.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 200u, "every flow delivered");
        std::map<std::string, uint64_t> byPair;
        double octets = 0;
        Time lastStart(0);
        for (const MessageRecord& m : r.messages)
        {
            ++byPair[m.sender + ">" + m.receiver];
            octets += double(m.size);
            lastStart = std::max(lastStart, m.post);
        }
        NS_TEST_EXPECT_MSG_EQ(byPair.size(), 3u, "the three pairs, no other");
        NS_TEST_EXPECT_MSG_EQ((byPair.count("h0>h3") && byPair.count("h0>h4") && byPair.count("h5>h1")), true,
                              "each listed pair");
        // h0 splits its flows between two receivers, h5 sends all of its own to h1, at the same rate.
        NS_TEST_EXPECT_MSG_GT(byPair["h5>h1"], byPair["h0>h3"], "h5's one pair gets all of its flows");
        NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, 3u, "a connection per pair");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->pairs, 3u, "pairs in the operating point");
        // Two hosts send (h0, h5): the offered load is over their two links only.
        const double offered = octets * 8 / (lastStart.GetSeconds() * 2 * 10e9);
        NS_TEST_EXPECT_MSG_EQ_TOL(*w.traffic->offeredLoad, offered, 1e-9 * offered, "over the sending hosts");
        NS_TEST_EXPECT_MSG_EQ(w.dataFlows.size(), 3u, "the pairs are the load's data flows");
    }
};

class ClosedLoopTestCase : public TestCase
{
  public:
    explicit ClosedLoopTestCase(std::string kind)
        : TestCase(kind + ", closed loop of 3: each host keeps 3 flows in flight, the next posted as one is "
                          "delivered; the Poisson load's sizes and receivers in the same order"),
          m_kind(std::move(kind))
    {
    }

  private:
    void DoRun() override
    {
        const RunResult loop = RunYamlInTemp(
            Scenario(m_kind, "arrivals: closed-loop, outstanding: 3, flow-sizes: hadoop, duration: 5ms"), kSuite,
            "loop-" + m_kind);
        const WorkloadResult& w = loop.workloads.at(0);
        NS_TEST_ASSERT_MSG_GT(w.messagesPosted, 60u, "flows enough to show the loop");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, w.messagesPosted, "every flow delivered, none failed");
        std::set<std::string> senders;
        for (const MessageRecord& m : loop.messages)
        {
            senders.insert(m.sender);
        }
        NS_TEST_EXPECT_MSG_EQ(senders.size(), 6u, "every host sends");
        for (const std::string& host : senders)
        {
            const std::vector<const MessageRecord*> flows = testing::InArrivalOrder(loop, host);
            std::multiset<Time> ends; // deliveries of the host's flows, each starting at most one next flow
            for (const MessageRecord* m : flows)
            {
                ends.insert(*m->delivered);
            }
            uint32_t atStart = 0;
            for (const MessageRecord* m : flows)
            {
                // In flight when this one was posted: the host's flows posted before it, not yet delivered.
                uint32_t inFlight = 0;
                for (const MessageRecord* o : flows)
                {
                    inFlight += (o->id < m->id && *o->delivered > m->post) ? 1 : 0;
                }
                NS_TEST_EXPECT_MSG_LT_OR_EQ(inFlight, 2u, host << " flow " << m->id << ": at most 3 with it");
                atStart += m->post.IsZero() ? 1 : 0;
                auto end = ends.find(m->post);
                NS_TEST_EXPECT_MSG_EQ((m->post.IsZero() || end != ends.end()), true,
                                      host << " flow " << m->id << " posted as one of its flows was delivered");
                if (!m->post.IsZero() && end != ends.end())
                {
                    ends.erase(end);
                }
            }
            NS_TEST_EXPECT_MSG_EQ(atStart, 3u, host << ": three flows at the start");
        }
        NS_TEST_ASSERT_MSG_EQ(w.traffic.has_value(), true, "its operating point");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->arrivals, "closed-loop", "arrivals");
        NS_TEST_EXPECT_MSG_EQ(w.traffic->load.has_value(), false, "no load asked");
        NS_TEST_EXPECT_MSG_EQ(*w.traffic->outstanding, 3u, "outstanding");
        NS_TEST_EXPECT_MSG_GT(*w.traffic->offeredLoad, 0.0, "the load it offered, measured");

        // The loop draws as the Poisson load of the same seed does: host h0's sizes and receivers, in order.
        const RunResult poisson = RunYamlInTemp(
            Scenario(m_kind, "load: 0.1, flow-sizes: hadoop, duration: 5ms"), kSuite, "poisson-" + m_kind);
        auto sequence = [](const RunResult& r) {
            std::vector<std::pair<uint64_t, std::string>> out;
            for (const MessageRecord* m : testing::InArrivalOrder(r, "h0"))
            {
                out.emplace_back(m->size, m->receiver);
            }
            return out;
        };
        const auto a = sequence(loop);
        const auto b = sequence(poisson);
        const std::size_t n = std::min(a.size(), b.size());
        NS_TEST_ASSERT_MSG_GT(n, 5u, "both loads started flows at h0");
        NS_TEST_EXPECT_MSG_EQ((std::equal(a.begin(), a.begin() + n, b.begin())), true, "the same draws");
    }

    std::string m_kind;
};

class PerFlowTestCase : public TestCase
{
  public:
    explicit PerFlowTestCase(std::string kind)
        : TestCase(kind + ", connections per-flow: a connection for each flow, each flow delivered and matched to "
                          "its own times (none faster than its ideal)"),
          m_kind(std::move(kind))
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp(
            Scenario(m_kind, "connections: per-flow, load: 0.3, flow-sizes: hadoop, count: 150"), kSuite,
            "per-flow-" + m_kind);
        const WorkloadResult& w = r.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 150u, "every flow delivered");
        NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, 150u, "a connection per flow");
        NS_TEST_EXPECT_MSG_EQ(w.connections.established, 150u, "each came up");
        std::set<std::string> hosts = {"h0", "h1", "h2", "h3", "h4", "h5"};
        bool overtaken = false; // a later flow of a pair delivered before an earlier one: own connections
        std::map<std::string, Time> lastDelivery;
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_EXPECT_MSG_EQ(hosts.count(m.receiver), 1u, "flow " << m.id << " names its receiving host");
            NS_TEST_ASSERT_MSG_EQ((m.delivered && m.idealFct), true, "flow " << m.id);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*m.Fct(), *m.idealFct, "flow " << m.id << " not faster than its ideal");
        }
        for (const MessageRecord* m : testing::InArrivalOrder(r))
        {
            Time& last = lastDelivery[m->sender + ">" + m->receiver];
            overtaken = overtaken || *m->delivered < last;
            last = std::max(last, *m->delivered);
        }
        NS_TEST_EXPECT_MSG_EQ(overtaken, true, "a small flow overtook a large one of its pair (no head of line)");
        for (const CheckResult& c : r.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(c.pass, true, c.name << " (" << c.subject << ")");
        }
    }

    std::string m_kind;
};

class SendTestCase : public TestCase
{
  public:
    SendTestCase()
        : TestCase("op send: the Write load's flows as Sends into posted receives, each delivered at its receive's "
                   "completion, its ideal with the untagged header")
    {
    }

  private:
    void DoRun() override
    {
        const std::string keys = "load: 0.2, flow-sizes: hadoop, count: 150";
        const RunResult send = RunYamlInTemp(Scenario("traffic", "op: send, " + keys), kSuite, "send");
        const RunResult write = RunYamlInTemp(Scenario("traffic", keys), kSuite, "send-write");
        const WorkloadResult& w = send.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.op, "send", "op");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 150u, "every flow delivered");
        NS_TEST_EXPECT_MSG_EQ(w.terminates.size(), 0u, "no receive queue ran dry");
        std::map<uint64_t, Time> writeIdeal;
        for (const MessageRecord& m : write.messages)
        {
            writeIdeal[m.id] = *m.idealFct;
        }
        for (const MessageRecord& m : send.messages)
        {
            NS_TEST_ASSERT_MSG_EQ((m.delivered && m.idealFct), true, "flow " << m.id);
            // 18 octets of headers a segment instead of 14: never less than the Write's ideal.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*m.idealFct, writeIdeal.at(m.id), "flow " << m.id);
        }
        for (const CheckResult& c : send.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(c.pass, true, c.name << " (" << c.subject << ")");
        }
    }
};

class ClosedLoopFailuresTestCase : public TestCase
{
  public:
    ClosedLoopFailuresTestCase()
        : TestCase("closed loop: a flow that fails retires its slot (no new flow at the same instant), a host "
                   "with every slot failed starts no more, and the run ends")
    {
    }

  private:
    void DoRun() override
    {
        // h1 is cut off (its link down, routes recomputed) before the load starts: every connection h0 opens
        // to it fails at once. Before, each failure started the next flow at that instant, for ever.
        const RunResult r = RunYamlInTemp(
            "stop: 20ms\n"
            "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 3, reroute-after: 1us}\n"
            "links: {rate: 10Gbps, delay: 1us}\n"
            "events:\n  - {at: 500us, action: link-down, between: [leaf0, h1]}\n"
            "workloads:\n  - {name: load, kind: sockets-traffic, start: 1ms, arrivals: closed-loop, outstanding: 3, "
            "connections: per-flow, pattern: pairs, pairs: [h0>h1], flow-sizes: hadoop, duration: 10ms}\n",
            kSuite, "loop-failures");
        const WorkloadResult& w = r.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.messagesPosted, 3u, "three flows, one per slot, each failed");
        NS_TEST_EXPECT_MSG_EQ(w.messagesFlushed, 3u, "all three counted as failed");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 0u, "none delivered");
    }
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: a pattern's parameter missing, given to another pattern, or naming a host outside "
                   "the load; a malformed, reflexive or repeated pair")
    {
    }

  private:
    void DoRun() override
    {
        auto has = [](const std::string& keys, const std::string& part) {
            const std::string e = ErrorOf(Scenario("traffic", "load: 0.2, flow-sizes: hadoop, count: 5, " + keys));
            return e.find(part) != std::string::npos ? std::string() : e.empty() ? std::string("(no error)") : e;
        };
        const std::pair<const char*, const char*> cases[] = {
            {"pattern: many-to-one, incast-fraction: 0.5", "`pattern: many-to-one` needs `target`"},
            {"pattern: many-to-one, target: h1", "`pattern: many-to-one` needs `incast-fraction`"},
            {"target: h1", "`target` is for `pattern: many-to-one` only"},
            {"pattern: pairs, pairs: [h0>h1], incast-fraction: 0.2", "`incast-fraction` is for `pattern: many-to-one`"},
            {"pattern: many-to-one, target: h1, incast-fraction: 1.5", "1.5"},
            {"pattern: many-to-one, target: h1, incast-fraction: 0.5, hosts: [h0, h2]", "not one of the load's `hosts`"},
            {"pattern: many-to-one, target: s0, incast-fraction: 0.5", "s0"},
            {"pattern: pairs", "`pattern: pairs` needs `pairs`"},
            {"pairs: [h0>h1]", "`pairs` is for `pattern: pairs` only"},
            {"pattern: pairs, pairs: [h0-h1]", "a pair is `sender>receiver`"},
            {"pattern: pairs, pairs: [h0>h1>h2]", "a pair is `sender>receiver`"},
            {"pattern: pairs, pairs: [h0>h0]", "cannot send to itself"},
            {"pattern: pairs, pairs: [h0>h1, h0>h1]", "listed twice"},
            {"pattern: pairs, pairs: [h0>h9]", "h9"},
            {"pattern: pairs, pairs: [h0>h1], hosts: [h0, h2]", "host 'h1' is not one of the load's `hosts`"},
            {"pattern: pairs, pairs: []", "no pair"},
            {"pattern: fan-in", "fan-in"},
            {"arrivals: closed-loop, outstanding: 2", "`load` is for Poisson `arrivals` only"},
            {"outstanding: 2", "`outstanding` is for `arrivals: closed-loop` only"},
            {"arrivals: open", "open"},
            {"connections: per-message", "per-message"},
            {"op: read", "op 'read' is not possible for workload kind 'traffic'"},
        };
        for (const auto& [keys, part] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(has(keys, part), "", keys);
        }
        NS_TEST_EXPECT_MSG_NE(ErrorOf(Scenario("traffic", "flow-sizes: hadoop, count: 5")).find("Poisson arrivals need `load`"),
                              std::string::npos, "Poisson arrivals without a load");
    }
};

class TrafficOptionsTestSuite : public TestSuite
{
  public:
    TrafficOptionsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new ManyToOneTestCase("traffic"), TestCase::QUICK);
        AddTestCase(new ManyToOneTestCase("sockets-traffic"), TestCase::QUICK);
        AddTestCase(new PairsTestCase, TestCase::QUICK);
        AddTestCase(new ClosedLoopTestCase("traffic"), TestCase::QUICK);
        AddTestCase(new ClosedLoopTestCase("sockets-traffic"), TestCase::QUICK);
        AddTestCase(new ClosedLoopFailuresTestCase, TestCase::QUICK);
        AddTestCase(new PerFlowTestCase("traffic"), TestCase::QUICK);
        AddTestCase(new PerFlowTestCase("sockets-traffic"), TestCase::QUICK);
        AddTestCase(new SendTestCase, TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
    }
};

TrafficOptionsTestSuite g_trafficOptionsTestSuite;

} // namespace
} // namespace ns3
