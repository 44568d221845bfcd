#include "rnic/completion-queue.h"

#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CompletionQueue);

TypeId
CompletionQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CompletionQueue")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<CompletionQueue>()
            .AddAttribute("Capacity",
                          "Completions the queue holds before it overflows",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&CompletionQueue::m_capacity),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Notification",
                          "How the application learns of completions: Poll (it busy-polls the queue; the "
                          "choice of latency-bound RDMA programs and of the perftest benchmarks), Event (the "
                          "queue is armed for every completion and each raises an event) or Solicited (armed "
                          "for Sends with Solicited Event). Set when the queue is made; RequestNotify changes it",
                          EnumValue(DISARMED),
                          MakeEnumAccessor(&CompletionQueue::SetNotification, &CompletionQueue::GetNotification),
                          MakeEnumChecker(DISARMED, "Poll", NEXT_COMPLETION, "Event", SOLICITED_ONLY, "Solicited"))
            .AddTraceSource("Notify",
                            "The queue raised a completion event for the completion given",
                            MakeTraceSourceAccessor(&CompletionQueue::m_notifyTrace),
                            "ns3::CompletionQueue::NotifyTracedCallback");
    return tid;
}

CompletionQueue::CompletionQueue()
    : m_capacity(65536)
{
}

void
CompletionQueue::SetNotification(Arm mode)
{
    m_standing = mode;
    RequestNotify(mode, mode != DISARMED);
}

void
CompletionQueue::DoDispose()
{
    m_entries.clear();
    m_notifyTrace = TracedCallback<const WorkCompletion&>(); // sinks may hold Ptrs (the host model)
    Object::DoDispose();
}

void
CompletionQueue::RequestNotify(Arm mode, bool persistent)
{
    m_arm = mode;
    m_persistent = persistent;
}

bool
CompletionQueue::Push(const WorkCompletion& c)
{
    if (m_entries.size() >= m_capacity)
    {
        m_overflow = true;
        return false;
    }
    m_entries.push_back(c);
    const bool fire = (m_arm == NEXT_COMPLETION) || (m_arm == SOLICITED_ONLY && c.solicited);
    if (fire)
    {
        ++m_notifications;
        if (!m_persistent)
        {
            m_arm = m_standing; // an application's one-shot arm has fired: back to the standing mode
            m_persistent = m_standing != DISARMED;
        }
        // Keeps the queue alive until the event runs, even if its owner lets go of it meanwhile.
        Simulator::ScheduleNow(&CompletionQueue::RaiseNotify, Ptr<CompletionQueue>(this), c);
    }
    return true;
}

void
CompletionQueue::RaiseNotify(WorkCompletion c)
{
    m_notifyTrace(c);
}

std::vector<WorkCompletion>
CompletionQueue::Poll(std::size_t max)
{
    std::vector<WorkCompletion> out;
    while (!m_entries.empty() && out.size() < max)
    {
        out.push_back(m_entries.front());
        m_entries.pop_front();
    }
    return out;
}

} // namespace ns3
