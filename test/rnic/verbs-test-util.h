/*
 * Small helpers the verbs tests share: a registered region filled with a pattern, an octet comparison of two
 * regions, and a send work request.
 */
#ifndef IWARP_TEST_VERBS_TEST_UTIL_H
#define IWARP_TEST_VERBS_TEST_UTIL_H

#include "rnic/rnic.h"

#include <algorithm>

namespace ns3
{
namespace iwarptest
{

/** A region of `length` octets filled with a pattern that differs per `seed` and does not repeat within the
 *  region (a multiplicative hash of the offset), so data placed at a wrong offset never matches. */
inline Ptr<MemoryRegion>
Filled(Ptr<Rnic> rnic, Ptr<ProtectionDomain> pd, uint32_t length, uint8_t access, uint8_t seed)
{
    Ptr<MemoryRegion> mr = rnic->RegisterMemory(pd, length, access);
    for (uint32_t i = 0; i < length; ++i)
    {
        mr->GetBuffer()->Data()[i] = uint8_t(((i + 1) * 2654435761u) >> 24) ^ seed;
    }
    return mr;
}

inline bool
SameOctets(Ptr<MemoryRegion> a, uint64_t aOffset, Ptr<MemoryRegion> b, uint64_t bOffset, uint64_t length)
{
    const uint8_t* x = a->GetBuffer()->Data() + aOffset;
    return std::equal(x, x + length, b->GetBuffer()->Data() + bOffset);
}

inline SendWr
Wr(uint64_t id, WrOpcode type, LocalBuffer local, uint32_t remoteStag = 0, uint64_t remoteTo = 0)
{
    SendWr w;
    w.id = id;
    w.type = type;
    w.local = local;
    w.remoteStag = remoteStag;
    w.remoteTo = remoteTo;
    return w;
}

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TEST_VERBS_TEST_UTIL_H
