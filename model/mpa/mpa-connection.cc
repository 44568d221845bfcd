/*
 * MpaConnection: connection set-up (Request/Reply, RTR), teardown and errors. The data path
 * (framing, deframing, early placement) is in mpa-connection-data.cc.
 */
#include "mpa/mpa-connection.h"
#include "mpa/mpa-rtr.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpaConnection");
NS_OBJECT_ENSURE_REGISTERED(MpaConnection);

TypeId
MpaConnection::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MpaConnection")
            .SetParent<DdpLowerLayer>()
            .SetGroupName("Iwarp")
            .AddConstructor<MpaConnection>()
            .AddAttribute("Markers",
                          "Ask the peer for markers on the data this side receives (M bit)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MpaConnection::m_wantMarkers),
                          MakeBooleanChecker())
            .AddAttribute("Crc",
                          "Ask for CRCs (C bit); CRCs are used if either side asks",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpaConnection::m_wantCrc),
                          MakeBooleanChecker())
            .AddAttribute("Revision",
                          "MPA revision offered: 1 (RFC 5044) or 2 (RFC 6581 enhanced set-up)",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MpaConnection::m_revision),
                          MakeUintegerChecker<uint8_t>(1, 2))
            .AddAttribute("PeerToPeer",
                          "Rev 2: request peer-to-peer mode, where the initiator's first FPDU is "
                          "a zero-length RDMA Write 'ready to receive' message",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpaConnection::m_peerToPeer),
                          MakeBooleanChecker())
            .AddAttribute("AlignFpdus",
                          "Hand TCP an FPDU only once TCP has sent every earlier octet, so each FPDU "
                          "starts a TCP segment (RFC 5044 FPDU alignment) even when FPDUs are shorter "
                          "than the MSS (markers, a message's last segment); false lets TCP pack "
                          "FPDUs back to back across segment boundaries",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpaConnection::m_alignFpdus),
                          MakeBooleanChecker())
            .AddAttribute("SendLowWater",
                          "Once TCP's send buffer is too full for an FPDU, ask DDP for more only when this "
                          "many octets are free (at most half the buffer), so FPDUs go to TCP in batches, "
                          "as a socket application writes after poll(), rather than one or two per ACK; "
                          "0: as soon as one FPDU fits",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&MpaConnection::m_sendLowWater),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LowerOrdToPeerIrd",
                          "Rev 2, initiator: when the Reply's IRD is below the local ORD, lower the "
                          "ORD to it (true), or end set-up with an MPA 'insufficient IRD resources' "
                          "Terminate, code 0x06 (false; RFC 6581)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpaConnection::m_lowerOrdToPeerIrd),
                          MakeBooleanChecker())
            .AddAttribute("OutOfOrderPlacement",
                          "Place FPDUs of segments TCP holds out of order on arrival (delivery "
                          "still waits for TCP's order)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MpaConnection::m_outOfOrderPlacement),
                          MakeBooleanChecker())
            .AddAttribute("InitiatorTimeout",
                          "How long the initiator waits for the Reply (Linux siw: 10 s)",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&MpaConnection::m_initiatorTimeout),
                          MakeTimeChecker())
            .AddAttribute("ResponderTimeout",
                          "How long the responder waits for the Request (Linux siw: 5 s)",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&MpaConnection::m_responderTimeout),
                          MakeTimeChecker())
            .AddTraceSource("State",
                            "The set-up state",
                            MakeTraceSourceAccessor(&MpaConnection::m_state),
                            "ns3::TracedValueCallback::Uint8")
            .AddTraceSource("FpduTx",
                            "An FPDU written to TCP (markers, pad and CRC included)",
                            MakeTraceSourceAccessor(&MpaConnection::m_fpduTxTrace),
                            "ns3::MpaConnection::FpduTracedCallback")
            .AddTraceSource("UlpduRx",
                            "A ULPDU deframed in order from the TCP stream",
                            MakeTraceSourceAccessor(&MpaConnection::m_fpduRxTrace),
                            "ns3::MpaConnection::FpduTracedCallback")
            .AddTraceSource("EarlyPlacement",
                            "A ULPDU taken from a segment TCP holds out of order",
                            MakeTraceSourceAccessor(&MpaConnection::m_earlyPlacementTrace),
                            "ns3::MpaConnection::FpduTracedCallback")
            .AddTraceSource("Error",
                            "An MPA error (Layer 2 cause)",
                            MakeTraceSourceAccessor(&MpaConnection::m_errorTrace),
                            "ns3::MpaConnection::ErrorTracedCallback");
    return tid;
}

MpaConnection::MpaConnection()
    : m_state(IDLE),
      m_wantMarkers(false),
      m_wantCrc(true),
      m_revision(2),
      m_peerToPeer(true),
      m_outOfOrderPlacement(true),
      m_initiatorTimeout(Seconds(10)),
      m_responderTimeout(Seconds(5))
{
}

MpaConnection::~MpaConnection()
{
    if (m_socket)
    {
        SocketEvents::Unhook(m_socket); // never disposed: the socket must not reach a freed sink
    }
}

void
MpaConnection::DoDispose()
{
    m_setupTimer.Cancel();
    m_closeTimer.Cancel();
    if (m_socket)
    {
        SocketEvents::Unhook(m_socket);
        m_socket->TraceDisconnectWithoutContext("HighestSequence",
                                                MakeCallback(&MpaConnection::OnTcpHighestSequence, this));
    }
    m_socket = nullptr;
    m_tcp = nullptr;
    m_requestCb = SetupFrameCallback();
    m_replyCb = SetupFrameCallback();
    m_setupFailedCb = SetupFailedCallback();
    DdpLowerLayer::DoDispose();
}

void
MpaConnection::SetState(State s)
{
    NS_LOG_INFO(this << " " << ToString(m_state) << " -> " << ToString(s));
    m_state = s;
}

void
MpaConnection::SetIrdOrd(uint16_t ird, uint16_t ord)
{
    m_ird = ird;
    m_ord = ord;
}

void
MpaConnection::HookSocket(Ptr<Socket> socket)
{
    m_socket = socket;
    // Nagle would hold a short Request/Reply or FPDU back and merge it with the next one.
    socket->SetAttributeFailSafe("TcpNoDelay", BooleanValue(true));
    SocketEvents::Hook(socket, this);
    m_tcp = DynamicCast<TcpSocketBase>(socket);
    if (m_tcp)
    {
        SocketEvents::HookTcpRx(socket);
        socket->TraceConnectWithoutContext("HighestSequence",
                                           MakeCallback(&MpaConnection::OnTcpHighestSequence, this));
    }
}

uint32_t
MpaConnection::GetEffectiveMss() const
{
    if (!m_socket)
    {
        return 536;
    }
    // ns-3's TCP carries SegmentSize payload octets per segment and puts its options (such as
    // timestamps) on top (measured: 1448-octet payloads with timestamps on), so that is the
    // EMSS an FPDU must fill to stay aligned.
    if (m_emss == 0)
    {
        UintegerValue seg;
        m_socket->GetAttribute("SegmentSize", seg);
        m_emss = uint32_t(seg.Get());
    }
    return m_emss;
}

// ------------------------------------------------------------------ initiator

void
MpaConnection::StartInitiator(Ptr<Socket> socket, const std::vector<uint8_t>& privateData)
{
    NS_ABORT_MSG_IF(privateData.size() > iwarp::kMpaMaxPrivateData - (m_revision == 2 ? 4 : 0),
                    "MPA private data of " << privateData.size() << " octets is too long");
    m_initiator = true;
    m_localPrivateData = privateData;
    HookSocket(socket);
    SocketEvents::HookConnect(socket);
    SetState(AWAIT_TCP);
}

void
MpaConnection::OnSocketConnected(Ptr<Socket>)
{
    MpaSetupFrame req(MpaFrameKind::Request);
    req.SetMarkers(m_wantMarkers);
    req.SetCrc(m_wantCrc);
    req.SetRev(m_revision);
    if (m_revision == iwarp::kMpaRev2)
    {
        req.SetEnhanced(true);
        req.SetIrd(m_ird);
        req.SetOrd(m_ord);
        req.SetPeerToPeer(m_peerToPeer);
        req.SetRtrWrite(m_peerToPeer); // the RTR this side can send: a zero-length Write
    }
    req.SetPrivateData(m_localPrivateData);
    SendSetupFrame(req);
    SetState(AWAIT_REPLY);
    m_setupTimer = Simulator::Schedule(m_initiatorTimeout, &MpaConnection::OnSetupTimeout, this);
}

void
MpaConnection::OnSocketConnectFailed(Ptr<Socket>)
{
    SetupFailed(iwarp::MpaErrorCause(iwarp::MpaError::TcpClosed));
}

void
MpaConnection::OnReply(const MpaSetupFrame& f)
{
    m_setupTimer.Cancel();
    if (f.GetReject())
    {
        NS_LOG_INFO("the responder rejected the connection");
        ReportReply(f);
        SetState(CLOSED);
        m_socket->Close();
        return;
    }
    m_txMarkers = f.GetMarkers(); // the responder asked for markers on what it receives
    m_rxMarkers = m_wantMarkers;
    m_crc = m_wantCrc || f.GetCrc();
    m_tx = std::make_unique<MpaFpduSender>(m_txMarkers, m_crc);
    m_rx = std::make_unique<MpaFpduReceiver>(m_rxMarkers, m_crc);
    const bool p2p = f.GetRev() == iwarp::kMpaRev2 && f.IsPeerToPeer();
    if (p2p && !f.GetRtrWrite())
    {
        // RFC 6581: the Reply must pick an RTR type the initiator offered.
        RefuseReply(iwarp::MpaError::NoMatchingRtr);
        return;
    }
    if (f.GetRev() == iwarp::kMpaRev2 && f.IsEnhanced() && f.GetIrd() < m_ord)
    {
        // More Reads could be outstanding than the responder can take in (RFC 6581).
        if (!m_lowerOrdToPeerIrd)
        {
            RefuseReply(iwarp::MpaError::InsufficientIrd);
            return;
        }
        NS_LOG_INFO("ORD " << m_ord << " lowered to the responder's IRD " << f.GetIrd());
        m_ord = f.GetIrd();
    }
    BecomeEstablished();
    if (p2p)
    {
        SendRtr();
    }
    ReportReply(f);
}

void
MpaConnection::ReportReply(const MpaSetupFrame& f)
{
    // Set-up ends here: the set-up callbacks (with what the connector bound into them) are released
    // rather than kept for the connection's life; a copy keeps the one being called alive through
    // the call.
    const SetupFrameCallback reply = std::exchange(m_replyCb, SetupFrameCallback());
    m_setupFailedCb = SetupFailedCallback();
    if (!reply.IsNull())
    {
        reply(this, f);
    }
}

void
MpaConnection::RefuseReply(iwarp::MpaError e)
{
    // The stream learns it first (FAILED: its ULP may send the one Terminate RFC 6581 asks for,
    // then MPA closes), then the connector: a refused Reply is the connect's outcome.
    OnMpaError(e);
    ReportSetupFailure(iwarp::MpaErrorCause(e));
}

void
MpaConnection::SendRtr()
{
    Ptr<Packet> fpdu = m_tx->Frame(MakeMpaRtr()); // a zero-length RDMA Write (RFC 6581 §3)
    WriteToTcp(fpdu);
    m_fpduTxTrace(fpdu);
}

// ------------------------------------------------------------------ responder

void
MpaConnection::StartResponder(Ptr<Socket> socket)
{
    m_initiator = false;
    HookSocket(socket);
    SetState(AWAIT_REQUEST);
    m_setupTimer = Simulator::Schedule(m_responderTimeout, &MpaConnection::OnSetupTimeout, this);
    Simulator::ScheduleNow(&MpaConnection::OnSocketRecv, this, socket); // data may already be queued
}

void
MpaConnection::OnRequest(const MpaSetupFrame& f)
{
    m_setupTimer.Cancel();
    m_txMarkers = f.GetMarkers();
    m_rxMarkers = m_wantMarkers;
    m_crc = m_wantCrc || f.GetCrc();
    SetState(AWAIT_ULP_DECISION);
    // A Request comes once: its callback is released (see ReportReply).
    const SetupFrameCallback request = std::exchange(m_requestCb, SetupFrameCallback());
    if (request.IsNull())
    {
        Accept({}); // no connection manager: accept with no private data
        return;
    }
    request(this, f);
}

void
MpaConnection::Accept(const std::vector<uint8_t>& privateData)
{
    NS_ABORT_MSG_IF(m_state != AWAIT_ULP_DECISION, "Accept without a pending MPA Request");
    const bool rev2 = m_revision == iwarp::kMpaRev2 && m_peerFrame.GetRev() == iwarp::kMpaRev2;
    const bool p2p = rev2 && m_peerFrame.IsPeerToPeer() && m_peerToPeer;
    if (p2p && !m_peerFrame.GetRtrWrite())
    {
        Reject(privateData); // no RTR type in common (RFC 6581)
        return;
    }
    MpaSetupFrame rep(MpaFrameKind::Reply);
    rep.SetMarkers(m_wantMarkers);
    rep.SetCrc(m_wantCrc);
    rep.SetRev(rev2 ? iwarp::kMpaRev2 : iwarp::kMpaRev1);
    if (rev2)
    {
        rep.SetEnhanced(true);
        rep.SetIrd(m_ird);
        rep.SetOrd(m_ord);
        rep.SetPeerToPeer(p2p);
        rep.SetRtrWrite(p2p);
    }
    rep.SetPrivateData(privateData);
    SendSetupFrame(rep);
    m_tx = std::make_unique<MpaFpduSender>(m_txMarkers, m_crc);
    m_rx = std::make_unique<MpaFpduReceiver>(m_rxMarkers, m_crc);
    // The responder must not send an FPDU before it has received one (MPA.md); in peer-to-peer
    // mode that first FPDU is the RTR, which is consumed here.
    m_rtrPending = p2p;
    SetState(AWAIT_RTR);
    NotifyEvent(Event::Established);
    AnnounceMulpdu();
    if (!m_setupBuf.empty())
    {
        m_rx->Push(m_setupBuf.data(), m_setupBuf.size());
        m_setupBuf.clear();
        DeframeInOrder();
    }
}

void
MpaConnection::Reject(const std::vector<uint8_t>& privateData)
{
    NS_ABORT_MSG_IF(m_state != AWAIT_ULP_DECISION, "Reject without a pending MPA Request");
    MpaSetupFrame rep(MpaFrameKind::Reply);
    rep.SetReject(true);
    rep.SetCrc(m_wantCrc);
    rep.SetRev(m_peerFrame.GetRev() == iwarp::kMpaRev2 && m_revision == 2 ? 2 : 1);
    rep.SetPrivateData(privateData);
    SendSetupFrame(rep);
    SetState(CLOSED);
    m_socket->Close(); // MPA.md: after a reject the TCP connection is closed
}

// ------------------------------------------------------------------ shared set-up

void
MpaConnection::SendSetupFrame(const MpaSetupFrame& f)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(f);
    WriteToTcp(p);
}

bool
MpaConnection::ConsumeSetup()
{
    const MpaFrameKind expected = m_initiator ? MpaFrameKind::Reply : MpaFrameKind::Request;
    MpaSetupFrame f(expected);
    size_t consumed = 0;
    iwarp::MpaError err = iwarp::MpaError::InvalidRequestReply;
    const auto st =
        MpaSetupFrame::TryParse(expected, m_setupBuf.data(), m_setupBuf.size(), &f, &consumed, &err);
    if (st == MpaSetupFrame::ParseStatus::NeedMore)
    {
        return false;
    }
    if (st == MpaSetupFrame::ParseStatus::Error)
    {
        NS_LOG_WARN("bad MPA " << (m_initiator ? "Reply" : "Request"));
        SetupFailed(iwarp::MpaErrorCause(err));
        return false;
    }
    m_peerFrame = f;
    m_rxStreamBase = m_rxStreamBase + uint32_t(consumed); // stream offset 0 follows the frame
    m_rxStreamBaseKnown = true;
    m_setupBuf.erase(m_setupBuf.begin(), m_setupBuf.begin() + consumed);
    if (m_initiator)
    {
        OnReply(f);
        if (m_rx && !m_setupBuf.empty())
        {
            m_rx->Push(m_setupBuf.data(), m_setupBuf.size());
            m_setupBuf.clear();
            DeframeInOrder();
        }
    }
    else
    {
        OnRequest(f); // leftover octets wait in m_setupBuf until Accept
    }
    return true;
}

void
MpaConnection::BecomeEstablished()
{
    SetState(ESTABLISHED);
    NotifyEvent(Event::Established);
    AnnounceMulpdu();
    if (m_wantSendReady)
    {
        m_wantSendReady = false;
        NotifySendReady();
    }
}

void
MpaConnection::OnSetupTimeout()
{
    NS_LOG_WARN("MPA set-up timed out in state " << ToString(m_state));
    SetupFailed(iwarp::MpaErrorCause(iwarp::MpaError::TcpClosed));
}

void
MpaConnection::SetupFailed(iwarp::ErrorCause cause)
{
    if (m_state == CLOSED)
    {
        return;
    }
    m_setupTimer.Cancel();
    m_errorTrace(cause);
    SetState(CLOSED);
    if (m_socket)
    {
        m_socket->Close();
    }
    ReportSetupFailure(cause);
    NotifyEvent(Event::ConnectionLost);
}

void
MpaConnection::ReportSetupFailure(iwarp::ErrorCause cause)
{
    // Set-up ends here too: all set-up callbacks are released; the failure is told once, from a copy.
    const SetupFailedCallback failed = std::exchange(m_setupFailedCb, SetupFailedCallback());
    m_replyCb = SetupFrameCallback();
    m_requestCb = SetupFrameCallback();
    if (!failed.IsNull())
    {
        failed(this, cause);
    }
}

// ------------------------------------------------------------------ errors and teardown

void
MpaConnection::OnMpaError(iwarp::MpaError e)
{
    if (m_state == FAILED || m_state == CLOSED)
    {
        return;
    }
    const iwarp::ErrorCause cause = iwarp::MpaErrorCause(e);
    NS_LOG_WARN("MPA error " << iwarp::ToString(e));
    m_errorTrace(cause);
    SetState(FAILED);
    // The ULP may send one Terminate (DDP-057); then the connection closes. If it sends none,
    // close after a grace period.
    m_terminateAllowance = true;
    m_closeTimer = Simulator::Schedule(MilliSeconds(100), &MpaConnection::Close, this, CloseMode::Graceful);
    NotifyEvent(Event::LlpError, cause);
}

void
MpaConnection::Close(CloseMode mode)
{
    if (m_state == CLOSED)
    {
        return;
    }
    NS_LOG_FUNCTION(this << (mode == CloseMode::Graceful ? "graceful" : "abortive"));
    m_setupTimer.Cancel();
    m_closeTimer.Cancel();
    SetState(CLOSED);
    if (!m_socket)
    {
        return;
    }
    if (mode == CloseMode::Abortive)
    {
        // ns-3's socket API has no abortive close; stop reading so nothing more is handed up.
        m_socket->ShutdownRecv();
    }
    m_socket->Close(); // data already written still leaves, then FIN
}

bool
MpaConnection::InSetup() const
{
    return m_state == AWAIT_TCP || m_state == AWAIT_REQUEST || m_state == AWAIT_REPLY ||
           m_state == AWAIT_ULP_DECISION;
}

void
MpaConnection::OnSocketNormalClose(Ptr<Socket>)
{
    if (m_state == ESTABLISHED || m_state == AWAIT_RTR || m_state == FAILED)
    {
        NotifyEvent(Event::PeerGracefulClose); // DDP-009
    }
    else if (m_state != CLOSED)
    {
        SetupFailed(iwarp::MpaErrorCause(iwarp::MpaError::TcpClosed));
    }
}

void
MpaConnection::OnSocketErrorClose(Ptr<Socket>)
{
    if (InSetup())
    {
        // TCP gave up (retransmissions exhausted) before set-up ended: the connect's outcome.
        SetupFailed(iwarp::MpaErrorCause(iwarp::MpaError::TcpClosed));
        return;
    }
    const State was = m_state;
    SetState(CLOSED);
    if (was != CLOSED)
    {
        NotifyEvent(Event::ConnectionLost);
    }
}

const char*
ToString(MpaConnection::State s)
{
    switch (s)
    {
    case MpaConnection::IDLE:
        return "IDLE";
    case MpaConnection::AWAIT_TCP:
        return "AWAIT_TCP";
    case MpaConnection::AWAIT_REQUEST:
        return "AWAIT_REQUEST";
    case MpaConnection::AWAIT_REPLY:
        return "AWAIT_REPLY";
    case MpaConnection::AWAIT_ULP_DECISION:
        return "AWAIT_ULP_DECISION";
    case MpaConnection::AWAIT_RTR:
        return "AWAIT_RTR";
    case MpaConnection::ESTABLISHED:
        return "ESTABLISHED";
    case MpaConnection::FAILED:
        return "FAILED";
    case MpaConnection::CLOSED:
        return "CLOSED";
    }
    return "?";
}

} // namespace ns3
