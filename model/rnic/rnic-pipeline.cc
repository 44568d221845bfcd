#include "rnic/rnic-pipeline.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RnicPipeline");
NS_OBJECT_ENSURE_REGISTERED(RnicPipeline);

TypeId
RnicPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RnicPipeline")
            .SetParent<DdpLowerLayer>()
            .SetGroupName("Iwarp")
            .AddConstructor<RnicPipeline>()
            .AddAttribute("TxPerMessage",
                          "Transmit engine time per message (doorbell, WQE fetch, completion)",
                          TimeValue(NanoSeconds(550)),
                          MakeTimeAccessor(&RnicPipeline::m_txPerMessage),
                          MakeTimeChecker())
            .AddAttribute("TxPerSegment",
                          "Transmit engine time per DDP segment (headers, MPA framing, CRC setup)",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&RnicPipeline::m_txPerSegment),
                          MakeTimeChecker())
            .AddAttribute("RxPerMessage",
                          "Receive engine time per message (delivery, completion, event)",
                          TimeValue(NanoSeconds(550)),
                          MakeTimeAccessor(&RnicPipeline::m_rxPerMessage),
                          MakeTimeChecker())
            .AddAttribute("RxPerSegment",
                          "Receive engine time per DDP segment (validation, STag lookup, DMA set-up)",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&RnicPipeline::m_rxPerSegment),
                          MakeTimeChecker())
            .AddAttribute("EngineRate",
                          "Octets per second the engine moves (DMA and CRC), each direction",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&RnicPipeline::m_engineRate),
                          MakeDataRateChecker());
    return tid;
}

RnicPipeline::RnicPipeline()
    : m_engineRate("100Gbps")
{
}

void
RnicPipeline::DoDispose()
{
    m_txEvent.Cancel();
    m_rxEvent.Cancel();
    m_rxQueue.clear();
    if (m_inner)
    {
        m_inner->SetReceiveCallback(ReceiveCallback());
        m_inner->SetSendReadyCallback(SendReadyCallback());
        m_inner->SetMulpduCallback(MulpduCallback());
        m_inner->SetEventCallback(EventCallback());
    }
    m_inner = nullptr;
    DdpLowerLayer::DoDispose();
}

void
RnicPipeline::SetInner(Ptr<DdpLowerLayer> inner)
{
    m_inner = inner;
    inner->SetReceiveCallback(MakeCallback(&RnicPipeline::OnInnerReceive, this));
    inner->SetSendReadyCallback(MakeCallback(&RnicPipeline::OnInnerSendReady, this));
    inner->SetMulpduCallback(MakeCallback(&RnicPipeline::OnInnerMulpdu, this));
    inner->SetEventCallback(MakeCallback(&RnicPipeline::OnInnerEvent, this));
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
        t += m_engineRate.CalculateBytesTxTime(octets);
    }
    return t;
}

namespace
{
bool
IsLast(Ptr<const Packet> segment)
{
    uint8_t ctrl = 0;
    segment->CopyData(&ctrl, 1);
    return (ctrl & iwarp::kDdpL) != 0;
}
} // namespace

bool
RnicPipeline::SendSegment(Ptr<Packet> segment)
{
    if (m_txBusy)
    {
        m_upWantsReady = true;
        return false; // the engine works on one segment at a time
    }
    const Time cost = Cost(segment->GetSize(), IsLast(segment), true);
    if (cost.IsZero())
    {
        return m_inner->SendSegment(segment); // pass-through
    }
    m_txBusy = segment;
    m_txProcessed = false;
    m_txEvent = Simulator::Schedule(cost, &RnicPipeline::TxDone, this);
    return true;
}

void
RnicPipeline::TxDone()
{
    m_txProcessed = true;
    TryHandDown();
}

void
RnicPipeline::TryHandDown()
{
    if (!m_txBusy || !m_txProcessed)
    {
        return;
    }
    if (!m_inner->SendSegment(m_txBusy))
    {
        return; // the LLP is full: wait for its SendReady
    }
    m_txBusy = nullptr;
    if (m_upWantsReady)
    {
        m_upWantsReady = false;
        NotifySendReady();
    }
}

void
RnicPipeline::OnInnerSendReady()
{
    if (m_txBusy)
    {
        TryHandDown();
    }
    else
    {
        NotifySendReady();
    }
}

void
RnicPipeline::OnInnerReceive(Ptr<Packet> segment, uint64_t order)
{
    if (order == kOrderUnknown)
    {
        NotifyReceive(segment, order); // placement hints skip the queue: they are extra work
        return;
    }
    const bool idle = m_rxQueue.empty();
    m_rxQueue.emplace_back(segment, order);
    if (idle)
    {
        StartRx();
    }
}

void
RnicPipeline::StartRx()
{
    while (!m_rxQueue.empty())
    {
        const auto& [seg, order] = m_rxQueue.front();
        const Time cost = Cost(seg->GetSize(), IsLast(seg), false);
        if (!cost.IsZero())
        {
            m_rxEvent = Simulator::Schedule(cost, &RnicPipeline::RxDone, this);
            return;
        }
        auto item = m_rxQueue.front();
        m_rxQueue.pop_front();
        NotifyReceive(item.first, item.second);
    }
    while (!m_pendingEvents.empty())
    {
        const auto ev = m_pendingEvents.front();
        m_pendingEvents.pop_front();
        NotifyEvent(ev.first, ev.second);
    }
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
    auto item = m_rxQueue.front();
    m_rxQueue.pop_front();
    NotifyReceive(item.first, item.second);
    StartRx();
}

} // namespace ns3
