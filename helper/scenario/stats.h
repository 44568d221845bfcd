/*
 * Summary statistics of a sample (latencies), with one stated definition of a percentile so that
 * numbers from different runs and tools can be compared.
 *
 * Percentiles are nearest-rank: the p-th percentile of n sorted samples x[1..n] is x[ceil(p/100 * n)]
 * (x[1] for p = 0).  It is always one of the samples, never an interpolation, so p99 of 100 samples
 * is the 99th smallest and p50 of {1, 2, 3, 4} is 2.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_STATS_H
#define IWARP_SCENARIO_STATS_H

#include <cstddef>
#include <vector>

namespace ns3
{

struct SampleStats
{
    std::size_t count{0};
    double min{0};
    double p50{0};
    double p99{0};
    double max{0};
    double mean{0};
};

/** Nearest-rank percentile, p in [0, 100], of `sorted` (ascending, not empty). */
double NearestRankPercentile(const std::vector<double>& sorted, double p);

/** The statistics of `samples` (any order); count 0 and zeros for an empty sample. */
SampleStats ComputeStats(std::vector<double> samples);

} // namespace ns3

#endif // IWARP_SCENARIO_STATS_H
