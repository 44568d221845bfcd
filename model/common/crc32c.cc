/*
 * CRC32c (Castagnoli), see crc32c.h for what it is used for and the parameters.
 *
 * Two implementations:
 *  - table: "slicing-by-8", eight 256-entry tables built at compile time; consumes 8 octets per step with
 *    eight independent lookups.  Portable (octets are assembled explicitly, no endianness assumption).
 *  - hardware: the SSE4.2 `crc32` instruction, which computes exactly this CRC (reflected 0x82F63B78) on the
 *    register state without the initial/final inversion, so it plugs into the same Update/Finish scheme.
 *    The function is compiled with __attribute__((target("sse4.2"))) so the rest of the build needs no
 *    -msse4.2; it is only called after a one-time run-time check of the CPU.
 */
#include "common/crc32c.h"

#include <algorithm>

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#define IWARP_CRC32C_HAVE_X86 1
#else
#define IWARP_CRC32C_HAVE_X86 0
#endif

namespace ns3
{

namespace
{

constexpr uint32_t kCrc32cPolyReflected = 0x82F63B78u;

using Crc32cTables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0][b] is the CRC register after shifting octet b through a zero register (classic byte-wise table).
// tables[k][b] is the same octet followed by k zero octets, which is what slicing-by-8 needs for the octet
// that sits k positions before the end of an 8-octet block.
constexpr Crc32cTables
MakeCrc32cTables()
{
    Crc32cTables t{};
    for (uint32_t b = 0; b < 256; ++b)
    {
        uint32_t r = b;
        for (int bit = 0; bit < 8; ++bit)
        {
            r = (r & 1u) ? (r >> 1) ^ kCrc32cPolyReflected : (r >> 1);
        }
        t[0][b] = r;
    }
    for (size_t k = 1; k < 8; ++k)
    {
        for (uint32_t b = 0; b < 256; ++b)
        {
            const uint32_t prev = t[k - 1][b];
            t[k][b] = (prev >> 8) ^ t[0][prev & 0xFFu];
        }
    }
    return t;
}

constexpr Crc32cTables kTables = MakeCrc32cTables();

static_assert(kTables[0][1] == 0xF26B8303u, "CRC32c table generation is broken");
static_assert(kTables[0][128] == kCrc32cPolyReflected, "CRC32c table generation is broken");

inline uint32_t
LoadLe32(const uint8_t* p)
{
    return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
           (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

#if IWARP_CRC32C_HAVE_X86

__attribute__((target("sse4.2"))) uint32_t
UpdateSse42(uint32_t state, const uint8_t* p, size_t len)
{
    // Octet-wise up to an 8-octet boundary so the 64-bit loads below are aligned (faster, never split lines).
    while (len > 0 && (reinterpret_cast<uintptr_t>(p) & 7u) != 0)
    {
        state = _mm_crc32_u8(state, *p);
        ++p;
        --len;
    }
    uint64_t s64 = state;
    while (len >= 8)
    {
        uint64_t v;
        std::memcpy(&v, p, sizeof(v)); // x86 is little-endian, which is the order crc32 expects
        s64 = _mm_crc32_u64(s64, v);
        p += 8;
        len -= 8;
    }
    state = static_cast<uint32_t>(s64);
    while (len > 0)
    {
        state = _mm_crc32_u8(state, *p);
        ++p;
        --len;
    }
    return state;
}

bool
DetectSse42()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
}

#endif // IWARP_CRC32C_HAVE_X86

} // namespace

uint32_t
Crc32cUpdateTable(uint32_t state, const uint8_t* data, size_t len)
{
    if (len == 0)
    {
        return state;
    }
    const uint8_t* p = data;
    while (len >= 8)
    {
        const uint32_t lo = LoadLe32(p) ^ state;
        const uint32_t hi = LoadLe32(p + 4);
        state = kTables[7][lo & 0xFFu] ^ kTables[6][(lo >> 8) & 0xFFu] ^ kTables[5][(lo >> 16) & 0xFFu] ^
                kTables[4][lo >> 24] ^ kTables[3][hi & 0xFFu] ^ kTables[2][(hi >> 8) & 0xFFu] ^
                kTables[1][(hi >> 16) & 0xFFu] ^ kTables[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len > 0)
    {
        state = (state >> 8) ^ kTables[0][(state ^ *p) & 0xFFu];
        ++p;
        --len;
    }
    return state;
}

uint32_t
Crc32cTable(const uint8_t* data, size_t len)
{
    return Crc32cFinish(Crc32cUpdateTable(kCrc32cInit, data, len));
}

bool
Crc32cHardwareAvailable()
{
#if IWARP_CRC32C_HAVE_X86
    static const bool available = DetectSse42();
    return available;
#else
    return false;
#endif
}

uint32_t
Crc32cUpdateHardware(uint32_t state, const uint8_t* data, size_t len)
{
    if (len == 0)
    {
        return state;
    }
#if IWARP_CRC32C_HAVE_X86
    if (Crc32cHardwareAvailable())
    {
        return UpdateSse42(state, data, len);
    }
#endif
    return Crc32cUpdateTable(state, data, len);
}

uint32_t
Crc32cHardware(const uint8_t* data, size_t len)
{
    return Crc32cFinish(Crc32cUpdateHardware(kCrc32cInit, data, len));
}

uint32_t
Crc32cUpdate(uint32_t state, const uint8_t* data, size_t len)
{
    // Crc32cUpdateHardware() already falls back to the table when the CPU lacks SSE4.2.
    return Crc32cUpdateHardware(state, data, len);
}

uint32_t
Crc32c(const uint8_t* data, size_t len)
{
    return Crc32cFinish(Crc32cUpdate(kCrc32cInit, data, len));
}

} // namespace ns3
