#include "helper/host-helper.h"

#include "ns3/abort.h"

namespace ns3
{

HostHelper::HostHelper()
{
    m_memory.SetTypeId(HostMemoryModel::GetTypeId());
    m_cpu.SetTypeId(HostCpuModel::GetTypeId());
}

void
HostHelper::SetMemoryAttribute(const std::string& name, const AttributeValue& value)
{
    m_memory.Set(name, value);
}

void
HostHelper::SetCpuAttribute(const std::string& name, const AttributeValue& value)
{
    m_cpu.Set(name, value);
}

Ptr<HostModel>
HostHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(node->GetObject<HostModel>(), "HostHelper: node " << node->GetId() << " already has a host model");
    Ptr<HostMemoryModel> mem = m_memory.Create<HostMemoryModel>();
    Ptr<HostCpuModel> cpu = m_cpu.Create<HostCpuModel>();
    Ptr<HostModel> host = CreateObject<HostModel>();
    node->AggregateObject(mem);
    node->AggregateObject(cpu);
    node->AggregateObject(host);
    return host;
}

std::vector<Ptr<HostModel>>
HostHelper::Install(NodeContainer nodes) const
{
    std::vector<Ptr<HostModel>> out;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        out.push_back(Install(*it));
    }
    return out;
}

} // namespace ns3
