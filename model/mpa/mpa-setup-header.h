/*
 * MPA Request and Reply frames (RFC 5044 connection set-up, RFC 6581 enhanced set-up), doc/conformance.md, MPA.
 *
 *   | key (16) | flags M C R Enh Res(4) | Rev | PD_Length (16) | private data (PD_Length octets) |
 *
 * One class for both frames: they share the layout and differ in the key and in the meaning of R (a Reply
 * only). With the Enhanced flag (0x10, Rev 2 only) the first 4 private-data octets are the RFC 6581 IRD and
 * ORD words; this class keeps them apart from the ULP's private data so that callers never splice words into
 * a byte vector by hand. PD_Length on the wire counts both, and MPA's limit of 512 octets (doc/conformance.md) applies
 * to that total, so an enhanced frame carries at most 508 octets of ULP private data.
 *
 * The flags octet is kept raw (as DdpTaggedHeader keeps its control octet) so a test can put reserved bits
 * on the wire. Frames come from an untrusted peer: TryParse() is the safe incremental parser; Deserialize()
 * uses it too and removes nothing from a packet that does not hold a complete, valid frame.
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_SETUP_HEADER_H
#define IWARP_MPA_SETUP_HEADER_H

#include "mpa/mpa-constants.h"

#include "ns3/header.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

enum class MpaFrameKind : uint8_t
{
    Request, ///< sent by the initiator, key "MPA ID Req Frame"
    Reply,   ///< sent by the responder, key "MPA ID Rep Frame"
};

class MpaSetupFrame : public Header
{
  public:
    /** Result of TryParse(): a whole frame, not enough octets yet, or a protocol error. */
    enum class ParseStatus
    {
        NeedMore,
        Ok,
        Error,
    };

    explicit MpaSetupFrame(MpaFrameKind kind = MpaFrameKind::Request);
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** Parses with TryParse() (kind taken from the key); returns 0 and leaves *this unchanged on failure. */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * Parse untrusted octets that should start with a frame of kind `expected`.
     * - Ok: *out holds the frame, *consumed = its length (20 + PD_Length); later octets are not touched.
     * - NeedMore: every octet present is valid so far but the frame is incomplete; call again with more.
     * - Error: *err = InvalidRequestReply: wrong key for `expected`, Rev not 1 or 2, PD_Length > 512,
     *   reserved flag bits set (R in a Request, Enhanced in Rev 1), or Enhanced with PD_Length < 4.
     *   Each field is checked as soon as its octets are present, so a bad key is caught after one octet.
     * *out is written only on Ok; *consumed is 0 unless Ok; *err is written only on Error.
     */
    static ParseStatus TryParse(MpaFrameKind expected,
                                const uint8_t* data,
                                size_t len,
                                MpaSetupFrame* out,
                                size_t* consumed,
                                iwarp::MpaError* err);
    /** Same, expecting the kind `out` already has (construct it as MpaSetupFrame(MpaFrameKind::Reply)). */
    static ParseStatus TryParse(const uint8_t* data,
                                size_t len,
                                MpaSetupFrame* out,
                                size_t* consumed,
                                iwarp::MpaError* err);

    void SetKind(MpaFrameKind kind) { m_kind = kind; }
    MpaFrameKind GetKind() const { return m_kind; }

    void SetMarkers(bool m) { SetFlag(iwarp::kMpaFlagM, m); }
    bool GetMarkers() const { return (m_flags & iwarp::kMpaFlagM) != 0; }
    void SetCrc(bool c) { SetFlag(iwarp::kMpaFlagC, c); }
    bool GetCrc() const { return (m_flags & iwarp::kMpaFlagC) != 0; }
    /** R: meaningful in a Reply only. */
    void SetReject(bool r) { SetFlag(iwarp::kMpaFlagR, r); }
    bool GetReject() const { return (m_flags & iwarp::kMpaFlagR) != 0; }
    /** RFC 6581 Enhanced bit: the IRD/ORD words go on the wire ahead of the private data. */
    void SetEnhanced(bool e) { SetFlag(iwarp::kMpaFlagEnhanced, e); }
    bool IsEnhanced() const { return (m_flags & iwarp::kMpaFlagEnhanced) != 0; }
    /** The raw flags octet, reserved bits included (for injecting malformed frames). */
    void SetFlags(uint8_t flags) { m_flags = flags; }
    uint8_t GetFlags() const { return m_flags; }

    void SetRev(uint8_t rev) { m_rev = rev; }
    uint8_t GetRev() const { return m_rev; }

    /** The ULP's private data (without the IRD/ORD words). Aborts if PD_Length would exceed 512. */
    void SetPrivateData(const std::vector<uint8_t>& pd);
    const std::vector<uint8_t>& GetPrivateData() const { return m_privateData; }
    /** PD_Length as sent: the ULP private data plus 4 when Enhanced. */
    uint16_t GetPdLength() const;

    // ---- RFC 6581 IRD/ORD words (on the wire only when IsEnhanced()) ----
    /** 14-bit IRD / ORD values; larger values are an error of the caller (aborts). */
    void SetIrd(uint16_t ird);
    uint16_t GetIrd() const { return m_irdWord & iwarp::kMpaIrdOrdValueMask; }
    void SetOrd(uint16_t ord);
    uint16_t GetOrd() const { return m_ordWord & iwarp::kMpaIrdOrdValueMask; }
    /** IRD 0x8000: peer-to-peer, the responder waits for a ready-to-receive (RTR) message. */
    void SetPeerToPeer(bool p) { SetBit(m_irdWord, iwarp::kMpaIrdPeerToPeer, p); }
    bool IsPeerToPeer() const { return (m_irdWord & iwarp::kMpaIrdPeerToPeer) != 0; }
    /** IRD 0x4000: a zero-length Send may be the RTR. */
    void SetRtrSend(bool s) { SetBit(m_irdWord, iwarp::kMpaIrdRtrSend, s); }
    bool GetRtrSend() const { return (m_irdWord & iwarp::kMpaIrdRtrSend) != 0; }
    /** ORD 0x8000: a zero-length RDMA Write may be the RTR. */
    void SetRtrWrite(bool w) { SetBit(m_ordWord, iwarp::kMpaOrdRtrWrite, w); }
    bool GetRtrWrite() const { return (m_ordWord & iwarp::kMpaOrdRtrWrite) != 0; }
    /** ORD 0x4000: a zero-length RDMA Read may be the RTR. */
    void SetRtrRead(bool r) { SetBit(m_ordWord, iwarp::kMpaOrdRtrRead, r); }
    bool GetRtrRead() const { return (m_ordWord & iwarp::kMpaOrdRtrRead) != 0; }
    /** The whole 16-bit words, flags included. */
    void SetIrdWord(uint16_t w) { m_irdWord = w; }
    uint16_t GetIrdWord() const { return m_irdWord; }
    void SetOrdWord(uint16_t w) { m_ordWord = w; }
    uint16_t GetOrdWord() const { return m_ordWord; }

  private:
    void SetFlag(uint8_t bit, bool on) { m_flags = on ? (m_flags | bit) : (m_flags & ~bit); }
    static void SetBit(uint16_t& word, uint16_t bit, bool on) { word = on ? (word | bit) : (word & ~bit); }

    MpaFrameKind m_kind;
    uint8_t m_flags{0};
    uint8_t m_rev{iwarp::kMpaRev1};
    uint16_t m_irdWord{0};
    uint16_t m_ordWord{0};
    std::vector<uint8_t> m_privateData;
};

} // namespace ns3

#endif // IWARP_MPA_SETUP_HEADER_H
