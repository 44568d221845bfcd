/*
 * ConnectionManager: listen, connect with private data, accept or reject (iWARP CM). It owns
 * the transport set-up: a TCP connection and MPA on it (the only LLP so far; SCTP joins later
 * through the same calls), and binds the application's QueuePair to the resulting stream.
 */
#ifndef IWARP_CONNECTION_MANAGER_H
#define IWARP_CONNECTION_MANAGER_H

#include "mpa/mpa-connection.h"
#include "rnic/queue-pair.h"

#include "ns3/address.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <map>
#include <vector>

namespace ns3
{

/** A peer's connection request, waiting for the listener's Accept or Reject. */
class ConnectionRequest : public SimpleRefCount<ConnectionRequest>
{
  public:
    Ptr<MpaConnection> mpa;
    Address from;
    uint16_t port{0};
    std::vector<uint8_t> privateData;
    uint16_t peerIrd{0};
    bool peerIrdKnown{false}; ///< the Request was Rev 2 with IRD/ORD words (RFC 6581)
    uint16_t peerOrd{0};
};

class ConnectionManager : public Object
{
  public:
    static TypeId GetTypeId();
    ConnectionManager();

    typedef Callback<void, Ptr<ConnectionRequest>> RequestCallback;
    /** (qp, accepted, the peer's private data). */
    typedef Callback<void, Ptr<QueuePair>, bool, const std::vector<uint8_t>&> ConnectCallback;

    void SetNode(Ptr<Node> node) { m_node = node; }

    /** Listen on TCP `port`; every MPA Request is handed to `cb`. */
    void Listen(uint16_t port, RequestCallback cb);
    /** Accept a request on `qp` with `privateData` (QP ready for work at once). */
    void Accept(Ptr<ConnectionRequest> req, Ptr<QueuePair> qp, const std::vector<uint8_t>& privateData);
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData);
    /** Connect `qp` to `remote` (an InetSocketAddress); `cb` reports the outcome. */
    void Connect(Ptr<QueuePair> qp, const Address& remote, const std::vector<uint8_t>& privateData,
                 ConnectCallback cb);

  protected:
    void DoDispose() override;

  private:
    bool OnTcpRequest(Ptr<Socket>, const Address&) { return true; }
    void OnTcpAccept(uint16_t port, Ptr<Socket> s, const Address& from);
    void OnMpaRequest(uint16_t port, Address from, Ptr<MpaConnection> c, const MpaSetupFrame& f);

    Ptr<Node> m_node;
    std::map<uint16_t, Ptr<Socket>> m_listeners;
    std::map<uint16_t, RequestCallback> m_requestCbs;
    std::vector<Ptr<MpaConnection>> m_connections;
};

} // namespace ns3

#endif // IWARP_CONNECTION_MANAGER_H
