/*
 * CRC32c (Castagnoli) for the iWARP model.
 *
 * Why this exists: MPA (RFC 5044, see doc/conformance.md, MPA "FPDU") protects every FPDU with a CRC32c computed over
 * ULPDU_Length, the ULPDU, the pad and any markers inside the FPDU.  It is the same CRC that iSCSI and SCTP
 * use (RFC 3385 explains the choice of the Castagnoli polynomial), so the same code also serves an SCTP-style
 * checksum should we need one.  The model computes it for every simulated FPDU in both directions, which puts
 * it on the hot path of long runs; hence the SSE4.2 `crc32` instruction when the CPU has it, and a table
 * (slicing-by-8) implementation otherwise.
 *
 * Parameters: reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, final complement (xor 0xFFFFFFFF).
 * Check value: Crc32c("123456789") == 0xE3069283.
 *
 * Byte order on the wire is NOT handled here: MPA sends the CRC value least significant octet first (as
 * iSCSI/SCTP do); the FPDU code is responsible for that.
 *
 * Piecewise use:
 *     uint32_t s = kCrc32cInit;
 *     s = Crc32cUpdate(s, a, aLen);
 *     s = Crc32cUpdate(s, b, bLen);
 *     uint32_t crc = Crc32cFinish(s);   // == Crc32c(a ++ b)
 *
 * All functions are thread-safe and accept data == nullptr when len == 0.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_COMMON_CRC32C_H
#define IWARP_COMMON_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/// Initial CRC register state for Crc32cUpdate().
constexpr uint32_t kCrc32cInit = 0xFFFFFFFFu;

/// Feeds len octets into the running CRC register `state` (start from kCrc32cInit) and returns the new state.
/// Uses the hardware path when available, else the table path.
uint32_t Crc32cUpdate(uint32_t state, const uint8_t* data, size_t len);

/// Feeds `len` zero octets into the running CRC register (for virtual payloads, which are zeros), without
/// walking them: one carry-less multiply with a constant kept per length where the CPU has PCLMULQDQ, else
/// a few table lookups per set bit of `len` (crc32c-zeros.cc).
uint32_t Crc32cUpdateZeros(uint32_t state, uint64_t len);
/// The table way of Crc32cUpdateZeros() alone, on every CPU; exposed so tests can compare both ways.
uint32_t Crc32cUpdateZerosTable(uint32_t state, uint64_t len);

/// Turns a register state into the CRC value (final complement).
constexpr uint32_t
Crc32cFinish(uint32_t state)
{
    return ~state;
}

/// One-shot CRC32c of a buffer: Crc32cFinish(Crc32cUpdate(kCrc32cInit, data, len)).
uint32_t Crc32c(const uint8_t* data, size_t len);

/// True if Crc32cUpdate()/Crc32c() use the SSE4.2 crc32 instruction on this machine (checked once at run time).
bool Crc32cHardwareAvailable();

/// Table (slicing-by-8) implementation, always available; exposed so tests can compare both paths.
uint32_t Crc32cUpdateTable(uint32_t state, const uint8_t* data, size_t len);
/// One-shot CRC32c using the table implementation only.
uint32_t Crc32cTable(const uint8_t* data, size_t len);

/// SSE4.2 implementation.  If Crc32cHardwareAvailable() is false (CPU without SSE4.2, or a non-x86-64 build),
/// these silently use the table implementation instead, so callers never hit an illegal instruction; tests that
/// want to exercise the instruction must check Crc32cHardwareAvailable() first.
uint32_t Crc32cUpdateHardware(uint32_t state, const uint8_t* data, size_t len);
/// One-shot CRC32c using the hardware implementation (see Crc32cUpdateHardware()).
uint32_t Crc32cHardware(const uint8_t* data, size_t len);

} // namespace ns3

#endif // IWARP_COMMON_CRC32C_H
