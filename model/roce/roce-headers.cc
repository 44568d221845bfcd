#include "roce/roce-headers.h"

#include "ns3/abort.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceBth);
NS_OBJECT_ENSURE_REGISTERED(RoceReth);
NS_OBJECT_ENSURE_REGISTERED(RoceAeth);
NS_OBJECT_ENSURE_REGISTERED(RoceIeth);
NS_OBJECT_ENSURE_REGISTERED(RoceDeth);

namespace
{
/** Writes the low 24 bits of `v`, most significant octet first. */
void
WriteU24(Buffer::Iterator& i, uint32_t v)
{
    i.WriteU8(uint8_t(v >> 16));
    i.WriteHtonU16(uint16_t(v));
}

uint32_t
ReadU24(Buffer::Iterator& i)
{
    const uint32_t high = i.ReadU8();
    return (high << 16) | i.ReadNtohU16();
}
} // namespace

IbOpcodeLayout
LayoutOf(IbOpcode op)
{
    IbOpcodeLayout l;
    switch (op)
    {
    case IbOpcode::SendFirst:
    case IbOpcode::SendMiddle:
    case IbOpcode::SendLast:
    case IbOpcode::SendOnly:
    case IbOpcode::WriteMiddle:
    case IbOpcode::WriteLast:
    case IbOpcode::ReadResponseMiddle:
        l.payload = true;
        return l;
    case IbOpcode::SendLastImm:
    case IbOpcode::SendOnlyImm:
    case IbOpcode::WriteLastImm:
        l.immDt = l.payload = true;
        return l;
    case IbOpcode::WriteFirst:
    case IbOpcode::WriteOnly:
        l.reth = l.payload = true;
        return l;
    case IbOpcode::WriteOnlyImm:
        l.reth = l.immDt = l.payload = true;
        return l;
    case IbOpcode::ReadRequest:
        l.reth = true;
        return l;
    case IbOpcode::ReadResponseFirst:
    case IbOpcode::ReadResponseLast:
    case IbOpcode::ReadResponseOnly:
        l.aeth = l.payload = true;
        return l;
    case IbOpcode::Acknowledge:
        l.aeth = true;
        return l;
    case IbOpcode::SendLastInv:
    case IbOpcode::SendOnlyInv:
        l.ieth = l.payload = true;
        return l;
    case IbOpcode::UdSendOnly:
        l.deth = l.payload = true;
        return l;
    case IbOpcode::Cnp:
        l.reserved = roce::kCnpPaddingLen;
        return l;
    }
    l.known = false;
    return l;
}

std::string
ToString(IbOpcode op)
{
    static const char* const kRc[] = {
        "SEND_FIRST",          "SEND_MIDDLE",          "SEND_LAST",           "SEND_LAST_WITH_IMMEDIATE",
        "SEND_ONLY",           "SEND_ONLY_WITH_IMMEDIATE", "RDMA_WRITE_FIRST", "RDMA_WRITE_MIDDLE",
        "RDMA_WRITE_LAST",     "RDMA_WRITE_LAST_WITH_IMMEDIATE", "RDMA_WRITE_ONLY", "RDMA_WRITE_ONLY_WITH_IMMEDIATE",
        "RDMA_READ_REQUEST",   "RDMA_READ_RESPONSE_FIRST", "RDMA_READ_RESPONSE_MIDDLE", "RDMA_READ_RESPONSE_LAST",
        "RDMA_READ_RESPONSE_ONLY", "ACKNOWLEDGE"};
    const auto code = uint8_t(op);
    if (code < sizeof(kRc) / sizeof(kRc[0]))
    {
        return kRc[code];
    }
    switch (op)
    {
    case IbOpcode::SendLastInv:
        return "SEND_LAST_WITH_INVALIDATE";
    case IbOpcode::SendOnlyInv:
        return "SEND_ONLY_WITH_INVALIDATE";
    case IbOpcode::UdSendOnly:
        return "UD_SEND_ONLY";
    case IbOpcode::Cnp:
        return "CNP";
    default:
        break;
    }
    std::ostringstream os;
    os << "UNKNOWN(0x" << std::hex << std::setw(2) << std::setfill('0') << unsigned(code) << ")";
    return os.str();
}

// ------------------------------------------------------------------------------------------------------ BTH

TypeId
RoceBth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBth").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceBth>();
    return tid;
}

TypeId
RoceBth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceBth::GetSerializedSize() const
{
    return roce::kBthLen;
}

void
RoceBth::SetPadCount(uint8_t pad)
{
    NS_ABORT_MSG_IF(pad > 3, "BTH PadCnt is 2 bits (0-3), not " << unsigned(pad));
    m_padCount = pad;
}

void
RoceBth::SetDestQp(uint32_t qp)
{
    NS_ABORT_MSG_IF(qp > roce::kPsnMask, "a QP number is 24 bits, not " << qp);
    m_destQp = qp;
}

void
RoceBth::SetPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > roce::kPsnMask, "a PSN is 24 bits, not " << psn);
    m_psn = psn;
}

void
RoceBth::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_opcode);
    i.WriteU8(uint8_t((m_se ? 0x80 : 0) | (m_migReq ? 0x40 : 0) | (m_padCount << 4) | (m_tver & 0x0F)));
    i.WriteHtonU16(m_pkey);
    i.WriteU8(uint8_t((m_fecn ? 0x80 : 0) | (m_becn ? 0x40 : 0) | (m_resv6 & 0x3F)));
    WriteU24(i, m_destQp);
    i.WriteU8(uint8_t((m_ackReq ? 0x80 : 0) | (m_resv7 & 0x7F)));
    WriteU24(i, m_psn);
}

uint32_t
RoceBth::Deserialize(Buffer::Iterator i)
{
    m_opcode = i.ReadU8();
    const uint8_t flags = i.ReadU8();
    m_se = (flags & 0x80) != 0;
    m_migReq = (flags & 0x40) != 0;
    m_padCount = (flags >> 4) & 0x03;
    m_tver = flags & 0x0F;
    m_pkey = i.ReadNtohU16();
    const uint8_t resv8a = i.ReadU8();
    m_fecn = (resv8a & 0x80) != 0;
    m_becn = (resv8a & 0x40) != 0;
    m_resv6 = resv8a & 0x3F;
    m_destQp = ReadU24(i);
    const uint8_t ack = i.ReadU8();
    m_ackReq = (ack & 0x80) != 0;
    m_resv7 = ack & 0x7F;
    m_psn = ReadU24(i);
    return roce::kBthLen;
}

void
RoceBth::Print(std::ostream& os) const
{
    os << "BTH " << ToString(GetOpcode()) << " qp=" << m_destQp << " psn=" << m_psn << (m_ackReq ? " A" : "")
       << (m_se ? " SE" : "") << (m_fecn ? " FECN" : "") << (m_becn ? " BECN" : "") << " pad=" << unsigned(m_padCount);
}

// ----------------------------------------------------------------------------------------------------- RETH

TypeId
RoceReth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceReth").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceReth>();
    return tid;
}

TypeId
RoceReth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceReth::GetSerializedSize() const
{
    return roce::kRethLen;
}

void
RoceReth::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU64(m_va);
    i.WriteHtonU32(m_rkey);
    i.WriteHtonU32(m_dmaLength);
}

uint32_t
RoceReth::Deserialize(Buffer::Iterator i)
{
    m_va = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return roce::kRethLen;
}

void
RoceReth::Print(std::ostream& os) const
{
    os << "RETH va=0x" << std::hex << m_va << std::dec << " rkey=" << m_rkey << " len=" << m_dmaLength;
}

// ----------------------------------------------------------------------------------------------------- AETH

TypeId
RoceAeth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAeth").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceAeth>();
    return tid;
}

TypeId
RoceAeth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceAeth::GetSerializedSize() const
{
    return roce::kAethLen;
}

RoceAeth
RoceAeth::Ack(uint8_t credits, uint32_t msn)
{
    NS_ABORT_MSG_IF(credits > 0x1F || msn > roce::kPsnMask, "AETH: a 5-bit credit code and a 24-bit MSN");
    RoceAeth a;
    a.m_syndrome = credits;
    a.m_msn = msn;
    return a;
}

RoceAeth
RoceAeth::Nak(IbNakCode code, uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > roce::kPsnMask, "AETH: a 24-bit MSN");
    RoceAeth a;
    a.m_syndrome = uint8_t(0x60 | uint8_t(code));
    a.m_msn = msn;
    return a;
}

RoceAeth
RoceAeth::RnrNak(uint8_t timer, uint32_t msn)
{
    NS_ABORT_MSG_IF(timer > 0x1F || msn > roce::kPsnMask, "AETH: a 5-bit timer code and a 24-bit MSN");
    RoceAeth a;
    a.m_syndrome = uint8_t(0x20 | timer);
    a.m_msn = msn;
    return a;
}

void
RoceAeth::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_syndrome);
    WriteU24(i, m_msn);
}

uint32_t
RoceAeth::Deserialize(Buffer::Iterator i)
{
    m_syndrome = i.ReadU8();
    m_msn = ReadU24(i);
    return roce::kAethLen;
}

void
RoceAeth::Print(std::ostream& os) const
{
    os << "AETH " << (IsAck() ? "ACK" : IsNak() ? "NAK" : IsRnrNak() ? "RNR-NAK" : "reserved") << " value="
       << unsigned(GetValue()) << " msn=" << m_msn;
}

// ----------------------------------------------------------------------------------------------------- IETH

TypeId
RoceIeth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIeth").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceIeth>();
    return tid;
}

TypeId
RoceIeth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceIeth::GetSerializedSize() const
{
    return roce::kIethLen;
}

void
RoceIeth::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32(m_rkey);
}

uint32_t
RoceIeth::Deserialize(Buffer::Iterator i)
{
    m_rkey = i.ReadNtohU32();
    return roce::kIethLen;
}

void
RoceIeth::Print(std::ostream& os) const
{
    os << "IETH rkey=0x" << std::hex << m_rkey << std::dec;
}

// ----------------------------------------------------------------------------------------------------- DETH

TypeId
RoceDeth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceDeth").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<RoceDeth>();
    return tid;
}

TypeId
RoceDeth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceDeth::GetSerializedSize() const
{
    return roce::kDethLen;
}

void
RoceDeth::SetSrcQp(uint32_t qp)
{
    NS_ABORT_MSG_IF(qp > roce::kPsnMask, "a QP number is 24 bits, not " << qp);
    m_srcQp = qp;
}

void
RoceDeth::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32(m_qkey);
    i.WriteU8(m_reserved);
    WriteU24(i, m_srcQp);
}

uint32_t
RoceDeth::Deserialize(Buffer::Iterator i)
{
    m_qkey = i.ReadNtohU32();
    m_reserved = i.ReadU8();
    m_srcQp = ReadU24(i);
    return roce::kDethLen;
}

void
RoceDeth::Print(std::ostream& os) const
{
    os << "DETH qkey=0x" << std::hex << m_qkey << std::dec << " srcqp=" << m_srcQp;
}

} // namespace ns3
