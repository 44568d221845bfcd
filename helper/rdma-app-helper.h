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
#ifndef IWARP_RDMA_APP_HELPER_H
#define IWARP_RDMA_APP_HELPER_H

#include "apps/rdma-ping-pong.h"
#include "apps/rdma-stream.h"

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/** Common part: an ObjectFactory for one application TypeId. */
class RdmaAppHelperBase
{
  public:
    void SetAttribute(const std::string& name, const AttributeValue& value);
    ApplicationContainer Install(NodeContainer nodes) const;
    ApplicationContainer Install(Ptr<Node> node) const;

  protected:
    RdmaAppHelperBase(TypeId tid, RdmaAppRole role, uint16_t port, const Address& remote);
    ObjectFactory m_factory;
};

class RdmaPingPongHelper : public RdmaAppHelperBase
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    RdmaPingPongHelper(RdmaAppRole role, uint16_t port, const Address& remote = Address());
};

class RdmaStreamHelper : public RdmaAppHelperBase
{
  public:
    /** A server on `port`, or a client of `remote` (an InetSocketAddress). */
    RdmaStreamHelper(RdmaAppRole role, uint16_t port, const Address& remote = Address());
};

} // namespace ns3

#endif // IWARP_RDMA_APP_HELPER_H
