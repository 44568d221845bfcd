/*
 * RoceTransport: the RdmaTransport of RoCEv2 (InfiniBand's Reliable Connection service over UDP/IP; doc/roce.md).
 * A queue pair's work becomes InfiniBand packets on a RoceConnection:
 *
 *   QueuePair -> RoceTransport (requester | responder) -> RoceConnection -> RoceStack (UDP 4791 / raw IPv4)
 *
 * Requester (roce-requester.cc): each work request takes consecutive PSNs when it is posted, one per packet of
 * at most Mtu payload octets (a Read takes one per response packet, and sends one request). Packets leave
 * paced by the port (RoceStack::ReserveTx), the last of each message asking for an ACK. ACKs are cumulative; a
 * Read Response acknowledges what came before it. Recovery is go-back-N, as commodity RNICs do it: a NAK
 * (PSN sequence error) or the ACK timer sends everything again from the first unacknowledged PSN; a Read whose
 * responses have a gap is asked again from the first missing one. Retries without progress are bounded
 * (RetryCount); past them the queue pair fails. Recovery = SelectiveRepeat is IRN's instead: the responder keeps
 * what arrives past a gap and NAKs naming each such packet, and the requester resends only what is missing;
 * MaxInflight caps the packets unacknowledged (IRN's BDP-FC).
 *
 * Congestion control (CongestionControl = Dcqcn, the default, as RNICs ship): DCQCN (Zhu et al., SIGCOMM 2015).
 * As notification point, a queue pair that receives a CE-marked packet of its peer's (anything but an ACK or
 * a CNP) sends the peer a CNP at once, at most one per CnpInterval. As reaction point, each CNP it receives
 * cuts the rate of its DcqcnRateControl, and its packets other than ACKs and CNPs leave no closer together than
 * that rate allows (a queue pair waiting for its rate does not hold the port: others send meanwhile).
 *
 * Responder (roce-responder.cc): executes packets in PSN order only. A packet ahead of the expected PSN is dropped
 * and answered by one NAK per gap (kept, under selective repeat, until the gap fills); a duplicate is answered
 * by an ACK, and a duplicate Read Request is executed again. Sends land in posted receive buffers, Writes and Read Responses where their R_Key and VA say, each
 * packet placed as it arrives. ACKs are coalesced: one per AckEvery packets, and at once for a packet that asks.
 *
 * Completions follow the send queue's order. A Send or Write completes when it is acknowledged (InfiniBand's
 * rule; iWARP completes them once their data has left), a Read when its last response has landed, a receive
 * when its Send's last packet has. Errors end the stream as over iWARP: the end that finds the error flushes
 * what is outstanding and reports LocalError; the requester's request completes RemoteError, the rest of its
 * queue is flushed RemoteError and it reports RemoteError. A Send with no receive posted draws an RNR NAK,
 * which this model treats as an error (a retry count of zero), not as a wait.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_ROCE_TRANSPORT_H
#define IWARP_ROCE_TRANSPORT_H

#include "rnic/rdma-transport.h"
#include "rnic/roce-connection.h"
#include "roce/dcqcn-rate-control.h"
#include "roce/roce-packet.h"

#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <optional>

namespace ns3
{

class RoceTransport : public RdmaTransport, private RoceConnection::User
{
  public:
    static TypeId GetTypeId();
    RoceTransport();

    /** `lower` must be a RoceConnection. */
    void Bind(Ptr<Object> lower) override;
    bool PostSend(const SendWr& wr) override;
    bool PostRecv(uint64_t id, const LocalBuffer& buffer) override;
    void Close(bool graceful) override;
    void WatchPlacement(PlacementCallback cb) override;
    /** Each packet's payload: placed as it lands (Send, Write, Read Response) and sent as it leaves. */
    void WatchOctets(OctetsCallback placed, OctetsCallback sent) override;
    /** Its DcqcnRateControl, so that an RNIC's part attributes reach it. */
    std::vector<Ptr<Object>> Parts() const override
    {
        return m_rateControl ? std::vector<Ptr<Object>>{m_rateControl} : std::vector<Ptr<Object>>{};
    }
    uint32_t GetIrd() const override { return m_ird; }
    uint32_t GetOrd() const override { return m_ord; }
    void SetOrd(uint32_t ord) override;

    /** How lost packets are recovered: "Recovery". */
    enum Recovery
    {
        GO_BACK_N,        ///< everything again from the first unacknowledged PSN, as commodity RNICs do
        SELECTIVE_REPEAT, ///< IRN's: only what is missing (Mittal et al., SIGCOMM 2018)
    };
    /** "CongestionControl". */
    enum CongestionControl
    {
        CC_NONE,  ///< packets leave at the port's rate
        CC_DCQCN, ///< DCQCN's notification and reaction points
    };

    uint32_t GetMtu() const { return m_mtu; }
    /** The connection it is bound to (null before Bind). */
    Ptr<RoceConnection> GetConnection() const { return m_conn; }
    /** Packets sent again (go-back-N resends everything from the PSN it goes back to). */
    uint64_t GetRetransmittedPackets() const { return m_retransmitted; }
    /** NAKs (PSN sequence error) this end sent as a responder. */
    uint64_t GetNaksSent() const { return m_naksSent; }
    /** Expiries of the ACK timer. */
    uint64_t GetTimeouts() const { return m_timeouts; }
    /** What the resends now leaving answer: the ACK timer (true), or a NAK or a Read's gap (false). */
    bool ResendingAfterTimeout() const { return m_afterTimeout; }
    /** CNPs this end sent (as DCQCN's notification point) and received. */
    uint64_t GetCnpsSent() const { return m_cnpsSent; }
    uint64_t GetCnpsReceived() const { return m_cnpsReceived; }
    /** The reaction point's rate (null without DCQCN, or before the connection is up). */
    Ptr<DcqcnRateControl> GetRateControl() const { return m_dcqcn; }

    /** (PSN, opcode) of a packet sent; `retransmission` when it had been sent before. */
    typedef void (*PacketTracedCallback)(uint32_t psn, uint8_t opcode, bool retransmission);
    /**
     * A message whose data have all landed here: a Write or Send at the responder, a Read's responses at the
     * requester; `tagged` for a Write or Read (placed by address), with its length, when its first octet was
     * placed and when it was delivered (its last).
     */
    typedef void (*DeliveredTracedCallback)(bool tagged, uint64_t length, Time firstPlaced, Time delivered);

  protected:
    void DoDispose() override;

  private:
    /** A send-queue request and the PSNs it took. */
    struct SendEntry
    {
        SendWr wr;
        uint32_t firstPsn{0};
        uint32_t packets{1};
        uint32_t responses{0}; ///< a Read's responses landed in order
        Time firstPlaced;
        bool askedAgain{false}; ///< a Read acknowledged past its missing responses, asked for them again
        bool failed{false};    ///< it ended the stream: completes with failStatus, in its turn
        WcStatus failStatus{WcStatus::Success};
    };
    struct Recv
    {
        uint64_t id;
        LocalBuffer buffer;
    };
    /** The message the responder is in the middle of. */
    struct Inbound
    {
        enum Kind : uint8_t
        {
            None,
            Send,
            Write
        } kind{None};
        uint64_t placed{0};   ///< octets so far
        BufferWindow window;  ///< Write: its target (the whole DMA length); Send: the receive buffer
        uint32_t stag{0};     ///< the STag placements are reported under
        uint64_t to{0};       ///< and the TO of the message's first octet
        Recv recv{};          ///< Send: the receive it fills
        Time firstPlaced;     ///< Send and Write
    };
    /** A packet the responder owes: an ACK or NAK, or one Read Response packet. */
    struct Reply
    {
        IbOpcode opcode{IbOpcode::Acknowledge};
        uint32_t psn{0};
        RoceAeth aeth;
        bool sack{false};    ///< an IRN NAK: carries the PSN that arrived out of order
        bool failAfter{false}; ///< an error NAK: the stream ends once it has left
        uint32_t sackPsn{0};
        BufferWindow source; ///< a Read Response's
        uint64_t offset{0};  ///< within `source`
        uint32_t length{0};
    };

    // RoceConnection::User
    void OnRocePacket(Ptr<Packet> packet, uint8_t ecn) override;
    void OnConnectionUp() override;
    void OnPeerDisconnected() override;

    // Output (roce-transport.cc): one packet at a time, paced by the port; replies before requests.
    void ScheduleTx();
    /** The next packet to send: false when there is none; `octets` its size, `rated` whether DCQCN paces it. */
    bool NextPacket(uint32_t* octets, bool* rated);
    /** The queue pair's rate allows its next packet now. */
    void RateGateOpen();
    void TxNext();
    void SendReply(const Reply& r);
    /** The size on the wire (IPv4 header on) of the request SendRequest would send now. */
    uint32_t RequestOctets();
    void SendPacket(const RoceBth& bth, const Header* ext, const uint8_t* payload, uint32_t len, bool countsAsData);
    uint32_t PacketSize(uint32_t extended, uint32_t payload) const;
    /** DCQCN's notification point: a packet arrived with `ecn`. */
    void NotifyCongestion(uint8_t ecn, IbOpcode opcode);
    void SendCnp();

    // Requester (roce-requester.cc)
    bool HasRequestToSend();
    /** Send the next packet: one found lost (selective repeat), else the next of the send queue. */
    void SendRequest();
    /** Send the packet of `psn`; returns the PSN after it (after a Read's responses for its request). */
    uint32_t SendRequestAt(uint32_t psn);
    /** Selective repeat: the next PSN below the recovery's end neither acknowledged nor SACKed nor resent. */
    bool NextLost(uint32_t* psn);
    void MarkSacked(uint32_t psn);
    /** Selective repeat: resend what is missing below `end` (and below any end already set). */
    void EnterRecovery(uint32_t end);
    SendEntry* EntryOf(uint32_t psn);
    /** One past the last PSN `e` takes. */
    static uint32_t PsnEnd(const SendEntry& e);
    /** An ACK or NAK; `sackPsn`: the PSN an IRN NAK says arrived out of order (null in a plain NAK). */
    void OnAcknowledge(const RoceBth& bth, const RoceAeth& aeth, const uint32_t* sackPsn);
    void OnReadResponse(const RoceBth& bth, Ptr<Packet> payload);
    void Acknowledged(uint32_t psn);
    void GoBack(uint32_t psn);
    void CompleteDone();
    void RestartTimer();
    void OnTimeout();
    void RetryExceeded();
    /** `e` fails with `status` and ends the stream (`event`); the rest of the queue completes `rest`, in order. */
    void FailRequest(SendEntry& e, WcStatus status, QpEvent event, WcStatus rest);
    uint32_t OutstandingReads() const;

    // Responder (roce-responder.cc)
    void OnRequest(const RoceReceived& rx, Ptr<Packet> payload);
    /** Execute the request at the expected PSN and move on; false when it ended the stream or waits (RNR). */
    bool ExecuteInOrder(const RoceReceived& rx, Ptr<Packet> payload);
    /** Selective repeat: keep a request that arrived past a gap, and NAK naming it. */
    void Hold(const RoceReceived& rx, Ptr<Packet> payload);
    bool Execute(const RoceReceived& rx, Ptr<Packet> payload);
    bool ExecuteSend(const RoceReceived& rx, Ptr<Packet> payload);
    bool ExecuteWrite(const RoceReceived& rx, Ptr<Packet> payload);
    bool ExecuteRead(const RoceReceived& rx, bool duplicate);
    void QueueReply(IbOpcode op, uint32_t psn, const RoceAeth& aeth);
    void Ack();
    void ResponderError(IbNakCode code, WcStatus recvStatus);

    // Both
    void Fail(QpEvent event, WcStatus status);
    void TryFinishClose();
    void FinishClose();
    void Complete(const SendEntry& e, WcStatus status);
    void Placed(uint32_t stag, uint64_t to, uint64_t length) const;

    // Attributes
    uint32_t m_mtu{1024};
    Time m_ackTimeout;
    uint32_t m_retryCount{7};
    uint32_t m_ackEvery{16};
    uint32_t m_ird{4};
    uint32_t m_ord{4};
    bool m_ecnCapable{true};
    Recovery m_recoveryMode{GO_BACK_N};
    uint32_t m_maxInflight{0};
    uint8_t m_dscp{26};
    uint8_t m_cnpDscp{48};
    CongestionControl m_ccMode{CC_DCQCN};
    Time m_cnpInterval;

    Ptr<RoceConnection> m_conn;
    Ptr<NetDevice> m_device;
    RoceAddressing m_addressing;
    bool m_up{false};
    bool m_failed{false};
    bool m_closing{false};
    bool m_closed{false};
    EventId m_txEvent;
    bool m_txGated{false}; ///< m_txEvent waits for the rate, not for the port

    // DCQCN
    Ptr<DcqcnRateControl> m_rateControl; ///< made with the transport, so that it can be configured
    Ptr<DcqcnRateControl> m_dcqcn;       ///< m_rateControl once the connection is up, with DCQCN on
    Time m_rateFree; ///< when the rate allows the next paced packet
    Time m_lastCnpSent;
    uint64_t m_cnpsSent{0};
    uint64_t m_cnpsReceived{0};

    // Requester
    std::deque<SendEntry> m_sq;
    uint32_t m_nextPsn{0}; ///< the PSN the next posted request takes
    uint32_t m_txPsn{0};   ///< the next PSN to send
    uint32_t m_maxPsn{0};  ///< one past the highest PSN ever sent
    uint32_t m_una{0};     ///< the oldest PSN not acknowledged
    uint32_t m_ackedTo{0}; ///< one past the highest PSN the responder acknowledged (m_una stops at a lost response)
    uint32_t m_retries{0};
    /** No PSN: PSNs have 24 bits. */
    static constexpr uint32_t kNoPsn = 0xFFFFFFFF;
    uint32_t m_readGapAt{kNoPsn}; ///< the response PSN last asked for again (one request per gap)
    EventId m_timer;
    // Selective repeat (IRN)
    std::deque<bool> m_sacked; ///< [i]: PSN m_una + i arrived out of order
    bool m_recovery{false};
    uint32_t m_recoverEnd{0}; ///< resend what is missing below this PSN
    uint32_t m_rtxNext{0};    ///< where the search for the next lost PSN goes on

    // Responder
    std::deque<Recv> m_recvs;
    std::deque<Reply> m_replies;
    Inbound m_in;
    uint32_t m_ePsn{0};
    uint32_t m_msn{0};
    uint32_t m_unacked{0};
    bool m_nakSent{false};
    bool m_responderStopped{false}; ///< an error NAK is queued: nothing more is executed
    std::optional<WorkCompletion> m_recvDone; ///< a receive completed by the packet being executed
    /** Selective repeat: requests that arrived past a gap, executed once it fills, by PSN. */
    std::map<uint32_t, std::pair<RoceReceived, Ptr<Packet>>> m_held;

    uint64_t m_retransmitted{0};
    uint64_t m_naksSent{0};
    uint64_t m_timeouts{0};
    bool m_afterTimeout{false};
    PlacementCallback m_placed;
    OctetsCallback m_octetsPlaced;
    OctetsCallback m_octetsSent;
    TracedCallback<uint32_t, uint8_t, bool> m_txTrace;
    TracedCallback<uint32_t> m_nakTrace;
    TracedCallback<uint32_t> m_timeoutTrace;
    TracedCallback<bool, uint64_t, Time, Time> m_deliveredTrace;
    TracedCallback<> m_cnpSentTrace;
    TracedCallback<> m_cnpReceivedTrace;
};

} // namespace ns3

#endif // IWARP_ROCE_TRANSPORT_H
