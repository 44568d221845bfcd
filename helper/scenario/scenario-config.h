/*
 * The typed description of one scenario: what a YAML scenario file (doc/scenario-format.md) says,
 * checked and with units resolved, ready for the ScenarioRunner to build a simulation from.
 *
 *   ScenarioConfig cfg = LoadScenarioFile("incast.yaml", {"workloads.0.size=4KiB", "seed=7"});
 *
 * Loading never returns a half-valid config: every problem is a ScenarioError naming the file,
 * line, column and key path.  Fields that the file may leave out carry their documented default
 * here, or are std::optional where "not given" means something else than any value (a link rate
 * that falls back to the topology-wide one, for instance).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_CONFIG_H
#define IWARP_SCENARIO_CONFIG_H

#include "helper/scenario/llp-descriptors.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/transport-settings.h"
#include "helper/topology/topology-spec.h"

#include "traffic/collective-schedule.h"
#include "traffic/flow-arrivals.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * Properties of a link.  Unset fields fall back: a per-link entry to `links`, `links` to the
 * builder's defaults (doc/scenario-format.md lists them).
 */
struct LinkConfig
{
    std::optional<uint64_t> rateBps;
    std::optional<Time> delay;
    /**
     * A switch port's buffer, as QueueSize text: "100p" (packets) or "150000B" (octets); the limit
     * of its queue disc (of its device queue with queue-disc kind none).
     */
    std::optional<std::string> queue;
    std::optional<std::string> deviceQueue;   ///< a switch port's device queue under its queue disc
    std::optional<QueueDiscSpec> queueDisc;   ///< replaces the fallback's as a whole
    std::optional<uint32_t> mtu;
    ImpairmentSpec impairment; ///< the parts given here; unset parts fall back as the rest do
};

/** `host-nic` (every host) and `per-host.<name>.nic`: a host's NIC queues, unset fields falling back. */
struct NicConfig
{
    std::optional<std::string> queue; ///< the queue disc's limit ("unlimited" reads as UnlimitedQueue())
    std::optional<std::string> deviceQueue;
    std::optional<QueueDiscSpec> queueDisc;
    bool Empty() const { return !queue && !deviceQueue && !queueDisc; }
};

/** One entry of `per-link`: the link between two named nodes, set apart from the defaults. */
struct PerLinkConfig
{
    std::string a;
    std::string b;
    LinkConfig link;
};

// TopologyKind and ToString(TopologyKind) come from helper/topology/topology-spec.h: one list of kinds.

/** `topology.pfc`: PFC on every port (TopologySpec::pfc). */
struct PfcConfig
{
    uint32_t priority{3}; ///< the lossless priority
    uint64_t xoff{0};     ///< octets; xoff and xon, or buffer, alpha and resume-offset
    uint64_t xon{0};      ///< octets
    uint64_t buffer{0};   ///< octets each switch's ports share (dynamic thresholds); 0: xoff and xon
    double alpha{0};
    uint64_t resumeOffset{0}; ///< octets
};

struct TopologyConfig
{
    TopologyKind kind{TopologyKind::TwoHosts};
    uint32_t hostsPerSide{1}; ///< dumbbell: hosts on each side
    uint32_t leaves{2};       ///< leaf-spine
    uint32_t spines{2};       ///< leaf-spine
    uint32_t hostsPerLeaf{2}; ///< leaf-spine
    uint32_t planes{1};       ///< leaf-spine: fabric copies, one NIC per host in each
    uint32_t k{4};            ///< fat-tree: pods and ports per switch, even
    std::string file;         ///< graphml: path, relative to the scenario file's folder when relative
    bool ecmp{false};         ///< equal-cost multipath routing (per-flow hashing)
    bool switchFastPath{true}; ///< switches forward on SwitchForwarder's fast path (speed only)
    /** `reroute-after`: routes are recomputed this long after a link event; unset: static routes (blackholes). */
    std::optional<Time> rerouteAfter;
    /** dumbbell: the link between the two routers, over `links`. */
    LinkConfig bottleneck;
    std::optional<PfcConfig> pfc; ///< none: lossy ports
};

/**
 * ns-3 Attribute settings by full name, "ns3::TypeName::Attribute" -> value text.  The file may
 * write "TypeName::Attribute" (ns3:: is added) or the full name; the value is any text the
 * Attribute's checker accepts ("550ns", "4", "true").  The runner applies them with
 * Object::SetAttribute on the matching objects of each host, one object at a time (host-attributes.h).
 */
using AttributeMap = std::map<std::string, std::string>;
using HostConfig = AttributeMap; ///< `host`: HostMemoryModel, HostCpuModel, TcpSocket, ... attributes
using RnicConfig = AttributeMap; ///< `rnic`: Rnic, RnicPipeline, RdmapEndpoint, ... attributes

/** `per-host` entry: attributes for one node on top of the scenario-wide `host` / `rnic`. */
struct NodeAttributeConfig
{
    HostConfig host;
    std::string hostProfile; ///< `host.profile`: its attributes are in `host`; "" when none is named
    RnicConfig rnic;
    std::string rnicProfile; ///< `rnic.profile`: its attributes are in `rnic`; "" when none is named
    NicConfig nic; ///< over the scenario's `host-nic`
};

/**
 * A workload kind, by its name: a handle to one entry of the workload registry
 * (helper/scenario/workloads/workload-kind.h), which says everything else about the kind (its keys,
 * reader, installer, metrics).  The built-in kinds have named constants so that the few checks that
 * are about one kind read as such; anything a new kind could need is a property of its entry instead.
 * The name must outlive the handle: a literal, or a registry entry's name.
 */
class WorkloadKind
{
  public:
    constexpr explicit WorkloadKind(const char* name)
        : m_name(name)
    {
    }
    const char* Name() const { return m_name; }
    bool operator==(WorkloadKind o) const { return std::string_view(m_name) == o.m_name; }
    bool operator!=(WorkloadKind o) const { return !(*this == o); }

    static const WorkloadKind PingPong;
    static const WorkloadKind Stream;
    static const WorkloadKind Read;
    static const WorkloadKind SocketsStream;
    static const WorkloadKind SocketsPingPong;
    static const WorkloadKind Incast;
    static const WorkloadKind Inject;

  private:
    const char* m_name;
};

inline constexpr WorkloadKind WorkloadKind::PingPong{"ping-pong"};
inline constexpr WorkloadKind WorkloadKind::Stream{"stream"};
inline constexpr WorkloadKind WorkloadKind::Read{"read"};
inline constexpr WorkloadKind WorkloadKind::SocketsStream{"sockets-stream"};
inline constexpr WorkloadKind WorkloadKind::SocketsPingPong{"sockets-ping-pong"};
inline constexpr WorkloadKind WorkloadKind::Incast{"incast"};
inline constexpr WorkloadKind WorkloadKind::Inject{"inject"};

inline const char*
ToString(WorkloadKind k)
{
    return k.Name();
}

/** The kinds that run RDMA over an RNIC (and so an LLP): the registry entry's family says. */
bool IsRdma(WorkloadKind k);

enum class RdmaOp
{
    Write,
    Send,
    Read,
};

const char* ToString(RdmaOp op);


/** When a load's hosts start their flows (doc/traffic.md). */
enum class TrafficArrivals
{
    Poisson,    ///< each host in a Poisson process at `load` of its link
    ClosedLoop, ///< each host keeps `outstanding` flows in flight, the next started as one ends
};

enum class PayloadMode
{
    Virtual,
    Real,
};

const char* ToString(PayloadMode p);

/**
 * An injected DDP/RDMAP segment by header fields.  Unset fields take fixed defaults (a tagged,
 * last, DV 1 / RV 1 Write to STag 0, TO 0; untagged: a Send on QN 0, MSN 1, MO 0; see
 * helper/scenario/scenario-inject.cc), so a test writes
 * only what it means to break.
 */
struct InjectFields
{
    std::optional<bool> tagged;       ///< DDP T flag
    std::optional<bool> last;         ///< DDP L flag
    std::optional<uint8_t> dv;        ///< DDP version, 2 bits
    std::optional<uint64_t> rsvdUlp;  ///< DDP RsvdULP: 8 bits tagged, 40 bits untagged
    std::optional<uint32_t> stag;     ///< tagged: STag
    std::optional<uint64_t> to;       ///< tagged: Tagged Offset
    std::optional<uint32_t> qn;       ///< untagged: Queue Number
    std::optional<uint32_t> msn;      ///< untagged: Message Sequence Number
    std::optional<uint32_t> mo;       ///< untagged: Message Offset
    std::optional<uint8_t> rv;        ///< RDMAP version, 2 bits
    std::optional<uint8_t> opcode;    ///< RDMAP opcode, 4 bits (iwarp::Opcode values, 8-15 reserved)
    std::optional<uint32_t> payload;  ///< octets of (zero) payload after the headers

    /** A segment is tagged unless `tagged: false` (the reader's checks and the builder alike). */
    static constexpr bool kTaggedByDefault = true;
    bool Tagged() const { return tagged.value_or(kTaggedByDefault); }
};

struct InjectConfig
{
    /** The workload whose connection carries the segment: index into ScenarioConfig::workloads. */
    std::size_t targetIndex{0};
    std::string from; ///< the node that sends the segment (one end of the target's connection)
    std::string to;   ///< the node that receives it
    Time at;          ///< when it is handed to the LLP
    std::optional<InjectFields> fields;
    std::vector<uint8_t> raw; ///< raw DDP segment octets (from `hex`) when fields are not given
};

/** The octets of an injected DDP segment: `raw`, or the headers `fields` describe and their payload. */
std::vector<uint8_t> BuildInjectedSegment(const InjectConfig& inject);

struct WorkloadConfig
{
    std::string name; ///< `name`, or "<kind>-<index>" ("ping-pong-0")
    WorkloadKind kind{WorkloadKind::PingPong};
    std::string from;                 ///< the initiator (client); incast: empty
    std::string to;                   ///< the responder (server); incast: the receiver
    std::vector<std::string> senders; ///< incast only
    RdmaOp op{RdmaOp::Write};         ///< kind read always has op Read
    /**
     * ping-pong with op write: the responder polls the last octet of its buffer (ib_write_lat's way,
     * RdmaPingPong Mode WritePoll) instead of waiting for a zero-length Send after the Write.
     */
    bool poll{false};
    uint64_t size{4096};              ///< octets per message
    std::vector<uint64_t> sizes;      ///< ping-pong sweep: one run per size, in order (size ignored)
    std::optional<uint64_t> count;    ///< messages (per sender for incast); unset with duration
    std::optional<Time> duration;     ///< how long to keep posting; unset with count
    uint32_t outstanding{1};          ///< messages in flight (stream, read, incast)
    bool zeroCopy{false};             ///< sockets-stream: sends without the copy into the kernel
    Time start;                       ///< when the workload starts (with `after`: that long after them)
    /**
     * `after`: the workloads (indices, resolved by the loader) that must all have completed before this one
     * starts; empty: it starts at `start`.
     */
    std::vector<std::size_t> after;
    const LlpDescriptor* llp{&DefaultLlp()}; ///< one of LlpDescriptors() (llp-descriptors.h)
    PayloadMode payload{PayloadMode::Virtual};
    std::optional<InjectConfig> inject; ///< kind inject only
    // Kind traffic (a load of flows among a group of hosts, doc/traffic.md):
    std::vector<std::string> hosts;   ///< the hosts of the load, each sending to and receiving from the others
    TrafficPattern pattern{TrafficPattern::AllToAll};
    TrafficArrivals arrivals{TrafficArrivals::Poisson};
    bool perFlowConnection{false};    ///< `connections: per-flow`: a connection for each flow, not per host pair
    std::string target;               ///< pattern many-to-one: the host the incast goes to
    double incastFraction{0};         ///< pattern many-to-one: the share of the other hosts' flows to `target`
    std::vector<std::pair<std::string, std::string>> pairs; ///< pattern pairs: (sender, receiver), each once
    double load{0};                   ///< payload octets offered per second by each host over its link rate
    /** The flow sizes: a built-in distribution, or one read from a CDF file; null for other kinds. */
    std::shared_ptr<const FlowSizeDistribution> flowSizes;
    // Kind collective (doc/collectives.md): `hosts` are its ranks, in order; `size` is each rank's buffer.
    CollectiveAlgorithm algorithm{CollectiveAlgorithm::RingAllReduce};
    uint32_t iterations{1};
    Time gap; ///< from an iteration's end at a rank to its start of the next
    /** Built by the loader from the keys above: who sends what to whom; null for other kinds. */
    std::shared_ptr<const CollectiveSchedule> collective;
    /**
     * Found by the loader, not written in the file: per sender (`from`, or each incast sender), the
     * smallest MTU on the shortest paths to `to`, which its connections are sized for
     * (helper/scenario/path-sizes.h).  Empty for inject.
     */
    std::map<std::string, uint32_t> pathMtu;
};

/** What `tracing.series.what` may sample (doc/metrics.md, "Time series"). */
enum class SeriesQuantity
{
    Goodput, ///< per flow: octets delivered at the sink in each interval, as a rate
    Cwnd,    ///< per flow: the data sender's congestion window
    Rtt,     ///< per flow: the data sender's smoothed round-trip time
    Queue,   ///< per link direction: packets and octets queued
    Paths,   ///< per flow: an SCTP data sender's data path and the HEARTBEATs it has sent
};

/** Every series quantity with its word in `tracing.series.what`, in the docs' order: the one list of them. */
const std::vector<std::pair<const char*, SeriesQuantity>>& SeriesQuantityNames();
const char* ToString(SeriesQuantity q);

/**
 * `tracing.series`: quantities sampled every `interval` into series.csv. The loader resolves the
 * defaults, so the lists here are what is sampled.
 */
struct SeriesConfig
{
    Time interval;                     ///< > 0, at most the stop time
    std::vector<SeriesQuantity> what;  ///< no repeats, in the file's order
    std::vector<std::size_t> workloads; ///< indices of the workloads whose flows are sampled
    /** One entry per link (two parallel links between a and b: two entries), both directions sampled. */
    std::vector<std::pair<std::string, std::string>> links;
    bool Has(SeriesQuantity q) const;
};

struct TracingConfig
{
    bool pcapAll{false};
    std::vector<std::pair<std::string, std::string>> pcapLinks; ///< links by their two endpoints
    std::string directory{"pcap"}; ///< pcap folder inside the results folder: relative, no "." or ".." parts
    std::optional<SeriesConfig> series; ///< unset: no series.csv, nothing sampled
    /** Pcaps are written (series.csv is not a pcap). */
    bool Enabled() const { return pcapAll || !pcapLinks.empty(); }
};

/** What a scenario event does to its link (doc/failures.md). */
enum class LinkEventAction : uint8_t
{
    Down,     ///< `link-down`: every packet arriving over the link is lost
    Up,       ///< `link-up`: the link carries packets again
    NodeDown, ///< `node-down`: every link of `node`, both ways, is down (a failed switch, a host's dead NIC)
    NodeUp,   ///< `node-up`: the node's links carry again (where no link-down of their own holds them)
    Change,   ///< `link-change`: the link's rate, delay, loss or queue limit from then on
};
/** A node-down or node-up: it names `node`, not `between`. */
inline bool
IsNodeEvent(LinkEventAction a)
{
    return a == LinkEventAction::NodeDown || a == LinkEventAction::NodeUp;
}
/** Which way of a link an event acts on. */
enum class LinkDirection : uint8_t
{
    Both,    ///< both ways
    Forward, ///< from the first node of `between` to the second only
};

/** One entry of `events`: at `at`, `action` on every link between `a` and `b`. */
struct LinkEventConfig
{
    Time at;
    LinkEventAction action{LinkEventAction::Down};
    std::string a;    ///< a link event's `between`
    std::string b;
    LinkDirection direction{LinkDirection::Both};
    std::string node; ///< a node event's `node`
    // A link-change's new values (at least one is set; the loader refuses them on other actions).
    std::optional<uint64_t> rateBps; ///< each named way's sending device's rate
    std::optional<Time> delay;       ///< the link's propagation delay (its channel's: both ways)
    std::optional<double> loss;      ///< independent loss at each named way's receiving end
    std::optional<std::string> queue; ///< each named way's sending port's limit, as QueueSize text
    bool ChangesAnything() const { return rateBps || delay || loss || queue; }
};

/** `measure: {from, to}`: the window a workload's windowed goodput is taken over (doc/metrics.md). */
struct MeasureWindow
{
    Time from; ///< >= 0
    Time to;   ///< > from, <= stop
};

struct ScenarioConfig
{
    std::string name;       ///< `name`, or the file's stem, or "scenario" for a string
    std::string sourceFile; ///< the file loaded ("" for a string)
    std::vector<std::string> overrides; ///< the --set overrides applied, in order
    /** The scenario as run: the YAML tree after the overrides (for the results folder). */
    std::string resolvedYaml;
    uint32_t seed{1};       ///< ns-3 RngSeedManager::SetSeed
    uint64_t run{1};        ///< ns-3 RngSeedManager::SetRun
    std::string scheduler;  ///< `scheduler`: the event scheduler (event-scheduler.h); "" = the default
    Time stop;              ///< required: Simulator::Stop
    std::string output;     ///< results folder; "" lets the runner choose (results/<name>)
    TopologyConfig topology;
    LinkConfig links;                  ///< every link (and the impairments everywhere)
    std::vector<PerLinkConfig> perLink;
    HostConfig host;                   ///< every host
    std::string hostProfile;           ///< `host.profile` (host/host-profile.h), its attributes in `host`; ""
    RnicConfig rnic;                   ///< every RNIC
    /** `rnic.profile` (rnic/rnic-profile.h), its attributes in `rnic`; "" or "auto": each host's link class */
    std::string rnicProfile;
    NicConfig hostNic;                 ///< every host's NIC queues (`host-nic`)
    std::map<std::string, NodeAttributeConfig> perHost;
    TransportConfig transport;         ///< `transport`: TCP and SCTP settings (transport-settings.h)
    std::vector<WorkloadConfig> workloads;
    TracingConfig tracing;
    std::optional<MeasureWindow> measure; ///< unset: no windowed goodput
    std::vector<LinkEventConfig> events;  ///< `events`, in time order (file order at one time)
};

/**
 * The node names a generated topology kind produces, hosts first, in the order the builder
 * creates them; empty for graphml (names come from the file: the loader reads it and checks them).
 * Hosts are h0..hN-1 for every generated kind; switches are named in doc/scenario-format.md.
 */
std::vector<std::string> ExpectedNodeNames(const TopologyConfig& t);
/** The builder's description of the topology's shape (kind and size parameters, no links). */
TopologySpec ShapeOf(const TopologyConfig& t);

/** Only the hosts of ExpectedNodeNames. */
std::vector<std::string> ExpectedHostNames(const TopologyConfig& t);

/**
 * Limits of what a scenario may ask for (doc/scenario-format.md, "Limits"), far above any real
 * scenario, so that a runaway file is refused with a clear error instead of exhausting memory: the
 * file's size (a real one is a few KiB; yaml-cpp needs ~150x its size in memory), the length of
 * any list (workloads, senders, per-link, pcap links) and of a ping-pong `sizes` sweep.
 */
constexpr uint64_t kMaxScenarioOctets = 1u << 20;
constexpr std::size_t kMaxListLength = 16384;
constexpr std::size_t kMaxSizes = 1024;
/**
 * Rows a series.csv may hold (`tracing.series`): about 40 octets each on disk, 8 in memory while
 * the run samples, so 5 million stay within a few hundred MB; a scenario asking for more is refused
 * with the count, not truncated.
 */
constexpr uint64_t kMaxSeriesRows = 5000000;

/** Load, apply the `--set` overrides (each "dot.path=value"), validate.  Throws ScenarioError. */
ScenarioConfig LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides = {});
/** The same from YAML text; `sourceName` stands for the file name in error messages. */
ScenarioConfig LoadScenarioString(const std::string& yaml,
                                  const std::vector<std::string>& overrides = {},
                                  const std::string& sourceName = "<string>");

} // namespace ns3

#endif // IWARP_SCENARIO_CONFIG_H
