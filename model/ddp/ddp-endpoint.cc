/*
 * DdpEndpoint: wiring, the send path and teardown. The receive path is in ddp-endpoint-rx.cc.
 */
#include "ddp/ddp-endpoint.h"

#include "common/virtual-payload-tag.h"

#include "ddp/ddp-header.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(DdpEndpoint)
NS_OBJECT_ENSURE_REGISTERED(DdpEndpoint);

TypeId
DdpEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DdpEndpoint")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<DdpEndpoint>()
            .AddAttribute("MsnLookahead",
                          "How far past the last posted buffer an untagged MSN is taken as the "
                          "receiver being short of buffers (code 0x02) rather than out of range "
                          "(0x03); doc/conformance.md A4",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&DdpEndpoint::m_msnLookahead),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("TxSegment",
                            "A DDP segment accepted by the LLP",
                            MakeTraceSourceAccessor(&DdpEndpoint::m_txSegmentTrace),
                            "ns3::DdpEndpoint::SegmentTracedCallback")
            .AddTraceSource("RxSegment",
                            "A DDP segment handed up by the LLP",
                            MakeTraceSourceAccessor(&DdpEndpoint::m_rxSegmentTrace),
                            "ns3::DdpEndpoint::SegmentTracedCallback")
            .AddTraceSource("Placed",
                            "A received segment that passed validation and was placed",
                            MakeTraceSourceAccessor(&DdpEndpoint::m_placedTrace),
                            "ns3::DdpEndpoint::SegmentTracedCallback")
            .AddTraceSource("Delivered",
                            "A message delivered to the ULP",
                            MakeTraceSourceAccessor(&DdpEndpoint::m_deliveredTrace),
                            "ns3::DdpEndpoint::DeliveryTracedCallback")
            .AddTraceSource("RxError",
                            "A received segment failed a check",
                            MakeTraceSourceAccessor(&DdpEndpoint::m_errorTrace),
                            "ns3::DdpEndpoint::ErrorTracedCallback");
    return tid;
}

DdpEndpoint::DdpEndpoint()
    : m_msnLookahead(1024)
{
}

DdpEndpoint::~DdpEndpoint() = default;

void
DdpEndpoint::DoDispose()
{
    if (m_llp)
    {
        m_llp->SetUser(nullptr);
    }
    m_llp = nullptr;
    m_memory = nullptr;
    m_txQueue.clear();
    ClearRxWaiting();
    m_rxQueues.clear();
    m_callbacks = CallbackUlp{};
    m_ulp = nullptr;
    // Trace sinks may hold references back to objects that own this endpoint (an application
    // binding a Ptr to its sink, as RdmaPingPong's WritePoll does): drop them so those cycles break.
    m_txSegmentTrace = TracedCallback<Ptr<const Packet>>();
    m_rxSegmentTrace = TracedCallback<Ptr<const Packet>>();
    m_placedTrace = TracedCallback<Ptr<const Packet>>();
    m_deliveredTrace = TracedCallback<const DdpDelivery&>();
    m_errorTrace = TracedCallback<const DdpReceiveError&>();
    Object::DoDispose();
}

DdpUlpCheck
DdpEndpoint::CallbackUlp::CheckSegment(const DdpSegmentView& v)
{
    return ulpCheck.IsNull() ? DdpUlpCheck{} : ulpCheck(v);
}

void
DdpEndpoint::CallbackUlp::OnDelivery(const DdpDelivery& d)
{
    if (!deliver.IsNull())
    {
        deliver(d);
    }
}

void
DdpEndpoint::CallbackUlp::OnDdpError(const DdpReceiveError& e)
{
    if (!error.IsNull())
    {
        error(e);
    }
}

void
DdpEndpoint::CallbackUlp::OnMessageSent(uint64_t cookie)
{
    if (!sent.IsNull())
    {
        sent(cookie);
    }
}

void
DdpEndpoint::CallbackUlp::OnMessageFailed(uint64_t cookie, uint64_t sentOctets)
{
    if (!failed.IsNull())
    {
        failed(cookie, sentOctets);
    }
}

void
DdpEndpoint::CallbackUlp::OnStreamEvent(StreamEvent e, iwarp::ErrorCause cause)
{
    if (!streamEvent.IsNull())
    {
        streamEvent(e, cause);
    }
}

void
DdpEndpoint::SetLowerLayer(Ptr<DdpLowerLayer> llp)
{
    m_llp = llp;
    llp->SetUser(this); // one pointer, not four Callbacks (an idle QP's heap, doc/performance.md)
}

// ------------------------------------------------------------------ untagged queues

void
DdpEndpoint::EnableQueue(uint32_t qn)
{
    m_rxQueues.emplace(qn, DdpUntaggedQueue(m_msnLookahead));
}

void
DdpEndpoint::PostBuffer(uint32_t qn, const DdpUntaggedBuffer& buffer)
{
    auto it = m_rxQueues.find(qn);
    NS_ABORT_MSG_IF(it == m_rxQueues.end(), "PostBuffer on a queue not enabled: QN " << qn);
    it->second.Post(buffer);
}

std::size_t
DdpEndpoint::GetPostedCount(uint32_t qn) const
{
    auto it = m_rxQueues.find(qn);
    return it == m_rxQueues.end() ? 0 : it->second.GetPostedCount();
}

std::vector<DdpUntaggedBuffer>
DdpEndpoint::TakeBuffers(uint32_t qn)
{
    auto it = m_rxQueues.find(qn);
    if (it == m_rxQueues.end())
    {
        return {};
    }
    // Hints may have been placed in the buffers taken away: in-order copies that still come
    // must be placed wherever they then match, not skipped as placed already.
    m_placedEarly.clear();
    // Parked messages of this queue lose their buffers with the others (flushed).
    for (auto p = m_rxParked.begin(); p != m_rxParked.end();)
    {
        p = (p->first.first == qn) ? m_rxParked.erase(p) : std::next(p);
    }
    return it->second.TakeAll();
}

void
DdpEndpoint::SetExpectedMsn(uint32_t qn, uint32_t msn)
{
    auto it = m_rxQueues.find(qn);
    NS_ABORT_MSG_IF(it == m_rxQueues.end(), "SetExpectedMsn on a queue not enabled: QN " << qn);
    it->second.SetBaseMsn(msn);
}

void
DdpEndpoint::SetNextSendMsn(uint32_t qn, uint32_t msn)
{
    m_txMsn[qn] = msn;
}

uint32_t
DdpEndpoint::GetNextSendMsn(uint32_t qn) const
{
    auto it = m_txMsn.find(qn);
    return it == m_txMsn.end() ? iwarp::kMsnInitial : it->second;
}

// ------------------------------------------------------------------ send path

bool
DdpEndpoint::Send(const DdpOutboundMessage& msg, uint32_t* msn)
{
    NS_ABORT_MSG_IF(!msg.payload, "DDP message without a payload source");
    const uint64_t len = msg.payload->GetLength();
    if (len > iwarp::kMaxUlpMsgLen)
    {
        NS_LOG_WARN("refusing a message of " << len << " octets (DDP-030)");
        return false;
    }
    if (m_closeRequested || m_down || !m_llp)
    {
        NS_LOG_WARN("refusing a message: stream closing or down (DDP-051)");
        return false;
    }
    TxMessage m;
    m.msg = msg;
    m.length = len;
    if (!msg.tagged)
    {
        uint32_t& next = m_txMsn.emplace(msg.qn, iwarp::kMsnInitial).first->second;
        m.msn = next++; // DDP-026: +1 per message, wrapping mod 2^32
        if (msn)
        {
            *msn = m.msn;
        }
    }
    m_txQueue.push_back(m);
    Pump();
    return true;
}

std::vector<uint64_t>
DdpEndpoint::DiscardUnstarted()
{
    std::vector<uint64_t> cookies;
    if (!m_txQueue.empty() && !m_txQueue.front().started)
    {
        m_pendingSegment = nullptr; // built for a message that is being dropped: never sent
    }
    std::deque<TxMessage> keep;
    for (auto& m : m_txQueue)
    {
        if (m.started)
        {
            keep.push_back(m);
        }
        else
        {
            cookies.push_back(m.msg.cookie);
        }
    }
    m_txQueue.swap(keep);
    return cookies;
}

Ptr<Packet>
DdpEndpoint::BuildSegment(TxMessage& m, uint32_t mulpdu, uint32_t* payloadLen)
{
    const uint32_t hdrLen = m.msg.tagged ? iwarp::kDdpTaggedHdrLen : iwarp::kDdpUntaggedHdrLen;
    NS_ABORT_MSG_IF(mulpdu <= hdrLen, "MULPDU " << mulpdu << " leaves no room for payload");
    const uint64_t remaining = m.length - m.sent;
    const uint32_t n = uint32_t(std::min<uint64_t>(remaining, mulpdu - hdrLen)); // DDP-029
    Ptr<Packet> p = m.msg.payload->Read(m.sent, n);
    if (!p)
    {
        return nullptr;
    }
    if (n > 0 && m.msg.payload->LastReadVirtual())
    {
        p->AddPacketTag(VirtualPayloadTag(n)); // lets the LLP keep the payload virtual while framing
    }
    const bool last = (m.sent + n == m.length); // DDP-013, DDP-014
    if (m.msg.tagged)
    {
        DdpTaggedHeader h;
        h.SetLast(last);
        h.SetRsvdUlp(m.msg.rsvdUlp0);
        h.SetStag(m.msg.stag);
        h.SetTo(m.msg.to + m.sent); // DDP-035
        p->AddHeader(h);
    }
    else
    {
        DdpUntaggedHeader h;
        h.SetLast(last);
        h.SetRsvdUlp0(m.msg.rsvdUlp0);
        h.SetRsvdUlp1(m.msg.rsvdUlp1);
        h.SetQn(m.msg.qn);
        h.SetMsn(m.msn);
        h.SetMo(uint32_t(m.sent)); // DDP-033
        p->AddHeader(h);
    }
    *payloadLen = n;
    return p;
}

void
DdpEndpoint::Pump()
{
    if (m_pumping || !m_llp || m_down)
    {
        return;
    }
    m_pumping = true;
    while (!m_txQueue.empty())
    {
        TxMessage& m = m_txQueue.front();
        const uint32_t mulpdu = m_llp->GetMulpdu();
        if (m_pendingSegment && m_pendingSegment->GetSize() > mulpdu)
        {
            m_pendingSegment = nullptr; // never handed over: rebuild at the new MULPDU
        }
        if (!m_pendingSegment)
        {
            m_pendingSegment = BuildSegment(m, mulpdu, &m_pendingPayload);
            if (!m_pendingSegment)
            {
                // A local failure while building (RDMAP-083): the ULP decides what follows.
                const uint64_t cookie = m.msg.cookie;
                const uint64_t sent = m.sent;
                m_txQueue.pop_front();
                Upper().OnMessageFailed(cookie, sent);
                continue;
            }
        }
        if (!m_llp->SendSegment(m_pendingSegment))
        {
            break; // wait for SendReady
        }
        m.started = true;
        m_txSegmentTrace(m_pendingSegment);
        m_pendingSegment = nullptr;
        m.sent += m_pendingPayload;
        if (m.sent == m.length)
        {
            const uint64_t cookie = m.msg.cookie;
            m_txQueue.pop_front();
            Upper().OnMessageSent(cookie);
        }
    }
    m_pumping = false;
    MaybeFinishGracefulClose();
}

void
DdpEndpoint::OnSendReady()
{
    Pump();
}

void
DdpEndpoint::OnMulpduChanged(uint32_t mulpdu)
{
    // DDP-001/002: the new size applies from the next segment built; nothing is re-cut.
    NS_LOG_INFO("MULPDU is now " << mulpdu);
}

// ------------------------------------------------------------------ teardown and LLP events

void
DdpEndpoint::Close(DdpLowerLayer::CloseMode mode)
{
    if (mode == DdpLowerLayer::CloseMode::Abortive)
    {
        m_down = true;
        m_txQueue.clear();
        m_pendingSegment = nullptr;
        if (m_llp)
        {
            m_llp->Close(mode);
        }
        return;
    }
    m_closeRequested = true; // DDP-051: later Sends fail, queued data still goes
    MaybeFinishGracefulClose();
}

void
DdpEndpoint::MaybeFinishGracefulClose()
{
    if (m_closeRequested && !m_down && m_txQueue.empty() && !m_pendingSegment && m_llp)
    {
        m_down = true;
        m_llp->Close(DdpLowerLayer::CloseMode::Graceful);
    }
}

void
DdpEndpoint::OnLlpEvent(DdpLowerLayer::Event e, iwarp::ErrorCause cause)
{
    NS_LOG_FUNCTION(this << ToString(e));
    auto notify = [this](StreamEvent se, iwarp::ErrorCause c) { Upper().OnStreamEvent(se, c); };
    switch (e)
    {
    case DdpLowerLayer::Event::Established:
        notify(StreamEvent::Established, cause);
        Pump();
        break;
    case DdpLowerLayer::Event::PeerGracefulClose:
        m_peerClosed = true; // DDP-053: report half-closed, keep sending
        notify(StreamEvent::HalfClosed, cause);
        break;
    case DdpLowerLayer::Event::Closed:
        m_down = true;
        notify(StreamEvent::Closed, cause);
        break;
    case DdpLowerLayer::Event::ConnectionLost:
    case DdpLowerLayer::Event::LlpError:
        // DDP-055/056: fatal; the ULP completes its outstanding requests in error. After an
        // LLP protocol error the stream may still carry the ULP's Terminate (DDP-057).
        m_rxStopped = true;
        m_rxPending.clear();
        m_hintPlacedAt.clear();
        m_placedEarly.clear();
        if (e == DdpLowerLayer::Event::ConnectionLost)
        {
            m_down = true;
            m_txQueue.clear();
            m_pendingSegment = nullptr;
        }
        notify(StreamEvent::FatalError, cause);
        break;
    }
}

const char*
ToString(DdpEndpoint::StreamEvent e)
{
    switch (e)
    {
    case DdpEndpoint::StreamEvent::Established:
        return "Established";
    case DdpEndpoint::StreamEvent::HalfClosed:
        return "HalfClosed";
    case DdpEndpoint::StreamEvent::Closed:
        return "Closed";
    case DdpEndpoint::StreamEvent::FatalError:
        return "FatalError";
    }
    return "?";
}

} // namespace ns3
