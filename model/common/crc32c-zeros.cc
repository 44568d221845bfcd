/*
 * Crc32cUpdateZeros: feeding a run of zero octets into a CRC32c register without walking them.
 *
 * Why: a virtual payload (DESIGN.md "Payload modes") is zeros, and MPA's CRC covers it in every
 * FPDU on both sides. Fed through the crc32 instruction, the 1,428 zeros of a full FPDU were about
 * 800 instructions at the sender and as many again at the receiver: 22 M of the 154 M instructions
 * by which a 20 MB RDMA stream exceeded BulkSend on two hosts (doc/performance.md).
 *
 * How: with the initial and final inversions kept outside the register (Crc32cUpdate/Crc32cFinish),
 * one zero octet maps the register through (s >> 8) ^ T[s & 0xFF], which is linear over GF(2). So
 * does any number of them: n zeros are one 32 x 32 bit matrix, the one for 2^(k+1) zeros is the one
 * for 2^k applied twice, and n zeros are the product of the matrices of n's set bits. Each matrix is
 * kept as four 256-entry tables, one per register octet, so applying it is four lookups; a full
 * FPDU's zeros are five of them. The 64 matrices (256 KiB) are built once, on first use.
 */
#include "common/crc32c.h"

#include <array>

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

} // namespace

uint32_t
Crc32cUpdateZeros(uint32_t state, uint64_t len)
{
    // Below this many zeros the crc32 instruction over a zero buffer is as quick as the tables.
    constexpr uint64_t kDirect = 64;
    if (len < kDirect)
    {
        static const uint8_t kZeros[kDirect] = {};
        return Crc32cUpdate(state, kZeros, size_t(len));
    }
    static const ZeroRunOperators operators;
    while (len != 0)
    {
        state = operators.ops[unsigned(__builtin_ctzll(len))].Apply(state);
        len &= len - 1;
    }
    return state;
}

} // namespace ns3
