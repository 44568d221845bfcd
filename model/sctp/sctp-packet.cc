/*
 * SCTP common header and packet codec; see sctp-packet.h.
 */
#include "sctp/sctp-packet.h"

#include "common/crc32c.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpPacket");

NS_OBJECT_ENSURE_REGISTERED(SctpCommonHeader);

TypeId
SctpCommonHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpCommonHeader")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpCommonHeader>();
    return tid;
}

TypeId
SctpCommonHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
SctpCommonHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(m_srcPort);
    i.WriteHtonU16(m_dstPort);
    i.WriteHtonU32(m_vtag);
    i.WriteU32(0); // placeholder, then the value least significant octet first
    i.Prev(4);
    i.WriteU8(uint8_t(m_checksum));
    i.WriteU8(uint8_t(m_checksum >> 8));
    i.WriteU8(uint8_t(m_checksum >> 16));
    i.WriteU8(uint8_t(m_checksum >> 24));
}

uint32_t
SctpCommonHeader::Deserialize(Buffer::Iterator i)
{
    if (i.GetRemainingSize() < kSize)
    {
        return 0;
    }
    m_srcPort = i.ReadNtohU16();
    m_dstPort = i.ReadNtohU16();
    m_vtag = i.ReadNtohU32();
    uint32_t c = i.ReadU8();
    c |= uint32_t(i.ReadU8()) << 8;
    c |= uint32_t(i.ReadU8()) << 16;
    c |= uint32_t(i.ReadU8()) << 24;
    m_checksum = c;
    return kSize;
}

void
SctpCommonHeader::Print(std::ostream& os) const
{
    os << "SCTP " << m_srcPort << " > " << m_dstPort << " vtag=0x" << std::hex << m_vtag << " crc=0x"
       << m_checksum << std::dec;
}

const char*
SctpParseErrorName(SctpParseError e)
{
    switch (e)
    {
    case SctpParseError::None:
        return "None";
    case SctpParseError::TooShort:
        return "TooShort";
    case SctpParseError::BadChecksum:
        return "BadChecksum";
    case SctpParseError::ChunkTooShort:
        return "ChunkTooShort";
    case SctpParseError::ChunkBeyondPacket:
        return "ChunkBeyondPacket";
    case SctpParseError::MalformedChunk:
        return "MalformedChunk";
    }
    return "?";
}

std::vector<uint8_t>
SctpChunkBytes(const SctpChunk& c)
{
    Buffer b;
    b.AddAtStart(c.GetSerializedSize());
    c.Serialize(b.Begin());
    std::vector<uint8_t> v(b.GetSize());
    b.CopyData(v.data(), v.size());
    return v;
}

uint32_t
SctpPacket::GetSize() const
{
    uint32_t n = SctpCommonHeader::kSize;
    for (const auto& c : chunks)
    {
        n += c->GetSerializedSize();
    }
    return n;
}

uint32_t
SctpPacket::ComputeChecksum(const uint8_t* data, size_t len)
{
    // Feed the header with the checksum octets replaced by zeros, without copying the packet.
    static const uint8_t zeros[4] = {0, 0, 0, 0};
    uint32_t s = Crc32cUpdate(kCrc32cInit, data, std::min<size_t>(len, 8));
    if (len > 8)
    {
        s = Crc32cUpdate(s, zeros, std::min<size_t>(len - 8, 4));
    }
    if (len > 12)
    {
        s = Crc32cUpdate(s, data + 12, len - 12);
    }
    return Crc32cFinish(s);
}

void
SctpPacket::StampChecksum(uint8_t* data, size_t len)
{
    NS_ASSERT(len >= SctpCommonHeader::kSize);
    uint32_t c = ComputeChecksum(data, len);
    data[8] = uint8_t(c);
    data[9] = uint8_t(c >> 8);
    data[10] = uint8_t(c >> 16);
    data[11] = uint8_t(c >> 24);
}

std::vector<uint8_t>
SctpPacket::ToBytes() const
{
    Buffer b;
    b.AddAtStart(GetSize());
    Buffer::Iterator i = b.Begin();
    SctpCommonHeader h = header;
    h.SetChecksum(0);
    h.Serialize(i);
    i.Next(SctpCommonHeader::kSize);
    for (const auto& c : chunks)
    {
        c->Serialize(i);
        i.Next(c->GetSerializedSize());
    }
    std::vector<uint8_t> v(b.GetSize());
    b.CopyData(v.data(), v.size());
    StampChecksum(v.data(), v.size());
    return v;
}

Ptr<Packet>
SctpPacket::ToPacket() const
{
    std::vector<uint8_t> v = ToBytes();
    return Create<Packet>(v.data(), uint32_t(v.size()));
}

SctpParseError
SctpPacket::Parse(const uint8_t* data,
                  size_t len,
                  SctpPacket* out,
                  bool verifyChecksum,
                  size_t* badChunkOffset)
{
    if (len < SctpCommonHeader::kSize + 4)
    {
        return SctpParseError::TooShort;
    }
    uint32_t wire = uint32_t(data[8]) | (uint32_t(data[9]) << 8) | (uint32_t(data[10]) << 16) |
                    (uint32_t(data[11]) << 24);
    if (verifyChecksum && wire != ComputeChecksum(data, len))
    {
        return SctpParseError::BadChecksum;
    }
    SctpPacket pkt;
    Buffer hb;
    hb.AddAtStart(SctpCommonHeader::kSize);
    hb.Begin().Write(data, SctpCommonHeader::kSize);
    pkt.header.Deserialize(hb.Begin());

    size_t off = SctpCommonHeader::kSize;
    while (off < len)
    {
        if (badChunkOffset != nullptr)
        {
            *badChunkOffset = off;
        }
        if (len - off < 4)
        {
            return SctpParseError::ChunkTooShort;
        }
        uint16_t clen = uint16_t((data[off + 2] << 8) | data[off + 3]);
        if (clen < 4)
        {
            return SctpParseError::ChunkTooShort;
        }
        if (clen > len - off)
        {
            return SctpParseError::ChunkBeyondPacket;
        }
        auto chunk = SctpMakeChunk(data[off], data[off + 1]);
        if (!chunk->DecodeFrom(data + off, clen))
        {
            return SctpParseError::MalformedChunk;
        }
        pkt.chunks.push_back(chunk);
        // The last chunk's padding may be absent; anything else must be padded.
        off += std::min<size_t>(clen + sctp::PadLen(clen), len - off);
    }
    *out = std::move(pkt);
    return SctpParseError::None;
}

SctpParseError
SctpPacket::Parse(Ptr<const Packet> p, SctpPacket* out, bool verifyChecksum)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), uint32_t(v.size()));
    return Parse(v.data(), v.size(), out, verifyChecksum);
}

} // namespace ns3
