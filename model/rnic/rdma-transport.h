/*
 * RdmaTransport: the seam between a QueuePair (verbs) and the protocol that carries its work.
 *
 * The QP owns the verbs state machine and the completion queues; a transport executes work
 * requests on one connection and reports back to its Owner (the QP), once per work completion
 * and once per asynchronous stream event. Only verbs-level types cross this seam, so a QP, its
 * CQs and the applications above them run unchanged over iWARP (IwarpTransport: RDMAP, DDP and
 * the RNIC engine pipeline over MPA/TCP or SCTP), over the in-memory loopback used by the tests,
 * or over another RDMA transport such as RoCEv2 (doc/architecture.md).
 *
 * The seam is crossed once per work request (one virtual call to post it) and once per
 * completion; what a transport does per segment stays inside it.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_RDMA_TRANSPORT_H
#define IWARP_RDMA_TRANSPORT_H

#include "common/memory-access.h"
#include "common/verbs-types.h"

#include "ns3/callback.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

class RdmaTransport : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Who a transport reports to: the QP that owns it. An interface rather than two Callbacks,
     * since bound Callbacks cost 200-300 octets of heap each in every QP.
     */
    class Owner
    {
      public:
        virtual ~Owner() = default;
        /** A work request finished (or was flushed). */
        virtual void OnTransportCompletion(const WorkCompletion& c) = 0;
        /** A stream event: Established, an error, a close. */
        virtual void OnTransportEvent(const QpEventInfo& e) = 0;
    };
    /** Tagged data placed in local memory: (STag, TO, length). */
    typedef Callback<void, uint32_t, uint64_t, uint64_t> PlacementCallback;

    /**
     * Called once by the QP before any other call: the memory the work names (the RNIC's
     * registry, through the verbs-level MemoryAccess questions), the stream it is checked
     * against, and where completions and events go (`owner` must outlive the transport's use:
     * the QP disposes its transport before it goes).
     */
    void Setup(Ptr<MemoryAccess> memory, const StreamContext& ctx, Owner* owner);

    /**
     * Put the transport on its connection. What `lower` is depends on the transport (an LLP
     * stream for iWARP, the peer for the loopback); one of the wrong kind is a fatal error.
     * The transport reports QpEvent::Established when work may flow.
     */
    virtual void Bind(Ptr<Object> lower) = 0;

    /**
     * Start a send-queue work request. Returns false, completing nothing, when the request
     * cannot be accepted (its local buffer does not resolve for the access it needs, or the
     * stream takes no more work).
     */
    virtual bool PostSend(const SendWr& wr) = 0;
    /** Post a receive buffer; false, completing nothing, when it cannot be accepted. */
    virtual bool PostRecv(uint64_t id, const LocalBuffer& buffer) = 0;
    /**
     * End the stream. Abortive: every outstanding request completes Flushed now. Graceful:
     * work already posted finishes first, as the transport's close allows.
     */
    virtual void Close(bool graceful) = 0;

    /**
     * Also report each placement of tagged data (an RDMA Write or a Read Response landing in
     * local memory), for an application that polls memory instead of waiting for completions.
     * A transport pays for this only once it is asked.
     */
    virtual void WatchPlacement(PlacementCallback cb) = 0;

    /** Payload octets moved by one event of a transport: one segment or packet placed, or sent. */
    typedef Callback<void, uint64_t> OctetsCallback;
    /**
     * Also report the payload octets each arrival places in local memory (`placed`) and each segment
     * or packet takes from it to the wire (`sent`): what a host model charges for the RNIC's DMA
     * (Rnic::ChargeHost), in the same terms whatever the transport. Like WatchPlacement, a transport
     * pays for this only once it is asked; every transport must say (pure virtual), so none runs
     * uncharged under a host model.
     */
    virtual void WatchOctets(OctetsCallback placed, OctetsCallback sent) = 0;

    /**
     * The objects the transport is made of, each of which takes the RNIC's part attributes as it is made
     * (Rnic::SetPartAttribute): iWARP's pipeline, DDP and RDMAP endpoints. None by default.
     */
    virtual std::vector<Ptr<Object>> Parts() const { return {}; }

    /**
     * Inbound and outbound RDMA Read depth (IRD, ORD): how many Reads the peer may have
     * outstanding at this end, and this end at the peer. Verbs-level, so a connection manager
     * can exchange and negotiate them without knowing the transport (iWARP carries them in MPA
     * Rev 2, RFC 6581; RoCE in its CM's responder resources and initiator depth).
     */
    virtual uint32_t GetIrd() const = 0;
    virtual uint32_t GetOrd() const = 0;
    /** Lower the ORD to what connection set-up allowed (never raised). */
    virtual void SetOrd(uint32_t ord) = 0;

  protected:
    void DoDispose() override;

    /** Check a local buffer for `access` in this stream; on success `out` (if given) is its window. */
    bool ResolveLocal(const LocalBuffer& b, uint8_t access, BufferWindow* out) const;

    /** Report to the owner (nothing once disposed). */
    void ReportCompletion(const WorkCompletion& c) const
    {
        if (m_owner)
        {
            m_owner->OnTransportCompletion(c);
        }
    }
    void ReportEvent(const QpEventInfo& e) const
    {
        if (m_owner)
        {
            m_owner->OnTransportEvent(e);
        }
    }

    Ptr<MemoryAccess> m_memory;
    StreamContext m_ctx;

  private:
    Owner* m_owner{nullptr};
};

} // namespace ns3

#endif // IWARP_RDMA_TRANSPORT_H
