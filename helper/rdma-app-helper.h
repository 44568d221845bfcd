/*
 * Application helpers for the RDMA applications, in the shape of ns-3's application helpers:
 * an ObjectFactory set up with SetAttribute, and Install returning an ApplicationContainer.
 *
 *   RdmaPingPongHelper server(RDMA_ROLE_SERVER, 9000);
 *   RdmaPingPongHelper client(RDMA_ROLE_CLIENT, 9000, InetSocketAddress(serverIp, 9000));
 *   client.SetAttribute("Mode", StringValue("Write"));
 *   ApplicationContainer s = server.Install(nodes.Get(1));
 *   ApplicationContainer c = client.Install(nodes.Get(0));
 *
 * The nodes need an Rnic (IwarpHelper::Install) before the applications start.
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_RDMA_APP_HELPER_H
#define IWARP_RDMA_APP_HELPER_H

#include "helper/app-helper-base.h"

#include "apps/rdma-collective.h"
#include "apps/rdma-ping-pong.h"
#include "apps/rdma-stream.h"
#include "apps/rdma-traffic.h"

namespace ns3
{

// RdmaPingPongHelper(role, port, remote = Address()): a server on `port`, or a client of
// `remote` (an InetSocketAddress); likewise RdmaStreamHelper. See RoleAppHelper.
using RdmaPingPongHelper = RoleAppHelper<RdmaPingPong, RdmaAppRole>;
using RdmaStreamHelper = RoleAppHelper<RdmaStream, RdmaAppRole>;

/** RdmaTraffic on nodes, every one listening on and connecting to `port` (it has no roles: each end is both). */
class RdmaTrafficHelper : public AppHelper<RdmaTraffic>
{
  public:
    explicit RdmaTrafficHelper(uint16_t port) { m_factory.Set("Port", UintegerValue(port)); }
};

/** RdmaCollective on nodes, every rank listening on and connecting to `port`; each needs Configure before it starts. */
class RdmaCollectiveHelper : public AppHelper<RdmaCollective>
{
  public:
    explicit RdmaCollectiveHelper(uint16_t port) { m_factory.Set("Port", UintegerValue(port)); }
};

} // namespace ns3

#endif // IWARP_RDMA_APP_HELPER_H
