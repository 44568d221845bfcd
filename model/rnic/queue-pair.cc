#include "rnic/queue-pair.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

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
                                            "An RDMAP stream event (Terminate sent or received, ...)",
                                            MakeTraceSourceAccessor(&QueuePair::m_eventTrace),
                                            "ns3::QueuePair::EventTracedCallback");
    return tid;
}

QueuePair::QueuePair()
    : m_state(CREATED)
{
    m_pipeline = CreateObject<RnicPipeline>();
    m_ddp = CreateObject<DdpEndpoint>();
    m_rdmap = CreateObject<RdmapEndpoint>();
}

void
QueuePair::DoDispose()
{
    m_rdmap->Dispose();
    m_pipeline->Dispose();
    m_memory = nullptr;
    m_sendCq = nullptr;
    m_recvCq = nullptr;
    m_eventTrace = TracedCallback<const RdmapEventInfo&>(); // sinks may hold Ptrs to owners
    Object::DoDispose();
}

void
QueuePair::Setup(uint32_t qpn, Ptr<MemoryRegistry> memory, Ptr<ProtectionDomain> pd,
                 Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq)
{
    m_qpn = qpn;
    m_memory = memory;
    m_pd = pd;
    m_sendCq = sendCq;
    m_recvCq = recvCq;
    memory->AttachStream(pd->GetId(), qpn);
}

void
QueuePair::Bind(Ptr<DdpLowerLayer> llp)
{
    m_pipeline->SetInner(llp);
    m_ddp->SetLowerLayer(m_pipeline);
    m_rdmap->Attach(m_ddp, m_memory, StreamContext{m_pd->GetId(), m_qpn});
    m_rdmap->SetCompletionCallback(MakeCallback(&QueuePair::OnCompletion, this));
    m_rdmap->SetEventCallback(MakeCallback(&QueuePair::OnEvent, this));
    m_state = CONNECTING;
}

bool
QueuePair::PostSend(const SendWr& wr)
{
    if (m_state == ERROR || m_state == CLOSED || m_state == CREATED)
    {
        return false;
    }
    RdmapWorkRequest r;
    r.id = wr.id;
    r.type = wr.type;
    const StreamContext ctx{m_pd->GetId(), m_qpn};
    if (wr.type == RdmapWrType::Read)
    {
        // The sink must be local memory this QP may write (checked now; the Response is
        // validated again as it is placed).
        if (m_memory->Resolve(wr.local.stag, wr.local.to, wr.local.length, MemAccess::kLocalWrite, ctx,
                              nullptr) != TagCheck::Ok)
        {
            return false;
        }
        r.localStag = wr.local.stag;
        r.localTo = wr.local.to;
        r.readLength = wr.local.length;
    }
    else
    {
        if (m_memory->Resolve(wr.local.stag, wr.local.to, wr.local.length, MemAccess::kLocalRead, ctx,
                              nullptr) != TagCheck::Ok)
        {
            return false;
        }
        // Read when segmented: a buffer deregistered meanwhile fails the request (RDMAP-083).
        r.source = Create<RegionPayloadSource>(m_memory, ctx, wr.local.stag, wr.local.to, wr.local.length,
                                               MemAccess::kLocalRead);
        r.invalidateStag = wr.invalidateStag;
    }
    r.remoteStag = wr.remoteStag;
    r.remoteTo = wr.remoteTo;
    return m_rdmap->PostSend(r);
}

bool
QueuePair::PostRecv(uint64_t id, const LocalBuffer& buffer)
{
    if (m_state == ERROR || m_state == CLOSED || m_state == CREATED)
    {
        return false;
    }
    BufferWindow w;
    if (m_memory->Resolve(buffer.stag, buffer.to, buffer.length, MemAccess::kLocalWrite,
                          StreamContext{m_pd->GetId(), m_qpn}, &w) != TagCheck::Ok)
    {
        return false;
    }
    return m_rdmap->PostRecv(id, w);
}

void
QueuePair::Disconnect(bool graceful)
{
    if (m_state == CLOSED || m_state == CREATED)
    {
        return;
    }
    m_rdmap->Close(graceful ? DdpLowerLayer::CloseMode::Graceful : DdpLowerLayer::CloseMode::Abortive);
    m_state = CLOSED;
}

void
QueuePair::OnCompletion(const RdmapCompletion& c)
{
    Ptr<CompletionQueue> cq = c.IsRecv() ? m_recvCq : m_sendCq;
    if (cq)
    {
        cq->Push(c);
    }
}

void
QueuePair::OnEvent(const RdmapEventInfo& e)
{
    switch (e.type)
    {
    case RdmapEvent::Established:
        m_state = CONNECTED;
        break;
    case RdmapEvent::TerminateSent:
    case RdmapEvent::TerminateReceived:
    case RdmapEvent::FatalError:
        m_state = ERROR; // work is flushed by RDMAP (flush on error)
        break;
    case RdmapEvent::Closed:
        m_state = CLOSED;
        break;
    case RdmapEvent::HalfClosed:
        break;
    }
    m_eventTrace(e);
}

} // namespace ns3
