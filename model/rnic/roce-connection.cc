#include "rnic/roce-connection.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceConnection");
NS_OBJECT_ENSURE_REGISTERED(RoceConnection);

TypeId
RoceConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceConnection")
                            .SetParent<DdpLowerLayer>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<RoceConnection>();
    return tid;
}

RoceConnection::RoceConnection() = default;

void
RoceConnection::Open(Ptr<RoceStack> stack)
{
    NS_ABORT_MSG_IF(m_stack, "a RoCE connection is opened once");
    m_stack = stack;
    m_qpn = stack->Register(this);
}

uint16_t
RoceConnection::SourcePort(uint32_t nodeId, uint32_t localQpn, uint32_t remoteQpn)
{
    uint64_t h = (uint64_t(localQpn) * remoteQpn) ^ (uint64_t(nodeId) << 40);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return uint16_t(0xC000 | (h & 0x3FFF));
}

void
RoceConnection::Attach(User* user)
{
    NS_ABORT_MSG_IF(m_user && user, "a RoCE connection takes one transport");
    m_user = user;
    if (m_user && m_up)
    {
        m_user->OnConnectionUp();
    }
    if (m_user && m_peerGone)
    {
        m_user->OnPeerDisconnected();
    }
}

void
RoceConnection::SetUp()
{
    if (m_up || m_closed)
    {
        return;
    }
    m_up = true;
    if (m_user)
    {
        m_user->OnConnectionUp();
    }
}

void
RoceConnection::PeerDisconnected()
{
    if (m_peerGone)
    {
        return;
    }
    m_peerGone = true;
    if (m_user)
    {
        m_user->OnPeerDisconnected();
    }
}

void
RoceConnection::SetUpFailed()
{
    PeerDisconnected();
    Close(CloseMode::Abortive);
}

bool
RoceConnection::SendSegment(Ptr<Packet>)
{
    NS_FATAL_ERROR("a RoCEv2 connection carries no DDP segments: bind a RoceTransport to it");
    return false;
}

void
RoceConnection::Close(CloseMode)
{
    if (m_closed)
    {
        return;
    }
    m_closed = true;
    if (!m_peerGone && !m_disconnect.IsNull())
    {
        m_disconnect(this);
    }
    if (m_stack)
    {
        m_stack->Unregister(m_qpn);
    }
}

void
RoceConnection::OnRocePacket(Ptr<Packet> packet, uint8_t ecn, Ipv4Address, uint16_t)
{
    if (m_user && m_up)
    {
        m_user->OnRocePacket(packet, ecn);
    }
    else if (m_user)
    {
        // The responder's first packet may overtake the RTU that would have established it (IBA §12.9.7.2):
        // it counts as the RTU.
        SetUp();
        m_user->OnRocePacket(packet, ecn);
    }
}

void
RoceConnection::DoDispose()
{
    if (m_stack && !m_closed)
    {
        m_stack->Unregister(m_qpn);
    }
    m_stack = nullptr;
    m_user = nullptr;
    m_disconnect = Callback<void, Ptr<RoceConnection>>();
    DdpLowerLayer::DoDispose();
}

} // namespace ns3
