/*
 * MPA FPDU framing (RFC 5044, doc/conformance.md, MPA "FPDU" and "Markers"): what one direction of an MPA connection
 * puts on, and takes off, the TCP byte stream once the Request/Reply exchange is over.
 *
 *   | ULPDU_Length (16, big-endian) | ULPDU | PAD (0-3 zero octets) | CRC32c (least significant octet first) |
 *
 * plus, when the receiving side asked for them, a 4-octet marker (16 zero bits + 16-bit FPDUPTR) at every
 * stream offset that is a multiple of 512, offset 0 being the first octet after the Request/Reply.
 *
 * How we read markers (doc/conformance.md, MPA "Markers"; checked against the RFC 5044 definition of FPDUPTR as
 * "the number of octets from the beginning of the ULPDU_Length field to the first octet of the marker"):
 *  - FPDUPTR = (stream offset of the marker) - (stream offset of the ULPDU_Length field of the FPDU the
 *    marker is in). A marker in the middle of an FPDU, or between its PAD and its CRC, points back that far.
 *  - A marker that falls exactly where an FPDU would start is sent first and the FPDU's ULPDU_Length follows
 *    it; the marker belongs to that FPDU and its FPDUPTR is 0 (so the first marker of the stream, at offset 0,
 *    has FPDUPTR 0, as RFC 5044 requires). FPDUPTR 0 therefore always means "ULPDU_Length follows me".
 *  - A marker belongs to the FPDU it is in and is covered by that FPDU's CRC, the leading marker included
 *    (Wireshark's MPA dissector computes the CRC the same way). A marker position reached right after an
 *    FPDU's CRC is not written until the next FPDU is framed: it belongs to that next FPDU.
 *  - Every FPDU is a multiple of 4 octets long and so is a marker, hence ULPDU_Length and CRC always start on
 *    4-aligned stream offsets and a marker (512-aligned) can split neither; it can split a ULPDU or sit
 *    between PAD and CRC.
 *  - The two low bits of FPDUPTR are ignored on receive (always 0 on send); the 16 reserved bits are sent as
 *    zero and ignored on receive except by the CRC.
 *  - FPDUPTR is 16 bits, so with markers a ULPDU close to 64 KiB cannot always be described; Frame() aborts
 *    then (MULPDU is far below that for any real MSS).
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_FPDU_H
#define IWARP_MPA_FPDU_H

#include "mpa/mpa-constants.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * Largest ULPDU MPA carries in one FPDU for a connection with effective MSS `emss` (doc/conformance.md, MPA):
 * EMSS - (6 + 4 * ceil(EMSS / 512) + EMSS mod 4) with markers, EMSS - (6 + EMSS mod 4) without.
 * 0 when the overhead alone exceeds EMSS.
 */
uint32_t MpaMulpdu(uint32_t emss, bool markers);

/**
 * A packet of the `len` octets at `octets`. A long run of zeros at the end (a virtual payload, as
 * the sender framed it) stays ns-3's zero area instead of being copied into the packet's buffer:
 * the same octets, without the receiver storing and copying them again.
 */
Ptr<Packet> MpaPacketFromOctets(const uint8_t* octets, uint32_t len);

/**
 * The same, when the caller already knows that the last `trailingZeros` octets are zero and the one
 * before them is not (MpaFpduReceiver counts them while it checks the CRC).
 */
Ptr<Packet> MpaPacketFromOctets(const uint8_t* octets, uint32_t len, uint32_t trailingZeros);

/** How many of the `len` octets at `octets` are zeros at the end, counted from the back. */
uint32_t MpaTrailingZeros(const uint8_t* octets, uint32_t len);

/** Pad octets after a ULPDU of `ulpduLen` octets: makes 2 + ulpduLen + pad a multiple of 4. */
constexpr uint32_t
MpaPadLength(uint32_t ulpduLen)
{
    return (4 - ((ulpduLen + 2) & 3)) & 3;
}

/**
 * The sending half: turns ULPDUs (DDP segments) into the octets that go on the TCP stream. It keeps the
 * stream position across calls because marker positions depend on everything sent before.
 */
class MpaFpduSender
{
  public:
    /** `markers`: the peer asked for markers (its M bit); `crc`: CRC negotiated, else the field is zero. */
    MpaFpduSender(bool markers, bool crc);

    /** Stream octets the next Frame() of a `ulpduLen`-octet ULPDU produces (markers included). */
    uint32_t FramedSize(uint32_t ulpduLen) const;

    /**
     * The FPDU for `ulpdu`, markers included, as one packet of FramedSize() octets; advances the stream
     * position. Works for real and zero-filled virtual packets alike (the octets are the ones CopyData gives).
     * Aborts if the ULPDU exceeds 65535 octets.
     */
    Ptr<Packet> Frame(Ptr<const Packet> ulpdu);

    /** Octets framed so far (the stream offset of the next FPDU). */
    uint64_t GetStreamOffset() const { return m_pos; }
    bool HasMarkers() const { return m_markers; }
    bool HasCrc() const { return m_crc; }

  private:
    /** Frame() for a ULPDU whose last `virtualOctets` are virtual (VirtualPayloadTag), markers off. */
    Ptr<Packet> FrameAroundVirtual(Ptr<const Packet> ulpdu, uint32_t virtualOctets);

    bool m_markers;
    bool m_crc;
    uint64_t m_pos{0};
    std::vector<uint8_t> m_ulpdu; // reused: the ULPDU's octets (markers only)
    std::vector<uint8_t> m_wire;  // reused: the FPDU being built
};

/**
 * The receiving half: a resumable deframer (doc/architecture.md convention 4). Push() stream octets in any split;
 * each Next() returns one ULPDU (Done), NeedMore, or Error. It can stop at any octet and resume on the next Push().
 * Errors (sticky: every later Next() returns Error with the same code):
 *  - MarkerMismatch (0x03): a marker's FPDUPTR does not point at the ULPDU_Length of the FPDU it is in, or a
 *    ULPDU_Length above the configured maximum (framing is lost either way; RFC 5044's code 3 is the "marker
 *    and ULPDU_Length disagree" error, the closest it has for a length that cannot be right);
 *  - CrcError (0x02): CRC enabled and the received CRC differs from the one computed.
 */
class MpaFpduReceiver
{
  public:
    enum class RxResult
    {
        Done,
        NeedMore,
        Error,
    };

    /** `maxUlpduLength`: longest ULPDU accepted, e.g. the MULPDU this side announced plus any slack. */
    MpaFpduReceiver(bool markers, bool crc, uint32_t maxUlpduLength = iwarp::kMpaMaxUlpduLength);

    /** Append octets received from TCP (in order). Ignored once an error has been found. */
    void Push(Ptr<const Packet> streamBytes);
    void Push(const uint8_t* data, size_t len);

    /**
     * Deframe the next FPDU. Done: *ulpdu = the ULPDU (a real packet with the received octets).
     * Error: *err = the MPA error. NeedMore: nothing written; Push() more.
     */
    RxResult Next(Ptr<Packet>* ulpdu, iwarp::MpaError* err);

    /** Octets of the stream consumed so far. */
    uint64_t GetStreamOffset() const { return m_pos; }
    /** Octets pushed but not consumed yet. */
    size_t GetBufferedSize() const { return m_in.size() - m_inPos; }

    /**
     * Out-of-order helper: `seg` is one TCP segment that starts exactly at an FPDU boundary, at stream offset
     * `streamOffset` (counted from the first octet after the Request/Reply). Appends to *ulpdus the octets
     * of the ULPDU of each FPDU from the start of the segment that is wholly inside it and checks out (CRC
     * when `crc`; with `markers`, every marker inside the FPDU must point back to its ULPDU_Length, and the
     * markers are taken out of the ULPDU), stopping at the first that does not. Returns true if the segment
     * is exactly a run of such FPDUs.
     */
    static bool ParseAlignedFpdus(const uint8_t* seg,
                                  size_t len,
                                  uint64_t streamOffset,
                                  bool markers,
                                  bool crc,
                                  std::vector<std::vector<uint8_t>>* ulpdus);

  private:
    /** The FPDU field being received (markers are handled by stream position, outside this state). */
    enum class Field
    {
        Length,
        Ulpdu,
        Pad,
        Crc,
    };

    RxResult Fail(iwarp::MpaError e, iwarp::MpaError* err);
    /** Room for `len` more pushed octets (after dropping consumed ones); returns where to write them. */
    uint8_t* Append(size_t len);
    /** Consumes marker octets at the current position; false on a bad FPDUPTR. */
    bool TakeMarker(size_t avail);
    /** Field complete: move to the next one, skipping empty ULPDU and PAD. */
    void EnterNextField();
    void StartFpdu();

    bool m_markers;
    bool m_crc;
    uint32_t m_maxUlpdu;

    std::vector<uint8_t> m_in; // pushed octets; [m_inPos, end) not consumed yet
    size_t m_inPos{0};
    uint64_t m_pos{0}; // stream offset of the next octet to consume

    Field m_field{Field::Length};
    uint32_t m_got{0};      // octets of m_field received
    uint8_t m_small[4]{};   // ULPDU_Length or CRC octets
    uint8_t m_marker[4]{};  // octets of the marker being received
    uint32_t m_len{0};      // ULPDU_Length of the current FPDU
    uint64_t m_lenPos{0};   // stream offset of that ULPDU_Length field
    uint32_t m_crcState{0}; // running CRC32c over the FPDU so far
    uint32_t m_ulpduZeroTail{0}; // zeros that end the ULPDU received so far
    std::vector<uint8_t> m_ulpdu; // the ULPDU's octets with markers taken out (markers only)
    size_t m_ulpduAt{0};          // without markers: where the current ULPDU starts in m_in

    /** The first octet of m_in still needed: the current ULPDU's start until its CRC is checked. */
    size_t KeepFrom() const;

    bool m_failed{false};
    iwarp::MpaError m_error{iwarp::MpaError::CrcError};
};

} // namespace ns3

#endif // IWARP_MPA_FPDU_H
