/*
 * SctpSocket: one SCTP association behind an ns3::Socket (one-to-one style, RFC 6458's SOCK_STREAM-like
 * model), over IPv4, single-homed or multihomed (sctp-path.h).
 *
 * The usual Socket calls work: Bind/Listen/Connect, the accept callbacks (SetAcceptCallback) for a
 * listener, Send/Recv with message boundaries kept, Close for the graceful SHUTDOWN. SCTP's extras:
 * SendMsg(packet, stream, ppid, unordered), Abort(), and every received message carries an SctpMessageTag
 * (stream, SSN, PPID, U flag, TSN of its first fragment, end of record).
 *
 * One class, four source files by concern: sctp-socket.cc (socket API, attributes), sctp-socket-dispatch.cc
 * (received packets: tag check, chunk dispatch),
 * sctp-socket-assoc.cc (set-up, teardown, the state machine of sctp-state.h),
 * sctp-socket-data.cc (DATA, SACK, retransmission, congestion, delayed SACK), sctp-socket-paths.cc (the
 * peer's addresses, failover, error counters, heartbeats). The queues, the RTO estimator and the congestion
 * policy are separate classes.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_SOCKET_H
#define IWARP_SCTP_SOCKET_H

#include "sctp/sctp-congestion-ops.h"
#include "sctp/sctp-cookie.h"
#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-message-tag.h"
#include "sctp/sctp-packet.h"
#include "sctp/sctp-path.h"
#include "sctp/sctp-rto.h"
#include "sctp/sctp-rx-queue.h"
#include "sctp/sctp-state.h"
#include "sctp/sctp-tx-queue.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h" // Ptr<Node> members: their copies and destructors need the whole type
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <array>
#include <deque>
#include <optional>

namespace ns3
{

class SctpL4Protocol;
class SctpInitChunk;

class SctpSocket : public Socket
{
  public:
    static TypeId GetTypeId();
    SctpSocket();
    ~SctpSocket() override;

    void SetSctp(Ptr<SctpL4Protocol> sctp);
    void SetNode(Ptr<Node> node) { m_node = node; }

    // ---- ns3::Socket ----
    SocketErrno GetErrno() const override { return m_errno; }
    SocketType GetSocketType() const override { return NS3_SOCK_SEQPACKET; }
    Ptr<Node> GetNode() const override { return m_node; }
    int Bind(const Address& address) override;
    int Bind() override;
    int Bind6() override;
    int Close() override;
    int ShutdownSend() override;
    int ShutdownRecv() override;
    int Connect(const Address& address) override;
    int Listen() override;
    uint32_t GetTxAvailable() const override;
    /** Sends one message; stream/PPID/unordered from an SctpMessageTag on `p`, else stream 0 and DefaultPpid. */
    int Send(Ptr<Packet> p, uint32_t flags) override;
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;
    uint32_t GetRxAvailable() const override;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;
    int GetSockName(Address& address) const override;
    int GetPeerName(Address& address) const override;
    bool SetAllowBroadcast(bool) override { return false; }
    bool GetAllowBroadcast() const override { return false; }

    // ---- SCTP extensions ----
    /** One user message on `stream` with payload protocol id `ppid`; returns its size or -1 (see GetErrno). */
    int SendMsg(Ptr<Packet> p, uint16_t stream, uint32_t ppid, bool unordered);
    /** ABORT with a User-Initiated Abort cause; the association is gone at once. */
    int Abort();
    SctpState GetState() const { return m_state; }
    uint16_t GetOutboundStreams() const { return m_outStreams; }
    uint16_t GetInboundStreams() const { return m_inStreams; }
    std::optional<uint32_t> GetPeerAdaptationIndication() const { return m_peerAdaptation; }
    /** The current data path's (the primary's unless it failed over). */
    uint32_t GetCwnd() const { return DataPath().cc.cwnd; }
    uint32_t GetSsthresh() const { return DataPath().cc.ssthresh; }
    Time GetRto() const { return DataPath().rto.GetRto(); }
    Time GetSrtt() const { return DataPath().rto.GetSrtt(); }
    /** Destinations of the association: 1 single-homed, else one per address the peer listed. */
    size_t GetPathCount() const { return m_paths.size(); }
    /** Path `p`'s state and counters; path 0 is the primary (the address connected to, or the INIT's source). */
    SctpPathInfo GetPathInfo(size_t p) const;
    uint32_t GetPeerRwnd() const { return m_peerRwnd; }
    /** The Pmtu attribute, without the attribute system's lookup by name (asked for per DDP segment). */
    uint32_t GetPmtu() const { return m_pmtu; }
    /** The tag this side expects in packets from the peer (its Initiate Tag). */
    uint32_t GetLocalVerificationTag() const { return m_myTag; }
    uint32_t GetPeerVerificationTag() const { return m_peerTag; }
    /** The TSN the next new DATA chunk will get. */
    uint32_t GetNextTsn() const { return m_txq.GetNextTsn(); }
    /**
     * DATA chunks of `stream` handed to SCTP and not yet cumulatively acknowledged (queued or in flight).
     * A user that numbers its messages per stream in fewer bits than a TSN needs it (RFC 5043 §10: DDP
     * keeps at most 32767 per stream). It falls only when the Cumulative TSN Ack advances; in the Established
     * state the send callback then runs, as for freed buffer space.
     */
    uint32_t GetUnackedChunks(uint16_t stream) const { return m_txq.GetUnackedChunks(stream); }

    /** Called by SctpL4Protocol with a checksum-verified packet for this socket. */
    void ReceivePacket(const SctpPacket& pkt, Ipv4Address src, Ipv4Address dst);

    typedef void (*ChunkTracedCallback)(const SctpChunk& chunk);
    typedef void (*RetransmissionTracedCallback)(uint32_t tsn, bool fast);
    /** T3-rtx expired with DATA outstanding (RFC 9260 §6.3.3); the RTO it backed off to. */
    typedef void (*RetransmissionTimeoutTracedCallback)(Time newRto);
    typedef void (*StateTracedCallback)(SctpState oldState, SctpState newState);
    /** A destination became active (HEARTBEAT ACK) or inactive (errors past Path.Max.Retrans). */
    typedef void (*PathStateTracedCallback)(Ipv4Address address, bool active);
    /** New DATA goes to `to` from now on instead of `from` (failover, or back to the primary). */
    typedef void (*DataPathTracedCallback)(Ipv4Address from, Ipv4Address to);
    typedef void (*AddressTracedCallback)(Ipv4Address address);

  protected:
    void DoDispose() override;

  private:
    // ---- sctp-socket.cc and sctp-socket-dispatch.cc ----
    void DispatchChunks(const SctpPacket& pkt, size_t firstChunk);
    bool CheckVerificationTag(const SctpPacket& pkt) const;
    /** Sends chunks to the peer in one packet, to path `p`'s address from its source. */
    void SendChunksTo(const std::vector<std::shared_ptr<SctpChunk>>& chunks, uint8_t p, uint32_t vtag);
    /** ... to the data path. */
    void SendChunks(const std::vector<std::shared_ptr<SctpChunk>>& chunks, uint32_t vtag);
    void SendChunks(const std::vector<std::shared_ptr<SctpChunk>>& chunks);
    void CopyConfigFrom(Ptr<SctpSocket> listener);
    /** Octets of chunks one packet holds: the path MTU less the IPv4 and SCTP common headers. */
    uint32_t PacketBudget() const;
    uint32_t MaxDataPayload() const;
    void ReleaseLocalPort();

    // ---- sctp-socket-assoc.cc ----
    void Fire(SctpEvent e);
    void OnStateEntered(SctpState from);
    void SendInit();
    void HandleInitAsListener(const SctpPacket& pkt, const SctpInitChunk& init, Ipv4Address src);
    void HandleCookieEchoAsListener(const SctpPacket& pkt, const std::vector<uint8_t>& cookie, Ipv4Address src);
    void HandleInitAck(const SctpInitChunk& ack);
    void InitTcb(uint32_t myTag,
                 uint32_t peerTag,
                 uint32_t myItsn,
                 uint32_t peerItsn,
                 uint32_t peerArwnd,
                 uint16_t outStreams,
                 uint16_t inStreams);
    void SendCookieEcho();
    void T1Expired();
    void SendShutdown();
    void SendShutdownAck();
    void T2Expired();
    void HandleShutdown(const SctpShutdownChunk& c);
    void HandleAbort(const SctpErrorChunk& c, uint32_t vtag);
    void SendAbort(SctpCauseCode cause, std::vector<uint8_t> info);
    void CheckAllDataAcked();
    uint32_t RandomNonZero32();

    // ---- sctp-socket-paths.cc ----
    SctpRtoEstimator::Params RtoParams() const;
    /** One path, to `primary`, with a fresh RTO (before the handshake). */
    void ResetPaths(Ipv4Address primary);
    /** Paths to the addresses a peer listed in its INIT / INIT ACK (new ones only), registered for demux. */
    void AddPeerAddresses(const std::vector<Ipv4Address>& addresses);
    void UnregisterPaths();
    /** This node's addresses to list in INIT / INIT ACK: none unless the Multihoming attribute is set. */
    std::vector<Ipv4Address> AdvertisedAddresses() const;
    std::optional<uint8_t> PathIndex(Ipv4Address a) const;
    bool Usable(uint8_t p) const { return m_paths[p].active && m_paths[p].confirmed; }
    const SctpPath& DataPath() const { return m_paths[m_dataPath]; }
    SctpPath& DataPath() { return m_paths[m_dataPath]; }
    /** Where chunk `e` goes when sent now: new DATA to the data path, retransmissions per §6.4.1. */
    uint8_t DestinationOf(const SctpTxQueue::Entry& e) const;
    uint32_t AssociationErrorLimit() const;
    /** Counts one timeout on path `p` (and the association); fires RetransLimit and returns true past it. */
    bool CountPathError(uint8_t p);
    void SetPathActive(uint8_t p, bool active);
    /** The primary if usable, else the current or first usable alternate (§6.4). */
    void ChooseDataPath();
    /** On entering ESTABLISHED: an unconfirmed address is probed at once (§5.4), the others watched. */
    void StartHeartbeats(uint8_t p);
    void ScheduleHeartbeat(uint8_t p);
    void HeartbeatTimer(uint8_t p);
    void SendHeartbeat(uint8_t p);
    void HandleHeartbeatAck(const SctpHeartbeatChunk& c);

    // ---- sctp-socket-data.cc ----
    void TrySend();
    /** A due SACK rides in the packet to `dest` if it must go there and fits; else it leaves alone now. */
    bool BundleSack(uint32_t firstChunkBytes, uint8_t dest, std::vector<std::shared_ptr<SctpChunk>>* chunks);
    /** DATA for `dest` into `chunks` as cwnd, Max.Burst, the peer's window and the MTU allow; false if none. */
    bool FillDataPacket(uint8_t dest, uint32_t* burst, std::vector<std::shared_ptr<SctpChunk>>* chunks);
    /** Per-destination error counters, fast recovery exit and congestion windows after a SACK. */
    void UpdatePathsOnAck(const SctpTxQueue::SackResult& r, const std::array<bool, SctpTxQueue::kMaxPaths>& fullCwnd);
    void HandleData(const SctpDataChunk& c, bool* gapOrDup);
    void AfterDataPacket(bool gapOrDup);
    void SendSack();
    std::shared_ptr<SctpSackChunk> MakeSack();
    void HandleSack(const SctpSackChunk& s);
    void ProcessCumAck(uint32_t cum, const std::vector<std::pair<uint16_t, uint16_t>>& gaps, uint32_t arwnd);
    void T3Expired(uint8_t p);
    void RestartT3(uint8_t p);
    /** Whether path p's T3-rtx should run: something of it to time (§6.3.2 R1, R2). */
    bool T3Owed(uint8_t p) const;
    void SyncTraces();
    void DeliverReady();

    // ---- configuration (attributes) ----
    Time m_rtoInitial;
    Time m_rtoMin;
    Time m_rtoMax;
    double m_rtoAlpha;
    double m_rtoBeta;
    Time m_validCookieLife;
    uint32_t m_assocMaxRetrans;
    uint32_t m_pathMaxRetrans;
    uint32_t m_maxInitRetransmits;
    Time m_hbInterval;
    bool m_hbEnabled;
    uint32_t m_maxBurst;
    uint32_t m_initialCwnd; ///< MTUs; 0: the congestion policy's own (RFC 9260 §7.2.1)
    Time m_sackDelay;
    uint32_t m_sackFreq;
    uint32_t m_pmtu;
    uint32_t m_sndBufSize;
    uint32_t m_rcvBufSize;
    uint16_t m_requestedOutStreams;
    uint16_t m_maxInStreams;
    uint32_t m_defaultPpid;
    bool m_sendAdaptation;
    uint32_t m_adaptationCode;
    uint32_t m_cookiePreservativeMs;
    TypeId m_ccTypeId;
    bool m_multihoming;

    // ---- endpoint ----
    Ptr<Node> m_node;
    Ptr<SctpL4Protocol> m_sctp;
    Ptr<UniformRandomVariable> m_rng;
    SocketErrno m_errno{ERROR_NOTERROR};
    uint16_t m_localPort{0};
    Ipv4Address m_localAddress;
    Ipv4Address m_peerAddress;
    uint16_t m_peerPort{0};
    bool m_listening{false};
    bool m_registered{false};
    bool m_portHeld{false}; ///< m_localPort is reserved in SctpL4Protocol (released exactly once)
    bool m_shutdownSend{false};
    bool m_closeNotified{false};
    bool m_passive{false};
    Ptr<SctpSocket> m_listener; ///< passive side: who to tell when set-up completes (cleared then)

    // ---- association (TCB) ----
    TracedValue<SctpState> m_state{SctpState::Closed};
    uint32_t m_myTag{0};
    uint32_t m_peerTag{0};
    uint16_t m_outStreams{0};
    uint16_t m_inStreams{0};
    std::vector<uint16_t> m_nextSsn;
    std::optional<uint32_t> m_peerAdaptation;
    std::vector<uint8_t> m_cookie; ///< active side: the cookie to echo
    std::vector<SctpTlv> m_initAckUnknown; ///< INIT ACK parameters to report with the COOKIE ECHO
    uint32_t m_errorCount{0};
    uint32_t m_initRetries{0};
    uint32_t m_stalePreservativeMs{0}; ///< Cookie Preservative to ask for after a Stale Cookie ERROR
    Time m_cookieEchoSent{0};
    bool m_abortive{false}; ///< the Closed state was reached by ABORT or a retransmission limit

    SctpTxQueue m_txq;
    SctpRxQueue m_rxq;
    std::vector<SctpPath> m_paths{1}; ///< never empty: path 0 is the primary
    uint8_t m_primary{0};
    uint8_t m_dataPath{0};
    uint8_t m_rxPath{0}; ///< the path whose address the packet being handled came from (replies go there)
    uint8_t m_sackPath{0}; ///< where the latest DATA came from: its SACK goes back there (§6.4)
    Ptr<SctpCongestionOps> m_ccOps;
    uint32_t m_peerRwnd{0};
    uint32_t m_lastAdvertisedRwnd{1}; ///< a_rwnd of the latest SACK (0: the peer is closed, we probe)
    bool m_fastRtxPending{false};
    std::deque<SctpMessage> m_rxBuffer;
    uint32_t m_rxOffset{0}; ///< octets of m_rxBuffer.front() already read
    uint32_t m_packetsSinceSack{0};
    bool m_sackNeeded{false};

    EventId m_t1;
    EventId m_t2;
    EventId m_sackTimer;

    // ---- traces ----
    TracedValue<uint32_t> m_cwndTrace{0};
    TracedValue<uint32_t> m_ssthreshTrace{0};
    TracedValue<Time> m_rtoTrace{Seconds(0)};
    TracedValue<Time> m_srttTrace{Seconds(0)};
    TracedValue<uint32_t> m_flightTrace{0};
    TracedCallback<uint32_t, bool> m_rtxTrace;
    TracedCallback<Time> m_t3ExpiredTrace;
    TracedCallback<const SctpChunk&> m_chunkTxTrace;
    TracedCallback<const SctpChunk&> m_chunkRxTrace;
    TracedCallback<Ipv4Address, bool> m_pathStateTrace;
    TracedCallback<Ipv4Address, Ipv4Address> m_dataPathTrace;
    TracedCallback<Ipv4Address> m_heartbeatTrace;
};

} // namespace ns3

#endif // IWARP_SCTP_SOCKET_H
