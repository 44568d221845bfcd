/*
 * The random streams a scenario run assigns (ns-3's RandomVariableStream::SetStream), one range per user, so
 * that adding a user (a lossy link, a link-change, a traffic workload) moves no other draw. Streams ns-3
 * assigns by itself start at 2^63 and never meet these.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_RANDOM_STREAMS_H
#define IWARP_SCENARIO_RANDOM_STREAMS_H

#include <cstdint>

namespace ns3
{
namespace scenario
{

/** BuiltTopology::AssignStreams: at most three per link (a loss model each way and a reordering channel). */
inline constexpr int64_t kTopologyFirstStream = 1000;
/** Loss models that link-change events make (ScenarioEvents): one per way of a link. */
inline constexpr int64_t kLinkChangeFirstStream = 500'000;
/** Traffic workloads: this many streams each, room for FlowArrivals::StreamsUsed of 300,000 hosts. */
inline constexpr int64_t kTrafficFirstStream = 1'000'000;
inline constexpr int64_t kTrafficStreamsPerWorkload = 1'000'000;

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_RANDOM_STREAMS_H
