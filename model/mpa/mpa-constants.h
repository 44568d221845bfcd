/*
 * MPA (RFC 5044, updated by RFC 6581) wire constants and error codes, from doc/conformance.md, MPA.
 *
 * Kept apart from common/iwarp-constants.h because only the MPA/TCP LLP uses them; they follow the same
 * rule (doc/architecture.md convention 2): one enum per layer, every error leaves as an ErrorCause built here.
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_CONSTANTS_H
#define IWARP_MPA_CONSTANTS_H

#include "common/iwarp-constants.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace iwarp
{

// ---- Request/Reply frames (doc/conformance.md, MPA "Connection set-up") ----
inline constexpr std::size_t kMpaKeyLen = 16;
inline constexpr std::size_t kMpaSetupHdrLen = 20; // key + flags + Rev + PD_Length
inline constexpr std::size_t kMpaMaxPrivateData = 512;
inline constexpr std::uint8_t kMpaKeyRequest[kMpaKeyLen] = {'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
                                                            'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e'};
inline constexpr std::uint8_t kMpaKeyReply[kMpaKeyLen] = {'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
                                                          'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e'};
inline constexpr std::uint8_t kMpaFlagM = 0x80;        // markers wanted on the data this side receives
inline constexpr std::uint8_t kMpaFlagC = 0x40;        // CRC wanted
inline constexpr std::uint8_t kMpaFlagR = 0x20;        // Reply only: reject
inline constexpr std::uint8_t kMpaFlagEnhanced = 0x10; // RFC 6581: IRD/ORD words lead the private data
inline constexpr std::uint8_t kMpaRev1 = 1;            // RFC 5044
inline constexpr std::uint8_t kMpaRev2 = 2;            // RFC 6581 enhanced set-up

// RFC 6581 IRD/ORD words: a 14-bit value and two control flags each.
inline constexpr std::size_t kMpaIrdOrdLen = 4;
inline constexpr std::uint16_t kMpaIrdOrdValueMask = 0x3FFF;
inline constexpr std::uint16_t kMpaIrdPeerToPeer = 0x8000; // in the IRD word
inline constexpr std::uint16_t kMpaIrdRtrSend = 0x4000;    // in the IRD word: zero-length Send as RTR
inline constexpr std::uint16_t kMpaOrdRtrWrite = 0x8000;   // in the ORD word: zero-length RDMA Write as RTR
inline constexpr std::uint16_t kMpaOrdRtrRead = 0x4000;    // in the ORD word: zero-length RDMA Read as RTR

// ---- FPDUs and markers (doc/conformance.md, MPA "FPDU", "Markers") ----
inline constexpr std::size_t kMpaLengthFieldLen = 2;
inline constexpr std::size_t kMpaCrcLen = 4;
inline constexpr std::size_t kMpaMarkerLen = 4;
inline constexpr std::uint32_t kMpaMarkerInterval = 512;
inline constexpr std::uint32_t kMpaMaxUlpduLength = 0xFFFF; // ULPDU_Length is 16 bits

/**
 * MPA error codes, carried as the Code of a Layer 2 (LLP) Terminate (doc/conformance.md: MPA "Errors", and the LLP
 * row of §3; the same numbering as Linux siw's iwarp.h).
 */
enum class MpaError : std::uint8_t
{
    TcpClosed = 0x01,           ///< RFC 5044: TCP connection closed, terminated or lost
    CrcError = 0x02,            ///< RFC 5044: FPDU CRC mismatch
    MarkerMismatch = 0x03,      ///< RFC 5044: marker and ULPDU_Length disagree (we also use it for an impossible ULPDU_Length)
    InvalidRequestReply = 0x04, ///< RFC 5044: bad Request/Reply (key, Rev, PD_Length, reserved bits)
    LocalCatastrophic = 0x05,   ///< RFC 6581
    InsufficientIrd = 0x06,     ///< RFC 6581
    NoMatchingRtr = 0x07,       ///< RFC 6581
};

/**
 * EType of every MPA Terminate. MPA (doc/conformance.md) fixes Layer = LLP (2) and the codes but no EType; Linux
 * siw sends its MPA errors with LLP_ETYPE_MPA = 0, so 0 is what a peer will most likely expect (doc/conformance.md
 * A35: Layer 2 with the LLP's own EType, never DDP Layer 1 / EType 3).
 */
inline constexpr std::uint8_t kMpaLlpEType = 0x0;

/** The (Layer, EType, Code) triple an MPA error is reported with: 2 / 0 / code. */
constexpr ErrorCause
MpaErrorCause(MpaError e)
{
    return ErrorCause::Llp(kMpaLlpEType, std::uint8_t(e));
}

static_assert(MpaErrorCause(MpaError::CrcError).layer == 2 && MpaErrorCause(MpaError::CrcError).code == 2,
              "MPA errors are Layer 2 (LLP)");

/** A short name for logs and test messages. */
constexpr const char*
ToString(MpaError e)
{
    switch (e)
    {
    case MpaError::TcpClosed:
        return "TcpClosed";
    case MpaError::CrcError:
        return "CrcError";
    case MpaError::MarkerMismatch:
        return "MarkerMismatch";
    case MpaError::InvalidRequestReply:
        return "InvalidRequestReply";
    case MpaError::LocalCatastrophic:
        return "LocalCatastrophic";
    case MpaError::InsufficientIrd:
        return "InsufficientIrd";
    case MpaError::NoMatchingRtr:
        return "NoMatchingRtr";
    }
    return "?";
}

/** The CRC field's octets: the value's least significant octet first (as iSCSI and SCTP send it). */
inline void
PutCrcLe(uint8_t* at, uint32_t crc)
{
    for (int k = 0; k < 4; ++k)
    {
        at[k] = uint8_t(crc >> (8 * k));
    }
}

inline uint32_t
GetCrcLe(const uint8_t* at)
{
    return uint32_t(at[0]) | (uint32_t(at[1]) << 8) | (uint32_t(at[2]) << 16) | (uint32_t(at[3]) << 24);
}

} // namespace iwarp
} // namespace ns3

#endif // IWARP_MPA_CONSTANTS_H
