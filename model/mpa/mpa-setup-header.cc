#include "mpa/mpa-setup-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cstring>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpaSetupFrame");
NS_OBJECT_ENSURE_REGISTERED(MpaSetupFrame);

using namespace iwarp;

namespace
{

const uint8_t*
KeyOf(MpaFrameKind kind)
{
    return kind == MpaFrameKind::Request ? kMpaKeyRequest : kMpaKeyReply;
}

/** Flag bits that must be zero in a frame of this kind and revision (reserved bits are an error: doc/conformance.md, MPA). */
uint8_t
ReservedFlagMask(MpaFrameKind kind, uint8_t rev)
{
    uint8_t mask = 0x0F;
    if (rev != kMpaRev2)
    {
        mask |= kMpaFlagEnhanced; // Enhanced exists from RFC 6581 (Rev 2) on
    }
    if (kind == MpaFrameKind::Request)
    {
        mask |= kMpaFlagR; // only a Reply can reject
    }
    return mask;
}

} // namespace

MpaSetupFrame::MpaSetupFrame(MpaFrameKind kind)
    : m_kind(kind)
{
}

TypeId
MpaSetupFrame::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MpaSetupFrame")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<MpaSetupFrame>();
    return tid;
}

TypeId
MpaSetupFrame::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint16_t
MpaSetupFrame::GetPdLength() const
{
    return uint16_t((IsEnhanced() ? kMpaIrdOrdLen : 0) + m_privateData.size());
}

uint32_t
MpaSetupFrame::GetSerializedSize() const
{
    return uint32_t(kMpaSetupHdrLen + GetPdLength());
}

void
MpaSetupFrame::Serialize(Buffer::Iterator i) const
{
    // SetPrivateData() checks the limit, but SetEnhanced() afterwards can still add 4 octets.
    NS_ABORT_MSG_IF(GetPdLength() > kMpaMaxPrivateData, "MPA PD_Length above 512");
    i.Write(KeyOf(m_kind), kMpaKeyLen);
    i.WriteU8(m_flags);
    i.WriteU8(m_rev);
    i.WriteHtonU16(GetPdLength());
    if (IsEnhanced())
    {
        i.WriteHtonU16(m_irdWord);
        i.WriteHtonU16(m_ordWord);
    }
    if (!m_privateData.empty())
    {
        i.Write(m_privateData.data(), uint32_t(m_privateData.size()));
    }
}

uint32_t
MpaSetupFrame::Deserialize(Buffer::Iterator start)
{
    // Copy at most one maximal frame and run the untrusted parser on it, so that a short or malformed
    // packet never makes the iterator read past its end.
    uint8_t bytes[kMpaSetupHdrLen + kMpaMaxPrivateData];
    uint32_t n = std::min<uint32_t>(start.GetRemainingSize(), sizeof(bytes));
    start.Read(bytes, n);
    MpaFrameKind kind = (n >= kMpaKeyLen && std::memcmp(bytes, kMpaKeyRequest, kMpaKeyLen) == 0)
                            ? MpaFrameKind::Request
                            : MpaFrameKind::Reply;
    MpaSetupFrame parsed(kind);
    size_t consumed = 0;
    MpaError err;
    if (TryParse(kind, bytes, n, &parsed, &consumed, &err) != ParseStatus::Ok)
    {
        NS_LOG_WARN("no valid MPA Request/Reply in " << n << " octets");
        return 0;
    }
    *this = parsed;
    return uint32_t(consumed);
}

MpaSetupFrame::ParseStatus
MpaSetupFrame::TryParse(const uint8_t* data,
                        size_t len,
                        MpaSetupFrame* out,
                        size_t* consumed,
                        MpaError* err)
{
    return TryParse(out->GetKind(), data, len, out, consumed, err);
}

MpaSetupFrame::ParseStatus
MpaSetupFrame::TryParse(MpaFrameKind expected,
                        const uint8_t* data,
                        size_t len,
                        MpaSetupFrame* out,
                        size_t* consumed,
                        MpaError* err)
{
    *consumed = 0;
    auto fail = [err](const char* why) {
        NS_LOG_INFO("invalid MPA Request/Reply: " << why);
        *err = MpaError::InvalidRequestReply;
        return ParseStatus::Error;
    };

    // Key: compare whatever part of it has arrived, so garbage is rejected at once.
    const uint8_t* key = KeyOf(expected);
    size_t keyPart = std::min(len, kMpaKeyLen);
    if (keyPart > 0 && std::memcmp(data, key, keyPart) != 0)
    {
        return fail("wrong key");
    }
    // The reserved flag bits depend on Rev, so flags and Rev are judged together.
    if (len < kMpaKeyLen + 2)
    {
        return ParseStatus::NeedMore;
    }
    uint8_t flags = data[16];
    uint8_t rev = data[17];
    if (rev != kMpaRev1 && rev != kMpaRev2)
    {
        return fail("Rev not 1 or 2");
    }
    if ((flags & ReservedFlagMask(expected, rev)) != 0)
    {
        return fail("reserved flag bits set");
    }
    if (len < kMpaSetupHdrLen)
    {
        return ParseStatus::NeedMore;
    }
    uint16_t pdLength = uint16_t((data[18] << 8) | data[19]);
    if (pdLength > kMpaMaxPrivateData)
    {
        return fail("PD_Length > 512");
    }
    bool enhanced = (flags & kMpaFlagEnhanced) != 0;
    if (enhanced && pdLength < kMpaIrdOrdLen)
    {
        return fail("Enhanced frame without IRD/ORD words");
    }
    if (len < kMpaSetupHdrLen + pdLength)
    {
        return ParseStatus::NeedMore;
    }

    const uint8_t* pd = data + kMpaSetupHdrLen;
    MpaSetupFrame f(expected);
    f.m_flags = flags;
    f.m_rev = rev;
    if (enhanced)
    {
        f.m_irdWord = uint16_t((pd[0] << 8) | pd[1]);
        f.m_ordWord = uint16_t((pd[2] << 8) | pd[3]);
        pd += kMpaIrdOrdLen;
    }
    f.m_privateData.assign(pd, data + kMpaSetupHdrLen + pdLength);
    *out = std::move(f);
    *consumed = kMpaSetupHdrLen + pdLength;
    return ParseStatus::Ok;
}

void
MpaSetupFrame::Print(std::ostream& os) const
{
    os << "MPA " << (m_kind == MpaFrameKind::Request ? "Request" : "Reply") << " M=" << GetMarkers()
       << " C=" << GetCrc() << " R=" << GetReject() << " Rev=" << unsigned(m_rev)
       << " PD_Length=" << GetPdLength();
    if (IsEnhanced())
    {
        os << " IRD=" << GetIrd() << " ORD=" << GetOrd() << " P2P=" << IsPeerToPeer()
           << " RTR(Send,Write,Read)=" << GetRtrSend() << GetRtrWrite() << GetRtrRead();
    }
}

void
MpaSetupFrame::SetPrivateData(const std::vector<uint8_t>& pd)
{
    NS_ABORT_MSG_IF(pd.size() + (IsEnhanced() ? kMpaIrdOrdLen : 0) > kMpaMaxPrivateData,
                    "MPA private data longer than 512 octets (PD_Length counts the IRD/ORD words)");
    m_privateData = pd;
}

void
MpaSetupFrame::SetIrd(uint16_t ird)
{
    NS_ABORT_MSG_IF(ird > kMpaIrdOrdValueMask, "IRD is a 14-bit value");
    m_irdWord = uint16_t((m_irdWord & ~kMpaIrdOrdValueMask) | ird);
}

void
MpaSetupFrame::SetOrd(uint16_t ord)
{
    NS_ABORT_MSG_IF(ord > kMpaIrdOrdValueMask, "ORD is a 14-bit value");
    m_ordWord = uint16_t((m_ordWord & ~kMpaIrdOrdValueMask) | ord);
}

} // namespace ns3
