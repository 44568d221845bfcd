/*
 * MpaLlpConnector: DDP streams as MPA connections (RFC 5044, RFC 6581 enhanced set-up) over ns-3
 * TCP. Listen binds a TCP listener; each accepted TCP connection runs an MpaConnection responder
 * whose Request becomes a ConnectionRequest (with the peer's IRD/ORD when it was Rev 2 with them).
 * Connect opens a TCP connection and sends the Request with this side's IRD/ORD; the Reply may
 * lower the ORD to the responder's IRD (MpaConnection's LowerOrdToPeerIrd).
 *
 * Every TCP socket is set up by the node's TransportProfile before it is bound or connected.
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_LLP_CONNECTOR_H
#define IWARP_MPA_LLP_CONNECTOR_H

#include "ddp/llp-connector.h"
#include "ddp/llp-listeners.h"

#include <vector>

namespace ns3
{

class MpaConnection;
class MpaSetupFrame;

class MpaLlpConnector : public LlpConnector
{
  public:
    static TypeId GetTypeId();
    MpaLlpConnector();
    ~MpaLlpConnector() override;

    void Listen(uint16_t port, RequestCallback cb) override;
    void Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird, uint16_t ord,
                 StreamCallback stream, ConnectCallback done) override;
    void Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord, const std::vector<uint8_t>& privateData,
                StreamCallback stream) override;
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData) override;

  protected:
    void DoDispose() override;

  private:
    bool OnTcpRequest(Ptr<Socket>, const Address&) { return true; }
    void OnTcpAccept(uint16_t port, Ptr<Socket> s, const Address& from);
    void OnMpaRequest(uint16_t port, Address from, Ptr<MpaConnection> c, const MpaSetupFrame& f);
    static void OnReply(ConnectCallback done, Ptr<MpaConnection> c, const MpaSetupFrame& f);
    static void OnSetupFailed(ConnectCallback done, uint16_t ord, Ptr<MpaConnection> c, iwarp::ErrorCause cause);
    /** The MPA connection behind one of this connector's requests (aborts on another LLP's). */
    static Ptr<MpaConnection> ConnectionOf(Ptr<ConnectionRequest> req);

    LlpListeners m_listeners;
    std::vector<Ptr<MpaConnection>> m_connections;
};

} // namespace ns3

#endif // IWARP_MPA_LLP_CONNECTOR_H
