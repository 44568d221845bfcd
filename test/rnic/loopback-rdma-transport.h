/*
 * LoopbackRdmaTransport: a minimal RdmaTransport that proves the QueuePair seam. Two QPs are
 * joined directly (no network, no protocol headers); each work request runs after the Delay
 * attribute, in posting order, copying octets between the two RNICs' registered regions through
 * their memory registries. Errors come back as verbs-level completion statuses, following the
 * iWARP transport's rules so the same test cases hold over both:
 *  - a local buffer that no longer resolves when the request runs: LocalOperationError;
 *  - a remote STag, TO or length the peer refuses, a Send with no receive posted or one longer
 *    than it: the peer ends the stream (LocalError there, its implicated receive LocalLengthError
 *    when too short) and the requester gets RemoteError; a Read completes RemoteError, while a
 *    Send or Write has completed already (as in iWARP, once its data has left);
 *  - after an error, everything outstanding is flushed: Flushed at the end that found it,
 *    RemoteError at the other end.
 * Octets land through ByteBuffer::Write, so a region counts what was placed in it as over iWARP.
 * Memory registered Virtual carries no octets: nothing is copied from it (a Real destination gets
 * zeros, as from a segment of virtual payload), and nothing is stored into it.
 */
#ifndef IWARP_TEST_LOOPBACK_RDMA_TRANSPORT_H
#define IWARP_TEST_LOOPBACK_RDMA_TRANSPORT_H

#include "rnic/queue-pair.h"
#include "rnic/rdma-transport.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <deque>

namespace ns3
{

class LoopbackRdmaTransport : public RdmaTransport
{
  public:
    static TypeId GetTypeId();

    /** Join two QPs whose RNICs make LoopbackRdmaTransports (Rnic::TransportType). */
    static void Join(Ptr<QueuePair> a, Ptr<QueuePair> b);

    /**
     * `lower` is the peer's LoopbackRdmaTransport (Join), or a LoopbackLinkEnd that a
     * LoopbackLlpConnector handed out: the link joins the two transports once both ends are bound.
     */
    void Bind(Ptr<Object> lower) override;
    bool PostSend(const SendWr& wr) override;
    bool PostRecv(uint64_t id, const LocalBuffer& buffer) override;
    void Close(bool graceful) override;
    void WatchPlacement(PlacementCallback cb) override;
    /** Each copy's octets: placed at the end that receives them, sent by the end they leave. */
    void WatchOctets(OctetsCallback placed, OctetsCallback sent) override;
    /** The "Ird" and "Ord" attributes; nothing limits the Reads in flight, they are only exchanged. */
    uint32_t GetIrd() const override { return m_ird; }
    uint32_t GetOrd() const override { return m_ord; }
    void SetOrd(uint32_t ord) override { m_ord = std::min(m_ord, ord); }

  protected:
    void DoDispose() override;

  private:
    /** `octets` left this end's memory for `to`'s: reported as sent here and placed there. */
    void Moved(uint64_t octets, const LoopbackRdmaTransport& to) const;
    struct Recv
    {
        uint64_t id;
        LocalBuffer buffer;
    };

    /** Run the oldest posted request (one event per request, so they run in posting order). */
    void RunNext();
    /** A Send arriving from the peer; returns the status the sender's request completes with. */
    WcStatus Receive(const SendWr& wr, const BufferWindow& src);
    /** The peer refused a request: complete it, and end the stream at both ends. */
    void RemoteRefused(const SendWr& wr);
    void Complete(const SendWr& wr, WcStatus status, uint64_t length);
    /** End the stream with an error: flush what is outstanding with `status`, report `event`. */
    void Fail(QpEvent event, WcStatus status);
    void FinishClose();
    void Placed(uint32_t stag, uint64_t to, uint64_t length) const;

    Time m_delay;
    uint32_t m_ird{0};
    uint32_t m_ord{0};
    bool m_bound{false}; ///< on a connection (receives may be posted), perhaps not joined yet
    Ptr<LoopbackRdmaTransport> m_peer;
    std::deque<SendWr> m_pending;
    std::deque<Recv> m_recvs;
    PlacementCallback m_placed;
    OctetsCallback m_octetsPlaced;
    OctetsCallback m_octetsSent;
    bool m_failed{false};
    bool m_closing{false};
    bool m_closed{false};
};

} // namespace ns3

#endif // IWARP_TEST_LOOPBACK_RDMA_TRANSPORT_H
