/*
 * LoopbackLlpConnector: connection set-up for the loopback transport, so that applications, which
 * connect their queue pairs through the ConnectionManager (listen, connect with private data,
 * accept, reject), run over LoopbackRdmaTransport with no change of their own. Select it with
 * ConnectionManager::LlpConnector and Rnic::TransportType = ns3::LoopbackRdmaTransport.
 *
 * Listeners are found by (IPv4 address of the listening node, port) among the connectors alive in
 * the simulation. A request reaches the listener after the Delay attribute and the answer comes
 * back after the same delay; private data travel both ways, and the initiator's ORD is lowered to
 * the responder's IRD as MPA Rev 2 does it (RFC 6581), so the ConnectionManager's IRD/ORD rules
 * hold over the loopback too. A request to a port nobody listens on is refused (accepted = false,
 * no private data), as a TCP reset would be.
 *
 * Each connection is a pair of LoopbackLinkEnds, handed to the two QPs as their streams. A QP's
 * LoopbackRdmaTransport attaches itself to its end when it is bound; once both ends have a
 * transport and the responder has accepted, the link joins the two transports and lets go of them.
 * The ends carry no DDP segments (the loopback transport moves work requests itself): they are
 * DdpLowerLayers only because that is what a connector hands out.
 */
#ifndef IWARP_TEST_LOOPBACK_LLP_CONNECTOR_H
#define IWARP_TEST_LOOPBACK_LLP_CONNECTOR_H

#include "ddp/llp-connector.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class LoopbackRdmaTransport;

class LoopbackLinkEnd : public DdpLowerLayer
{
  public:
    static TypeId GetTypeId();

    /** The loopback transport has no segments, so no segment size either: 0. */
    uint32_t GetMulpdu() const override;
    /** A fatal error: only a LoopbackRdmaTransport may be bound to a loopback link. */
    bool SendSegment(Ptr<Packet> segment) override;
    /** Nothing to do: the transports close each other directly once joined. */
    void Close(CloseMode mode) override;

    /** `t` was bound to this end (LoopbackRdmaTransport::Bind); joins the link if it is ready. */
    void Attach(Ptr<LoopbackRdmaTransport> t);
    /** The responder accepted: `a` and `b` are the two ends of one connection. */
    static void Pair(Ptr<LoopbackLinkEnd> a, Ptr<LoopbackLinkEnd> b);

  protected:
    void DoDispose() override;

  private:
    /** Join the two transports once both ends have one; then the ends hold nothing. */
    void TryJoin();

    Ptr<LoopbackRdmaTransport> m_transport;
    Ptr<LoopbackLinkEnd> m_peer;
};

class LoopbackLlpConnector : public LlpConnector
{
  public:
    static TypeId GetTypeId();

    void Listen(uint16_t port, RequestCallback cb) override;
    void Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird, uint16_t ord,
                 StreamCallback stream, ConnectCallback done) override;
    void Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord, const std::vector<uint8_t>& privateData,
                StreamCallback stream) override;
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData) override;

  protected:
    void DoDispose() override;

  private:
    /** A request as it reaches the listener: what the initiator's side needs for the answer. */
    class Request;

    /** The request reaches the listener on (address, port), or is refused if there is none. */
    void Deliver(uint32_t address, Ptr<Request> req);

    Time m_delay;
    std::vector<std::pair<uint32_t, uint16_t>> m_listening; ///< (IPv4 address, port), to unregister
};

} // namespace ns3

#endif // IWARP_TEST_LOOPBACK_LLP_CONNECTOR_H
