/*
 * MpaConnection set-up: the initiator's Request and the Reply it waits for, the responder's
 * Request, Accept and Reject, the RTR of peer-to-peer mode, and set-up failure (time-out, a bad
 * frame, TCP closing first). The object's life, errors and teardown are in mpa-connection.cc,
 * the data path in mpa-connection-data.cc.
 */
#include "mpa/mpa-connection.h"
#include "mpa/mpa-rtr.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <utility>
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(MpaConnection);

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
    // The responder must not send an FPDU before it has received one (doc/conformance.md, MPA); in peer-to-peer
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
    m_socket->Close(); // doc/conformance.md, MPA: after a reject the TCP connection is closed
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

} // namespace ns3
