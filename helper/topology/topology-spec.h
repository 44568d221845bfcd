/*
 * TopologySpec: a plain description of a network (which shape, how big, what the links are
 * like, what goes wrong on them). It holds no ns-3 objects, so the scenario runner can fill it
 * from YAML and TopologyBuilder can turn it into nodes, links, addresses and routes
 * (doc/topology.md).
 */
#ifndef IWARP_TOPOLOGY_SPEC_H
#define IWARP_TOPOLOGY_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

enum class TopologyKind
{
    TwoHosts,  ///< h0 -- h1, no switch
    Dumbbell,  ///< N hosts -- left ==bottleneck== right -- N hosts
    LeafSpine, ///< L leaves each with H hosts, every leaf linked to every spine
    FatTree,   ///< k-ary fat-tree (k even): k^3/4 hosts, k^2/4 core, k pods of k/2 agg + k/2 edge
    GraphMl,   ///< read from a GraphML file (node attribute "kind" = host | switch)
};

/** The kind's name in scenario files and messages: "two-hosts", "dumbbell", "leaf-spine", ... */
const char* ToString(TopologyKind kind);

/** Which class of link a set of parameters applies to (per-tier overrides). */
enum class LinkTier
{
    Host,       ///< a link with a host at one end at least
    Fabric,     ///< switch to switch
    Bottleneck, ///< the dumbbell's middle link
};

/** The physical and queueing parameters of one point-to-point link (both directions alike). */
struct LinkParams
{
    DataRate rate{"10Gbps"};
    Time delay{MicroSeconds(1)};
    /** The transmit queue of each device ("100p" packets or "150000B" octets); no queue disc. */
    QueueSize queue{"100p"};
};

/** Gilbert-Elliott two-state loss (the good state is where a burst ends). */
struct GilbertElliottSpec
{
    double pGoodToBad{0.0}; ///< per packet, probability of entering the bad state
    double rBadToGood{1.0}; ///< per packet, probability of leaving it (mean burst ~ 1/r)
    double lossGood{0.0};   ///< loss probability while good
    double lossBad{1.0};    ///< loss probability while bad
};

/** What goes wrong on a link; applied to both directions, each with its own RNG stream. */
struct ImpairmentSpec
{
    double lossRate{0.0};                        ///< independent per-packet loss
    std::optional<GilbertElliottSpec> burstLoss; ///< bursty loss; exclusive with lossRate
    double reorderFraction{0.0};                 ///< share of packets given reorderDelay extra
    Time reorderDelay{MicroSeconds(50)};

    bool Any() const { return lossRate > 0 || burstLoss.has_value() || reorderFraction > 0; }
};

/** Impairments for the link(s) between two named nodes. */
struct LinkImpairment
{
    std::string a;
    std::string b;
    ImpairmentSpec impairment;
};

/** Where the host routes live when ECMP is off (with ECMP on they are always Hashed). */
enum class RouteTable
{
    /** ns-3's Ipv4StaticRouting host routes: linear lookup per packet and an insertion cost
     *  that grows with the table; fine up to a few hundred hosts (k = 8 fat-tree). */
    Static,
    /** Ipv4EcmpRouting holding the one chosen next hop: constant-time lookup and insertion,
     *  for larger topologies (a k = 16 fat-tree builds in seconds instead of minutes). */
    Hashed,
};

struct TopologySpec
{
    TopologyKind kind{TopologyKind::TwoHosts};

    uint32_t hostsPerSide{2};  ///< Dumbbell: hosts on each side
    uint32_t leaves{2};        ///< LeafSpine
    uint32_t spines{2};        ///< LeafSpine
    uint32_t hostsPerLeaf{2};  ///< LeafSpine
    uint32_t k{4};             ///< FatTree arity (even, >= 2)
    std::string graphmlPath;   ///< GraphMl

    LinkParams link;                      ///< every link unless a tier or the file says otherwise
    std::optional<LinkParams> hostLinks;  ///< LinkTier::Host
    std::optional<LinkParams> fabricLinks; ///< LinkTier::Fabric
    std::optional<LinkParams> bottleneck; ///< LinkTier::Bottleneck (dumbbell)

    /** Split flows over equal-cost next hops by a 5-tuple hash; off: one deterministic path. */
    bool ecmp{false};
    RouteTable routeTable{RouteTable::Static};

    std::optional<ImpairmentSpec> impairAll; ///< on every link
    std::vector<LinkImpairment> impairLinks; ///< on named links (replaces impairAll there)

    /** First RNG stream for the impairments (AssignStreams), so a run repeats with its seed. */
    int64_t firstStream{1000};
};

} // namespace ns3

#endif // IWARP_TOPOLOGY_SPEC_H
