#include "ddp/llp-listeners.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"

namespace ns3
{

void
LlpListeners::Add(Ptr<Socket> s, uint16_t port, LlpConnector::RequestCallback cb)
{
    NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0, "cannot bind port " << port);
    s->Listen();
    m_sockets[port] = s;
    m_callbacks[port] = cb;
}

bool
LlpListeners::Deliver(Ptr<ConnectionRequest> req) const
{
    auto it = m_callbacks.find(req->port);
    if (it == m_callbacks.end() || it->second.IsNull())
    {
        return false;
    }
    it->second(req);
    return true;
}

void
LlpListeners::CloseAll()
{
    for (auto& [port, s] : m_sockets)
    {
        s->Close();
    }
    m_sockets.clear();
    m_callbacks.clear();
}

} // namespace ns3
