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
    Upper().OnLlpReceive(segment, order);
}

void
DdpLowerLayer::NotifyMulpduChanged(uint32_t mulpdu)
{
    Upper().OnLlpMulpdu(mulpdu);
}

void
DdpLowerLayer::NotifySendReady()
{
    Upper().OnLlpSendReady();
}

void
DdpLowerLayer::NotifyEvent(Event e, iwarp::ErrorCause cause)
{
    Upper().OnLlpEvent(e, cause);
}

void
DdpLowerLayer::CallbackUser::OnLlpReceive(Ptr<Packet> segment, uint64_t order)
{
    if (!receive.IsNull())
    {
        receive(segment, order);
    }
}

void
DdpLowerLayer::CallbackUser::OnLlpMulpdu(uint32_t m)
{
    if (!mulpdu.IsNull())
    {
        mulpdu(m);
    }
}

void
DdpLowerLayer::CallbackUser::OnLlpSendReady()
{
    if (!sendReady.IsNull())
    {
        sendReady();
    }
}

void
DdpLowerLayer::CallbackUser::OnLlpEvent(Event e, iwarp::ErrorCause cause)
{
    if (!event.IsNull())
    {
        event(e, cause);
    }
}

void
DdpLowerLayer::DoDispose()
{
    m_callbacks = CallbackUser{};
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
