/*
 * RnicPipeline: the RNIC's processing engine between DDP and the LLP, as a DdpLowerLayer
 * decorator. Each segment, in each direction, occupies the engine for
 *   per-segment time + octets / EngineRate (+ per-message time on a message's last segment)
 * one segment after another, so small messages pay a fixed latency and large ones the engine's
 * bandwidth. With every cost zero it is a pass-through that schedules nothing.
 *
 * Transmit batching (TxBatchWindow): while a segment is in the engine, DDP may queue the next
 * ones as long as they finish within the window of the oldest waiting; one event hands them to
 * the LLP together. A segment is never handed down before its serial finish, at most the window
 * after it. A message's last segment is accepted only by an idle engine, as without batching, so
 * completions and the last segment's timing are exact; so is a lone segment after an idle spell.
 *
 * Working ahead (TxWorkAhead): while the LLP refuses (its send buffer is full), no segment could
 * leave before its SendReady anyway, so the engine goes on preparing what DDP offers, up to
 * TxWorkAhead octets, and hands it all down in the SendReady's own event. A bulk stream then feeds
 * TCP in batches as an application does, rather than one timed event per TxBatchWindow.
 *
 * Receive batching (RxBatchWindow): a received segment is done at its serial finish; a message's
 * first and last segments go up to DDP exactly then, the others at most the window later,
 * together with whatever else has finished (one event). Message placement starts and deliveries
 * keep their exact times.
 *
 * Defaults are calibrated to a published iWARP RNIC: Chelsio's T5 at 40 GbE reports about
 * 1.5 us application-to-application latency for small RDMA messages (see doc/rnic-model.md).
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_RNIC_PIPELINE_H
#define IWARP_RNIC_PIPELINE_H

#include "ddp/ddp-lower-layer.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include "common/lazy-deque.h"

#include <deque>

namespace ns3
{

class RnicPipeline : public DdpLowerLayer, private DdpLowerLayer::User
{
  public:
    static TypeId GetTypeId();
    RnicPipeline();

    /** The cost attributes' defaults: a Chelsio T5's (doc/rnic-model.md; the t5-40g profile is them). */
    static constexpr int64_t kDefaultPerMessageNs = 550;
    static constexpr int64_t kDefaultPerSegmentNs = 100;
    static constexpr uint64_t kDefaultEngineRateBps = 100'000'000'000;

    /** The LLP below (MPA, SCTP-DDP, ...). */
    void SetInner(Ptr<DdpLowerLayer> inner);
    Ptr<DdpLowerLayer> GetInner() const { return m_inner; }

    uint32_t GetMulpdu() const override { return m_inner->GetMulpdu(); }
    bool SendSegment(Ptr<Packet> segment) override;
    /**
     * Graceful: the LLP is closed once the segments still in the transmit engine have gone down to it (DDP
     * closes when it has handed its last segment here, RFC 5041 section 5: queued data still goes). Abortive:
     * they are dropped and the LLP is closed at once.
     */
    void Close(CloseMode mode) override;

    /** Engine time for one segment of `octets` (last = L bit set). */
    Time Cost(uint32_t octets, bool last, bool tx) const;
    /**
     * The payload rate the slower of the two engines carries of back-to-back segments of `segment` octets,
     * `header` of them DDP/RDMAP headers (a stream of long messages: per-message costs left out), in bit/s;
     * infinite for an engine that costs nothing.
     */
    double CeilingBps(uint32_t segment, uint32_t header) const;

  protected:
    void DoDispose() override;

  private:
    void TxDone();
    void ScheduleTx();
    void TryHandDown();
    void OnInnerReceive(Ptr<Packet> segment, uint64_t order);
    void RxDone();
    void ScheduleRx();
    void OnInnerSendReady();
    void OnInnerMulpdu(uint32_t m) { NotifyMulpduChanged(m); }
    void OnInnerEvent(Event e, iwarp::ErrorCause c);

    // DdpLowerLayer::User: what the LLP below (m_inner) reports.
    void OnLlpReceive(Ptr<Packet> segment, uint64_t order) override { OnInnerReceive(segment, order); }
    void OnLlpMulpdu(uint32_t mulpdu) override { OnInnerMulpdu(mulpdu); }
    void OnLlpSendReady() override { OnInnerSendReady(); }
    void OnLlpEvent(Event e, iwarp::ErrorCause cause) override { OnInnerEvent(e, cause); }

    Ptr<DdpLowerLayer> m_inner;
    Time m_txPerMessage;
    Time m_txPerSegment;
    Time m_rxPerMessage;
    Time m_rxPerSegment;
    DataRate m_engineRate;
    struct RateCache
    {
        uint32_t octets{0};
        uint64_t bitRate{0};
        Time time;
    };
    mutable RateCache m_rateCache; ///< the engine time of the last segment size asked for

    Time m_txBatchWindow;

    struct TxItem
    {
        Ptr<Packet> segment;
        Time finish; ///< when the engine is done with it (serially, behind the ones before it)
    };
    LazyDeque<TxItem> m_txQueue; ///< processed or in process, not yet taken by the LLP
    bool m_upWantsReady{false};
    bool m_closeWhenDrained{false}; ///< a graceful close waits for the transmit engine to empty
    bool m_innerFull{false};       ///< the LLP refused the oldest finished segment; no SendReady since
    uint32_t m_txWorkAhead{0};     ///< octets the engine may prepare while the LLP is full
    uint64_t m_txQueuedOctets{0};  ///< octets in m_txQueue
    EventId m_txEvent;
    Time m_rxBatchWindow;

    struct RxItem
    {
        Ptr<Packet> segment;
        uint64_t order;
        Time finish; ///< when the receive engine is done with it
        bool exact;  ///< a message's first or last segment: handed up at its finish
    };
    LazyDeque<RxItem> m_rxQueue; ///< in the receive engine or done, not yet handed to DDP
    bool m_rxPrevWasLast{true}; ///< the next in-order segment starts a message
    EventId m_rxEvent;
    bool m_rxEventPending{false}; ///< m_rxEvent is scheduled and RxDone has not run yet
    /** Stream events wait behind segments still in the receive engine (a close follows data). */
    LazyDeque<std::pair<Event, iwarp::ErrorCause>> m_pendingEvents;
};

} // namespace ns3

#endif // IWARP_RNIC_PIPELINE_H
