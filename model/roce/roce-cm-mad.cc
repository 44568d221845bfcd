#include "roce/roce-cm-mad.h"

#include "roce/roce-headers.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceCmMad);

namespace
{
// Offsets within the message, from the MAD's octet 24 (the tables of the file's comment).
constexpr size_t kLocalCommId = 0;
constexpr size_t kRemoteCommId = 4;
constexpr size_t kReqServiceId = 8;
constexpr size_t kReqLocalQpn = 32; // 24 bits, then Responder Resources
constexpr size_t kReqResponderResources = 35;
constexpr size_t kReqInitiatorDepth = 39;
constexpr size_t kReqCmTimeoutType = 43; // Remote CM Response Timeout(5) Transport Service Type(2) E2E Flow Ctl(1)
constexpr size_t kReqStartingPsn = 44;
constexpr size_t kReqCmTimeoutRetry = 47; // Local CM Response Timeout(5) Retry Count(3)
constexpr size_t kReqPKey = 48;
constexpr size_t kReqMtuRnr = 50;        // Path MTU(4) RDC Exists(1) RNR Retry Count(3)
constexpr size_t kReqMaxCmRetries = 51;  // Max CM Retries(4) SRQ(1) Extended Transport(3)
constexpr size_t kReqLocalLid = 52;
constexpr size_t kReqRemoteLid = 54;
constexpr size_t kReqLocalGid = 56;
constexpr size_t kReqRemoteGid = 72;
constexpr size_t kReqHopLimit = 93;
constexpr size_t kReqLocalAckTimeout = 95; // Local ACK Timeout(5) reserved(3)
constexpr size_t kRepLocalQpn = 12;
constexpr size_t kRepStartingPsn = 20;
constexpr size_t kRepResponderResources = 24;
constexpr size_t kRepInitiatorDepth = 25;
constexpr size_t kRepRnrRetry = 27; // RNR Retry Count(3) SRQ(1) reserved(4)
constexpr size_t kRejReason = 10;
constexpr size_t kDreqRemoteQpn = 8;

// The fixed values of a REQ (the file's comment says why).
constexpr uint8_t kCmResponseTimeout = 20;
constexpr uint8_t kMaxCmRetries = 15;
constexpr uint16_t kPermissiveLid = 0xFFFF;
constexpr uint8_t kHopLimit = 64;

/** Where the private data starts in the message; kCmBodyLen for an attribute that is not one of the six. */
size_t
PrivateDataOffset(CmMessage m)
{
    return roce::kCmBodyLen - MaxPrivateData(m);
}

void
PutU16(uint8_t* p, uint16_t v)
{
    p[0] = uint8_t(v >> 8);
    p[1] = uint8_t(v);
}

/** The low 24 bits of `v`, most significant octet first. */
void
PutU24(uint8_t* p, uint32_t v)
{
    p[0] = uint8_t(v >> 16);
    PutU16(p + 1, uint16_t(v));
}

void
PutU32(uint8_t* p, uint32_t v)
{
    PutU16(p, uint16_t(v >> 16));
    PutU16(p + 2, uint16_t(v));
}

void
PutU64(uint8_t* p, uint64_t v)
{
    PutU32(p, uint32_t(v >> 32));
    PutU32(p + 4, uint32_t(v));
}

uint16_t
GetU16(const uint8_t* p)
{
    return uint16_t(p[0] << 8 | p[1]);
}

uint32_t
GetU24(const uint8_t* p)
{
    return uint32_t(p[0]) << 16 | GetU16(p + 1);
}

uint32_t
GetU32(const uint8_t* p)
{
    return uint32_t(GetU16(p)) << 16 | GetU16(p + 2);
}

uint64_t
GetU64(const uint8_t* p)
{
    return uint64_t(GetU32(p)) << 32 | GetU32(p + 4);
}

/** An IPv4 address as the IPv4-mapped GID ::ffff:a.b.c.d. */
void
PutGid(uint8_t* p, Ipv4Address a)
{
    std::memset(p, 0, 10);
    p[10] = p[11] = 0xFF;
    PutU32(p + 12, a.Get());
}

/** Throws std::invalid_argument when the wire cannot hold `f`. */
void
Check(const RoceCmFields& f)
{
    std::ostringstream why;
    if (f.privateData.size() > MaxPrivateData(f.type))
    {
        why << "private data of " << f.privateData.size() << " octets; a " << ToString(f.type) << " holds at most "
            << MaxPrivateData(f.type);
    }
    else if (f.localQpn > roce::kPsnMask || f.startingPsn > roce::kPsnMask)
    {
        why << "a QPN and a PSN are 24 bits (QPN " << f.localQpn << ", PSN " << f.startingPsn << ")";
    }
    else if (f.localAckTimeout > 0x1F)
    {
        why << "the local ACK timeout is a 5-bit code, not " << unsigned(f.localAckTimeout);
    }
    else if (f.retryCount > 7 || f.rnrRetryCount > 7)
    {
        why << "retry counts are 3 bits (" << unsigned(f.retryCount) << ", " << unsigned(f.rnrRetryCount) << ")";
    }
    else if (f.pathMtuCode > 0x0F)
    {
        why << "the path MTU is a 4-bit code, not " << f.pathMtuCode;
    }
    else
    {
        return;
    }
    throw std::invalid_argument("RoceCmMad: " + why.str());
}
} // namespace

std::string
ToString(CmMessage m)
{
    switch (m)
    {
    case CmMessage::Req:
        return "REQ";
    case CmMessage::Rej:
        return "REJ";
    case CmMessage::Rep:
        return "REP";
    case CmMessage::Rtu:
        return "RTU";
    case CmMessage::Dreq:
        return "DREQ";
    case CmMessage::Drep:
        return "DREP";
    }
    std::ostringstream os;
    os << "UNKNOWN(0x" << std::hex << std::setw(4) << std::setfill('0') << unsigned(m) << ")";
    return os.str();
}

uint32_t
MaxPrivateData(CmMessage m)
{
    switch (m)
    {
    case CmMessage::Req:
        return 92;
    case CmMessage::Rep:
        return 196;
    case CmMessage::Rej:
        return 148;
    case CmMessage::Rtu:
    case CmMessage::Drep:
        return 224;
    case CmMessage::Dreq:
        return 220;
    }
    return 0;
}

bool
operator==(const RoceCmFields& a, const RoceCmFields& b)
{
    return a.type == b.type && a.transactionId == b.transactionId && a.localCommId == b.localCommId &&
           a.remoteCommId == b.remoteCommId && a.serviceId == b.serviceId && a.localQpn == b.localQpn &&
           a.startingPsn == b.startingPsn && a.responderResources == b.responderResources &&
           a.initiatorDepth == b.initiatorDepth && a.rejectReason == b.rejectReason &&
           a.localAckTimeout == b.localAckTimeout && a.retryCount == b.retryCount &&
           a.rnrRetryCount == b.rnrRetryCount && a.pathMtuCode == b.pathMtuCode && a.localIp == b.localIp &&
           a.remoteIp == b.remoteIp && a.privateData == b.privateData;
}

bool
operator!=(const RoceCmFields& a, const RoceCmFields& b)
{
    return !(a == b);
}

TypeId
RoceCmMad::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceCmMad").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceCmMad>();
    return tid;
}

TypeId
RoceCmMad::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceCmMad::GetSerializedSize() const
{
    return roce::kMadLen;
}

RoceCmMad::RoceCmMad(const RoceCmFields& f)
{
    SetFields(f);
}

void
RoceCmMad::SetFields(const RoceCmFields& f)
{
    Check(f);
    *this = RoceCmMad();
    m_fields = f;
}

bool
RoceCmMad::IsKnownMessage() const
{
    return MaxPrivateData(m_fields.type) > 0;
}

bool
RoceCmMad::IsCmSend() const
{
    return m_baseVersion == roce::kMadBaseVersion && m_mgmtClass == roce::kCmMgmtClass &&
           m_classVersion == roce::kCmClassVersion && m_method == roce::kMadMethodSend && m_status == 0;
}

void
RoceCmMad::WriteBody(uint8_t* b) const
{
    const RoceCmFields& f = m_fields;
    PutU32(b + kLocalCommId, f.localCommId);
    if (f.type != CmMessage::Req)
    {
        PutU32(b + kRemoteCommId, f.remoteCommId);
    }
    switch (f.type)
    {
    case CmMessage::Req:
        PutU64(b + kReqServiceId, f.serviceId);
        PutU24(b + kReqLocalQpn, f.localQpn);
        b[kReqResponderResources] = f.responderResources;
        b[kReqInitiatorDepth] = f.initiatorDepth;
        b[kReqCmTimeoutType] = uint8_t(kCmResponseTimeout << 3); // Transport Service Type 0 (RC), no E2E credits
        PutU24(b + kReqStartingPsn, f.startingPsn);
        b[kReqCmTimeoutRetry] = uint8_t(kCmResponseTimeout << 3 | f.retryCount);
        PutU16(b + kReqPKey, roce::kDefaultPKey);
        b[kReqMtuRnr] = uint8_t(f.pathMtuCode << 4 | f.rnrRetryCount);
        b[kReqMaxCmRetries] = uint8_t(kMaxCmRetries << 4);
        PutU16(b + kReqLocalLid, kPermissiveLid);
        PutU16(b + kReqRemoteLid, kPermissiveLid);
        PutGid(b + kReqLocalGid, f.localIp);
        PutGid(b + kReqRemoteGid, f.remoteIp);
        b[kReqHopLimit] = kHopLimit;
        b[kReqLocalAckTimeout] = uint8_t(f.localAckTimeout << 3);
        break;
    case CmMessage::Rep:
        PutU24(b + kRepLocalQpn, f.localQpn);
        PutU24(b + kRepStartingPsn, f.startingPsn);
        b[kRepResponderResources] = f.responderResources;
        b[kRepInitiatorDepth] = f.initiatorDepth;
        b[kRepRnrRetry] = uint8_t(f.rnrRetryCount << 5);
        break;
    case CmMessage::Rej:
        PutU16(b + kRejReason, f.rejectReason); // Message Rejected 0: the REQ
        break;
    case CmMessage::Dreq:
        PutU24(b + kDreqRemoteQpn, f.localQpn);
        break;
    case CmMessage::Rtu:
    case CmMessage::Drep:
        break;
    }
    std::copy(f.privateData.begin(), f.privateData.end(), b + PrivateDataOffset(f.type));
}

void
RoceCmMad::ReadBody(const uint8_t* b)
{
    RoceCmFields& f = m_fields;
    f.localCommId = GetU32(b + kLocalCommId);
    if (f.type != CmMessage::Req)
    {
        f.remoteCommId = GetU32(b + kRemoteCommId);
    }
    switch (f.type)
    {
    case CmMessage::Req:
        f.serviceId = GetU64(b + kReqServiceId);
        f.localQpn = GetU24(b + kReqLocalQpn);
        f.responderResources = b[kReqResponderResources];
        f.initiatorDepth = b[kReqInitiatorDepth];
        f.startingPsn = GetU24(b + kReqStartingPsn);
        f.retryCount = b[kReqCmTimeoutRetry] & 0x07;
        f.pathMtuCode = b[kReqMtuRnr] >> 4;
        f.rnrRetryCount = b[kReqMtuRnr] & 0x07;
        f.localIp = Ipv4Address(GetU32(b + kReqLocalGid + 12));
        f.remoteIp = Ipv4Address(GetU32(b + kReqRemoteGid + 12));
        f.localAckTimeout = b[kReqLocalAckTimeout] >> 3;
        break;
    case CmMessage::Rep:
        f.localQpn = GetU24(b + kRepLocalQpn);
        f.startingPsn = GetU24(b + kRepStartingPsn);
        f.responderResources = b[kRepResponderResources];
        f.initiatorDepth = b[kRepInitiatorDepth];
        f.rnrRetryCount = b[kRepRnrRetry] >> 5;
        break;
    case CmMessage::Rej:
        f.rejectReason = GetU16(b + kRejReason);
        break;
    case CmMessage::Dreq:
        f.localQpn = GetU24(b + kDreqRemoteQpn);
        break;
    case CmMessage::Rtu:
    case CmMessage::Drep:
        break;
    }
    const size_t pd = PrivateDataOffset(f.type);
    f.privateData.assign(b + pd, b + roce::kCmBodyLen);
}

void
RoceCmMad::Serialize(Buffer::Iterator i) const
{
    Check(m_fields);
    std::array<uint8_t, roce::kMadLen> mad{};
    mad[0] = m_baseVersion;
    mad[1] = m_mgmtClass;
    mad[2] = m_classVersion;
    mad[3] = m_method;
    PutU16(&mad[4], m_status);
    PutU16(&mad[6], m_classSpecific);
    PutU64(&mad[8], m_fields.transactionId);
    PutU16(&mad[16], uint16_t(m_fields.type));
    PutU16(&mad[18], m_reserved);
    PutU32(&mad[20], m_attributeModifier);
    uint8_t* body = &mad[roce::kMadHeaderLen];
    if (IsKnownMessage())
    {
        WriteBody(body);
    }
    else
    {
        std::copy(m_unknownBody.begin(), m_unknownBody.end(), body);
    }
    i.Write(mad.data(), uint32_t(mad.size()));
}

uint32_t
RoceCmMad::Deserialize(Buffer::Iterator i)
{
    std::array<uint8_t, roce::kMadLen> mad{};
    i.Read(mad.data(), uint32_t(mad.size()));
    *this = RoceCmMad();
    m_baseVersion = mad[0];
    m_mgmtClass = mad[1];
    m_classVersion = mad[2];
    m_method = mad[3];
    m_status = GetU16(&mad[4]);
    m_classSpecific = GetU16(&mad[6]);
    m_fields.transactionId = GetU64(&mad[8]);
    m_fields.type = CmMessage(GetU16(&mad[16]));
    m_reserved = GetU16(&mad[18]);
    m_attributeModifier = GetU32(&mad[20]);
    const uint8_t* body = &mad[roce::kMadHeaderLen];
    if (IsKnownMessage())
    {
        ReadBody(body);
    }
    else
    {
        std::copy(body, body + roce::kCmBodyLen, m_unknownBody.begin());
    }
    return roce::kMadLen;
}

void
RoceCmMad::Print(std::ostream& os) const
{
    const RoceCmFields& f = m_fields;
    os << "CM " << ToString(f.type) << " tid=0x" << std::hex << f.transactionId << std::dec
       << " local=" << f.localCommId << " remote=" << f.remoteCommId;
    switch (f.type)
    {
    case CmMessage::Req:
        os << " sid=0x" << std::hex << f.serviceId << std::dec << " qpn=" << f.localQpn << " psn=" << f.startingPsn
           << " " << f.localIp << "->" << f.remoteIp;
        break;
    case CmMessage::Rep:
        os << " qpn=" << f.localQpn << " psn=" << f.startingPsn;
        break;
    case CmMessage::Rej:
        os << " reason=" << f.rejectReason;
        break;
    case CmMessage::Dreq:
        os << " qpn=" << f.localQpn;
        break;
    default:
        break;
    }
}

} // namespace ns3
