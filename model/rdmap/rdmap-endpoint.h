/*
 * RdmapEndpoint: one RDMAP stream (RFC 5040) over a DdpEndpoint.
 *
 * Work requests go to DDP in the order the ULP posted them (RDMAP-062) and complete in that
 * order (RDMAP-064); outbound Reads are held to ORD (RDMAP-072) and inbound ones to IRD
 * through the QN 1 buffers (RDMAP-035, RDMAP-073). Incoming messages are vetted before
 * placement (A16), acted on at delivery (Read Requests, Send with Invalidate, Terminates),
 * and every error leaves through SendTerminate(), once per stream (RDMAP-053, RDMAP-086).
 *
 * The class is split by concern: rdmap-endpoint.cc (posting, completions),
 * rdmap-receive.cc (checks and deliveries), rdmap-terminate.cc (errors and teardown).
 */
/**
 * \file
 * \ingroup iwarp-rdmap
 */
#ifndef IWARP_RDMAP_ENDPOINT_H
#define IWARP_RDMAP_ENDPOINT_H

#include "ddp/ddp-endpoint.h"
#include "rdmap/rdmap-types.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include "common/lazy-deque.h"

#include <deque>
#include <map>

namespace ns3
{

class RdmapEndpoint : public Object, private DdpEndpoint::Ulp
{
  public:
    static TypeId GetTypeId();
    RdmapEndpoint();
    ~RdmapEndpoint() override;

    typedef Callback<void, const RdmapCompletion&> CompletionCallback;
    typedef Callback<void, const RdmapEventInfo&> EventCallback;

    /**
     * Bind to a DDP stream: enables QN 0/1/2, posts IRD Read Request buffers and the one
     * Terminate buffer (RDMAP-035, RDMAP-050), and installs the receive hooks.
     */
    void Attach(Ptr<DdpEndpoint> ddp, Ptr<MemoryAccess> memory, const StreamContext& ctx);
    Ptr<DdpEndpoint> GetDdp() const { return m_ddp; }

    void SetCompletionCallback(CompletionCallback cb) { m_completion = cb; }
    void SetEventCallback(EventCallback cb) { m_event = cb; }

    /**
     * Who completions and events go to when it is not the callbacks above: the transport that owns
     * this endpoint (IwarpTransport), which would otherwise pay for two bound Callbacks per QP. An
     * attached Owner gets both and the callbacks nothing; nullptr detaches. It must outlive the
     * attachment.
     */
    class Owner
    {
      public:
        virtual ~Owner() = default;
        virtual void OnRdmapCompletion(const RdmapCompletion& c) = 0;
        virtual void OnRdmapEvent(const RdmapEventInfo& e) = 0;
    };
    void SetOwner(Owner* owner) { m_owner = owner; }

    /**
     * Post a send-queue work request. Returns false, and completes nothing, when the stream
     * no longer accepts work (after a Terminate, RDMAP-053; after Close, DDP-051) or the
     * request is malformed (e.g. a message of 2^32 octets or more, DDP-030).
     */
    bool PostSend(const RdmapWorkRequest& wr);
    /** Post a receive buffer for Send types (QN 0). */
    bool PostRecv(uint64_t id, const BufferWindow& buffer);

    /** Local fatal error (e.g. the ULP aborts): send a Local Catastrophic Terminate (MDR=000). */
    void Abort(iwarp::ErrorCause cause = iwarp::ErrorCause::Rdma(iwarp::RdmapEType::LocalCatastrophic,
                                                                  iwarp::RdmapCode::InvalidStag));
    /** ULP teardown: graceful sends what is queued, then closes the LLP (RDMAP-075). */
    void Close(DdpLowerLayer::CloseMode mode);

    uint32_t GetIrd() const { return m_ird; }
    uint32_t GetOrd() const { return m_ord; }
    uint32_t GetOutstandingReads() const { return m_readsInFlight; }
    bool IsTerminated() const { return m_terminated; }

    typedef void (*TerminateTracedCallback)(const RdmapTerminateHeader& h);
    typedef void (*CompletionTracedCallback)(const RdmapCompletion& c);

  protected:
    void DoDispose() override;

  private:
    /** A send-queue request from posting to completion. */
    struct SendWr
    {
        RdmapWorkRequest wr;
        uint64_t seq{0}; ///< position in posting order: the DDP cookie
        bool submitted{false};
        bool done{false};
        RdmapCompletion completion;
    };

    /** An inbound Read Request being answered (kept for R=1 Terminates, RDMAP-019). */
    struct InboundRead : public SimpleRefCount<InboundRead>
    {
        RdmapReadRequestHeader request;
        DdpSegmentRecord segment;
        Ptr<RegionPayloadSource> source; ///< reads SrcSTag at transmit time; tells why it failed
    };

    /** DDP cookies: send-queue requests count from 0, Read Responses live above them. */
    static constexpr uint64_t kResponseCookieBase = uint64_t(1) << 62;
    static constexpr uint64_t kTerminateCookie = ~uint64_t(0);

    // rdmap-endpoint.cc
    void SubmitReady();
    void Submit(SendWr& s);
    void OnMessageSent(uint64_t cookie) override;
    void OnMessageFailed(uint64_t cookie, uint64_t sent) override;
    void MarkDone(uint64_t wrSeq, WcStatus status, uint64_t len);
    void CompleteInOrder();
    void Emit(const RdmapCompletion& c);
    void Notify(const RdmapEventInfo& info);

    // rdmap-receive.cc
    /** Where a Read Response segment falls among the sinks of the outstanding Reads (A33). */
    enum class ReadSinkMatch
    {
        Inside,      ///< inside the sink of some outstanding Read
        OutOfBounds, ///< an outstanding Read uses the STag, but no sink holds the range
        NoStag,      ///< no outstanding Read uses the STag
    };
    ReadSinkMatch MatchReadSink(uint32_t stag, uint64_t to, uint32_t length) const;
    DdpUlpCheck CheckSegment(const DdpSegmentView& v) override;
    void OnDelivery(const DdpDelivery& d) override;
    void OnReadResponseDelivered(const DdpDelivery& d);
    void OnSendDelivered(const DdpDelivery& d, iwarp::Opcode op);
    void OnReadRequestDelivered(const DdpDelivery& d);
    void OnTerminateDelivered(const DdpDelivery& d);
    /** Post the next Read Request slot of m_internal on QN 1 (RDMAP-035). */
    void PostReadRequestBuffer();

    // rdmap-terminate.cc
    void OnDdpError(const DdpReceiveError& e) override;
    void OnStreamEvent(DdpEndpoint::StreamEvent e, iwarp::ErrorCause cause) override;
    void SendTerminate(const RdmapTerminateHeader& term);
    RdmapTerminateHeader TerminateFor(iwarp::ErrorCause cause,
                                      const DdpSegmentRecord* segment,
                                      const std::vector<uint8_t>* rdmaHeader) const;
    void FlushAll(WcStatus status, iwarp::ErrorCause cause);
    void ResetAfterFlush();

    Ptr<DdpEndpoint> m_ddp;
    Ptr<MemoryAccess> m_memory;
    StreamContext m_ctx;
    uint32_t m_ird;
    uint32_t m_ord;
    uint8_t m_rdmapVersion;

    LazyDeque<SendWr> m_sendQueue; ///< posted, in order, until completed
    uint64_t m_headWrSeq{0};        ///< cookie of m_sendQueue.front()
    LazyDeque<uint64_t> m_readsAwaiting; ///< wrSeq of Reads whose Response is due, in order
    uint32_t m_readsInFlight{0};
    std::map<uint64_t, Ptr<InboundRead>> m_inboundReads; ///< by response cookie
    uint64_t m_nextResponseCookie;

    bool m_terminated{false}; ///< a Terminate was sent or received: no more messages
    bool m_closing{false};
    bool m_implicatedRecvKnown{false}; ///< a QN 0 buffer named by the error being reported
    uint64_t m_implicatedRecv{0};
    WcStatus m_implicatedStatus{WcStatus::Flushed};

    CompletionCallback m_completion;
    EventCallback m_event;
    Owner* m_owner{nullptr};
    Ptr<ByteBuffer> m_internal;       ///< RDMAP's own QN 1 and QN 2 buffers, as windows of one
    uint32_t m_readRequestSlots{0};   ///< QN 1 slots in m_internal (the IRD at Attach)
    uint64_t m_readRequestPosts{0};   ///< QN 1 slots posted so far

    TracedCallback<const RdmapTerminateHeader&> m_terminateSentTrace;
    TracedCallback<const RdmapTerminateHeader&> m_terminateReceivedTrace;
    TracedCallback<const RdmapCompletion&> m_completionTrace;
};

} // namespace ns3

#endif // IWARP_RDMAP_ENDPOINT_H
