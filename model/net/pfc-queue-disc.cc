#include "net/pfc-queue-disc.h"

#include "net/pfc-ingress-tag.h"

#include "ns3/abort.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(PfcQueueDisc);
NS_OBJECT_ENSURE_REGISTERED(PfcIngressTag);

TypeId
PfcIngressTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcIngressTag").SetParent<Tag>().SetGroupName("Iwarp").AddConstructor<PfcIngressTag>();
    return tid;
}

TypeId
PfcIngressTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

TypeId
PfcQueueDisc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcQueueDisc")
                            .SetParent<QueueDisc>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<PfcQueueDisc>()
                            .AddTraceSource("Paused", "A priority was paused or let go again: (priority, paused)",
                                            MakeTraceSourceAccessor(&PfcQueueDisc::m_pausedTrace),
                                            "ns3::PfcQueueDisc::PausedTracedCallback");
    return tid;
}

PfcQueueDisc::PfcQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
}

PfcQueueDisc::~PfcQueueDisc() = default;

void
PfcQueueDisc::DoDispose()
{
    m_ingress = IngressCallback();
    QueueDisc::DoDispose();
}

uint8_t
PfcQueueDisc::PriorityOf(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    return ip ? uint8_t(ip->GetHeader().GetDscp() >> 3) : 0;
}

void
PfcQueueDisc::SetPaused(uint8_t priority, bool paused)
{
    NS_ABORT_MSG_IF(priority >= pfc::kPriorities, "PFC priority " << unsigned(priority) << " is not 0..7");
    if (m_paused[priority] == paused)
    {
        return;
    }
    m_paused[priority] = paused;
    if (paused)
    {
        m_pausedSince[priority] = Simulator::Now();
    }
    else
    {
        m_pausedTotal[priority] += Simulator::Now() - m_pausedSince[priority];
    }
    m_pausedTrace(priority, paused);
    if (!paused)
    {
        Run(); // what waited may leave now
    }
}

Time
PfcQueueDisc::GetPausedTime(uint8_t priority) const
{
    return m_pausedTotal[priority] + (m_paused[priority] ? Simulator::Now() - m_pausedSince[priority] : Time(0));
}

void
PfcQueueDisc::Account(Ptr<const QueueDiscItem> item, uint8_t priority, int64_t sign)
{
    PfcIngressTag tag;
    if (!m_ingress.IsNull() && item->GetPacket()->PeekPacketTag(tag))
    {
        m_ingress(tag.GetPort(), priority, sign * int64_t(item->GetSize()));
    }
}

bool
PfcQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    const uint8_t priority = PriorityOf(item);
    if (!GetQueueDiscClass(priority)->GetQueueDisc()->Enqueue(item))
    {
        return false; // the child's drop, counted as this queue disc's
    }
    Account(item, priority, +1);
    return true;
}

Ptr<QueueDiscItem>
PfcQueueDisc::DoDequeue()
{
    for (uint8_t k = 0; k < pfc::kPriorities; ++k)
    {
        const uint8_t p = uint8_t((m_next + k) % pfc::kPriorities);
        if (m_paused[p])
        {
            continue;
        }
        if (Ptr<QueueDiscItem> item = GetQueueDiscClass(p)->GetQueueDisc()->Dequeue())
        {
            m_next = uint8_t((p + 1) % pfc::kPriorities);
            // The tag comes off as the packet leaves (the next switch puts its own), and its octets are gone.
            PfcIngressTag tag;
            if (item->GetPacket()->RemovePacketTag(tag) && !m_ingress.IsNull())
            {
                m_ingress(tag.GetPort(), p, -int64_t(item->GetSize()));
            }
            return item;
        }
    }
    return nullptr;
}

bool
PfcQueueDisc::CheckConfig()
{
    if (GetNQueueDiscClasses() != pfc::kPriorities)
    {
        NS_LOG_ERROR("PfcQueueDisc needs one class per priority (8), has " << GetNQueueDiscClasses());
        return false;
    }
    if (GetNInternalQueues() > 0 || GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("PfcQueueDisc has no internal queues or packet filters");
        return false;
    }
    for (uint8_t p = 0; p < pfc::kPriorities; ++p)
    {
        // A child that drops what it had queued (CoDel at dequeue) gives the bytes back to the ingress port.
        GetQueueDiscClass(p)->GetQueueDisc()->TraceConnectWithoutContext(
            "DropAfterDequeue", MakeBoundCallback(+[](PfcQueueDisc* self, uint8_t prio, Ptr<const QueueDiscItem> i,
                                                      const char*) { self->Account(i, prio, -1); },
                                                  this, p));
    }
    return true;
}

void
PfcQueueDisc::InitializeParams()
{
}

} // namespace ns3
