/*
 * Crc32cUpdateZeros: feeding a run of zero octets into a CRC32c register without walking them.
 *
 * Why: a virtual payload (doc/architecture.md "Payload modes") is zeros, and MPA's CRC covers it in every
 * FPDU on both sides. Fed through the crc32 instruction, the 1,428 zeros of a full FPDU were about
 * 800 instructions at the sender and as many again at the receiver: 22 M of the 154 M instructions
 * by which a 20 MB RDMA stream exceeded BulkSend on two hosts (doc/performance.md).
 *
 * How: with the initial and final inversions kept outside the register (Crc32cUpdate/Crc32cFinish),
 * one zero octet maps the register through (s >> 8) ^ T[s & 0xFF], which is linear over GF(2); n
 * zeros multiply the register's polynomial by x^(8n) modulo the CRC polynomial P. Two ways:
 *  - tables, on every CPU: n zeros are one 32 x 32 bit matrix, the one for 2^(k+1) zeros is the one
 *    for 2^k applied twice, and n zeros are the product of the matrices of n's set bits. Each matrix
 *    is kept as four 256-entry tables (one per register octet), so applying it is four lookups. The
 *    64 matrices (256 KiB) are built once, on first use.
 *  - PCLMULQDQ, where the CPU has it (every x86-64 CPU since 2010): one carry-less multiply by a
 *    constant that depends on n alone, reduced by the crc32 instruction. The constant comes from
 *    the tables, once per length. The tables alone were faster than the crc32 loop while in the
 *    cache (53 against 222 ns per 1,428 zeros) but slower once a large run's working set had
 *    pushed them out (886 against 333 ns with 4 MiB touched between calls).
 */
#include "common/crc32c.h"

#include <array>

#if defined(__x86_64__)
#include <nmmintrin.h>
#include <wmmintrin.h>
#endif

namespace ns3
{

namespace
{

/// The register after a fixed number of zero octets, as a function of the register before.
struct ZeroRunOperator
{
    std::array<std::array<uint32_t, 256>, 4> byOctet; ///< byOctet[j][b]: image of b in register octet j

    uint32_t Apply(uint32_t s) const
    {
        return byOctet[0][s & 0xFFu] ^ byOctet[1][(s >> 8) & 0xFFu] ^ byOctet[2][(s >> 16) & 0xFFu] ^
               byOctet[3][s >> 24];
    }

    /// Fills the tables from the images of the 32 single-bit registers (the matrix's columns).
    void SetColumns(const std::array<uint32_t, 32>& columns)
    {
        for (unsigned j = 0; j < 4; ++j)
        {
            byOctet[j][0] = 0;
            for (unsigned b = 1; b < 256; ++b)
            {
                // b is b without its lowest set bit, plus that bit: linearity.
                byOctet[j][b] = byOctet[j][b & (b - 1)] ^ columns[8 * j + unsigned(__builtin_ctz(b))];
            }
        }
    }
};

/// ops[k] feeds 2^k zero octets.
struct ZeroRunOperators
{
    std::array<ZeroRunOperator, 64> ops;

    ZeroRunOperators()
    {
        std::array<uint32_t, 32> columns{};
        const uint8_t zero = 0;
        for (unsigned i = 0; i < 32; ++i)
        {
            columns[i] = Crc32cUpdateTable(1u << i, &zero, 1);
        }
        ops[0].SetColumns(columns);
        for (unsigned k = 1; k < ops.size(); ++k)
        {
            for (unsigned i = 0; i < 32; ++i)
            {
                columns[i] = ops[k - 1].Apply(ops[k - 1].Apply(1u << i));
            }
            ops[k].SetColumns(columns);
        }
    }
};

uint32_t
UpdateZerosByTables(uint32_t state, uint64_t len)
{
    static const ZeroRunOperators operators;
    while (len != 0)
    {
        state = operators.ops[unsigned(__builtin_ctzll(len))].Apply(state);
        len &= len - 1;
    }
    return state;
}

#if defined(__x86_64__)

bool
DetectPclmul()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") != 0 && __builtin_cpu_supports("sse4.2") != 0;
}

/**
 * The register times x^(8 len) mod P in two instructions. In the reflected form, the carry-less
 * product of two 32-bit registers, read as a 64-bit message, is their product times x; the crc32
 * instruction over that message multiplies by x^32 and reduces. So a register times
 * K = x^(8 len - 33) mod P gives the register after `len` zero octets.
 */
__attribute__((target("sse4.2,pclmul"))) uint32_t
ShiftPclmul(uint32_t state, uint32_t k)
{
    const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(int(state)), _mm_cvtsi32_si128(int(k)), 0);
    return uint32_t(_mm_crc32_u64(0, uint64_t(_mm_cvtsi128_si64(product))));
}

/**
 * K for `len` zero octets, kept for the last lengths asked (a stream's FPDUs have a few lengths):
 * x^7 (bit 24 of the reflected register) times x^(8 (len - 5)), by the tables, once per length.
 */
uint32_t
ShiftConstant(uint64_t len)
{
    struct Entry
    {
        uint64_t len;
        uint32_t k;
    };
    thread_local std::array<Entry, 64> cache{}; // len 0 never asked: below the direct threshold
    Entry& e = cache[(len ^ (len >> 6) ^ (len >> 12)) & 63];
    if (e.len != len)
    {
        e = Entry{len, UpdateZerosByTables(1u << 24, len - 5)};
    }
    return e.k;
}

#endif

} // namespace

uint32_t
Crc32cUpdateZerosTable(uint32_t state, uint64_t len)
{
    return UpdateZerosByTables(state, len);
}

uint32_t
Crc32cUpdateZeros(uint32_t state, uint64_t len)
{
    // Below this many zeros the crc32 instruction over a zero buffer is as quick as the rest.
    constexpr uint64_t kDirect = 64;
    if (len < kDirect)
    {
        static const uint8_t kZeros[kDirect] = {};
        return Crc32cUpdate(state, kZeros, size_t(len));
    }
#if defined(__x86_64__)
    // The tables are 256 KiB: when a large run's working set has pushed them out of the cache, a
    // full FPDU's five lookups-of-four cost more than the crc32 loop they replace. The carry-less
    // multiply needs one constant per length instead.
    static const bool pclmul = DetectPclmul();
    if (pclmul)
    {
        return ShiftPclmul(state, ShiftConstant(len));
    }
#endif
    return UpdateZerosByTables(state, len);
}

} // namespace ns3
