/*
 * SctpSocket: association set-up (four-way handshake with an authenticated State Cookie), teardown
 * (SHUTDOWN sequence, ABORT) and the state machine. RFC 9260 §5, §8, §9.
 */
#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket.h"

#include "common/iwarp-constants.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(SctpSocket);

uint32_t
SctpSocket::RandomNonZero32()
{
    return uint32_t(m_rng->GetInteger(1, 0xFFFFFFFFu));
}

// ------------------------------------------------------------------------------------------- state machine

void
SctpSocket::Fire(SctpEvent e)
{
    SctpState from = m_state;
    std::optional<SctpState> to = SctpNextState(from, e);
    if (!to)
    {
        NS_LOG_LOGIC(SctpStateName(from) << ": event " << SctpEventName(e) << " ignored");
        return;
    }
    NS_LOG_INFO(SctpStateName(from) << " --" << SctpEventName(e) << "--> " << SctpStateName(*to));
    if (*to == SctpState::Closed)
    {
        m_abortive = e == SctpEvent::AbortCmd || e == SctpEvent::RcvAbort || e == SctpEvent::RetransLimit;
    }
    m_state = *to;
    OnStateEntered(from);
}

void
SctpSocket::OnStateEntered(SctpState from)
{
    Ptr<SctpSocket> self = this;
    switch (m_state)
    {
    case SctpState::CookieWait:
        m_myTag = RandomNonZero32();
        m_initRetries = 0;
        ResetPaths(m_peerAddress);
        SyncTraces();
        SendInit();
        break;
    case SctpState::CookieEchoed:
        m_initRetries = 0;
        SendCookieEcho();
        break;
    case SctpState::Established:
        m_t1.Cancel();
        m_errorCount = 0;
        for (size_t p = 0; p < m_paths.size(); ++p)
        {
            StartHeartbeats(uint8_t(p));
        }
        if (m_passive)
        {
            Ptr<SctpSocket> l = m_listener;
            m_listener = nullptr;
            if (l != nullptr)
            {
                l->NotifyNewConnectionCreated(this, InetSocketAddress(m_peerAddress, m_peerPort));
            }
        }
        else
        {
            NotifyConnectionSucceeded();
        }
        TrySend(); // data queued during the handshake
        break;
    case SctpState::ShutdownPending:
    case SctpState::ShutdownReceived:
        CheckAllDataAcked();
        break;
    case SctpState::ShutdownSent:
        m_errorCount = 0;
        SendShutdown();
        break;
    case SctpState::ShutdownAckSent:
        m_t2.Cancel();
        m_errorCount = 0;
        SendShutdownAck();
        break;
    case SctpState::Closed:
        m_t1.Cancel();
        m_t2.Cancel();
        m_sackTimer.Cancel();
        for (SctpPath& p : m_paths)
        {
            p.CancelTimers();
        }
        if (m_registered)
        {
            UnregisterPaths();
            m_registered = false;
        }
        ReleaseLocalPort();
        if (!m_closeNotified)
        {
            m_closeNotified = true;
            if (from == SctpState::CookieWait || from == SctpState::CookieEchoed)
            {
                m_errno = ERROR_NOTCONN;
                NotifyConnectionFailed();
            }
            else if (m_abortive)
            {
                m_errno = ERROR_SHUTDOWN;
                NotifyErrorClose();
            }
            else
            {
                NotifyNormalClose();
            }
        }
        break;
    }
}

// ------------------------------------------------------------------------------------------- active set-up

void
SctpSocket::SendInit()
{
    auto init = std::make_shared<SctpInitChunk>(false);
    init->SetInitiateTag(m_myTag);
    init->SetArwnd(m_rcvBufSize);
    init->SetOutboundStreams(m_requestedOutStreams);
    init->SetInboundStreams(m_maxInStreams);
    if (m_txq.Empty() && m_initRetries == 0)
    {
        // The initial TSN is chosen once; data queued before Connect() already has TSNs from it.
        uint32_t itsn = RandomNonZero32();
        m_txq.Reset(itsn);
    }
    init->SetInitialTsn(m_txq.GetCumAckPoint() + 1);
    init->SetSupportedAddressTypes({5});
    for (Ipv4Address a : AdvertisedAddresses())
    {
        init->AddIpv4Address(a);
    }
    uint32_t preservative = std::max(m_cookiePreservativeMs, m_stalePreservativeMs);
    if (preservative > 0)
    {
        init->SetCookiePreservative(preservative);
    }
    if (m_sendAdaptation)
    {
        init->SetAdaptationIndication(m_adaptationCode);
    }
    SendChunks({init}, 0);
    m_t1 = Simulator::Schedule(m_paths[0].rto.GetRto(), &SctpSocket::T1Expired, this);
}

void
SctpSocket::T1Expired()
{
    if (++m_initRetries > m_maxInitRetransmits)
    {
        Fire(SctpEvent::RetransLimit);
        return;
    }
    m_paths[0].rto.BackOff();
    SyncTraces();
    if (m_state == SctpState::CookieWait)
    {
        SendInit();
    }
    else if (m_state == SctpState::CookieEchoed)
    {
        SendCookieEcho();
    }
}

void
SctpSocket::HandleInitAck(const SctpInitChunk& ack)
{
    auto cookie = ack.GetStateCookie();
    if (ack.GetInitiateTag() == 0 || ack.GetOutboundStreams() == 0 || ack.GetInboundStreams() == 0)
    {
        SendAbort(SctpCauseCode::InvalidMandatoryParameter, {});
        Fire(SctpEvent::AbortCmd);
        return;
    }
    if (!cookie)
    {
        std::vector<uint8_t> v;
        sctp::PutU32(v, 1); // one missing parameter
        sctp::PutU16(v, uint16_t(SctpParamType::StateCookie));
        SendAbort(SctpCauseCode::MissingMandatoryParameter, v);
        Fire(SctpEvent::AbortCmd);
        return;
    }
    m_t1.Cancel();
    m_cookie = *cookie;
    // Parameters we do not know whose type asks for a report go back in an ERROR bundled with the
    // COOKIE ECHO (§3.2.1, §5.1 C); the handshake goes on either way.
    m_initAckUnknown.clear();
    ack.CheckUnknownParameters(&m_initAckUnknown);
    m_peerAdaptation.reset();
    if (auto a = ack.GetAdaptationIndication())
    {
        m_peerAdaptation = *a;
    }
    AddPeerAddresses(ack.GetIpv4Addresses()); // §5.1.2: besides the one connected to
    InitTcb(m_myTag,
            ack.GetInitiateTag(),
            m_txq.GetCumAckPoint() + 1,
            ack.GetInitialTsn(),
            ack.GetArwnd(),
            std::min(m_requestedOutStreams, ack.GetInboundStreams()),
            std::min(m_maxInStreams, ack.GetOutboundStreams()));
    Fire(SctpEvent::RcvInitAck);
}

void
SctpSocket::InitTcb(uint32_t myTag,
                    uint32_t peerTag,
                    uint32_t myItsn,
                    uint32_t peerItsn,
                    uint32_t peerArwnd,
                    uint16_t outStreams,
                    uint16_t inStreams)
{
    m_myTag = myTag;
    m_peerTag = peerTag;
    m_outStreams = outStreams;
    m_inStreams = inStreams;
    if (m_txq.Empty())
    {
        m_txq.Reset(myItsn);
    }
    m_rxq.Reset(peerItsn, inStreams, m_rcvBufSize);
    m_peerRwnd = peerArwnd;
    ObjectFactory f;
    f.SetTypeId(m_ccTypeId);
    m_ccOps = f.Create<SctpCongestionOps>();
    for (SctpPath& p : m_paths) // §7.2.1: every destination starts with its own window
    {
        p.cc = SctpCcState{};
        p.cc.mtu = m_pmtu - iwarp::kIpv4HeaderLen; // what SCTP may put in one IPv4 packet
        p.cc.initialCwndMtus = m_initialCwnd;
        m_ccOps->Init(p.cc, peerArwnd);
    }
    SyncTraces();
}

void
SctpSocket::SendCookieEcho()
{
    auto ce = std::make_shared<SctpCookieEchoChunk>();
    ce->SetCookie(m_cookie);
    std::vector<std::shared_ptr<SctpChunk>> chunks{ce};
    if (!m_initAckUnknown.empty())
    {
        std::vector<uint8_t> v;
        for (const auto& u : m_initAckUnknown)
        {
            sctp::PutU16(v, u.type);
            sctp::PutU16(v, uint16_t(u.Length()));
            v.insert(v.end(), u.value.begin(), u.value.end());
            v.resize(v.size() + sctp::PadLen(u.Length()), 0);
        }
        auto err = std::make_shared<SctpErrorChunk>(SctpChunkType::Error);
        err->AddCause(SctpCauseCode::UnrecognizedParameters, std::move(v));
        chunks.push_back(err); // COOKIE ECHO must come first in the packet
    }
    SendChunksTo(chunks, 0, m_peerTag);
    m_cookieEchoSent = Simulator::Now();
    m_t1.Cancel();
    m_t1 = Simulator::Schedule(m_paths[0].rto.GetRto(), &SctpSocket::T1Expired, this);
}

// ------------------------------------------------------------------------------------------- passive set-up

void
SctpSocket::HandleInitAsListener(const SctpPacket& pkt, const SctpInitChunk& init, Ipv4Address src)
{
    SctpPacket reply;
    reply.header.SetSourcePort(m_localPort);
    reply.header.SetDestinationPort(pkt.header.GetSourcePort());
    reply.header.SetVerificationTag(init.GetInitiateTag());
    if (init.GetInitiateTag() == 0 || init.GetOutboundStreams() == 0 || init.GetInboundStreams() == 0)
    {
        // §3.3.2: an invalid INIT is answered with an ABORT carrying the tag of the INIT.
        auto abort = std::make_shared<SctpErrorChunk>(SctpChunkType::Abort);
        abort->AddCause(SctpCauseCode::InvalidMandatoryParameter, {});
        reply.Add(abort);
        m_sctp->SendPacket(reply, m_localAddress, src);
        return;
    }
    // No state is kept: everything goes into the cookie, which the peer echoes back.
    SctpCookie c;
    c.created = Simulator::Now();
    c.lifetime = m_validCookieLife;
    if (auto pres = init.GetCookiePreservative())
    {
        c.lifetime += MilliSeconds(std::min<uint32_t>(*pres, 60000));
    }
    c.myTag = RandomNonZero32();
    c.peerTag = init.GetInitiateTag();
    c.myInitialTsn = RandomNonZero32();
    c.peerInitialTsn = init.GetInitialTsn();
    c.peerArwnd = init.GetArwnd();
    c.outStreams = std::min(m_requestedOutStreams, init.GetInboundStreams());
    c.inStreams = std::min(m_maxInStreams, init.GetOutboundStreams());
    c.localPort = m_localPort;
    c.peerPort = pkt.header.GetSourcePort();
    c.peerAddress = src;
    c.otherPeerAddresses = init.GetIpv4Addresses();
    if (auto a = init.GetAdaptationIndication())
    {
        c.hasPeerAdaptation = true;
        c.peerAdaptation = *a;
    }
    auto ack = std::make_shared<SctpInitChunk>(true);
    ack->SetInitiateTag(c.myTag);
    ack->SetArwnd(m_rcvBufSize);
    ack->SetOutboundStreams(c.outStreams);
    ack->SetInboundStreams(m_maxInStreams);
    ack->SetInitialTsn(c.myInitialTsn);
    ack->SetStateCookie(c.Encode(m_sctp->GetSecret()));
    for (Ipv4Address a : AdvertisedAddresses())
    {
        ack->AddIpv4Address(a);
    }
    if (m_sendAdaptation)
    {
        ack->SetAdaptationIndication(m_adaptationCode);
    }
    std::vector<SctpTlv> unknown;
    init.CheckUnknownParameters(&unknown);
    for (const auto& u : unknown)
    {
        ack->AddUnrecognizedParameter(u);
    }
    m_chunkTxTrace(*ack);
    reply.Add(ack);
    m_sctp->SendPacket(reply, m_localAddress, src);
}

void
SctpSocket::HandleCookieEchoAsListener(const SctpPacket& pkt,
                                       const std::vector<uint8_t>& cookieBytes,
                                       Ipv4Address src)
{
    SctpCookie c;
    Time staleness;
    SctpCookie::Check check =
        SctpCookie::Decode(cookieBytes, m_sctp->GetSecret(), Simulator::Now(), &c, &staleness);
    if (check == SctpCookie::Check::Stale)
    {
        // §5.1.5 (3): an authentic but expired cookie is reported (Stale Cookie), not silently dropped.
        SctpPacket reply;
        reply.header.SetSourcePort(m_localPort);
        reply.header.SetDestinationPort(pkt.header.GetSourcePort());
        reply.header.SetVerificationTag(c.peerTag); // the peer checks its own tag on an ERROR
        auto err = std::make_shared<SctpErrorChunk>(SctpChunkType::Error);
        err->AddStaleCookie(uint32_t(std::min<int64_t>(staleness.GetMicroSeconds(), 0xFFFFFFFF)));
        reply.Add(err);
        m_sctp->SendPacket(reply, m_localAddress, src);
        return;
    }
    if (check != SctpCookie::Check::Ok)
    {
        NS_LOG_INFO("COOKIE ECHO from " << src << " refused (forged, altered or malformed cookie)");
        return; // §5.1.5 (2): silently discarded
    }
    // The cookie names the association it was made for; it must arrive from there, tagged as agreed.
    if (c.peerAddress != src || c.peerPort != pkt.header.GetSourcePort() || c.localPort != m_localPort ||
        pkt.header.GetVerificationTag() != c.myTag)
    {
        NS_LOG_INFO("COOKIE ECHO does not match its cookie; discarded");
        return;
    }
    if (!NotifyConnectionRequest(InetSocketAddress(src, c.peerPort)))
    {
        return;
    }
    Ptr<SctpSocket> s = DynamicCast<SctpSocket>(m_sctp->CreateSocket());
    s->CopyConfigFrom(this);
    s->m_localPort = m_sctp->AllocatePort(m_localPort);
    s->m_portHeld = true;
    s->m_localAddress = m_localAddress == Ipv4Address::GetAny() ? m_sctp->SourceFor(src) : m_localAddress;
    s->m_peerAddress = src;
    s->m_peerPort = c.peerPort;
    s->ResetPaths(src); // the INIT's source is the primary
    if (!m_sctp->AddAssociation(s->m_localPort, src, c.peerPort, s))
    {
        s->ReleaseLocalPort();
        return; // already set up (a retransmitted COOKIE ECHO goes to that socket, not here)
    }
    s->m_registered = true;
    s->m_passive = true;
    s->m_listener = this;
    if (c.hasPeerAdaptation)
    {
        s->m_peerAdaptation = c.peerAdaptation;
    }
    s->AddPeerAddresses(c.otherPeerAddresses);
    s->InitTcb(c.myTag, c.peerTag, c.myInitialTsn, c.peerInitialTsn, c.peerArwnd, c.outStreams, c.inStreams);
    s->SendChunks({std::make_shared<SctpEmptyChunk>(SctpChunkType::CookieAck)});
    s->Fire(SctpEvent::CookieAccepted);
    // DATA bundled behind the COOKIE ECHO belongs to the new association.
    if (pkt.chunks.size() > 1)
    {
        s->DispatchChunks(pkt, 1);
    }
}

// ------------------------------------------------------------------------------------------- teardown

void
SctpSocket::CheckAllDataAcked()
{
    if ((m_state == SctpState::ShutdownPending || m_state == SctpState::ShutdownReceived) && m_txq.Empty())
    {
        Fire(SctpEvent::AllDataAcked);
    }
}

void
SctpSocket::SendShutdown()
{
    auto sd = std::make_shared<SctpShutdownChunk>();
    sd->SetCumTsnAck(m_rxq.GetCumTsn());
    SendChunks({sd});
    m_t2.Cancel();
    m_t2 = Simulator::Schedule(DataPath().rto.GetRto(), &SctpSocket::T2Expired, this);
}

void
SctpSocket::SendShutdownAck()
{
    SendChunks({std::make_shared<SctpEmptyChunk>(SctpChunkType::ShutdownAck)});
    m_t2.Cancel();
    m_t2 = Simulator::Schedule(DataPath().rto.GetRto(), &SctpSocket::T2Expired, this);
}

void
SctpSocket::T2Expired()
{
    DataPath().rto.BackOff();
    SyncTraces();
    if (CountPathError(m_dataPath)) // the next SHUTDOWN may go to an alternate (§9.2)
    {
        return;
    }
    if (m_state == SctpState::ShutdownSent)
    {
        SendShutdown();
    }
    else if (m_state == SctpState::ShutdownAckSent)
    {
        SendShutdownAck();
    }
}

void
SctpSocket::HandleShutdown(const SctpShutdownChunk& c)
{
    // The Cumulative TSN Ack of a SHUTDOWN acknowledges like a SACK without gaps (§9.2).
    ProcessCumAck(c.GetCumTsnAck(), {}, m_peerRwnd + m_txq.GetFlightSize());
    if (m_state == SctpState::ShutdownAckSent)
    {
        return;
    }
    Fire(SctpEvent::RcvShutdown);
}

void
SctpSocket::SendAbort(SctpCauseCode cause, std::vector<uint8_t> info)
{
    if (m_state == SctpState::Closed || m_state == SctpState::CookieWait)
    {
        return; // no peer tag to use yet
    }
    auto abort = std::make_shared<SctpErrorChunk>(SctpChunkType::Abort);
    abort->AddCause(cause, std::move(info));
    SendChunks({abort});
}

void
SctpSocket::HandleAbort(const SctpErrorChunk& c, uint32_t vtag)
{
    // With T clear the tag must be ours, with T set the peer's own (§8.5.1 B).
    if ((c.GetTBit() && vtag != m_peerTag) || (!c.GetTBit() && vtag != m_myTag))
    {
        return;
    }
    NS_LOG_INFO("association aborted by the peer");
    Fire(SctpEvent::RcvAbort);
}

} // namespace ns3
