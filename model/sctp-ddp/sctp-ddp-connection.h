/*
 * The RFC 5043 DDP adaptation over our SCTP model (doc/conformance.md §2.20–2.28).
 *
 * SctpDdpAssociation: one DDP-enabled SCTP association (an SctpSocket). It checks the peer's Adaptation
 * Layer Indication (SCTP-002/003/005), demultiplexes received DATA by stream id into sessions, answers
 * chunks that belong to no session with a session Terminate (S-09), and caps the Initiates waiting for
 * the ULP (SCTP-023/033).
 *
 * SctpDdpConnection: one DDP Stream Session on one stream id (SCTP-010): a DdpLowerLayer. It sends
 * DDP segments as unordered PPID 16 DATA (SCTP-013/015/042) prefixed with its DDP-SSN (SCTP-016/017),
 * runs the session-control sequences of RFC 5043 §6 (Initiate / Accept / Reject / Terminate, PPID 17)
 * and terminates the session on anything else (SCTP-029).
 *
 * Order for DDP (DDP-005): in a session each direction's DDP-SSN 0 is the Initiate or the Accept, so a
 * segment with (extended) DDP-SSN n is the (n-1)th segment the peer submitted: order = n - 1.
 */
/**
 * \file
 * \ingroup iwarp-sctp-ddp
 */
#ifndef IWARP_SCTP_DDP_CONNECTION_H
#define IWARP_SCTP_DDP_CONNECTION_H

#include "common/iwarp-constants.h"
#include "common/socket-events.h"
#include "ddp/ddp-lower-layer.h"
#include "sctp/sctp-chunk.h"
#include "sctp/sctp-packet.h"
#include "sctp/sctp-socket.h"

#include "ns3/traced-callback.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ns3
{

namespace sctpddp
{
constexpr uint32_t kAdaptationDdp = 0x00000001; ///< SCTP-002
constexpr uint32_t kPpidSegment = 16;           ///< SCTP-015
constexpr uint32_t kPpidControl = 17;           ///< SCTP-015
constexpr uint32_t kMaxPrivateData = 512;       ///< SCTP-020
constexpr uint32_t kMinMulpdu = 516;            ///< SCTP-038
constexpr uint32_t kSsnLen = 2;                 ///< DDP-SSN octets before every payload
constexpr uint32_t kMaxSsnGap = 32767;          ///< SCTP-045: the widest gap chunks in flight explain
constexpr uint32_t kMaxUnackedChunks = 32767;   ///< SCTP-044: per stream, so a 16-bit DDP-SSN stays unambiguous

/** A DATA chunk's header: type, flags and length (4), then TSN, stream id, SSN and PPID (RFC 9260 §3.3.1). */
constexpr uint32_t kDataChunkHeaderLen = 4 + SctpDataChunk::kFixedValueLen;
/** The headers in front of a DATA chunk's user data in one packet: IPv4 20, the SCTP common header 12, DATA 16. */
constexpr uint32_t kPacketHeadersLen = iwarp::kIpv4HeaderLen + SctpCommonHeader::kSize + kDataChunkHeaderLen;

/**
 * The MULPDU over a path MTU of `pmtu` (SCTP-038, doc/conformance.md §1.10): what a DATA chunk in one packet
 * leaves after kPacketHeadersLen and the DDP-SSN, less `bundlingReserve`; never below kMinMulpdu.
 */
constexpr uint32_t
MulpduFor(uint32_t pmtu, uint32_t bundlingReserve)
{
    const int64_t room = int64_t(pmtu) - int64_t(kPacketHeadersLen) - int64_t(kSsnLen) - int64_t(bundlingReserve);
    return room > int64_t(kMinMulpdu) ? uint32_t(room) : kMinMulpdu;
}
/** Session control function codes (SCTP-018). */
enum class Function : uint16_t
{
    Initiate = 1,
    Accept = 2,
    Reject = 3,
    Terminate = 4,
};
const char* ToString(Function f);
} // namespace sctpddp

class SctpDdpAssociation;

class SctpDdpConnection : public DdpLowerLayer
{
  public:
    static TypeId GetTypeId();
    SctpDdpConnection();

    enum State
    {
        IDLE,
        INITIATE_SENT, ///< active: waiting for Accept / Reject
        AWAIT_ULP,     ///< passive: the Initiate is with the ULP
        ESTABLISHED,
        TERMINATED, ///< this side sent its Terminate (or a Reject); waiting for nothing
        CLOSED,     ///< the session is over on both sides, or the association is gone
    };

    /**
     * A received session-control message reported to the ULP with its Private Data (SCTP-022). An
     * initiator's session that ends before any answer to its Initiate (the association lost, or a
     * protocol violation) is reported as a Terminate with no Private Data, so the connect always
     * gets an outcome.
     */
    typedef Callback<void, Ptr<SctpDdpConnection>, sctpddp::Function, const std::vector<uint8_t>&> ControlCallback;
    /** The callback may replace or clear itself while it runs (a copy is called). */
    void SetControlCallback(ControlCallback cb) { m_control = cb; }

    // ---- DdpLowerLayer ----
    uint32_t GetMulpdu() const override;
    bool SendSegment(Ptr<Packet> segment) override;
    void Close(CloseMode mode) override;

    /** Passive side: the ULP's decision on the peer's Initiate (SCTP-032: only the ULP rejects). */
    bool Accept(const std::vector<uint8_t>& pd);
    bool Reject(const std::vector<uint8_t>& pd);

    uint16_t GetStream() const { return m_stream; }
    State GetState() const { return m_state; }
    bool IsActive() const { return m_active; }
    /** The DDP-SSN the next chunk this side sends will carry. */
    uint16_t GetNextTxSsn() const { return m_txSsn; }
    uint32_t GetOversizeRefused() const { return m_oversizeRefused; }
    /** The SCTP socket of this session's association (null once the session is gone). */
    Ptr<Socket> GetSocket() const override;
    /** Active side: Connect came while the stream's previous session was unacknowledged; no Initiate yet. */
    bool IsInitiateDeferred() const { return m_deferredInitiate.has_value(); }

    /** Signature of the UnackedLimit trace: the stream's unacknowledged DATA chunks when a segment waits. */
    typedef void (*UnackedLimitTracedCallback)(uint32_t unacked);

  protected:
    void DoDispose() override;

  private:
    friend class SctpDdpAssociation;
    void Init(Ptr<SctpDdpAssociation> assoc, uint16_t stream, bool active);
    bool SendInitiate(const std::vector<uint8_t>& pd);
    /** SCTP-037: keep the Initiate until every chunk of the stream's previous session is acknowledged. */
    void DeferInitiate(const std::vector<uint8_t>& pd);
    /** DATA chunks of this stream handed to SCTP and not yet cumulatively acknowledged. */
    uint32_t UnackedChunks() const;
    bool SendControl(sctpddp::Function f, const std::vector<uint8_t>& pd);
    /** One PPID 16/17 chunk of this session from the peer; `ssn` already read off. */
    void Receive(uint32_t ppid, uint16_t ssn, Ptr<Packet> payload);
    void ReceiveControl(uint64_t ext, sctpddp::Function f, const std::vector<uint8_t>& pd);
    void ReceiveSegment(uint64_t ext, Ptr<Packet> seg);
    void MarkReceived(uint64_t ext);
    void Established();
    /** SCTP-029: a chunk that fits no legal sequence: Terminate the session, tell DDP. */
    void Violation(const char* why);
    void PeerTerminated();
    void AssociationLost();
    void OnSendSpace();
    void ReportControl(sctpddp::Function f, const std::vector<uint8_t>& pd);

    Ptr<SctpDdpAssociation> m_assoc;
    uint16_t m_stream{0};
    bool m_active{false};
    State m_state{IDLE};
    uint16_t m_txSsn{0};
    uint64_t m_rxFrontier{0};         ///< every extended DDP-SSN below it has arrived
    std::set<uint64_t> m_rxAbove;     ///< arrived above the frontier
    bool m_gotOpening{false};         ///< the peer's SSN 0 (Initiate / Accept) has arrived
    uint64_t m_peerTerminateAt{~uint64_t(0)};
    bool m_peerTerminateSeen{false};
    bool m_peerTerminateHandled{false};
    std::map<uint64_t, Ptr<Packet>> m_held; ///< segments that arrived before the session opened
    uint32_t m_maxHeld{64};
    bool m_wantSendReady{false};
    bool m_closeOnReply{false}; ///< closed while INITIATE_SENT: Terminate after the reply (SCTP-035)
    std::optional<std::vector<uint8_t>> m_deferredInitiate; ///< its Private Data while deferred (SCTP-037)
    uint32_t m_oversizeRefused{0};
    ControlCallback m_control;
    TracedCallback<Ptr<const Packet>> m_rxChunkTrace;
    TracedCallback<uint32_t> m_unackedLimitTrace;
};

class SctpDdpAssociation : public Object, private SocketEventSink
{
  public:
    static TypeId GetTypeId();
    SctpDdpAssociation();
    ~SctpDdpAssociation() override;

    /** Sets a socket up for DDP before Connect/Listen: indication 0x00000001 (SCTP-002/004), OS = MIS (SCTP-012). */
    static void ConfigureSocket(Ptr<SctpSocket> s, uint16_t streams);

    /**
     * Takes over an established association. False (and the association is aborted, SCTP-005) unless the
     * peer indicated DDP (SCTP-003): no DDP procedures are then performed on it.
     */
    bool Attach(Ptr<SctpSocket> s);
    /**
     * Active side: connect `s` to `remote` and Attach once SCTP is up. `done` gets this association
     * and whether it is now attached (false: SCTP never came up, or the peer is not DDP); it is
     * called once and then released, so nothing of the set-up stays with an idle association.
     */
    typedef Callback<void, Ptr<SctpDdpAssociation>, bool> OpenCallback;
    void Open(Ptr<SctpSocket> s, const Address& remote, OpenCallback done);
    bool IsDdpEnabled() const { return m_ddp; }
    Ptr<SctpSocket> GetSocket() const { return m_socket; }

    /** Active side: a new session on `stream` with Private Data `pd`; null if refused. */
    Ptr<SctpDdpConnection> Connect(uint16_t stream, const std::vector<uint8_t>& pd);
    /** Passive side: an Initiate arrived; the ULP answers with Accept or Reject on the session. */
    typedef Callback<void, Ptr<SctpDdpConnection>, const std::vector<uint8_t>&> InitiateCallback;
    void SetInitiateCallback(InitiateCallback cb) { m_initiate = cb; }

    /**
     * Configures each session (SctpDdpConnection) this association makes, before it is used: the
     * connector passes the RNIC's part settings down (LlpConnector::PartCallback).
     */
    typedef Callback<void, Ptr<Object>> PartCallback;
    void SetPartCallback(PartCallback cb) { m_configurePart = cb; }

    /** Largest DDP segment that fits one DATA chunk in one packet of the socket's Pmtu (SCTP-038–040). */
    uint32_t GetMulpdu() const;
    void Abort();
    Ptr<SctpDdpConnection> GetSession(uint16_t stream) const;
    /** Sessions whose Initiate the ULP has not yet answered. */
    uint32_t GetPendingInitiates() const;

    /** The DATA this side sent: (stream, PPID, unordered, user data) (for tests and traces). */
    typedef void (*ChunkSentCallback)(uint16_t stream, uint32_t ppid, Ptr<const Packet> userData);
    /** A new session's Initiate waits for the acknowledgement of `unacked` chunks of the stream's last one. */
    typedef void (*InitiateDeferredCallback)(uint16_t stream, uint32_t unacked);

  protected:
    void DoDispose() override;

  private:
    friend class SctpDdpConnection;
    bool SendChunk(uint16_t stream, uint32_t ppid, uint16_t ssn, Ptr<Packet> payload);
    // SocketEventSink: the socket's events, through SocketEvents' shared callbacks.
    void OnSocketRecv(Ptr<Socket> s) override;
    void OnSocketSendSpace(Ptr<Socket> s, uint32_t) override;
    void OnSocketNormalClose(Ptr<Socket> s) override;
    void OnSocketErrorClose(Ptr<Socket> s) override;
    void OnSocketConnected(Ptr<Socket> s) override;
    void OnSocketConnectFailed(Ptr<Socket> s) override;
    /** Report Open's outcome once (nothing when no Open is pending). */
    void ReportOpen(bool attached);
    void Dispatch(uint16_t stream, uint32_t ppid, Ptr<Packet> msg);
    void Lost();
    void Forget(uint16_t stream);
    /** A new session on `stream`, configured (m_configurePart) and initialised. */
    Ptr<SctpDdpConnection> NewSession(uint16_t stream, bool active);

    Ptr<SctpSocket> m_socket;
    bool m_ddp{false};
    bool m_lost{false};
    std::map<uint16_t, Ptr<SctpDdpConnection>> m_sessions;
    InitiateCallback m_initiate;
    OpenCallback m_open; ///< pending until the association is up or has failed
    PartCallback m_configurePart;
    uint32_t m_maxPendingInitiates;
    uint32_t m_bundlingReserve;
    uint32_t m_maxUnackedChunks;
    TracedCallback<uint16_t, uint32_t, Ptr<const Packet>> m_chunkSent;
    TracedCallback<uint16_t, uint32_t, Ptr<const Packet>> m_chunkReceived;
    TracedCallback<uint16_t, uint32_t> m_initiateDeferred;
};

const char* ToString(SctpDdpConnection::State s);

} // namespace ns3

#endif // IWARP_SCTP_DDP_CONNECTION_H
