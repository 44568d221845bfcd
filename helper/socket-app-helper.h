/*
 * Application helpers for the sockets baseline (SocketPingPong, SocketStream, SocketTraffic), shaped like
 * RdmaPingPongHelper / RdmaStreamHelper / RdmaTrafficHelper so a scenario can swap one for the other:
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
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_SOCKET_APP_HELPER_H
#define IWARP_SOCKET_APP_HELPER_H

#include "helper/app-helper-base.h"

#include "apps/socket-ping-pong.h"
#include "apps/socket-stream.h"
#include "apps/socket-traffic.h"

namespace ns3
{

// SocketPingPongHelper(role, port, remote = Address()): a server on `port`, or a client of
// `remote` (an InetSocketAddress); likewise SocketStreamHelper. See RoleAppHelper.
using SocketPingPongHelper = RoleAppHelper<SocketPingPong, SocketAppRole>;
using SocketStreamHelper = RoleAppHelper<SocketStream, SocketAppRole>;

/** SocketTraffic on nodes, every one listening on and connecting to `port` (each end is both). */
class SocketTrafficHelper : public AppHelper<SocketTraffic>
{
  public:
    explicit SocketTrafficHelper(uint16_t port) { m_factory.Set("Port", UintegerValue(port)); }
};

} // namespace ns3

#endif // IWARP_SOCKET_APP_HELPER_H
