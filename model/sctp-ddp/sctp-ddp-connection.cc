/*
 * SctpDdpConnection: one DDP Stream Session (RFC 5043 §6) as a DdpLowerLayer. See sctp-ddp-connection.h.
 */
#include "sctp-ddp/sctp-ddp-connection.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpDdpConnection");
NS_OBJECT_ENSURE_REGISTERED(SctpDdpConnection);

TypeId
SctpDdpConnection::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpDdpConnection")
            .SetParent<DdpLowerLayer>()
            .SetGroupName("Iwarp")
            .AddConstructor<SctpDdpConnection>()
            .AddAttribute("MaxHeldSegments",
                          "Segments kept while the session is not yet open (beyond: the session is terminated)",
                          UintegerValue(64), MakeUintegerAccessor(&SctpDdpConnection::m_maxHeld),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("RxChunk", "A PPID 16/17 chunk of this session (DDP-SSN removed)",
                            MakeTraceSourceAccessor(&SctpDdpConnection::m_rxChunkTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("UnackedLimit",
                            "A DDP segment waits: the stream has as many unacknowledged DATA chunks as the "
                            "association's MaxUnackedChunks allows segments (SCTP-044)",
                            MakeTraceSourceAccessor(&SctpDdpConnection::m_unackedLimitTrace),
                            "ns3::SctpDdpConnection::UnackedLimitTracedCallback");
    return tid;
}

SctpDdpConnection::SctpDdpConnection() = default;

void
SctpDdpConnection::Init(Ptr<SctpDdpAssociation> assoc, uint16_t stream, bool active)
{
    m_assoc = assoc;
    m_stream = stream;
    m_active = active;
}

void
SctpDdpConnection::DoDispose()
{
    m_assoc = nullptr;
    m_held.clear();
    m_deferredInitiate.reset();
    m_control = ControlCallback();
    DdpLowerLayer::DoDispose();
}

uint32_t
SctpDdpConnection::GetMulpdu() const
{
    return m_assoc ? m_assoc->GetMulpdu() : sctpddp::kMinMulpdu;
}

bool
SctpDdpConnection::SendControl(sctpddp::Function f, const std::vector<uint8_t>& pd)
{
    // SCTP-020/021: at most 512 octets of Private Data, none on a Terminate.
    NS_ASSERT(pd.size() <= sctpddp::kMaxPrivateData);
    NS_ASSERT(f != sctpddp::Function::Terminate || pd.empty());
    std::vector<uint8_t> b(2 + pd.size());
    b[0] = uint8_t(uint16_t(f) >> 8);
    b[1] = uint8_t(uint16_t(f));
    std::copy(pd.begin(), pd.end(), b.begin() + 2);
    if (!m_assoc || !m_assoc->SendChunk(m_stream, sctpddp::kPpidControl, m_txSsn, Create<Packet>(b.data(), b.size())))
    {
        return false;
    }
    ++m_txSsn; // SCTP-017: one DDP-SSN per chunk, both PPIDs
    return true;
}

bool
SctpDdpConnection::SendInitiate(const std::vector<uint8_t>& pd)
{
    NS_ASSERT(m_state == IDLE && m_txSsn == 0); // SCTP-028: a session starts at DDP-SSN 0
    if (!SendControl(sctpddp::Function::Initiate, pd))
    {
        return false;
    }
    m_state = INITIATE_SENT;
    return true;
}

void
SctpDdpConnection::DeferInitiate(const std::vector<uint8_t>& pd)
{
    NS_ASSERT(m_state == IDLE && m_active);
    m_deferredInitiate = pd;
}

uint32_t
SctpDdpConnection::UnackedChunks() const
{
    return m_assoc && m_assoc->GetSocket() ? m_assoc->GetSocket()->GetUnackedChunks(m_stream) : 0;
}

bool
SctpDdpConnection::Accept(const std::vector<uint8_t>& pd)
{
    if (m_state != AWAIT_ULP || pd.size() > sctpddp::kMaxPrivateData || !SendControl(sctpddp::Function::Accept, pd))
    {
        return false;
    }
    Established();
    return true;
}

bool
SctpDdpConnection::Reject(const std::vector<uint8_t>& pd)
{
    if (m_state != AWAIT_ULP || pd.size() > sctpddp::kMaxPrivateData || !SendControl(sctpddp::Function::Reject, pd))
    {
        return false;
    }
    m_held.clear(); // S-12(b): what the peer sent early is never Placed
    m_state = TERMINATED;
    return true;
}

void
SctpDdpConnection::Established()
{
    m_state = ESTABLISHED;
    NotifyMulpduChanged(GetMulpdu()); // DDP-001
    NotifyEvent(Event::Established);
    // Segments that arrived before the session opened, in the peer's order (S-12(a)).
    std::map<uint64_t, Ptr<Packet>> held;
    held.swap(m_held);
    for (auto& [ext, seg] : held)
    {
        if (m_state != ESTABLISHED)
        {
            break;
        }
        NotifyReceive(seg, ext - 1);
    }
    if (m_peerTerminateSeen && !m_peerTerminateHandled && m_rxFrontier > m_peerTerminateAt &&
        m_state == ESTABLISHED)
    {
        m_peerTerminateHandled = true;
        PeerTerminated();
    }
    if (m_wantSendReady && m_state == ESTABLISHED)
    {
        m_wantSendReady = false;
        NotifySendReady();
    }
}

bool
SctpDdpConnection::SendSegment(Ptr<Packet> segment)
{
    if (segment->GetSize() > GetMulpdu())
    {
        // SCTP-041: larger than the maximum DDP told us: refused, never handed to SCTP (no fragmentation).
        ++m_oversizeRefused;
        NS_LOG_WARN("refusing a " << segment->GetSize() << "-octet DDP segment over MULPDU " << GetMulpdu());
        return false;
    }
    if (m_state == INITIATE_SENT || m_state == IDLE)
    {
        // SCTP-036: nothing may overtake the Initiate; wait for the Accept.
        m_wantSendReady = true;
        return false;
    }
    if (m_state != ESTABLISHED || !m_assoc)
    {
        return false;
    }
    if (m_assoc->GetSocket()->GetTxAvailable() < segment->GetSize() + sctpddp::kSsnLen)
    {
        m_wantSendReady = true;
        return false;
    }
    // SCTP-044: with more than 32767 chunks of the stream unacknowledged, the peer could not place a 16-bit
    // DDP-SSN. SCTP's own buffer does not bound this (small segments), nor may DDP rely on the ULP's credits.
    // The segment stays with DDP until a SACK frees a place (OnSendSpace); the last place is the Terminate's.
    if (const uint32_t unacked = UnackedChunks(); unacked + 1 >= m_assoc->m_maxUnackedChunks)
    {
        NS_LOG_LOGIC("stream " << m_stream << ": " << unacked << " chunks unacknowledged; the segment waits");
        m_unackedLimitTrace(unacked);
        m_wantSendReady = true;
        return false;
    }
    if (!m_assoc->SendChunk(m_stream, sctpddp::kPpidSegment, m_txSsn, segment))
    {
        m_wantSendReady = true;
        return false;
    }
    ++m_txSsn;
    return true;
}

void
SctpDdpConnection::OnSendSpace()
{
    // SCTP's send callback follows every advance of the cumulative ack: the moment a deferred Initiate may go.
    if (m_deferredInitiate && m_state == IDLE && UnackedChunks() == 0)
    {
        std::vector<uint8_t> pd = std::move(*m_deferredInitiate);
        m_deferredInitiate.reset();
        if (!SendInitiate(pd))
        {
            m_deferredInitiate = std::move(pd); // no buffer space: the next send callback retries
        }
    }
    if (m_wantSendReady && m_state == ESTABLISHED)
    {
        m_wantSendReady = false;
        NotifySendReady();
    }
}

void
SctpDdpConnection::Close(CloseMode mode)
{
    NS_LOG_FUNCTION(this << m_stream << (mode == CloseMode::Graceful ? "graceful" : "abortive"));
    if (m_state == CLOSED || m_state == TERMINATED)
    {
        return;
    }
    const State was = m_state;
    m_deferredInitiate.reset(); // an Initiate never sent needs no Terminate
    if (was == INITIATE_SENT)
    {
        // SCTP-035: a Terminate now could overtake the unordered Initiate; send it once the reply is in.
        m_closeOnReply = true;
        m_held.clear();
        return;
    }
    if (was != IDLE)
    {
        // SCTP-031: this side ends the session with a Terminate, after everything it sent (S-14(a): after
        // an RDMAP Terminate, which is just another segment here). Never a Reject: only the ULP's Reject does.
        SendControl(sctpddp::Function::Terminate, {});
    }
    m_held.clear();
    const bool peerDone = m_peerTerminateSeen && m_rxFrontier > m_peerTerminateAt;
    m_state = peerDone || was == IDLE ? CLOSED : TERMINATED;
    if (mode == CloseMode::Graceful && was == ESTABLISHED)
    {
        NotifyEvent(Event::Closed); // DDP-010: the session is over once one side has terminated it
    }
}

static uint64_t
ExtendSsn(uint64_t frontier, uint16_t ssn)
{
    const int16_t d = int16_t(uint16_t(ssn - uint16_t(frontier)));
    return d < 0 && frontier < uint64_t(-int64_t(d)) ? ~uint64_t(0) : uint64_t(int64_t(frontier) + d);
}

void
SctpDdpConnection::MarkReceived(uint64_t ext)
{
    m_rxAbove.insert(ext);
    while (!m_rxAbove.empty() && *m_rxAbove.begin() == m_rxFrontier)
    {
        m_rxAbove.erase(m_rxAbove.begin());
        ++m_rxFrontier;
    }
}

void
SctpDdpConnection::Receive(uint32_t ppid, uint16_t ssn, Ptr<Packet> payload)
{
    m_rxChunkTrace(payload);
    if (m_state == CLOSED)
    {
        return;
    }
    const uint64_t ext = ExtendSsn(m_rxFrontier, ssn);
    if (ext == ~uint64_t(0) || ext < m_rxFrontier || m_rxAbove.count(ext) != 0)
    {
        NS_LOG_LOGIC("stream " << m_stream << ": DDP-SSN " << ssn << " is old or a duplicate");
        return;
    }
    if (ext - m_rxFrontier > sctpddp::kMaxSsnGap)
    {
        Violation("DDP-SSN gap no outstanding chunk explains (SCTP-045)"); // nothing allocated for it
        return;
    }
    if (m_peerTerminateSeen && ext > m_peerTerminateAt)
    {
        Violation("a chunk after the peer's Terminate (SCTP-029)");
        return;
    }
    MarkReceived(ext);
    if (ppid == sctpddp::kPpidControl)
    {
        if (payload->GetSize() < 2)
        {
            Violation("session control without a function code");
            return;
        }
        std::vector<uint8_t> b(payload->GetSize());
        payload->CopyData(b.data(), b.size());
        ReceiveControl(ext, sctpddp::Function((uint16_t(b[0]) << 8) | b[1]), {b.begin() + 2, b.end()});
    }
    else
    {
        ReceiveSegment(ext, payload);
    }
    if (m_peerTerminateSeen && !m_peerTerminateHandled && m_rxFrontier > m_peerTerminateAt && m_state != CLOSED)
    {
        m_peerTerminateHandled = true;
        PeerTerminated();
    }
}

void
SctpDdpConnection::ReceiveControl(uint64_t ext, sctpddp::Function f, const std::vector<uint8_t>& pd)
{
    using sctpddp::Function;
    if (f == Function::Terminate)
    {
        // S-13(e): a Terminate with Private Data breaks SCTP-021 but still ends the session.
        m_peerTerminateSeen = true;
        m_peerTerminateAt = ext;
        return; // acted on once every chunk before it has arrived (Receive)
    }
    if (pd.size() > sctpddp::kMaxPrivateData)
    {
        Violation("Private Data over 512 octets (SCTP-020)");
        return;
    }
    if (ext == 0 && m_active && m_state == INITIATE_SENT && (f == Function::Accept || f == Function::Reject))
    {
        ReportControl(f, pd); // SCTP-022
        if (f == Function::Accept && m_closeOnReply)
        {
            SendControl(Function::Terminate, {}); // the ULP closed while the Initiate was out
            m_state = TERMINATED;
            m_held.clear();
            return;
        }
        if (f == Function::Accept)
        {
            if (m_state == INITIATE_SENT)
            {
                Established(); // §6.2
            }
        }
        else
        {
            m_held.clear();
            m_state = CLOSED; // §6.3: the session is over, nothing is sent on it (S-07(b))
            NotifyEvent(Event::ConnectionLost);
        }
        return;
    }
    // A second Initiate, an Accept from the active side, an unknown function code ... (S-13(a)-(c)).
    Violation("session control message out of sequence (SCTP-029)");
}

void
SctpDdpConnection::ReceiveSegment(uint64_t ext, Ptr<Packet> seg)
{
    if (ext == 0)
    {
        Violation("a DDP segment before the session was opened (S-10)");
        return;
    }
    if (seg->GetSize() > GetMulpdu())
    {
        Violation("a DDP segment over the advertised maximum (SCTP-041, S-15(c))");
        return;
    }
    if (m_state == ESTABLISHED)
    {
        NotifyReceive(seg, ext - 1); // DDP-005: placed now, delivered in DDP-SSN order by DDP (SCTP-043)
        return;
    }
    if (m_state == INITIATE_SENT || m_state == AWAIT_ULP)
    {
        // Before the Accept nothing is Placed (S-12); the Accept may also just be overtaken (unordered DATA).
        if (m_held.size() >= m_maxHeld)
        {
            Violation("too many segments before the session opened");
            return;
        }
        m_held.emplace(ext, seg);
    }
    // TERMINATED: the session is over on this side; the peer's chunks are dropped.
}

void
SctpDdpConnection::PeerTerminated()
{
    const State was = m_state;
    NS_LOG_INFO("stream " << m_stream << ": the peer terminated the session in state " << ToString(was));
    m_held.clear();
    if (was == ESTABLISHED)
    {
        // DDP-009: the peer's half is closed; DDP may still send until the ULP closes (then our Terminate).
        ReportControl(sctpddp::Function::Terminate, {});
        NotifyEvent(Event::PeerGracefulClose);
        return;
    }
    m_state = CLOSED;
    if (was == INITIATE_SENT || was == AWAIT_ULP)
    {
        // A non-ULP reject (S-08) or a withdrawn Initiate: the session never opened.
        ReportControl(sctpddp::Function::Terminate, {});
        NotifyEvent(Event::ConnectionLost);
    }
    if (m_assoc && was == AWAIT_ULP)
    {
        m_assoc->Forget(m_stream);
    }
}

void
SctpDdpConnection::Violation(const char* why)
{
    if (m_state == CLOSED || m_state == TERMINATED)
    {
        return;
    }
    NS_LOG_WARN("stream " << m_stream << ": " << why << "; terminating the session");
    const State was = m_state;
    SendControl(sctpddp::Function::Terminate, {}); // SCTP-029
    m_held.clear();
    m_state = TERMINATED;
    if (was == ESTABLISHED)
    {
        // Like an MPA error, minus the Terminate allowance: RFC 5043 defines no LLP error codes, so the
        // cause is empty and RDMAP sends no Terminate of its own (doc/conformance.md §3, A35).
        NotifyEvent(Event::LlpError, iwarp::ErrorCause{});
    }
    else
    {
        if (was == INITIATE_SENT)
        {
            ReportControl(sctpddp::Function::Terminate, {}); // the connect's outcome: refused
        }
        NotifyEvent(Event::ConnectionLost); // the session never opened: the ULP's connect fails
    }
}

void
SctpDdpConnection::AssociationLost()
{
    const State was = m_state;
    const bool deferred = m_deferredInitiate.has_value(); // the ULP's connect is pending, just not sent
    m_state = CLOSED;
    m_held.clear();
    m_deferredInitiate.reset();
    if (was == INITIATE_SENT || (was == IDLE && deferred))
    {
        ReportControl(sctpddp::Function::Terminate, {}); // no answer will come: the connect's outcome
    }
    if (was != CLOSED && was != TERMINATED && (was != IDLE || deferred))
    {
        NotifyEvent(Event::ConnectionLost); // SCTP-048; no RDMAP Terminate can or should follow (SCTP-047)
    }
}

void
SctpDdpConnection::ReportControl(sctpddp::Function f, const std::vector<uint8_t>& pd)
{
    const ControlCallback control = m_control; // it may release itself (SctpDdpLlpConnector::OnControl)
    if (!control.IsNull())
    {
        control(this, f, pd);
    }
}

const char*
ToString(SctpDdpConnection::State s)
{
    switch (s)
    {
    case SctpDdpConnection::IDLE:
        return "IDLE";
    case SctpDdpConnection::INITIATE_SENT:
        return "INITIATE_SENT";
    case SctpDdpConnection::AWAIT_ULP:
        return "AWAIT_ULP";
    case SctpDdpConnection::ESTABLISHED:
        return "ESTABLISHED";
    case SctpDdpConnection::TERMINATED:
        return "TERMINATED";
    case SctpDdpConnection::CLOSED:
        return "CLOSED";
    }
    return "?";
}

const char*
sctpddp::ToString(Function f)
{
    switch (f)
    {
    case Function::Initiate:
        return "Initiate";
    case Function::Accept:
        return "Accept";
    case Function::Reject:
        return "Reject";
    case Function::Terminate:
        return "Terminate";
    }
    return "?";
}

Ptr<Socket>
SctpDdpConnection::GetSocket() const
{
    return m_assoc ? Ptr<Socket>(m_assoc->GetSocket()) : nullptr;
}

} // namespace ns3
