/*
 * RdmaStream: a bulk-transfer application over an RNIC (ns3::Rnic on the node, MPA/TCP below).
 *
 * The client keeps Outstanding operations (Op = Write, Send or Read) of Size octets in flight
 * until TotalBytes have been moved (or Duration has passed, when set). Operation k uses slot
 * k mod Outstanding of a Size * Outstanding buffer at both ends, so after a Write stream the
 * server's buffer equals the client's (Payload=Real) octet for octet.
 *
 * Connection set-up: the client's MPA Request carries its buffer advertisement (STag + TO,
 * 12 octets), then Size and Outstanding (4 octets each, big-endian); the server registers a
 * buffer of the same shape, advertises it in the MPA Reply and, for Send streams, posts
 * ReceiveDepth receives, re-posting each as it completes. iWARP has no receive-side flow
 * control of its own (a Send with no posted buffer terminates the stream), so ReceiveDepth
 * must cover every Send that can sit in the RNIC and TCP buffers at once.
 *
 * End of stream: when the last operation has completed the client Sends a zero-length
 * "fin"; delivery orders it after every Write's placement (RDMAP-059), so the server stamps
 * its end time there and answers with a zero-length Send, whose arrival stamps the client's
 * end time. Throughput = bytes / (end - start), start being the first post.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_RDMA_STREAM_H
#define IWARP_RDMA_STREAM_H

#include "apps/rdma-ping-pong.h"

#include "ns3/data-rate.h"

namespace ns3
{

class RdmaStream : public Application
{
  public:
    static TypeId GetTypeId();
    RdmaStream();

    enum Op
    {
        WRITE,
        SEND,
        READ,
    };

    /** Client: octets of completed operations. Server: octets received (Write: placed). */
    uint64_t GetBytes() const;
    uint64_t GetCompletions() const { return m_completions; }
    Time GetStartTime() const { return m_start; }
    Time GetEndTime() const { return m_end; }
    bool IsFinished() const { return m_finished; }
    /** bytes * 8 / (end - start); zero before the stream finished. */
    DataRate GetThroughput() const;
    /** The buffer of this end (client) or of the last accepted connection (server). */
    Ptr<MemoryRegion> GetRegion() const { return m_region; }

    /** (operation number, octets): an operation was posted. */
    typedef void (*PostedTracedCallback)(uint64_t op, uint32_t size);
    /** (operation number, octets, latency from post to completion). */
    typedef void (*CompletedTracedCallback)(uint64_t op, uint32_t size, Time latency);
    /** (operation number, octets): an operation completed with an error status (flushed, refused). */
    typedef void (*FailedTracedCallback)(uint64_t op, uint32_t size);
    /** (operations posted, octets posted): the client posts no more (TotalBytes or Duration reached). */
    typedef void (*PostingEndedTracedCallback)(uint64_t ops, uint64_t bytes);
    /** (bytes, completions, start, end): the stream finished at this end. */
    typedef void (*FinishedTracedCallback)(uint64_t bytes, uint64_t completions, Time start, Time end);
    /** (reason): the server rejected a client's connection request. */
    typedef void (*RejectedTracedCallback)(const std::string& reason);

    /**
     * Why a client's stream shape (from its private data) is unacceptable, or "" when it is
     * acceptable: Size and Outstanding at least 1, Op one of Write/Send/Read, and Size x
     * Outstanding (the region the server registers for it) at most `maxRegion` octets.
     */
    static std::string CheckPeerShape(uint32_t size, uint32_t outstanding, uint32_t op, uint64_t maxRegion);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    static void OnCompletionThunk(RdmaStream* app, Ptr<QueuePair> qp, const WorkCompletion& c);
    void OnCompletion(Ptr<QueuePair> qp, const WorkCompletion& c);
    void OnRequest(Ptr<ConnectionRequest> req);
    void OnConnected(Ptr<QueuePair> qp, bool accepted, const std::vector<uint8_t>& pd);
    Ptr<MemoryRegion> Register(uint64_t length);
    Ptr<QueuePair> MakeQp();
    bool MorePosts() const;
    void PostOne();
    void Fill();
    void Finish();
    void PostZeroSend(Ptr<QueuePair> qp);

    RdmaAppRole m_role;
    Address m_remote;
    uint16_t m_port;
    uint32_t m_size;
    uint32_t m_outstanding;
    Op m_op;
    uint64_t m_totalBytes;
    Time m_duration;
    RdmaAppPayload m_payload;
    uint32_t m_receiveDepth;
    uint64_t m_maxPeerRegion;

    Ptr<Rnic> m_rnic;
    Ptr<ProtectionDomain> m_pd;
    Ptr<MemoryRegion> m_region;
    Ptr<QueuePair> m_qp;
    std::vector<Ptr<QueuePair>> m_serverQps;
    RdmaBufferAdvert m_remoteBuf;
    bool m_running{false};
    bool m_finSent{false};
    bool m_finished{false};
    uint64_t m_posted{0};
    uint64_t m_postedBytes{0};
    uint64_t m_inFlight{0};
    uint64_t m_bytes{0};
    uint64_t m_completions{0};
    uint64_t m_nextWrId{1};
    struct PostedOp
    {
        uint64_t number; ///< operation number (the Posted trace's)
        uint32_t size;
        Time time;
    };
    std::map<uint64_t, PostedOp> m_postTimes; ///< wr id -> the posted operation
    Time m_start;
    Time m_end;

    TracedCallback<uint64_t, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, uint32_t, Time> m_completedTrace;
    TracedCallback<uint64_t, uint64_t, Time, Time> m_finishedTrace;
    TracedCallback<uint64_t, uint32_t> m_failedTrace;
    TracedCallback<uint64_t, uint64_t> m_postingEndedTrace;
    TracedCallback<const std::string&> m_rejectedTrace;
    TracedCallback<Ptr<QueuePair>> m_queuePairTrace;
};

} // namespace ns3

#endif // IWARP_RDMA_STREAM_H
