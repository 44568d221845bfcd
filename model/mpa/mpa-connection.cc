/*
 * MpaConnection: the object's life (attributes, traces, disposal), the socket it hooks, its
 * state, MPA errors and teardown. Connection set-up (Request/Reply, RTR) is in
 * mpa-connection-setup.cc, the data path (framing, deframing, early placement) in
 * mpa-connection-data.cc.
 */
#include "mpa/mpa-connection.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(MpaConnection)
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
