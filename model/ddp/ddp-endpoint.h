/*
 * DdpEndpoint: one DDP stream (RFC 5041), on top of a DdpLowerLayer.
 *
 * Send side: messages are queued in submission order (DDP-039) and cut into segments of at
 * most the LLP's current MULPDU only when the LLP has room, so a MULPDU change applies to
 * the segments not yet handed over and never re-segments old ones (DDP-002).
 *
 * Receive side: every segment is validated before anything is placed (DDP-060, DDP-062,
 * DDP-068) and placed on arrival, even out of order (DDP-041); messages are delivered in
 * the sender's order, exactly once (DDP-042, DDP-043, DDP-045). A segment the LLP handed up
 * early as a placement hint is placed then; its in-order copy is validated again but, when
 * the LLP identifies it (DdpLlpPositionTag), its octets are not moved a second time. The first error stops
 * placement for good (DDP-063, DDP-065) and is reported to the ULP, which may still send
 * one message, its Terminate (DDP-057, DDP-066).
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_DDP_ENDPOINT_H
#define IWARP_DDP_ENDPOINT_H

#include "ddp/ddp-lower-layer.h"
#include "ddp/ddp-types.h"
#include "ddp/ddp-untagged-queue.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include "common/lazy-deque.h"

#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class DdpEndpoint : public Object, private DdpLowerLayer::User
{
  public:
    static TypeId GetTypeId();
    DdpEndpoint();
    ~DdpEndpoint() override;

    /** Stream events as the ULP sees them. */
    enum class StreamEvent
    {
        Established,
        HalfClosed,  ///< the peer closed gracefully; we may keep sending (DDP-053)
        Closed,      ///< torn down gracefully
        FatalError,  ///< LLP lost or failed, or data after a graceful close (DDP-052, DDP-055)
    };

    typedef Callback<void, const DdpDelivery&> DeliveryCallback;
    typedef Callback<void, const DdpReceiveError&> ErrorCallback;
    typedef Callback<void, uint64_t> SentCallback;
    typedef Callback<void, uint64_t, uint64_t> FailedCallback;
    typedef Callback<DdpUlpCheck, const DdpSegmentView&> UlpCheckCallback;
    typedef Callback<void, StreamEvent, iwarp::ErrorCause> StreamEventCallback;

    /**
     * The ULP as one interface, the alternative to the six callbacks: RdmapEndpoint attaches this way,
     * since each ns-3 Callback bound to a member costs a few hundred octets of heap per connection
     * (doc/performance.md, "Idle QPs"). Once set, it is told everything and the callbacks nothing; it
     * must outlive the attachment or detach with SetUlp(nullptr).
     */
    class Ulp
    {
      public:
        virtual ~Ulp() = default;
        virtual DdpUlpCheck CheckSegment(const DdpSegmentView& v) = 0;           ///< as UlpCheckCallback
        virtual void OnDelivery(const DdpDelivery& d) = 0;                        ///< as DeliveryCallback
        virtual void OnDdpError(const DdpReceiveError& e) = 0;                    ///< as ErrorCallback
        virtual void OnMessageSent(uint64_t cookie) = 0;                          ///< as SentCallback
        virtual void OnMessageFailed(uint64_t cookie, uint64_t sent) = 0;         ///< as FailedCallback
        virtual void OnStreamEvent(StreamEvent e, iwarp::ErrorCause cause) = 0;   ///< as StreamEventCallback
    };

    // ---- wiring
    void SetLowerLayer(Ptr<DdpLowerLayer> llp);
    Ptr<DdpLowerLayer> GetLowerLayer() const { return m_llp; }
    void SetMemoryAccess(Ptr<MemoryAccess> mem) { m_memory = mem; }
    /** The protection domain and stream id used for STag checks (DDP-069, DDP-070). */
    void SetStreamContext(const StreamContext& ctx) { m_ctx = ctx; }
    const StreamContext& GetStreamContext() const { return m_ctx; }

    void SetDeliveryCallback(DeliveryCallback cb) { m_callbacks.deliver = cb; }
    void SetErrorCallback(ErrorCallback cb) { m_callbacks.error = cb; }
    /** The last segment of a message was accepted by the LLP (DDP-044). */
    void SetMessageSentCallback(SentCallback cb) { m_callbacks.sent = cb; }
    /** A message's payload could not be read; (cookie, octets already sent). */
    void SetMessageFailedCallback(FailedCallback cb) { m_callbacks.failed = cb; }
    void SetUlpCheckCallback(UlpCheckCallback cb) { m_callbacks.ulpCheck = cb; }
    void SetStreamEventCallback(StreamEventCallback cb) { m_callbacks.streamEvent = cb; }
    /** Attach the ULP through its interface (nullptr detaches); see Ulp. */
    void SetUlp(Ulp* ulp) { m_ulp = ulp; }

    // ---- untagged queues (DDP-060 U1: only enabled queues are valid)
    void EnableQueue(uint32_t qn);
    bool IsQueueEnabled(uint32_t qn) const { return m_rxQueues.count(qn) != 0; }
    void PostBuffer(uint32_t qn, const DdpUntaggedBuffer& buffer);
    std::size_t GetPostedCount(uint32_t qn) const;
    /** Remove every posted buffer of `qn` (flush); oldest first. */
    std::vector<DdpUntaggedBuffer> TakeBuffers(uint32_t qn);
    /** Test hook (D-03): the MSN the receiver expects next on `qn`. */
    void SetExpectedMsn(uint32_t qn, uint32_t msn);
    /** Test hook (D-03): the MSN the next message sent on `qn` gets. */
    void SetNextSendMsn(uint32_t qn, uint32_t msn);
    uint32_t GetNextSendMsn(uint32_t qn) const;

    // ---- sending
    /**
     * Queue a message. Fails (returns false, sends nothing) if its length is 2^32 or more
     * (DDP-030), if the ULP asked for a graceful close (DDP-051), or the stream is down.
     * For untagged messages `*msn` (if given) receives the MSN assigned.
     */
    bool Send(const DdpOutboundMessage& msg, uint32_t* msn = nullptr);
    /**
     * Drop the queued messages that have not started (the in-progress one finishes) and
     * return their cookies; used before a Terminate, which must go out next (RDMAP-084).
     */
    std::vector<uint64_t> DiscardUnstarted();
    std::size_t GetQueuedMessages() const { return m_txQueue.size(); }

    // ---- receiving and teardown
    /** The ULP found an error after delivery: stop placing anything (DDP-065). */
    void StopReceiving();
    bool IsReceiveStopped() const { return m_rxStopped; }
    /** ULP teardown (DDP-051): graceful sends what is queued first. */
    void Close(DdpLowerLayer::CloseMode mode);

    // ---- traces
    typedef void (*SegmentTracedCallback)(Ptr<const Packet> segment);
    typedef void (*DeliveryTracedCallback)(const DdpDelivery& d);
    typedef void (*ErrorTracedCallback)(const DdpReceiveError& e);

  protected:
    void DoDispose() override;

  private:
    struct TxMessage
    {
        DdpOutboundMessage msg;
        uint32_t msn{0};
        uint64_t length{0};
        uint64_t sent{0};
        bool started{false};
    };

    /** What is remembered of a placed segment until its turn in the delivery order. */
    struct RxSegment
    {
        DdpSegmentView view;
        DdpSegmentRecord record;
        Time placedAt; ///< when its payload was first placed (an early hint counts)
    };

    /** Identifies a segment across its early (hint) and in-order arrivals. */
    typedef std::tuple<bool, uint32_t, uint64_t> SegmentKey;
    static SegmentKey KeyOf(const DdpSegmentView& v);

    // tx (ddp-endpoint.cc)
    void Pump();
    Ptr<Packet> BuildSegment(TxMessage& m, uint32_t mulpdu, uint32_t* payloadLen);
    void OnSendReady();
    void OnMulpduChanged(uint32_t mulpdu);
    void OnLlpEvent(DdpLowerLayer::Event e, iwarp::ErrorCause cause) override;
    void MaybeFinishGracefulClose();

    // DdpLowerLayer::User: what the LLP reports.
    void OnLlpReceive(Ptr<Packet> segment, uint64_t order) override { OnReceive(segment, order); }
    void OnLlpMulpdu(uint32_t mulpdu) override { OnMulpduChanged(mulpdu); }
    void OnLlpSendReady() override { OnSendReady(); }

    // rx (ddp-endpoint-rx.cc)
    void OnReceive(Ptr<Packet> segment, uint64_t order);
    /** Validate; then, if `place`, write the payload. False (nothing placed) on a failed check. */
    bool ValidateAndPlace(Ptr<Packet> segment, bool reportErrors, bool place, RxSegment* out);
    void AdvanceDelivery();
    void Deliver(const RxSegment& last, uint64_t taggedLength);
    /** A delivery of the message `last` ends, its common fields filled in. */
    static DdpDelivery NewDelivery(const RxSegment& last, Time firstPlaced);
    /** Trace the delivery and give it to the ULP. */
    void HandUp(const DdpDelivery& d);
    /** Deliver the untagged message `last` ends, whose MSN is its queue's base (DDP-046). */
    void DeliverUntagged(DdpUntaggedQueue& q, const RxSegment& last, Time firstPlaced);
    /** Forget every placed segment and parked message still waiting for delivery (DDP-065). */
    void ClearRxWaiting();
    void RaiseError(DdpReceiveError err);
    DdpReceiveError MakeError(iwarp::ErrorCause cause, const RxSegment& s) const;

    Ptr<DdpLowerLayer> m_llp;
    Ptr<MemoryAccess> m_memory;
    StreamContext m_ctx;

    // tx state
    LazyDeque<TxMessage> m_txQueue;
    std::map<uint32_t, uint32_t> m_txMsn;
    Ptr<Packet> m_pendingSegment; ///< built but refused by the LLP; retried on SendReady
    uint32_t m_pendingPayload{0};
    bool m_pumping{false};
    bool m_closeRequested{false};

    // rx state
    std::map<uint32_t, DdpUntaggedQueue> m_rxQueues;
    std::map<uint64_t, RxSegment> m_rxPending; ///< placed, waiting for their turn, by order
    uint64_t m_rxFrontier{0};                  ///< next order number to deliver
    uint64_t m_rxTaggedLength{0};              ///< octets of the tagged message being delivered
    Time m_rxMessageFirstPlaced{Time::Max()};  ///< of the message being delivered
    /** An untagged message complete in the sender's order whose MSN is ahead of its queue's base. */
    struct ParkedMessage
    {
        RxSegment last;
        Time firstPlaced;
    };
    /**
     * Parked messages by (QN, MSN): placed, and delivered once every lower MSN of the queue has
     * been (DDP-060 U5 accepts any MSN in [first, last available buffer]; A4, A34).
     */
    std::map<std::pair<uint32_t, uint32_t>, ParkedMessage> m_rxParked;
    /** Hints without an LLP position, placed early, waiting for the in-order copy (timing only). */
    std::map<SegmentKey, Time> m_hintPlacedAt;
    /** Hints placed early, by LLP position: their in-order copy is not placed again. */
    std::map<uint64_t, Time> m_placedEarly;
    bool m_rxStopped{false};
    bool m_peerClosed{false};
    bool m_down{false};
    uint32_t m_msnLookahead;

    /**
     * The six callbacks as a Ulp: who is told when no Ulp is attached. A null callback tells nobody; with
     * no check callback every segment passes the ULP's check (a default DdpUlpCheck).
     */
    struct CallbackUlp : public Ulp
    {
        DeliveryCallback deliver;
        ErrorCallback error;
        SentCallback sent;
        FailedCallback failed;
        UlpCheckCallback ulpCheck;
        StreamEventCallback streamEvent;
        DdpUlpCheck CheckSegment(const DdpSegmentView& v) override;
        void OnDelivery(const DdpDelivery& d) override;
        void OnDdpError(const DdpReceiveError& e) override;
        void OnMessageSent(uint64_t cookie) override;
        void OnMessageFailed(uint64_t cookie, uint64_t sentOctets) override;
        void OnStreamEvent(StreamEvent e, iwarp::ErrorCause cause) override;
    };
    /** The one place that chooses between the attached Ulp and the callbacks. */
    Ulp& Upper() { return m_ulp ? *m_ulp : m_callbacks; }

    CallbackUlp m_callbacks;
    Ulp* m_ulp{nullptr};

    TracedCallback<Ptr<const Packet>> m_txSegmentTrace;
    TracedCallback<Ptr<const Packet>> m_rxSegmentTrace;
    TracedCallback<Ptr<const Packet>> m_placedTrace;
    TracedCallback<const DdpDelivery&> m_deliveredTrace;
    TracedCallback<const DdpReceiveError&> m_errorTrace;
};

const char* ToString(DdpEndpoint::StreamEvent e);

} // namespace ns3

#endif // IWARP_DDP_ENDPOINT_H
