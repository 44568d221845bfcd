/*
 * AppHelper<App>: an application helper, in the shape of ns-3's: an ObjectFactory for App's TypeId,
 * SetAttribute, and Install returning an ApplicationContainer. RoleAppHelper<App, Role> is one for an
 * application with a Role attribute of enum type `Role` (client or server), a Port and a Remote.
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

/** An ObjectFactory for App's TypeId, its attributes set before Install makes and adds the applications. */
template <typename App>
class AppHelper
{
  public:
    AppHelper() { m_factory.SetTypeId(App::GetTypeId()); }

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

template <typename App, typename Role>
class RoleAppHelper : public AppHelper<App>
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    RoleAppHelper(Role role, uint16_t port, const Address& remote = Address())
    {
        this->m_factory.Set("Role", EnumValue(role));
        this->m_factory.Set("Port", UintegerValue(port));
        if (!remote.IsInvalid())
        {
            this->m_factory.Set("Remote", AddressValue(remote));
        }
    }
};

} // namespace ns3

#endif // IWARP_APP_HELPER_BASE_H
