/*
 * ConnectionManager: listen, connect with private data, accept or reject (iWARP CM), and bind the
 * application's QueuePair to the resulting stream. The LLP's own set-up is an LlpConnector's, of the
 * TypeId in the "LlpConnector" attribute: ns3::MpaLlpConnector (MPA over TCP, the default) or
 * ns3::SctpDdpLlpConnector (RFC 5043 over SCTP; the node needs SctpHelper's SCTP). The manager
 * keeps the IRD/ORD rules (RFC 6581): an accepting QP never has more Reads outstanding than the
 * initiator said it takes in, and an initiator's ORD follows what set-up left it.
 *
 * The connector is made on the first Listen or Connect after the attribute changes; each
 * listening port keeps the connector it was listened on with, which answers its requests.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_CONNECTION_MANAGER_H
#define IWARP_CONNECTION_MANAGER_H

#include "ddp/llp-connector.h"
#include "rnic/queue-pair.h"

#include "ns3/address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <map>
#include <vector>

namespace ns3
{

class ConnectionManager : public Object
{
  public:
    static TypeId GetTypeId();
    ConnectionManager();

    typedef LlpConnector::RequestCallback RequestCallback;
    /** (qp, accepted, the peer's private data). */
    typedef Callback<void, Ptr<QueuePair>, bool, const std::vector<uint8_t>&> ConnectCallback;

    /** The node whose transport the connectors use (also the one already made). */
    void SetNode(Ptr<Node> node);

    /** Listen on transport `port`; every request is handed to `cb`. */
    void Listen(uint16_t port, RequestCallback cb);
    /** Accept a request on `qp` with `privateData` (QP ready for work at once). */
    void Accept(Ptr<ConnectionRequest> req, Ptr<QueuePair> qp, const std::vector<uint8_t>& privateData);
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData);
    /** Connect `qp` to `remote` (an InetSocketAddress); `cb` reports the outcome. */
    void Connect(Ptr<QueuePair> qp, const Address& remote, const std::vector<uint8_t>& privateData,
                 ConnectCallback cb);

    /**
     * Choose the LLP: false (and nothing changes) unless `tid` is an LlpConnector that can be
     * created, so that SetAttribute fails and SetAttributeFailSafe returns false.
     */
    [[nodiscard]] bool SetConnectorType(TypeId tid);
    TypeId GetConnectorType() const { return m_connectorType; }
    /** The connector the next Listen or Connect uses (made now if needed), e.g. to set its Attributes. */
    Ptr<LlpConnector> GetConnector();

  protected:
    void DoDispose() override;

  private:
    /** Connect's outcome from the connector: the QP's ORD follows set-up, then the ULP is told. */
    static void OnConnected(ConnectCallback cb, Ptr<QueuePair> qp, const LlpConnectResult& r);
    /** The connector that listened on `req`'s port: it answers the request. */
    Ptr<LlpConnector> ConnectorOf(Ptr<ConnectionRequest> req) const;

    TypeId m_connectorType;
    Ptr<LlpConnector> m_connector;           ///< of m_connectorType, once made
    std::vector<Ptr<LlpConnector>> m_retired; ///< made before a type change; their streams may live on
    Ptr<Node> m_node;
    std::map<uint16_t, Ptr<LlpConnector>> m_listeners;
};

} // namespace ns3

#endif // IWARP_CONNECTION_MANAGER_H
