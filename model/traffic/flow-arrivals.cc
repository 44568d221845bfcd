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

/** "there are 8 hosts (0 to 7)": what an index out of range is measured against. */
std::string
HostRange(std::size_t hosts)
{
    return "there are " + std::to_string(hosts) + " hosts (0 to " + std::to_string(hosts - 1) + ")";
}

void
CheckManyToOne(const TrafficPatternSpec& spec, std::size_t hosts)
{
    if (spec.target >= hosts)
    {
        throw std::invalid_argument("many-to-one target host " + std::to_string(spec.target) +
                                    " is out of range: " + HostRange(hosts));
    }
    if (!(spec.incastFraction >= 0 && spec.incastFraction <= 1))
    {
        std::ostringstream why;
        why << "incast fraction " << spec.incastFraction
            << " is not in [0, 1]: it is the share of each other host's flows sent to the target";
        throw std::invalid_argument(why.str());
    }
}

void
CheckPairs(const TrafficPatternSpec& spec, std::size_t hosts)
{
    if (spec.destinations.size() != hosts)
    {
        throw std::invalid_argument("the pairs give destinations for " + std::to_string(spec.destinations.size()) +
                                    " hosts, but there are " + std::to_string(hosts) + ": one list per host");
    }
    bool anyone = false;
    for (std::size_t h = 0; h < hosts; ++h)
    {
        for (uint32_t to : spec.destinations[h])
        {
            if (to >= hosts)
            {
                throw std::invalid_argument("host " + std::to_string(h) + "'s destination " + std::to_string(to) +
                                            " is out of range: " + HostRange(hosts));
            }
            if (to == h)
            {
                throw std::invalid_argument("host " + std::to_string(h) + " lists itself as a destination");
            }
        }
        anyone = anyone || !spec.destinations[h].empty();
    }
    if (!anyone)
    {
        // A load nobody offers would end before it starts: more likely a mistake than a wish.
        throw std::invalid_argument("no host has a destination in the pairs: the load would start no flow");
    }
}

/** For the parameter-free constructor: a spec of `p`, refusing the patterns that need parameters. */
TrafficPatternSpec
WithoutParameters(TrafficPattern p)
{
    if (p != TrafficPattern::AllToAll && p != TrafficPattern::Permutation)
    {
        // Defaults (target 0, no incast; nobody sends) would be a silent guess: ask for them instead.
        throw std::invalid_argument(std::string("pattern ") + ToString(p) +
                                    " takes parameters: give it a TrafficPatternSpec");
    }
    TrafficPatternSpec spec;
    spec.kind = p;
    return spec;
}

} // namespace

const char*
ToString(TrafficPattern p)
{
    switch (p)
    {
    case TrafficPattern::AllToAll:
        return "all-to-all";
    case TrafficPattern::Permutation:
        return "permutation";
    case TrafficPattern::ManyToOne:
        return "many-to-one";
    case TrafficPattern::Pairs:
        return "pairs";
    }
    return "?";
}

std::vector<std::string>
TrafficPatternNames()
{
    return {ToString(TrafficPattern::AllToAll),
            ToString(TrafficPattern::Permutation),
            ToString(TrafficPattern::ManyToOne),
            ToString(TrafficPattern::Pairs)};
}

FlowArrivals::FlowArrivals(FlowSizeDistribution sizes,
                           std::vector<double> hostRateBps,
                           double load,
                           TrafficPattern pattern,
                           int64_t firstStream)
    : FlowArrivals(std::move(sizes), std::move(hostRateBps), load, WithoutParameters(pattern), firstStream)
{
}

FlowArrivals::FlowArrivals(FlowSizeDistribution sizes,
                           std::vector<double> hostRateBps,
                           double load,
                           TrafficPatternSpec pattern,
                           int64_t firstStream)
    : m_sizes(std::move(sizes)),
      m_load(load),
      m_spec(std::move(pattern))
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
    if (m_spec.kind == TrafficPattern::ManyToOne)
    {
        CheckManyToOne(m_spec, m_hosts.size());
    }
    if (m_spec.kind == TrafficPattern::Pairs)
    {
        CheckPairs(m_spec, m_hosts.size());
    }
    if (m_spec.kind == TrafficPattern::Permutation)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(firstStream + int64_t(3 * m_hosts.size()));
        m_permutation = RandomDerangement(m_hosts.size(), rng);
    }
}

bool
FlowArrivals::Sends(std::size_t host) const
{
    if (host >= m_hosts.size())
    {
        throw std::out_of_range("host " + std::to_string(host) + " is out of range: " + HostRange(m_hosts.size()));
    }
    return m_spec.kind != TrafficPattern::Pairs || !m_spec.destinations[host].empty();
}

double
FlowArrivals::FlowsPerSecond(std::size_t host) const
{
    return Sends(host) ? 1.0 / m_hosts[host].meanGapSeconds : 0.0;
}

FlowArrival
FlowArrivals::Next(std::size_t host)
{
    if (!Sends(host))
    {
        // The caller should have asked Sends: a flow here would have nowhere to go.
        throw std::logic_error("host " + std::to_string(host) + " has no destination in the pairs: it sends no flow");
    }
    HostStreams& s = m_hosts[host];
    FlowArrival a;
    // Bound 0: ns-3 draws the exponential unbounded.
    a.gap = Seconds(s.gap->GetValue(s.meanGapSeconds, 0));
    a.octets = FlowSizeDistribution::Draw(s.size);
    a.to = Destination(host);
    return a;
}

uint32_t
FlowArrivals::Destination(std::size_t host)
{
    const Ptr<UniformRandomVariable>& peer = m_hosts[host].peer;
    switch (m_spec.kind)
    {
    case TrafficPattern::Permutation:
        return m_permutation[host];
    case TrafficPattern::ManyToOne:
        // The coin comes from the destination stream too, so the pattern needs no stream of its own. Drawn for
        // every flow (f = 0 or 1 included), so a host's k-th flow always uses the same draws.
        if (host != m_spec.target && peer->GetValue(0, 1) < m_spec.incastFraction)
        {
            return m_spec.target;
        }
        return AnyOther(host); // the target may be drawn here too: it is one of the others
    case TrafficPattern::Pairs: {
        const std::vector<uint32_t>& to = m_spec.destinations[host];
        return to[peer->GetInteger(0, uint32_t(to.size() - 1))];
    }
    case TrafficPattern::AllToAll:
        break;
    }
    return AnyOther(host);
}

uint32_t
FlowArrivals::AnyOther(std::size_t host)
{
    // Uniform over the other hosts: draw among n - 1 and skip this one.
    const uint32_t d = m_hosts[host].peer->GetInteger(0, uint32_t(m_hosts.size() - 2));
    return d >= host ? d + 1 : d;
}

} // namespace ns3
