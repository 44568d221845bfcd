#include "helper/topology/port-limit.h"

#include "helper/topology/port-queues.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/queue.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PortLimit");

PortLimit::PortLimit(Ptr<PointToPointNetDevice> dev)
    : m_disc(RootQueueDisc(dev)),
      m_queue(m_disc ? nullptr : dev->GetQueue())
{
    m_target = Limit();
    // Bound to this object: the events that own it live until the run is over.
    if (m_disc)
    {
        m_disc->TraceConnectWithoutContext(
            "Dequeue", MakeBoundCallback(+[](PortLimit* self, Ptr<const QueueDiscItem>) { self->FollowDown(); }, this));
    }
    else
    {
        m_queue->TraceConnectWithoutContext(
            "Dequeue", MakeBoundCallback(+[](PortLimit* self, Ptr<const Packet>) { self->FollowDown(); }, this));
    }
}

QueueSize
PortLimit::Limit() const
{
    return m_disc ? m_disc->GetMaxSize() : m_queue->GetMaxSize();
}

uint32_t
PortLimit::Held(QueueSizeUnit unit) const
{
    if (m_disc)
    {
        return unit == QueueSizeUnit::PACKETS ? m_disc->GetNPackets() : m_disc->GetNBytes();
    }
    return unit == QueueSizeUnit::PACKETS ? m_queue->GetNPackets() : m_queue->GetNBytes();
}

void
PortLimit::SetNow(QueueSize limit)
{
    NS_LOG_FUNCTION(this << limit);
    if (m_disc)
    {
        m_disc->SetMaxSize(limit);
    }
    else
    {
        m_queue->SetMaxSize(limit);
    }
}

void
PortLimit::Set(QueueSize limit)
{
    const QueueSizeUnit unit = Limit().GetUnit();
    if (limit.GetUnit() != unit)
    {
        throw std::invalid_argument("the port counts its buffer in " +
                                    std::string(unit == QueueSizeUnit::PACKETS ? "packets" : "octets") +
                                    ": give the new limit in the same unit");
    }
    m_target = limit;
    SetNow(QueueSize(unit, std::max(limit.GetValue(), Held(unit))));
}

void
PortLimit::FollowDown()
{
    const QueueSize now = Limit();
    if (now.GetValue() > m_target.GetValue())
    {
        SetNow(QueueSize(now.GetUnit(), std::max(m_target.GetValue(), Held(now.GetUnit()))));
    }
}

} // namespace ns3
