#include "rnic/rnic-pipeline.h"

#include "ddp/ddp-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RnicPipeline");
NS_OBJECT_ENSURE_REGISTERED(RnicPipeline);

namespace
{
/** The longest engine time or batch window an attribute takes: published RNICs spend 0.5-2 us per message,
 *  so a millisecond is already a typo of a few zeros, not a slow RNIC. A function, not a constant: GetTypeId
 *  runs during static initialisation. */
Time
EngineTimeMax()
{
    return MilliSeconds(1);
}
} // namespace

TypeId
RnicPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RnicPipeline")
            .SetParent<DdpLowerLayer>()
            .SetGroupName("Iwarp")
            .AddConstructor<RnicPipeline>()
            .AddAttribute("TxPerMessage",
                          "Transmit engine time per message (doorbell, WQE fetch, completion)"
                          "; 0 to 1 ms",
                          TimeValue(NanoSeconds(kDefaultPerMessageNs)),
                          MakeTimeAccessor(&RnicPipeline::m_txPerMessage),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("TxPerSegment",
                          "Transmit engine time per DDP segment (headers, MPA framing, CRC setup)"
                          "; 0 to 1 ms",
                          TimeValue(NanoSeconds(kDefaultPerSegmentNs)),
                          MakeTimeAccessor(&RnicPipeline::m_txPerSegment),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("RxPerMessage",
                          "Receive engine time per message (delivery, completion, event)"
                          "; 0 to 1 ms",
                          TimeValue(NanoSeconds(kDefaultPerMessageNs)),
                          MakeTimeAccessor(&RnicPipeline::m_rxPerMessage),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("RxPerSegment",
                          "Receive engine time per DDP segment (validation, STag lookup, DMA set-up)"
                          "; 0 to 1 ms",
                          TimeValue(NanoSeconds(kDefaultPerSegmentNs)),
                          MakeTimeAccessor(&RnicPipeline::m_rxPerSegment),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("TxBatchWindow",
                          "Segments (not a message's last) that the transmit engine finishes within this "
                          "time of the oldest one waiting are handed to the LLP together, at the latest "
                          "one's finish: each leaves at most this late, which saves simulation events; "
                          "0 hands every segment down at its own finish; at most 1 ms",
                          TimeValue(NanoSeconds(1000)),
                          MakeTimeAccessor(&RnicPipeline::m_txBatchWindow),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("TxWorkAhead",
                          "While the LLP refuses segments (its send buffer is full), the transmit engine "
                          "goes on preparing what DDP offers, except a message's last segment, until this "
                          "many octets wait; they go down together at the LLP's next SendReady, in that one "
                          "event. 0: the engine stops when the LLP is full",
                          UintegerValue(128 * 1024),
                          MakeUintegerAccessor(&RnicPipeline::m_txWorkAhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxBatchWindow",
                          "Received segments other than a message's first and last are handed to DDP "
                          "at most this long after the receive engine finishes them, together with "
                          "the others finished by then (one event); 0 hands each up at its own finish; at most 1 ms",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RnicPipeline::m_rxBatchWindow),
                          MakeTimeChecker(Time(0), EngineTimeMax()))
            .AddAttribute("EngineRate",
                          "Octets per second the engine moves (DMA and CRC), each direction; a scenario takes "
                          "1 Mb/s to 1.6 Tb/s, as a link",
                          DataRateValue(DataRate(kDefaultEngineRateBps)),
                          MakeDataRateAccessor(&RnicPipeline::m_engineRate),
                          MakeDataRateChecker());
    return tid;
}

RnicPipeline::RnicPipeline()
    : m_engineRate(kDefaultEngineRateBps)
{
}

void
RnicPipeline::DoDispose()
{
    m_txEvent.Cancel();
    m_txQueue.clear();
    m_txQueuedOctets = 0;
    m_rxEvent.Cancel();
    m_rxEventPending = false;
    m_rxQueue.clear();
    if (m_inner)
    {
        m_inner->SetUser(nullptr);
    }
    m_inner = nullptr;
    DdpLowerLayer::DoDispose();
}

void
RnicPipeline::SetInner(Ptr<DdpLowerLayer> inner)
{
    m_inner = inner;
    inner->SetUser(this); // one pointer, not four Callbacks (an idle QP's heap, doc/performance.md)
}

Time
RnicPipeline::Cost(uint32_t octets, bool last, bool tx) const
{
    Time t = tx ? m_txPerSegment : m_rxPerSegment;
    if (last)
    {
        t += tx ? m_txPerMessage : m_rxPerMessage;
    }
    if (m_engineRate.GetBitRate() > 0)
    {
        // Segments of a stream are mostly one size: remember the last one, since computing a
        // transfer time takes a 128-bit division (about 1 % of a streaming benchmark's run).
        if (octets != m_rateCache.octets || m_engineRate.GetBitRate() != m_rateCache.bitRate)
        {
            m_rateCache = {octets, m_engineRate.GetBitRate(), m_engineRate.CalculateBytesTxTime(octets)};
        }
        t += m_rateCache.time;
    }
    return t;
}

double
RnicPipeline::CeilingBps(uint32_t segment, uint32_t header) const
{
    const Time slower = std::max(Cost(segment, false, true), Cost(segment, false, false));
    const double payloadBits = 8.0 * double(segment > header ? segment - header : 0);
    return slower.IsPositive() ? payloadBits / slower.GetSeconds() : std::numeric_limits<double>::infinity();
}

namespace
{
/** A message's last segment costs the per-message work; one shorter than its header is no message's. */
bool
IsLast(Ptr<const Packet> segment)
{
    const std::optional<DdpSegmentView> v = PeekDdpControl(segment);
    return v && v->last;
}
} // namespace

bool
RnicPipeline::SendSegment(Ptr<Packet> segment)
{
    const bool last = IsLast(segment);
    const Time cost = Cost(segment->GetSize(), last, true);
    const Time now = Simulator::Now();
    if (m_txQueue.empty() && cost.IsZero())
    {
        return m_inner->SendSegment(segment); // pass-through
    }
    // The engine is free once the last queued segment is done (an empty queue: everything is done).
    const Time finish = (m_txQueue.empty() ? now : std::max(now, m_txQueue.back().finish)) + cost;
    // While the LLP is full, nothing leaves before its SendReady anyway: the engine works ahead.
    const bool workAhead = m_innerFull && m_txQueuedOctets + segment->GetSize() <= m_txWorkAhead;
    if (!m_txQueue.empty() && (last || (!workAhead && finish > m_txQueue.front().finish + m_txBatchWindow)))
    {
        // A message's last segment starts only on an idle engine, so it (and the completion DDP
        // reports when it is accepted) keeps its exact time; other segments join the batch while
        // they finish within TxBatchWindow of the oldest one waiting, or within TxWorkAhead.
        m_upWantsReady = true;
        return false;
    }
    m_txQueue.push_back({segment, finish});
    m_txQueuedOctets += segment->GetSize();
    if (m_txQueue.size() == 1)
    {
        // The first segment after an idle spell leaves at its own finish: a lone message's
        // latency is exact. TxDone then batches whatever queued behind it.
        m_txEvent.Cancel();
        m_txEvent = Simulator::Schedule(finish - now, &RnicPipeline::TxDone, this);
    }
    return true;
}

void
RnicPipeline::TxDone()
{
    TryHandDown();
    ScheduleTx();
}

void
RnicPipeline::ScheduleTx()
{
    if (m_txQueue.empty() || m_txEvent.IsRunning() || m_txQueue.front().finish <= Simulator::Now())
    {
        return; // nothing to do, already timed, or a finished segment waits for the LLP's SendReady
    }
    // One event for everything queued that finishes within TxBatchWindow of the oldest: each
    // segment leaves at most the window after its own finish (never before it), which saves an
    // event and a TCP transmission attempt per segment. (Segments prepared ahead of a full LLP may
    // reach further; they go in later events.)
    Time at = m_txQueue.front().finish;
    for (const TxItem& item : m_txQueue)
    {
        if (item.finish > m_txQueue.front().finish + m_txBatchWindow)
        {
            break;
        }
        at = item.finish;
    }
    m_txEvent = Simulator::Schedule(at - Simulator::Now(), &RnicPipeline::TxDone, this);
}

void
RnicPipeline::TryHandDown()
{
    bool handed = false;
    while (!m_txQueue.empty() && m_txQueue.front().finish <= Simulator::Now())
    {
        if (!m_inner->SendSegment(m_txQueue.front().segment))
        {
            m_innerFull = true;
            break; // the LLP is full: wait for its SendReady
        }
        m_innerFull = false;
        m_txQueuedOctets -= m_txQueue.front().segment->GetSize();
        m_txQueue.pop_front();
        handed = true;
    }
    if (m_closeWhenDrained && m_txQueue.empty())
    {
        m_closeWhenDrained = false;
        m_inner->Close(CloseMode::Graceful);
        return;
    }
    // Room in the engine (segments left), or a full LLP (DDP may now fill TxWorkAhead): ask DDP.
    if ((handed || m_innerFull) && m_upWantsReady)
    {
        m_upWantsReady = false;
        NotifySendReady();
    }
}

void
RnicPipeline::Close(CloseMode mode)
{
    if (mode == CloseMode::Graceful && !m_txQueue.empty())
    {
        m_closeWhenDrained = true; // TryHandDown closes behind the last segment
        return;
    }
    m_closeWhenDrained = false;
    m_txQueue.clear();
    m_txQueuedOctets = 0;
    m_txEvent.Cancel();
    m_inner->Close(mode);
}

void
RnicPipeline::OnInnerSendReady()
{
    m_innerFull = false;
    if (m_txQueue.empty())
    {
        NotifySendReady();
        return;
    }
    TryHandDown();
    ScheduleTx();
}

void
RnicPipeline::OnInnerReceive(Ptr<Packet> segment, uint64_t order)
{
    if (order == kOrderUnknown)
    {
        NotifyReceive(segment, order); // placement hints skip the queue: they are extra work
        return;
    }
    const bool last = IsLast(segment);
    const bool exact = last || m_rxPrevWasLast; // a message's first and last segments keep their times
    m_rxPrevWasLast = last;
    const Time cost = Cost(segment->GetSize(), last, false);
    if (m_rxQueue.empty() && cost.IsZero())
    {
        NotifyReceive(segment, order); // pass-through
        return;
    }
    const Time now = Simulator::Now();
    const Time finish = (m_rxQueue.empty() ? now : std::max(now, m_rxQueue.back().finish)) + cost;
    m_rxQueue.push_back({segment, order, finish, exact});
    ScheduleRx();
}

void
RnicPipeline::ScheduleRx()
{
    if (m_rxQueue.empty())
    {
        return;
    }
    // Hand up at the first exact segment's finish, or RxBatchWindow after the oldest one's finish,
    // whichever comes first; everything finished by then goes up in that one event.
    Time target = m_rxQueue.front().finish + m_rxBatchWindow;
    for (const RxItem& item : m_rxQueue)
    {
        if (item.finish > target)
        {
            break;
        }
        if (item.exact)
        {
            target = item.finish;
            break;
        }
    }
    // Our own flag rather than EventId::IsRunning, which asks the simulator (a few hundred
    // instructions, once per received segment).
    if (m_rxEventPending)
    {
        if (TimeStep(m_rxEvent.GetTs()) <= target)
        {
            return;
        }
        m_rxEvent.Cancel();
    }
    m_rxEvent = Simulator::Schedule(target - Simulator::Now(), &RnicPipeline::RxDone, this);
    m_rxEventPending = true;
}

void
RnicPipeline::OnInnerEvent(Event e, iwarp::ErrorCause c)
{
    if (m_rxQueue.empty())
    {
        NotifyEvent(e, c);
        return;
    }
    m_pendingEvents.emplace_back(e, c);
}

void
RnicPipeline::RxDone()
{
    m_rxEventPending = false;
    while (!m_rxQueue.empty() && m_rxQueue.front().finish <= Simulator::Now())
    {
        RxItem item = m_rxQueue.front();
        m_rxQueue.pop_front();
        NotifyReceive(item.segment, item.order);
    }
    if (m_rxQueue.empty())
    {
        while (!m_pendingEvents.empty())
        {
            const auto ev = m_pendingEvents.front();
            m_pendingEvents.pop_front();
            NotifyEvent(ev.first, ev.second);
        }
    }
    ScheduleRx();
}

} // namespace ns3
