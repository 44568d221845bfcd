/*
 * RdmapEndpoint receive side: the control-octet check before placement (A16), and what
 * each delivered message does (RFC 5040 §5, §7.2).
 */
#include "rdmap/rdmap-endpoint.h"

#include "ns3/log.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(RdmapEndpoint);

namespace
{
using iwarp::ErrorCause;
using iwarp::Opcode;
using iwarp::RdmapCode;
using iwarp::RdmapEType;

ErrorCause
RemoteOp(RdmapCode c)
{
    return ErrorCause::Rdma(RdmapEType::RemoteOperation, c);
}

ErrorCause
RemoteProt(RdmapCode c)
{
    return ErrorCause::Rdma(RdmapEType::RemoteProtection, c);
}

/** A8: an STag that does not exist is Invalid STag; A7/A9: 0/1/0x09 otherwise. */
ErrorCause
InvalidateError(InvalidateResult r)
{
    return RemoteProt(r == InvalidateResult::InvalidStag ? RdmapCode::InvalidStag
                                                         : RdmapCode::StagCannotInvalidate);
}

/**
 * Figure 4 (RDMAP-009) as a table: for each opcode, whether it is tagged and on which QN
 * it arrives (doc/architecture.md convention 3: dispatch by table).
 */
struct OpcodeRule
{
    bool valid;
    bool tagged;
    uint32_t qn;
};

constexpr OpcodeRule kOpcodeRules[16] = {
    {true, true, 0},                     // 0x0 RDMA Write
    {true, false, iwarp::kQnReadRequest}, // 0x1 Read Request
    {true, true, 0},                     // 0x2 Read Response
    {true, false, iwarp::kQnSend},        // 0x3 Send
    {true, false, iwarp::kQnSend},        // 0x4 Send with Invalidate
    {true, false, iwarp::kQnSend},        // 0x5 Send with SE
    {true, false, iwarp::kQnSend},        // 0x6 Send with SE and Invalidate
    {true, false, iwarp::kQnTerminate},   // 0x7 Terminate
    // 0x8-0xF reserved
};
} // namespace

RdmapEndpoint::ReadSinkMatch
RdmapEndpoint::MatchReadSink(uint32_t stag, uint64_t to, uint32_t length) const
{
    // ORD bounds m_readsAwaiting (a handful of entries), so a linear scan is cheap.
    ReadSinkMatch best = ReadSinkMatch::NoStag;
    for (const uint64_t wrSeq : m_readsAwaiting)
    {
        const RdmapWorkRequest& rd = m_sendQueue[wrSeq - m_headWrSeq].wr;
        if (rd.localStag != stag)
        {
            continue;
        }
        // Written so that no sum can wrap: TO is a 64-bit offset chosen by the peer.
        if (to >= rd.localTo && to - rd.localTo <= rd.readLength && length <= rd.readLength - (to - rd.localTo))
        {
            return ReadSinkMatch::Inside;
        }
        best = ReadSinkMatch::OutOfBounds;
    }
    return best;
}

DdpUlpCheck
RdmapEndpoint::CheckSegment(const DdpSegmentView& v)
{
    DdpUlpCheck r;
    const uint8_t op = RdmapControl::OpcodeBits(v.rsvdUlp0);
    const bool isReadRequest = !v.tagged && v.qn == iwarp::kQnReadRequest && op == uint8_t(Opcode::ReadRequest);
    auto fail = [&r](ErrorCause c, bool withRdmaHeader) {
        r.ok = false;
        r.cause = c;
        r.includeRdmaHeader = withRdmaHeader;
        return r;
    };
    // RDMAP-087 / A15: only the RV of this stream is valid. A11: R=1 on a Read Request.
    if (RdmapControl::Version(v.rsvdUlp0) != m_rdmapVersion)
    {
        return fail(RemoteOp(RdmapCode::InvalidRdmapVersion), isReadRequest);
    }
    // RDMAP-009 / A16: reserved opcodes, and opcodes that disagree with T or QN.
    const OpcodeRule& rule = kOpcodeRules[op];
    if (!rule.valid || rule.tagged != v.tagged || (!v.tagged && rule.qn != v.qn))
    {
        return fail(RemoteOp(RdmapCode::UnexpectedOpcode), false);
    }
    if (op == uint8_t(Opcode::ReadResponse))
    {
        // A33: a Response must land inside the sink of an outstanding Read. Over SCTP the
        // segments of the next Read's Response may arrive before the last one of this
        // Read's (unordered DATA, RFC 5043), so a segment is matched by its STag and TO
        // against every outstanding Read (RFC 5040 §5.2.2: placement by tag); completion
        // still follows the order of delivery (OnReadResponseDelivered, RDMAP-036).
        if (m_readsAwaiting.empty())
        {
            return fail(RemoteOp(RdmapCode::UnexpectedOpcode), false);
        }
        if (v.payloadLength > 0)
        {
            const ReadSinkMatch m = MatchReadSink(v.stag, v.to, v.payloadLength);
            if (m == ReadSinkMatch::NoStag)
            {
                return fail(ErrorCause::Ddp(iwarp::DdpTaggedCode::InvalidStag), false);
            }
            if (m == ReadSinkMatch::OutOfBounds)
            {
                return fail(ErrorCause::Ddp(iwarp::DdpTaggedCode::BaseBounds), false);
            }
        }
        r.taggedAccess = MemAccess::kLocalWrite; // the sink is the requester's own buffer
    }
    if (op == uint8_t(Opcode::SendInv) || op == uint8_t(Opcode::SendSEInv))
    {
        // P1 / A16: refuse before placement an Invalidate STag that could not be invalidated;
        // the invalidation itself happens at delivery (RDMAP-046).
        const InvalidateResult inv = m_memory->CheckRemoteInvalidate(v.rsvdUlp1, m_ctx);
        if (inv != InvalidateResult::Invalidated)
        {
            return fail(InvalidateError(inv), false);
        }
    }
    if (isReadRequest && v.payloadLength < iwarp::kReadReqHdrLen)
    {
        return fail(RemoteOp(RdmapCode::Unspecified), false); // A20: truncated
    }
    return r;
}

void
RdmapEndpoint::OnDelivery(const DdpDelivery& d)
{
    if (m_terminated)
    {
        return;
    }
    const Opcode op = Opcode(RdmapControl::OpcodeBits(d.rsvdUlp0));
    switch (op)
    {
    case Opcode::RdmaWrite:
        return; // RDMAP-021: placed, never delivered to the ULP
    case Opcode::ReadResponse:
        OnReadResponseDelivered(d);
        return;
    case Opcode::ReadRequest:
        OnReadRequestDelivered(d);
        return;
    case Opcode::Terminate:
        OnTerminateDelivered(d);
        return;
    default:
        OnSendDelivered(d, op);
        return;
    }
}

void
RdmapEndpoint::OnReadResponseDelivered(const DdpDelivery& d)
{
    // RDMAP-036/067: the delivered Response completes the oldest Read (checked in CheckSegment).
    const uint64_t wrSeq = m_readsAwaiting.front();
    m_readsAwaiting.pop_front();
    --m_readsInFlight;
    RdmapCompletion& c = m_sendQueue[wrSeq - m_headWrSeq].completion;
    c.firstPlaced = d.firstPlaced;
    c.delivered = d.delivered;
    MarkDone(wrSeq, WcStatus::Success, d.length);
    SubmitReady(); // an ORD slot is free
}

void
RdmapEndpoint::OnSendDelivered(const DdpDelivery& d, Opcode op)
{
    RdmapCompletion c;
    c.id = d.cookie;
    c.type = RdmapWrType::Recv;
    c.byteLength = d.length;
    c.solicited = (op == Opcode::SendSE || op == Opcode::SendSEInv); // RDMAP-043
    c.firstPlaced = d.firstPlaced;
    c.delivered = d.delivered;
    if (op == Opcode::SendInv || op == Opcode::SendSEInv)
    {
        // RDMAP-046: invalidate before the completion is reported (RDMAP-047).
        const InvalidateResult res = m_memory->RemoteInvalidate(d.rsvdUlp1, m_ctx);
        if (res != InvalidateResult::Invalidated)
        {
            const ErrorCause cause = InvalidateError(res);
            c.status = WcStatus::LocalProtectionError;
            c.cause = cause;
            Emit(c);
            m_ddp->StopReceiving();
            SendTerminate(TerminateFor(cause, &d.last, nullptr)); // A10: MDR=110
            return;
        }
        c.invalidated = true;
        c.invalidatedStag = d.rsvdUlp1;
    }
    Emit(c);
}

void
RdmapEndpoint::OnReadRequestDelivered(const DdpDelivery& d)
{
    // RDMAP-061: processing starts only now that DDP has delivered the Request.
    Ptr<InboundRead> rd = Create<InboundRead>();
    rd->request.Parse(d.buffer.buffer->Data() + d.buffer.offset, iwarp::kReadReqHdrLen);
    rd->segment = d.last;
    const RdmapReadRequestHeader& rr = rd->request;
    if (rr.readSize != 0) // RDMAP-032/033: a zero-length Read is not checked
    {
        const TagCheck c =
            m_memory->Resolve(rr.srcStag, rr.srcTo, rr.readSize, MemAccess::kRemoteRead, m_ctx, nullptr);
        if (c != TagCheck::Ok)
        {
            m_ddp->StopReceiving();
            const std::vector<uint8_t> rdmaHdr = rr.ToBytes();
            SendTerminate(TerminateFor(RemoteProt(ReadSourceError(c)), &d.last, &rdmaHdr)); // MDR=111
            return;
        }
    }
    const uint64_t cookie = m_nextResponseCookie++;
    m_inboundReads[cookie] = rd;
    DdpOutboundMessage m;
    m.tagged = true; // RDMAP-034: STag = SinkSTag, TO = SinkTO, copied without interpretation
    m.rsvdUlp0 = RdmapControl::Make(Opcode::ReadResponse, m_rdmapVersion);
    m.stag = rr.sinkStag;
    m.to = rr.sinkTo;
    m.cookie = cookie;
    if (rr.readSize == 0)
    {
        // RDMAP-033: a zero-length Read is answered without touching the (unchecked) source.
        m.payload = Create<PacketPayloadSource>(Create<Packet>());
    }
    else
    {
        // Re-validated segment by segment: the STag may be revoked meanwhile.
        rd->source = Create<RegionPayloadSource>(m_memory, m_ctx, rr.srcStag, rr.srcTo, rr.readSize,
                                                 MemAccess::kRemoteRead);
        m.payload = rd->source;
    }
    m_ddp->Send(m); // RDMAP-037: in the order the Requests were delivered
}

void
RdmapEndpoint::OnTerminateDelivered(const DdpDelivery& d)
{
    RdmapEventInfo info;
    info.type = RdmapEvent::TerminateReceived;
    const uint8_t* bytes = d.buffer.buffer->Data() + d.buffer.offset;
    if (!info.terminate.Parse(bytes, d.length))
    {
        NS_LOG_WARN("a malformed Terminate was delivered (RDMAP-055)");
        info.cause = RemoteOp(RdmapCode::Unspecified);
    }
    else
    {
        info.cause = info.terminate.GetCause();
    }
    m_terminateReceivedTrace(info.terminate);
    // RDMAP-051/054/077: deliver it, stop sending, complete everything outstanding in error.
    m_terminated = true;
    m_ddp->StopReceiving();
    m_ddp->DiscardUnstarted();
    FlushAll(WcStatus::RemoteError, info.cause);
    Notify(info);
    m_ddp->Close(DdpLowerLayer::CloseMode::Graceful); // RDMAP-078: gracefully by preference
}

} // namespace ns3
