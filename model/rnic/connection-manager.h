/*
 * ConnectionManager: listen, connect with private data, accept or reject (iWARP CM). It owns
 * the transport set-up, and binds the application's QueuePair to the resulting stream. The LLP is
 * chosen by the "Llp" attribute: MPA over a TCP connection (default), or a DDP session (RFC 5043) on
 * stream "SctpStream" of an SCTP association per connection (the node needs SctpHelper's SCTP).
 */
#ifndef IWARP_CONNECTION_MANAGER_H
#define IWARP_CONNECTION_MANAGER_H

#include "mpa/mpa-connection.h"
#include "sctp-ddp/sctp-ddp-connection.h"
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
    Ptr<MpaConnection> mpa;        ///< MPA/TCP requests
    Ptr<SctpDdpConnection> sctp;   ///< SCTP requests: the session whose Initiate waits for Accept / Reject
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

    enum Llp
    {
        LLP_MPA,
        LLP_SCTP,
    };

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

    void ListenSctp(uint16_t port);
    void OnSctpAccept(uint16_t port, Ptr<Socket> s, const Address& from);
    void ConnectSctp(Ptr<QueuePair> qp, const Address& remote, const std::vector<uint8_t>& privateData,
                     ConnectCallback cb);

    Llp m_llp{LLP_MPA};
    uint16_t m_sctpStream{1};
    std::vector<Ptr<SctpDdpAssociation>> m_sctpAssocs;
    Ptr<Node> m_node;
    std::map<uint16_t, Ptr<Socket>> m_listeners;
    std::map<uint16_t, RequestCallback> m_requestCbs;
    std::vector<Ptr<MpaConnection>> m_connections;
};

} // namespace ns3

#endif // IWARP_CONNECTION_MANAGER_H
