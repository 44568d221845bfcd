#include "net/switch-forwarder.h"

#include "net/ipv4-ecmp-routing.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/loopback-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchForwarder");
NS_OBJECT_ENSURE_REGISTERED(SwitchForwarder);

namespace
{
constexpr uint16_t kArp = 0x0806;
}

TypeId
SwitchForwarder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchForwarder")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<SwitchForwarder>()
            .AddAttribute("Enabled",
                          "Forward on the fast path; false hands every packet to ns-3's IPv4 "
                          "stack (the same forwarding, with Ipv4L3Protocol's traces)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchForwarder::m_enabled),
                          MakeBooleanChecker())
            .AddTraceSource("Forward",
                            "A packet forwarded by the fast path: its IPv4 header (TTL already "
                            "decremented), the packet without it, the outgoing interface "
                            "(Ipv4L3Protocol's UnicastForward arguments)",
                            MakeTraceSourceAccessor(&SwitchForwarder::m_forwardTrace),
                            "ns3::Ipv4L3Protocol::SentTracedCallback");
    return tid;
}

SwitchForwarder::SwitchForwarder() = default;
SwitchForwarder::~SwitchForwarder() = default;

void
SwitchForwarder::Install(Ptr<Node> node, Ptr<Ipv4EcmpRouting> ecmp)
{
    NS_ABORT_MSG_IF(m_node, "SwitchForwarder::Install: already installed");
    m_node = node;
    m_ecmp = ecmp;
    Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!ipv4 || !m_tc || !m_ecmp,
                    "SwitchForwarder::Install: the node needs IPv4, traffic control and ECMP routing");

    m_interfaces.clear();
    m_devices.clear();
    m_plain.clear();
    m_ownAddresses.clear();
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        m_interfaces.push_back(ipv4->GetInterface(i));
        m_devices.push_back(m_interfaces.back()->GetDevice());
        // The loopback (ns-3 delivers on it directly) and ARP devices (whose caches ns-3's
        // Receive refreshes and whose Send resolves) stay on ns-3's path, in and out.
        m_plain.push_back(!DynamicCast<LoopbackNetDevice>(m_devices.back()) &&
                          !m_devices.back()->NeedsArp());
        for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
        {
            m_ownAddresses.push_back(ipv4->GetAddress(i, a).GetLocal().Get());
            m_ownAddresses.push_back(ipv4->GetAddress(i, a).GetBroadcast().Get());
        }
    }
    std::sort(m_ownAddresses.begin(), m_ownAddresses.end());
    m_ifOfDevice.assign(node->GetNDevices(), -1);
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        // Traffic control's Receive was the node's handler on every device with an IPv4
        // interface but the loopback, where Ipv4L3Protocol registered itself directly.
        if (!DynamicCast<LoopbackNetDevice>(node->GetDevice(d)))
        {
            m_ifOfDevice[d] = ipv4->GetInterfaceForDevice(node->GetDevice(d));
        }
    }

    // Node::UnregisterProtocolHandler removes the first entry with the same callback, whatever
    // its protocol or device, so it is called once per entry there can be (IPv4, ARP and IPv6
    // per device); traffic control's IPv6 entries are then put back as they were. Ours goes
    // in once per protocol for all devices, not once per device: the node searches its handler
    // list for every packet, and a k = 16 switch's list had 34 entries. Receive ignores the
    // devices traffic control did not serve here (and those added later, which get its own).
    const Node::ProtocolHandler tcReceive = MakeCallback(&TrafficControlLayer::Receive, m_tc);
    for (uint32_t n = 0; n < 3 * node->GetNDevices() + 3; ++n)
    {
        node->UnregisterProtocolHandler(tcReceive);
    }
    if (Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>())
    {
        for (uint32_t i = 0; i < ipv6->GetNInterfaces(); ++i)
        {
            Ptr<NetDevice> dev = ipv6->GetNetDevice(i);
            if (!DynamicCast<LoopbackNetDevice>(dev))
            {
                node->RegisterProtocolHandler(tcReceive, Ipv6L3Protocol::PROT_NUMBER, dev);
            }
        }
    }
    for (uint16_t protocol : {Ipv4L3Protocol::PROT_NUMBER, kArp})
    {
        node->RegisterProtocolHandler(MakeCallback(&SwitchForwarder::Receive, this), protocol,
                                      nullptr);
    }
    node->AggregateObject(this);
}

void
SwitchForwarder::Receive(Ptr<NetDevice> device, Ptr<const Packet> p, uint16_t protocol,
                         const Address& from, const Address& to, NetDevice::PacketType packetType)
{
    const uint32_t d = device->GetIfIndex();
    const int32_t inIf = d < m_ifOfDevice.size() ? m_ifOfDevice[d] : -1;
    if (inIf < 0)
    {
        return; // not ours: no IPv4 interface at Install, or traffic control's own handler
    }
    if (m_enabled && protocol == Ipv4L3Protocol::PROT_NUMBER)
    {
        if (Forward(static_cast<uint32_t>(inIf), p))
        {
            ++m_forwarded;
            return;
        }
        ++m_handedOn;
    }
    m_tc->Receive(device, p, protocol, from, to, packetType);
}

bool
SwitchForwarder::Forward(uint32_t inIf, Ptr<const Packet> p)
{
    // Each test below sends the packet down ns-3's own path where that path does something
    // other than forward it unchanged but for the TTL.
    // inIf is an interface Install saw (m_ifOfDevice holds no other).
    if (Node::ChecksumEnabled() || !m_plain[inIf] || !m_interfaces[inIf]->IsUp() ||
        !m_interfaces[inIf]->IsForwarding())
    {
        return false;
    }
    Ptr<Packet> packet = p->Copy();
    Ipv4Header header;
    packet->RemoveHeader(header);
    const Ipv4Address dst = header.GetDestination();
    if (header.GetTtl() <= 1 || dst.IsMulticast() || dst.IsBroadcast() || IsOwn(dst))
    {
        return false;
    }
    // Ipv4L3Protocol::Receive trims what a device padded beyond the datagram.
    if (header.GetPayloadSize() < packet->GetSize())
    {
        packet->RemoveAtEnd(packet->GetSize() - header.GetPayloadSize());
    }
    const Ipv4EcmpRouting::NextHop* hop = m_ecmp->ChooseForwardHop(packet, header);
    // A gateway that is one of our own addresses: Ipv4Interface::Send would deliver locally.
    if (!hop || hop->interface >= m_interfaces.size() || !m_plain[hop->interface] ||
        IsOwn(hop->gateway))
    {
        return false;
    }
    const Ptr<Ipv4Interface>& out = m_interfaces[hop->interface];
    const Ptr<NetDevice>& dev = m_devices[hop->interface];
    if (!out->IsUp() || packet->GetSize() + header.GetSerializedSize() > dev->GetMtu())
    {
        return false;
    }
    // As Ipv4L3Protocol::IpForward: one hop less, and the priority tag follows the TOS.
    header.SetTtl(header.GetTtl() - 1);
    SocketPriorityTag priorityTag;
    packet->RemovePacketTag(priorityTag);
    if (const uint8_t priority = Socket::IpTos2Priority(header.GetTos()))
    {
        priorityTag.SetPriority(priority);
        packet->AddPacketTag(priorityTag);
    }
    NS_LOG_LOGIC("node " << m_node->GetId() << ": " << header.GetSource() << " -> " << dst
                         << " in on " << inIf << ", out on " << hop->interface);
    m_forwardTrace(header, packet, hop->interface);
    // As Ipv4Interface::Send for a device without ARP (point-to-point links).
    m_tc->Send(dev, Create<Ipv4QueueDiscItem>(packet, dev->GetBroadcast(),
                                              Ipv4L3Protocol::PROT_NUMBER, header));
    return true;
}

bool
SwitchForwarder::IsOwn(Ipv4Address a) const
{
    return std::binary_search(m_ownAddresses.begin(), m_ownAddresses.end(), a.Get());
}

void
SwitchForwarder::DoDispose()
{
    m_node = nullptr;
    m_ecmp = nullptr;
    m_tc = nullptr;
    m_interfaces.clear();
    m_devices.clear();
    m_plain.clear();
    Object::DoDispose();
}

} // namespace ns3
