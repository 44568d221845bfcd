/*
 * The slowdown of a load's flows by flow size (doc/metrics.md, "slowdown"): each delivered flow's FCT over its
 * ideal FCT (ideal-fct.h), summarised per bucket of sizes a decade wide ([1, 10), [10, 100), ... octets), with
 * the flows of the bucket that never completed counted beside the percentiles, never left out.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SLOWDOWN_H
#define IWARP_SCENARIO_SLOWDOWN_H

#include "helper/scenario/results-writer.h"

#include <vector>

namespace ns3
{

/** The buckets that hold a flow, smallest sizes first; a message without an ideal FCT counts as not completed. */
std::vector<SlowdownBucket> SlowdownBuckets(const std::vector<MessageRecord>& messages);

} // namespace ns3

#endif // IWARP_SCENARIO_SLOWDOWN_H
