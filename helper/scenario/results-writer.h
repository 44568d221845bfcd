/*
 * The results folder of one run (doc/scenario-format.md, "Results folder"):
 *
 *   <folder>/summary.json   the run and each workload and host, aggregated
 *   <folder>/messages.csv   one row per message, times in integer nanoseconds
 *   <folder>/host.csv       one row per host, its counters
 *   <folder>/scenario.yaml  the scenario as run, overrides applied (when given)
 *   <folder>/pcap/          the pcaps, when tracing asked for them (tracing.directory names it)
 *   <folder>/series.csv     time series, when tracing.series asked for them (written by the runner)
 *
 * A folder that exists is always complete: everything is written into a hidden sibling
 * ".<name>.tmp-<pid>" and renamed into place at the end with rename(2) (renameat2 with
 * RENAME_NOREPLACE, so that a folder that appeared meanwhile is not replaced either).  A run
 * never overwrites an existing results folder: the constructor refuses with ResultsError before
 * the simulation starts.  A run that fails (an exception, or the writer destroyed before Commit)
 * removes its temporary folder, and the parent folders it created if they are empty: it leaves
 * nothing.
 *
 *   ResultsWriter out("results/incast");          // throws if results/incast exists
 *   pcapHelper.EnablePcap(out.PcapDirectory() + "/link", ...);  // pcaps straight into the temp folder
 *   ... Simulator::Run() ...
 *   out.Write(result);                            // summary.json, messages.csv, host.csv
 *   out.Commit();                                 // the folder appears, complete
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_RESULTS_WRITER_H
#define IWARP_SCENARIO_RESULTS_WRITER_H

#include "helper/scenario/data-flows.h"
#include "helper/scenario/sctp-associations.h"
#include "helper/scenario/stats.h"
#include "helper/scenario/transport-settings.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

class ResultsError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/** What became of a message by the end of the run (doc/metrics.md). */
enum class MessageStatus
{
    Delivered,   ///< the data sink has it (ping-pong: the round trip completed)
    Outstanding, ///< posted, neither delivered nor failed when the run stopped
    Flushed,     ///< completed with an error status at the source (flushed, refused)
    Injected,    ///< an injected segment the LLP took (kind inject: not a data message)
};

const char* ToString(MessageStatus s);

/** One message, from its post to its delivery at the data sink (doc/metrics.md, "Per message"). */
struct MessageRecord
{
    std::string workload;
    uint64_t id{0};
    std::string op; ///< "write", "send", "read", "sockets", "inject"
    uint64_t size{0};
    Time post;                       ///< posted by the initiator
    std::optional<Time> firstPlaced; ///< first octet placed at the data sink
    std::optional<Time> delivered;   ///< delivered at the data sink (see doc/metrics.md per operation)
    std::optional<Time> completed;   ///< the source's successful completion (never the FCT)
    bool failed{false};              ///< the source's completion carried an error status
    std::string sender;              ///< the host the message left from (incast: one of the senders)
    std::string receiver;            ///< a host group's (traffic): the host it went to; empty for the others
    std::optional<Time> idealFct;    ///< a host group's: alone on the empty network (ideal-fct.h)

    MessageStatus Status() const;
    /** Flow completion time: delivered - post; unset when not delivered. */
    std::optional<Time> Fct() const;
};

struct TerminateRecord
{
    Time time;
    std::string node;
    bool sent{true};   ///< this node sent it (detected the error); false: received it
    std::string layer; ///< "rdmap", "ddp", "llp"
    std::string type;  ///< error type by name ("tagged buffer", ...)
    uint32_t code{0};  ///< error code within the type
};

/** Transport retransmissions of a workload's connections, both ends (doc/metrics.md). */
struct RetransmissionCounts
{
    uint64_t total{0};          ///< TCP segments / SCTP DATA chunks sent again
    uint64_t fast{0};           ///< of those, by fast retransmit / recovery
    uint64_t timeout{0};        ///< of those, after a retransmission timeout
    uint64_t rtoExpirations{0}; ///< TCP: entries into loss recovery by RTO; SCTP: T3-rtx expiries
};

/**
 * A workload's LLP connections, counted at the end that opens them (the client, or each incast
 * sender; a ping-pong opens one per size): how many it opened, how many were established, and how
 * many of those the LLP lost afterwards (TCP gave up retransmitting, an SCTP association aborted,
 * detected at either end).  attempted - established never got through by the stop: refused, timed
 * out, or still trying (doc/metrics.md).
 */
struct ConnectionCounts
{
    uint64_t attempted{0};
    uint64_t established{0};
    uint64_t lost{0};
    uint64_t NotEstablished() const { return attempted - established; }
};

/** Half-round-trip latency of one message size of a ping-pong. */
struct SizeLatency
{
    uint64_t size{0};
    SampleStats ns; ///< nanoseconds
};

/** One workload's figures, all taken at the receiver (doc/metrics.md, "Per workload"). */
/** One bucket of flow sizes of a load, [minOctets, maxOctets) (slowdown.h, doc/metrics.md "slowdown"). */
struct SlowdownBucket
{
    uint64_t minOctets{0};
    uint64_t maxOctets{0};
    uint64_t flows{0};        ///< posted with a size in the bucket
    uint64_t notCompleted{0}; ///< of them, never delivered (outstanding, flushed, no connection)
    /** FCT / ideal FCT over the delivered ones, nearest rank; unset when none was delivered. */
    std::optional<double> p50;
    std::optional<double> p95;
    std::optional<double> p99;
    std::optional<double> p999;
    /**
     * The FCTs themselves over the same flows, nearest rank, in ns: what compares loads whose ideals differ
     * (RDMA's and the sockets baseline's, doc/traffic.md) like with like.
     */
    std::optional<double> fctP50Ns;
    std::optional<double> fctP99Ns;
};

/** A load's operating point (kind traffic): what was asked, and the load its hosts offered. */
struct TrafficOperatingPoint
{
    std::string arrivals{"poisson"}; ///< "poisson", "closed-loop"
    std::optional<double> load;      ///< `load` (Poisson): payload octets per second per host, over its link rate
    std::optional<uint32_t> outstanding; ///< closed loop: the flows each host keeps in flight
    std::string flowSizes;  ///< the distribution's name (a built-in one, or the CDF file)
    std::string pattern;    ///< "all-to-all", "permutation", "many-to-one", "pairs"
    std::string target;     ///< many-to-one: the host the incast goes to (empty otherwise)
    std::optional<double> incastFraction; ///< many-to-one: the share of the other hosts' flows sent to `target`
    uint64_t pairs{0};      ///< pairs: how many sender-receiver pairs were listed
    uint64_t hosts{0};
    /**
     * Measured at the hosts: the octets of the flows started, x 8, over the time flows were started (from
     * `start` to `start + duration`, or to the last flow's start with `count`) times the sending hosts' link
     * rates (every host but, with pairs, those that send in no pair).
     */
    std::optional<double> offeredLoad;
};

/** One step of one rank in one iteration of a collective (collective-steps.csv, doc/collectives.md). */
struct CollectiveStepRecord
{
    uint32_t iteration{0};
    uint32_t rank{0};
    uint32_t step{0};
    std::optional<Time> posted; ///< its Send was posted at this rank (unset: the rank sends nothing this step)
    std::optional<Time> done;   ///< its receives all completed at this rank
};

/** One iteration of a collective. */
struct CollectiveIteration
{
    uint32_t iteration{0};
    /** The first rank's start: iteration 0 when every rank was connected, later ones the first end + gap. */
    Time begun;
    std::vector<std::optional<Time>> rankEnd; ///< by rank: when the iteration ended there (unset: it did not)
    /** The last rank's end, once every rank has ended it. */
    std::optional<Time> End() const;
};

/** A rank that stopped for good (RdmaCollective's Halted trace). */
struct CollectiveHalt
{
    uint32_t rank{0};
    uint32_t iteration{0};
    Time at;
    std::string why;
};

/**
 * What a workload's flows saw of one link-down event (doc/metrics.md, `outages`): over the window from the
 * event to the next link-down (or the end of the run), of the flows (sender, receiver) that had a message
 * outstanding at the event, the longest time one of them went without a delivery, counted from the event.
 */
struct Outage
{
    Time at;               ///< the link-down event
    uint32_t flows{0};     ///< flows with a message outstanding at it
    std::optional<Time> longest; ///< unset when no flow was (the workload did not see the event)
    /** false: that longest gap was still open at the window's end (no delivery ended it). */
    bool recovered{true};
};

/** A collective's run (kind collective, doc/collectives.md). */
struct CollectiveResult
{
    std::string algorithm;
    std::vector<std::string> ranks; ///< the hosts, by rank
    uint64_t octets{0};             ///< each rank's buffer
    uint32_t iterations{0};         ///< asked for
    Time gap;
    double busFactor{0};           ///< CollectiveSchedule::BusFactor
    uint32_t ranksReady{0};        ///< ranks whose connections all came up
    std::optional<Time> ideal;     ///< one iteration alone on the empty network (IdealCompletion)
    std::vector<CollectiveIteration> started; ///< the iterations that began
    std::vector<CollectiveStepRecord> steps;
    std::vector<CollectiveHalt> halted; ///< ranks that stopped for good, in time order

    /** The completed iterations' times, end minus begun, in ns. */
    SampleStats CompletionNs() const;
    /** nccl-tests' bus bandwidth at the mean completion time: octets x 8 / mean x busFactor. */
    std::optional<double> BusBandwidthBps() const;
};

struct WorkloadResult
{
    std::string name;
    std::string kind;
    std::string op;  ///< as in messages.csv
    std::string llp; ///< "tcp", "sctp"
    std::vector<DataFlow> dataFlows; ///< DataFlowsOf the workload's configuration (data-flows.h)
    std::vector<std::string> after;  ///< the workloads it waited for (`after`), by name
    std::vector<std::string> waitingFor; ///< of them, those that never completed (it never started)
    /** When it started: `start`, or after those it waited for; unset if they never completed. */
    std::optional<Time> start;
    std::optional<Time> completedAt; ///< when `completed` first held (doc/metrics.md)
    bool pingPong{false};
    uint64_t messagesPosted{0};
    uint64_t messagesDelivered{0};
    uint64_t messagesCompleted{0}; ///< successful completions at the source
    uint64_t messagesOutstanding{0};
    uint64_t messagesFlushed{0};
    uint64_t octetsPosted{0};
    uint64_t octetsDelivered{0};
    /** Every message the workload was to post was posted and delivered (and, for duration, posting ended). */
    bool completed{false};
    std::optional<Time> firstPost;
    std::optional<Time> lastDelivery;
    std::optional<double> goodputBps;       ///< octetsDelivered * 8 / (lastDelivery - firstPost)
    std::optional<double> goodputWindowBps; ///< with `measure`: delivered in [from, to) * 8 / (to - from)
    std::optional<Time> longestStall;       ///< outstanding, nothing arriving (LongestStall, workload-metrics.h)
    std::vector<Outage> outages; ///< one per link-down event, in time order (doc/metrics.md)
    SampleStats fctNs;                      ///< post -> delivery, over delivered messages
    SampleStats senderCompletionNs;         ///< post -> source completion
    std::vector<SizeLatency> latencyBySize; ///< ping-pong kinds only
    std::optional<std::vector<SlowdownBucket>> slowdown; ///< host groups (traffic) only
    std::optional<TrafficOperatingPoint> traffic;        ///< host groups (traffic) only
    std::optional<CollectiveResult> collective;          ///< kind collective only
    RetransmissionCounts retransmissions;
    std::vector<TerminateRecord> terminates;
    ConnectionCounts connections;
    std::vector<SctpAssociationRecord> sctpAssociations; ///< its multihomed ones (sctp-associations.h)
};

struct HostResult
{
    std::string node;
    /** The host profile it ran (host/host-profile.h), or "none": the parts' own attribute defaults. */
    std::string profile{"none"};
    /** The RNIC engine profile it ran (rnic/rnic-profile.h), or "none": the engine's own defaults. */
    std::string rnicProfile{"none"};
    /**
     * What its RNIC's engine carries of full-size RDMA Write segments over MPA/TCP at its link's MTU, the
     * slower of transmit and receive (RnicPipeline::CeilingBps), beside the link's own payload rate.
     */
    double engineLimitBps{0};
    std::vector<Time> cpuBusyPerCore;
    uint64_t busBytes{0};
    /** Further counters by name (copies, DMA transactions, ...), one host.csv column each. */
    std::map<std::string, double> counters;
};

/** Packets dropped on one link, both directions. */
struct LinkDrops
{
    std::string a;
    std::string b;
    uint64_t queue{0};      ///< refused by a full device queue or a queue disc
    uint64_t impairment{0}; ///< lost to the link's loss model (random, Gilbert-Elliott)
    uint64_t linkDown{0};   ///< lost while the link was down (`events`)
};

/** What one `events` entry did (helper/scenario/scenario-events.h, doc/failures.md). */
struct EventRecord
{
    Time at;
    std::string action;    ///< "link-down", "link-up", "node-down", "node-up", "link-change"
    std::string a;         ///< a link event's `between`, as written (empty for a node event)
    std::string b;
    std::string direction; ///< "both", "forward"
    std::string node;      ///< a node event's `node` (empty for a link event)
    /**
     * A down event: packets lost on the ways it held down until each came back up (or the stop); a way held by
     * two (a link-down and a node-down) counts its losses to the one that took it down first.
     */
    uint64_t dropped{0};
    std::optional<Time> reroutedAt; ///< when the routes were recomputed after it (`topology.reroute-after`)
    // A link-change's new values, where it sets them.
    std::optional<uint64_t> rateBps;
    std::optional<Time> delay;
    std::optional<double> loss;
    std::optional<std::string> queue;
};

/**
 * One port's queues over the run (doc/metrics.md, "Queues"): its queue disc's counters (its device
 * queue's when it has none), and its device queue's apart.
 */
struct QueueResult
{
    std::string node;  ///< the node whose port this is
    std::string peer;  ///< the node at the link's other end
    std::string role;  ///< "host-nic" or "switch-port"
    std::string kind;  ///< queue disc: "fifo", "red", "codel", "fq-codel"; "none" (device queue only)
    std::string limit; ///< "100p", "150000B", "unlimited"
    uint64_t enqueued{0};
    uint64_t dequeued{0};
    uint64_t dropped{0}; ///< every drop, by the queue disc or at the device queue
    uint64_t marked{0};  ///< ECN CE marks
    std::map<std::string, uint64_t> dropReasons; ///< ns-3's reason text -> packets
    std::map<std::string, uint64_t> markReasons;
    uint32_t peakPackets{0};
    uint32_t peakBytes{0};
    uint64_t deviceEnqueued{0}; ///< the device queue under the queue disc (the same queue for "none")
    uint64_t deviceDropped{0};
    uint32_t devicePeakPackets{0};
    /** With PFC (`topology.pfc`): the port's PAUSE counters and its lossless priority's pauses and ingress. */
    struct Pfc
    {
        uint64_t xoffSent{0};       ///< PAUSE frames with a pause time (refreshes included)
        uint64_t xonSent{0};        ///< PAUSE frames of 0 quanta
        uint64_t pausesReceived{0}; ///< PAUSE frames that arrived
        Time pausedTime;            ///< its egress's time paused on the lossless priority
        uint64_t peakIngress{0};    ///< a switch port's: the most octets it brought in that the switch held
        uint64_t xoff{0};
        uint64_t headroom{0};
    };
    std::optional<Pfc> pfc;
};

/** A physics bound a result must respect (doc/metrics.md, "Checks"); a failure means a bug or a bad model. */
struct CheckResult
{
    std::string name;    ///< "goodput <= payload limit", ...
    std::string subject; ///< the workload, host or message it is about
    double bound{0};
    double value{0};
    std::string unit;
    bool pass{true};
    std::string detail; ///< how the bound was derived
};

struct RunResult
{
    std::string scenario;
    uint32_t seed{1};
    uint64_t run{1};
    std::string scheduler; ///< the event scheduler the run used (event-scheduler.h)
    bool switchFastPath{true}; ///< whether switches forwarded on SwitchForwarder's fast path
    double wallSeconds{0};
    Time simulatedTime; ///< Simulator::Now() at the end
    Time stopTime;      ///< the scenario's stop
    uint64_t events{0}; ///< Simulator::GetEventCount()
    std::optional<std::pair<Time, Time>> measure; ///< the scenario's measure window
    std::vector<WorkloadResult> workloads;
    std::vector<HostResult> hosts;
    std::vector<MessageRecord> messages;
    std::vector<LinkDrops> drops; ///< links with at least one drop
    std::vector<EventRecord> linkEvents; ///< the scenario's `events`, in time order
    std::vector<QueueResult> queues; ///< every port, in link order (a then b)
    std::vector<CheckResult> checks;
    std::vector<HostTransport> transport; ///< each host's TCP and SCTP settings as run
    /** The scenario as run (ScenarioConfig::resolvedYaml): written as scenario.yaml when not empty. */
    std::string scenarioYaml;
    std::vector<std::string> overrides; ///< the --set overrides, listed in summary.json
    /** pcap files to copy into pcap/ (files already inside the temporary folder are left as they are). */
    std::vector<std::string> pcapFiles;
    bool pcap{false}; ///< the run wrote pcaps into the results folder's pcapDirectory itself
    /** Where the pcaps are, relative to the results folder (the scenario's tracing.directory). */
    std::string pcapDirectory{"pcap"};
    /** series.csv's name in the results folder when the run wrote one (tracing.series); empty: none. */
    std::string seriesFile;
    /** The checks that failed. */
    std::size_t FailedChecks() const;
};

/** A CSV field: as it is, or quoted (RFC 4180) when it holds a comma, a quote or a line break. */
std::string CsvField(const std::string& s);

/**
 * The version of summary.json's layout, its "format" key; a reader checks it (the Python package through the
 * bindings' SUMMARY_FORMAT). Raised when a key a reader relies on is added, renamed or changes meaning
 * (3: workloads[].data_flows; 4: workloads[].longest_stall_ns).
 */
constexpr int kSummaryFormat = 4;

class ResultsWriter
{
  public:
    /**
     * Prepare `folder`: refuse (ResultsError) if it exists, create its parent folders and the
     * temporary sibling.
     */
    explicit ResultsWriter(std::string folder);
    /** Removes the temporary folder unless Commit succeeded. */
    ~ResultsWriter();

    ResultsWriter(const ResultsWriter&) = delete;
    ResultsWriter& operator=(const ResultsWriter&) = delete;

    const std::string& FinalPath() const { return m_final; }
    const std::string& TempPath() const { return m_temp; }
    /** TempPath()/`sub` (a relative path, tracing.directory), created on the first call. */
    std::string PcapDirectory(const std::string& sub = "pcap");

    /** Write summary.json, messages.csv, host.csv and queues.csv, and copy the pcaps, into the temporary folder. */
    void Write(const RunResult& result);
    /** Move the temporary folder to its final name; ResultsError (and cleanup) if that exists now. */
    void Commit();
    /** Remove the temporary folder now (a failed run). */
    void Abandon();

    /** The summary.json document for `result` (also for tests and the Python bindings). */
    static std::string SummaryJson(const RunResult& result);

  private:
    std::string m_final;
    std::string m_temp;
    bool m_committed{false};
    std::vector<std::string> m_createdParents; ///< parent folders the constructor created, deepest first
};

} // namespace ns3

#endif // IWARP_SCENARIO_RESULTS_WRITER_H
