/*
 * TestLowerLayer: an in-memory LLP with the DdpLowerLayer interface, for exercising DDP and
 * RDMAP without a transport (doc/architecture.md). Two instances are connected back to back.
 *
 * Impairments act on what this side transmits: drop, duplicate, hold (and later release
 * in any order, which is how out-of-order arrival is produced), a closed send window, and
 * MULPDU changes. With a DataRate set, segments are serialized one after another and
 * SendSegment refuses while the transmitter is busy, like a link of that rate. Every segment keeps its position in the sender's order (DDP-005), so a
 * DDP receiver can place out of order and still deliver in order.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_TEST_LOWER_LAYER_H
#define IWARP_TEST_LOWER_LAYER_H

#include "ddp/ddp-lower-layer.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

namespace ns3
{

class TestLowerLayer : public DdpLowerLayer
{
  public:
    static TypeId GetTypeId();
    TestLowerLayer();

    /** Connect two instances back to back and report Established on both. */
    static void Connect(Ptr<TestLowerLayer> a, Ptr<TestLowerLayer> b);

    uint32_t GetMulpdu() const override { return m_mulpdu; }
    bool SendSegment(Ptr<Packet> segment) override;
    void Close(CloseMode mode) override;

    /** Change the MULPDU and tell DDP (DDP-001). */
    void SetMulpdu(uint32_t mulpdu);

    /** While blocked, SendSegment refuses; unblocking signals SendReady. */
    void SetTxBlocked(bool blocked);
    /** Accept only this many more segments, then behave as blocked. */
    void SetTxCredit(uint64_t segments);

    /** Hold every transmitted segment instead of delivering it. */
    void SetHold(bool hold) { m_hold = hold; }
    std::size_t GetHeldCount() const { return m_held.size(); }
    /** Deliver held segments, by index into the held list, in the given order; the rest stay held. */
    void Release(const std::vector<std::size_t>& indices);
    void ReleaseAll();

    /** Drop the next `n` transmitted segments (they still count in the sender's order). */
    void DropNext(uint32_t n) { m_dropNext += n; }
    /** Deliver the next `n` transmitted segments twice. */
    void DuplicateNext(uint32_t n) { m_dupNext += n; }

    /**
     * Send raw octets as one segment in the sender's order (the Injector's path: any bytes,
     * well-formed or not). Bypasses the send window.
     */
    void SendRaw(const std::vector<uint8_t>& bytes);

    /** The peer half-closes gracefully (as a TCP FIN would): the far side sees PeerGracefulClose. */
    void SignalGracefulClose();
    /** The connection is lost: both sides see ConnectionLost. */
    void SignalConnectionLost();

    /** Report an LLP error (e.g. an MPA CRC error) to this side's DDP. */
    void SignalLlpError(iwarp::ErrorCause cause);

    bool IsClosed() const { return m_closed; }
    bool WasClosedGracefully() const { return m_closed && m_closeMode == CloseMode::Graceful; }
    bool WasClosedAbortively() const { return m_closed && m_closeMode == CloseMode::Abortive; }
    uint64_t GetSegmentsSent() const { return m_nextOrder; }

    typedef void (*SegmentTracedCallback)(Ptr<const Packet> segment, uint64_t order);

  protected:
    void DoDispose() override;

  private:
    struct Held
    {
        Ptr<Packet> segment;
        uint64_t order;
    };

    void Transmit(Ptr<Packet> segment);
    void ScheduleDelivery(Ptr<Packet> segment, uint64_t order);
    void Arrive(Ptr<Packet> segment, uint64_t order);
    void ArriveEvent(Event e);

    Ptr<TestLowerLayer> m_peer;
    uint32_t m_mulpdu;
    Time m_delay;
    DataRate m_rate;  ///< 0: unlimited; otherwise segments are serialized at this rate
    Time m_txFreeAt;  ///< when the transmitter finishes the segment it is sending
    EventId m_readyEvent;
    bool m_txBlocked{false};
    uint64_t m_txCredit{std::numeric_limits<uint64_t>::max()};
    bool m_hold{false};
    std::deque<Held> m_held;
    uint32_t m_dropNext{0};
    uint32_t m_dupNext{0};
    uint64_t m_nextOrder{0};
    bool m_closed{false};
    CloseMode m_closeMode{CloseMode::Graceful};

    TracedCallback<Ptr<const Packet>, uint64_t> m_txTrace;
    TracedCallback<Ptr<const Packet>, uint64_t> m_rxTrace;
};

} // namespace ns3

#endif // IWARP_TEST_LOWER_LAYER_H
