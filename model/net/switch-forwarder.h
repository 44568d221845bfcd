/*
 * SwitchForwarder: a switch's forwarding fast path. It takes the IPv4 packets its node's
 * devices receive before ns-3's IPv4 stack does, and forwards those whose next hop its
 * Ipv4EcmpRouting knows straight to traffic control: the same next hop, TTL, priority tag and
 * queue-disc item as Ipv4L3Protocol::Receive -> Ipv4ListRouting -> IpForward -> SendRealOut
 * would make, without that path's per-hop interface searches, route object and list routing.
 * A k = 16 fat-tree run spends most of its time forwarding (doc/performance.md).
 *
 * Whatever it does not forward it hands to traffic control's Receive, as the node would have:
 * ARP, packets for the switch itself, broadcast and multicast, a TTL about to expire (ICMP's
 * time exceeded), a destination without an ECMP route (static routes, the drop trace), a
 * gateway that is the switch's own address, a packet larger than the outgoing MTU
 * (fragmentation), an interface down or not forwarding, a port that needs ARP (in or out) or
 * the loopback, and every packet while ns-3's checksums are enabled. Those take ns-3's path
 * unchanged. The node's addresses and interfaces are those it has at Install; ports added
 * later are ns-3's alone.
 *
 * What differs: Ipv4L3Protocol's Rx, UnicastForward and Tx traces and raw IPv4 sockets on the
 * switch do not see the packets forwarded here. The Forward trace below reports them instead,
 * with UnicastForward's arguments. Attribute Enabled false leaves the whole path to ns-3.
 * Install takes traffic control's Receive off the node for IPv4 and ARP (IPv6's is put back);
 * a protocol of someone else's that registered that same handler on a switch would lose it.
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_SWITCH_FORWARDER_H
#define IWARP_SWITCH_FORWARDER_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class Ipv4EcmpRouting;
class Ipv4Interface;
class Node;
class Packet;
class TrafficControlLayer;

class SwitchForwarder : public Object
{
  public:
    static TypeId GetTypeId();
    SwitchForwarder();
    ~SwitchForwarder() override; // out of line: the Ptr members' types are complete there

    /**
     * Put the fast path in front of `node`'s IPv4 stack for the devices it has now, using
     * `ecmp` (one of its node's routing protocols). The node's IPv4 interfaces must all be
     * added first. Aggregates this object to the node.
     */
    void Install(Ptr<Node> node, Ptr<Ipv4EcmpRouting> ecmp);

    uint64_t GetForwarded() const { return m_forwarded; }   ///< by the fast path
    uint64_t GetHandedOn() const { return m_handedOn; }     ///< IPv4 packets left to ns-3

  protected:
    void DoDispose() override;

  private:
    void Receive(Ptr<NetDevice> device, Ptr<const Packet> p, uint16_t protocol,
                 const Address& from, const Address& to, NetDevice::PacketType packetType);
    /** Forward `p` (with its IPv4 header) if the fast path may; false to hand it on. */
    bool Forward(uint32_t inIf, Ptr<const Packet> p);
    bool IsOwn(Ipv4Address a) const; ///< one of the node's addresses at Install

    bool m_enabled{true};
    Ptr<Node> m_node;
    Ptr<Ipv4EcmpRouting> m_ecmp;
    Ptr<TrafficControlLayer> m_tc;
    std::vector<Ptr<Ipv4Interface>> m_interfaces; ///< the node's IPv4 interfaces at Install
    std::vector<Ptr<NetDevice>> m_devices;        ///< and their devices
    std::vector<bool> m_plain; ///< per interface: neither the loopback nor a device with ARP
    std::vector<uint32_t> m_ownAddresses; ///< their addresses and subnet broadcasts, sorted
    std::vector<int32_t> m_ifOfDevice;    ///< node device index -> IPv4 interface (-1: none)
    uint64_t m_forwarded{0};
    uint64_t m_handedOn{0};
    /** header (TTL already decremented), packet without it, outgoing interface */
    TracedCallback<const Ipv4Header&, Ptr<const Packet>, uint32_t> m_forwardTrace;
};

} // namespace ns3

#endif // IWARP_SWITCH_FORWARDER_H
