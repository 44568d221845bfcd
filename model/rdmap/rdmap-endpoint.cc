/*
 * RdmapEndpoint: attaching to DDP, posting work, and completing it in order.
 */
#include "rdmap/rdmap-endpoint.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(RdmapEndpoint)
NS_OBJECT_ENSURE_REGISTERED(RdmapEndpoint);

namespace
{

iwarp::Opcode
OpcodeOf(RdmapWrType t)
{
    switch (t)
    {
    case RdmapWrType::Send:
        return iwarp::Opcode::Send;
    case RdmapWrType::SendSE:
        return iwarp::Opcode::SendSE;
    case RdmapWrType::SendInv:
        return iwarp::Opcode::SendInv;
    case RdmapWrType::SendSEInv:
        return iwarp::Opcode::SendSEInv;
    case RdmapWrType::Write:
        return iwarp::Opcode::RdmaWrite;
    case RdmapWrType::Read:
    case RdmapWrType::Recv:
        break;
    }
    return iwarp::Opcode::ReadRequest;
}
} // namespace

TypeId
RdmapEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmapEndpoint")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<RdmapEndpoint>()
            .AddAttribute("Ird",
                          "Maximum inbound outstanding RDMA Read Requests (IRD, RDMAP-070, A32)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmapEndpoint::m_ird),
                          MakeUintegerChecker<uint32_t>(0, 0x3FFF))
            .AddAttribute("Ord",
                          "Maximum outbound outstanding RDMA Read Requests (ORD, RDMAP-070, A32)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmapEndpoint::m_ord),
                          MakeUintegerChecker<uint32_t>(0, 0x3FFF))
            .AddAttribute("RdmapVersion",
                          "RV sent and the only RV accepted (A15: 1 = RFC 5040, 0 = RDMA "
                          "Consortium when MPA negotiated it)",
                          UintegerValue(iwarp::kRdmapVersion),
                          MakeUintegerAccessor(&RdmapEndpoint::m_rdmapVersion),
                          MakeUintegerChecker<uint8_t>(0, 1))
            .AddTraceSource("TerminateSent",
                            "A Terminate this endpoint sent",
                            MakeTraceSourceAccessor(&RdmapEndpoint::m_terminateSentTrace),
                            "ns3::RdmapEndpoint::TerminateTracedCallback")
            .AddTraceSource("TerminateReceived",
                            "A Terminate delivered from the peer",
                            MakeTraceSourceAccessor(&RdmapEndpoint::m_terminateReceivedTrace),
                            "ns3::RdmapEndpoint::TerminateTracedCallback")
            .AddTraceSource("Completion",
                            "A work completion (send or receive queue)",
                            MakeTraceSourceAccessor(&RdmapEndpoint::m_completionTrace),
                            "ns3::RdmapEndpoint::CompletionTracedCallback");
    return tid;
}

RdmapEndpoint::RdmapEndpoint()
    : m_ird(4),
      m_ord(4),
      m_rdmapVersion(iwarp::kRdmapVersion),
      m_nextResponseCookie(kResponseCookieBase)
{
}

RdmapEndpoint::~RdmapEndpoint() = default;

void
RdmapEndpoint::DoDispose()
{
    if (m_ddp)
    {
        m_ddp->Dispose();
    }
    m_ddp = nullptr;
    m_memory = nullptr;
    m_sendQueue.clear();
    m_inboundReads.clear();
    m_completion = CompletionCallback();
    m_event = EventCallback();
    m_owner = nullptr;
    // Trace sinks may hold references back to objects that own this endpoint (an application
    // binding a Ptr to its sink): drop them so those cycles break.
    m_terminateSentTrace = TracedCallback<const RdmapTerminateHeader&>();
    m_terminateReceivedTrace = TracedCallback<const RdmapTerminateHeader&>();
    m_completionTrace = TracedCallback<const RdmapCompletion&>();
    Object::DoDispose();
}

void
RdmapEndpoint::Attach(Ptr<DdpEndpoint> ddp, Ptr<MemoryAccess> memory, const StreamContext& ctx)
{
    m_ddp = ddp;
    m_memory = memory;
    m_ctx = ctx;
    ddp->SetMemoryAccess(memory);
    ddp->SetStreamContext(ctx);
    ddp->EnableQueue(iwarp::kQnSend);
    ddp->EnableQueue(iwarp::kQnReadRequest);
    ddp->EnableQueue(iwarp::kQnTerminate);
    // RDMAP's own buffers need the octets even in virtual payload mode: it parses them. One real
    // buffer holds them all (IRD Read Request slots, then the Terminate's), not one buffer each: a
    // buffer is two allocations, and every idle QP has these (doc/performance.md).
    m_readRequestSlots = m_ird;
    m_internal = ByteBuffer::CreateReal(uint64_t(m_ird) * iwarp::kReadReqHdrLen + iwarp::kMaxTermHdrLen);
    for (uint32_t i = 0; i < m_ird; ++i)
    {
        PostReadRequestBuffer(); // RDMAP-035
    }
    m_ddp->PostBuffer(iwarp::kQnTerminate,
                      DdpUntaggedBuffer{BufferWindow{m_internal, uint64_t(m_ird) * iwarp::kReadReqHdrLen,
                                                     iwarp::kMaxTermHdrLen},
                                        0}); // RDMAP-050
    ddp->SetUlp(this); // one pointer, not six Callbacks (an idle QP's heap, doc/performance.md)
}

void
RdmapEndpoint::PostReadRequestBuffer()
{
    // The slots are reused in turn. QN 1 buffers are taken in the order they were posted (one MSN
    // each, DDP-026, DDP-060 U5), and a slot is posted again only once a Request has been parsed out of it and
    // answered, so the slot posted next is the oldest one taken, which no one reads any more.
    NS_ASSERT(m_readRequestSlots > 0);
    const uint64_t slot = m_readRequestPosts++ % m_readRequestSlots;
    m_ddp->PostBuffer(iwarp::kQnReadRequest,
                      DdpUntaggedBuffer{BufferWindow{m_internal, slot * iwarp::kReadReqHdrLen, iwarp::kReadReqHdrLen},
                                        0});
}

// ------------------------------------------------------------------ posting

bool
RdmapEndpoint::PostSend(const RdmapWorkRequest& wr)
{
    if (m_terminated || m_closing || !m_ddp)
    {
        NS_LOG_WARN("PostSend refused: the stream is terminated or closing (RDMAP-053, DDP-051)");
        return false;
    }
    if (wr.type == RdmapWrType::Recv)
    {
        return false;
    }
    if (wr.type != RdmapWrType::Read &&
        (!wr.source || wr.source->GetLength() > iwarp::kMaxUlpMsgLen))
    {
        NS_LOG_WARN("PostSend refused: no payload or a message of 2^32 octets or more (DDP-030)");
        return false;
    }
    SendWr s;
    s.wr = wr;
    s.seq = m_headWrSeq + m_sendQueue.size();
    s.completion.id = wr.id;
    s.completion.type = wr.type;
    m_sendQueue.push_back(s);
    SubmitReady();
    return true;
}

bool
RdmapEndpoint::PostRecv(uint64_t id, const BufferWindow& buffer)
{
    if (m_terminated || !m_ddp)
    {
        return false;
    }
    m_ddp->PostBuffer(iwarp::kQnSend, DdpUntaggedBuffer{buffer, id});
    return true;
}

void
RdmapEndpoint::SubmitReady()
{
    // RDMAP-062: to DDP in posting order; a Read beyond ORD holds back everything after it.
    for (std::size_t i = 0; i < m_sendQueue.size() && !m_terminated; ++i)
    {
        SendWr& s = m_sendQueue[i];
        if (s.submitted)
        {
            continue;
        }
        if (s.wr.type == RdmapWrType::Read && m_readsInFlight >= m_ord)
        {
            break; // RDMAP-072
        }
        s.submitted = true;
        Submit(s);
    }
}

void
RdmapEndpoint::Submit(SendWr& s)
{
    const uint64_t cookie = s.seq;
    DdpOutboundMessage m;
    m.cookie = cookie;
    const RdmapWorkRequest& wr = s.wr;
    if (wr.type == RdmapWrType::Read)
    {
        RdmapReadRequestHeader rr;
        rr.sinkStag = wr.localStag;
        rr.sinkTo = wr.localTo;
        rr.readSize = wr.readLength;
        rr.srcStag = wr.remoteStag;
        rr.srcTo = wr.remoteTo;
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(rr);
        m.qn = iwarp::kQnReadRequest; // RDMAP-027
        m.rsvdUlp0 = RdmapControl::Make(iwarp::Opcode::ReadRequest, m_rdmapVersion);
        m.payload = Create<PacketPayloadSource>(p);
        ++m_readsInFlight;
        m_readsAwaiting.push_back(cookie);
    }
    else
    {
        const iwarp::Opcode op = OpcodeOf(wr.type);
        m.rsvdUlp0 = RdmapControl::Make(op, m_rdmapVersion);
        m.payload = wr.source;
        if (wr.type == RdmapWrType::Write)
        {
            m.tagged = true; // RDMAP-020
            m.stag = wr.remoteStag;
            m.to = wr.remoteTo;
        }
        else
        {
            m.qn = iwarp::kQnSend; // RDMAP-040
            if (op == iwarp::Opcode::SendInv || op == iwarp::Opcode::SendSEInv)
            {
                m.rsvdUlp1 = wr.invalidateStag; // RDMAP-008, RDMAP-045
            }
        }
    }
    m_ddp->Send(m);
}

// ------------------------------------------------------------------ completions

void
RdmapEndpoint::OnMessageSent(uint64_t cookie)
{
    if (cookie == kTerminateCookie)
    {
        return;
    }
    if (cookie >= kResponseCookieBase)
    {
        // The Response is handed over: its QN 1 buffer is free for the next Request.
        if (m_inboundReads.erase(cookie) != 0 && !m_terminated)
        {
            PostReadRequestBuffer();
        }
        return;
    }
    if (cookie < m_headWrSeq || cookie - m_headWrSeq >= m_sendQueue.size())
    {
        return;
    }
    SendWr& s = m_sendQueue[cookie - m_headWrSeq];
    if (s.wr.type == RdmapWrType::Read)
    {
        return; // a Read completes when its Response is delivered (RDMAP-067)
    }
    // RDMAP-063: a Send or Write is complete once DDP has completed it (DDP-044).
    MarkDone(cookie, WcStatus::Success, s.wr.source->GetLength());
}

void
RdmapEndpoint::MarkDone(uint64_t wrSeq, WcStatus status, uint64_t len)
{
    if (wrSeq < m_headWrSeq || wrSeq - m_headWrSeq >= m_sendQueue.size())
    {
        return;
    }
    SendWr& s = m_sendQueue[wrSeq - m_headWrSeq];
    s.done = true;
    s.completion.status = status;
    s.completion.byteLength = len;
    CompleteInOrder();
}

void
RdmapEndpoint::CompleteInOrder()
{
    // RDMAP-064: completions in posting order, so a Send waits for an earlier Read.
    while (!m_sendQueue.empty() && m_sendQueue.front().done)
    {
        const RdmapCompletion c = m_sendQueue.front().completion;
        m_sendQueue.pop_front();
        ++m_headWrSeq;
        Emit(c);
    }
}

void
RdmapEndpoint::Emit(const RdmapCompletion& c)
{
    NS_LOG_INFO("completion " << ToString(c.type) << " id=" << c.id << " " << ToString(c.status));
    m_completionTrace(c);
    if (m_owner)
    {
        m_owner->OnRdmapCompletion(c);
    }
    else if (!m_completion.IsNull())
    {
        m_completion(c);
    }
}

void
RdmapEndpoint::Notify(const RdmapEventInfo& info)
{
    NS_LOG_INFO("event " << ToString(info.type) << " " << info.cause.ToString());
    if (m_owner)
    {
        m_owner->OnRdmapEvent(info);
    }
    else if (!m_event.IsNull())
    {
        m_event(info);
    }
}

} // namespace ns3
