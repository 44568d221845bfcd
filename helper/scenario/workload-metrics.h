/*
 * The per-workload figures of doc/metrics.md, computed from a workload's message records: one
 * definition of each, taken at the receiver (what was delivered at the data sink, and when), so
 * that the CLI line, summary.json, the sweeps and the plots cannot disagree.
 *
 *   WorkloadMetricsInput in;            // what the records alone do not say
 *   in.expectedMessages = 100;          // `count` (x senders, x sizes)
 *   WorkloadResult r;
 *   SummarizeMessages(records, in, r);  // messages, octets, goodput, FCT, latency per size, completed
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_WORKLOAD_METRICS_H
#define IWARP_SCENARIO_WORKLOAD_METRICS_H

#include "helper/scenario/results-writer.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

struct WorkloadMetricsInput
{
    /** Ping-pong kinds: latency per size, no goodput (a round trip at a time is no throughput). */
    bool pingPong{false};
    /** Messages the workload is to post (`count`); unset when `duration` ends it. */
    std::optional<uint64_t> expectedMessages;
    /** Every client said it posts no more (a duration-bounded stream ended before the stop). */
    bool postingEnded{false};
    /** `measure: {from, to}`, for the windowed goodput (each message's octets spread over its arrival). */
    std::optional<std::pair<Time, Time>> window;
    /** Ping-pong: half round trips in ns by message size, as the application measured them. */
    std::map<uint64_t, std::vector<double>> halfRttNs;
    /** The end of the run: messages still outstanding count as stalled until then. */
    Time end;
    /** A load of flows (a host group): the slowdown by flow size (slowdown.h). */
    bool slowdown{false};
    /** The times of the scenario's link-down events: each gives an outage (WorkloadResult::outages). */
    std::vector<Time> failures;
};

/** How far a workload has got: what `completed` (doc/metrics.md) is decided on, at the end or during the run. */
struct WorkloadProgress
{
    bool injected{false};  ///< kind inject: its one segment
    uint64_t posted{0};
    uint64_t delivered{0}; ///< at the data sink
    uint64_t completed{0}; ///< successful completions at the source (ping-pong: round trips back)
};

/**
 * `completed` of doc/metrics.md: an injection's segment was handed over; with an expected number of messages,
 * that many delivered (ping-pong: round trips back); otherwise posting ended and everything posted arrived.
 * SummarizeMessages sets WorkloadResult::completed with it, and `after:` starts a workload on it.
 */
bool WorkloadCompleted(const WorkloadMetricsInput& in, const WorkloadProgress& p);

/**
 * When a delivered message's octets arrived at the sink, as the windowed goodput counts them:
 * spread evenly from its first octet placed (or, without that, from the later of its post and the
 * delivery of the sender's previous message `previous`, as a byte stream delivers in order) to its
 * delivery. Counting whole messages at their delivery would let one large message carry a short
 * window past the link's rate.
 */
std::pair<Time, Time> ArrivalSpan(const MessageRecord& m, Time previous);

/**
 * The octets of `messages` (in post order per sender) that arrived in each interval, by the
 * windowed goodput's rule (ArrivalSpan): interval k runs from ends[k-1] (0 for the first) to
 * ends[k], ascending; an instant arrival at an interval's end counts in the next one, as the
 * window [from, to) counts it. The time series' goodput (doc/metrics.md).
 */
std::vector<double> OctetsPerInterval(const std::vector<MessageRecord>& messages, const std::vector<Time>& ends);

/**
 * The longest stretch of time the workload had a message outstanding (posted; not yet delivered, nor flushed)
 * while no message's octets were arriving at its sink (ArrivalSpan), counting to `end` for those outstanding
 * at the end. What a goodput over the whole run hides: a stream that stalls (doc/metrics.md,
 * "longest_stall_ns"). Not seen: a stall inside one message's arrival, which its record has no times for.
 */
Time LongestStall(const std::vector<MessageRecord>& messages, Time end);

/** One Outage per failure time (in time order), each over the window to the next failure or `end`. */
std::vector<Outage> Outages(const std::vector<MessageRecord>& messages, const std::vector<Time>& failures, Time end);

/** Fill `out`'s message counts, octets, completed, goodputs, stall, FCT, sender completion and latency. */
void SummarizeMessages(const std::vector<MessageRecord>& messages, const WorkloadMetricsInput& in, WorkloadResult& out);

} // namespace ns3

#endif // IWARP_SCENARIO_WORKLOAD_METRICS_H
