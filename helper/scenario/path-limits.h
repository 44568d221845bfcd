/*
 * What the paths of a built topology allow: per pair of hosts, the bottleneck rate, the payload rate
 * for a given header overhead and the propagation delay, read once from the built devices (every
 * override applied; read before the run, as built, when events change links in it: Widen), over the shortest paths by hops that the routes follow (doc/topology.md).
 * With several equal-cost paths the most permissive figure of them is taken, so that a bound derived
 * from it holds whichever path a flow hashes to.  The physics checks (physics-checks.h) derive their
 * bounds from it and the runner sizes `auto` socket buffers from it (scenario-transport.h).
 *
 *   const Paths paths(topo);
 *   PathLimits p = paths.Limits("h0", "h5", 52);   // p.bottleneckBps, p.payloadLimitBps, p.propagation
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_PATH_LIMITS_H
#define IWARP_SCENARIO_PATH_LIMITS_H

#include "helper/topology/topology-builder.h"

#include "ns3/nstime.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** PPP's protocol field, on the wire beside the MTU-sized IP packet. */
constexpr uint32_t kPppOctets = 2;

/** What bounds a flow on one link, read once per run from the built devices (overrides applied). */
struct EdgeFacts
{
    double rateBps{0};
    Time delay;
    uint32_t mtu{1500};
};

/**
 * A flow's full packets: `overhead` header octets each and at most `maxPayload` payload octets (RoCEv2 sends
 * its queue pairs' Mtu of payload, 1,024 octets by default, however large the link's MTU); a number converts,
 * as packets of that overhead filling the MTU.
 */
struct PacketShape
{
    PacketShape(uint32_t headerOctets, uint32_t maxPayloadOctets = std::numeric_limits<uint32_t>::max())
        : overhead(headerOctets),
          maxPayload(maxPayloadOctets)
    {
    }

    uint32_t overhead;
    uint32_t maxPayload;
};

/**
 * The link's rate x payload / (payload + overhead + PPP), payload = min(MTU - overhead, the shape's most): the
 * payload rate of full packets.
 */
double PayloadRate(const EdgeFacts& e, PacketShape shape);

/** What the shortest paths between two hosts allow (the most permissive of them, so that bounds hold). */
struct PathLimits
{
    double bottleneckBps{0};   ///< the highest bottleneck rate over the shortest paths
    double payloadLimitBps{0}; ///< the highest bottleneck payload rate for the given overhead
    Time propagation;          ///< the smallest sum of link delays
    Time serialisation;        ///< the smallest sum, link by link, of one full-size packet's transmission
};

/** The topology's links and vertices, read once, and the limits of the paths between hosts. */
class Paths
{
  public:
    explicit Paths(const BuiltTopology& topo);

    /** Limits of the shortest paths from `src` to `dst`; std::invalid_argument if none joins them. */
    PathLimits Limits(const std::string& src, const std::string& dst, PacketShape shape) const;

    /** Limits of the shortest paths from `src` to every other host it reaches, by host name. */
    std::map<std::string, PathLimits> LimitsToHosts(const std::string& src, PacketShape shape) const;

    /**
     * The links of one shortest path from `src` to `dst`, in order (the one whose every hop is the first found
     * breadth-first; a generated fabric's shortest paths are alike). std::invalid_argument if none joins them.
     */
    std::vector<EdgeFacts> Hops(const std::string& src, const std::string& dst) const;

    /** The payload rate of all of a host's own links together. */
    double HostLimit(const std::string& host, PacketShape shape) const;

    /**
     * Let link `link` have had `rateBps` and `delay` too (a scenario's link-change): its rate becomes the
     * higher of the two and its delay the lower, so that bounds drawn from these hold over the whole run.
     */
    void Widen(uint32_t link, double rateBps, Time delay);

  private:
    /** Limits from `src` to every vertex (hops -1: unreachable), by vertex. */
    std::vector<std::pair<int, PathLimits>> FromVertex(const std::string& src, PacketShape shape) const;

    const BuiltTopology& m_topo;
    std::vector<EdgeFacts> m_links; ///< by BuiltTopology link index
    std::map<std::string, std::size_t> m_vertex;
};

} // namespace ns3

#endif // IWARP_SCENARIO_PATH_LIMITS_H
