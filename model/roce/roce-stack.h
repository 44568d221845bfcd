/*
 * RoceStack: a node's RoCEv2 endpoint below its queue pairs, as the RNIC's packet engine is (aggregated to the
 * node, made on first use by RoceStack::Get).
 *
 *  - Receiving: one UDP socket on port 4791 takes every RoCEv2 packet the node is sent and hands it to the
 *    queue pair its BTH names (DestQP). QP1 is the connection manager's (RegisterGsi). A packet for a QP
 *    nobody holds is dropped and counted ("UnknownQp"), as an RNIC drops it. The socket reports each packet's
 *    IPv4 TOS, so the ECN codepoint a switch set reaches the queue pair (DCQCN's notification point).
 *  - Sending: one IPv4 raw socket with the header included, so each packet leaves exactly as BuildRocePacket
 *    wrote it (its ICRC covers the IPv4 header). Its receive side is shut: a raw socket would otherwise keep a
 *    copy of every UDP packet.
 *  - Pacing: an RNIC puts packets on its port back to back, never faster than the port sends them. Each
 *    output device has a clock of when it is next free (ReserveTx), so that the node's queue pairs share the
 *    port's rate packet by packet instead of flooding the queue in front of it.
 *  - QP numbers (24 bits) are handed out from 0x10 up; 0 and 1 are the special QPs.
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_ROCE_STACK_H
#define IWARP_ROCE_STACK_H

#include "roce/roce-headers.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <unordered_map>

namespace ns3
{

class RoceStack : public Object
{
  public:
    static TypeId GetTypeId();
    RoceStack();

    /** The stack of `node` (which needs an IPv4 stack), made and aggregated on first use. */
    static Ptr<RoceStack> Get(Ptr<Node> node);

    /** Who takes a queue pair's packets. */
    class Receiver
    {
      public:
        virtual ~Receiver() = default;
        /**
         * A packet for this QP: `packet` holds it from the BTH to the ICRC; `ecn` is the IPv4 ECN codepoint it
         * arrived with; `from` its IPv4 source and UDP source port.
         */
        virtual void OnRocePacket(Ptr<Packet> packet, uint8_t ecn, Ipv4Address from, uint16_t fromPort) = 0;
    };

    /** A new QP number, whose packets go to `r` until Unregister. */
    uint32_t Register(Receiver* r);
    /** QP1's packets (connection management) go to `r`; aborts if another receiver holds QP1. */
    void RegisterGsi(Receiver* r);
    void Unregister(uint32_t qpn);
    /** QP1 goes back, if `r` holds it. */
    void UnregisterGsi(Receiver* r);

    /** The address this node sends from to reach `dst`, and the device it leaves by; aborts with no route. */
    Ipv4Address SourceFor(Ipv4Address dst, Ptr<NetDevice>* device = nullptr) const;

    /**
     * When a packet of `ipOctets` (IPv4 header on) may start on `device`: the device's next free moment, which
     * is then moved on by the packet's time on the wire at the device's DataRate.
     */
    Time ReserveTx(Ptr<NetDevice> device, uint32_t ipOctets);
    /** The DataRate of `device` (a RoCEv2 port must have one: it is paced by it). */
    DataRate PortRate(Ptr<NetDevice> device) const;

    /** Send a packet BuildRocePacket made (IPv4 header included) for `destination`, its header's. */
    void Send(Ptr<Packet> ipPacket, Ipv4Address destination);
    /** The next IPv4 Identification for a packet from this node. */
    uint16_t NextIpId() { return m_ipId++; }

    /** Packets dropped on arrival because no queue pair holds their DestQP. */
    uint64_t GetUnknownQpDrops() const { return m_unknownQp; }
    /** Datagrams to port 4791 dropped on arrival because they are too short to hold a BTH. */
    uint64_t GetMalformedDrops() const { return m_malformed; }

    /** (the packet from its BTH, its DestQP). */
    typedef void (*UnknownQpTracedCallback)(Ptr<const Packet> p, uint32_t qpn);

  protected:
    void DoDispose() override;

  private:
    void Open();
    void OnUdpReceive(Ptr<Socket> s);

    Ptr<Node> m_node;
    Ptr<Socket> m_udp;
    Ptr<Socket> m_raw;
    std::unordered_map<uint32_t, Receiver*> m_qps;
    uint32_t m_nextQpn;
    std::unordered_map<const NetDevice*, Time> m_txFree;
    uint16_t m_ipId{0};
    uint64_t m_unknownQp{0};
    uint64_t m_malformed{0};
    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_unknownQpTrace;
};

} // namespace ns3

#endif // IWARP_ROCE_STACK_H
