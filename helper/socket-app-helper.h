/*
 * Application helpers for the sockets baseline (SocketPingPong, SocketStream), shaped like
 * RdmaPingPongHelper / RdmaStreamHelper so a scenario can swap one for the other:
 *
 *   SocketStreamHelper server(SOCKET_ROLE_SERVER, 9101);
 *   SocketStreamHelper client(SOCKET_ROLE_CLIENT, 9101, InetSocketAddress(serverIp, 9101));
 *   client.SetAttribute("Size", UintegerValue(65536));
 *   ApplicationContainer s = server.Install(nodes.Get(1));
 *   ApplicationContainer c = client.Install(nodes.Get(0));
 *
 * The nodes need an Internet stack; a host model (HostHelper::Install) is optional: with one
 * the applications are charged for DMA, protocol cycles and copies, without one they are not.
 */
#ifndef IWARP_SOCKET_APP_HELPER_H
#define IWARP_SOCKET_APP_HELPER_H

#include "apps/socket-ping-pong.h"
#include "apps/socket-stream.h"

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/** Common part: an ObjectFactory for one application TypeId. */
class SocketAppHelperBase
{
  public:
    void SetAttribute(const std::string& name, const AttributeValue& value);
    ApplicationContainer Install(NodeContainer nodes) const;
    ApplicationContainer Install(Ptr<Node> node) const;

  protected:
    SocketAppHelperBase(TypeId tid, SocketAppRole role, uint16_t port, const Address& remote);
    ObjectFactory m_factory;
};

class SocketPingPongHelper : public SocketAppHelperBase
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    SocketPingPongHelper(SocketAppRole role, uint16_t port, const Address& remote = Address());
};

class SocketStreamHelper : public SocketAppHelperBase
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    SocketStreamHelper(SocketAppRole role, uint16_t port, const Address& remote = Address());
};

} // namespace ns3

#endif // IWARP_SOCKET_APP_HELPER_H
