#include "roce/roce-icrc.h"

#include "roce/roce-headers.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace ns3
{

namespace
{
constexpr size_t kIpv4MinHeader = 20;
constexpr size_t kUdpHeader = 8;
// Offsets of the fields the ICRC does not cover, within each header.
constexpr size_t kIpv4Tos = 1;
constexpr size_t kIpv4Ttl = 8;
constexpr size_t kIpv4Checksum = 10;
constexpr size_t kUdpChecksum = 6;
constexpr size_t kBthResv8a = 4;

/** Octets of the IPv4 header when the `len` octets at `packet` hold it, a UDP header and a BTH; else 0. */
size_t
Ipv4HeaderLength(const uint8_t* packet, size_t len)
{
    const size_t ipHeader = len > 0 ? size_t(packet[0] & 0x0F) * 4 : 0;
    const bool whole = len > 0 && (packet[0] >> 4) == 4 && ipHeader >= kIpv4MinHeader &&
                       len >= ipHeader + kUdpHeader + roce::kBthLen;
    return whole ? ipHeader : 0;
}
} // namespace

uint32_t
RoceIcrcIpv4(const uint8_t* packet, size_t len)
{
    const size_t ipHeader = Ipv4HeaderLength(packet, len);
    if (ipHeader == 0)
    {
        throw std::invalid_argument("RoceIcrcIpv4: not an IPv4 packet holding UDP and a BTH");
    }
    const size_t upToBth = ipHeader + kUdpHeader + roce::kBthLen;
    RoceIcrcBuilder icrc(packet, upToBth);
    icrc.Add(packet + upToBth, len - upToBth);
    return icrc.Value();
}

RoceIcrcBuilder::RoceIcrcBuilder(const uint8_t* headers, size_t len)
{
    const size_t ipHeader = Ipv4HeaderLength(headers, len);
    if (ipHeader == 0)
    {
        throw std::invalid_argument("RoceIcrcBuilder: the headers hold no IPv4 header, UDP and BTH");
    }
    // The three headers with their variant fields as ones; IPv4 options (at most 40 octets) stay covered.
    const size_t masked = ipHeader + kUdpHeader + roce::kBthLen;
    std::array<uint8_t, 60 + kUdpHeader + roce::kBthLen> copy{};
    std::memcpy(copy.data(), headers, masked);
    copy[kIpv4Tos] = 0xFF;
    copy[kIpv4Ttl] = 0xFF;
    copy[kIpv4Checksum] = copy[kIpv4Checksum + 1] = 0xFF;
    copy[ipHeader + kUdpChecksum] = copy[ipHeader + kUdpChecksum + 1] = 0xFF;
    copy[ipHeader + kUdpHeader + kBthResv8a] = 0xFF;
    static const std::array<uint8_t, 8> kLrhOnes = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, kLrhOnes.data(), uInt(kLrhOnes.size()));
    crc = crc32(crc, copy.data(), uInt(masked));
    m_crc = uint32_t(crc32(crc, headers + masked, uInt(len - masked)));
}

void
RoceIcrcBuilder::Add(const uint8_t* data, size_t len)
{
    m_crc = uint32_t(crc32(m_crc, data, uInt(len)));
}

void
RoceIcrcBuilder::AddZeros(size_t len)
{
    static const std::array<uint8_t, 4096> kZeros{};
    for (size_t done = 0; done < len; done += kZeros.size())
    {
        m_crc = uint32_t(crc32(m_crc, kZeros.data(), uInt(std::min(kZeros.size(), len - done))));
    }
}

void
AppendRoceIcrc(std::vector<uint8_t>& packet)
{
    const uint32_t icrc = RoceIcrcIpv4(packet.data(), packet.size());
    for (int k = 0; k < 4; ++k)
    {
        packet.push_back(uint8_t(icrc >> (8 * k)));
    }
}

bool
RoceIcrcIsGood(const uint8_t* packet, size_t len)
{
    const size_t total = len >= kIpv4MinHeader ? size_t(packet[2]) << 8 | packet[3] : 0; // IPv4 Total Length
    if (total > len || total < roce::kIcrcLen || Ipv4HeaderLength(packet, total - roce::kIcrcLen) == 0)
    {
        return false;
    }
    const uint8_t* tail = packet + total - roce::kIcrcLen;
    const uint32_t sent = uint32_t(tail[0]) | uint32_t(tail[1]) << 8 | uint32_t(tail[2]) << 16 | uint32_t(tail[3]) << 24;
    return RoceIcrcIpv4(packet, total - roce::kIcrcLen) == sent;
}

} // namespace ns3
