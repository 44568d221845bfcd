/*
 * Data doc/conformance.md fixes and several suites use: fixture F's STags (§4.0) and the test
 * vectors V1-V6 (§1.12), verbatim (V3's payload is ours: "inv").
 */
#ifndef IWARP_CONFORMANCE_DATA_H
#define IWARP_CONFORMANCE_DATA_H

#include "support/test-bytes.h"

#include <cstdint>

namespace ns3
{
namespace iwarptest
{

// Fixture F's STags (doc/conformance.md §4.0).
inline constexpr uint32_t kStagA = 0x0000A101;   // [0x10000, 0x1FFFF] remote read+write, PD-wide
inline constexpr uint32_t kStagRO = 0x0000A202;  // [0x20000, 0x20FFF] remote read only
inline constexpr uint32_t kStagWO = 0x0000A303;  // [0x30000, 0x30FFF] remote write only
inline constexpr uint32_t kStagX = 0x0000A404;   // valid, but in PD P2
inline constexpr uint32_t kStagTOP = 0x0000A505; // [0xFFFFFFFFFFFFF000, 2^64-1]
inline constexpr uint32_t kStagZ = 0x0000A606;   // [0x60000, 0x60FFF] scoped to stream S1
inline constexpr uint32_t kStagY = 0x0000A707;   // scoped to another stream S2 of P1 (D-16)
inline constexpr uint32_t kStagL1 = 0x0000B001;  // the DUT's local Read sink, local write
inline constexpr uint32_t kStagBAD = 0xDEADBE00; // never allocated
inline constexpr uint32_t kStreamS1 = 1;
inline constexpr uint32_t kStreamS2 = 2;

// The §1.12 vectors. Internal linkage: each translation unit initialises its own copy before
// its later globals (its TestSuite), so no cross-unit initialisation order is involved.
const Bytes kV1 = Hx("C1 40 DE AD BE 00 00 00 00 00 00 01 00 00 41 42 43 44");
const Bytes kV2 = Hx("41 43 00 00 00 00 | 00 00 00 00 | 00 00 00 01 | 00 00 00 00 | 68 65 6C 6C 6F");
const Bytes kV3 = Hx("41 44 00 00 A1 01 | 00 00 00 00 | 00 00 00 02 | 00 00 00 00 | 69 6E 76");
const Bytes kV4 = Hx("41 41 00 00 00 00 | 00 00 00 01 | 00 00 00 01 | 00 00 00 00 | 00 00 F0 0D | "
                     "00 00 00 00 00 00 50 00 | 00 00 0B B8 | 00 00 A1 01 | 00 00 00 00 00 01 00 00");
const Bytes kV5 = Hx("41 47 00 00 00 00 | 00 00 00 02 | 00 00 00 01 | 00 00 00 00 | 11 00 C0 00 | 00 12 | "
                     "C1 40 DE AD BE 00 00 00 00 00 00 01 00 00");
// V6: the 18 header octets and 28 Read Request octets of V4 follow the Terminate control.
const Bytes kV6 = Hx("41 47 00000000 00000002 00000001 00000000 | 01 00 E0 00 | 00 2E | "
                     "41 41 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00 | 00 00 F0 0D 00 00 00 00 00 00 50 00 "
                     "00 00 0B B8 00 00 A1 01 00 00 00 00 00 01 00 00");

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_CONFORMANCE_DATA_H
