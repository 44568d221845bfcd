/*
 * Wire constants and error codes shared by DDP, RDMAP and the SCTP adaptation.
 *
 * Every value here comes from RFC 5040, RFC 5041 and RFC 5043 (doc/conformance.md lists the codes).
 * They live in one place, one enumeration per layer, so that every Terminate is built from the same
 * enumerations and no layer spells a code as a bare number.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_CONSTANTS_H
#define IWARP_CONSTANTS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{
namespace iwarp
{

// IPv4's header without options (RFC 791 §3.1), in front of every LLP packet this model sends.
inline constexpr std::uint32_t kIpv4HeaderLen = 20;
// The smallest MTU IPv4 lets a link have (RFC 791 §3.2): below it a scenario's link is refused.
inline constexpr std::uint32_t kIpv4MinMtu = 68;

// ---- DDP (RFC 5041), doc/conformance.md §1.2-§1.4 ----
inline constexpr std::size_t kDdpTaggedHdrLen = 14;   // 112 bits (DDP-019)
inline constexpr std::size_t kDdpUntaggedHdrLen = 18; // 144 bits (DDP-023)
inline constexpr std::uint8_t kDdpT = 0x80;
inline constexpr std::uint8_t kDdpL = 0x40;
inline constexpr std::uint8_t kDdpRsvdMask = 0x3C;
inline constexpr std::uint8_t kDdpDvMask = 0x03;
inline constexpr std::uint8_t kDdpVersion = 1;                 // DDP-018: DV MUST be 01b
inline constexpr std::uint32_t kMsnInitial = 1;                // DDP-026
inline constexpr std::uint64_t kMaxUlpMsgLen = 0xFFFFFFFFull;  // DDP-030: length < 2^32

// ---- RDMAP (RFC 5040), doc/conformance.md §1.5-§1.8 ----
inline constexpr std::uint8_t kRvMask = 0xC0;
inline constexpr std::uint8_t kRvShift = 6;
inline constexpr std::uint8_t kRdmapRsvMask = 0x30;
inline constexpr std::uint8_t kOpcodeMask = 0x0F;
inline constexpr std::uint8_t kRdmapVersion = 1; // RDMAP-010: RV = 01b
inline constexpr std::uint32_t kQnSend = 0;
inline constexpr std::uint32_t kQnReadRequest = 1;
inline constexpr std::uint32_t kQnTerminate = 2;
inline constexpr std::size_t kReadReqHdrLen = 28;     // 224 bits
inline constexpr std::size_t kTermCtrlLen = 4;
inline constexpr std::size_t kTermSegLenLen = 2;
inline constexpr std::size_t kMaxTermHdrLen = 52;     // 4 + 2 + 18 + 28

enum class Opcode : std::uint8_t
{
    RdmaWrite = 0x0,
    ReadRequest = 0x1,
    ReadResponse = 0x2,
    Send = 0x3,
    SendInv = 0x4,
    SendSE = 0x5,
    SendSEInv = 0x6,
    Terminate = 0x7,
    // 0x8..0xF reserved: receiving one is Unexpected OpCode (0/2/0x06)
};

/** An opcode and the name scenario files and logs use for it. */
struct OpcodeName
{
    Opcode opcode;
    const char* name;
};

/** Every defined opcode with its name, in value order: the one list of them (reader, logs, tests). */
inline constexpr OpcodeName kOpcodeNames[] = {
    {Opcode::RdmaWrite, "write"},
    {Opcode::ReadRequest, "read-request"},
    {Opcode::ReadResponse, "read-response"},
    {Opcode::Send, "send"},
    {Opcode::SendInv, "send-inv"},
    {Opcode::SendSE, "send-se"},
    {Opcode::SendSEInv, "send-se-inv"},
    {Opcode::Terminate, "terminate"},
};

/** Terminate Layer (doc/conformance.md §1.8). */
enum class TermLayer : std::uint8_t
{
    Rdma = 0x0,
    Ddp = 0x1,
    Llp = 0x2,
};

// DDP error types and codes (RFC 5041 §7.2)
enum class DdpEType : std::uint8_t
{
    LocalCatastrophic = 0x0,
    TaggedBuf = 0x1,
    UntaggedBuf = 0x2,
    ReservedForLlp = 0x3, // A35: never sent
};

enum class DdpTaggedCode : std::uint8_t
{
    InvalidStag = 0x00,
    BaseBounds = 0x01,
    StagNotAssoc = 0x02,
    ToWrap = 0x03,
    InvalidDdpVersion = 0x04,
};

enum class DdpUntaggedCode : std::uint8_t
{
    InvalidQn = 0x01,
    MsnNoBuffer = 0x02,
    MsnRange = 0x03,
    InvalidMo = 0x04,
    MsgTooLong = 0x05,
    InvalidDdpVersion = 0x06,
};

// RDMAP error types and codes (RFC 5040 §4.8, Figure 9)
enum class RdmapEType : std::uint8_t
{
    LocalCatastrophic = 0x0,
    RemoteProtection = 0x1,
    RemoteOperation = 0x2,
};

enum class RdmapCode : std::uint8_t
{
    InvalidStag = 0x00,
    BaseBounds = 0x01,
    AccessRights = 0x02,
    StagNotAssoc = 0x03,
    ToWrap = 0x04,
    InvalidRdmapVersion = 0x05,
    UnexpectedOpcode = 0x06,
    CatastrophicStream = 0x07,
    CatastrophicGlobal = 0x08,
    StagCannotInvalidate = 0x09,
    Unspecified = 0xFF,
};

/** The 32-bit Terminate Control word (doc/conformance.md §1.8). */
constexpr std::uint32_t
TermCtrl(std::uint8_t layer, std::uint8_t etype, std::uint8_t code, bool m, bool d, bool r)
{
    return (std::uint32_t(layer & 0xF) << 28) | (std::uint32_t(etype & 0xF) << 24) |
           (std::uint32_t(code) << 16) | (std::uint32_t(m) << 15) | (std::uint32_t(d) << 14) |
           (std::uint32_t(r) << 13);
}

static_assert(TermCtrl(1, 1, 0x00, true, true, false) == 0x1100C000u, "doc/conformance.md §1.11");
static_assert(TermCtrl(0, 1, 0x00, true, true, true) == 0x0100E000u, "doc/conformance.md §1.11");

/**
 * The (Layer, EType, Code) triple that identifies every error on the wire and towards
 * the ULP. One value type so that DDP, RDMAP and the LLPs report errors the same way.
 */
struct ErrorCause
{
    std::uint8_t layer{0};
    std::uint8_t etype{0};
    std::uint8_t code{0};

    static constexpr ErrorCause Ddp(DdpTaggedCode c)
    {
        return {std::uint8_t(TermLayer::Ddp), std::uint8_t(DdpEType::TaggedBuf), std::uint8_t(c)};
    }
    static constexpr ErrorCause Ddp(DdpUntaggedCode c)
    {
        return {std::uint8_t(TermLayer::Ddp), std::uint8_t(DdpEType::UntaggedBuf), std::uint8_t(c)};
    }
    static constexpr ErrorCause Rdma(RdmapEType t, RdmapCode c)
    {
        return {std::uint8_t(TermLayer::Rdma), std::uint8_t(t), std::uint8_t(c)};
    }
    static constexpr ErrorCause Llp(std::uint8_t etype, std::uint8_t code)
    {
        return {std::uint8_t(TermLayer::Llp), etype, code};
    }

    bool operator==(const ErrorCause& o) const
    {
        return layer == o.layer && etype == o.etype && code == o.code;
    }
    bool operator!=(const ErrorCause& o) const { return !(*this == o); }

    /** "L/ET/0xCC", the notation of doc/conformance.md §0. */
    std::string ToString() const;
};

// ---- SCTP DDP adaptation (RFC 5043), doc/conformance.md §1.10 ----
inline constexpr std::uint16_t kAdaptIndParamType = 0xC006;
inline constexpr std::uint32_t kAdaptIndDdp = 0x00000001;
inline constexpr std::uint32_t kPpidDdpSegment = 16;
inline constexpr std::uint32_t kPpidDdpSessionCtl = 17;
inline constexpr std::size_t kMaxPrivateData = 512;
inline constexpr std::size_t kMinMaxDdpSegment = 516;

} // namespace iwarp

/**
 * The RDMAP Control Field: RV (2 bits), Rsv (2), Opcode (4) (RDMAP-007). It rides in DDP's
 * RsvdULP octet, so it lives here rather than in rdmap/: DDP's segment view names the opcode
 * of what it carries (ddp-header.h) without reaching up into RDMAP.
 */
namespace RdmapControl
{
constexpr std::uint8_t
Make(iwarp::Opcode op, std::uint8_t rv = iwarp::kRdmapVersion)
{
    return std::uint8_t(((rv << iwarp::kRvShift) & iwarp::kRvMask) | (std::uint8_t(op) & iwarp::kOpcodeMask));
}

constexpr std::uint8_t
Version(std::uint8_t ctrl)
{
    return std::uint8_t((ctrl & iwarp::kRvMask) >> iwarp::kRvShift);
}

constexpr std::uint8_t
OpcodeBits(std::uint8_t ctrl)
{
    return ctrl & iwarp::kOpcodeMask;
}
} // namespace RdmapControl

} // namespace ns3

#endif // IWARP_CONSTANTS_H
