#include "helper/scenario/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

double
NearestRankPercentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty() || !(p >= 0.0 && p <= 100.0))
    {
        throw std::invalid_argument("NearestRankPercentile: empty sample or p outside [0, 100]");
    }
    // Integer arithmetic for the rank where possible: p/100*n in floating point can land a hair
    // above a whole number (0.99 * 100 = 99.00000000000001) and round the rank up by one.
    const double exact = p * double(sorted.size()) / 100.0;
    std::size_t rank = std::size_t(std::ceil(exact - 1e-9));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

SampleStats
ComputeStats(std::vector<double> samples)
{
    SampleStats s;
    if (samples.empty())
    {
        return s;
    }
    std::sort(samples.begin(), samples.end());
    s.count = samples.size();
    s.min = samples.front();
    s.max = samples.back();
    s.p50 = NearestRankPercentile(samples, 50);
    s.p99 = NearestRankPercentile(samples, 99);
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
    return s;
}

} // namespace ns3
