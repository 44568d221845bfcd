/*
 * DDP headers (RFC 5041 §4, doc/conformance.md §1.2-§1.4), one ns3::Header per wire format.
 *
 * The DDP Control octet is kept raw so that a test injector can put any DV or reserved
 * bits on the wire; the accessors decode it with explicit masks (no C++ bit-fields, A1).
 * Octet 1 (RsvdULP) is opaque to DDP: RDMAP keeps its Control Field there (RDMAP-007).
 *
 * PeekDdpSegment is the one decoder of a received segment's header: DDP's receive path, and
 * every other layer that needs to know what a segment is (MPA's RTR check, the RNIC's DMA
 * and engine accounting), read it through DdpSegmentView instead of masking octets.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_DDP_HEADER_H
#define IWARP_DDP_HEADER_H

#include "common/iwarp-constants.h"

#include "ns3/header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/** Helpers for the DDP Control octet (octet 0 of every DDP header). */
namespace DdpControl
{
constexpr uint8_t
Make(bool tagged, bool last, uint8_t dv = iwarp::kDdpVersion)
{
    return uint8_t((tagged ? iwarp::kDdpT : 0) | (last ? iwarp::kDdpL : 0) | (dv & iwarp::kDdpDvMask));
}

constexpr bool
IsTagged(uint8_t ctrl)
{
    return (ctrl & iwarp::kDdpT) != 0;
}

constexpr bool
IsLast(uint8_t ctrl)
{
    return (ctrl & iwarp::kDdpL) != 0;
}

constexpr uint8_t
Version(uint8_t ctrl)
{
    return ctrl & iwarp::kDdpDvMask;
}
} // namespace DdpControl

/** Tagged Buffer header: 14 octets (DDP-019). */
class DdpTaggedHeader : public Header
{
  public:
    DdpTaggedHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetLast(bool last);
    bool IsLast() const;
    uint8_t GetDdpVersion() const;
    /** Raw control octet; the T bit is forced to 1. For injecting malformed DV/Rsvd. */
    void SetControl(uint8_t ctrl);
    uint8_t GetControl() const { return m_ctrl; }
    void SetRsvdUlp(uint8_t v) { m_rsvdUlp = v; }
    uint8_t GetRsvdUlp() const { return m_rsvdUlp; }
    void SetStag(uint32_t stag) { m_stag = stag; }
    uint32_t GetStag() const { return m_stag; }
    void SetTo(uint64_t to) { m_to = to; }
    uint64_t GetTo() const { return m_to; }

  private:
    uint8_t m_ctrl;
    uint8_t m_rsvdUlp{0};
    uint32_t m_stag{0};
    uint64_t m_to{0};
};

/** Untagged Buffer header: 18 octets (DDP-023). */
class DdpUntaggedHeader : public Header
{
  public:
    DdpUntaggedHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetLast(bool last);
    bool IsLast() const;
    uint8_t GetDdpVersion() const;
    /** Raw control octet; the T bit is forced to 0. */
    void SetControl(uint8_t ctrl);
    uint8_t GetControl() const { return m_ctrl; }
    /** RsvdULP[0:7]: RDMAP's Control Field. */
    void SetRsvdUlp0(uint8_t v) { m_rsvdUlp0 = v; }
    uint8_t GetRsvdUlp0() const { return m_rsvdUlp0; }
    /** RsvdULP[8:39]: RDMAP's Invalidate STag (opcodes 0x4 and 0x6). */
    void SetRsvdUlp1(uint32_t v) { m_rsvdUlp1 = v; }
    uint32_t GetRsvdUlp1() const { return m_rsvdUlp1; }
    void SetQn(uint32_t qn) { m_qn = qn; }
    uint32_t GetQn() const { return m_qn; }
    void SetMsn(uint32_t msn) { m_msn = msn; }
    uint32_t GetMsn() const { return m_msn; }
    void SetMo(uint32_t mo) { m_mo = mo; }
    uint32_t GetMo() const { return m_mo; }

  private:
    uint8_t m_ctrl;
    uint8_t m_rsvdUlp0{0};
    uint32_t m_rsvdUlp1{0};
    uint32_t m_qn{0};
    uint32_t m_msn{0};
    uint32_t m_mo{0};
};

/** A received segment's header fields, decoded (read-only: the packet is not changed). */
struct DdpSegmentView
{
    uint8_t control{0}; ///< octet 0 as received (T, L, reserved bits, DV): see DdpControl
    bool tagged{false};
    bool last{false};
    uint8_t rsvdUlp0{0};  ///< RsvdULP octet 1: RDMAP's Control Field
    uint32_t rsvdUlp1{0}; ///< untagged: RsvdULP[8:39]
    uint32_t qn{0};       ///< untagged
    uint32_t msn{0};      ///< untagged
    uint32_t mo{0};       ///< untagged
    uint32_t stag{0};     ///< tagged
    uint64_t to{0};       ///< tagged
    uint32_t headerLength{0}; ///< kDdpTaggedHdrLen or kDdpUntaggedHdrLen, by the T bit
    uint32_t payloadLength{0};

    /** The RDMAP opcode carried in RsvdULP (0x8-0xF are reserved values, kept as they are). */
    iwarp::Opcode RdmapOpcode() const { return iwarp::Opcode(RdmapControl::OpcodeBits(rsvdUlp0)); }
};

/**
 * Decode the DDP header at the front of `segment`: nullopt when the segment is shorter than
 * the header its T bit announces (RFC 5041 §4.2/§4.3), an empty packet included.
 */
std::optional<DdpSegmentView> PeekDdpSegment(Ptr<const Packet> segment);

/**
 * What the control octet alone says, for per-segment accounting (the RNIC's DMA octets, the
 * pipeline's per-message cost): only control, tagged, last, headerLength and payloadLength are
 * filled, no header is deserialised.  nullopt as for PeekDdpSegment.
 */
std::optional<DdpSegmentView> PeekDdpControl(Ptr<const Packet> segment);

} // namespace ns3

#endif // IWARP_DDP_HEADER_H
