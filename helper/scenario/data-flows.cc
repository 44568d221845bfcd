#include "helper/scenario/data-flows.h"

#include "helper/scenario/workloads/workload-kind.h"

namespace ns3
{

bool
DataFlowsBack(const WorkloadConfig& w)
{
    return w.op == RdmaOp::Read;
}

const std::string&
DataSinkOf(const WorkloadConfig& w)
{
    return DataFlowsBack(w) ? w.from : w.to;
}

std::vector<DataFlow>
DataFlowsOf(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.family == WorkloadFamily::Inject)
    {
        return {};
    }
    if (kind.manySenders)
    {
        std::vector<DataFlow> out;
        for (const std::string& sender : w.senders)
        {
            out.push_back({sender, w.to});
        }
        return out;
    }
    if (DataFlowsBack(w))
    {
        return {{w.to, w.from}};
    }
    return {{w.from, w.to}};
}

} // namespace ns3
