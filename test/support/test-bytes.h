/*
 * Octet-string helpers shared by the test suites: building byte vectors from the hex
 * notation of doc/conformance.md and from big-endian fields, slicing and joining them, printing them, and moving them
 * in and out of ns-3 Packets.
 */
#ifndef IWARP_TEST_BYTES_H
#define IWARP_TEST_BYTES_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

using Bytes = std::vector<uint8_t>;

/** Octets from hex text as doc/conformance.md writes it ("41 47 | 00000002"): spaces and bars ignored. */
Bytes Hx(const std::string& text);
/** The octets as upper-case hex pairs, each followed by a space ("41 47 00 "). */
std::string Hex(const Bytes& b);
/** `n` octets of `v`, big-endian. */
Bytes Be(uint64_t v, int n);
/** The characters of `s` as octets. */
Bytes Ascii(const std::string& s);
/** `len` octets of `b` from offset `off`. */
Bytes Sub(const Bytes& b, std::size_t off, std::size_t len);
/** The parts one after the other. */
Bytes Cat(std::initializer_list<Bytes> parts);

/** Every octet of `p`. */
Bytes PacketBytes(Ptr<const Packet> p);
/** A Packet holding exactly the octets `b`. */
Ptr<Packet> PayloadPacket(const Bytes& b);

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TEST_BYTES_H
