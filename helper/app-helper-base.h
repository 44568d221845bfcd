/*
 * RoleAppHelper<App, Role>: an application helper, in the shape of ns-3's, for an application
 * `App` with a Role attribute of enum type `Role` (client or server), a Port and a Remote: an
 * ObjectFactory for App's TypeId, SetAttribute, and Install returning an ApplicationContainer.
 * RdmaPingPongHelper, RdmaStreamHelper (rdma-app-helper.h), SocketPingPongHelper and
 * SocketStreamHelper (socket-app-helper.h) are instances of it.
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_APP_HELPER_BASE_H
#define IWARP_APP_HELPER_BASE_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/enum.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

template <typename App, typename Role>
class RoleAppHelper
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    RoleAppHelper(Role role, uint16_t port, const Address& remote = Address())
    {
        m_factory.SetTypeId(App::GetTypeId());
        m_factory.Set("Role", EnumValue(role));
        m_factory.Set("Port", UintegerValue(port));
        if (!remote.IsInvalid())
        {
            m_factory.Set("Remote", AddressValue(remote));
        }
    }

    void SetAttribute(const std::string& name, const AttributeValue& value) { m_factory.Set(name, value); }

    ApplicationContainer Install(Ptr<Node> node) const
    {
        Ptr<Application> app = m_factory.Create<Application>();
        node->AddApplication(app);
        return ApplicationContainer(app);
    }

    ApplicationContainer Install(NodeContainer nodes) const
    {
        ApplicationContainer apps;
        for (auto it = nodes.Begin(); it != nodes.End(); ++it)
        {
            apps.Add(Install(*it));
        }
        return apps;
    }

  protected:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif // IWARP_APP_HELPER_BASE_H
