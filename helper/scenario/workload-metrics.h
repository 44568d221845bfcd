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
    /** `measure: {from, to}`, for the windowed goodput. */
    std::optional<std::pair<Time, Time>> window;
    /** Ping-pong: half round trips in ns by message size, as the application measured them. */
    std::map<uint64_t, std::vector<double>> halfRttNs;
};

/** Fill `out`'s message counts, octets, completed, goodputs, FCT, sender completion and latency. */
void SummarizeMessages(const std::vector<MessageRecord>& messages, const WorkloadMetricsInput& in, WorkloadResult& out);

} // namespace ns3

#endif // IWARP_SCENARIO_WORKLOAD_METRICS_H
