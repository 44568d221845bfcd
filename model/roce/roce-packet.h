/*
 * One RoCEv2 packet as an RNIC puts it on the wire, and the arithmetic of its sequence numbers.
 *
 *   IPv4 (20 octets, Don't Fragment) | UDP to 4791 (checksum zero) | BTH | extended headers | payload | pad | ICRC
 *
 * The RNIC writes the IPv4 header itself, Identification included, because the ICRC covers it (roce-icrc.h):
 * the packet goes down through an IPv4 raw socket with the header included, so ns-3 sends that header as
 * written. The UDP checksum is zero, as RoCEv2 senders leave it (Annex A17.4.3: the ICRC protects the packet).
 * A payload given as octets is copied; one given as null is zeros kept as ns-3's zero area (a virtual payload,
 * doc/architecture.md "Payload modes"), and its ICRC is still that of the zeros.
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_ROCE_PACKET_H
#define IWARP_ROCE_PACKET_H

#include "roce/roce-headers.h"

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{
namespace roce
{
inline constexpr uint32_t kIpv4HeaderLen = 20;
inline constexpr uint32_t kUdpHeaderLen = 8;
/** IP and UDP octets in front of the BTH, and the ICRC behind the payload: what a packet adds to its headers. */
inline constexpr uint32_t kFramingLen = kIpv4HeaderLen + kUdpHeaderLen + kIcrcLen;
/** The ECN codepoints of the IPv4 TOS octet's low two bits (RFC 3168). */
inline constexpr uint8_t kEcnMask = 0x03;
inline constexpr uint8_t kEct0 = 0x02;
inline constexpr uint8_t kEcnCe = 0x03;

/** PSNs outstanding at most: two PSNs compare (PsnDiff) only within half of the 24-bit space. */
inline constexpr uint32_t kPsnWindow = 1u << 23;

/** `psn` advanced by `n`, modulo 2^24. */
inline uint32_t
PsnAdd(uint32_t psn, int64_t n)
{
    return uint32_t((int64_t(psn) + n) & kPsnMask);
}

/** How far `a` is after `b`, modulo 2^24, as a number in [-2^23, 2^23) (negative: `a` is before `b`). */
inline int32_t
PsnDiff(uint32_t a, uint32_t b)
{
    return int32_t(uint32_t(a - b) << 8) >> 8;
}

/** Pad octets after a payload of `len` octets, to a multiple of four (BTH PadCnt). */
inline uint8_t
PadFor(uint32_t len)
{
    return uint8_t((4 - len % 4) % 4);
}

/**
 * IRN's NAK (Mittal et al., SIGCOMM 2018, §3.2) names the packet that arrived out of order as well as the
 * expected one: four octets after the AETH of an Acknowledge, a reserved octet and the 24-bit PSN. Not an
 * InfiniBand field: both ends must run IRN's selective repeat.
 */
inline constexpr uint32_t kIrnSackLen = 4;
void WriteIrnSack(uint8_t* at, uint32_t psn);

/** The IB path MTU enumeration (§7.7.5): 256, 512, 1024, 2048 or 4096 octets; other sizes are refused. */
bool IsIbMtu(uint32_t octets);
/** An IB MTU's code in that enumeration (1 for 256 ... 5 for 4096), as a CM REQ carries it; 0 for another size. */
uint8_t MtuCode(uint32_t octets);
/** The MTU of a code (the inverse of MtuCode); 0 for a code that names none. */
uint32_t MtuOfCode(uint8_t code);

/** IBA's timeouts (the Local ACK Timeout, the CM's response timeout): 4.096 us * 2^code. */
inline constexpr int64_t
IbTimeoutNs(uint8_t code)
{
    return int64_t(4096) << code;
}
} // namespace roce

/** What a packet's IPv4 and UDP headers carry. */
struct RoceAddressing
{
    Ipv4Address source;
    Ipv4Address destination;
    uint16_t sourcePort{0}; ///< the connection's entropy for ECMP; the destination port is always 4791
    uint8_t tos{0};         ///< DSCP and ECN
    uint8_t ttl{64};
};

/** The BTH and extended headers of one packet, serialised in order (at most 44 octets). */
class RoceTransportOctets
{
  public:
    void Add(const Header& h);
    const uint8_t* Data() const { return m_octets; }
    uint32_t Size() const { return m_len; }

  private:
    uint8_t m_octets[44];
    uint32_t m_len{0};
};

/**
 * The packet, from its IPv4 header to its ICRC, with `ipId` as its IPv4 Identification; `payload` null for
 * zeros. The BTH in `transport` must carry the pad count of `payloadLen` (roce::PadFor).
 */
Ptr<Packet> BuildRocePacket(const RoceAddressing& a, uint16_t ipId, const RoceTransportOctets& transport,
                            const uint8_t* payload, uint32_t payloadLen);

/**
 * A received packet as the UDP socket hands it up (from its BTH on): the headers its opcode carries are read
 * off `packet`, and the pad and ICRC cut from its end, so that `packet` is left holding the payload. False,
 * with `packet` unchanged in size or shorter, for an opcode the model does not use or a packet too short for
 * what its opcode says it holds.
 */
struct RoceReceived
{
    RoceBth bth;
    RoceReth reth;
    RoceAeth aeth;
    RoceIeth ieth;
    RoceDeth deth;
    IbOpcodeLayout layout;
    bool irnSack{false};   ///< an Acknowledge with IRN's extension (roce::kIrnSackLen)
    uint32_t irnSackPsn{0};
};
bool ParseRocePacket(Ptr<Packet> packet, RoceReceived& out);

} // namespace ns3

#endif // IWARP_ROCE_PACKET_H
