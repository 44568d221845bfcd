/*
 * SHA-256 and HMAC-SHA-256; see sha256.h. Written from FIPS 180-4 §4.1.2, §5.3.3, §6.2 and RFC 2104 §2.
 */
#include "common/sha256.h"

#include <cstring>

namespace ns3
{

namespace
{

// First 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4 §4.2.2).
constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t
Rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

} // namespace

Sha256::Sha256()
    : m_h{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
{
}

void
Sha256::Block(const uint8_t* b)
{
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
    {
        w[t] = (uint32_t(b[4 * t]) << 24) | (uint32_t(b[4 * t + 1]) << 16) | (uint32_t(b[4 * t + 2]) << 8) |
               uint32_t(b[4 * t + 3]);
    }
    for (int t = 16; t < 64; ++t)
    {
        uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = m_h[0], bb = m_h[1], c = m_h[2], d = m_h[3], e = m_h[4], f = m_h[5], g = m_h[6], h = m_h[7];
    for (int t = 0; t < 64; ++t)
    {
        uint32_t t1 = h + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[t] + w[t];
        uint32_t t2 = (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = bb;
        bb = a;
        a = t1 + t2;
    }
    m_h[0] += a;
    m_h[1] += bb;
    m_h[2] += c;
    m_h[3] += d;
    m_h[4] += e;
    m_h[5] += f;
    m_h[6] += g;
    m_h[7] += h;
}

void
Sha256::Update(const uint8_t* data, size_t len)
{
    m_totalLen += len;
    while (len > 0)
    {
        size_t n = std::min(len, size_t(64) - m_bufLen);
        std::memcpy(m_buf.data() + m_bufLen, data, n);
        m_bufLen += n;
        data += n;
        len -= n;
        if (m_bufLen == 64)
        {
            Block(m_buf.data());
            m_bufLen = 0;
        }
    }
}

Sha256Digest
Sha256::Finish()
{
    uint64_t bits = m_totalLen * 8;
    uint8_t pad = 0x80;
    Update(&pad, 1);
    uint8_t zero = 0;
    while (m_bufLen != 56)
    {
        Update(&zero, 1);
    }
    uint8_t lenBytes[8];
    for (int k = 0; k < 8; ++k)
    {
        lenBytes[k] = uint8_t(bits >> (56 - 8 * k));
    }
    Update(lenBytes, 8);
    Sha256Digest out;
    for (int k = 0; k < 8; ++k)
    {
        out[4 * k] = uint8_t(m_h[k] >> 24);
        out[4 * k + 1] = uint8_t(m_h[k] >> 16);
        out[4 * k + 2] = uint8_t(m_h[k] >> 8);
        out[4 * k + 3] = uint8_t(m_h[k]);
    }
    return out;
}

Sha256Digest
Sha256::Hash(const uint8_t* data, size_t len)
{
    Sha256 s;
    s.Update(data, len);
    return s.Finish();
}

Sha256Digest
HmacSha256(const uint8_t* key, size_t keyLen, const uint8_t* msg, size_t msgLen)
{
    uint8_t k0[64] = {};
    if (keyLen > 64)
    {
        Sha256Digest kh = Sha256::Hash(key, keyLen);
        std::memcpy(k0, kh.data(), kh.size());
    }
    else if (keyLen > 0)
    {
        std::memcpy(k0, key, keyLen);
    }
    uint8_t ipad[64];
    uint8_t opad[64];
    for (int k = 0; k < 64; ++k)
    {
        ipad[k] = k0[k] ^ 0x36;
        opad[k] = k0[k] ^ 0x5c;
    }
    Sha256 inner;
    inner.Update(ipad, 64);
    inner.Update(msg, msgLen);
    Sha256Digest ih = inner.Finish();
    Sha256 outer;
    outer.Update(opad, 64);
    outer.Update(ih.data(), ih.size());
    return outer.Finish();
}

bool
ConstantTimeEqual(const uint8_t* a, const uint8_t* b, size_t len)
{
    uint8_t diff = 0;
    for (size_t k = 0; k < len; ++k)
    {
        diff |= a[k] ^ b[k];
    }
    return diff == 0;
}

} // namespace ns3
