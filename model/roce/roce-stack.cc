#include "roce/roce-stack.h"

#include "roce/roce-packet.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceStack");
NS_OBJECT_ENSURE_REGISTERED(RoceStack);

namespace
{
constexpr uint32_t kFirstQpn = 0x10;
/** ns-3's point-to-point device puts a 2-octet PPP header on each packet, and sends it at its DataRate. */
constexpr uint32_t kPppHeaderLen = 2;
} // namespace

TypeId
RoceStack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceStack")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<RoceStack>()
            .AddTraceSource("Tx", "A RoCEv2 packet handed to IPv4 (IPv4 header on)",
                            MakeTraceSourceAccessor(&RoceStack::m_txTrace), "ns3::Packet::TracedCallback")
            .AddTraceSource("UnknownQp",
                            "A RoCEv2 packet dropped on arrival: no queue pair holds its DestQP (the packet from "
                            "its BTH, and that QP number)",
                            MakeTraceSourceAccessor(&RoceStack::m_unknownQpTrace),
                            "ns3::RoceStack::UnknownQpTracedCallback");
    return tid;
}

RoceStack::RoceStack()
    : m_nextQpn(kFirstQpn)
{
}

Ptr<RoceStack>
RoceStack::Get(Ptr<Node> node)
{
    Ptr<RoceStack> s = node->GetObject<RoceStack>();
    if (!s)
    {
        NS_ABORT_MSG_UNLESS(node->GetObject<Ipv4>(), "RoCEv2 runs over IPv4: node " << node->GetId()
                                                                                       << " has no IPv4 stack");
        s = CreateObject<RoceStack>();
        s->m_node = node;
        node->AggregateObject(s);
        s->Open();
    }
    return s;
}

void
RoceStack::Open()
{
    m_udp = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_udp->Bind(InetSocketAddress(Ipv4Address::GetAny(), roce::kUdpPort)) != 0,
                    "node " << m_node->GetId() << ": UDP port " << roce::kUdpPort << " is taken");
    m_udp->SetIpRecvTos(true);
    m_udp->SetRecvCallback(MakeCallback(&RoceStack::OnUdpReceive, this));

    m_raw = Socket::CreateSocket(m_node, Ipv4RawSocketFactory::GetTypeId());
    m_raw->SetAttribute("Protocol", UintegerValue(UdpL4Protocol::PROT_NUMBER));
    m_raw->SetAttribute("IpHeaderInclude", BooleanValue(true));
    m_raw->ShutdownRecv(); // else it keeps a copy of every UDP packet the node receives
}

void
RoceStack::DoDispose()
{
    for (Ptr<Socket> s : {m_udp, m_raw})
    {
        if (s)
        {
            s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            s->Close();
        }
    }
    m_udp = m_raw = nullptr;
    m_qps.clear();
    m_node = nullptr;
    Object::DoDispose();
}

uint32_t
RoceStack::Register(Receiver* r)
{
    // Ordinary QP numbers run from kFirstQpn to 2^24 - 1, then around again, skipping those in use.
    NS_ABORT_MSG_IF(m_qps.size() >= roce::kPsnMask - kFirstQpn, "node " << m_node->GetId() << ": out of QP numbers");
    while (m_qps.count(m_nextQpn))
    {
        m_nextQpn = m_nextQpn == roce::kPsnMask ? kFirstQpn : m_nextQpn + 1;
    }
    const uint32_t qpn = m_nextQpn;
    m_nextQpn = m_nextQpn == roce::kPsnMask ? kFirstQpn : m_nextQpn + 1;
    m_qps[qpn] = r;
    return qpn;
}

void
RoceStack::RegisterGsi(Receiver* r)
{
    auto it = m_qps.find(roce::kGsiQp);
    NS_ABORT_MSG_IF(it != m_qps.end() && it->second != r,
                    "node " << m_node->GetId() << ": QP1 already has a connection manager");
    m_qps[roce::kGsiQp] = r;
}

void
RoceStack::Unregister(uint32_t qpn)
{
    m_qps.erase(qpn);
}

void
RoceStack::UnregisterGsi(Receiver* r)
{
    auto it = m_qps.find(roce::kGsiQp);
    if (it != m_qps.end() && it->second == r)
    {
        m_qps.erase(it);
    }
}

Ipv4Address
RoceStack::SourceFor(Ipv4Address dst, Ptr<NetDevice>* device) const
{
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    Ipv4Header h;
    h.SetDestination(dst);
    h.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    Socket::SocketErrno err = Socket::ERROR_NOTERROR;
    Ptr<Ipv4Route> route = ipv4->GetRoutingProtocol()->RouteOutput(nullptr, h, nullptr, err);
    NS_ABORT_MSG_UNLESS(route, "node " << m_node->GetId() << " has no route to " << dst << " for RoCEv2");
    if (device)
    {
        *device = route->GetOutputDevice();
    }
    return route->GetSource();
}

Time
RoceStack::ReserveTx(Ptr<NetDevice> device, uint32_t ipOctets)
{
    const uint32_t framing = DynamicCast<PointToPointNetDevice>(device) ? kPppHeaderLen : 0;
    Time& free = m_txFree[PeekPointer(device)];
    const Time start = std::max(free, Simulator::Now());
    free = start + PortRate(device).CalculateBytesTxTime(ipOctets + framing);
    return start;
}

DataRate
RoceStack::PortRate(Ptr<NetDevice> device) const
{
    DataRateValue rate;
    NS_ABORT_MSG_UNLESS(device->GetAttributeFailSafe("DataRate", rate),
                        "RoCEv2 paces at its port's DataRate: device " << device->GetInstanceTypeId().GetName()
                                                                         << " of node " << m_node->GetId()
                                                                         << " has none");
    return rate.Get();
}

void
RoceStack::Send(Ptr<Packet> ipPacket, Ipv4Address destination)
{
    m_txTrace(ipPacket);
    m_raw->SendTo(ipPacket, 0, InetSocketAddress(destination, 0));
}

void
RoceStack::OnUdpReceive(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        SocketIpTosTag tos;
        const uint8_t ecn = p->RemovePacketTag(tos) ? (tos.GetTos() & roce::kEcnMask) : 0;
        RoceBth bth;
        if (p->GetSize() < roce::kBthLen)
        {
            ++m_malformed; // a datagram to 4791 too short to name a QP
            NS_LOG_WARN("dropped a " << p->GetSize() << "-octet datagram to UDP port " << roce::kUdpPort);
            continue;
        }
        p->PeekHeader(bth);
        auto it = m_qps.find(bth.GetDestQp());
        if (it == m_qps.end())
        {
            ++m_unknownQp;
            m_unknownQpTrace(p, bth.GetDestQp());
            continue;
        }
        const InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
        it->second->OnRocePacket(p, ecn, a.GetIpv4(), a.GetPort());
    }
}

} // namespace ns3
