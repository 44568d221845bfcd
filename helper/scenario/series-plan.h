/*
 * What a scenario's `tracing.series` samples, worked out from the ScenarioConfig alone: the flows
 * and link directions, the quantities of each, and so the number of series.csv rows.  The loader
 * refuses a plan above kMaxSeriesRows with this count and the SeriesRecorder samples exactly this
 * plan, so the limit and the file cannot disagree.
 *
 *   SeriesPlan plan = PlanSeries(cfg);   // cfg.tracing.series is set
 *   plan.Rows();                         // samples x series, at most (rtt has no row before its first estimate)
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SERIES_PLAN_H
#define IWARP_SCENARIO_SERIES_PLAN_H

#include "helper/scenario/scenario-config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** One sampled flow: a workload's messages from one initiator (incast: one per sender). */
struct SeriesFlowPlan
{
    std::size_t workload{0}; ///< index into ScenarioConfig::workloads
    std::string initiator;   ///< the host that posts the flow's messages (`from`, or an incast sender)
    std::string subject;     ///< "<workload>/<initiator>"
    bool goodput{false};     ///< not for ping-pong kinds: a round trip at a time is no throughput
    bool cwnd{false};
    bool rtt{false};
    bool paths{false}; ///< data_path and heartbeats (an SCTP sender's; none for TCP)
};

/** One sampled link direction: the queue at `from`'s device towards `to`. */
struct SeriesLinkPlan
{
    std::string from;
    std::string to;
    std::size_t parallel{0}; ///< which of several links between the two (0: the first)
    std::string subject;     ///< "from->to", "from->to#2" for a second parallel link, ...
};

struct SeriesPlan
{
    Time interval;
    Time stop;
    std::vector<SeriesFlowPlan> flows;
    std::vector<SeriesLinkPlan> directions; ///< empty unless `queue` is sampled
    bool pfc{false}; ///< `topology.pfc`: each direction's `paused` too
    /** Samples per series: one at the end of each interval, the last at the stop. */
    uint64_t Samples() const;
    /** The series: one per flow and quantity, two per link direction (packets, octets), three with PFC. */
    uint64_t SeriesCount() const;
    /** Samples() x SeriesCount(), UINT64_MAX when that does not fit. */
    uint64_t Rows() const;
    /** When sample k (from 0) is taken: the end of its interval, at most the stop. */
    Time SampleTime(uint64_t k) const;
};

/** The plan of `cfg.tracing.series` (which must be set). */
SeriesPlan PlanSeries(const ScenarioConfig& cfg);

/** Whether a workload kind's flows have a goodput: not ping-pongs (doc/metrics.md), not inject. */
bool HasGoodput(WorkloadKind k);

/** The initiators of a workload's flows: `from`, each incast sender; none for inject. */
std::vector<std::string> FlowInitiators(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_SCENARIO_SERIES_PLAN_H
