/*
 * SCTP chunk base class and the chunks with fixed or opaque values; see sctp-chunk.h.
 */
#include "sctp/sctp-chunk.h"

#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpChunk");

using sctp::PadLen;
using sctp::WireReader;

SctpUnknownAction
SctpUnknownChunkAction(uint8_t type)
{
    // 00: stop, no report; 01: stop, report; 10: skip, no report; 11: skip, report.
    return SctpUnknownAction{(type & 0x80) != 0, (type & 0x40) != 0};
}

void
SctpTlv::Write(Buffer::Iterator& i, bool pad) const
{
    i.WriteHtonU16(type);
    i.WriteHtonU16(uint16_t(Length()));
    if (!value.empty())
    {
        i.Write(value.data(), uint32_t(value.size()));
    }
    for (uint32_t k = 0; pad && k < PadLen(Length()); ++k)
    {
        i.WriteU8(0);
    }
}

uint32_t
SctpTlv::ListSize(const std::vector<SctpTlv>& list)
{
    uint32_t n = 0;
    for (const auto& t : list)
    {
        n += t.PaddedLength();
    }
    // RFC 9260 §3.2: a chunk's length counts the padding of every parameter but the last one.
    return list.empty() ? 0 : n - PadLen(list.back().Length());
}

void
SctpTlv::WriteList(Buffer::Iterator& i, const std::vector<SctpTlv>& list)
{
    for (size_t k = 0; k < list.size(); ++k)
    {
        list[k].Write(i, k + 1 < list.size());
    }
}

bool
SctpTlv::ReadAll(WireReader& r, std::vector<SctpTlv>* out)
{
    while (r.Remaining() > 0)
    {
        if (r.Remaining() < 4)
        {
            return false;
        }
        SctpTlv t;
        t.type = r.U16();
        uint16_t len = r.U16();
        if (len < 4 || len - 4u > r.Remaining())
        {
            return false;
        }
        t.value = r.Bytes(len - 4u);
        r.Skip(std::min<size_t>(PadLen(len), r.Remaining()));
        out->push_back(std::move(t));
    }
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ SctpChunk

NS_OBJECT_ENSURE_REGISTERED(SctpChunk);

SctpChunk::SctpChunk(uint8_t type, uint8_t flags)
    : m_type(type),
      m_flags(flags)
{
}

TypeId
SctpChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpChunk").SetParent<Header>().SetGroupName("Iwarp");
    return tid;
}

uint32_t
SctpChunk::GetSerializedSize() const
{
    uint32_t len = GetLength();
    return len + PadLen(len);
}

void
SctpChunk::Serialize(Buffer::Iterator i) const
{
    NS_ABORT_MSG_IF(4 + GetValueSize() > 0xFFFF, "SCTP chunk longer than 65535 octets");
    i.WriteU8(m_type);
    i.WriteU8(m_flags);
    i.WriteHtonU16(GetLength());
    SerializeValue(i);
    for (uint32_t k = 0; k < PadLen(GetLength()); ++k)
    {
        i.WriteU8(0);
    }
}

uint32_t
SctpChunk::Deserialize(Buffer::Iterator start)
{
    uint32_t avail = start.GetRemainingSize();
    if (avail < 4)
    {
        return 0;
    }
    std::vector<uint8_t> bytes(avail);
    start.Read(bytes.data(), avail);
    uint16_t len = uint16_t((bytes[2] << 8) | bytes[3]);
    if (len < 4 || len > avail || !DecodeFrom(bytes.data(), len))
    {
        return 0;
    }
    return std::min<uint32_t>(len + PadLen(len), avail);
}

bool
SctpChunk::DecodeFrom(const uint8_t* data, size_t len)
{
    if (len < 4)
    {
        return false;
    }
    uint8_t oldType = m_type;
    uint8_t oldFlags = m_flags;
    m_type = data[0];
    m_flags = data[1];
    WireReader r(data + 4, len - 4);
    if (!DeserializeValue(r) || !r.ok())
    {
        m_type = oldType;
        m_flags = oldFlags;
        return false;
    }
    return true;
}

// ------------------------------------------------------------------------------------------------ DATA

NS_OBJECT_ENSURE_REGISTERED(SctpDataChunk);

SctpDataChunk::SctpDataChunk()
    : SctpChunk(uint8_t(SctpChunkType::Data), kFlagB | kFlagE)
{
}

TypeId
SctpDataChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpDataChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpDataChunk>();
    return tid;
}

void
SctpDataChunk::Print(std::ostream& os) const
{
    os << "DATA TSN=" << m_tsn << " SID=" << m_streamId << " SSN=" << m_ssn << " PPID=" << m_ppid
       << " flags=" << (IsUnordered() ? "U" : "") << (IsBeginning() ? "B" : "") << (IsEnding() ? "E" : "")
       << (IsImmediate() ? "I" : "") << " len=" << m_data.size();
}

uint32_t
SctpDataChunk::GetValueSize() const
{
    return kFixedValueLen + uint32_t(m_data.size());
}

void
SctpDataChunk::SerializeValue(Buffer::Iterator& i) const
{
    i.WriteHtonU32(m_tsn);
    i.WriteHtonU16(m_streamId);
    i.WriteHtonU16(m_ssn);
    i.WriteHtonU32(m_ppid);
    if (!m_data.empty())
    {
        i.Write(m_data.data(), uint32_t(m_data.size()));
    }
}

bool
SctpDataChunk::DeserializeValue(WireReader& r)
{
    // A DATA chunk without user data is a protocol error (cause No User Data), reported by the association;
    // the codec accepts it so the receiver can see the TSN it has to name.
    if (r.Remaining() < kFixedValueLen)
    {
        return false;
    }
    m_tsn = r.U32();
    m_streamId = r.U16();
    m_ssn = r.U16();
    m_ppid = r.U32();
    m_data = r.Bytes(r.Remaining());
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ SACK

NS_OBJECT_ENSURE_REGISTERED(SctpSackChunk);

SctpSackChunk::SctpSackChunk()
    : SctpChunk(uint8_t(SctpChunkType::Sack), 0)
{
}

TypeId
SctpSackChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpSackChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpSackChunk>();
    return tid;
}

void
SctpSackChunk::Print(std::ostream& os) const
{
    os << "SACK CumTsnAck=" << m_cumTsnAck << " a_rwnd=" << m_arwnd << " gaps=";
    for (const auto& g : m_gaps)
    {
        os << "[" << g.start << "," << g.end << "]";
    }
    os << " dups=" << m_dups.size();
}

uint32_t
SctpSackChunk::GetValueSize() const
{
    return 12 + 4 * uint32_t(m_gaps.size()) + 4 * uint32_t(m_dups.size());
}

void
SctpSackChunk::SerializeValue(Buffer::Iterator& i) const
{
    i.WriteHtonU32(m_cumTsnAck);
    i.WriteHtonU32(m_arwnd);
    i.WriteHtonU16(uint16_t(m_gaps.size()));
    i.WriteHtonU16(uint16_t(m_dups.size()));
    for (const auto& g : m_gaps)
    {
        i.WriteHtonU16(g.start);
        i.WriteHtonU16(g.end);
    }
    for (uint32_t d : m_dups)
    {
        i.WriteHtonU32(d);
    }
}

bool
SctpSackChunk::DeserializeValue(WireReader& r)
{
    m_cumTsnAck = r.U32();
    m_arwnd = r.U32();
    uint16_t nGaps = r.U16();
    uint16_t nDups = r.U16();
    if (!r.ok() || r.Remaining() < 4u * (uint32_t(nGaps) + nDups))
    {
        return false;
    }
    m_gaps.clear();
    m_dups.clear();
    for (uint16_t k = 0; k < nGaps; ++k)
    {
        uint16_t s = r.U16();
        uint16_t e = r.U16();
        m_gaps.push_back({s, e});
    }
    for (uint16_t k = 0; k < nDups; ++k)
    {
        m_dups.push_back(r.U32());
    }
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ HEARTBEAT

NS_OBJECT_ENSURE_REGISTERED(SctpHeartbeatChunk);

SctpHeartbeatChunk::SctpHeartbeatChunk(bool ack)
    : SctpChunk(uint8_t(ack ? SctpChunkType::HeartbeatAck : SctpChunkType::Heartbeat), 0)
{
}

TypeId
SctpHeartbeatChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpHeartbeatChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpHeartbeatChunk>();
    return tid;
}

void
SctpHeartbeatChunk::Print(std::ostream& os) const
{
    os << (IsAck() ? "HEARTBEAT ACK" : "HEARTBEAT") << " info=" << m_info.size() << "B";
}

uint32_t
SctpHeartbeatChunk::GetValueSize() const
{
    // The Heartbeat Info parameter is the last (only) one, so its padding is chunk padding, not counted.
    return 4 + uint32_t(m_info.size());
}

void
SctpHeartbeatChunk::SerializeValue(Buffer::Iterator& i) const
{
    SctpTlv::WriteList(i, {SctpTlv{kHeartbeatInfoType, m_info}});
}

bool
SctpHeartbeatChunk::DeserializeValue(WireReader& r)
{
    std::vector<SctpTlv> tlvs;
    if (!SctpTlv::ReadAll(r, &tlvs) || tlvs.empty() || tlvs[0].type != kHeartbeatInfoType)
    {
        return false;
    }
    m_info = tlvs[0].value;
    return true;
}

// ------------------------------------------------------------------------------------------------ SHUTDOWN

NS_OBJECT_ENSURE_REGISTERED(SctpShutdownChunk);

SctpShutdownChunk::SctpShutdownChunk()
    : SctpChunk(uint8_t(SctpChunkType::Shutdown), 0)
{
}

TypeId
SctpShutdownChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpShutdownChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpShutdownChunk>();
    return tid;
}

void
SctpShutdownChunk::Print(std::ostream& os) const
{
    os << "SHUTDOWN CumTsnAck=" << m_cumTsnAck;
}

void
SctpShutdownChunk::SerializeValue(Buffer::Iterator& i) const
{
    i.WriteHtonU32(m_cumTsnAck);
}

bool
SctpShutdownChunk::DeserializeValue(WireReader& r)
{
    m_cumTsnAck = r.U32();
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ empty chunks

NS_OBJECT_ENSURE_REGISTERED(SctpEmptyChunk);

SctpEmptyChunk::SctpEmptyChunk(SctpChunkType type)
    : SctpChunk(uint8_t(type), 0)
{
}

TypeId
SctpEmptyChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpEmptyChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpEmptyChunk>();
    return tid;
}

void
SctpEmptyChunk::Print(std::ostream& os) const
{
    switch (SctpChunkType(m_type))
    {
    case SctpChunkType::ShutdownAck:
        os << "SHUTDOWN ACK";
        break;
    case SctpChunkType::CookieAck:
        os << "COOKIE ACK";
        break;
    case SctpChunkType::ShutdownComplete:
        os << "SHUTDOWN COMPLETE" << ((m_flags & kFlagT) ? " T" : "");
        break;
    default:
        os << "chunk type " << unsigned(m_type);
    }
}

// ------------------------------------------------------------------------------------------------ COOKIE ECHO

NS_OBJECT_ENSURE_REGISTERED(SctpCookieEchoChunk);

SctpCookieEchoChunk::SctpCookieEchoChunk()
    : SctpChunk(uint8_t(SctpChunkType::CookieEcho), 0)
{
}

TypeId
SctpCookieEchoChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpCookieEchoChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpCookieEchoChunk>();
    return tid;
}

void
SctpCookieEchoChunk::Print(std::ostream& os) const
{
    os << "COOKIE ECHO cookie=" << m_cookie.size() << "B";
}

void
SctpCookieEchoChunk::SerializeValue(Buffer::Iterator& i) const
{
    if (!m_cookie.empty())
    {
        i.Write(m_cookie.data(), uint32_t(m_cookie.size()));
    }
}

bool
SctpCookieEchoChunk::DeserializeValue(WireReader& r)
{
    m_cookie = r.Bytes(r.Remaining());
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ unknown

NS_OBJECT_ENSURE_REGISTERED(SctpUnknownChunk);

SctpUnknownChunk::SctpUnknownChunk(uint8_t type, uint8_t flags)
    : SctpChunk(type, flags)
{
}

TypeId
SctpUnknownChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpUnknownChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpUnknownChunk>();
    return tid;
}

void
SctpUnknownChunk::Print(std::ostream& os) const
{
    os << "chunk type " << unsigned(m_type) << " flags=" << unsigned(m_flags) << " len=" << GetLength();
}

void
SctpUnknownChunk::SerializeValue(Buffer::Iterator& i) const
{
    if (!m_value.empty())
    {
        i.Write(m_value.data(), uint32_t(m_value.size()));
    }
}

bool
SctpUnknownChunk::DeserializeValue(WireReader& r)
{
    m_value = r.Bytes(r.Remaining());
    return r.ok();
}

// ------------------------------------------------------------------------------------------------ factory

std::shared_ptr<SctpChunk>
SctpMakeChunk(uint8_t type, uint8_t flags)
{
    std::shared_ptr<SctpChunk> c;
    switch (type)
    {
    case uint8_t(SctpChunkType::Data):
        c = std::make_shared<SctpDataChunk>();
        break;
    case uint8_t(SctpChunkType::Init):
        c = std::make_shared<SctpInitChunk>(false);
        break;
    case uint8_t(SctpChunkType::InitAck):
        c = std::make_shared<SctpInitChunk>(true);
        break;
    case uint8_t(SctpChunkType::Sack):
        c = std::make_shared<SctpSackChunk>();
        break;
    case uint8_t(SctpChunkType::Heartbeat):
        c = std::make_shared<SctpHeartbeatChunk>(false);
        break;
    case uint8_t(SctpChunkType::HeartbeatAck):
        c = std::make_shared<SctpHeartbeatChunk>(true);
        break;
    case uint8_t(SctpChunkType::Abort):
        c = std::make_shared<SctpErrorChunk>(SctpChunkType::Abort);
        break;
    case uint8_t(SctpChunkType::Error):
        c = std::make_shared<SctpErrorChunk>(SctpChunkType::Error);
        break;
    case uint8_t(SctpChunkType::Shutdown):
        c = std::make_shared<SctpShutdownChunk>();
        break;
    case uint8_t(SctpChunkType::ShutdownAck):
    case uint8_t(SctpChunkType::CookieAck):
    case uint8_t(SctpChunkType::ShutdownComplete):
        c = std::make_shared<SctpEmptyChunk>(SctpChunkType(type));
        break;
    case uint8_t(SctpChunkType::CookieEcho):
        c = std::make_shared<SctpCookieEchoChunk>();
        break;
    default:
        c = std::make_shared<SctpUnknownChunk>(type, flags);
        break;
    }
    c->SetFlags(flags);
    return c;
}

} // namespace ns3
