#include "apps/tcp-arrivals.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpArrivals");
NS_OBJECT_ENSURE_REGISTERED(TcpArrivals);

TypeId
TcpArrivals::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpArrivals").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

Ptr<TcpArrivals>
TcpArrivals::Of(Ptr<Node> node)
{
    Ptr<TcpArrivals> a = node->GetObject<TcpArrivals>();
    if (a)
    {
        return a;
    }
    Ptr<Ipv4L3Protocol> ip = node->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_UNLESS(ip, "TcpArrivals: node " << node->GetId() << " has no IPv4 stack");
    a = CreateObject<TcpArrivals>();
    node->AggregateObject(a);
    ip->TraceConnectWithoutContext("LocalDeliver", MakeCallback(&TcpArrivals::OnLocalDeliver, PeekPointer(a)));
    return a;
}

void
TcpArrivals::DoDispose()
{
    m_watched.clear();
    m_keyOf.clear();
    Object::DoDispose();
}

bool
TcpArrivals::KeyOf(Ptr<Socket> s, Key& key)
{
    Address local;
    Address peer;
    if (s->GetSockName(local) != 0 || s->GetPeerName(peer) != 0 || !InetSocketAddress::IsMatchingType(peer))
    {
        return false;
    }
    const InetSocketAddress l = InetSocketAddress::ConvertFrom(local);
    const InetSocketAddress p = InetSocketAddress::ConvertFrom(peer);
    if (p.GetIpv4() == Ipv4Address::GetAny() || p.GetPort() == 0)
    {
        return false; // bound, not connected: ns-3 names no peer yet
    }
    key = Key{l.GetPort(), p.GetIpv4().Get(), p.GetPort()};
    return true;
}

bool
TcpArrivals::Watch(Ptr<Socket> s, Callback<void, SequenceNumber32, uint32_t> arrived)
{
    Key key;
    if (!KeyOf(s, key))
    {
        return false;
    }
    m_watched[key] = arrived;
    m_keyOf[PeekPointer(s)] = key; // a closed socket no longer names its peer: Unwatch finds it here
    return true;
}

void
TcpArrivals::Unwatch(Ptr<Socket> s)
{
    auto it = m_keyOf.find(PeekPointer(s));
    if (it != m_keyOf.end())
    {
        m_watched.erase(it->second);
        m_keyOf.erase(it);
    }
}

void
TcpArrivals::OnLocalDeliver(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t /*interface*/)
{
    if (m_watched.empty() || ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    TcpHeader h;
    const uint32_t header = p->PeekHeader(h);
    if (header == 0 || p->GetSize() <= header)
    {
        return; // no data: an ACK, SYN or FIN alone
    }
    auto it = m_watched.find(Key{h.GetDestinationPort(), ip.GetSource().Get(), h.GetSourcePort()});
    if (it != m_watched.end())
    {
        it->second(h.GetSequenceNumber(), p->GetSize() - header);
    }
}

} // namespace ns3
