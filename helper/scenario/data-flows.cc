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

DeliveryPoint
DeliveryPointOf(const WorkloadConfig& w)
{
    if (Describe(w.kind).family != WorkloadFamily::Rdma)
    {
        return DeliveryPoint::Application;
    }
    if (DataFlowsBack(w))
    {
        return DeliveryPoint::RequesterCompletion;
    }
    return w.op == RdmaOp::Send ? DeliveryPoint::ReceiveCompletion : DeliveryPoint::Placement;
}

std::vector<DataFlow>
DataFlowsOf(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.family == WorkloadFamily::Inject)
    {
        return {};
    }
    if (kind.hostGroup)
    {
        std::vector<DataFlow> out;
        for (const WorkloadConnection& c : ConnectionsOf(w))
        {
            out.push_back({c.initiator, c.responder}); // traffic Writes: data flows with the connection
        }
        return out;
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

std::vector<WorkloadConnection>
ConnectionsOf(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    std::vector<WorkloadConnection> out;
    if (kind.family == WorkloadFamily::Inject)
    {
        return out;
    }
    if (kind.hostGroup && w.pattern == TrafficPattern::Pairs)
    {
        for (const auto& [from, to] : w.pairs)
        {
            out.push_back({from, to, "pairs", std::nullopt}); // only these ever connect
        }
        return out;
    }
    if (kind.hostGroup)
    {
        for (std::size_t i = 0; i < w.hosts.size(); ++i)
        {
            for (const std::string& peer : w.hosts)
            {
                if (peer != w.hosts[i])
                {
                    out.push_back({w.hosts[i], peer, "hosts", i});
                }
            }
        }
        return out;
    }
    if (kind.manySenders)
    {
        for (std::size_t i = 0; i < w.senders.size(); ++i)
        {
            out.push_back({w.senders[i], w.to, "senders", i});
        }
        return out;
    }
    out.push_back({w.from, w.to, "to", std::nullopt});
    return out;
}

WorkloadKeyAt
KeyOfConnection(const YAML::Node& entry, const std::string& path, const WorkloadConnection& c)
{
    const YAML::Node key = entry[c.key];
    if (!key.IsDefined())
    {
        return {entry, path};
    }
    const std::string keyPath = path + "." + c.key;
    if (c.index && key.IsSequence() && *c.index < key.size())
    {
        return {key[*c.index], keyPath + "." + std::to_string(*c.index)};
    }
    return {key, keyPath};
}

std::vector<std::string>
HostsOf(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.hostGroup)
    {
        return w.hosts;
    }
    std::vector<std::string> hosts = kind.manySenders ? w.senders : std::vector<std::string>{w.from};
    hosts.push_back(w.to);
    return hosts;
}

} // namespace ns3
