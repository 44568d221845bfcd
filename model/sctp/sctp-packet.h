/*
 * SCTP common header and the packet codec (RFC 9260 §3.1, appendix A for the checksum).
 *
 *   | Source Port (16) | Destination Port (16) | Verification Tag (32) | Checksum (32) | chunks ... |
 *
 * The checksum is CRC32c over the whole packet with the checksum field set to zero. Its value goes on the
 * wire least significant octet first, the same as MPA's and iSCSI's CRC (and what Linux and tshark expect),
 * so the CRC of "123456789" (0xE3069283) would appear as 83 92 06 E3.
 *
 * SctpPacket turns a list of chunks into octets with the checksum filled in, and parses untrusted octets
 * back, reporting the first problem instead of asserting: a packet from the network may be anything.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_PACKET_H
#define IWARP_SCTP_PACKET_H

#include "sctp/sctp-chunk.h"

#include "ns3/header.h"
#include "ns3/packet.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/** The 12-octet common header; the checksum field is kept exactly as on the wire (see SctpPacket). */
class SctpCommonHeader : public Header
{
  public:
    static constexpr uint32_t kSize = 12;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override { return kSize; }
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetSourcePort(uint16_t p) { m_srcPort = p; }
    uint16_t GetSourcePort() const { return m_srcPort; }
    void SetDestinationPort(uint16_t p) { m_dstPort = p; }
    uint16_t GetDestinationPort() const { return m_dstPort; }
    void SetVerificationTag(uint32_t t) { m_vtag = t; }
    uint32_t GetVerificationTag() const { return m_vtag; }
    /** The CRC32c value (not its wire octets). */
    void SetChecksum(uint32_t c) { m_checksum = c; }
    uint32_t GetChecksum() const { return m_checksum; }

  private:
    uint16_t m_srcPort{0};
    uint16_t m_dstPort{0};
    uint32_t m_vtag{0};
    uint32_t m_checksum{0};
};

/** Why a packet could not be parsed. */
enum class SctpParseError
{
    None,
    TooShort,          ///< fewer than 12 octets, or no chunk after the common header
    BadChecksum,       ///< CRC32c mismatch
    ChunkTooShort,     ///< a Chunk Length below 4
    ChunkBeyondPacket, ///< a Chunk Length that runs past the end of the packet
    MalformedChunk,    ///< a chunk whose value does not decode (e.g. a SACK with too few blocks)
};

const char* SctpParseErrorName(SctpParseError e);

class SctpPacket
{
  public:
    SctpCommonHeader header;
    std::vector<std::shared_ptr<SctpChunk>> chunks;

    void Add(std::shared_ptr<SctpChunk> c) { chunks.push_back(std::move(c)); }
    /** Octets of the packet with the checksum computed (header.GetChecksum() is ignored). */
    std::vector<uint8_t> ToBytes() const;
    Ptr<Packet> ToPacket() const;
    /** Octets the packet takes on the wire (common header and every chunk with its padding). */
    uint32_t GetSize() const;

    /** CRC32c of `len` octets taken as a packet whose checksum field (octets 8..11) is zero. */
    static uint32_t ComputeChecksum(const uint8_t* data, size_t len);
    /** Writes the checksum of the packet into octets 8..11 (least significant first). */
    static void StampChecksum(uint8_t* data, size_t len);

    /**
     * Parses untrusted octets. On success *out holds the header and every chunk in order; chunks of unknown
     * type become SctpUnknownChunk, and handling them (RFC 9260 §3.2) is the receiver's job.
     * `verifyChecksum` false is for tests that build packets by hand.
     * *badChunkOffset, if given, receives the octet offset of the chunk that failed.
     */
    static SctpParseError Parse(const uint8_t* data,
                                size_t len,
                                SctpPacket* out,
                                bool verifyChecksum = true,
                                size_t* badChunkOffset = nullptr);
    static SctpParseError Parse(Ptr<const Packet> p, SctpPacket* out, bool verifyChecksum = true);
};

/** The octets of one chunk (header, value and padding). */
std::vector<uint8_t> SctpChunkBytes(const SctpChunk& c);

} // namespace ns3

#endif // IWARP_SCTP_PACKET_H
