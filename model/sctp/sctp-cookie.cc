/*
 * State Cookie encoding and authentication; see sctp-cookie.h.
 */
#include "sctp/sctp-cookie.h"

#include "common/sha256.h"
#include "sctp/sctp-wire.h"

namespace ns3
{

namespace
{
constexpr uint8_t kCookieVersion = 1;

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
    v.reserve(kBodyLen + kMacLen);
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
    if (bytes.size() != kBodyLen + kMacLen)
    {
        return Check::Malformed;
    }
    // Authenticate before looking at any field: nothing in an unauthenticated cookie is trusted.
    Sha256Digest mac = HmacSha256(secret.data(), secret.size(), bytes.data(), kBodyLen);
    if (!ConstantTimeEqual(mac.data(), bytes.data() + kBodyLen, kMacLen))
    {
        return Check::BadMac;
    }
    sctp::WireReader r(bytes.data(), kBodyLen);
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
