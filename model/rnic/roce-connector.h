/*
 * RoceConnector: connection set-up for RoCEv2 queue pairs, as rdma_cm does it over InfiniBand's Communication
 * Manager (IBA chapter 12): MADs to QP1 in Unreliable Datagram packets (roce-cm-mad.h), on the wire like every
 * other RoCEv2 packet.
 *
 *   initiator                      responder
 *   Connect  -- REQ (QPN, PSN, IRD/ORD, private data) -->  RequestCallback -> Accept
 *            <-- REP (QPN, PSN, IRD/ORD, private data) --  (or REJ: Reject, or no listener)
 *   up       -- RTU -->                                    up (or at its first data packet)
 *   Close    -- DREQ -->                                   the peer's stream closes
 *            <-- DREP --
 *
 * A request names its port in the REQ's Service ID as rdma_cm does (its TCP port space: 0x0000000001060000 |
 * port). IRD and ORD travel as the REQ's and REP's Responder Resources and Initiator Depth; the initiator's ORD
 * is lowered to the responder's IRD. The REQ's path MTU is the initiator's transport's Mtu, which the responder
 * adopts. Each message whose answer does not come is sent again after ResponseTimeout, up to MaxRetries times
 * (rdma_cm's defaults: a timeout code of 20, 4.3 s, and 15 retries); a Connect that gets no answer reports
 * not accepted, and a responder whose REP gets no RTU gives the connection up. Duplicates are answered again.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_ROCE_CONNECTOR_H
#define IWARP_ROCE_CONNECTOR_H

#include "ddp/llp-connector.h"
#include "rnic/roce-connection.h"
#include "roce/roce-cm-mad.h"
#include "roce/roce-stack.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <map>

namespace ns3
{

class RoceConnector : public LlpConnector, private RoceStack::Receiver
{
  public:
    static TypeId GetTypeId();
    RoceConnector();

    /** rdma_cm's Service ID for a port of its TCP port space. */
    static uint64_t ServiceIdOf(uint16_t port);

    void Listen(uint16_t port, RequestCallback cb) override;
    /** Aborts when `privateData` exceeds what a REQ holds (92 octets). */
    void Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird, uint16_t ord,
                 StreamCallback stream, ConnectCallback done) override;
    /** Aborts when `privateData` exceeds what a REP holds (196 octets). */
    void Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord, const std::vector<uint8_t>& privateData,
                StreamCallback stream) override;
    /** Aborts when `privateData` exceeds what a REJ holds (148 octets). */
    void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData) override;

    /** CM messages sent again because no answer came. */
    uint64_t GetRetransmissions() const { return m_retransmissions; }

  protected:
    void DoDispose() override;

  private:
    class Request;
    /** One connection's set-up and tear-down, by this side's communication ID. */
    struct Session
    {
        enum State : uint8_t
        {
            ReqSent,   ///< initiator, waiting for REP or REJ
            Requested, ///< responder, the request with the listener
            RepSent,   ///< responder, waiting for RTU
            Up,
            DreqSent,
            Done,
        } state{ReqSent};
        Ptr<RoceConnection> conn;
        Ipv4Address peer;
        uint32_t remoteCommId{0};
        RoceCmFields last; ///< what was last sent, to send again
        uint32_t retries{0};
        EventId timer;
        ConnectCallback done;
        uint16_t ord{0};
    };

    Ptr<RoceStack> Stack();
    void OnRocePacket(Ptr<Packet> packet, uint8_t ecn, Ipv4Address from, uint16_t fromPort) override;
    void OnReq(const RoceCmFields& f, Ipv4Address from);
    void OnRep(Session& s, const RoceCmFields& f);
    void OnRej(Session& s, const RoceCmFields& f);
    void OnDreq(Session& s);
    /** Send `f` to `to`; with `awaitAnswer`, again after ResponseTimeout until it comes. */
    void Send(Session& s, const RoceCmFields& f, bool awaitAnswer);
    void SendMad(Ipv4Address to, const RoceCmFields& f);
    void OnResponseTimeout(uint32_t commId);
    void Disconnect(Ptr<RoceConnection> conn);
    Session* Find(uint32_t localCommId);
    Session* FindByPeer(Ipv4Address peer, uint32_t remoteCommId);
    /** A fresh session and its communication ID. */
    uint32_t NewSession();

    Time m_responseTimeout;
    uint32_t m_maxRetries{15};
    uint32_t m_initialPsn{0};
    Ptr<RoceStack> m_stack;
    std::map<uint16_t, RequestCallback> m_listening;
    std::map<uint32_t, Session> m_sessions;
    uint32_t m_nextCommId{1};
    uint64_t m_nextTid{1};
    uint64_t m_retransmissions{0};
};

} // namespace ns3

#endif // IWARP_ROCE_CONNECTOR_H
