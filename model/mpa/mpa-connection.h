/*
 * MpaConnection: MPA (RFC 5044, RFC 6581 enhanced set-up) over an ns-3 TCP socket, as a
 * DdpLowerLayer (doc/architecture.md "mpa/").
 *
 * Set-up: once TCP is connected the initiator sends the Request, the responder hands it to
 * its ULP (the connection manager), which accepts or rejects; the Reply carries the decision,
 * the private data and, in Rev 2, IRD/ORD. Markers are decided per direction (each side's M
 * bit asks for markers on what it receives), CRCs for both directions (C on either side).
 * The initiator sends the first FPDU; in Rev 2 peer-to-peer mode that is a zero-length RDMA
 * Write "ready to receive" (RTR) message, and the responder sends nothing until it has one.
 *
 * Data: SendSegment frames one DDP segment into one FPDU and writes it to TCP only when the
 * socket has room for all of it; the receive side deframes any split or coalescing of the
 * stream (MpaFpduReceiver). MULPDU comes from the connection's effective MSS. Segments that
 * TCP holds out of order may be placed early (Attribute OutOfOrderPlacement): the TCP "Rx"
 * trace shows each segment as it arrives, and a segment that begins with whole FPDUs whose
 * CRCs check is handed to DDP as placement-only hints; delivery still waits for TCP's order.
 *
 * FPDU alignment (doc/conformance.md, MPA): ns-3's TCP cuts its send buffer into segments of SegmentSize
 * octets from the first unsent octet. With AlignFpdus an FPDU is written only when TCP has
 * nothing unsent or only FPDUs of exactly one segment each (so it still starts a segment). The Request/Reply leave in segments of their own
 * (Nagle is off), so the first FPDU starts a segment; an FPDU of MULPDU fills exactly one
 * segment, so a bulk transfer stays aligned. With markers, an FPDU of MULPDU holds two or
 * three markers depending on where it starts on the 512-octet grid, so it is 4 octets short
 * of a segment when it holds two, and ns-3's TCP (which cannot be told to end a segment)
 * starts the next FPDU in that segment: alignment drifts. It is also lost when a short FPDU
 * (a message's tail) is coalesced with the next one while the window is closed, or when the
 * window forces a partial segment. Tools that need one FPDU per segment (Wireshark with
 * markers) then decode only the aligned FPDUs; our receiver does not depend on alignment. The receiver never depends on it: the
 * in-order path deframes by ULPDU_Length, and early placement only uses segments whose FPDUs
 * validate (their CRC, and markers when negotiated).
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_CONNECTION_H
#define IWARP_MPA_CONNECTION_H

#include "common/socket-events.h"
#include "ddp/ddp-lower-layer.h"
#include "mpa/mpa-fpdu.h"
#include "mpa/mpa-setup-header.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <memory>
#include <vector>

namespace ns3
{

class MpaConnection : public DdpLowerLayer, private SocketEventSink
{
  public:
    static TypeId GetTypeId();
    MpaConnection();
    ~MpaConnection() override;

    enum State
    {
        IDLE,
        AWAIT_TCP,          ///< initiator: TCP handshake in progress
        AWAIT_REQUEST,      ///< responder: waiting for the MPA Request
        AWAIT_REPLY,        ///< initiator: Request sent
        AWAIT_ULP_DECISION, ///< responder: Request handed to the ULP
        AWAIT_RTR,          ///< responder: accepted, waiting for the initiator's first FPDU
        ESTABLISHED,
        FAILED,             ///< an MPA error: one Terminate may still leave, then close
        CLOSED,
    };

    /** The peer's Request (responder) or Reply (initiator), for the connection manager. */
    typedef Callback<void, Ptr<MpaConnection>, const MpaSetupFrame&> SetupFrameCallback;
    /** Set-up did not complete: rejected (R=1), bad frame, time-out or TCP failure. */
    typedef Callback<void, Ptr<MpaConnection>, iwarp::ErrorCause> SetupFailedCallback;

    /** Initiator: `socket` is connecting or connected; the Request carries `privateData`. */
    void StartInitiator(Ptr<Socket> socket, const std::vector<uint8_t>& privateData);
    /** Responder: `socket` was accepted by a listening socket. */
    void StartResponder(Ptr<Socket> socket);
    /** Responder's ULP accepts the Request, answering with `privateData`. */
    void Accept(const std::vector<uint8_t>& privateData);
    /** Responder's ULP rejects the Request (Reply with R=1), then TCP closes. */
    void Reject(const std::vector<uint8_t>& privateData);

    /**
     * Set-up callbacks, each called at most once: the Request (responder), the Reply or the failure
     * of set-up (initiator). Once one has been called, all three are released. (A Reply this side
     * refuses with an MPA error, OnReply's NoMatchingRtr and InsufficientIrd, calls neither.)
     */
    void SetRequestCallback(SetupFrameCallback cb) { m_requestCb = cb; }
    void SetReplyCallback(SetupFrameCallback cb) { m_replyCb = cb; }
    void SetSetupFailedCallback(SetupFailedCallback cb) { m_setupFailedCb = cb; }

    /** IRD/ORD announced in a Rev 2 Request/Reply (RFC 6581). */
    void SetIrdOrd(uint16_t ird, uint16_t ord);
    /** The ORD after set-up: the initiator's may have been lowered to the responder's IRD. */
    uint16_t GetOrd() const { return m_ord; }

    // DdpLowerLayer
    uint32_t GetMulpdu() const override;
    bool SendSegment(Ptr<Packet> segment) override;
    void Close(CloseMode mode) override;

    State GetState() const { return m_state; }
    Ptr<Socket> GetSocket() const override { return m_socket; }
    /** The peer's set-up frame (Request or Reply) once received. */
    const MpaSetupFrame& GetPeerFrame() const { return m_peerFrame; }
    bool SendsMarkers() const { return m_txMarkers; }
    bool ReceivesMarkers() const { return m_rxMarkers; }
    bool UsesCrc() const { return m_crc; }
    /** Effective MSS: the socket's SegmentSize (ns-3 adds TCP options on top of it). */
    uint32_t GetEffectiveMss() const;

    typedef void (*FpduTracedCallback)(Ptr<const Packet> fpdu);
    typedef void (*ErrorTracedCallback)(iwarp::ErrorCause cause);

  protected:
    void DoDispose() override;

  private:
    void SetState(State s);
    void HookSocket(Ptr<Socket> socket);
    // SocketEventSink: the socket's events, through SocketEvents' shared callbacks.
    void OnSocketConnected(Ptr<Socket> s) override;
    void OnSocketConnectFailed(Ptr<Socket> s) override;
    void OnSocketNormalClose(Ptr<Socket> s) override;
    void OnSocketErrorClose(Ptr<Socket> s) override;
    void OnSocketSendSpace(Ptr<Socket> s, uint32_t available) override;
    void OnSocketRecv(Ptr<Socket> s) override;
    /** TCP's Rx trace: a segment that arrived, in order or not (early placement, DDP-005). */
    void OnTcpSegment(Ptr<const Packet> p, const TcpHeader& h) override;
    void OnTcpHighestSequence(SequenceNumber32 oldValue, SequenceNumber32 newValue);
    /** Octets written to TCP that it has not sent yet (0 when unknown: not a TcpSocketBase). */
    uint32_t UnsentInTcp() const;

    void SendSetupFrame(const MpaSetupFrame& f);
    bool ConsumeSetup();
    void OnRequest(const MpaSetupFrame& f);
    void OnReply(const MpaSetupFrame& f);
    /** Ends set-up at the initiator: the reply callback is called once and both set-up callbacks released. */
    void ReportReply(const MpaSetupFrame& f);
    void BecomeEstablished();
    void SendRtr();
    void DeframeInOrder();
    void OnMpaError(iwarp::MpaError e);
    /** The initiator refuses a well-formed Reply (RFC 6581): an MPA error, and the connect's failure. */
    void RefuseReply(iwarp::MpaError e);
    /** Set-up failed: closes at once, reports the failure, then the loss of the connection. */
    void SetupFailed(iwarp::ErrorCause cause);
    /** Tells the set-up-failed callback once and releases every set-up callback. */
    void ReportSetupFailure(iwarp::ErrorCause cause);
    /** Before the Reply (initiator) or the Accept/Reject (responder): set-up is under way. */
    bool InSetup() const;
    void OnSetupTimeout();
    void AnnounceMulpdu();
    bool WriteToTcp(Ptr<Packet> p);

    Ptr<Socket> m_socket;
    Ptr<TcpSocketBase> m_tcp; ///< m_socket as ns-3's TCP, for its send buffer and sequence traces
    SequenceNumber32 m_tcpHighestSent; ///< one past the highest octet TCP has sent
    bool m_initiator{false};
    TracedValue<State> m_state;

    // negotiation (Attributes and peer's frame)
    bool m_wantMarkers;
    bool m_wantCrc;
    uint8_t m_revision;
    bool m_peerToPeer;
    bool m_outOfOrderPlacement;
    bool m_lowerOrdToPeerIrd{true};
    bool m_alignFpdus{true};
    /// TCP's unsent octets are whole FPDUs of exactly one segment each (AlignFpdus may queue behind them)
    bool m_unsentIsWholeSegments{true};
    Time m_initiatorTimeout;
    Time m_responderTimeout;
    uint16_t m_ird{4};
    uint16_t m_ord{4};
    std::vector<uint8_t> m_localPrivateData;
    MpaSetupFrame m_peerFrame;
    bool m_txMarkers{false};
    bool m_rxMarkers{false};
    bool m_crc{true};
    bool m_rtrPending{false}; ///< responder: the first FPDU must be the RTR and is consumed

    // data path
    std::vector<uint8_t> m_setupBuf; ///< octets received before the peer's frame is complete
    std::unique_ptr<MpaFpduSender> m_tx;
    std::unique_ptr<MpaFpduReceiver> m_rx;
    uint64_t m_rxOrder{0};
    bool m_wantSendReady{false};
    bool m_waitForLowWater{false}; ///< the last refusal was for TCP send-buffer space
    uint32_t m_sendLowWater{0};
    /** Free octets in TCP's send buffer before DDP is asked for more after a refusal for space. */
    uint32_t SendLowWater() const;
    /** DDP waits for SendReady and TCP can now take what it waits for. */
    bool SendReadyDue() const;
    bool m_terminateAllowance{false}; ///< after an MPA error: one more FPDU (the Terminate)
    uint32_t m_announcedMulpdu{0};
    mutable uint32_t m_emss{0}; ///< SegmentSize, read once: an attribute look-up per segment is slow
    bool m_rxStreamBaseKnown{false};
    bool m_rxFirstOctetSeen{false};
    SequenceNumber32 m_rxStreamBase; ///< TCP sequence number of stream offset 0 (after the frame)
    bool m_handedEarly{false}; ///< an FPDU went up early: in-order ULPDUs carry their position
    EventId m_setupTimer;
    EventId m_closeTimer;

    SetupFrameCallback m_requestCb;
    SetupFrameCallback m_replyCb;
    SetupFailedCallback m_setupFailedCb;

    TracedCallback<Ptr<const Packet>> m_fpduTxTrace;
    TracedCallback<Ptr<const Packet>> m_fpduRxTrace;
    TracedCallback<Ptr<const Packet>> m_earlyPlacementTrace;
    TracedCallback<iwarp::ErrorCause> m_errorTrace;
};

const char* ToString(MpaConnection::State s);

} // namespace ns3

#endif // IWARP_MPA_CONNECTION_H
