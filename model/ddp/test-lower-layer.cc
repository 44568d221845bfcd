#include "ddp/test-lower-layer.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TestLowerLayer");
NS_OBJECT_ENSURE_REGISTERED(TestLowerLayer);

TypeId
TestLowerLayer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TestLowerLayer")
            .SetParent<DdpLowerLayer>()
            .SetGroupName("Iwarp")
            .AddConstructor<TestLowerLayer>()
            .AddAttribute("Mulpdu",
                          "Largest DDP segment carried (doc/conformance.md §4.0 fixture F: 1500)",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&TestLowerLayer::m_mulpdu),
                          MakeUintegerChecker<uint32_t>(19))
            .AddAttribute("Delay",
                          "One-way delay from SendSegment to arrival at the peer",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&TestLowerLayer::m_delay),
                          MakeTimeChecker())
            .AddAttribute("DataRate",
                          "Transmit rate; 0 means segments leave at once, with no serialization",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&TestLowerLayer::m_rate),
                          MakeDataRateChecker())
            .AddTraceSource("Tx",
                            "A segment accepted for transmission, with its order",
                            MakeTraceSourceAccessor(&TestLowerLayer::m_txTrace),
                            "ns3::TestLowerLayer::SegmentTracedCallback")
            .AddTraceSource("Rx",
                            "A segment handed up to DDP, with its order",
                            MakeTraceSourceAccessor(&TestLowerLayer::m_rxTrace),
                            "ns3::TestLowerLayer::SegmentTracedCallback");
    return tid;
}

TestLowerLayer::TestLowerLayer()
    : m_mulpdu(1500),
      m_rate(0)
{
}

void
TestLowerLayer::Connect(Ptr<TestLowerLayer> a, Ptr<TestLowerLayer> b)
{
    a->m_peer = b;
    b->m_peer = a;
    Simulator::ScheduleNow(&TestLowerLayer::ArriveEvent, a, Event::Established);
    Simulator::ScheduleNow(&TestLowerLayer::ArriveEvent, b, Event::Established);
}

bool
TestLowerLayer::SendSegment(Ptr<Packet> segment)
{
    NS_ABORT_MSG_IF(segment->GetSize() > m_mulpdu,
                    "DDP handed the LLP a segment of " << segment->GetSize()
                                                       << " octets above MULPDU " << m_mulpdu);
    if (m_closed || m_txBlocked || m_txCredit == 0)
    {
        return false;
    }
    if (m_rate.GetBitRate() > 0)
    {
        if (Simulator::Now() < m_txFreeAt)
        {
            if (!m_readyEvent.IsRunning())
            {
                m_readyEvent = Simulator::Schedule(m_txFreeAt - Simulator::Now(),
                                                   &TestLowerLayer::NotifySendReady,
                                                   this);
            }
            return false;
        }
        m_txFreeAt = Simulator::Now() + m_rate.CalculateBytesTxTime(segment->GetSize());
    }
    if (m_txCredit != std::numeric_limits<uint64_t>::max())
    {
        --m_txCredit;
    }
    Transmit(segment);
    return true;
}

void
TestLowerLayer::SendRaw(const std::vector<uint8_t>& bytes)
{
    Transmit(Create<Packet>(bytes.data(), bytes.size()));
}

void
TestLowerLayer::Transmit(Ptr<Packet> segment)
{
    const uint64_t order = m_nextOrder++;
    m_txTrace(segment, order);
    if (m_dropNext > 0)
    {
        --m_dropNext;
        NS_LOG_INFO("dropping segment " << order);
        return;
    }
    if (m_dupNext > 0)
    {
        --m_dupNext;
        ScheduleDelivery(segment->Copy(), order);
    }
    ScheduleDelivery(segment, order);
}

void
TestLowerLayer::ScheduleDelivery(Ptr<Packet> segment, uint64_t order)
{
    if (m_hold)
    {
        m_held.push_back({segment, order});
        return;
    }
    if (m_peer)
    {
        const Time serialization = std::max(Time(0), m_txFreeAt - Simulator::Now());
        Simulator::Schedule(serialization + m_delay, &TestLowerLayer::Arrive, m_peer, segment, order);
    }
}

void
TestLowerLayer::Release(const std::vector<std::size_t>& indices)
{
    std::vector<bool> released(m_held.size(), false);
    for (std::size_t idx : indices)
    {
        NS_ABORT_MSG_IF(idx >= m_held.size(), "no held segment " << idx);
        if (m_peer)
        {
            Simulator::Schedule(m_delay, &TestLowerLayer::Arrive, m_peer, m_held[idx].segment,
                                m_held[idx].order);
        }
        released[idx] = true;
    }
    std::deque<Held> rest;
    for (std::size_t i = 0; i < m_held.size(); ++i)
    {
        if (!released[i])
        {
            rest.push_back(m_held[i]);
        }
    }
    m_held.swap(rest);
}

void
TestLowerLayer::ReleaseAll()
{
    std::vector<std::size_t> all(m_held.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    Release(all);
}

void
TestLowerLayer::Arrive(Ptr<Packet> segment, uint64_t order)
{
    if (m_closed)
    {
        return;
    }
    m_rxTrace(segment, order);
    NotifyReceive(segment, order);
}

void
TestLowerLayer::ArriveEvent(Event e)
{
    if (m_closed && e != Event::ConnectionLost)
    {
        return;
    }
    NotifyEvent(e);
}

void
TestLowerLayer::SetMulpdu(uint32_t mulpdu)
{
    m_mulpdu = mulpdu;
    NotifyMulpduChanged(mulpdu);
}

void
TestLowerLayer::SetTxBlocked(bool blocked)
{
    m_txBlocked = blocked;
    if (!blocked)
    {
        Simulator::ScheduleNow(&TestLowerLayer::NotifySendReady, this);
    }
}

void
TestLowerLayer::SetTxCredit(uint64_t segments)
{
    m_txCredit = segments;
    if (segments > 0)
    {
        Simulator::ScheduleNow(&TestLowerLayer::NotifySendReady, this);
    }
}

void
TestLowerLayer::DoDispose()
{
    m_readyEvent.Cancel();
    m_peer = nullptr;
    m_held.clear();
    DdpLowerLayer::DoDispose();
}

void
TestLowerLayer::Close(CloseMode mode)
{
    if (m_closed)
    {
        return;
    }
    NS_LOG_FUNCTION(this << (mode == CloseMode::Graceful ? "graceful" : "abortive"));
    m_closed = true;
    m_closeMode = mode;
    if (!m_peer)
    {
        return;
    }
    // A graceful close reaches the peer after the data already in flight (like a FIN).
    Simulator::Schedule(m_delay,
                        &TestLowerLayer::ArriveEvent,
                        m_peer,
                        mode == CloseMode::Graceful ? Event::PeerGracefulClose
                                                    : Event::ConnectionLost);
}

void
TestLowerLayer::SignalGracefulClose()
{
    if (m_peer)
    {
        Simulator::Schedule(m_delay, &TestLowerLayer::ArriveEvent, m_peer, Event::PeerGracefulClose);
    }
}

void
TestLowerLayer::SignalConnectionLost()
{
    Simulator::ScheduleNow(&TestLowerLayer::ArriveEvent, this, Event::ConnectionLost);
    if (m_peer)
    {
        Simulator::ScheduleNow(&TestLowerLayer::ArriveEvent, m_peer, Event::ConnectionLost);
    }
}

void
TestLowerLayer::SignalLlpError(iwarp::ErrorCause cause)
{
    Simulator::ScheduleNow([this, cause]() { NotifyEvent(Event::LlpError, cause); });
}

} // namespace ns3
