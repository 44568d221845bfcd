#include "helper/socket-app-helper.h"

#include "ns3/address.h"
#include "ns3/enum.h"
#include "ns3/uinteger.h"

namespace ns3
{

SocketAppHelperBase::SocketAppHelperBase(TypeId tid, SocketAppRole role, uint16_t port, const Address& remote)
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
SocketAppHelperBase::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
SocketAppHelperBase::Install(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
SocketAppHelperBase::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        apps.Add(Install(*it));
    }
    return apps;
}

SocketPingPongHelper::SocketPingPongHelper(SocketAppRole role, uint16_t port, const Address& remote)
    : SocketAppHelperBase(SocketPingPong::GetTypeId(), role, port, remote)
{
}

SocketStreamHelper::SocketStreamHelper(SocketAppRole role, uint16_t port, const Address& remote)
    : SocketAppHelperBase(SocketStream::GetTypeId(), role, port, remote)
{
}

} // namespace ns3
