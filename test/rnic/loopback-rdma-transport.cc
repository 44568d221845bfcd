#include "rnic/loopback-rdma-transport.h"

#include "rnic/loopback-llp-connector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoopbackRdmaTransport");
NS_OBJECT_ENSURE_REGISTERED(LoopbackRdmaTransport);

namespace
{

/**
 * Copy `len` octets between two validated windows through ByteBuffer::Write, which counts what was
 * placed (GetBytesWritten) as DDP's placement does. A Virtual source holds no octets: like a segment
 * of virtual payload, it writes zeros into a Real destination.
 */
void
CopyWindow(const BufferWindow& from, const BufferWindow& to, uint64_t len)
{
    if (len == 0)
    {
        return;
    }
    if (const uint8_t* src = from.buffer->Data())
    {
        to.buffer->Write(to.offset, src + from.offset, len);
    }
    else
    {
        NS_ABORT_MSG_IF(len > UINT32_MAX, "a virtual copy of " << len << " octets does not fit one packet");
        to.buffer->Write(to.offset, Create<Packet>(uint32_t(len)));
    }
}

bool
IsSend(WrOpcode t)
{
    return t == WrOpcode::Send || t == WrOpcode::SendSE || t == WrOpcode::SendInv || t == WrOpcode::SendSEInv;
}

} // namespace

TypeId
LoopbackRdmaTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoopbackRdmaTransport")
                            .SetParent<RdmaTransport>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<LoopbackRdmaTransport>()
                            .AddAttribute("Delay",
                                          "How long after it is posted each work request runs and completes",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&LoopbackRdmaTransport::m_delay),
                                          MakeTimeChecker(Time(0)))
                            .AddAttribute("Ird",
                                          "Inbound RDMA Read depth announced in connection set-up",
                                          UintegerValue(16),
                                          MakeUintegerAccessor(&LoopbackRdmaTransport::m_ird),
                                          MakeUintegerChecker<uint16_t>())
                            .AddAttribute("Ord",
                                          "Outbound RDMA Read depth asked for in connection set-up",
                                          UintegerValue(16),
                                          MakeUintegerAccessor(&LoopbackRdmaTransport::m_ord),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

void
LoopbackRdmaTransport::Join(Ptr<QueuePair> a, Ptr<QueuePair> b)
{
    a->Bind(b->GetTransport());
    b->Bind(a->GetTransport());
}

void
LoopbackRdmaTransport::DoDispose()
{
    m_peer = nullptr; // the two ends point at each other
    m_placed = PlacementCallback();
    RdmaTransport::DoDispose();
}

void
LoopbackRdmaTransport::Bind(Ptr<Object> lower)
{
    if (Ptr<LoopbackLinkEnd> end = DynamicCast<LoopbackLinkEnd>(lower))
    {
        m_bound = true;
        end->Attach(this); // binds this transport to its peer once the link is up
        return;
    }
    m_peer = DynamicCast<LoopbackRdmaTransport>(lower);
    NS_ABORT_MSG_UNLESS(m_peer, "LoopbackRdmaTransport binds to its peer's LoopbackRdmaTransport or to a "
                                "LoopbackLinkEnd");
    m_bound = true;
    // From its own event, as a real connection's establishment would be.
    Simulator::ScheduleNow(+[](LoopbackRdmaTransport* t) {
        if (!t->m_failed && !t->m_closed)
        {
            t->ReportEvent(QpEventInfo{QpEvent::Established, {}});
        }
    },
                           this);
}

bool
LoopbackRdmaTransport::PostSend(const SendWr& wr)
{
    const uint8_t access = wr.type == WrOpcode::Read ? MemAccess::kLocalWrite : MemAccess::kLocalRead;
    if (!m_peer || m_failed || m_closing || wr.type == WrOpcode::Recv || !ResolveLocal(wr.local, access, nullptr))
    {
        return false;
    }
    m_pending.push_back(wr);
    Simulator::Schedule(m_delay, &LoopbackRdmaTransport::RunNext, this);
    return true;
}

bool
LoopbackRdmaTransport::PostRecv(uint64_t id, const LocalBuffer& buffer)
{
    if (!m_bound || m_failed || m_closed || !ResolveLocal(buffer, MemAccess::kLocalWrite, nullptr))
    {
        return false;
    }
    m_recvs.push_back(Recv{id, buffer});
    return true;
}

void
LoopbackRdmaTransport::RunNext()
{
    if (m_pending.empty())
    {
        return; // flushed before its turn came
    }
    const SendWr wr = m_pending.front();
    const uint64_t len = wr.local.length;
    BufferWindow local;
    if (wr.type == WrOpcode::Read)
    {
        BufferWindow src;
        if (m_peer->m_memory->Resolve(wr.remoteStag, wr.remoteTo, len, MemAccess::kRemoteRead, m_peer->m_ctx,
                                      &src) != TagCheck::Ok)
        {
            RemoteRefused(wr);
            return;
        }
        if (!ResolveLocal(wr.local, MemAccess::kLocalWrite, &local))
        {
            Complete(wr, WcStatus::LocalProtectionError, 0);
            Fail(QpEvent::LocalError, WcStatus::Flushed);
            return;
        }
        CopyWindow(src, local, len);
        m_peer->Moved(len, *this);
        Placed(wr.local.stag, wr.local.to, len);
        Complete(wr, WcStatus::Success, len);
    }
    else if (!ResolveLocal(wr.local, MemAccess::kLocalRead, &local))
    {
        // Read as it goes out, so a buffer deregistered after posting fails here (as RDMAP-083).
        Complete(wr, WcStatus::LocalOperationError, 0);
        Fail(QpEvent::LocalError, WcStatus::Flushed);
    }
    else if (wr.type == WrOpcode::Write)
    {
        BufferWindow dst;
        if (m_peer->m_memory->Resolve(wr.remoteStag, wr.remoteTo, len, MemAccess::kRemoteWrite, m_peer->m_ctx,
                                      &dst) != TagCheck::Ok)
        {
            RemoteRefused(wr);
            return;
        }
        CopyWindow(local, dst, len);
        Moved(len, *m_peer);
        m_peer->Placed(wr.remoteStag, wr.remoteTo, len);
        Complete(wr, WcStatus::Success, len);
    }
    else if (m_peer->Receive(wr, local) == WcStatus::Success)
    {
        Complete(wr, WcStatus::Success, len);
    }
    else
    {
        RemoteRefused(wr);
        return;
    }
    if (m_closing && m_pending.empty())
    {
        FinishClose();
    }
}

WcStatus
LoopbackRdmaTransport::Receive(const SendWr& wr, const BufferWindow& src)
{
    NS_ASSERT(IsSend(wr.type));
    if (m_failed || m_closed || m_recvs.empty())
    {
        return WcStatus::RemoteError;
    }
    const Recv r = m_recvs.front();
    BufferWindow dst;
    if (wr.local.length > r.buffer.length ||
        !ResolveLocal(LocalBuffer{r.buffer.stag, r.buffer.to, wr.local.length}, MemAccess::kLocalWrite, &dst))
    {
        m_recvs.pop_front();
        WorkCompletion c;
        c.id = r.id;
        c.type = WrOpcode::Recv;
        c.status = wr.local.length > r.buffer.length ? WcStatus::LocalLengthError : WcStatus::LocalProtectionError;
        ReportCompletion(c);
        return WcStatus::RemoteError;
    }
    WorkCompletion c;
    c.id = r.id;
    c.type = WrOpcode::Recv;
    c.byteLength = wr.local.length;
    c.solicited = wr.type == WrOpcode::SendSE || wr.type == WrOpcode::SendSEInv;
    if (wr.type == WrOpcode::SendInv || wr.type == WrOpcode::SendSEInv)
    {
        if (m_memory->RemoteInvalidate(wr.invalidateStag, m_ctx) != InvalidateResult::Invalidated)
        {
            return WcStatus::RemoteError; // the receive stays posted; the stream ends below
        }
        c.invalidated = true;
        c.invalidatedStag = wr.invalidateStag;
    }
    m_recvs.pop_front();
    CopyWindow(src, dst, wr.local.length);
    m_peer->Moved(wr.local.length, *this);
    c.firstPlaced = Simulator::Now();
    c.delivered = Simulator::Now();
    ReportCompletion(c);
    return WcStatus::Success;
}

void
LoopbackRdmaTransport::RemoteRefused(const SendWr& wr)
{
    // As in iWARP, a Send or Write completes once its data has left (its buffer is free again);
    // the refusal reaches the requester as the stream's error. A Read waits for its data, so the
    // refusal is its completion.
    const bool read = wr.type == WrOpcode::Read;
    Complete(wr, read ? WcStatus::RemoteError : WcStatus::Success, read ? 0 : wr.local.length);
    m_peer->Fail(QpEvent::LocalError, WcStatus::Flushed);
    Fail(QpEvent::RemoteError, WcStatus::RemoteError);
}

void
LoopbackRdmaTransport::Complete(const SendWr& wr, WcStatus status, uint64_t length)
{
    NS_ASSERT(!m_pending.empty() && m_pending.front().id == wr.id);
    m_pending.pop_front();
    WorkCompletion c;
    c.id = wr.id;
    c.type = wr.type;
    c.status = status;
    c.byteLength = length;
    if (wr.type == WrOpcode::Read && status == WcStatus::Success)
    {
        c.firstPlaced = Simulator::Now();
        c.delivered = Simulator::Now();
    }
    ReportCompletion(c);
}

void
LoopbackRdmaTransport::Fail(QpEvent event, WcStatus status)
{
    if (m_failed || m_closed)
    {
        return;
    }
    m_failed = true;
    std::deque<SendWr> sends;
    sends.swap(m_pending);
    std::deque<Recv> recvs;
    recvs.swap(m_recvs);
    for (const SendWr& s : sends)
    {
        WorkCompletion c;
        c.id = s.id;
        c.type = s.type;
        c.status = status;
        ReportCompletion(c);
    }
    for (const Recv& r : recvs)
    {
        WorkCompletion c;
        c.id = r.id;
        c.type = WrOpcode::Recv;
        c.status = status;
        ReportCompletion(c);
    }
    ReportEvent(QpEventInfo{event, {}});
}

void
LoopbackRdmaTransport::Close(bool graceful)
{
    if (m_closing || m_closed)
    {
        return;
    }
    m_closing = true;
    if (!graceful || m_pending.empty())
    {
        // Abortive: nothing posted runs; graceful with nothing outstanding: done at once.
        FinishClose();
    }
}

void
LoopbackRdmaTransport::FinishClose()
{
    // Both ends close: whatever is still posted (receives, and sends on an abortive close)
    // completes Flushed, and each QP learns its stream is closed.
    for (Ptr<LoopbackRdmaTransport> end : {Ptr<LoopbackRdmaTransport>(this), m_peer})
    {
        if (!end || end->m_closed)
        {
            continue;
        }
        end->Fail(QpEvent::Closed, WcStatus::Flushed);
        end->m_closed = true;
    }
}

void
LoopbackRdmaTransport::WatchPlacement(PlacementCallback cb)
{
    m_placed = cb;
}

void
LoopbackRdmaTransport::Placed(uint32_t stag, uint64_t to, uint64_t length) const
{
    if (!m_placed.IsNull())
    {
        m_placed(stag, to, length);
    }
}

void
LoopbackRdmaTransport::WatchOctets(OctetsCallback placed, OctetsCallback sent)
{
    m_octetsPlaced = placed;
    m_octetsSent = sent;
}

void
LoopbackRdmaTransport::Moved(uint64_t octets, const LoopbackRdmaTransport& to) const
{
    if (!m_octetsSent.IsNull())
    {
        m_octetsSent(octets);
    }
    if (!to.m_octetsPlaced.IsNull())
    {
        to.m_octetsPlaced(octets);
    }
}

} // namespace ns3
