/*
 * TopologySpec: a plain description of a network (which shape, how big, what the links are
 * like, what goes wrong on them). It holds no ns-3 objects, so the scenario runner can fill it
 * from YAML and TopologyBuilder can turn it into nodes, links, addresses and routes
 * (doc/topology.md).
 */
/**
 * \file
 * \ingroup iwarp-helper-topology
 */
#ifndef IWARP_TOPOLOGY_SPEC_H
#define IWARP_TOPOLOGY_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <map>
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

/** Which queue discipline (ns-3 traffic-control module) sits above a port's device queue. */
enum class QueueDiscKind
{
    None,    ///< no queue disc: the device queue (DropTail of `queue`) is the only queue
    Fifo,    ///< FifoQueueDisc: drop-tail at the limit
    Red,     ///< RedQueueDisc, by default configured as DCTCP uses it (see RedSpec)
    CoDel,   ///< CoDelQueueDisc
    FqCoDel, ///< FqCoDelQueueDisc
};

/** The kind's name in scenario files and results: "none", "fifo", "red", "codel", "fq-codel". */
const char* ToString(QueueDiscKind kind);

/**
 * RED's parameters. The defaults make it the marking switch DCTCP assumes (Alizadeh et al.,
 * SIGCOMM 2010): one threshold K (minTh = maxTh = K) on the instantaneous queue
 * (weight 1), ECN-capable packets marked CE instead of dropped at and above K, non-ECT ones dropped
 * there, and no drop below the queue's limit for a marked packet.
 */
struct RedSpec
{
    QueueSize minTh{"65p"}; ///< same unit (packets or octets) as the queue's limit
    QueueSize maxTh{"65p"};
    double weight{1.0};     ///< QW: the average's weight of the newest sample; 1 = instantaneous
    double maxP{0.02};      ///< LInterm = 1/maxP: marking probability at maxTh (when minTh < maxTh)
    bool gentle{false};     ///< probability ramps from maxP to 1 between maxTh and 2 maxTh
    bool ecn{true};         ///< mark ECN-capable packets instead of dropping them
    bool hardDrop{false};   ///< drop (never mark) above maxTh
};

/** CoDel's (and FQ-CoDel's) parameters; the defaults are RFC 8289's and Linux's. */
struct CoDelSpec
{
    Time target{MilliSeconds(5)};
    Time interval{MilliSeconds(100)};
    bool ecn{false};        ///< mark instead of drop (Linux fq_codel: on, codel: off)
    uint32_t flows{1024};   ///< FQ-CoDel only: flow queues (RFC 8290, Linux's default)
};

struct QueueDiscSpec
{
    QueueDiscKind kind{QueueDiscKind::Fifo};
    RedSpec red;     ///< kind Red
    CoDelSpec codel; ///< kind CoDel and FqCoDel
};

/**
 * The queues of one port (one end of a link): a queue disc holding up to `queue`, above a device
 * transmit queue of `deviceQueue` that the queue disc fills only when it has room (ns-3's flow
 * control through NetDeviceQueueInterface, as a NIC's ring under a Linux qdisc). With
 * QueueDiscKind::None the device queue alone holds `queue` (the model before queue discs).
 */
struct PortQueueSpec
{
    QueueSize queue{"100p"};
    QueueSize deviceQueue{"2p"};
    QueueDiscSpec disc;
};

/** The largest queue ns-3 can size: what "unlimited" means for a host's NIC. */
inline QueueSize
UnlimitedQueue()
{
    return QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX);
}

/** `q` is UnlimitedQueue() (compared by unit and value: ns-3 aborts on comparing sizes of different units). */
inline bool
IsUnlimited(const QueueSize& q)
{
    return q.GetUnit() == UnlimitedQueue().GetUnit() && q.GetValue() == UnlimitedQueue().GetValue();
}

/**
 * A host's NIC by default: a FIFO that a host's own sockets cannot overflow (unlimited: what waits
 * in it is bounded by the sockets' send buffers, as TCP Small Queues keep it in a Linux socket), above
 * a two-packet device ring (doc/transports.md, "Queues").
 */
inline PortQueueSpec
DefaultHostNic()
{
    PortQueueSpec s;
    s.queue = UnlimitedQueue();
    return s;
}

/** The physical and queueing parameters of one point-to-point link (both directions alike). */
struct LinkParams
{
    DataRate rate{"10Gbps"};
    Time delay{MicroSeconds(1)};
    /** A switch port's buffer ("100p" packets or "150000B" octets): its queue disc's limit. */
    QueueSize queue{"100p"};
    /** A switch port's device transmit queue under the queue disc. */
    QueueSize deviceQueue{"2p"};
    QueueDiscSpec queueDisc;

    /** The switch ports' queues of this link. */
    PortQueueSpec Ports() const { return PortQueueSpec{queue, deviceQueue, queueDisc}; }
};

/** Switch-port queues for the link(s) between two named nodes: what is set replaces the tier's. */
struct LinkQueues
{
    std::string a;
    std::string b;
    std::optional<QueueSize> queue;
    std::optional<QueueSize> deviceQueue;
    std::optional<QueueDiscSpec> disc;
};

/**
 * Gilbert-Elliott two-state loss, per packet: good to bad with probability p, bad to good with r
 * (a burst lasts 1/r packets on average), then lost with the state's loss probability.
 */
struct GilbertElliottSpec
{
    double p{0.0};        ///< per packet, probability of entering the bad state
    double r{1.0};        ///< per packet, probability of leaving it
    double lossGood{0.0}; ///< loss probability while good
    double lossBad{1.0};  ///< loss probability while bad
};

/** A fraction of the packets delivered `delay` late, so that later ones overtake them. */
struct ReorderSpec
{
    double fraction{0.0};
    Time delay{MicroSeconds(50)};
};

/**
 * What goes wrong on a link; applied to both directions, each with its own RNG stream. Each part
 * is optional because a scenario's per-link entry overlays `links` part by part: "not given here"
 * (inherit) differs from "loss: 0" (none on this link). The builder reads an unset part as off.
 */
struct ImpairmentSpec
{
    std::optional<double> loss;                        ///< independent per-packet loss, in [0, 1]
    std::optional<GilbertElliottSpec> gilbertElliott;  ///< bursty loss; not with loss > 0
    std::optional<ReorderSpec> reorder;

    bool Empty() const { return !loss && !gilbertElliott && !reorder; }
};

/** Which rule an ImpairmentSpec breaks (CheckImpairment). */
struct ImpairmentProblem
{
    enum class Rule
    {
        NotProbability, ///< a probability outside [0, 1]
        TwoLossModels,  ///< loss > 0 and gilbert-elliott on one link
        NegativeDelay,  ///< reorder.delay < 0
    };
    Rule rule;
    /** The offending field by its scenario key path: "loss", "gilbert-elliott.p", "reorder.delay". */
    std::string field;
    std::string message; ///< one line naming the field and the rule
};

/**
 * The one check of an impairment, for the scenario reader (which places the problem at the field's
 * line and column) and the topology builder (which throws it for specs built in code). Every
 * probability is checked before the two loss models, so a TwoLossModels answer means the values
 * themselves are fine.
 */
std::optional<ImpairmentProblem> CheckImpairment(const ImpairmentSpec& imp);

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

/**
 * PFC (IEEE 802.1Qbb) on every port (net/pfc-port.h): one lossless priority; each switch port pauses its peer
 * when the octets it brought in that the switch still holds reach `xoff`, and lets it go at `xon`; hosts obey.
 */
struct PfcSpec
{
    uint8_t priority{3}; ///< the lossless priority (DSCP >> 3; RoCEv2's DSCP 26 is 3)
    QueueSize xoff{QueueSizeUnit::BYTES, 0}; ///< fixed thresholds, unless `shared`
    QueueSize xon{QueueSizeUnit::BYTES, 0};
    /** The largest MTU any link will have (the scenario sets MTUs after the build); 0: ns-3's default. */
    uint32_t largestMtu{0};

    /** Each switch's ports share a buffer and pause by its dynamic threshold (net/pfc-port.h, PfcNode). */
    struct Shared
    {
        uint64_t buffer{0}; ///< octets
        double alpha{0};
        uint32_t resumeOffset{0}; ///< octets
    };
    std::optional<Shared> shared;
};

struct TopologySpec
{
    TopologyKind kind{TopologyKind::TwoHosts};

    uint32_t hostsPerSide{2};  ///< Dumbbell: hosts on each side
    uint32_t leaves{2};        ///< LeafSpine
    uint32_t spines{2};        ///< LeafSpine
    uint32_t hostsPerLeaf{2};  ///< LeafSpine
    /** LeafSpine: how many copies of the leaf-spine fabric, sharing no switch; each host has one link
     *  (NIC, address) to its leaf in every plane, plane 0's first (doc/topology.md, "Planes"). */
    uint32_t planes{1};
    uint32_t k{4};             ///< FatTree arity (even, >= 2)
    std::string graphmlPath;   ///< GraphMl

    LinkParams link;                      ///< every link unless a tier or the file says otherwise
    std::optional<LinkParams> hostLinks;  ///< LinkTier::Host
    std::optional<LinkParams> fabricLinks; ///< LinkTier::Fabric
    std::optional<LinkParams> bottleneck; ///< LinkTier::Bottleneck (dumbbell)

    /** Split flows over equal-cost next hops by a 5-tuple hash; off: one deterministic path. */
    bool ecmp{false};
    RouteTable routeTable{RouteTable::Static};
    /** With hashed routes, switches forward on SwitchForwarder's fast path (the same next hops
     *  and queue-disc items as ns-3's IPv4 forwarding, without Ipv4L3Protocol's traces). */
    bool switchFastPath{true};

    /** Every host's NIC (the host end of each of its links), unless hostNicByName names it. */
    PortQueueSpec hostNic{DefaultHostNic()};
    std::map<std::string, PortQueueSpec> hostNicByName;
    /** Switch ports on named links; the last naming of a link wins (after GraphML's edge values). */
    std::vector<LinkQueues> queueLinks;

    std::optional<PfcSpec> pfc; ///< PFC on every port; none: lossy ports

    std::optional<ImpairmentSpec> impairAll; ///< on every link
    std::vector<LinkImpairment> impairLinks; ///< on named links (replaces impairAll there)

    /** First RNG stream for the impairments (AssignStreams), so a run repeats with its seed. */
    int64_t firstStream{1000};
};

} // namespace ns3

#endif // IWARP_TOPOLOGY_SPEC_H
