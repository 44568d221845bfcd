/*
 * CollectiveRun: the ranks of one `collective` workload together (doc/collectives.md). It begins every rank's
 * first iteration at the instant the last of them is connected (a communicator's set-up ends before its first
 * collective, so connection set-up is not in the collective's time), and keeps, from the ranks' traces, when
 * each iteration began and ended at each rank and when each rank's every step was posted and done: what
 * summary.json and collective-steps.csv report. The per-step records grow with iterations x ranks x steps.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_COLLECTIVE_RUN_H
#define IWARP_COLLECTIVE_RUN_H

#include "helper/scenario/results-writer.h"

#include "apps/rdma-collective.h"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace ns3
{

class CollectiveRun
{
  public:
    /** `apps[r]` is rank r of `schedule`, configured; each runs `iterations` iterations `gap` apart. */
    CollectiveRun(std::shared_ptr<const CollectiveSchedule> schedule,
                  std::vector<Ptr<RdmaCollective>> apps,
                  uint32_t iterations,
                  Time gap);

    /** The ranks' times so far (everything of CollectiveResult but the names, the ideal and the size's facts). */
    CollectiveResult Result() const;

  private:
    void OnReady();
    void OnIterationDone(uint32_t rank, uint32_t iteration, Time begun);

    std::shared_ptr<const CollectiveSchedule> m_schedule;
    std::vector<Ptr<RdmaCollective>> m_apps;
    uint32_t m_iterations;
    Time m_gap;
    uint32_t m_ready{0};
    std::vector<CollectiveIteration> m_started;
    std::vector<CollectiveHalt> m_halted;
    /** (iteration, rank, step) -> (posted, done). */
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<std::optional<Time>, std::optional<Time>>> m_steps;
};

} // namespace ns3

#endif // IWARP_COLLECTIVE_RUN_H
