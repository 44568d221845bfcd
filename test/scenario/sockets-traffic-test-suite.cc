/*
 * iwarp-sockets-traffic: the `sockets-traffic` workload, the ordinary-sockets baseline of `traffic`
 * (doc/traffic.md, issue 28): with the same seed it starts the very flows the RDMA load starts (arrivals,
 * sizes, pairs), delivers each whole at its receiver over one TCP connection per host pair used; a flow alone
 * on the idle network takes its ideal FCT (the sender's send() on an idle host, its TCP segments through the
 * path's links, the receiver's read of the last one) plus the receive interrupt's delay; hosts with a host model
 * pay for it (a flow that never connects: iwarp-traffic-workload, for both kinds).
 */
#include "apps/message-stamp.h"

#include "support/scenario-run-util.h"
#include "support/traffic-records.h"

#include "ns3/test.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-sockets-traffic";

using testing::FourHostLoad;

class SameFlowsTestCase : public TestCase
{
  public:
    SameFlowsTestCase()
        : TestCase("the same seed starts the RDMA load's flows; each delivered whole, one connection per pair")
    {
    }

  private:
    void DoRun() override
    {
        const std::string keys = "load: 0.3, flow-sizes: hadoop, count: 200";
        const RunResult rdma = RunYamlInTemp(FourHostLoad("traffic", keys), kSuite, "same-rdma");
        const RunResult plain = RunYamlInTemp(FourHostLoad("sockets-traffic", keys), kSuite, "same-sockets");
        NS_TEST_EXPECT_MSG_EQ((testing::FlowKeys(rdma) == testing::FlowKeys(plain)), true, "the same arrivals, sizes and pairs");
        const WorkloadResult& w = plain.workloads.at(0);
        NS_TEST_EXPECT_MSG_EQ(w.kind, "sockets-traffic", "kind");
        NS_TEST_EXPECT_MSG_EQ(w.op, "sockets", "op");
        NS_TEST_EXPECT_MSG_EQ(w.messagesPosted, 200u, "count flows");
        NS_TEST_EXPECT_MSG_EQ(w.messagesDelivered, 200u, "every one delivered at its receiver");
        NS_TEST_EXPECT_MSG_EQ(w.octetsDelivered, w.octetsPosted, "every octet of the flows (stamps not counted)");
        std::set<std::pair<std::string, std::string>> pairs;
        for (const MessageRecord& m : plain.messages)
        {
            pairs.emplace(m.sender, m.receiver);
            NS_TEST_EXPECT_MSG_EQ((m.delivered.has_value() && m.idealFct.has_value()), true, "flow " << m.id);
            // Its first octets reached the receiving user between its post and its delivery.
            NS_TEST_EXPECT_MSG_EQ((m.firstPlaced && *m.firstPlaced >= m.post && *m.firstPlaced <= *m.delivered), true,
                                  "flow " << m.id << " has its first octets' time");
        }
        NS_TEST_EXPECT_MSG_EQ(w.connections.attempted, pairs.size(), "one connection per ordered pair used");
        NS_TEST_EXPECT_MSG_EQ(w.connections.established, pairs.size(), "all of them up");
        NS_TEST_ASSERT_MSG_EQ(w.traffic.has_value(), true, "its operating point");
        NS_TEST_EXPECT_MSG_EQ(*w.traffic->offeredLoad, *rdma.workloads.at(0).traffic->offeredLoad,
                              "the same offered load as the RDMA load's");
        for (const CheckResult& c : plain.checks)
        {
            NS_TEST_EXPECT_MSG_EQ(c.pass, true, c.name << " (" << c.subject << ")");
        }
    }
};

class IdleNetworkTestCase : public TestCase
{
  public:
    /** Hosts whose receive interrupt waits `interrupt` (HostModel::InterruptDelay), as text and as a Time. */
    IdleNetworkTestCase(const std::string& interrupt, Time delay)
        : TestCase("a one-segment sockets flow alone on the idle network takes its ideal FCT plus the receive "
                   "interrupt's delay (" + interrupt + "), to 1 ns; none less than its ideal"),
          m_interrupt(interrupt),
          m_delay(delay)
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r =
            RunYamlInTemp("stop: 200ms\n"
                          "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 2}\n"
                          "links: {rate: 25Gbps, delay: 2us}\n"
                          "host: {profile: current, HostModel::InterruptDelay: " + m_interrupt + "}\n"
                          "workloads:\n"
                          "  - {kind: sockets-traffic, load: 0.02, flow-sizes: hadoop, count: 200}\n",
                          kSuite, "idle-" + m_interrupt);
        NS_TEST_ASSERT_MSG_EQ(r.workloads.at(0).messagesDelivered, 200u, "all delivered");
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_ASSERT_MSG_EQ(m.idealFct.has_value(), true, "every delivered flow has its ideal");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*m.Fct(), *m.idealFct, "never faster than the ideal, flow " << m.id);
        }
        int alone = 0;
        for (const MessageRecord* m : testing::AloneOverOpenConnection(r))
        {
            // One TCP segment of 1448 octets (SegmentSize at MTU 1500 with timestamps), the stamp included.
            if (m->size + MessageStamp::kOctets > 1448)
            {
                continue; // a read that may take more than the last segment
            }
            ++alone;
            // The ideal leaves out interrupt moderation (a connection being read is polled); alone, the
            // flow's one segment reaches an idle connection and waits for its interrupt.
            NS_TEST_EXPECT_MSG_EQ_TOL(*m->Fct() - *m->idealFct, m_delay, NanoSeconds(1),
                                      "flow " << m->id << " of " << m->size << " octets, alone");
        }
        NS_TEST_EXPECT_MSG_GT(alone, 50, "enough flows ran alone to show it");
    }

    std::string m_interrupt;
    Time m_delay;
};

class HostCostsTestCase : public TestCase
{
  public:
    HostCostsTestCase()
        : TestCase("with a host model the sockets load pays for its copies; the RDMA load's receivers do not")
    {
    }

  private:
    void DoRun() override
    {
        const std::string hosts = "host: {profile: host-2015}\n";
        const std::string keys = "load: 0.3, flow-sizes: hadoop, count: 100";
        const RunResult plain = RunYamlInTemp(FourHostLoad("sockets-traffic", keys, hosts), kSuite, "hosts-sockets");
        const RunResult rdma = RunYamlInTemp(FourHostLoad("traffic", keys, hosts), kSuite, "hosts-rdma");
        NS_TEST_ASSERT_MSG_EQ(plain.workloads.at(0).messagesDelivered, 100u, "all delivered");
        // The octets CPU copies wrote, every host together (host.csv's bus_bytes_CpuCopyWrite).
        auto copied = [](const RunResult& r) {
            double octets = 0;
            for (const HostResult& h : r.hosts)
            {
                octets += h.counters.at("bus_bytes_CpuCopyWrite");
            }
            return uint64_t(octets);
        };
        const uint64_t copies = copied(plain);
        const uint64_t rdmaCopies = copied(rdma);
        // Each flow octet is copied at the sender (user to kernel) and at the receiver (kernel to user).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(copies, 2 * plain.workloads.at(0).octetsDelivered, "both copies of every octet");
        NS_TEST_EXPECT_MSG_EQ(rdmaCopies, 0u, "direct placement copies nothing");
    }
};

class FirstOctetTestCase : public TestCase
{
  public:
    FirstOctetTestCase()
        : TestCase("sockets-stream: each message's first octets reach the user (first_placed) after its post and "
                   "before its last, a 1 MiB message's many reads apart; its copy overlaps its transmission")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult r = RunYamlInTemp("stop: 100ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 1us}\n"
                                          "workloads:\n  - {kind: sockets-stream, from: h0, to: h1, size: 1MiB, "
                                          "count: 8}\n",
                                          kSuite, "first-octet");
        NS_TEST_ASSERT_MSG_EQ(r.messages.size(), 8u, "eight messages");
        // send() copies a 64 KiB chunk at a time and TCP sends each as it is copied: the first message's first
        // octets arrive long before the copy of all of it could end (99 us on `current`: 0.32 cycles an octet
        // at 3.4 GHz), after one chunk's copy, a segment's trip, the receive interrupt (8 us) and a read.
        const MessageRecord& first = *testing::InArrivalOrder(r).front();
        NS_TEST_ASSERT_MSG_EQ(first.firstPlaced.has_value(), true, "its first octets' time");
        NS_TEST_EXPECT_MSG_LT(*first.firstPlaced - first.post, MicroSeconds(50), "a chunk's copy, not 1 MiB's");
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_ASSERT_MSG_EQ((m.firstPlaced && m.delivered), true, "message " << m.id);
            NS_TEST_EXPECT_MSG_GT(*m.firstPlaced, m.post, "message " << m.id << ": after its post");
            // 1 MiB takes 839 us at 10 Gb/s: its first read is delivered long before its last.
            NS_TEST_EXPECT_MSG_GT(*m.delivered - *m.firstPlaced, MicroSeconds(700), "message " << m.id);
        }
    }
};

class SocketsTrafficTestSuite : public TestSuite
{
  public:
    SocketsTrafficTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new SameFlowsTestCase, TestCase::QUICK);
        AddTestCase(new IdleNetworkTestCase("8us", MicroSeconds(8)), TestCase::QUICK);
        AddTestCase(new IdleNetworkTestCase("0ns", Time(0)), TestCase::QUICK);
        AddTestCase(new HostCostsTestCase, TestCase::QUICK);
        AddTestCase(new FirstOctetTestCase, TestCase::QUICK);
    }
};

SocketsTrafficTestSuite g_socketsTrafficTestSuite;

} // namespace
} // namespace ns3
