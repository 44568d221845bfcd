/*
 * The Invariant CRC that ends every RoCEv2 packet (InfiniBand Architecture Specification, Vol. 1, §7.8.1, and
 * Annex A17 for RoCEv2): CRC-32 with the Ethernet polynomial (zlib's crc32) over the packet from its IP header
 * to the end of the payload and pad, with every field a router or switch may change replaced by ones:
 *
 *   - in front, eight octets of ones, where an InfiniBand packet's Local Routing Header would be;
 *   - IPv4: Type of Service (DSCP and ECN), Time to Live and Header Checksum;
 *   - UDP: Checksum;
 *   - BTH: Resv8a, the octet after the P_Key (in RoCEv2 it carries FECN and BECN).
 *
 * The four ICRC octets follow the payload, least significant octet first.
 *
 *   std::vector<uint8_t> pkt = ...;                 // IPv4 | UDP | BTH | ... | payload | pad
 *   AppendRoceIcrc(pkt);                            // ... | ICRC
 *   bool ok = RoceIcrcIsGood(pkt.data(), pkt.size());
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_ROCE_ICRC_H
#define IWARP_ROCE_ICRC_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * The ICRC of an IPv4 RoCEv2 packet of `len` octets starting at its IP header, the ICRC itself not included.
 * The packet must hold a whole IPv4 header, a UDP header and a BTH (std::invalid_argument otherwise).
 */
uint32_t RoceIcrcIpv4(const uint8_t* packet, size_t len);

/** Appends the ICRC of `packet` (IPv4 | UDP | BTH | ...) to it, least significant octet first. */
void AppendRoceIcrc(std::vector<uint8_t>& packet);

/**
 * Whether the IPv4 packet at `packet` ends with its ICRC. The packet's own Total Length says where it ends (a
 * link layer may have padded it: `len` is what the buffer holds); false, never an exception, for a buffer
 * that holds no whole IPv4 RoCEv2 packet.
 */
bool RoceIcrcIsGood(const uint8_t* packet, size_t len);

/**
 * The ICRC of a packet built in pieces, as a sender assembles one without copying its payload: the headers
 * (IPv4 | UDP | BTH | extended headers) first, contiguous, then the payload as octets or as zeros (a virtual
 * payload), then the pad. Equal to RoceIcrcIpv4 over the same packet laid out in one buffer.
 */
class RoceIcrcBuilder
{
  public:
    /** Starts with the headers; std::invalid_argument unless they hold an IPv4 header, UDP and a BTH. */
    RoceIcrcBuilder(const uint8_t* headers, size_t len);
    void Add(const uint8_t* data, size_t len);
    void AddZeros(size_t len);
    uint32_t Value() const { return m_crc; }

  private:
    uint32_t m_crc;
};

} // namespace ns3

#endif // IWARP_ROCE_ICRC_H
