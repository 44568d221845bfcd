/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), self-contained.
 *
 * Why: the SCTP State Cookie must be authenticated so that a passive endpoint can keep no state between
 * INIT ACK and COOKIE ECHO and still refuse forged cookies (RFC 9260 §5.1.3). A keyed CRC would be forgeable
 * (CRC is linear); HMAC over a cryptographic hash is the standard answer. Speed is irrelevant here (one MAC
 * per association set-up), so this is the plain textbook implementation.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_COMMON_SHA256_H
#define IWARP_COMMON_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace ns3
{

using Sha256Digest = std::array<uint8_t, 32>;

/** Incremental SHA-256: Update() any number of times, then Finish() once. */
class Sha256
{
  public:
    Sha256();
    void Update(const uint8_t* data, size_t len);
    Sha256Digest Finish();

    static Sha256Digest Hash(const uint8_t* data, size_t len);

  private:
    void Block(const uint8_t* b);

    std::array<uint32_t, 8> m_h;
    std::array<uint8_t, 64> m_buf{};
    size_t m_bufLen{0};
    uint64_t m_totalLen{0};
};

/** HMAC-SHA-256 of `msg` under `key` (any key length; keys longer than 64 octets are hashed first). */
Sha256Digest HmacSha256(const uint8_t* key, size_t keyLen, const uint8_t* msg, size_t msgLen);

/** Constant-time comparison of `len` octets (so a MAC check does not leak how many octets matched). */
bool ConstantTimeEqual(const uint8_t* a, const uint8_t* b, size_t len);

} // namespace ns3

#endif // IWARP_COMMON_SHA256_H
