#include "traffic/flow-arrivals.h"

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace
{

/**
 * A random cyclic permutation (Sattolo's shuffle): one cycle through every host, so no host is its own
 * destination and each receives from exactly one.
 */
std::vector<uint32_t>
RandomDerangement(std::size_t n, const Ptr<UniformRandomVariable>& rng)
{
    std::vector<uint32_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    for (std::size_t i = n - 1; i > 0; --i)
    {
        const std::size_t j = rng->GetInteger(0, uint32_t(i - 1));
        std::swap(p[i], p[j]);
    }
    return p;
}

} // namespace

const char*
ToString(TrafficPattern p)
{
    return p == TrafficPattern::AllToAll ? "all-to-all" : "permutation";
}

std::vector<std::string>
TrafficPatternNames()
{
    return {ToString(TrafficPattern::AllToAll), ToString(TrafficPattern::Permutation)};
}

FlowArrivals::FlowArrivals(FlowSizeDistribution sizes,
                           std::vector<double> hostRateBps,
                           double load,
                           TrafficPattern pattern,
                           int64_t firstStream)
    : m_sizes(std::move(sizes)),
      m_load(load),
      m_pattern(pattern)
{
    if (hostRateBps.size() < 2)
    {
        throw std::invalid_argument("a load needs at least two hosts");
    }
    if (!(load > 0 && load <= 1))
    {
        std::ostringstream why;
        why << "load " << load << " is not in (0, 1]: it is the fraction of each host's link rate offered";
        throw std::invalid_argument(why.str());
    }
    const double meanOctets = m_sizes.MeanOctets();
    for (std::size_t h = 0; h < hostRateBps.size(); ++h)
    {
        if (!(hostRateBps[h] > 0))
        {
            throw std::invalid_argument("host " + std::to_string(h) + " has no link rate");
        }
        HostStreams s;
        s.gap = CreateObject<ExponentialRandomVariable>();
        s.gap->SetStream(firstStream + int64_t(3 * h));
        s.size = m_sizes.MakeSampler(firstStream + int64_t(3 * h + 1));
        s.peer = CreateObject<UniformRandomVariable>();
        s.peer->SetStream(firstStream + int64_t(3 * h + 2));
        s.meanGapSeconds = 8.0 * meanOctets / (load * hostRateBps[h]);
        m_hosts.push_back(s);
    }
    if (pattern == TrafficPattern::Permutation)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(firstStream + int64_t(3 * m_hosts.size()));
        m_permutation = RandomDerangement(m_hosts.size(), rng);
    }
}

double
FlowArrivals::FlowsPerSecond(std::size_t host) const
{
    return 1.0 / m_hosts.at(host).meanGapSeconds;
}

FlowArrival
FlowArrivals::Next(std::size_t host)
{
    HostStreams& s = m_hosts.at(host);
    FlowArrival a;
    // Bound 0: ns-3 draws the exponential unbounded.
    a.gap = Seconds(s.gap->GetValue(s.meanGapSeconds, 0));
    a.octets = FlowSizeDistribution::Draw(s.size);
    if (m_pattern == TrafficPattern::Permutation)
    {
        a.to = m_permutation[host];
    }
    else
    {
        // Uniform over the other hosts: draw among n - 1 and skip this one.
        const uint32_t d = s.peer->GetInteger(0, uint32_t(m_hosts.size() - 2));
        a.to = d >= host ? d + 1 : d;
    }
    return a;
}

} // namespace ns3
