#include "rnic/iwarp-transport.h"

#include "ddp/ddp-header.h"
#include "rnic/queue-pair.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IwarpTransport");
NS_OBJECT_ENSURE_REGISTERED(IwarpTransport);

TypeId
IwarpTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IwarpTransport")
                            .SetParent<RdmaTransport>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<IwarpTransport>();
    return tid;
}

IwarpTransport::IwarpTransport()
    : m_pipeline(CreateObject<RnicPipeline>()),
      m_ddp(CreateObject<DdpEndpoint>()),
      m_rdmap(CreateObject<RdmapEndpoint>())
{
}

Ptr<IwarpTransport>
IwarpTransport::Find(Ptr<const QueuePair> qp)
{
    return DynamicCast<IwarpTransport>(qp->GetTransport());
}

Ptr<IwarpTransport>
IwarpTransport::Of(Ptr<const QueuePair> qp, const char* who)
{
    Ptr<IwarpTransport> t = Find(qp);
    NS_ABORT_MSG_UNLESS(t, who << " needs an iWARP queue pair, but QP " << qp->GetQpn() << " runs over "
                               << qp->GetTransport()->GetInstanceTypeId().GetName());
    return t;
}

void
IwarpTransport::DoDispose()
{
    m_rdmap->Dispose();
    m_pipeline->Dispose();
    RdmaTransport::DoDispose();
}

void
IwarpTransport::Bind(Ptr<Object> lower)
{
    Ptr<DdpLowerLayer> llp = DynamicCast<DdpLowerLayer>(lower);
    NS_ABORT_MSG_UNLESS(llp, "IwarpTransport binds to a DDP lower layer (MPA or SCTP), not a "
                                 << (lower ? lower->GetInstanceTypeId().GetName() : std::string("null")));
    m_pipeline->SetInner(llp);
    m_ddp->SetLowerLayer(m_pipeline);
    m_rdmap->Attach(m_ddp, m_memory, m_ctx);
    m_rdmap->SetOwner(this);
}

bool
IwarpTransport::PostSend(const SendWr& wr)
{
    RdmapWorkRequest r;
    r.id = wr.id;
    r.type = wr.type;
    if (wr.type == WrOpcode::Read)
    {
        // The sink must be local memory this QP may write (checked now; the Response is
        // validated again as it is placed).
        if (!ResolveLocal(wr.local, MemAccess::kLocalWrite, nullptr))
        {
            return false;
        }
        r.localStag = wr.local.stag;
        r.localTo = wr.local.to;
        r.readLength = wr.local.length;
    }
    else
    {
        if (!ResolveLocal(wr.local, MemAccess::kLocalRead, nullptr))
        {
            return false;
        }
        // Read when segmented: a buffer deregistered meanwhile fails the request (RDMAP-083).
        r.source = Create<RegionPayloadSource>(m_memory, m_ctx, wr.local.stag, wr.local.to, wr.local.length,
                                               MemAccess::kLocalRead);
        r.invalidateStag = wr.invalidateStag;
    }
    r.remoteStag = wr.remoteStag;
    r.remoteTo = wr.remoteTo;
    return m_rdmap->PostSend(r);
}

bool
IwarpTransport::PostRecv(uint64_t id, const LocalBuffer& buffer)
{
    BufferWindow w;
    if (!ResolveLocal(buffer, MemAccess::kLocalWrite, &w))
    {
        return false;
    }
    return m_rdmap->PostRecv(id, w);
}

void
IwarpTransport::Close(bool graceful)
{
    m_rdmap->Close(graceful ? DdpLowerLayer::CloseMode::Graceful : DdpLowerLayer::CloseMode::Abortive);
}

uint32_t
IwarpTransport::GetIrd() const
{
    return m_rdmap->GetIrd();
}

uint32_t
IwarpTransport::GetOrd() const
{
    return m_rdmap->GetOrd();
}

void
IwarpTransport::SetOrd(uint32_t ord)
{
    m_rdmap->SetAttribute("Ord", UintegerValue(ord));
}

namespace
{

/** A DDP segment's payload octets (0 for one shorter than its header: nothing to move). */
void
ReportPayload(RdmaTransport::OctetsCallback cb, Ptr<const Packet> segment)
{
    const std::optional<DdpSegmentView> v = PeekDdpControl(segment);
    cb(v ? v->payloadLength : 0);
}

} // namespace

std::vector<Ptr<Object>>
IwarpTransport::Parts() const
{
    return {m_pipeline, m_ddp, m_rdmap};
}

void
IwarpTransport::WatchOctets(OctetsCallback placed, OctetsCallback sent)
{
    m_ddp->TraceConnectWithoutContext("Placed", MakeBoundCallback(&ReportPayload, placed));
    m_ddp->TraceConnectWithoutContext("TxSegment", MakeBoundCallback(&ReportPayload, sent));
}

void
IwarpTransport::WatchPlacement(PlacementCallback cb)
{
    // DDP reports placed segments; only tagged ones land in memory an application polls.
    m_ddp->TraceConnectWithoutContext("Placed", MakeBoundCallback(+[](PlacementCallback c, Ptr<const Packet> seg) {
        const std::optional<DdpSegmentView> v = PeekDdpSegment(seg);
        if (v && v->tagged)
        {
            c(v->stag, v->to, v->payloadLength);
        }
    },
                                                                  cb));
}

void
IwarpTransport::OnRdmapEvent(const RdmapEventInfo& e)
{
    QpEventInfo info;
    info.cause = e.cause;
    switch (e.type)
    {
    case RdmapEvent::Established:
        info.type = QpEvent::Established;
        break;
    case RdmapEvent::TerminateSent:
        info.type = QpEvent::LocalError;
        break;
    case RdmapEvent::TerminateReceived:
        info.type = QpEvent::RemoteError;
        info.cause = e.terminate.GetCause(); // the peer's own account, as its Terminate carried it
        break;
    case RdmapEvent::HalfClosed:
        info.type = QpEvent::HalfClosed;
        break;
    case RdmapEvent::Closed:
        info.type = QpEvent::Closed;
        break;
    case RdmapEvent::FatalError:
        info.type = QpEvent::FatalError;
        break;
    }
    ReportEvent(info);
}

} // namespace ns3
