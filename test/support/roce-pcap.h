/*
 * RoCEv2 packets for the tshark cases of the RoCE suites (iwarp-roce-headers, iwarp-roce-cm): a header's
 * octets and a header read back from octets, an IPv4 | UDP 4791 packet around the transport headers (with a
 * good IPv4 header checksum, so that tshark finds nothing wrong below the InfiniBand layer), a pcap of raw
 * IPv4 packets, and tshark's `-T fields` output as rows of cells, its warning when run as root left out.
 */
#ifndef IWARP_TEST_ROCE_PCAP_H
#define IWARP_TEST_ROCE_PCAP_H

#include "ns3/ipv4-address.h"
#include "ns3/packet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** The serialised octets of `h`. */
template <typename H>
std::vector<uint8_t>
Octets(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> out(p->GetSize());
    p->CopyData(out.data(), uint32_t(out.size()));
    return out;
}

/** An `H` read back from `octets`. */
template <typename H>
H
Parsed(const std::vector<uint8_t>& octets)
{
    Ptr<Packet> p = Create<Packet>(octets.data(), uint32_t(octets.size()));
    H h;
    p->RemoveHeader(h);
    return h;
}

/**
 * IPv4 (20 octets: TOS 0x02, TTL 64, DF) | UDP from port 50000 to 4791 | `transport` (the BTH and what follows
 * it, without the ICRC). The lengths count the four ICRC octets the caller appends (AppendRoceIcrc).
 */
std::vector<uint8_t> RoceIpv4Packet(const std::vector<uint8_t>& transport,
                                    Ipv4Address src = Ipv4Address("10.0.0.1"),
                                    Ipv4Address dst = Ipv4Address("10.0.0.2"));

/** A pcap file name in the temporary directory, unique to this process and `tag`. */
std::string TempPcapName(const std::string& tag);

/** Writes `packets` (whole IPv4 packets) to a pcap of LINKTYPE_RAW, one a second. */
void WriteRawIpv4Pcap(const std::string& file, const std::vector<std::vector<uint8_t>>& packets);

/**
 * Runs `tshark -n -r file -T fields` for `fields`: one row a packet, one cell a field (empty when tshark
 * shows none; several occurrences joined by commas). `*status` gets tshark's exit status, `*out` its output.
 */
std::vector<std::vector<std::string>> TsharkFields(const std::string& file, const std::vector<std::string>& fields,
                                                   int* status, std::string* out);

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TEST_ROCE_PCAP_H
