/*
 * Small helpers shared by the MPA framing and MPA setup-frame test suites: the octets of a Packet, a hex
 * rendering for comparisons, and concatenation of two octet strings.
 */
#ifndef IWARP_MPA_TEST_UTIL_H
#define IWARP_MPA_TEST_UTIL_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace mpatest
{

using Bytes = std::vector<uint8_t>;

/** Every octet of `p`. */
inline Bytes
PacketBytes(Ptr<const Packet> p)
{
    Bytes b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/** The octets as lower-case hex pairs, each followed by a space. */
inline std::string
Hex(const Bytes& b)
{
    std::ostringstream os;
    for (uint8_t v : b)
    {
        os << std::hex << std::setw(2) << std::setfill('0') << unsigned(v) << ' ';
    }
    return os.str();
}

/** `a` followed by `b`. */
inline Bytes
Cat(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace mpatest
} // namespace ns3

#endif // IWARP_MPA_TEST_UTIL_H
