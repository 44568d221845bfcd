#include "ddp/ddp-header.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DdpTaggedHeader);
NS_OBJECT_ENSURE_REGISTERED(DdpUntaggedHeader);

// ---------------------------------------------------------------- tagged

DdpTaggedHeader::DdpTaggedHeader()
    : m_ctrl(DdpControl::Make(true, false))
{
}

TypeId
DdpTaggedHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DdpTaggedHeader")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<DdpTaggedHeader>();
    return tid;
}

TypeId
DdpTaggedHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
DdpTaggedHeader::GetSerializedSize() const
{
    return iwarp::kDdpTaggedHdrLen;
}

void
DdpTaggedHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_ctrl);
    i.WriteU8(m_rsvdUlp);
    i.WriteHtonU32(m_stag);
    i.WriteHtonU64(m_to);
}

uint32_t
DdpTaggedHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_ctrl = i.ReadU8();
    m_rsvdUlp = i.ReadU8();
    m_stag = i.ReadNtohU32();
    m_to = i.ReadNtohU64();
    return i.GetDistanceFrom(start);
}

void
DdpTaggedHeader::Print(std::ostream& os) const
{
    os << "DDP tagged L=" << IsLast() << " DV=" << unsigned(GetDdpVersion()) << " RsvdULP=0x"
       << std::hex << unsigned(m_rsvdUlp) << " STag=0x" << m_stag << " TO=0x" << m_to << std::dec;
}

void
DdpTaggedHeader::SetLast(bool last)
{
    m_ctrl = last ? (m_ctrl | iwarp::kDdpL) : (m_ctrl & ~iwarp::kDdpL);
}

bool
DdpTaggedHeader::IsLast() const
{
    return DdpControl::IsLast(m_ctrl);
}

uint8_t
DdpTaggedHeader::GetDdpVersion() const
{
    return DdpControl::Version(m_ctrl);
}

void
DdpTaggedHeader::SetControl(uint8_t ctrl)
{
    m_ctrl = ctrl | iwarp::kDdpT;
}

// ---------------------------------------------------------------- untagged

DdpUntaggedHeader::DdpUntaggedHeader()
    : m_ctrl(DdpControl::Make(false, false))
{
}

TypeId
DdpUntaggedHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DdpUntaggedHeader")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<DdpUntaggedHeader>();
    return tid;
}

TypeId
DdpUntaggedHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
DdpUntaggedHeader::GetSerializedSize() const
{
    return iwarp::kDdpUntaggedHdrLen;
}

void
DdpUntaggedHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_ctrl);
    i.WriteU8(m_rsvdUlp0);
    i.WriteHtonU32(m_rsvdUlp1);
    i.WriteHtonU32(m_qn);
    i.WriteHtonU32(m_msn);
    i.WriteHtonU32(m_mo);
}

uint32_t
DdpUntaggedHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_ctrl = i.ReadU8();
    m_rsvdUlp0 = i.ReadU8();
    m_rsvdUlp1 = i.ReadNtohU32();
    m_qn = i.ReadNtohU32();
    m_msn = i.ReadNtohU32();
    m_mo = i.ReadNtohU32();
    return i.GetDistanceFrom(start);
}

void
DdpUntaggedHeader::Print(std::ostream& os) const
{
    os << "DDP untagged L=" << IsLast() << " DV=" << unsigned(GetDdpVersion()) << " RsvdULP=0x"
       << std::hex << unsigned(m_rsvdUlp0) << "/0x" << m_rsvdUlp1 << std::dec << " QN=" << m_qn
       << " MSN=" << m_msn << " MO=" << m_mo;
}

void
DdpUntaggedHeader::SetLast(bool last)
{
    m_ctrl = last ? (m_ctrl | iwarp::kDdpL) : (m_ctrl & ~iwarp::kDdpL);
}

bool
DdpUntaggedHeader::IsLast() const
{
    return DdpControl::IsLast(m_ctrl);
}

uint8_t
DdpUntaggedHeader::GetDdpVersion() const
{
    return DdpControl::Version(m_ctrl);
}

void
DdpUntaggedHeader::SetControl(uint8_t ctrl)
{
    m_ctrl = ctrl & ~iwarp::kDdpT;
}

// ---------------------------------------------------------------- view

std::optional<DdpSegmentView>
PeekDdpControl(Ptr<const Packet> segment)
{
    DdpSegmentView v;
    if (segment->CopyData(&v.control, 1) != 1)
    {
        return std::nullopt;
    }
    v.tagged = DdpControl::IsTagged(v.control);
    v.last = DdpControl::IsLast(v.control);
    v.headerLength = v.tagged ? iwarp::kDdpTaggedHdrLen : iwarp::kDdpUntaggedHdrLen;
    const uint32_t size = segment->GetSize();
    if (size < v.headerLength)
    {
        return std::nullopt; // PeekHeader would read past the end
    }
    v.payloadLength = size - v.headerLength;
    return v;
}

std::optional<DdpSegmentView>
PeekDdpSegment(Ptr<const Packet> segment)
{
    std::optional<DdpSegmentView> found = PeekDdpControl(segment);
    if (!found)
    {
        return std::nullopt;
    }
    DdpSegmentView& v = *found;
    if (v.tagged)
    {
        DdpTaggedHeader h;
        segment->PeekHeader(h);
        v.rsvdUlp0 = h.GetRsvdUlp();
        v.stag = h.GetStag();
        v.to = h.GetTo();
    }
    else
    {
        DdpUntaggedHeader h;
        segment->PeekHeader(h);
        v.rsvdUlp0 = h.GetRsvdUlp0();
        v.rsvdUlp1 = h.GetRsvdUlp1();
        v.qn = h.GetQn();
        v.msn = h.GetMsn();
        v.mo = h.GetMo();
    }
    return found;
}

} // namespace ns3
