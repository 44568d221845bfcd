/*
 * RdmapEndpoint errors and teardown (RFC 5040 §5.4, §6.2, §7): every error leaves through
 * SendTerminate(), which sends at most one Terminate per stream (RDMAP-053, RDMAP-086),
 * then completes everything outstanding in error (RDMAP-052, RDMAP-077).
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
using iwarp::RdmapCode;
using iwarp::RdmapEType;

} // namespace

RdmapTerminateHeader
RdmapEndpoint::TerminateFor(ErrorCause cause,
                            const DdpSegmentRecord* segment,
                            const std::vector<uint8_t>* rdmaHeader) const
{
    // Figure 10 with A10-A12: M when the segment length is known, D when its header is,
    // R only for errors tied to a Read Request.
    RdmapTerminateHeader h;
    h.cause = cause;
    if (segment)
    {
        h.m = true;
        h.ddpSegLen = uint16_t(segment->length);
        if (!segment->header.empty())
        {
            h.d = true;
            h.ddpHeader = segment->header;
        }
    }
    if (rdmaHeader && !rdmaHeader->empty())
    {
        h.r = true;
        h.rdmaHeader = *rdmaHeader;
    }
    return h;
}

void
RdmapEndpoint::SendTerminate(const RdmapTerminateHeader& term)
{
    if (m_terminated)
    {
        return; // RDMAP-086: the first error is the one reported; one Terminate per stream
    }
    m_terminated = true;
    m_ddp->StopReceiving();  // DDP-065
    m_ddp->DiscardUnstarted(); // RDMAP-084: the Terminate is the next message out
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(term);
    DdpOutboundMessage m;
    m.qn = iwarp::kQnTerminate; // RDMAP-049
    m.rsvdUlp0 = RdmapControl::Make(iwarp::Opcode::Terminate, m_rdmapVersion);
    m.payload = Create<PacketPayloadSource>(p);
    m.cookie = kTerminateCookie;
    if (!m_ddp->Send(m))
    {
        NS_LOG_WARN("the Terminate could not be queued: the stream is closing or down");
    }
    m_terminateSentTrace(term);
    FlushAll(WcStatus::Flushed, term.cause);
    RdmapEventInfo info;
    info.type = RdmapEvent::TerminateSent;
    info.cause = term.cause;
    info.terminate = term;
    Notify(info); // RDMAP-082: the local ULP is told, with the same L/ET/EC (P2)
}

void
RdmapEndpoint::OnDdpError(const DdpReceiveError& e)
{
    if (m_terminated)
    {
        return;
    }
    if (e.bufferKnown && e.qn == iwarp::kQnSend)
    {
        // D-22 / RDMAP-041: the receive buffer named by the error reports why it failed.
        const bool tooLong =
            e.cause == ErrorCause::Ddp(iwarp::DdpUntaggedCode::MsgTooLong) ||
            e.cause == ErrorCause::Ddp(iwarp::DdpUntaggedCode::InvalidMo);
        m_implicatedRecvKnown = true;
        m_implicatedRecv = e.bufferCookie;
        m_implicatedStatus = tooLong ? WcStatus::LocalLengthError : WcStatus::Flushed;
    }
    SendTerminate(TerminateFor(e.cause, &e.segment, e.rdmaHeader.empty() ? nullptr : &e.rdmaHeader));
}

void
RdmapEndpoint::OnMessageFailed(uint64_t cookie, uint64_t sent)
{
    if (cookie == kTerminateCookie)
    {
        return;
    }
    if (cookie >= kResponseCookieBase)
    {
        // RDMAP-019 / R-29: the Terminate carries the Request as updated by what was sent.
        auto it = m_inboundReads.find(cookie);
        if (it == m_inboundReads.end())
        {
            return;
        }
        Ptr<InboundRead> rd = it->second;
        m_inboundReads.erase(it);
        RdmapReadRequestHeader updated = rd->request;
        updated.sinkTo += sent;
        updated.readSize -= uint32_t(sent);
        updated.srcTo += sent;
        const std::vector<uint8_t> rdmaHdr = updated.ToBytes();
        SendTerminate(TerminateFor(ErrorCause::Rdma(RdmapEType::RemoteProtection, ReadSourceError(rd->source ? rd->source->GetFailure() : TagCheck::InvalidStag)),
                                   &rd->segment,
                                   &rdmaHdr));
        return;
    }
    // RDMAP-083 / R-27: a local failure while building an outbound message: a Local
    // Catastrophic Terminate goes instead of it, with no copied headers (MDR=000).
    if (cookie >= m_headWrSeq && cookie - m_headWrSeq < m_sendQueue.size())
    {
        SendWr& s = m_sendQueue[cookie - m_headWrSeq];
        s.done = true;
        s.completion.status = WcStatus::LocalOperationError;
        s.completion.byteLength = sent;
    }
    SendTerminate(TerminateFor(ErrorCause::Rdma(RdmapEType::LocalCatastrophic, RdmapCode::InvalidStag),
                               nullptr,
                               nullptr));
}

void
RdmapEndpoint::FlushAll(WcStatus status, ErrorCause cause)
{
    // Send queue: in posting order; requests already finished keep their own status.
    std::deque<SendWr> queue;
    m_sendQueue.swap(queue);
    m_headWrSeq += queue.size();
    m_readsAwaiting.clear();
    m_readsInFlight = 0;
    for (SendWr& s : queue)
    {
        if (!s.done)
        {
            s.completion.status = status;
            s.completion.cause = cause;
        }
        Emit(s.completion);
    }
    // Receive queue (QN 0): every posted buffer completes in error.
    for (const DdpUntaggedBuffer& b : m_ddp->TakeBuffers(iwarp::kQnSend))
    {
        RdmapCompletion c;
        c.id = b.cookie;
        c.type = RdmapWrType::Recv;
        c.status = (m_implicatedRecvKnown && b.cookie == m_implicatedRecv) ? m_implicatedStatus : status;
        c.cause = cause;
        Emit(c);
    }
    m_implicatedRecvKnown = false;
}

void
RdmapEndpoint::Abort(ErrorCause cause)
{
    SendTerminate(TerminateFor(cause, nullptr, nullptr));
}

void
RdmapEndpoint::Close(DdpLowerLayer::CloseMode mode)
{
    m_closing = true;
    if (mode == DdpLowerLayer::CloseMode::Abortive)
    {
        FlushAll(WcStatus::Flushed, ErrorCause{});
    }
    m_ddp->Close(mode);
}

void
RdmapEndpoint::OnStreamEvent(DdpEndpoint::StreamEvent e, ErrorCause cause)
{
    RdmapEventInfo info;
    info.cause = cause;
    switch (e)
    {
    case DdpEndpoint::StreamEvent::Established:
        info.type = RdmapEvent::Established;
        break;
    case DdpEndpoint::StreamEvent::HalfClosed:
        info.type = RdmapEvent::HalfClosed;
        break;
    case DdpEndpoint::StreamEvent::Closed:
        info.type = RdmapEvent::Closed;
        break;
    case DdpEndpoint::StreamEvent::FatalError:
        info.type = RdmapEvent::FatalError;
        if (cause.layer == uint8_t(iwarp::TermLayer::Llp))
        {
            // RDMAP-076 / A35: an LLP error is reported with Layer 2 and the LLP's own codes.
            SendTerminate(TerminateFor(cause, nullptr, nullptr));
        }
        else
        {
            m_terminated = true; // the LLP is gone: nothing more can be sent
            FlushAll(WcStatus::FatalError, cause); // DDP-056
        }
        break;
    }
    Notify(info);
}

} // namespace ns3
