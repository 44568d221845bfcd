/*
 * The State Cookie (RFC 9260 §5.1.3): everything the passive side needs to build its association when the
 * COOKIE ECHO arrives, so that an INIT costs it no memory, plus a creation time, a lifetime and a MAC.
 *
 * Layout (all big-endian, model-private: only its creator reads it):
 *   version 8 | reserved 24 | creation time ns 64 | lifetime ns 64 | my tag 32 | peer tag 32 |
 *   my initial TSN 32 | peer initial TSN 32 | peer a_rwnd 32 | outbound streams 16 | inbound streams 16 |
 *   local port 16 | peer port 16 | peer IPv4 32 | peer adaptation 32 | has adaptation 8 | reserved 24 |
 *   [only when the INIT listed addresses: their number n 8 | reserved 24 | n x IPv4 32] |
 *   HMAC-SHA-256 over everything before it (32 octets)
 *
 * The MAC key is a per-endpoint secret (SctpL4Protocol's), so a cookie cannot be forged or altered without
 * it, and binding the peer's address and port stops a cookie being replayed from elsewhere.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_COOKIE_H
#define IWARP_SCTP_COOKIE_H

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct SctpCookie
{
    Time created{0};
    Time lifetime{Seconds(60)};
    uint32_t myTag{0};
    uint32_t peerTag{0};
    uint32_t myInitialTsn{0};
    uint32_t peerInitialTsn{0};
    uint32_t peerArwnd{0};
    uint16_t outStreams{0}; ///< negotiated: what this side may send on
    uint16_t inStreams{0};  ///< negotiated: what the peer may send on
    uint16_t localPort{0};
    uint16_t peerPort{0};
    Ipv4Address peerAddress;
    bool hasPeerAdaptation{false};
    uint32_t peerAdaptation{0};
    /** The IPv4 Address parameters of the INIT (a multihomed peer's addresses), at most kMaxAddresses. */
    std::vector<Ipv4Address> otherPeerAddresses;

    enum class Check
    {
        Ok,
        Malformed, ///< wrong length or version
        BadMac,    ///< not made with our secret, or altered
        Stale,     ///< authentic but past its lifetime
    };

    std::vector<uint8_t> Encode(const std::vector<uint8_t>& secret) const;
    /** Authenticates and decodes; *out is written on Ok and on Stale (then *staleness says by how much). */
    static Check Decode(const std::vector<uint8_t>& bytes,
                        const std::vector<uint8_t>& secret,
                        Time now,
                        SctpCookie* out,
                        Time* staleness);

    /** The body up to and including the address count (4 octets less without addresses). */
    static constexpr uint32_t kFixedLen = 64;
    static constexpr uint32_t kMaxAddresses = 255;
    static constexpr uint32_t kMacLen = 32;
};

} // namespace ns3

#endif // IWARP_SCTP_COOKIE_H
