#include "ddp/ddp-lower-layer.h"

#include "ns3/socket.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DdpLowerLayer);
NS_OBJECT_ENSURE_REGISTERED(DdpLlpPositionTag);

TypeId
DdpLlpPositionTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DdpLlpPositionTag")
                            .SetParent<Tag>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<DdpLlpPositionTag>();
    return tid;
}

TypeId
DdpLlpPositionTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

TypeId
DdpLowerLayer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DdpLowerLayer").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

Ptr<Socket>
DdpLowerLayer::GetSocket() const
{
    return nullptr;
}

void
DdpLowerLayer::NotifyReceive(Ptr<Packet> segment, uint64_t order)
{
    if (m_user)
    {
        m_user->OnLlpReceive(segment, order);
    }
    else if (!m_receive.IsNull())
    {
        m_receive(segment, order);
    }
}

void
DdpLowerLayer::NotifyMulpduChanged(uint32_t mulpdu)
{
    if (m_user)
    {
        m_user->OnLlpMulpdu(mulpdu);
    }
    else if (!m_mulpdu.IsNull())
    {
        m_mulpdu(mulpdu);
    }
}

void
DdpLowerLayer::NotifySendReady()
{
    if (m_user)
    {
        m_user->OnLlpSendReady();
    }
    else if (!m_sendReady.IsNull())
    {
        m_sendReady();
    }
}

void
DdpLowerLayer::NotifyEvent(Event e, iwarp::ErrorCause cause)
{
    if (m_user)
    {
        m_user->OnLlpEvent(e, cause);
    }
    else if (!m_event.IsNull())
    {
        m_event(e, cause);
    }
}

void
DdpLowerLayer::DoDispose()
{
    m_receive = ReceiveCallback();
    m_mulpdu = MulpduCallback();
    m_sendReady = SendReadyCallback();
    m_event = EventCallback();
    m_user = nullptr;
    Object::DoDispose();
}

const char*
ToString(DdpLowerLayer::Event e)
{
    switch (e)
    {
    case DdpLowerLayer::Event::Established:
        return "Established";
    case DdpLowerLayer::Event::PeerGracefulClose:
        return "PeerGracefulClose";
    case DdpLowerLayer::Event::Closed:
        return "Closed";
    case DdpLowerLayer::Event::ConnectionLost:
        return "ConnectionLost";
    case DdpLowerLayer::Event::LlpError:
        return "LlpError";
    }
    return "?";
}

} // namespace ns3
