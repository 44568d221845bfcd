/*
 * State Cookie encoding and authentication; see sctp-cookie.h.
 */
#include "sctp/sctp-cookie.h"

#include "common/sha256.h"
#include "sctp/sctp-wire.h"

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint8_t kCookieVersion = 2; // 2: the INIT's other peer addresses

void
PutU64(std::vector<uint8_t>& v, uint64_t x)
{
    sctp::PutU32(v, uint32_t(x >> 32));
    sctp::PutU32(v, uint32_t(x));
}
} // namespace

std::vector<uint8_t>
SctpCookie::Encode(const std::vector<uint8_t>& secret) const
{
    std::vector<uint8_t> v;
    const size_t n = std::min<size_t>(otherPeerAddresses.size(), kMaxAddresses);
    v.reserve(kFixedLen + 4 * n + kMacLen);
    sctp::PutU32(v, uint32_t(kCookieVersion) << 24);
    PutU64(v, uint64_t(created.GetNanoSeconds()));
    PutU64(v, uint64_t(lifetime.GetNanoSeconds()));
    sctp::PutU32(v, myTag);
    sctp::PutU32(v, peerTag);
    sctp::PutU32(v, myInitialTsn);
    sctp::PutU32(v, peerInitialTsn);
    sctp::PutU32(v, peerArwnd);
    sctp::PutU16(v, outStreams);
    sctp::PutU16(v, inStreams);
    sctp::PutU16(v, localPort);
    sctp::PutU16(v, peerPort);
    sctp::PutU32(v, peerAddress.Get());
    sctp::PutU32(v, peerAdaptation);
    sctp::PutU32(v, uint32_t(hasPeerAdaptation ? 1 : 0) << 24);
    if (n > 0) // a single-homed peer's cookie is no longer than before multihoming
    {
        sctp::PutU32(v, uint32_t(n) << 24);
        for (size_t k = 0; k < n; ++k)
        {
            sctp::PutU32(v, otherPeerAddresses[k].Get());
        }
    }
    Sha256Digest mac = HmacSha256(secret.data(), secret.size(), v.data(), v.size());
    v.insert(v.end(), mac.begin(), mac.end());
    return v;
}

SctpCookie::Check
SctpCookie::Decode(const std::vector<uint8_t>& bytes,
                   const std::vector<uint8_t>& secret,
                   Time now,
                   SctpCookie* out,
                   Time* staleness)
{
    if (bytes.size() < kFixedLen - 4 + kMacLen || (bytes.size() - kMacLen) % 4 != 0)
    {
        return Check::Malformed;
    }
    const size_t bodyLen = bytes.size() - kMacLen;
    // Authenticate before looking at any field: nothing in an unauthenticated cookie is trusted.
    Sha256Digest mac = HmacSha256(secret.data(), secret.size(), bytes.data(), bodyLen);
    if (!ConstantTimeEqual(mac.data(), bytes.data() + bodyLen, kMacLen))
    {
        return Check::BadMac;
    }
    sctp::WireReader r(bytes.data(), bodyLen);
    if ((r.U32() >> 24) != kCookieVersion)
    {
        return Check::Malformed;
    }
    SctpCookie c;
    uint64_t hi = r.U32();
    c.created = NanoSeconds(int64_t((hi << 32) | r.U32()));
    hi = r.U32();
    c.lifetime = NanoSeconds(int64_t((hi << 32) | r.U32()));
    c.myTag = r.U32();
    c.peerTag = r.U32();
    c.myInitialTsn = r.U32();
    c.peerInitialTsn = r.U32();
    c.peerArwnd = r.U32();
    c.outStreams = r.U16();
    c.inStreams = r.U16();
    c.localPort = r.U16();
    c.peerPort = r.U16();
    c.peerAddress = Ipv4Address(r.U32());
    c.peerAdaptation = r.U32();
    c.hasPeerAdaptation = (r.U32() >> 24) != 0;
    const uint32_t n = bodyLen == kFixedLen - 4 ? 0 : r.U32() >> 24;
    if (bodyLen != kFixedLen - 4 && (n == 0 || bodyLen != kFixedLen + 4 * size_t(n)))
    {
        return Check::Malformed;
    }
    for (uint32_t k = 0; k < n; ++k)
    {
        c.otherPeerAddresses.emplace_back(r.U32());
    }
    // Authentic, so worth decoding even when stale: the caller needs the peer's tag to report it.
    *out = c;
    Time expiry = c.created + c.lifetime;
    if (now > expiry)
    {
        if (staleness != nullptr)
        {
            *staleness = now - expiry;
        }
        return Check::Stale;
    }
    return Check::Ok;
}

} // namespace ns3
