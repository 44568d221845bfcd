/*
 * SctpDdpAssociation: the DDP-enabled SCTP association under the sessions (RFC 5043 §5.1, §7, §8, §9, §11).
 */
#include "sctp-ddp/sctp-ddp-connection.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpDdpAssociation");
NS_OBJECT_ENSURE_REGISTERED(SctpDdpAssociation);

namespace
{
/** The DDP-SSN in front of every chunk's user data (SCTP-016), 16 bits in network order. */
class SsnHeader : public Header
{
  public:
    uint16_t ssn{0};
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::SctpDdpSsnHeader").SetParent<Header>().SetGroupName("Iwarp");
        return tid;
    }
    TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return sctpddp::kSsnLen; }
    void Serialize(Buffer::Iterator i) const override { i.WriteHtonU16(ssn); }
    uint32_t Deserialize(Buffer::Iterator i) override
    {
        ssn = i.ReadNtohU16();
        return sctpddp::kSsnLen;
    }
    void Print(std::ostream& os) const override { os << "DDP-SSN=" << ssn; }
};
} // namespace

TypeId
SctpDdpAssociation::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpDdpAssociation")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<SctpDdpAssociation>()
            .AddAttribute("MaxPendingInitiates",
                          "Initiates passed to the ULP and not yet answered; more are answered with a Terminate "
                          "(SCTP-023/033)",
                          UintegerValue(4), MakeUintegerAccessor(&SctpDdpAssociation::m_maxPendingInitiates),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BundlingReserve",
                          "Octets kept free below the theoretical MULPDU so control chunks can be bundled "
                          "(SCTP-040)",
                          UintegerValue(16), MakeUintegerAccessor(&SctpDdpAssociation::m_bundlingReserve),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxUnackedChunks",
                          "DATA chunks a session's stream may have handed to SCTP and not yet acknowledged; "
                          "DDP segments wait at one less, the last place is the session Terminate's (SCTP-044)",
                          UintegerValue(sctpddp::kMaxUnackedChunks),
                          MakeUintegerAccessor(&SctpDdpAssociation::m_maxUnackedChunks),
                          MakeUintegerChecker<uint32_t>(2, sctpddp::kMaxUnackedChunks))
            .AddTraceSource("ChunkSent", "A PPID 16/17 message handed to SCTP: stream, PPID, user data",
                            MakeTraceSourceAccessor(&SctpDdpAssociation::m_chunkSent),
                            "ns3::SctpDdpAssociation::ChunkSentCallback")
            .AddTraceSource("ChunkReceived", "A message received from SCTP: stream, PPID, user data",
                            MakeTraceSourceAccessor(&SctpDdpAssociation::m_chunkReceived),
                            "ns3::SctpDdpAssociation::ChunkSentCallback")
            .AddTraceSource("InitiateDeferred",
                            "Connect on a stream whose previous session still has unacknowledged chunks: the "
                            "Initiate waits for their SACK (SCTP-037): stream, unacknowledged chunks",
                            MakeTraceSourceAccessor(&SctpDdpAssociation::m_initiateDeferred),
                            "ns3::SctpDdpAssociation::InitiateDeferredCallback");
    return tid;
}

SctpDdpAssociation::SctpDdpAssociation() = default;

SctpDdpAssociation::~SctpDdpAssociation()
{
    if (m_socket)
    {
        SocketEvents::Unhook(m_socket); // never disposed: the socket must not reach a freed sink
    }
}

void
SctpDdpAssociation::DoDispose()
{
    for (auto& [id, c] : m_sessions)
    {
        c->Dispose();
    }
    m_sessions.clear();
    m_configurePart = PartCallback();
    if (m_socket)
    {
        SocketEvents::Unhook(m_socket);
    }
    m_socket = nullptr;
    m_initiate = InitiateCallback();
    m_open = OpenCallback();
    Object::DoDispose();
}

Ptr<SctpDdpConnection>
SctpDdpAssociation::NewSession(uint16_t stream, bool active)
{
    Ptr<SctpDdpConnection> c = CreateObject<SctpDdpConnection>();
    if (!m_configurePart.IsNull())
    {
        m_configurePart(c);
    }
    c->Init(this, stream, active);
    return c;
}

void
SctpDdpAssociation::ConfigureSocket(Ptr<SctpSocket> s, uint16_t streams)
{
    s->SetAttribute("SendAdaptationIndication", BooleanValue(true)); // SCTP-002/004
    s->SetAttribute("AdaptationCode", UintegerValue(sctpddp::kAdaptationDdp));
    s->SetAttribute("OutboundStreams", UintegerValue(streams)); // SCTP-011/012: OS = MIS
    s->SetAttribute("MaxInboundStreams", UintegerValue(streams));
}

bool
SctpDdpAssociation::Attach(Ptr<SctpSocket> s)
{
    m_socket = s;
    const std::optional<uint32_t> peer = s->GetPeerAdaptationIndication();
    if (!peer || *peer != sctpddp::kAdaptationDdp)
    {
        // SCTP-003: NONE or ANY-OTHER: no DDP procedures on this association; SCTP-005: terminate it.
        NS_LOG_WARN("peer adaptation indication "
                    << (peer ? std::to_string(*peer) : std::string("NONE")) << ": not DDP, aborting");
        m_ddp = false;
        m_lost = true;
        s->Abort();
        return false;
    }
    m_ddp = true;
    SocketEvents::Hook(s, this);
    if (s->GetRxAvailable() > 0)
    {
        OnSocketRecv(s);
    }
    return true;
}

void
SctpDdpAssociation::Open(Ptr<SctpSocket> s, const Address& remote, OpenCallback done)
{
    m_socket = s;
    m_open = done;
    SocketEvents::Hook(s, this); // what arrives before Attach waits in the socket (OnSocketRecv)
    SocketEvents::HookConnect(s);
    s->Connect(remote);
}

void
SctpDdpAssociation::ReportOpen(bool attached)
{
    const OpenCallback done = std::exchange(m_open, OpenCallback());
    if (!done.IsNull())
    {
        done(this, attached);
    }
}

void
SctpDdpAssociation::OnSocketConnected(Ptr<Socket> s)
{
    // Taken before Attach, so that Attach reads what is queued (OnSocketRecv waits while Open is
    // pending) and an abort inside it reports nothing of its own.
    const OpenCallback done = std::exchange(m_open, OpenCallback());
    const bool attached = Attach(DynamicCast<SctpSocket>(s));
    if (!done.IsNull())
    {
        done(this, attached);
    }
}

void
SctpDdpAssociation::OnSocketConnectFailed(Ptr<Socket>)
{
    ReportOpen(false);
}

uint32_t
SctpDdpAssociation::GetMulpdu() const
{
    // Asked for every segment sent and received: the getter, not GetAttribute("Pmtu") (a third of the
    // instructions of an RDMA Write stream over SCTP went into the attribute lookup by name).
    return sctpddp::MulpduFor(m_socket ? m_socket->GetPmtu() : 1500, m_bundlingReserve);
}

Ptr<SctpDdpConnection>
SctpDdpAssociation::Connect(uint16_t stream, const std::vector<uint8_t>& pd)
{
    if (!m_ddp || m_lost || pd.size() > sctpddp::kMaxPrivateData)
    {
        return nullptr; // S-02/S-03: no DDP procedures without the DDP indication
    }
    if (stream >= std::min(m_socket->GetOutboundStreams(), m_socket->GetInboundStreams()))
    {
        return nullptr; // SCTP-010: a DDP stream needs the like-numbered stream in both directions
    }
    auto it = m_sessions.find(stream);
    if (it != m_sessions.end() && it->second->GetState() != SctpDdpConnection::CLOSED)
    {
        return nullptr; // SCTP-037: one session per stream at a time
    }
    Ptr<SctpDdpConnection> c = NewSession(stream, true);
    m_sessions[stream] = c;
    if (const uint32_t unacked = c->UnackedChunks(); unacked > 0)
    {
        // SCTP-037 (S-14(c)): the new session starts again at DDP-SSN 0, so while a chunk of the old one may
        // still be retransmitted the peer could take it for the new session's. The Initiate waits for the SACK.
        NS_LOG_INFO("stream " << stream << ": Initiate deferred until " << unacked << " chunk(s) are acked");
        m_initiateDeferred(stream, unacked);
        c->DeferInitiate(pd);
        return c;
    }
    if (!c->SendInitiate(pd))
    {
        m_sessions.erase(stream);
        return nullptr;
    }
    return c;
}

bool
SctpDdpAssociation::SendChunk(uint16_t stream, uint32_t ppid, uint16_t ssn, Ptr<Packet> payload)
{
    if (!m_socket || m_lost)
    {
        return false;
    }
    Ptr<Packet> p = payload->Copy();
    SsnHeader h;
    h.ssn = ssn;
    p->AddHeader(h);
    // SCTP-042: every chunk unordered. SCTP-039: p fits one DATA chunk (GetMulpdu), so no SCTP fragments
    // unless a 516-octet minimum exceeds the path (then the alternative would be IP fragmentation).
    if (m_socket->SendMsg(p, stream, ppid, true) < 0)
    {
        return false;
    }
    m_chunkSent(stream, ppid, p);
    return true;
}

void
SctpDdpAssociation::OnSocketRecv(Ptr<Socket> s)
{
    if (!m_open.IsNull())
    {
        return; // not attached yet: Attach reads what is queued
    }
    while (Ptr<Packet> p = s->Recv(std::numeric_limits<uint32_t>::max(), 0))
    {
        SctpMessageTag tag;
        p->PeekPacketTag(tag);
        m_chunkReceived(tag.stream, tag.ppid, p);
        if (!m_ddp)
        {
            continue;
        }
        if (!tag.unordered || (tag.ppid != sctpddp::kPpidSegment && tag.ppid != sctpddp::kPpidControl) ||
            p->GetSize() < sctpddp::kSsnLen)
        {
            // SCTP-001/013: only unordered PPID 16/17 chunks belong on a DDP association (S-13(f)).
            NS_LOG_WARN("stream " << tag.stream << ": not a DDP chunk (PPID " << tag.ppid
                                  << (tag.unordered ? "" : ", ordered") << ")");
            auto it = m_sessions.find(tag.stream);
            if (it != m_sessions.end())
            {
                it->second->Violation("a chunk that is no DDP chunk (SCTP-001)");
            }
            continue;
        }
        Dispatch(tag.stream, tag.ppid, p);
    }
}

void
SctpDdpAssociation::Dispatch(uint16_t stream, uint32_t ppid, Ptr<Packet> msg)
{
    SsnHeader h;
    msg->RemoveHeader(h);
    auto it = m_sessions.find(stream);
    if (it != m_sessions.end() && it->second->GetState() != SctpDdpConnection::CLOSED)
    {
        it->second->Receive(ppid, h.ssn, msg);
        return;
    }
    Ptr<SctpDdpConnection> c = NewSession(stream, false);
    m_sessions[stream] = c;
    uint8_t fc[2] = {0, 0};
    msg->CopyData(fc, 2);
    const bool initiate = ppid == sctpddp::kPpidControl && msg->GetSize() >= 2 && fc[0] == 0 &&
                          fc[1] == uint8_t(sctpddp::Function::Initiate) && h.ssn == 0;
    if (initiate && msg->GetSize() - 2 <= sctpddp::kMaxPrivateData && GetPendingInitiates() < m_maxPendingInitiates)
    {
        c->MarkReceived(0);
        c->m_state = SctpDdpConnection::AWAIT_ULP; // SCTP-033: the ULP decides
        std::vector<uint8_t> pd(msg->GetSize() - 2);
        Ptr<Packet> rest = msg->CreateFragment(2, pd.size());
        rest->CopyData(pd.data(), pd.size());
        if (!m_initiate.IsNull())
        {
            m_initiate(c, pd); // SCTP-022
        }
        return;
    }
    // No session on this stream and no acceptable Initiate (S-08 over the limit, S-09, S-13(d)): the (non-)
    // session is terminated; DDP-SSN 0 since this side has sent nothing on it. Later chunks of it are dropped.
    NS_LOG_WARN("stream " << stream << ": " << (initiate ? "Initiate not passed to the ULP" : "no session")
                          << "; answering with a Terminate");
    c->m_state = SctpDdpConnection::AWAIT_ULP;
    c->Violation("no session on this stream, or an Initiate that cannot be accepted");
}

void
SctpDdpAssociation::Forget(uint16_t)
{
    // Kept in m_sessions in the CLOSED state: a new session may replace it (SCTP-037 is the peer's job).
}

uint32_t
SctpDdpAssociation::GetPendingInitiates() const
{
    return uint32_t(std::count_if(m_sessions.begin(), m_sessions.end(), [](const auto& kv) {
        return kv.second->GetState() == SctpDdpConnection::AWAIT_ULP;
    }));
}

Ptr<SctpDdpConnection>
SctpDdpAssociation::GetSession(uint16_t stream) const
{
    auto it = m_sessions.find(stream);
    return it == m_sessions.end() ? nullptr : it->second;
}

void
SctpDdpAssociation::OnSocketSendSpace(Ptr<Socket>, uint32_t)
{
    for (auto& [id, c] : m_sessions)
    {
        c->OnSendSpace();
    }
}

void
SctpDdpAssociation::Lost()
{
    if (m_lost)
    {
        return;
    }
    m_lost = true;
    // SCTP-047/048: every consumer is told; the association is gone, so no RDMAP Terminate per stream.
    std::map<uint16_t, Ptr<SctpDdpConnection>> sessions = m_sessions;
    for (auto& [id, c] : sessions)
    {
        c->AssociationLost();
    }
}

void
SctpDdpAssociation::OnSocketNormalClose(Ptr<Socket>)
{
    ReportOpen(false); // closed before it was up
    Lost();
}

void
SctpDdpAssociation::OnSocketErrorClose(Ptr<Socket>)
{
    ReportOpen(false);
    Lost();
}

void
SctpDdpAssociation::Abort()
{
    if (m_socket && !m_lost)
    {
        m_socket->Abort();
    }
    Lost();
}

} // namespace ns3
