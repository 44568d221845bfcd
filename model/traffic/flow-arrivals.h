/*
 * FlowArrivals: the flows of a data-center load, host by host: when each host starts its next flow, to whom,
 * and how large, as the transport papers' generators make them (DCTCP, pFabric, HPCC): every sending host
 * starts flows in a Poisson process whose rate offers `load` of its link,
 *
 *     flows per second of host h = load x rate(h) / (8 x mean flow size in octets),
 *
 * the sizes drawn from a FlowSizeDistribution and the destination from the pattern: all-to-all, a permutation,
 * many-to-one (a fraction of incast towards one target, the rest all-to-all) or explicit sender-receiver pairs
 * (where a host with no destination sends nothing: Sends tells the caller not to schedule it). The load counts
 * payload octets (the flows' sizes) against the link's bit rate; headers come on top (doc/traffic.md).
 *
 * Nothing is kept per flow: each host has its own three random streams (gap, size, destination), so a host's
 * flows do not depend on how often the others are asked, and a seed gives the same flows. Every pattern's
 * per-flow destination draws (the incast coin included) come from the host's destination stream, so the
 * number of streams does not depend on the pattern.
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
    ManyToOne,   ///< each other host's flow to the target with the incast fraction, else as all-to-all
    Pairs,       ///< each flow to a host drawn uniformly from the sender's own list of destinations
};

/** "all-to-all", "permutation", "many-to-one", "pairs". */
const char* ToString(TrafficPattern p);
/** Every pattern's name, in declaration order. */
std::vector<std::string> TrafficPatternNames();

/** A pattern with its parameters; the fields of the other patterns are ignored. */
struct TrafficPatternSpec
{
    TrafficPattern kind{TrafficPattern::AllToAll};
    uint32_t target{0};       ///< ManyToOne: the host the incast goes to
    double incastFraction{0}; ///< ManyToOne: the share of each other host's flows sent to the target, in [0, 1]
    /**
     * Pairs: per host, whom it sends to (one list per host; empty: it starts no flow). A host listed twice
     * in a list gets twice the share: the draw is uniform over the list's entries.
     */
    std::vector<std::vector<uint32_t>> destinations;
};

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
     * (> 0), at `load` in (0, 1], whom to as `pattern` says. Throws std::invalid_argument naming what is
     * wrong (for the pattern: the hosts concerned).
     */
    FlowArrivals(FlowSizeDistribution sizes,
                 std::vector<double> hostRateBps,
                 double load,
                 TrafficPatternSpec pattern,
                 int64_t firstStream);
    /** A pattern without parameters (all-to-all, permutation); the others are refused. */
    FlowArrivals(FlowSizeDistribution sizes,
                 std::vector<double> hostRateBps,
                 double load,
                 TrafficPattern pattern,
                 int64_t firstStream);

    std::size_t Hosts() const { return m_hosts.size(); }
    double Load() const { return m_load; }
    TrafficPattern Pattern() const { return m_spec.kind; }
    const TrafficPatternSpec& PatternSpec() const { return m_spec; }
    const FlowSizeDistribution& Sizes() const { return m_sizes; }
    /** Whether host `host` starts flows at all: false only for a host with no destination in Pairs. */
    bool Sends(std::size_t host) const;
    /** Host `host`'s flows per second (the Poisson rate); 0 for a host that does not send. */
    double FlowsPerSecond(std::size_t host) const;
    /** Permutation: host `host`'s one destination. */
    uint32_t PermutationPeer(std::size_t host) const { return m_permutation.at(host); }

    /** Host `host`'s next flow; std::logic_error for a host that does not send. */
    FlowArrival Next(std::size_t host);

  private:
    struct HostStreams
    {
        Ptr<ExponentialRandomVariable> gap;
        Ptr<EmpiricalRandomVariable> size;
        Ptr<UniformRandomVariable> peer; ///< every per-flow destination draw
        double meanGapSeconds{0};
    };

    /** Host `host`'s next flow's destination, drawn from its peer stream as the pattern says. */
    uint32_t Destination(std::size_t host);
    /** A host drawn uniformly from all but `host`. */
    uint32_t AnyOther(std::size_t host);

    FlowSizeDistribution m_sizes;
    double m_load;
    TrafficPatternSpec m_spec;
    std::vector<HostStreams> m_hosts;
    std::vector<uint32_t> m_permutation; ///< Permutation only
};

} // namespace ns3

#endif // IWARP_FLOW_ARRIVALS_H
