/*
 * SCTP as an ns-3 IpL4Protocol (IP protocol number 132), RFC 9260 over Ipv4L3Protocol.
 *
 * It owns the demultiplexing (associations by local port, peer address and peer port; listeners by local
 * port), verifies every packet's CRC32c before anything else looks at it, answers out-of-the-blue packets
 * (§8.4) and holds the endpoint secret that authenticates State Cookies. Sockets do the protocol work.
 * IPv6 is not supported: packets arriving over IPv6 are dropped.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_L4_PROTOCOL_H
#define IWARP_SCTP_L4_PROTOCOL_H

#include "sctp/sctp-packet.h"

#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/traced-callback.h"

#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class SctpSocket;
class Socket;

class SctpL4Protocol : public IpL4Protocol
{
  public:
    static constexpr uint8_t PROT_NUMBER = 132;

    static TypeId GetTypeId();
    SctpL4Protocol();
    ~SctpL4Protocol() override;

    void SetNode(Ptr<Node> node);
    Ptr<Node> GetNode() const { return m_node; }
    /** A new one-to-one style SctpSocket (attributes from ns3::SctpSocket defaults). */
    Ptr<Socket> CreateSocket();

    int GetProtocolNumber() const override;
    RxStatus Receive(Ptr<Packet> p, const Ipv4Header& header, Ptr<Ipv4Interface> incomingInterface) override;
    RxStatus Receive(Ptr<Packet> p, const Ipv6Header& header, Ptr<Ipv6Interface> incomingInterface) override;
    void SetDownTarget(DownTargetCallback cb) override { m_downTarget = cb; }
    void SetDownTarget6(DownTargetCallback6 cb) override { m_downTarget6 = cb; }
    DownTargetCallback GetDownTarget() const override { return m_downTarget; }
    DownTargetCallback6 GetDownTarget6() const override { return m_downTarget6; }

    // ---- used by SctpSocket ----
    /** Reserves a local port (0: pick an ephemeral one); returns 0 if taken. */
    uint16_t AllocatePort(uint16_t port);
    void ReleasePort(uint16_t port);
    /** False if another socket listens on `port` already. */
    bool AddListener(uint16_t port, Ptr<SctpSocket> s);
    void RemoveListener(uint16_t port);
    /** False if an association with this key exists already. */
    bool AddAssociation(uint16_t localPort, Ipv4Address peer, uint16_t peerPort, Ptr<SctpSocket> s);
    void RemoveAssociation(uint16_t localPort, Ipv4Address peer, uint16_t peerPort);
    /** Puts an SCTP packet (checksum included) into IP; `src` any: chosen by routing. */
    void SendPacket(const SctpPacket& pkt, Ipv4Address src, Ipv4Address dst);
    /** The secret that keys the State Cookie MAC (32 random octets per endpoint). */
    const std::vector<uint8_t>& GetSecret() const { return m_secret; }
    /** Answers a packet that belongs to no association (RFC 9260 §8.4). */
    void HandleOutOfTheBlue(const SctpPacket& pkt, Ipv4Address from, Ipv4Address to);
    /** Source address routing would use towards `dst` (any if there is no route). */
    Ipv4Address SourceFor(Ipv4Address dst);

    /** Why a packet was dropped before reaching a socket. */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, Ipv4Address from, SctpParseError reason);
    typedef void (*PacketTracedCallback)(Ptr<const Packet> packet, Ipv4Address src, Ipv4Address dst);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:

    using AssocKey = std::tuple<uint16_t, uint32_t, uint16_t>;

    Ptr<Node> m_node;
    DownTargetCallback m_downTarget;
    DownTargetCallback6 m_downTarget6;
    std::map<AssocKey, Ptr<SctpSocket>> m_assocs;
    std::map<uint16_t, Ptr<SctpSocket>> m_listeners;
    std::map<uint16_t, uint32_t> m_ports; ///< port -> number of users
    uint16_t m_nextEphemeral{49152};
    std::vector<uint8_t> m_secret;

    TracedCallback<Ptr<const Packet>, Ipv4Address, SctpParseError> m_dropTrace;
    TracedCallback<Ptr<const Packet>, Ipv4Address, Ipv4Address> m_txTrace;
    TracedCallback<Ptr<const Packet>, Ipv4Address, Ipv4Address> m_rxTrace;
};

} // namespace ns3

#endif // IWARP_SCTP_L4_PROTOCOL_H
