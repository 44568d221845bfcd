#include "helper/rdma-app-helper.h"

#include "ns3/address.h"
#include "ns3/enum.h"
#include "ns3/uinteger.h"

namespace ns3
{

RdmaAppHelperBase::RdmaAppHelperBase(TypeId tid, RdmaAppRole role, uint16_t port, const Address& remote)
{
    m_factory.SetTypeId(tid);
    m_factory.Set("Role", EnumValue(role));
    m_factory.Set("Port", UintegerValue(port));
    if (!remote.IsInvalid())
    {
        m_factory.Set("Remote", AddressValue(remote));
    }
}

void
RdmaAppHelperBase::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RdmaAppHelperBase::Install(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
RdmaAppHelperBase::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        apps.Add(Install(*it));
    }
    return apps;
}

RdmaPingPongHelper::RdmaPingPongHelper(RdmaAppRole role, uint16_t port, const Address& remote)
    : RdmaAppHelperBase(RdmaPingPong::GetTypeId(), role, port, remote)
{
}

RdmaStreamHelper::RdmaStreamHelper(RdmaAppRole role, uint16_t port, const Address& remote)
    : RdmaAppHelperBase(RdmaStream::GetTypeId(), role, port, remote)
{
}

} // namespace ns3
