/*
 * iwarp-ideal-fct: a Write's ideal FCT (helper/scenario/ideal-fct.h, doc/traffic.md): one segment takes the sum
 * of its stages; the closed form for the segments ahead of the last equals the stage-by-stage recurrence for
 * any sizes; and a traffic workload's flows that ran alone on an idle network, over a connection already up,
 * took their ideal FCT to within the transmit engine's batching window, never less. The summary's slowdown
 * buckets count every flow, delivered or not.
 */
#include "helper/scenario/ideal-fct.h"
#include "helper/scenario/slowdown.h"

#include "support/scenario-run-util.h"
#include "support/traffic-records.h"

#include "ns3/random-variable-stream.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{
namespace
{

IdealFctModel
Model(std::vector<EdgeFacts> hops)
{
    IdealFctModel m;
    m.tx = EngineCosts{NanoSeconds(100), NanoSeconds(550), 100e9};
    m.rx = EngineCosts{NanoSeconds(100), NanoSeconds(550), 100e9};
    m.hops = std::move(hops);
    m.mulpdu = 1442;
    m.ddpHeader = 14;
    m.framing = 46;
    m.padding = [](uint32_t segment) { return (4 - (2 + segment) % 4) % 4; };
    return m;
}

/** The tandem followed segment by segment: each stage serves one at a time, in order. */
Time
Recurrence(const IdealFctModel& m, uint64_t payload)
{
    const uint64_t per = m.mulpdu - m.ddpHeader;
    const uint64_t n = (payload + per - 1) / per;
    std::vector<Time> free(m.hops.size() + 2, Time(0));
    Time leaves(0);
    for (uint64_t i = 0; i < n; ++i)
    {
        const bool last = i + 1 == n;
        const uint32_t seg = uint32_t((last ? payload - (n - 1) * per : per) + m.ddpHeader);
        const uint32_t wire = seg + m.framing + m.padding(seg) + kPppOctets;
        Time t(0);
        for (std::size_t k = 0; k < free.size(); ++k)
        {
            Time service;
            Time before(0);
            if (k == 0 || k + 1 == free.size())
            {
                const EngineCosts& e = k == 0 ? m.tx : m.rx;
                service = e.perSegment + (last ? e.perMessage : Time(0)) + Seconds(seg * 8.0 / e.rateBps);
                before = k == 0 ? Time(0) : m.hops.back().delay;
            }
            else
            {
                service = Seconds(wire * 8.0 / m.hops[k - 1].rateBps);
                before = k == 1 ? Time(0) : m.hops[k - 2].delay;
            }
            t = std::max(t + before, free[k]) + service;
            free[k] = t;
        }
        leaves = t;
    }
    return leaves;
}

class FormulaTestCase : public TestCase
{
  public:
    FormulaTestCase()
        : TestCase("one segment: the sum of its stages; any size: the stage-by-stage recurrence")
    {
    }

  private:
    void DoRun() override
    {
        const IdealFctModel m = Model({EdgeFacts{10e9, MicroSeconds(1), 1500}, EdgeFacts{40e9, MicroSeconds(2), 1500}});
        // 100 octets: a 114-octet segment, 2 + 114 padded to 116, so 114 + 46 + 0 + 2 = 162 wire octets.
        const Time one = NanoSeconds(100 + 550) + Seconds(114 * 8 / 100e9) + Seconds(162 * 8 / 10e9) +
                         MicroSeconds(1) + Seconds(162 * 8 / 40e9) + MicroSeconds(2) + NanoSeconds(650) +
                         Seconds(114 * 8 / 100e9);
        NS_TEST_EXPECT_MSG_EQ(IdealFct(m, 100), one, "one segment through tx engine, two links, rx engine");
        for (uint64_t size : {1u, 1427u, 1428u, 1429u, 2856u, 4000u, 65536u, 1000000u})
        {
            const Time formula = IdealFct(m, size);
            const Time brute = Recurrence(m, size);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(Abs(formula - brute), PicoSeconds(5), size << " octets");
        }
        // A slow engine: the engine, not the link, paces the segments.
        IdealFctModel slow = m;
        slow.tx.rateBps = 1e9;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(Abs(IdealFct(slow, 100000) - Recurrence(slow, 100000)), PicoSeconds(5),
                                    "engine-bound");
        NS_TEST_EXPECT_MSG_GT(IdealFct(slow, 100000), Seconds(100000 * 8 / 1e9), "at least the engine's time");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([&] { IdealFct(m, 0); }).empty(), false,
                              "no ideal for nothing");
    }
};

/** The links alone (no engines, no padding) carrying segments of `sizes` payload octets, all ready at 0. */
Time
LinksTandem(const IdealFctModel& m, const std::vector<uint32_t>& sizes)
{
    std::vector<Time> free(m.hops.size(), Time(0));
    Time last(0);
    for (uint32_t size : sizes)
    {
        const double wire = double(size + m.framing + kPppOctets);
        Time t(0);
        for (std::size_t k = 0; k < m.hops.size(); ++k)
        {
            t = std::max(t + (k > 0 ? m.hops[k - 1].delay : Time(0)), free[k]) + Seconds(wire * 8 / m.hops[k].rateBps);
            free[k] = t;
        }
        last = t + m.hops.back().delay;
    }
    return last;
}

class SegmentationBoundTestCase : public TestCase
{
  public:
    SegmentationBoundTestCase()
        : TestCase("AnySegmentationBound: never above the links' time for any cut of the payload into segments, "
                   "and within a full segment per hop of it for the fullest cut")
    {
    }

  private:
    void DoRun() override
    {
        IdealFctModel m = Model({EdgeFacts{25e9, MicroSeconds(1), 1500}, EdgeFacts{10e9, NanoSeconds(500), 1500},
                                 EdgeFacts{25e9, MicroSeconds(1), 1500}});
        m.mulpdu = 1448;
        m.framing = 52;
        Ptr<UniformRandomVariable> cut = CreateObject<UniformRandomVariable>();
        cut->SetStream(7);
        for (uint64_t payload : {2000u, 65537u, 300000u})
        {
            const Time bound = AnySegmentationBound(m, payload);
            for (int trial = 0; trial < 200; ++trial)
            {
                // Mostly full segments, now and then a short one (a chunk's or a message's end); every other trial
                // ends on a 1-octet segment, the smallest a message's last octet can travel in.
                std::vector<uint32_t> sizes;
                const uint64_t body = trial % 2 ? payload - 1 : payload;
                for (uint64_t left = body; left > 0; left -= sizes.back())
                {
                    const uint32_t s = cut->GetValue() < 0.8 ? 1448 : cut->GetInteger(1, 1448);
                    sizes.push_back(uint32_t(std::min<uint64_t>(left, s)));
                }
                if (body < payload)
                {
                    sizes.push_back(1);
                }
                NS_TEST_ASSERT_MSG_LT_OR_EQ(bound, LinksTandem(m, sizes), payload << " octets, trial " << trial);
            }
            // The fullest cut: full segments and the rest last. The bound leaves out at most a full segment at
            // each hop but the slowest.
            std::vector<uint32_t> full(payload / 1448, 1448);
            if (payload % 1448)
            {
                full.push_back(uint32_t(payload % 1448));
            }
            const Time slack = Seconds(2 * 1448 * 8 / 25e9);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(LinksTandem(m, full) - bound, slack, payload << " octets, fullest cut");
        }
    }
};

class BucketsTestCase : public TestCase
{
  public:
    BucketsTestCase()
        : TestCase("slowdown buckets a decade wide, flows never delivered counted, not dropped")
    {
    }

  private:
    void DoRun() override
    {
        auto flow = [](uint64_t size, std::optional<int64_t> fctUs, std::optional<int64_t> idealUs) {
            MessageRecord m;
            m.size = size;
            m.post = Time(0);
            if (fctUs)
            {
                m.delivered = MicroSeconds(*fctUs);
            }
            if (idealUs)
            {
                m.idealFct = MicroSeconds(*idealUs);
            }
            return m;
        };
        const std::vector<SlowdownBucket> b = SlowdownBuckets({flow(500, 20, 10), flow(999, 40, 10),
                                                               flow(1000, 30, 10), flow(5000, std::nullopt, 10),
                                                               flow(9999, std::nullopt, std::nullopt)});
        NS_TEST_ASSERT_MSG_EQ(b.size(), 2u, "[100, 1000) and [1000, 10000)");
        NS_TEST_EXPECT_MSG_EQ(b[0].minOctets, 100u, "from 100");
        NS_TEST_EXPECT_MSG_EQ(b[0].maxOctets, 1000u, "below 1000");
        NS_TEST_EXPECT_MSG_EQ(b[0].flows, 2u, "two flows");
        NS_TEST_EXPECT_MSG_EQ_TOL(*b[0].p50, 2.0, 1e-12, "nearest-rank median of 2 and 4");
        NS_TEST_EXPECT_MSG_EQ_TOL(*b[0].p99, 4.0, 1e-12, "p99");
        NS_TEST_EXPECT_MSG_EQ(b[1].flows, 3u, "1000, 5000 and 9999");
        NS_TEST_EXPECT_MSG_EQ(b[1].notCompleted, 2u, "one outstanding, one whose connection never came up");
        NS_TEST_EXPECT_MSG_EQ_TOL(*b[1].p50, 3.0, 1e-12, "the one delivered");
    }
};

class IdleNetworkTestCase : public TestCase
{
  public:
    IdleNetworkTestCase()
        : TestCase("a flow alone on the idle network over an open connection takes its ideal FCT, to 1 us")
    {
    }

  private:
    void DoRun() override
    {
        // Two hosts through one switch, a light load: most flows find the network empty.
        const RunResult r = RunYamlInTemp("stop: 200ms\n"
                                          "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 2}\n"
                                          "links: {rate: 25Gbps, delay: 2us}\n"
                                          "workloads:\n"
                                          "  - {kind: traffic, load: 0.02, flow-sizes: hadoop, count: 200}\n",
                                          "iwarp-ideal-fct", "idle");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.at(0).messagesDelivered, 200u, "all delivered");
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_ASSERT_MSG_EQ(m.idealFct.has_value(), true, "every delivered flow has its ideal");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*m.Fct(), *m.idealFct, "never faster than the ideal, flow " << m.id);
        }
        int alone = 0;
        for (const MessageRecord* m : testing::AloneOverOpenConnection(r))
        {
            if (m->size > 10 * 1416)
            {
                continue; // more than the initial window
            }
            ++alone;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(*m->Fct() - *m->idealFct, MicroSeconds(1),
                                        "flow " << m->id << " of " << m->size << " octets, alone");
        }
        NS_TEST_EXPECT_MSG_GT(alone, 50, "enough flows ran alone to show it");
        const std::vector<SlowdownBucket>& buckets = *r.workloads.at(0).slowdown;
        uint64_t flows = 0;
        for (const SlowdownBucket& b : buckets)
        {
            flows += b.flows;
        }
        NS_TEST_EXPECT_MSG_EQ(flows, 200u, "every flow in a bucket");
    }
};

class IdealFctTestSuite : public TestSuite
{
  public:
    IdealFctTestSuite()
        : TestSuite("iwarp-ideal-fct", UNIT)
    {
        AddTestCase(new FormulaTestCase, TestCase::QUICK);
        AddTestCase(new SegmentationBoundTestCase, TestCase::QUICK);
        AddTestCase(new BucketsTestCase, TestCase::QUICK);
        AddTestCase(new IdleNetworkTestCase, TestCase::QUICK);
    }
};

IdealFctTestSuite g_idealFctTestSuite;

} // namespace
} // namespace ns3
