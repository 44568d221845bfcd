/*
 * SctpDdpLlpConnector: DDP streams as RFC 5043 sessions over our SCTP model, one SCTP association
 * (with the DDP adaptation indication and kStreams streams) per connection. Connect opens an
 * association and, once it is up, a session on stream "SctpStream" whose Initiate carries the
 * private data; a listener hands each peer's Initiate out as a ConnectionRequest. RFC 5043
 * negotiates no IRD/ORD: requests carry none and Connect reports the ORD it was given.
 *
 * The node needs SCTP (SctpHelper); every SCTP socket is set up by its TransportProfile first.
 */
/**
 * \file
 * \ingroup iwarp-sctp-ddp
 */
#ifndef IWARP_SCTP_DDP_LLP_CONNECTOR_H
#define IWARP_SCTP_DDP_LLP_CONNECTOR_H

#include "ddp/llp-connector.h"
#include "ddp/llp-listeners.h"

#include <memory>
#include <vector>

namespace ns3
{

class SctpDdpAssociation;
class SctpDdpConnection;
namespace sctpddp
{
enum class Function : uint16_t;
}

class SctpDdpLlpConnector : public LlpConnector
{
  public:
    static TypeId GetTypeId();
    SctpDdpLlpConnector();
    ~SctpDdpLlpConnector() override;

    /** Outbound streams asked for on every association (sessions use stream ids below it). */
    static constexpr uint16_t kStreams = 16;

    void Listen(uint16_t port, RequestCallback cb) override;
    void Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird, uint16_t ord,
                 StreamCallback stream, ConnectCallback done) override;
    void Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord, const std::vector<uint8_t>& privateData,
                StreamCallback stream) override;
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData) override;

  protected:
    void DoDispose() override;

  private:
    /** A new SCTP socket on the node, set up for DDP (aborts without SCTP on the node). */
    Ptr<Socket> CreateDdpSocket() const;
    void OnAssociationAccept(uint16_t port, Ptr<Socket> s, const Address& from);
    void OnInitiate(uint16_t port, Address from, Ptr<SctpDdpConnection> c, const std::vector<uint8_t>& pd);
    void OnOpened(std::vector<uint8_t> pd, uint16_t ord, StreamCallback stream, ConnectCallback done,
                  Ptr<SctpDdpAssociation> a, bool attached);
    /** The answer to the Initiate is the outcome; the callback then releases itself (and `done`). */
    static void OnControl(ConnectCallback done, uint16_t ord, Ptr<SctpDdpConnection> c, sctpddp::Function f,
                          const std::vector<uint8_t>& pd);
    /** The session behind one of this connector's requests (aborts on another LLP's). */
    static Ptr<SctpDdpConnection> SessionOf(Ptr<ConnectionRequest> req);

    uint16_t m_stream{1};
    LlpListeners m_listeners;
    std::vector<Ptr<SctpDdpAssociation>> m_assocs;
};

} // namespace ns3

#endif // IWARP_SCTP_DDP_LLP_CONNECTOR_H
