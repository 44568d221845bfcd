/*
 * Link impairments of TopologyBuilder: independent loss, Gilbert-Elliott bursty loss and
 * reordering, each measured where the packets arrive (sequence-numbered UDP) and compared
 * with the configured values within a statistical tolerance; plus reproducibility by seed
 * and per-link placement (doc/topology.md "Impairments").
 */
#include "helper/topology/topology-builder.h"
#include "topology/topology-test-util.h"

#include "ns3/test.h"

#include <cmath>

using namespace ns3;
using namespace ns3::topotest;

namespace
{

struct FlowResult
{
    uint64_t received{0};
    uint64_t outOfOrder{0};
    double meanGapRun{0};
    uint64_t gapRuns{0};
    ImpairmentCounters counters;
    const BuiltLink* link{nullptr};
};

/** `count` packets h0 -> h1 over a two-hosts topology with `imp` on its link. */
FlowResult
RunTwoHosts(const ImpairmentSpec& imp, uint32_t count, Time interval, int64_t stream = 1000)
{
    TopologySpec spec;
    spec.kind = TopologyKind::TwoHosts;
    spec.link.rate = DataRate("10Gbps");
    spec.impairAll = imp;
    spec.firstStream = stream;
    BuiltTopology t = TopologyBuilder::Build(spec);
    SeqSink sink(t.GetNode("h1"), 9000);
    StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h1"), 9000, count, interval);
    Simulator::Stop(MilliSeconds(2) + interval * count + MilliSeconds(1));
    Simulator::Run();
    FlowResult r;
    r.received = sink.received;
    r.outOfOrder = sink.outOfOrder;
    r.meanGapRun = sink.MeanGapRun(count, &r.gapRuns);
    r.counters = t.Counters();
    Simulator::Destroy();
    return r;
}

class RandomLossTest : public TestCase
{
  public:
    RandomLossTest()
        : TestCase("Random loss 5% over 20000 packets, counters agree, same seed same result")
    {
    }

    void DoRun() override
    {
        ImpairmentSpec imp;
        imp.loss = 0.05;
        const uint32_t n = 20000;
        FlowResult r = RunTwoHosts(imp, n, MicroSeconds(1));
        const double loss = 1.0 - double(r.received) / n;
        // sigma = sqrt(0.05 * 0.95 / 20000) = 0.0015; five sigma.
        std::cout << "random loss: configured 0.05, measured " << loss << " (" << n - r.received
                  << " of " << n << ")" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(loss, 0.05, 0.0077, "measured loss rate");
        NS_TEST_EXPECT_MSG_EQ(r.counters.dropped, n - r.received, "model counted every drop");
        NS_TEST_EXPECT_MSG_EQ(r.counters.seen, uint64_t(n), "model saw every packet");
        NS_TEST_EXPECT_MSG_EQ(r.outOfOrder, 0u, "loss does not reorder");

        FlowResult again = RunTwoHosts(imp, n, MicroSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(again.received, r.received, "same streams, same losses");
        FlowResult other = RunTwoHosts(imp, n, MicroSeconds(1), 2000);
        NS_TEST_EXPECT_MSG_NE(other.received, r.received, "other streams, other losses");
    }
};

class GilbertElliottModelTest : public TestCase
{
  public:
    GilbertElliottModelTest()
        : TestCase("Gilbert-Elliott model alone: loss p over p+r, mean burst 1 over r")
    {
    }

    void DoRun() override
    {
        Ptr<GilbertElliottErrorModel> em = CreateObject<GilbertElliottErrorModel>();
        const double p = 0.01;
        const double r = 0.25;
        em->SetAttribute("PGoodToBad", DoubleValue(p));
        em->SetAttribute("RBadToGood", DoubleValue(r));
        em->SetAttribute("LossGood", DoubleValue(0.0));
        em->SetAttribute("LossBad", DoubleValue(1.0));
        em->AssignStreams(7);
        const uint32_t n = 400000;
        for (uint32_t i = 0; i < n; ++i)
        {
            em->IsCorrupt(Create<Packet>(10));
        }
        const double loss = double(em->GetDropped()) / n;
        const double burst = double(em->GetDropped()) / em->GetBursts();
        std::cout << "GE model: loss " << loss << " (expect " << p / (p + r) << "), mean burst "
                  << burst << " (expect " << 1 / r << ") over " << em->GetBursts() << " bursts"
                  << std::endl;
        NS_TEST_EXPECT_MSG_EQ(em->GetSeen(), n, "saw every packet");
        NS_TEST_EXPECT_MSG_EQ_TOL(loss, p / (p + r), 0.1 * p / (p + r), "stationary loss");
        NS_TEST_EXPECT_MSG_EQ_TOL(burst, 1 / r, 0.1 / r, "mean burst length");
        em->Reset();
        NS_TEST_EXPECT_MSG_EQ(em->GetSeen(), 0u, "Reset clears the counters");
    }
};

class GilbertElliottLinkTest : public TestCase
{
  public:
    GilbertElliottLinkTest()
        : TestCase("Gilbert-Elliott on a link: loss and burst length seen at the receiver")
    {
    }

    void DoRun() override
    {
        ImpairmentSpec imp;
        imp.gilbertElliott = GilbertElliottSpec{0.01, 0.25, 0.0, 1.0};
        const uint32_t n = 60000;
        FlowResult r = RunTwoHosts(imp, n, MicroSeconds(1));
        const double loss = 1.0 - double(r.received) / n;
        const double expect = 0.01 / 0.26;
        std::cout << "GE link: loss " << loss << " (expect " << expect << "), mean run of "
                  << "missing numbers " << r.meanGapRun << " (expect 4) over " << r.gapRuns
                  << " runs" << std::endl;
        // About 580 bursts: the loss is within ~6% (one sigma), the mean burst within ~0.15.
        NS_TEST_EXPECT_MSG_EQ_TOL(loss, expect, 0.2 * expect, "average loss");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.meanGapRun, 4.0, 0.6, "bursts of ~1/r packets");
        NS_TEST_EXPECT_MSG_GT(r.meanGapRun, 2.0, "clearly burstier than independent loss");
        NS_TEST_EXPECT_MSG_EQ(r.counters.dropped, n - r.received, "counters agree");
    }
};

class ReorderingTest : public TestCase
{
  public:
    ReorderingTest()
        : TestCase("Reordering: 10% of packets held 50 us arrive out of order at the receiver")
    {
    }

    void DoRun() override
    {
        ImpairmentSpec imp;
        imp.reorder = ReorderSpec{0.1, MicroSeconds(50)};
        const uint32_t n = 10000;
        FlowResult r = RunTwoHosts(imp, n, MicroSeconds(5));
        const double fraction = double(r.outOfOrder) / n;
        std::cout << "reordering: configured 0.1, measured out-of-order " << fraction << " ("
                  << r.outOfOrder << "), channel held " << r.counters.delayed << std::endl;
        NS_TEST_EXPECT_MSG_EQ(r.received, uint64_t(n), "nothing lost");
        // sigma = sqrt(0.1 * 0.9 / 10000) = 0.003; five sigma.
        NS_TEST_EXPECT_MSG_EQ_TOL(fraction, 0.1, 0.015, "out-of-order share");
        // A held packet is overtaken by the ten sent in its 50 us, unless it is among the last.
        NS_TEST_EXPECT_MSG_EQ_TOL(double(r.outOfOrder), double(r.counters.delayed), 10.0,
                                  "every held packet arrives out of order");
    }
};

class PlacementTest : public TestCase
{
  public:
    PlacementTest()
        : TestCase("Impairments on one named link only: placement and traffic across it")
    {
    }

    void DoRun() override
    {
        TopologySpec spec;
        spec.kind = TopologyKind::Dumbbell;
        spec.hostsPerSide = 2;
        ImpairmentSpec imp;
        imp.loss = 0.1;
        imp.reorder = ReorderSpec{0.05, MicroSeconds(50)};
        spec.impairLinks.push_back({"right", "left", imp});
        BuiltTopology t = TopologyBuilder::Build(spec);
        uint32_t impaired = 0;
        for (const BuiltLink& l : t.links)
        {
            const bool mid = l.tier == LinkTier::Bottleneck;
            NS_TEST_EXPECT_MSG_EQ(bool(l.lossAtA && l.lossAtB), mid, l.a << "--" << l.b);
            NS_TEST_EXPECT_MSG_EQ(bool(l.reorder), mid, l.a << "--" << l.b);
            impaired += mid;
        }
        NS_TEST_EXPECT_MSG_EQ(impaired, 1u, "just the bottleneck");

        // Across the bottleneck: 10% of 5000 packets lost (sigma 0.004), some reordered;
        // within one side nothing happens.
        SeqSink across(t.GetNode("h2"), 9000);
        SeqSink local(t.GetNode("h1"), 9000);
        const uint32_t n = 5000;
        StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h2"), 9000, n, MicroSeconds(2));
        StartUdpFlow(t.GetNode("h0"), t.GetHostAddress("h1"), 9000, n, MicroSeconds(2));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        const double loss = 1.0 - double(across.received) / n;
        std::cout << "bottleneck: loss " << loss << ", out of order " << across.outOfOrder
                  << "; local: " << local.received << " received" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(loss, 0.1, 0.02, "loss across the bottleneck");
        NS_TEST_EXPECT_MSG_GT(across.outOfOrder, 0u, "reordered across the bottleneck");
        NS_TEST_EXPECT_MSG_EQ(local.received, uint64_t(n), "no loss on the near side");
        NS_TEST_EXPECT_MSG_EQ(local.outOfOrder, 0u, "no reordering on the near side");
        NS_TEST_EXPECT_MSG_EQ(t.AssignStreams(50), 3, "two loss models and one channel");
        Simulator::Destroy();
    }
};

class ImpairmentsSuite : public TestSuite
{
  public:
    ImpairmentsSuite()
        : TestSuite("iwarp-impairments", UNIT)
    {
        AddTestCase(new RandomLossTest, TestCase::QUICK);
        AddTestCase(new GilbertElliottModelTest, TestCase::QUICK);
        AddTestCase(new GilbertElliottLinkTest, TestCase::QUICK);
        AddTestCase(new ReorderingTest, TestCase::QUICK);
        AddTestCase(new PlacementTest, TestCase::QUICK);
    }
};

ImpairmentsSuite g_impairmentsSuite;

} // namespace
