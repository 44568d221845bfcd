/*
 * iwarp-flow-arrivals: the arrival process of model/traffic/flow-arrivals.h (issue 28): over 100,000 flows a
 * host's arrivals are Poisson at the rate its load asks (mean gap within 1 %, index of dispersion of counts in
 * fixed windows within 5 % of 1), the offered load is within 5 % of the target (here: 2 %), all-to-all never
 * picks the sender and spreads evenly, a permutation is a derangement, a host's flows depend only on its own
 * streams, and bad input is refused with what is wrong.
 */
#include "traffic/flow-arrivals.h"

#include "support/thrown-message.h"

#include "ns3/test.h"

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

namespace ns3
{
namespace
{

const FlowSizeDistribution&
WebSearch()
{
    return *FindBuiltInFlowSizeDistribution("web-search");
}

constexpr int kFlows = 100000;

class PoissonTestCase : public TestCase
{
  public:
    PoissonTestCase()
        : TestCase("100,000 flows: Poisson at the load's rate, offered load within 2 % of the target")
    {
    }

  private:
    void DoRun() override
    {
        const double rate = 100e9;
        const double load = 0.6;
        FlowArrivals arrivals(WebSearch(), {rate, rate, rate, rate}, load, TrafficPattern::AllToAll, 7);
        const double lambda = load * rate / (8 * WebSearch().MeanOctets());
        NS_TEST_EXPECT_MSG_EQ_TOL(arrivals.FlowsPerSecond(2), lambda, 1e-9 * lambda, "load x rate / (8 x mean)");

        std::vector<double> at; // arrival times of host 2's flows, in seconds
        double t = 0;
        double octets = 0;
        double sumGap2 = 0;
        for (int i = 0; i < kFlows; ++i)
        {
            const FlowArrival a = arrivals.Next(2);
            t += a.gap.GetSeconds();
            sumGap2 += a.gap.GetSeconds() * a.gap.GetSeconds();
            octets += double(a.octets);
            at.push_back(t);
        }
        const double meanGap = t / kFlows;
        NS_TEST_EXPECT_MSG_EQ_TOL(meanGap, 1 / lambda, 0.01 / lambda, "mean gap");
        const double cv = std::sqrt(sumGap2 / kFlows - meanGap * meanGap) / meanGap;
        NS_TEST_EXPECT_MSG_EQ_TOL(cv, 1.0, 0.02, "exponential gaps: standard deviation = mean");

        // Counts in windows of ten mean gaps: a Poisson process's have variance = mean.
        const double window = 10 / lambda;
        std::vector<double> counts(std::size_t(t / window), 0.0);
        for (double x : at)
        {
            if (std::size_t(x / window) < counts.size())
            {
                counts[std::size_t(x / window)] += 1;
            }
        }
        double sum = 0;
        double sum2 = 0;
        for (double c : counts)
        {
            sum += c;
            sum2 += c * c;
        }
        const double mean = sum / counts.size();
        const double dispersion = (sum2 / counts.size() - mean * mean) / mean;
        NS_TEST_EXPECT_MSG_EQ_TOL(dispersion, 1.0, 0.05, "index of dispersion of counts in windows");

        const double offered = octets * 8 / t / rate;
        NS_TEST_EXPECT_MSG_EQ_TOL(offered, load, 0.02 * load, "offered load (payload octets over link rate)");
    }
};

class PatternsTestCase : public TestCase
{
  public:
    PatternsTestCase()
        : TestCase("all-to-all: never the sender, even spread; permutation: a fixed derangement")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<double> rates(8, 10e9);
        FlowArrivals all(WebSearch(), rates, 0.3, TrafficPattern::AllToAll, 100);
        std::vector<int> hits(8, 0);
        for (int i = 0; i < kFlows; ++i)
        {
            ++hits.at(all.Next(3).to);
        }
        NS_TEST_EXPECT_MSG_EQ(hits[3], 0, "never to itself");
        for (int h = 0; h < 8; ++h)
        {
            if (h != 3)
            {
                // 100,000 / 7 = 14,286 each, standard deviation 111: within 3 % is over 3.5 of them.
                NS_TEST_EXPECT_MSG_EQ_TOL(hits[h], kFlows / 7.0, 0.03 * kFlows / 7, "host " << h << "'s share");
            }
        }

        FlowArrivals perm(WebSearch(), rates, 0.3, TrafficPattern::Permutation, 200);
        std::set<uint32_t> receivers;
        for (std::size_t h = 0; h < 8; ++h)
        {
            const uint32_t peer = perm.PermutationPeer(h);
            NS_TEST_EXPECT_MSG_NE(peer, h, "no host sends to itself");
            receivers.insert(peer);
            for (int i = 0; i < 100; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(perm.Next(h).to, peer, "always the same destination");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(receivers.size(), 8u, "every host receives from exactly one");
    }
};

class StreamsTestCase : public TestCase
{
  public:
    StreamsTestCase()
        : TestCase("a host's flows depend on its own streams only; unequal links, unequal rates")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<double> rates{10e9, 40e9, 10e9};
        FlowArrivals alone(WebSearch(), rates, 0.5, TrafficPattern::AllToAll, 300);
        FlowArrivals mixed(WebSearch(), rates, 0.5, TrafficPattern::AllToAll, 300);
        bool same = true;
        for (int i = 0; i < 1000; ++i)
        {
            mixed.Next(1); // asking another host in between changes nothing of host 0's
            const FlowArrival a = alone.Next(0);
            const FlowArrival b = mixed.Next(0);
            same = same && a.gap == b.gap && a.to == b.to && a.octets == b.octets;
        }
        NS_TEST_EXPECT_MSG_EQ(same, true, "host 0's flows, with and without host 1 drawn in between");
        FlowArrivals other(WebSearch(), rates, 0.5, TrafficPattern::AllToAll, 301);
        NS_TEST_EXPECT_MSG_NE(other.Next(0).gap, FlowArrivals(WebSearch(), rates, 0.5, TrafficPattern::AllToAll, 300)
                                                     .Next(0)
                                                     .gap,
                              "another stream, other flows");
        NS_TEST_EXPECT_MSG_EQ_TOL(alone.FlowsPerSecond(1), 4 * alone.FlowsPerSecond(0),
                                  1e-9 * alone.FlowsPerSecond(1), "a 40G host offers four times a 10G one's flows");
        NS_TEST_EXPECT_MSG_EQ(FlowArrivals::StreamsUsed(3), 10, "three per host and the permutation's");
    }
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: one host, a load outside (0, 1], a host without a rate")
    {
    }

  private:
    void DoRun() override
    {
        auto why = [](std::vector<double> rates, double load) {
            return ThrownMessage<std::invalid_argument>(
                [&] { FlowArrivals(WebSearch(), rates, load, TrafficPattern::AllToAll, 1); });
        };
        NS_TEST_EXPECT_MSG_EQ(why({1e9}, 0.5), "a load needs at least two hosts", "one host");
        NS_TEST_EXPECT_MSG_NE(why({1e9, 1e9}, 0).find("load 0 is not in (0, 1]"), std::string::npos, "zero");
        NS_TEST_EXPECT_MSG_NE(why({1e9, 1e9}, 1.5).find("load 1.5"), std::string::npos, "overload");
        NS_TEST_EXPECT_MSG_NE(why({1e9, 1e9}, std::nan("")).find("is not in"), std::string::npos, "NaN");
        NS_TEST_EXPECT_MSG_EQ(why({1e9, 0}, 0.5), "host 1 has no link rate", "no rate");
        NS_TEST_EXPECT_MSG_EQ(why({1e9, 1e9}, 1.0), "", "a full load is allowed");
    }
};

class FlowArrivalsTestSuite : public TestSuite
{
  public:
    FlowArrivalsTestSuite()
        : TestSuite("iwarp-flow-arrivals", UNIT)
    {
        AddTestCase(new PoissonTestCase, TestCase::QUICK);
        AddTestCase(new PatternsTestCase, TestCase::QUICK);
        AddTestCase(new StreamsTestCase, TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
    }
};

FlowArrivalsTestSuite g_flowArrivalsTestSuite;

} // namespace
} // namespace ns3
