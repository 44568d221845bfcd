/*
 * SCTP transport protocol object; see sctp-l4-protocol.h.
 */
#include "sctp/sctp-l4-protocol.h"

#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-socket.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpL4Protocol");
NS_OBJECT_ENSURE_REGISTERED(SctpL4Protocol);

TypeId
SctpL4Protocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpL4Protocol")
            .SetParent<IpL4Protocol>()
            .SetGroupName("Iwarp")
            .AddConstructor<SctpL4Protocol>()
            .AddTraceSource("Drop",
                            "A packet dropped before demultiplexing (bad checksum, malformed)",
                            MakeTraceSourceAccessor(&SctpL4Protocol::m_dropTrace),
                            "ns3::SctpL4Protocol::DropTracedCallback")
            .AddTraceSource("Tx",
                            "An SCTP packet handed to IP",
                            MakeTraceSourceAccessor(&SctpL4Protocol::m_txTrace),
                            "ns3::SctpL4Protocol::PacketTracedCallback")
            .AddTraceSource("Rx",
                            "An SCTP packet received from IP (before the checksum check)",
                            MakeTraceSourceAccessor(&SctpL4Protocol::m_rxTrace),
                            "ns3::SctpL4Protocol::PacketTracedCallback");
    return tid;
}

SctpL4Protocol::SctpL4Protocol()
{
    // The cookie secret: random per endpoint, drawn from ns-3's RNG so runs are reproducible.
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    m_secret.resize(32);
    for (auto& b : m_secret)
    {
        b = uint8_t(rng->GetInteger(0, 255));
    }
}

SctpL4Protocol::~SctpL4Protocol() = default;

void
SctpL4Protocol::SetNode(Ptr<Node> node)
{
    m_node = node;
}

int
SctpL4Protocol::GetProtocolNumber() const
{
    return PROT_NUMBER;
}

void
SctpL4Protocol::NotifyNewAggregate()
{
    // Like UdpL4Protocol: once aggregated to a node with IPv4, register with it and send through it.
    Ptr<Node> node = GetObject<Node>();
    Ptr<Ipv4> ipv4 = GetObject<Ipv4>();
    if (m_node == nullptr && node != nullptr)
    {
        SetNode(node);
    }
    if (ipv4 != nullptr && m_downTarget.IsNull())
    {
        ipv4->Insert(this);
        SetDownTarget(MakeCallback(&Ipv4::Send, ipv4));
    }
    IpL4Protocol::NotifyNewAggregate();
}

void
SctpL4Protocol::DoDispose()
{
    for (auto& kv : m_assocs)
    {
        kv.second = nullptr;
    }
    m_assocs.clear();
    m_listeners.clear();
    m_node = nullptr;
    m_downTarget = DownTargetCallback();
    m_downTarget6 = DownTargetCallback6();
    IpL4Protocol::DoDispose();
}

Ptr<Socket>
SctpL4Protocol::CreateSocket()
{
    Ptr<SctpSocket> s = CreateObject<SctpSocket>();
    s->SetNode(m_node);
    s->SetSctp(this);
    return s;
}

uint16_t
SctpL4Protocol::AllocatePort(uint16_t port)
{
    if (port == 0)
    {
        for (uint32_t tries = 0; tries < 16384; ++tries)
        {
            uint16_t p = m_nextEphemeral;
            m_nextEphemeral = m_nextEphemeral == 65535 ? 49152 : m_nextEphemeral + 1;
            if (m_ports.count(p) == 0)
            {
                m_ports[p] = 1;
                return p;
            }
        }
        return 0;
    }
    // A port may be shared by a listener and the associations it accepted; the socket API checks the
    // rest (two listeners on one port are refused in AddListener's caller).
    m_ports[port]++;
    return port;
}

void
SctpL4Protocol::ReleasePort(uint16_t port)
{
    auto it = m_ports.find(port);
    if (it != m_ports.end() && --it->second == 0)
    {
        m_ports.erase(it);
    }
}

bool
SctpL4Protocol::AddListener(uint16_t port, Ptr<SctpSocket> s)
{
    return m_listeners.emplace(port, s).second;
}

void
SctpL4Protocol::RemoveListener(uint16_t port)
{
    m_listeners.erase(port);
}

bool
SctpL4Protocol::AddAssociation(uint16_t localPort, Ipv4Address peer, uint16_t peerPort, Ptr<SctpSocket> s)
{
    return m_assocs.emplace(AssocKey{localPort, peer.Get(), peerPort}, s).second;
}

void
SctpL4Protocol::RemoveAssociation(uint16_t localPort, Ipv4Address peer, uint16_t peerPort)
{
    m_assocs.erase(AssocKey{localPort, peer.Get(), peerPort});
}

Ipv4Address
SctpL4Protocol::SourceFor(Ipv4Address dst)
{
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    if (ipv4 == nullptr || ipv4->GetRoutingProtocol() == nullptr)
    {
        return Ipv4Address::GetAny();
    }
    Ipv4Header h;
    h.SetDestination(dst);
    h.SetProtocol(PROT_NUMBER);
    Socket::SocketErrno err;
    Ptr<Ipv4Route> route = ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), h, nullptr, err);
    return route ? route->GetSource() : Ipv4Address::GetAny();
}

void
SctpL4Protocol::SendPacket(const SctpPacket& pkt, Ipv4Address src, Ipv4Address dst)
{
    Ptr<Packet> p = pkt.ToPacket();
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    Ptr<Ipv4Route> route;
    if (ipv4 != nullptr && ipv4->GetRoutingProtocol() != nullptr)
    {
        Ipv4Header h;
        h.SetSource(src);
        h.SetDestination(dst);
        h.SetProtocol(PROT_NUMBER);
        Socket::SocketErrno err;
        route = ipv4->GetRoutingProtocol()->RouteOutput(p, h, nullptr, err);
    }
    if (route == nullptr)
    {
        NS_LOG_WARN("no route to " << dst << ", SCTP packet dropped");
        return;
    }
    if (src == Ipv4Address::GetAny())
    {
        src = route->GetSource();
    }
    m_txTrace(p, src, dst);
    m_downTarget(p, src, dst, PROT_NUMBER, route);
}

IpL4Protocol::RxStatus
SctpL4Protocol::Receive(Ptr<Packet> p, const Ipv4Header& header, Ptr<Ipv4Interface>)
{
    Ipv4Address src = header.GetSource();
    Ipv4Address dst = header.GetDestination();
    m_rxTrace(p, src, dst);
    SctpPacket pkt;
    SctpParseError err = SctpPacket::Parse(p, &pkt, true);
    if (err != SctpParseError::None)
    {
        // §6.8: a packet with a bad checksum is silently discarded; so is one we cannot parse.
        NS_LOG_INFO("drop SCTP packet from " << src << ": " << SctpParseErrorName(err));
        m_dropTrace(p, src, err);
        return IpL4Protocol::RX_OK;
    }
    uint16_t dport = pkt.header.GetDestinationPort();
    auto a = m_assocs.find(AssocKey{dport, src.Get(), pkt.header.GetSourcePort()});
    if (a != m_assocs.end())
    {
        Ptr<SctpSocket> s = a->second; // keep it alive while it may deregister itself
        s->ReceivePacket(pkt, src, dst);
        return IpL4Protocol::RX_OK;
    }
    auto l = m_listeners.find(dport);
    if (l != m_listeners.end())
    {
        Ptr<SctpSocket> s = l->second;
        s->ReceivePacket(pkt, src, dst);
        return IpL4Protocol::RX_OK;
    }
    HandleOutOfTheBlue(pkt, src, dst);
    return IpL4Protocol::RX_ENDPOINT_UNREACH;
}

IpL4Protocol::RxStatus
SctpL4Protocol::Receive(Ptr<Packet>, const Ipv6Header&, Ptr<Ipv6Interface>)
{
    NS_LOG_WARN("SCTP over IPv6 is not modelled; packet dropped");
    return IpL4Protocol::RX_ENDPOINT_UNREACH;
}

void
SctpL4Protocol::HandleOutOfTheBlue(const SctpPacket& pkt, Ipv4Address from, Ipv4Address to)
{
    // §8.4: never answer an ABORT, a SHUTDOWN COMPLETE or a COOKIE ACK; answer a SHUTDOWN ACK with a
    // SHUTDOWN COMPLETE (T set); anything else gets an ABORT (T set, tag reflected; an INIT's tag instead).
    SctpPacket reply;
    reply.header.SetSourcePort(pkt.header.GetDestinationPort());
    reply.header.SetDestinationPort(pkt.header.GetSourcePort());
    for (const auto& c : pkt.chunks)
    {
        auto t = SctpChunkType(c->GetType());
        if (t == SctpChunkType::Abort || t == SctpChunkType::ShutdownComplete || t == SctpChunkType::CookieAck)
        {
            return;
        }
        if (t == SctpChunkType::ShutdownAck)
        {
            auto sc = std::make_shared<SctpEmptyChunk>(SctpChunkType::ShutdownComplete);
            sc->SetFlags(SctpEmptyChunk::kFlagT);
            reply.header.SetVerificationTag(pkt.header.GetVerificationTag());
            reply.Add(sc);
            SendPacket(reply, to, from);
            return;
        }
    }
    auto abort = std::make_shared<SctpErrorChunk>(SctpChunkType::Abort);
    const auto* init = pkt.chunks.empty() ? nullptr : dynamic_cast<const SctpInitChunk*>(pkt.chunks[0].get());
    if (init != nullptr && !init->IsAck())
    {
        reply.header.SetVerificationTag(init->GetInitiateTag());
    }
    else
    {
        abort->SetTBit(true);
        reply.header.SetVerificationTag(pkt.header.GetVerificationTag());
    }
    reply.Add(abort);
    SendPacket(reply, to, from);
}

} // namespace ns3
