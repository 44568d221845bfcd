#include "net/pfc-device-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeviceQueue");
NS_OBJECT_ENSURE_REGISTERED(PfcDeviceQueue);

TypeId
PfcDeviceQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcDeviceQueue")
                            .SetParent<Queue<Packet>>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<PfcDeviceQueue>()
                            .AddAttribute("MaxSize",
                                          "The most the queue holds of data (control frames stand outside it)",
                                          QueueSizeValue(QueueSize("1p")),
                                          MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                                          MakeQueueSizeChecker());
    return tid;
}

PfcDeviceQueue::PfcDeviceQueue()
    : NS_LOG_TEMPLATE_DEFINE("PfcDeviceQueue")
{
}

PfcDeviceQueue::~PfcDeviceQueue() = default;

bool
PfcDeviceQueue::Enqueue(Ptr<Packet> item)
{
    if (m_kicking)
    {
        return true; // the kick: not kept, Dequeue gives the control frame
    }
    return DoEnqueue(GetContainer().end(), item);
}

Ptr<Packet>
PfcDeviceQueue::Dequeue()
{
    if (!m_control.empty())
    {
        Ptr<Packet> frame = m_control.front();
        m_control.pop_front();
        return frame;
    }
    return DoDequeue(GetContainer().begin());
}

Ptr<Packet>
PfcDeviceQueue::Remove()
{
    return DoRemove(GetContainer().begin());
}

Ptr<const Packet>
PfcDeviceQueue::Peek() const
{
    return m_control.empty() ? DoPeek(GetContainer().begin()) : Ptr<const Packet>(m_control.front());
}

void
PfcDeviceQueue::SendControl(Ptr<NetDevice> device, Ptr<Packet> frame)
{
    m_control.push_back(frame);
    // Idle or not, a kick through Send: idle, the device dequeues (the control frame) and starts; busy, the
    // frame goes at the end of the packet on the wire, ahead of the data waiting.
    m_kicking = true;
    const bool sent = device->Send(Create<Packet>(), device->GetBroadcast(), 0x0800);
    m_kicking = false;
    if (!sent)
    {
        m_control.pop_back(); // the link is down: a PAUSE is not sent
        NS_LOG_LOGIC("control frame not sent: the device refused the kick");
    }
}

} // namespace ns3
