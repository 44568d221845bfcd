/*
 * iwarp-flow-sizes: the flow-size distributions of model/traffic (issue 28's first step): the built-in ones
 * are the published points with their sources; a CDF file is read as doc/traffic.md says and refused, with the
 * line, when it is no CDF; the mean is exact for the piecewise-linear CDF, and draws follow it (Kolmogorov-Smirnov
 * at the 1 % level, their mean and quartiles), are whole octets within its range, and repeat with the stream.
 */
#include "traffic/flow-size-distribution.h"

#include "support/thrown-message.h"

#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace ns3
{
namespace
{

std::string
ParseError(const std::string& text)
{
    return ThrownMessage<std::invalid_argument>([&] { FlowSizeDistribution::Parse(text, "f.cdf", "test"); });
}

class BuiltInTestCase : public TestCase
{
  public:
    BuiltInTestCase()
        : TestCase("built in: web-search, data-mining and hadoop, each with its source and its published range")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> names;
        for (const FlowSizeDistribution& d : BuiltInFlowSizeDistributions())
        {
            names.push_back(d.Name());
            NS_TEST_EXPECT_MSG_NE(d.Source().find("SIGCOMM"), std::string::npos, d.Name() << ": the paper");
            NS_TEST_EXPECT_MSG_EQ(d.Points().front().fraction, 0.0, d.Name());
            NS_TEST_EXPECT_MSG_EQ(d.Points().back().fraction, 1.0, d.Name());
        }
        NS_TEST_EXPECT_MSG_EQ((names == std::vector<std::string>{"web-search", "data-mining", "hadoop"}), true,
                              "the three of the literature, in this order");
        NS_TEST_EXPECT_MSG_EQ((FindBuiltInFlowSizeDistribution("websearch") == nullptr), true, "no other spelling");
        // The largest flows and the medians the papers' figures show.
        const FlowSizeDistribution& web = *FindBuiltInFlowSizeDistribution("web-search");
        const FlowSizeDistribution& mining = *FindBuiltInFlowSizeDistribution("data-mining");
        const FlowSizeDistribution& hadoop = *FindBuiltInFlowSizeDistribution("hadoop");
        NS_TEST_EXPECT_MSG_EQ(web.MaxOctets(), 30e6, "web search: up to 30 MB");
        NS_TEST_EXPECT_MSG_EQ(mining.MaxOctets(), 1e9, "data mining: up to 1 GB");
        NS_TEST_EXPECT_MSG_EQ(hadoop.MaxOctets(), 10e6, "hadoop: up to 10 MB");
        NS_TEST_EXPECT_MSG_EQ(mining.Quantile(0.5), 1100.0, "data mining: half the flows at most 1.1 KB");
        NS_TEST_EXPECT_MSG_EQ(hadoop.Quantile(0.5), 700.0, "hadoop: half at most 700 octets");
        NS_TEST_EXPECT_MSG_EQ_TOL(web.Quantile(0.5), 73076.9, 0.1, "web search: the median, between 50 and 80 KB");
        // The means by the points (documented in doc/traffic.md), heavy tails all.
        NS_TEST_EXPECT_MSG_EQ_TOL(web.MeanOctets(), 1711250.0, 1e-3, "web search");
        NS_TEST_EXPECT_MSG_EQ_TOL(mining.MeanOctets(), 12658198.6, 1e-3, "data mining");
        NS_TEST_EXPECT_MSG_EQ_TOL(hadoop.MeanOctets(), 120420.75, 1e-3, "hadoop");
    }
};

class FileTestCase : public TestCase
{
  public:
    FileTestCase()
        : TestCase("a CDF file: points, comments and percentages read; anything else refused at its line")
    {
    }

  private:
    void DoRun() override
    {
        const FlowSizeDistribution d =
            FlowSizeDistribution::Parse("# two stretches\n0 0\n\n100 0.5   # half up to 100\n200 1\n", "f", "mine");
        NS_TEST_ASSERT_MSG_EQ(d.Points().size(), 3u, "comments and blank lines skipped");
        NS_TEST_EXPECT_MSG_EQ(d.MeanOctets(), 100.0, "0.5 x 50 + 0.5 x 150");
        NS_TEST_EXPECT_MSG_EQ(d.Quantile(0.75), 150.0, "linear between the points");
        NS_TEST_EXPECT_MSG_EQ(d.CumulativeFraction(150), 0.75, "and the CDF, its inverse");
        NS_TEST_EXPECT_MSG_EQ(d.CumulativeFraction(0), 0.0, "nothing at or below the smallest");
        NS_TEST_EXPECT_MSG_EQ(d.CumulativeFraction(500), 1.0, "everything below a size past the largest");
        NS_TEST_EXPECT_MSG_EQ(d.Source(), "mine", "its source kept");
        const FlowSizeDistribution pct = FlowSizeDistribution::Parse("0 0\n100 50\n200 100\n", "p", "");
        NS_TEST_EXPECT_MSG_EQ(pct.Points()[1].fraction, 0.5, "percentages when the last is 100");

        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n100 x\n"),
                              "f.cdf:2: expected \"<size in octets> <cumulative fraction>\", got \"100 x\"", "a word");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n100 0.5 7\n200 1\n"),
                              "f.cdf:2: expected \"<size in octets> <cumulative fraction>\", got \"100 0.5 7\"",
                              "a third number");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n200 0.5\n100 1\n"),
                              "f.cdf:3: sizes must increase and fractions must not decrease from one point to the "
                              "next",
                              "sizes out of order");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n100 0.6\n200 0.5\n300 1\n"),
                              "f.cdf:3: sizes must increase and fractions must not decrease from one point to the "
                              "next",
                              "a fraction that falls");
        NS_TEST_EXPECT_MSG_EQ(ParseError("10 0.1\n200 1\n"),
                              "f.cdf:1: the first point's fraction must be 0 (no flow is smaller than its size)",
                              "no start at 0");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n200 0.9\n"),
                              "f.cdf:2: the last point's fraction must be 1 (no flow is larger than its size)",
                              "no end at 1");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n-5 1\n"), "f.cdf:2: a size is a number of octets, at least 0",
                              "a negative size");
        NS_TEST_EXPECT_MSG_EQ(ParseError("0 0\n5 1.5\n"),
                              "f.cdf:2: a cumulative fraction is in [0, 1] (or a percentage, when the last is 100)",
                              "a fraction above 1");
        NS_TEST_EXPECT_MSG_EQ(ParseError("# nothing\n"),
                              "f.cdf:1: a distribution needs at least two points (the first at fraction 0, the last "
                              "at 1)",
                              "an empty file");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([] { (void)FlowSizeDistribution("x", "", {{0, 0}, {0.4, 1}}); }),
                              "x: point 2: the largest size must be at least one octet", "no flow of a whole octet");
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([&] { (void)d.Quantile(1.5); }),
                              "f: a quantile is taken at a fraction in [0, 1]", "a quantile outside [0, 1]");
    }
};

class DrawsTestCase : public TestCase
{
  public:
    DrawsTestCase()
        : TestCase("draws follow the CDF: KS, mean and quartiles of 200,000 flows, whole octets in range, repeatable")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(1);
        // The sampling error of the mean, 3 standard errors: the data-mining tail (2 % of flows of 0.1-1 GB)
        // makes its mean the slowest to settle.
        const std::vector<std::pair<std::string, double>> tolerance = {
            {"web-search", 0.02}, {"data-mining", 0.05}, {"hadoop", 0.03}};
        constexpr std::size_t kDraws = 200000;
        int64_t stream = 100;
        for (const auto& [name, tol] : tolerance)
        {
            const FlowSizeDistribution& d = *FindBuiltInFlowSizeDistribution(name);
            Ptr<EmpiricalRandomVariable> s = d.MakeSampler(stream);
            std::vector<uint64_t> sizes(kDraws);
            double sum = 0;
            for (uint64_t& x : sizes)
            {
                x = FlowSizeDistribution::Draw(s);
                sum += double(x);
            }
            const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*lo, 1u, name << ": at least one octet");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(double(*hi), d.MaxOctets(), name << ": at most the largest size");
            NS_TEST_EXPECT_MSG_EQ_TOL(sum / kDraws, d.MeanOctets(), tol * d.MeanOctets(), name << ": the mean");
            std::sort(sizes.begin(), sizes.end());
            // Kolmogorov-Smirnov against the CDF, at the 1 % level: D below 1.628 / sqrt(n) (the asymptotic
            // critical value). A draw k is a rounded size, so P(X <= k) is the CDF at k + 0.5.
            double ks = 0;
            for (std::size_t i = 0; i < kDraws; ++i)
            {
                if (i + 1 < kDraws && sizes[i + 1] == sizes[i])
                {
                    continue; // the empirical CDF steps at the last of equal draws
                }
                const double cdf = d.CumulativeFraction(double(sizes[i]) + 0.5);
                ks = std::max({ks, std::abs(double(i + 1) / kDraws - cdf)});
            }
            NS_TEST_EXPECT_MSG_LT(ks, 1.628 / std::sqrt(double(kDraws)), name << ": Kolmogorov-Smirnov D");
            for (double q : {0.25, 0.5, 0.75})
            {
                const double drawn = double(sizes[std::size_t(q * kDraws)]);
                NS_TEST_EXPECT_MSG_EQ_TOL(drawn, d.Quantile(q), 0.02 * d.Quantile(q) + 1, name << ": quantile " << q);
            }
            // The same stream again: the same flows.
            Ptr<EmpiricalRandomVariable> again = d.MakeSampler(stream);
            Ptr<EmpiricalRandomVariable> first = d.MakeSampler(stream);
            bool same = true;
            for (int i = 0; i < 1000; ++i)
            {
                same = same && FlowSizeDistribution::Draw(again) == FlowSizeDistribution::Draw(first);
            }
            NS_TEST_EXPECT_MSG_EQ(same, true, name << ": a stream repeats its flows");
            ++stream;
        }
    }
};

class FlowSizesTestSuite : public TestSuite
{
  public:
    FlowSizesTestSuite()
        : TestSuite("iwarp-flow-sizes", UNIT)
    {
        AddTestCase(new BuiltInTestCase, TestCase::QUICK);
        AddTestCase(new FileTestCase, TestCase::QUICK);
        AddTestCase(new DrawsTestCase, TestCase::QUICK);
    }
};

FlowSizesTestSuite g_flowSizesTestSuite;

} // namespace
} // namespace ns3
