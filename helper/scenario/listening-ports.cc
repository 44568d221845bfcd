#include "helper/scenario/listening-ports.h"

#include "helper/scenario/workloads/workload-kind.h"

#include <map>

namespace ns3
{

std::size_t
ListeningPortsOf(const WorkloadConfig& w)
{
    // An inject uses its target's connection; a ping-pong has a connection per size of its sweep.
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.family == WorkloadFamily::Inject)
    {
        return 0;
    }
    return kind.pingPong && !w.sizes.empty() ? w.sizes.size() : 1;
}

std::vector<std::string>
ListeningNodesOf(const WorkloadConfig& w)
{
    return IsHostGroup(w.kind) ? w.hosts : std::vector<std::string>{w.to};
}

ListeningPortPlan
PlanListeningPorts(const std::vector<WorkloadConfig>& workloads)
{
    ListeningPortPlan plan;
    plan.firstPort.assign(workloads.size(), 0);
    std::map<std::string, std::size_t> used; // node -> ports given out on it
    for (std::size_t i = 0; i < workloads.size(); ++i)
    {
        const std::size_t need = ListeningPortsOf(workloads[i]);
        if (need == 0)
        {
            continue;
        }
        // A host group listens on every host, on one port (each host connects to its peers' port): the first
        // that none of them has given out.
        const std::vector<std::string> nodes = ListeningNodesOf(workloads[i]);
        std::size_t onNode = 0;
        for (const std::string& n : nodes)
        {
            if (used[n] >= onNode)
            {
                onNode = used[n];
                plan.node = n;
            }
        }
        if (onNode + need > kListeningPortsPerNode)
        {
            plan.overflowAt = i;
            plan.portsOnNode = onNode + need;
            return plan;
        }
        plan.firstPort[i] = uint16_t(kFirstListeningPort + onNode);
        for (const std::string& n : nodes)
        {
            used[n] = onNode + need;
        }
    }
    return plan;
}

std::string
ListeningPortsExhausted(const ListeningPortPlan& plan)
{
    return "node " + plan.node + " would listen on " + std::to_string(plan.portsOnNode) + " ports with this workload; " +
           std::to_string(kListeningPortsPerNode) + " are available (" + std::to_string(kFirstListeningPort) + "-" +
           std::to_string(kLastListeningPort) + ": one per workload served there, one per size of a ping-pong)";
}

} // namespace ns3
