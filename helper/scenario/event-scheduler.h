/*
 * The event scheduler a scenario runs on (`scheduler:` in doc/scenario-format.md). ns-3 keeps its
 * pending events in a Scheduler; every one of them orders events by time, then by insertion order
 * (Scheduler::EventKey), so the choice changes how fast a run goes, never what it computes. The
 * scenario-scheduler suite checks that: one scenario gives the same summary on each of them.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_EVENT_SCHEDULER_H
#define IWARP_SCENARIO_EVENT_SCHEDULER_H

#include "ns3/type-id.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/** The scheduler a scenario gets when it names none: ns-3's PriorityQueueScheduler, the fastest on the k = 8 fat-tree (doc/performance.md). */
extern const char* const kDefaultScheduler;

/** The short names (`map`, `heap`, `calendar`, `list`, `priority-queue`), sorted. */
std::vector<std::string> SchedulerNames();

/**
 * The TypeId of `name`: a short name above, or the name of any registered TypeId derived from
 * ns3::Scheduler (`ns3::CalendarScheduler`, or a user's own). nullopt for anything else.
 */
std::optional<TypeId> FindScheduler(const std::string& name);

/** Makes the simulator keep its events in `name`'s scheduler (call before anything is scheduled). */
void UseScheduler(const std::string& name);

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_EVENT_SCHEDULER_H
