/*
 * FlowArrivals: the flows of a data-center load, host by host: when each host starts its next flow, to whom,
 * and how large, as the transport papers' generators make them (DCTCP, pFabric, HPCC): every sending host
 * starts flows in a Poisson process whose rate offers `load` of its link,
 *
 *     flows per second of host h = load x rate(h) / (8 x mean flow size in octets),
 *
 * the sizes drawn from a FlowSizeDistribution and the destination from the pattern. The load counts payload
 * octets (the flows' sizes) against the link's bit rate; headers come on top (doc/traffic.md).
 *
 * Nothing is kept per flow: each host has its own three random streams (gap, size, destination), so a host's
 * flows do not depend on how often the others are asked, and a seed gives the same flows.
 */
/**
 * \file
 * \ingroup iwarp-traffic
 */
#ifndef IWARP_FLOW_ARRIVALS_H
#define IWARP_FLOW_ARRIVALS_H

#include "traffic/flow-size-distribution.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** Whom a host's flows go to. */
enum class TrafficPattern
{
    AllToAll,    ///< each flow to a host drawn uniformly from the others
    Permutation, ///< each host to one fixed other host, every host receiving from exactly one (a random derangement)
};

/** "all-to-all", "permutation". */
const char* ToString(TrafficPattern p);
/** Every pattern's name, in declaration order. */
std::vector<std::string> TrafficPatternNames();

/** One flow a host starts. */
struct FlowArrival
{
    Time gap;        ///< since the host's previous flow (its first: since the load starts)
    uint32_t to{0};  ///< the destination's index among the hosts
    uint64_t octets{0};
};

class FlowArrivals
{
  public:
    /** The streams it uses from `firstStream` on, for `hosts` hosts (three per host, one for the permutation). */
    static int64_t StreamsUsed(std::size_t hosts) { return int64_t(3 * hosts + 1); }

    /**
     * Flows among `hostRateBps.size()` hosts (at least two), host i's link running at hostRateBps[i] bit/s
     * (> 0), at `load` in (0, 1]. Throws std::invalid_argument naming what is wrong.
     */
    FlowArrivals(FlowSizeDistribution sizes,
                 std::vector<double> hostRateBps,
                 double load,
                 TrafficPattern pattern,
                 int64_t firstStream);

    std::size_t Hosts() const { return m_hosts.size(); }
    double Load() const { return m_load; }
    TrafficPattern Pattern() const { return m_pattern; }
    const FlowSizeDistribution& Sizes() const { return m_sizes; }
    /** Host `host`'s flows per second (the Poisson rate). */
    double FlowsPerSecond(std::size_t host) const;
    /** Permutation: host `host`'s one destination. */
    uint32_t PermutationPeer(std::size_t host) const { return m_permutation.at(host); }

    /** Host `host`'s next flow. */
    FlowArrival Next(std::size_t host);

  private:
    struct HostStreams
    {
        Ptr<ExponentialRandomVariable> gap;
        Ptr<EmpiricalRandomVariable> size;
        Ptr<UniformRandomVariable> peer;
        double meanGapSeconds{0};
    };

    FlowSizeDistribution m_sizes;
    double m_load;
    TrafficPattern m_pattern;
    std::vector<HostStreams> m_hosts;
    std::vector<uint32_t> m_permutation; ///< Permutation only
};

} // namespace ns3

#endif // IWARP_FLOW_ARRIVALS_H
