#include "helper/host-helper.h"

#include "ns3/abort.h"
#include "ns3/string.h"

namespace ns3
{

HostHelper::HostHelper()
{
    m_memory.SetTypeId(HostMemoryModel::GetTypeId());
    m_cpu.SetTypeId(HostCpuModel::GetTypeId());
    m_host.SetTypeId(HostModel::GetTypeId());
}

void
HostHelper::SetHostAttribute(const std::string& name, const AttributeValue& value)
{
    m_host.Set(name, value);
}

void
HostHelper::SetProfile(const HostProfile& profile)
{
    const std::pair<std::string, ObjectFactory*> parts[] = {{"ns3::HostCpuModel::", &m_cpu},
                                                            {"ns3::HostMemoryModel::", &m_memory},
                                                            {"ns3::HostModel::", &m_host}};
    for (const HostProfileValue& v : profile.values)
    {
        bool set = false;
        for (const auto& [prefix, factory] : parts)
        {
            if (v.attribute.rfind(prefix, 0) == 0)
            {
                factory->Set(v.attribute.substr(prefix.size()), StringValue(v.value));
                set = true;
            }
        }
        NS_ABORT_MSG_UNLESS(set, "HostHelper: profile " << profile.name << " sets " << v.attribute
                                                        << ", no attribute of a host part");
    }
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
    Ptr<HostModel> host = m_host.Create<HostModel>();
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
