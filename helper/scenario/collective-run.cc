#include "helper/scenario/collective-run.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveRun");

std::optional<Time>
CollectiveIteration::End() const
{
    Time last = begun;
    for (const std::optional<Time>& e : rankEnd)
    {
        if (!e)
        {
            return std::nullopt;
        }
        last = std::max(last, *e);
    }
    return last;
}

SampleStats
CollectiveResult::CompletionNs() const
{
    std::vector<double> ns;
    for (const CollectiveIteration& i : started)
    {
        if (const std::optional<Time> end = i.End())
        {
            ns.push_back(double((*end - i.begun).GetNanoSeconds()));
        }
    }
    return ComputeStats(ns);
}

std::optional<double>
CollectiveResult::BusBandwidthBps() const
{
    const SampleStats s = CompletionNs();
    if (s.count == 0 || s.mean <= 0)
    {
        return std::nullopt;
    }
    return double(octets) * 8.0 / (s.mean * 1e-9) * busFactor;
}

CollectiveRun::CollectiveRun(std::shared_ptr<const CollectiveSchedule> schedule,
                             std::vector<Ptr<RdmaCollective>> apps,
                             uint32_t iterations,
                             Time gap)
    : m_schedule(std::move(schedule)),
      m_apps(std::move(apps)),
      m_iterations(iterations),
      m_gap(gap)
{
    for (uint32_t rank = 0; rank < m_apps.size(); ++rank)
    {
        const Ptr<RdmaCollective>& app = m_apps[rank];
        app->TraceConnectWithoutContext("Ready", MakeCallback(&CollectiveRun::OnReady, this));
        app->TraceConnectWithoutContext(
            "IterationDone", MakeBoundCallback(+[](CollectiveRun* run, uint32_t r, uint32_t iteration, Time begun) {
                run->OnIterationDone(r, iteration, begun);
            },
                                               this, rank));
        app->TraceConnectWithoutContext(
            "Halted", MakeBoundCallback(+[](CollectiveRun* run, uint32_t r, uint32_t iteration, const std::string& why) {
                run->m_halted.push_back(CollectiveHalt{r, iteration, Simulator::Now(), why});
            },
                                        this, rank));
        for (const bool posted : {true, false})
        {
            app->TraceConnectWithoutContext(
                posted ? "StepPosted" : "StepDone",
                MakeBoundCallback(+[](CollectiveRun* run, uint32_t r, bool p, uint32_t iteration, uint32_t step) {
                    auto& times = run->m_steps[{iteration, r, step}];
                    (p ? times.first : times.second) = Simulator::Now();
                },
                                  this, rank, posted));
        }
    }
}

void
CollectiveRun::OnReady()
{
    if (++m_ready < m_apps.size())
    {
        return;
    }
    NS_LOG_INFO("every rank connected: iteration 0 begins at " << Simulator::Now());
    m_started.push_back(CollectiveIteration{0, Simulator::Now(), std::vector<std::optional<Time>>(m_apps.size())});
    for (const Ptr<RdmaCollective>& app : m_apps)
    {
        app->Begin();
    }
}

void
CollectiveRun::OnIterationDone(uint32_t rank, uint32_t iteration, Time)
{
    m_started.at(iteration).rankEnd.at(rank) = Simulator::Now();
    // The next iteration begins at the first rank to end this one, a gap later.
    if (iteration + 1 < m_iterations && m_started.size() == iteration + 1)
    {
        m_started.push_back(CollectiveIteration{iteration + 1, Simulator::Now() + m_gap,
                                                std::vector<std::optional<Time>>(m_apps.size())});
    }
}

CollectiveResult
CollectiveRun::Result() const
{
    CollectiveResult r;
    r.iterations = m_iterations;
    r.gap = m_gap;
    r.busFactor = m_schedule->BusFactor();
    r.octets = m_schedule->octets;
    r.algorithm = ToString(m_schedule->algorithm);
    r.ranksReady = m_ready;
    r.started = m_started;
    r.halted = m_halted;
    for (const auto& [key, times] : m_steps)
    {
        const auto& [iteration, rank, step] = key;
        r.steps.push_back(CollectiveStepRecord{iteration, rank, step, times.first, times.second});
    }
    return r;
}

} // namespace ns3
