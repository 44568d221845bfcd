#include "rnic/roce-connector.h"

#include "roce/roce-packet.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceConnector");
NS_OBJECT_ENSURE_REGISTERED(RoceConnector);

namespace
{
/** rdma_cm's Service ID prefix for its TCP port space (RDMA_PS_TCP, 0x0106). */
constexpr uint64_t kServiceIdTcpSpace = 0x0000000001060000ULL;
/** REJ reasons (IBA §12.6.7.2, table 112): no such service, and the consumer's own refusal. */
constexpr uint16_t kRejInvalidServiceId = 8;
/** rdma_cm waits timeout code 20 (4.3 s) for a CM answer. */
constexpr uint8_t kResponseTimeoutCode = 20;
} // namespace

/** A REQ waiting for the listener's answer. */
class RoceConnector::Request : public ConnectionRequest
{
  public:
    uint32_t commId{0}; ///< the session it opened here
    RoceCmFields req;
};

TypeId
RoceConnector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceConnector")
            .SetParent<LlpConnector>()
            .SetGroupName("Iwarp")
            .AddConstructor<RoceConnector>()
            .AddAttribute("ResponseTimeout",
                          "How long a CM message waits for its answer before it is sent again (rdma_cm's "
                          "CM response timeout, code 20: 4.096 us * 2^20)",
                          TimeValue(NanoSeconds(roce::IbTimeoutNs(kResponseTimeoutCode))),
                          MakeTimeAccessor(&RoceConnector::m_responseTimeout), MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("MaxRetries", "Times a CM message is sent again before set-up is given up (rdma_cm's 15)",
                          UintegerValue(15), MakeUintegerAccessor(&RoceConnector::m_maxRetries),
                          MakeUintegerChecker<uint32_t>(0, 15))
            .AddAttribute("InitialPsn",
                          "The first PSN each connection sends. rdma_cm draws a random one; the model takes this "
                          "one so runs repeat exactly (a value near 2^24 exercises the PSN wrap)",
                          UintegerValue(0), MakeUintegerAccessor(&RoceConnector::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, roce::kPsnMask));
    return tid;
}

RoceConnector::RoceConnector() = default;

uint64_t
RoceConnector::ServiceIdOf(uint16_t port)
{
    return kServiceIdTcpSpace | port;
}

void
RoceConnector::DoDispose()
{
    for (auto& [id, s] : m_sessions)
    {
        Simulator::Cancel(s.timer);
        s.conn = nullptr;
        s.done = ConnectCallback();
    }
    m_sessions.clear();
    m_listening.clear();
    if (m_stack)
    {
        m_stack->UnregisterGsi(this);
        m_stack = nullptr;
    }
    LlpConnector::DoDispose();
}

Ptr<RoceStack>
RoceConnector::Stack()
{
    if (!m_stack)
    {
        m_stack = RoceStack::Get(GetNode());
        m_stack->RegisterGsi(this);
    }
    return m_stack;
}

uint32_t
RoceConnector::NewSession()
{
    const uint32_t id = m_nextCommId++;
    m_sessions[id] = Session();
    return id;
}

RoceConnector::Session*
RoceConnector::Find(uint32_t localCommId)
{
    auto it = m_sessions.find(localCommId);
    return it == m_sessions.end() ? nullptr : &it->second;
}

RoceConnector::Session*
RoceConnector::FindByPeer(Ipv4Address peer, uint32_t remoteCommId)
{
    for (auto& [id, s] : m_sessions)
    {
        if (s.peer == peer && s.remoteCommId == remoteCommId)
        {
            return &s;
        }
    }
    return nullptr;
}

void
RoceConnector::Listen(uint16_t port, RequestCallback cb)
{
    Stack();
    NS_ABORT_MSG_IF(m_listening.count(port), "RoCEv2: already listening on port " << port);
    m_listening[port] = cb;
}

void
RoceConnector::Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird, uint16_t ord,
                       StreamCallback stream, ConnectCallback done)
{
    NS_ABORT_MSG_IF(privateData.size() > MaxPrivateData(CmMessage::Req),
                    "RoCEv2's CM REQ holds at most " << MaxPrivateData(CmMessage::Req) << " octets of private data, "
                                                     << "not " << privateData.size());
    const InetSocketAddress to = InetSocketAddress::ConvertFrom(remote);
    const uint32_t id = NewSession();
    Session& s = m_sessions[id];
    s.peer = to.GetIpv4();
    s.done = done;
    s.ord = ord;
    s.conn = CreateObject<RoceConnection>();
    ConfigurePart(s.conn);
    s.conn->Open(Stack());
    RoceConnectionParams& p = s.conn->Params();
    p.local = Stack()->SourceFor(s.peer);
    p.remote = s.peer;
    p.sendPsn = m_initialPsn;
    p.port = to.GetPort();
    s.conn->SetDisconnectCallback(MakeCallback(&RoceConnector::Disconnect, this));
    stream(s.conn); // the transport binds, and says its MTU

    RoceCmFields f;
    f.type = CmMessage::Req;
    f.localCommId = id;
    f.serviceId = ServiceIdOf(to.GetPort());
    f.localQpn = s.conn->GetLocalQpn();
    f.startingPsn = p.sendPsn;
    f.responderResources = uint8_t(std::min<uint16_t>(ird, 0xFF));
    f.initiatorDepth = uint8_t(std::min<uint16_t>(ord, 0xFF));
    f.pathMtuCode = roce::MtuCode(p.mtu);
    f.localIp = p.local;
    f.remoteIp = p.remote;
    f.privateData = privateData;
    s.state = Session::ReqSent;
    Send(s, f, true);
}

void
RoceConnector::Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord,
                      const std::vector<uint8_t>& privateData, StreamCallback stream)
{
    NS_ABORT_MSG_IF(privateData.size() > MaxPrivateData(CmMessage::Rep),
                    "RoCEv2's CM REP holds at most " << MaxPrivateData(CmMessage::Rep) << " octets of private data, "
                                                     << "not " << privateData.size());
    Ptr<Request> r = DynamicCast<Request>(req);
    NS_ABORT_MSG_UNLESS(r, "RoceConnector::Accept: not a RoCE connection request");
    Session* s = Find(r->commId);
    NS_ABORT_MSG_UNLESS(s && s->state == Session::Requested, "RoceConnector::Accept: the request was answered");
    s->conn = CreateObject<RoceConnection>();
    ConfigurePart(s->conn);
    s->conn->Open(Stack());
    RoceConnectionParams& p = s->conn->Params();
    p.local = Stack()->SourceFor(s->peer);
    p.remote = s->peer;
    p.remoteQpn = r->req.localQpn;
    p.receivePsn = r->req.startingPsn;
    p.sendPsn = m_initialPsn;
    p.mtu = roce::MtuOfCode(uint8_t(r->req.pathMtuCode)); // the initiator's path MTU (0: none, ours then)
    p.sourcePort = RoceConnection::SourcePort(GetNode()->GetId(), s->conn->GetLocalQpn(), p.remoteQpn);
    p.port = r->port;
    p.responder = true;
    s->conn->SetDisconnectCallback(MakeCallback(&RoceConnector::Disconnect, this));
    stream(s->conn);

    RoceCmFields f;
    f.type = CmMessage::Rep;
    f.localCommId = r->commId;
    f.remoteCommId = s->remoteCommId;
    f.localQpn = s->conn->GetLocalQpn();
    f.startingPsn = p.sendPsn;
    f.responderResources = uint8_t(std::min<uint16_t>(ird, 0xFF));
    f.initiatorDepth = uint8_t(std::min<uint16_t>(ord, 0xFF));
    f.privateData = privateData;
    s->state = Session::RepSent;
    Send(*s, f, true);
}

void
RoceConnector::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    NS_ABORT_MSG_IF(privateData.size() > MaxPrivateData(CmMessage::Rej),
                    "RoCEv2's CM REJ holds at most " << MaxPrivateData(CmMessage::Rej) << " octets of private data, "
                                                     << "not " << privateData.size());
    Ptr<Request> r = DynamicCast<Request>(req);
    NS_ABORT_MSG_UNLESS(r, "RoceConnector::Reject: not a RoCE connection request");
    Session* s = Find(r->commId);
    NS_ABORT_MSG_UNLESS(s && s->state == Session::Requested, "RoceConnector::Reject: the request was answered");
    RoceCmFields f;
    f.type = CmMessage::Rej;
    f.localCommId = r->commId;
    f.remoteCommId = s->remoteCommId;
    f.rejectReason = roce::kCmRejConsumer;
    f.privateData = privateData;
    s->state = Session::Done; // kept, so that a REQ sent again gets the REJ again
    Send(*s, f, false);
}

void
RoceConnector::Disconnect(Ptr<RoceConnection> conn)
{
    for (auto& [id, s] : m_sessions)
    {
        if (s.conn == conn && s.state == Session::ReqSent)
        {
            // Closed before the answer came: set-up is given up (a REP that comes later finds no session to
            // answer, and the responder gives its connection up when no RTU comes).
            Simulator::Cancel(s.timer);
            s.state = Session::Done;
            ConnectCallback done = s.done;
            s.done = ConnectCallback();
            if (!done.IsNull())
            {
                done(LlpConnectResult{});
            }
            return;
        }
        if (s.conn == conn && (s.state == Session::Up || s.state == Session::RepSent))
        {
            RoceCmFields f;
            f.type = CmMessage::Dreq;
            f.localCommId = id;
            f.remoteCommId = s.remoteCommId;
            f.localQpn = conn->Params().remoteQpn;
            s.state = Session::DreqSent;
            Send(s, f, true);
            return;
        }
    }
}

void
RoceConnector::OnRocePacket(Ptr<Packet> packet, uint8_t, Ipv4Address from, uint16_t)
{
    RoceReceived rx;
    if (!ParseRocePacket(packet, rx) || rx.bth.GetOpcode() != IbOpcode::UdSendOnly ||
        rx.deth.GetQKey() != roce::kGsiQKey || packet->GetSize() < roce::kMadLen)
    {
        NS_LOG_WARN("QP1 dropped a packet from " << from << ": not a MAD with QP1's Q_Key");
        return;
    }
    RoceCmMad mad;
    packet->RemoveHeader(mad);
    if (!mad.IsCmSend() || !mad.IsKnownMessage())
    {
        NS_LOG_WARN("QP1 dropped a MAD from " << from << ": not a CM message this model takes");
        return;
    }
    const RoceCmFields& f = mad.Fields();
    if (f.type == CmMessage::Req)
    {
        OnReq(f, from);
        return;
    }
    Session* s = Find(f.remoteCommId);
    if (!s || s->peer != from)
    {
        NS_LOG_WARN("QP1: a " << ToString(f.type) << " from " << from << " for no session of ours");
        return;
    }
    switch (f.type)
    {
    case CmMessage::Rep:
        OnRep(*s, f);
        break;
    case CmMessage::Rej:
        OnRej(*s, f);
        break;
    case CmMessage::Rtu:
        if (s->state == Session::RepSent)
        {
            Simulator::Cancel(s->timer);
            s->state = Session::Up;
            s->conn->SetUp();
        }
        break;
    case CmMessage::Dreq:
        OnDreq(*s);
        break;
    case CmMessage::Drep:
        Simulator::Cancel(s->timer);
        s->state = Session::Done;
        break;
    default:
        break;
    }
}

void
RoceConnector::OnReq(const RoceCmFields& f, Ipv4Address from)
{
    if (Session* dup = FindByPeer(from, f.localCommId))
    {
        if (dup->state != Session::Requested)
        {
            SendMad(from, dup->last); // our answer was lost: the same again
        }
        return;
    }
    const uint16_t port = uint16_t(f.serviceId & 0xFFFF);
    auto it = m_listening.find(port);
    const uint32_t id = NewSession();
    Session& s = m_sessions[id];
    s.peer = from;
    s.remoteCommId = f.localCommId;
    if ((f.serviceId & ~uint64_t(0xFFFF)) != kServiceIdTcpSpace || it == m_listening.end() || it->second.IsNull())
    {
        RoceCmFields rej;
        rej.type = CmMessage::Rej;
        rej.localCommId = id;
        rej.remoteCommId = f.localCommId;
        const bool service = (f.serviceId & ~uint64_t(0xFFFF)) == kServiceIdTcpSpace && it != m_listening.end();
        rej.rejectReason = service ? roce::kCmRejConsumer : kRejInvalidServiceId; // a null listener refuses all
        s.state = Session::Done;
        Send(s, rej, false);
        return;
    }
    s.state = Session::Requested;
    Ptr<Request> r = Create<Request>();
    r->commId = id;
    r->req = f;
    r->from = InetSocketAddress(from, 0);
    r->port = port;
    r->privateData = f.privateData;
    r->peerIrd = f.responderResources; // what the initiator takes in: its IRD
    r->peerOrd = f.initiatorDepth;
    r->peerIrdKnown = true;
    it->second(r);
}

void
RoceConnector::OnRep(Session& s, const RoceCmFields& f)
{
    if (s.state != Session::ReqSent)
    {
        if (s.state == Session::Up)
        {
            SendMad(s.peer, s.last); // the RTU was lost
        }
        return;
    }
    Simulator::Cancel(s.timer);
    s.remoteCommId = f.localCommId;
    RoceConnectionParams& p = s.conn->Params();
    p.remoteQpn = f.localQpn;
    p.receivePsn = f.startingPsn;
    p.sourcePort = RoceConnection::SourcePort(GetNode()->GetId(), s.conn->GetLocalQpn(), p.remoteQpn);
    RoceCmFields rtu;
    rtu.type = CmMessage::Rtu;
    rtu.localCommId = f.remoteCommId;
    rtu.remoteCommId = f.localCommId;
    s.state = Session::Up;
    Send(s, rtu, false);
    LlpConnectResult r;
    r.accepted = true;
    r.privateData = f.privateData;
    r.ord = std::min<uint16_t>(s.ord, f.responderResources); // never more Reads than the responder takes in
    ConnectCallback done = s.done;
    s.done = ConnectCallback();
    s.conn->SetUp();
    if (!done.IsNull())
    {
        done(r);
    }
}

void
RoceConnector::OnRej(Session& s, const RoceCmFields& f)
{
    if (s.state != Session::ReqSent)
    {
        return;
    }
    Simulator::Cancel(s.timer);
    s.state = Session::Done;
    LlpConnectResult r;
    r.privateData = f.privateData;
    ConnectCallback done = s.done;
    s.done = ConnectCallback();
    if (!done.IsNull())
    {
        done(r);
    }
    s.conn->SetUpFailed();
}

void
RoceConnector::OnDreq(Session& s)
{
    RoceCmFields drep;
    drep.type = CmMessage::Drep;
    drep.localCommId = s.last.localCommId;
    drep.remoteCommId = s.remoteCommId;
    Simulator::Cancel(s.timer);
    const bool wasOpen = s.state != Session::Done;
    s.state = Session::Done;
    Send(s, drep, false);
    if (wasOpen && s.conn)
    {
        s.conn->PeerDisconnected();
    }
}

void
RoceConnector::Send(Session& s, const RoceCmFields& f, bool awaitAnswer)
{
    s.last = f;
    s.last.transactionId = m_nextTid++;
    s.retries = 0;
    SendMad(s.peer, s.last);
    Simulator::Cancel(s.timer);
    if (awaitAnswer)
    {
        s.timer = Simulator::Schedule(m_responseTimeout, &RoceConnector::OnResponseTimeout, this, f.localCommId);
    }
}

void
RoceConnector::SendMad(Ipv4Address to, const RoceCmFields& f)
{
    RoceBth bth;
    bth.SetOpcode(IbOpcode::UdSendOnly);
    bth.SetDestQp(roce::kGsiQp);
    bth.SetPsn(uint32_t(f.transactionId) & roce::kPsnMask);
    RoceDeth deth;
    deth.SetQKey(roce::kGsiQKey);
    deth.SetSrcQp(roce::kGsiQp);
    RoceTransportOctets headers;
    headers.Add(bth);
    headers.Add(deth);
    Ptr<Packet> mad = Create<Packet>();
    mad->AddHeader(RoceCmMad(f));
    uint8_t octets[roce::kMadLen];
    mad->CopyData(octets, roce::kMadLen);
    RoceAddressing a;
    a.source = Stack()->SourceFor(to);
    a.destination = to;
    a.sourcePort = RoceConnection::SourcePort(GetNode()->GetId(), roce::kGsiQp, roce::kGsiQp);
    Stack()->Send(BuildRocePacket(a, Stack()->NextIpId(), headers, octets, roce::kMadLen), to);
}

void
RoceConnector::OnResponseTimeout(uint32_t commId)
{
    Session* s = Find(commId);
    if (!s)
    {
        return;
    }
    if (s->retries++ < m_maxRetries)
    {
        ++m_retransmissions;
        SendMad(s->peer, s->last);
        s->timer = Simulator::Schedule(m_responseTimeout, &RoceConnector::OnResponseTimeout, this, commId);
        return;
    }
    NS_LOG_INFO("CM " << ToString(s->last.type) << " to " << s->peer << ": no answer after " << m_maxRetries
                      << " retries");
    const Session::State state = s->state;
    s->state = Session::Done;
    if (state == Session::ReqSent)
    {
        ConnectCallback done = s->done;
        s->done = ConnectCallback();
        if (!done.IsNull())
        {
            done(LlpConnectResult{});
        }
        s->conn->SetUpFailed();
    }
    else if (state == Session::RepSent && s->conn)
    {
        s->conn->SetUpFailed(); // the initiator never confirmed: the connection is given up
    }
}

} // namespace ns3
