/*
 * RoceConnection: one RoCEv2 reliable connection as its connection manager set it up, and the handle the
 * connector hands a queue pair (a DdpLowerLayer only because that is what connectors hand out; it carries no
 * DDP segments). It holds this end's QP number on the node's RoceStack and what set-up agreed: the peer's
 * address and QP number, each direction's first PSN, the UDP source port. The RoceTransport bound to it takes
 * its packets and learns from it when set-up is done, when it failed and when the peer disconnects.
 *
 * The UDP source port is the connection's ECMP entropy. Like Linux for RoCEv2 (rdma_get_udp_sport, which hashes
 * the flow label it derives from the two QP numbers), it is a hash of the two QP numbers in 0xC000-0xFFFF; the
 * hash is this model's own, and mixes in the node id so that two nodes' connections with equal QP numbers
 * still spread.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_ROCE_CONNECTION_H
#define IWARP_ROCE_CONNECTION_H

#include "ddp/ddp-lower-layer.h"
#include "roce/roce-stack.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"

namespace ns3
{

/** What connection set-up agreed. */
struct RoceConnectionParams
{
    Ipv4Address local;
    Ipv4Address remote;
    uint32_t remoteQpn{0};
    uint32_t sendPsn{0};    ///< the first PSN this end sends
    uint32_t receivePsn{0}; ///< the first PSN the peer sends
    uint16_t sourcePort{0};
    /** Payload octets per packet: the initiator's transport's Mtu, which the responder adopts (0: not yet known). */
    uint32_t mtu{0};
    /** The port the responder listened on (rdma_cm's, in the REQ's Service ID). */
    uint16_t port{0};
    /** This end accepted the connection (it listened) rather than asked for it. */
    bool responder{false};
};

class RoceConnection : public DdpLowerLayer, private RoceStack::Receiver
{
  public:
    static TypeId GetTypeId();
    RoceConnection();

    /** Who uses the connection: its queue pair's transport. */
    class User
    {
      public:
        virtual ~User() = default;
        /** A packet for this QP, from its BTH to its ICRC, with the ECN codepoint it arrived with. */
        virtual void OnRocePacket(Ptr<Packet> packet, uint8_t ecn) = 0;
        /** Set-up is done: work may flow. */
        virtual void OnConnectionUp() = 0;
        /** The peer disconnected (its DREQ arrived), or set-up failed (rejected, or no answer). */
        virtual void OnPeerDisconnected() = 0;
    };

    /** Take a QP number on `stack`; the parameters follow as set-up learns them. */
    void Open(Ptr<RoceStack> stack);
    uint32_t GetLocalQpn() const { return m_qpn; }
    Ptr<RoceStack> GetStack() const { return m_stack; }
    RoceConnectionParams& Params() { return m_params; }
    const RoceConnectionParams& Params() const { return m_params; }
    /** The source port for the two QP numbers, as described above. */
    static uint16_t SourcePort(uint32_t nodeId, uint32_t localQpn, uint32_t remoteQpn);

    /** The transport; it gets what happened before it came (Established, a disconnect) at once. */
    void Attach(User* user);
    /** The connector: set-up is done. */
    void SetUp();
    /** The connector: the peer disconnected. */
    void PeerDisconnected();
    /** The connector: set-up failed (a REJ, or no answer); the transport ends and the QP number goes. */
    void SetUpFailed();
    /** What Close asks of the connector (its DREQ): set by the connector. */
    void SetDisconnectCallback(Callback<void, Ptr<RoceConnection>> cb) { m_disconnect = cb; }

    /** No DDP segments: 0. */
    uint32_t GetMulpdu() const override { return 0; }
    /** A fatal error: only a RoceTransport may be bound to a RoCE connection. */
    bool SendSegment(Ptr<Packet> segment) override;
    /** The transport is done with the connection: the connector tells the peer (once) and the QP number goes. */
    void Close(CloseMode mode) override;

  protected:
    void DoDispose() override;

  private:
    void OnRocePacket(Ptr<Packet> packet, uint8_t ecn, Ipv4Address from, uint16_t fromPort) override;

    Ptr<RoceStack> m_stack;
    uint32_t m_qpn{0};
    RoceConnectionParams m_params;
    User* m_user{nullptr};
    bool m_up{false};
    bool m_peerGone{false};
    bool m_closed{false};
    Callback<void, Ptr<RoceConnection>> m_disconnect;
};

} // namespace ns3

#endif // IWARP_ROCE_CONNECTION_H
