/*
 * iwarp-flow-arrivals: the arrival process of model/traffic/flow-arrivals.h (issue 28): over 100,000 flows a
 * host's arrivals are Poisson at the rate its load asks (mean gap within 1 %, index of dispersion of counts in
 * fixed windows within 5 % of 1), the offered load is within 5 % of the target (here: 2 %), all-to-all never
 * picks the sender and spreads evenly, a permutation is a derangement, a host's flows depend only on its own
 * streams, and bad input is refused with what is wrong. Many-to-one sends the target its share (incast
 * fraction f plus its all-to-all part of the rest), pairs send only to their lists and evenly over them, a host
 * without destinations does not send, and both give the same flows for the same seed.
 *
 * Shares are checked against 4 standard deviations of a binomial count: over N flows a destination drawn with
 * probability p gets N p flows, standard deviation sqrt(N p (1 - p)), so a correct draw strays further about
 * once in 16,000 checks, and a wrong share (the 1/7 of all-to-all instead of 5/14) is over 140 of them away.
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

/** How many of host `host`'s next `flows` flows go to each host. */
std::vector<int>
CountDestinations(FlowArrivals& arrivals, std::size_t host, int flows = kFlows)
{
    std::vector<int> hits(arrivals.Hosts(), 0);
    for (int i = 0; i < flows; ++i)
    {
        ++hits.at(arrivals.Next(host).to);
    }
    return hits;
}

/** 4 standard deviations of the count of kFlows draws that each hit with probability p. */
double
FourSigma(double p)
{
    return 4 * std::sqrt(kFlows * p * (1 - p));
}

/** The flows of the same host in two loads are the same, `flows` of them. */
bool
SameFlows(FlowArrivals& a, FlowArrivals& b, std::size_t host, int flows)
{
    bool same = true;
    for (int i = 0; i < flows; ++i)
    {
        const FlowArrival x = a.Next(host);
        const FlowArrival y = b.Next(host);
        same = same && x.gap == y.gap && x.to == y.to && x.octets == y.octets;
    }
    return same;
}

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

TrafficPatternSpec
ManyToOne(uint32_t target, double f)
{
    TrafficPatternSpec spec;
    spec.kind = TrafficPattern::ManyToOne;
    spec.target = target;
    spec.incastFraction = f;
    return spec;
}

TrafficPatternSpec
Pairs(std::vector<std::vector<uint32_t>> destinations)
{
    TrafficPatternSpec spec;
    spec.kind = TrafficPattern::Pairs;
    spec.destinations = std::move(destinations);
    return spec;
}

class ManyToOneTestCase : public TestCase
{
  public:
    ManyToOneTestCase()
        : TestCase("many-to-one on 8 hosts: the target gets f + (1 - f) over 7 of each other host's flows")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<double> rates(8, 10e9);
        const uint32_t target = 5;
        const double f = 0.25;
        FlowArrivals incast(WebSearch(), rates, 0.3, ManyToOne(target, f), 400);
        const double rate = FlowArrivals(WebSearch(), rates, 0.3, TrafficPattern::AllToAll, 400).FlowsPerSecond(2);
        NS_TEST_EXPECT_MSG_EQ(incast.Sends(target), true, "the target sends too");
        NS_TEST_EXPECT_MSG_EQ_TOL(incast.FlowsPerSecond(2), rate, 1e-9 * rate, "the same Poisson rate as all-to-all");
        // 5/14 = 0.357 of 100,000: 35,714 +- 606; each of the 6 others 3/28: 10,714 +- 391.
        const double toTarget = f + (1 - f) / 7;
        const double toOther = (1 - f) / 7;
        for (std::size_t h = 0; h < 8; ++h)
        {
            const std::vector<int> hits = CountDestinations(incast, h);
            NS_TEST_EXPECT_MSG_EQ(hits[h], 0, "host " << h << " never to itself");
            for (std::size_t d = 0; d < 8; ++d)
            {
                // The target's own flows spread as all-to-all: 1/7 each, 14,286 +- 443.
                const double p = h == target ? 1.0 / 7 : d == target ? toTarget : toOther;
                if (d != h)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(hits[d], kFlows * p, FourSigma(p),
                                              "host " << h << " to host " << d);
                }
            }
        }

        FlowArrivals none(WebSearch(), rates, 0.3, ManyToOne(target, 0), 500);
        for (std::size_t h : {std::size_t(0), std::size_t(target)})
        {
            const std::vector<int> hits = CountDestinations(none, h);
            NS_TEST_EXPECT_MSG_EQ(hits[h], 0, "f = 0: host " << h << " never to itself");
            for (std::size_t d = 0; d < 8; ++d)
            {
                if (d != h)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(hits[d], kFlows / 7.0, FourSigma(1.0 / 7),
                                              "f = 0, as all-to-all: host " << h << " to host " << d);
                }
            }
        }

        FlowArrivals all(WebSearch(), rates, 0.3, ManyToOne(target, 1), 600);
        for (std::size_t h = 0; h < 8; ++h)
        {
            const std::vector<int> hits = CountDestinations(all, h, kFlows / 10);
            if (h == target)
            {
                NS_TEST_EXPECT_MSG_EQ(hits[h], 0, "f = 1: the target never to itself");
                NS_TEST_EXPECT_MSG_GT(hits[0], 0, "f = 1: the target's flows still spread");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(hits[target], kFlows / 10, "f = 1: host " << h << " only to the target");
            }
        }
    }
};

class PairsTestCase : public TestCase
{
  public:
    PairsTestCase()
        : TestCase("pairs: only to a listed host, evenly over the list; a host without destinations does not send")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::vector<uint32_t>> lists{{1, 2, 5}, {0}, {}, {4, 0}, {}, {3}};
        FlowArrivals pairs(WebSearch(), std::vector<double>(6, 10e9), 0.3, Pairs(lists), 700);
        const double rate = FlowArrivals(WebSearch(), std::vector<double>(6, 10e9), 0.3, TrafficPattern::AllToAll, 700)
                                .FlowsPerSecond(0);
        for (std::size_t h = 0; h < lists.size(); ++h)
        {
            if (lists[h].empty())
            {
                NS_TEST_EXPECT_MSG_EQ(pairs.Sends(h), false, "host " << h << " has no destination");
                NS_TEST_EXPECT_MSG_EQ(pairs.FlowsPerSecond(h), 0.0, "host " << h << " starts no flows");
                NS_TEST_EXPECT_MSG_NE(ThrownMessage<std::logic_error>([&] { pairs.Next(h); })
                                          .find("host " + std::to_string(h) + " has no destination"),
                                      std::string::npos, "asking host " << h << " for a flow is a mistake");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(pairs.Sends(h), true, "host " << h << " sends");
            NS_TEST_EXPECT_MSG_EQ_TOL(pairs.FlowsPerSecond(h), rate, 1e-9 * rate, "the load's rate");
            const std::vector<int> hits = CountDestinations(pairs, h);
            // Uniform over a list of k: 1/3 is 33,333 +- 596, 1/2 is 50,000 +- 632, 1 is all of them.
            const double p = 1.0 / lists[h].size();
            int listed = 0;
            for (uint32_t d : lists[h])
            {
                listed += hits[d];
                NS_TEST_EXPECT_MSG_EQ_TOL(hits[d], kFlows * p, FourSigma(p), "host " << h << " to host " << d);
            }
            NS_TEST_EXPECT_MSG_EQ(listed, kFlows, "host " << h << " only to its list");
        }
        NS_TEST_EXPECT_MSG_EQ(FlowArrivals::StreamsUsed(6), 19, "no stream of their own for the new patterns");
    }
};

class SameSeedTestCase : public TestCase
{
  public:
    SameSeedTestCase()
        : TestCase("many-to-one and pairs: the same first stream gives the same flows, another gives others")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<double> rates(4, 10e9);
        const std::vector<TrafficPatternSpec> specs{ManyToOne(2, 0.5), Pairs({{1, 2, 3}, {}, {0, 1}, {0}})};
        for (const TrafficPatternSpec& spec : specs)
        {
            FlowArrivals a(WebSearch(), rates, 0.5, spec, 800);
            FlowArrivals b(WebSearch(), rates, 0.5, spec, 800);
            FlowArrivals c(WebSearch(), rates, 0.5, spec, 900);
            for (std::size_t h = 0; h < rates.size(); ++h)
            {
                if (a.Sends(h))
                {
                    NS_TEST_EXPECT_MSG_EQ(SameFlows(a, b, h, 1000), true, ToString(spec.kind) << " host " << h);
                    NS_TEST_EXPECT_MSG_EQ(SameFlows(a, c, h, 1000), false,
                                          ToString(spec.kind) << " host " << h << ", another stream");
                }
            }
        }
    }
};

class PatternRefusalsTestCase : public TestCase
{
  public:
    PatternRefusalsTestCase()
        : TestCase("refused: destinations out of range, to self, nobody sending; incast fraction, target")
    {
    }

  private:
    void DoRun() override
    {
        auto why = [](const TrafficPatternSpec& spec) {
            return ThrownMessage<std::invalid_argument>(
                [&] { FlowArrivals(WebSearch(), std::vector<double>(4, 1e9), 0.5, spec, 1); });
        };
        auto has = [](const std::string& message, const std::string& part) {
            return message.find(part) != std::string::npos;
        };
        const std::string range = why(Pairs({{1}, {4}, {}, {}}));
        NS_TEST_EXPECT_MSG_EQ((has(range, "host 1's destination 4 is out of range") && has(range, "0 to 3")), true,
                              range);
        NS_TEST_EXPECT_MSG_EQ(why(Pairs({{1}, {0}, {3, 2}, {}})), "host 2 lists itself as a destination", "self");
        NS_TEST_EXPECT_MSG_EQ(has(why(Pairs({{}, {}, {}, {}})), "no host has a destination"), true, "nobody sends");
        NS_TEST_EXPECT_MSG_EQ(has(why(Pairs({{1}, {0}})), "for 2 hosts, but there are 4"), true, "lists missing");
        NS_TEST_EXPECT_MSG_EQ(why(Pairs({{}, {}, {1}, {}})), "", "one sender is enough");

        NS_TEST_EXPECT_MSG_EQ(has(why(ManyToOne(0, 1.5)), "incast fraction 1.5 is not in [0, 1]"), true, "above 1");
        NS_TEST_EXPECT_MSG_EQ(has(why(ManyToOne(0, -0.1)), "incast fraction -0.1"), true, "negative");
        NS_TEST_EXPECT_MSG_EQ(has(why(ManyToOne(0, std::nan(""))), "incast fraction"), true, "NaN");
        NS_TEST_EXPECT_MSG_EQ(has(why(ManyToOne(4, 0.5)), "target host 4 is out of range"), true, "target");
        NS_TEST_EXPECT_MSG_EQ(why(ManyToOne(3, 1)), "", "the last host, all incast, is allowed");

        const std::string bare = ThrownMessage<std::invalid_argument>(
            [] { FlowArrivals(WebSearch(), {1e9, 1e9}, 0.5, TrafficPattern::ManyToOne, 1); });
        NS_TEST_EXPECT_MSG_EQ(has(bare, "many-to-one takes parameters"), true, "no guessed target");
        NS_TEST_EXPECT_MSG_EQ(TrafficPatternNames().size(), 4u, "four names");
        NS_TEST_EXPECT_MSG_EQ(std::string(ToString(TrafficPattern::Pairs)), "pairs", "the name in a scenario");
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
        AddTestCase(new ManyToOneTestCase, TestCase::QUICK);
        AddTestCase(new PairsTestCase, TestCase::QUICK);
        AddTestCase(new SameSeedTestCase, TestCase::QUICK);
        AddTestCase(new PatternRefusalsTestCase, TestCase::QUICK);
    }
};

FlowArrivalsTestSuite g_flowArrivalsTestSuite;

} // namespace
} // namespace ns3
