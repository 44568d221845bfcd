/*
 * DdpEndpoint receive path: validation before placement (RFC 5041 §7.1, doc/conformance.md DDP-060,
 * DDP-062, DDP-068), placement on arrival, delivery in the sender's order (§5.3, §5.4).
 */
#include "ddp/ddp-endpoint.h"

#include "ddp/ddp-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(DdpEndpoint);

namespace
{
using iwarp::DdpTaggedCode;
using iwarp::DdpUntaggedCode;
using iwarp::ErrorCause;

/** DDP's name for a failed tagged check (doc/conformance.md §3; A3: no access-rights code in DDP). */
DdpTaggedCode
TaggedCode(TagCheck c)
{
    switch (c)
    {
    case TagCheck::NotAssociated:
        return DdpTaggedCode::StagNotAssoc;
    case TagCheck::BaseBounds:
        return DdpTaggedCode::BaseBounds;
    case TagCheck::ToWrap:
        return DdpTaggedCode::ToWrap;
    case TagCheck::InvalidStag:
    case TagCheck::AccessRights: // A3: "has a buffer that allows Placement" fails (T2)
    case TagCheck::Ok:
        break;
    }
    return DdpTaggedCode::InvalidStag;
}

/** Octets of the segment kept for error reports: the longest header plus a Read Request. */
constexpr uint32_t kHeadOctets = iwarp::kDdpUntaggedHdrLen + iwarp::kReadReqHdrLen;
} // namespace

void
DdpEndpoint::OnReceive(Ptr<Packet> segment, uint64_t order)
{
    m_rxSegmentTrace(segment);
    if (m_rxStopped || m_down)
    {
        NS_LOG_LOGIC("dropping a segment after an error or teardown (DDP-065)");
        return;
    }
    if (m_peerClosed)
    {
        // DDP-052: data after the LLP's graceful teardown forces an abortive teardown.
        m_rxStopped = true;
        ClearRxWaiting();
        Upper().OnStreamEvent(StreamEvent::FatalError, ErrorCause{});
        Close(DdpLowerLayer::CloseMode::Abortive);
        return;
    }
    const bool hint = (order == DdpLowerLayer::kOrderUnknown);
    if (!hint && (order < m_rxFrontier || m_rxPending.count(order) != 0))
    {
        // A duplicate (D-08). It was placed already; it must not be delivered twice (DDP-042).
        NS_LOG_LOGIC("ignoring duplicate segment " << order);
        return;
    }
    // The LLP's position of the segment, when it gives one: the same for a hint and for the
    // in-order copy that follows it, so a copy whose octets are in place already is known.
    DdpLlpPositionTag posTag;
    const bool positioned = segment->PeekPacketTag(posTag);
    const uint64_t pos = posTag.GetPosition();
    RxSegment s;
    if (hint)
    {
        if (positioned && m_placedEarly.count(pos) != 0)
        {
            // A second hint for the same segment (TCP got a retransmission of a segment it
            // still holds out of order): its octets are in place.
            NS_LOG_LOGIC("segment at LLP position " << pos << " placed already");
            return;
        }
        // A hint that fails a check is dropped silently: the in-order copy reports it.
        if (!ValidateAndPlace(segment, false, true, &s))
        {
            return;
        }
        // Remember when it was placed; the in-order copy that follows inherits the time.
        if (positioned)
        {
            m_placedEarly.emplace(pos, Simulator::Now());
        }
        else
        {
            m_hintPlacedAt.emplace(KeyOf(s.view), Simulator::Now());
        }
        return;
    }
    // The in-order copy of a segment placed early is validated again (the STag or buffer may
    // have gone meanwhile) but not placed again: placing it twice would leave the same data,
    // but the octets would be moved, and counted, twice.
    auto early = positioned ? m_placedEarly.find(pos) : m_placedEarly.end();
    const bool placedEarly = early != m_placedEarly.end();
    if (!ValidateAndPlace(segment, true, !placedEarly, &s))
    {
        return;
    }
    s.placedAt = Simulator::Now();
    if (placedEarly)
    {
        s.placedAt = std::min(s.placedAt, early->second);
        m_placedEarly.erase(early);
    }
    else if (!positioned)
    {
        auto h = m_hintPlacedAt.find(KeyOf(s.view));
        if (h != m_hintPlacedAt.end())
        {
            s.placedAt = std::min(s.placedAt, h->second);
            m_hintPlacedAt.erase(h);
        }
    }
    m_rxPending.emplace(order, std::move(s));
    AdvanceDelivery();
}

DdpReceiveError
DdpEndpoint::MakeError(ErrorCause cause, const RxSegment& s) const
{
    DdpReceiveError err;
    err.cause = cause;
    err.segLenValid = true; // DDP errors carry M=1, D=1 (doc/conformance.md §1.8, Figure 10)
    err.segment = s.record;
    err.qn = s.view.qn;
    return err;
}

bool
DdpEndpoint::ValidateAndPlace(Ptr<Packet> segment, bool reportErrors, bool place, RxSegment* s)
{
    const uint32_t size = segment->GetSize();
    uint8_t head[kHeadOctets] = {};
    const uint32_t headLen = segment->CopyData(head, std::min(size, kHeadOctets));
    s->record.length = size;
    auto fail = [this, reportErrors](DdpReceiveError err) {
        if (reportErrors)
        {
            RaiseError(std::move(err));
        }
        return false;
    };

    const std::optional<DdpSegmentView> view = PeekDdpSegment(segment);
    if (!view)
    {
        // A20: a segment shorter than its header has no DDP code: 0/2/0xFF, M=1, D=0.
        DdpReceiveError err;
        err.cause = ErrorCause::Rdma(iwarp::RdmapEType::RemoteOperation, iwarp::RdmapCode::Unspecified);
        err.segLenValid = true;
        err.segment.length = size;
        return fail(err);
    }
    s->view = *view;
    const DdpSegmentView& v = s->view;
    const bool tagged = v.tagged;
    s->record.header.assign(head, head + v.headerLength);

    // DDP-017: the reserved bits are not checked.

    // DDP-018, DDP-067: the version comes first; nothing else in the header can be trusted.
    if (DdpControl::Version(v.control) != iwarp::kDdpVersion)
    {
        return fail(MakeError(tagged ? ErrorCause::Ddp(DdpTaggedCode::InvalidDdpVersion)
                                     : ErrorCause::Ddp(DdpUntaggedCode::InvalidDdpVersion),
                              *s));
    }
    // U1 (DDP-060): the QN must be one the ULP enabled.
    DdpUntaggedQueue* queue = nullptr;
    if (!tagged)
    {
        auto it = m_rxQueues.find(v.qn);
        if (it == m_rxQueues.end())
        {
            return fail(MakeError(ErrorCause::Ddp(DdpUntaggedCode::InvalidQn), *s));
        }
        queue = &it->second;
    }
    // A16: the ULP vets its control octet before anything is placed.
    const DdpUlpCheck ulp = Upper().CheckSegment(v);
    if (!ulp.ok)
    {
        DdpReceiveError err = MakeError(ulp.cause, *s);
        if (ulp.includeRdmaHeader && headLen >= v.headerLength + iwarp::kReadReqHdrLen)
        {
            err.rdmaHeader.assign(head + v.headerLength, head + v.headerLength + iwarp::kReadReqHdrLen);
        }
        if (queue)
        {
            if (const DdpUntaggedBuffer* b = queue->Find(v.msn))
            {
                err.bufferKnown = true;
                err.bufferCookie = b->cookie;
            }
        }
        return fail(err);
    }

    BufferWindow target;
    uint64_t targetOffset = 0;
    if (tagged)
    {
        if (v.payloadLength == 0)
        {
            return true; // DDP-037: a zero-length tagged segment's STag and TO are not checked
        }
        // T1-T5 (DDP-062), validated before any octet is placed (DDP-068).
        const TagCheck c =
            m_memory ? m_memory->Resolve(v.stag, v.to, v.payloadLength, ulp.taggedAccess, m_ctx, &target)
                     : TagCheck::InvalidStag;
        if (c != TagCheck::Ok)
        {
            return fail(MakeError(ErrorCause::Ddp(TaggedCode(c)), *s));
        }
        targetOffset = target.offset;
    }
    else
    {
        // U2-U5 (DDP-060), with A4/A5/A6 resolved in DdpUntaggedQueue::Check. An MSN whose
        // message is complete and parked (waiting for a lower MSN) is no longer available:
        // a second message with it is out of range (U5), refused before it overwrites the first.
        DdpUntaggedQueue::Match m = queue->Check(v.msn, v.mo, v.payloadLength);
        if (m.ok && m_rxParked.count({v.qn, v.msn}) != 0)
        {
            m.ok = false;
            m.code = DdpUntaggedCode::MsnRange;
        }
        if (!m.ok)
        {
            DdpReceiveError err = MakeError(ErrorCause::Ddp(m.code), *s);
            if (m.buffer)
            {
                err.bufferKnown = true;
                err.bufferCookie = m.buffer->cookie;
            }
            return fail(err);
        }
        target = m.buffer->window;
        targetOffset = target.offset + v.mo;
    }
    if (!place)
    {
        return true; // validated; its octets were placed from an earlier copy
    }
    if (v.payloadLength > 0)
    {
        target.buffer->Write(targetOffset, segment, v.headerLength, v.payloadLength);
    }
    m_placedTrace(segment);
    return true;
}

void
DdpEndpoint::AdvanceDelivery()
{
    // DDP-045: a message is delivered once its L=1 segment and everything before it, in the
    // sender's order, has been placed; earlier messages are delivered first.
    while (!m_rxStopped)
    {
        auto it = m_rxPending.find(m_rxFrontier);
        if (it == m_rxPending.end())
        {
            break;
        }
        RxSegment s = std::move(it->second);
        m_rxPending.erase(it);
        ++m_rxFrontier;
        if (s.view.tagged)
        {
            m_rxTaggedLength += s.view.payloadLength;
        }
        m_rxMessageFirstPlaced = std::min(m_rxMessageFirstPlaced, s.placedAt);
        if (!s.view.last)
        {
            continue;
        }
        const uint64_t taggedLength = m_rxTaggedLength;
        m_rxTaggedLength = 0;
        Deliver(s, taggedLength);
    }
}

void
DdpEndpoint::Deliver(const RxSegment& last, uint64_t taggedLength)
{
    const DdpSegmentView& v = last.view;
    const Time firstPlaced = m_rxMessageFirstPlaced;
    m_rxMessageFirstPlaced = Time::Max();
    if (v.tagged)
    {
        DdpDelivery d = NewDelivery(last, firstPlaced);
        d.stag = v.stag;
        d.length = taggedLength;
        HandUp(d);
        return;
    }
    DdpUntaggedQueue& q = m_rxQueues.at(v.qn);
    if (v.msn != q.GetBaseMsn())
    {
        // DDP-060 U5: the MSN was inside [first, last available buffer] when it was placed.
        // Buffers complete in MSN order (DDP-026), so it waits for the MSNs still missing.
        // Check refused MSNs outside the range, and ValidateAndPlace refuses a parked MSN,
        // so this entry is new.
        m_rxParked.emplace(std::make_pair(v.qn, v.msn), ParkedMessage{last, firstPlaced});
        return;
    }
    DeliverUntagged(q, last, firstPlaced);
    // Each delivery may make a parked message the queue's next.
    for (auto p = m_rxParked.find({v.qn, q.GetBaseMsn()}); p != m_rxParked.end() && !m_rxStopped;
         p = m_rxParked.find({v.qn, q.GetBaseMsn()}))
    {
        const ParkedMessage parked = std::move(p->second);
        m_rxParked.erase(p);
        DeliverUntagged(q, parked.last, parked.firstPlaced);
    }
}

void
DdpEndpoint::DeliverUntagged(DdpUntaggedQueue& q, const RxSegment& last, Time firstPlaced)
{
    const DdpSegmentView& v = last.view;
    DdpDelivery d = NewDelivery(last, firstPlaced);
    const DdpUntaggedBuffer b = q.ConsumeFront();
    d.rsvdUlp1 = v.rsvdUlp1;
    d.qn = v.qn;
    d.msn = v.msn;
    d.length = uint64_t(v.mo) + v.payloadLength; // DDP-046
    d.cookie = b.cookie;
    d.buffer = b.window;
    HandUp(d);
}

DdpDelivery
DdpEndpoint::NewDelivery(const RxSegment& last, Time firstPlaced)
{
    DdpDelivery d;
    d.tagged = last.view.tagged;
    d.rsvdUlp0 = last.view.rsvdUlp0;
    d.last = last.record;
    d.firstPlaced = firstPlaced;
    d.delivered = Simulator::Now();
    return d;
}

void
DdpEndpoint::HandUp(const DdpDelivery& d)
{
    m_deliveredTrace(d);
    Upper().OnDelivery(d);
}

DdpEndpoint::SegmentKey
DdpEndpoint::KeyOf(const DdpSegmentView& v)
{
    // Tagged: (STag, TO); untagged: (QN, MSN << 32 | MO). Unique within the live window.
    return v.tagged ? SegmentKey{true, v.stag, v.to}
                    : SegmentKey{false, v.qn, (uint64_t(v.msn) << 32) | v.mo};
}

void
DdpEndpoint::RaiseError(DdpReceiveError err)
{
    NS_LOG_INFO("receive error " << err.cause.ToString());
    // DDP-063/065: stop placing, drop what waits for delivery and everything that follows.
    m_rxStopped = true;
    ClearRxWaiting();
    m_errorTrace(err);
    Upper().OnDdpError(err);
}

void
DdpEndpoint::StopReceiving()
{
    m_rxStopped = true;
    ClearRxWaiting();
}

void
DdpEndpoint::ClearRxWaiting()
{
    m_rxPending.clear();
    m_hintPlacedAt.clear();
    m_placedEarly.clear();
    m_rxParked.clear();
}

} // namespace ns3
