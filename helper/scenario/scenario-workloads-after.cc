/*
 * ScenarioWorkloads, the start of each workload: at its `start`, or, with `after`, `start` after the last of
 * the workloads it waits for has completed (doc/metrics.md, `completed`), which the run's progress counts say
 * as it goes (NoteProgress). A workload is installed when it is due: applications installed during the run
 * count their start times from then (Delay). A traffic load's closed loop hears of each flow that ended here
 * (NoteFlowEnded).
 */
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/traffic-load.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

Time
ScenarioWorkloads::Delay(Time at)
{
    return at > Simulator::Now() ? at - Simulator::Now() : Time(0);
}

void
ScenarioWorkloads::NoteDelivered(Workload& w, const std::string& sender)
{
    ++w.progress.delivered;
    NoteFlowEnded(w, sender, true);
    NoteProgress(w);
}

void
ScenarioWorkloads::NoteFlowEnded(Workload& w, const std::string& sender, bool delivered)
{
    if (w.load)
    {
        auto it = w.hostIndex.find(sender);
        if (it != w.hostIndex.end())
        {
            w.load->FlowEnded(it->second, delivered); // a closed loop starts the sender's next flow
        }
    }
}

void
ScenarioWorkloads::NoteProgress(Workload& w)
{
    if (w.completedAt || !WorkloadCompleted(CompletionInput(w), w.progress))
    {
        return;
    }
    w.completedAt = Simulator::Now();
    for (auto& next : m_workloads)
    {
        const std::vector<std::size_t>& after = next->cfg->after;
        const bool ready = !after.empty() && !next->installed &&
                           std::all_of(after.begin(), after.end(),
                                       [this](std::size_t i) { return m_workloads[i]->completedAt.has_value(); });
        if (ready)
        {
            next->start = Simulator::Now() + next->cfg->start;
            next->installed = true; // now: a second completion in this instant must not install it twice
            // From a clean stack: this runs inside a trace of the workload that completed.
            Simulator::ScheduleNow([this, wl = next.get()]() {
                wl->installed = false;
                InstallWorkload(*wl);
            });
        }
    }
}

} // namespace ns3
