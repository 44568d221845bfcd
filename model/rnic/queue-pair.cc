#include "rnic/queue-pair.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QueuePair");
NS_OBJECT_ENSURE_REGISTERED(QueuePair);

TypeId
QueuePair::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QueuePair")
                            .SetParent<Object>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<QueuePair>()
                            .AddTraceSource("State",
                                            "The QP state",
                                            MakeTraceSourceAccessor(&QueuePair::m_state),
                                            "ns3::TracedValueCallback::Uint8")
                            .AddTraceSource("Event",
                                            "An asynchronous event of the QP's stream (established, an "
                                            "error at either end, closed, ...)",
                                            MakeTraceSourceAccessor(&QueuePair::m_eventTrace),
                                            "ns3::QueuePair::EventTracedCallback")
                            .AddTraceSource("Completion",
                                            "A work completion (send or receive queue), as it is "
                                            "put on its completion queue",
                                            MakeTraceSourceAccessor(&QueuePair::m_completionTrace),
                                            "ns3::QueuePair::CompletionTracedCallback")
                            .AddTraceSource("Post",
                                            "A work request was accepted (its id; true for the receive "
                                            "queue): the application's post, with its doorbell",
                                            MakeTraceSourceAccessor(&QueuePair::m_postTrace),
                                            "ns3::QueuePair::PostTracedCallback");
    return tid;
}

QueuePair::QueuePair()
    : m_state(CREATED)
{
}

void
QueuePair::DoDispose()
{
    if (m_transport)
    {
        m_transport->Dispose();
    }
    m_transport = nullptr;
    m_sendCq = nullptr;
    m_recvCq = nullptr;
    m_eventTrace = TracedCallback<const QpEventInfo&>(); // sinks may hold Ptrs to owners
    m_completionTrace = TracedCallback<const WorkCompletion&>();
    m_postTrace = TracedCallback<uint64_t, bool>();
    Object::DoDispose();
}

void
QueuePair::Setup(uint32_t qpn, Ptr<MemoryRegistry> memory, Ptr<ProtectionDomain> pd,
                 Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq, Ptr<RdmaTransport> transport)
{
    NS_ABORT_MSG_UNLESS(transport, "QueuePair::Setup needs a transport");
    m_qpn = qpn;
    m_pd = pd;
    m_sendCq = sendCq;
    m_recvCq = recvCq;
    m_transport = transport;
    memory->AttachStream(pd->GetId(), qpn);
    m_transport->Setup(memory, StreamContext{pd->GetId(), qpn}, this);
}

void
QueuePair::Bind(Ptr<Object> lower)
{
    m_transport->Bind(lower);
    m_state = CONNECTING;
}

bool
QueuePair::PostSend(const SendWr& wr)
{
    if (!TakesWork())
    {
        return false;
    }
    // Traced once accepted (a refused request rings no doorbell); with a zero-cost engine its
    // completion may already have been traced inside the call.
    if (!m_transport->PostSend(wr))
    {
        return false;
    }
    m_postTrace(wr.id, false);
    return true;
}

bool
QueuePair::PostRecv(uint64_t id, const LocalBuffer& buffer)
{
    if (!TakesWork())
    {
        return false;
    }
    if (!m_transport->PostRecv(id, buffer))
    {
        return false;
    }
    m_postTrace(id, true);
    return true;
}

void
QueuePair::Disconnect(bool graceful)
{
    if (m_state == CLOSED || m_state == CREATED)
    {
        return;
    }
    m_transport->Close(graceful);
    m_state = CLOSED;
}

void
QueuePair::OnTransportCompletion(const WorkCompletion& c)
{
    m_completionTrace(c);
    Ptr<CompletionQueue> cq = c.IsRecv() ? m_recvCq : m_sendCq;
    if (cq)
    {
        cq->Push(c);
    }
}

void
QueuePair::OnTransportEvent(const QpEventInfo& e)
{
    switch (e.type)
    {
    case QpEvent::Established:
        m_state = CONNECTED;
        break;
    case QpEvent::LocalError:
    case QpEvent::RemoteError:
    case QpEvent::FatalError:
        m_state = ERROR; // the transport flushes the work (flush on error)
        break;
    case QpEvent::Closed:
        m_state = CLOSED;
        break;
    case QpEvent::HalfClosed:
        break;
    }
    m_eventTrace(e);
}

} // namespace ns3
