#include "rdmap/rdmap-header.h"

#include "ddp/ddp-header.h"

#include "ns3/buffer.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmapReadRequestHeader);
NS_OBJECT_ENSURE_REGISTERED(RdmapTerminateHeader);

namespace
{
/** Serialize a header into a byte vector through ns-3's own Buffer. */
std::vector<uint8_t>
HeaderBytes(const Header& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(h.GetSerializedSize());
    b.CopyData(out.data(), out.size());
    return out;
}

Buffer::Iterator
BufferOver(Buffer& b, const uint8_t* data, size_t len)
{
    b.AddAtStart(len);
    b.Begin().Write(data, len);
    return b.Begin();
}
} // namespace

// ---------------------------------------------------------------- Read Request

TypeId
RdmapReadRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmapReadRequestHeader")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<RdmapReadRequestHeader>();
    return tid;
}

TypeId
RdmapReadRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RdmapReadRequestHeader::GetSerializedSize() const
{
    return iwarp::kReadReqHdrLen;
}

void
RdmapReadRequestHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32(sinkStag);
    i.WriteHtonU64(sinkTo);
    i.WriteHtonU32(readSize);
    i.WriteHtonU32(srcStag);
    i.WriteHtonU64(srcTo);
}

uint32_t
RdmapReadRequestHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    sinkStag = i.ReadNtohU32();
    sinkTo = i.ReadNtohU64();
    readSize = i.ReadNtohU32();
    srcStag = i.ReadNtohU32();
    srcTo = i.ReadNtohU64();
    return i.GetDistanceFrom(start);
}

void
RdmapReadRequestHeader::Print(std::ostream& os) const
{
    os << std::hex << "RDMA Read Request SinkSTag=0x" << sinkStag << " SinkTO=0x" << sinkTo
       << std::dec << " RDMARDSZ=" << readSize << std::hex << " SrcSTag=0x" << srcStag
       << " SrcTO=0x" << srcTo << std::dec;
}

bool
RdmapReadRequestHeader::Parse(const uint8_t* data, size_t len)
{
    if (len < iwarp::kReadReqHdrLen)
    {
        return false;
    }
    Buffer b;
    Deserialize(BufferOver(b, data, iwarp::kReadReqHdrLen));
    return true;
}

std::vector<uint8_t>
RdmapReadRequestHeader::ToBytes() const
{
    return HeaderBytes(*this);
}

// ---------------------------------------------------------------- Terminate

TypeId
RdmapTerminateHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmapTerminateHeader")
                            .SetParent<Header>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<RdmapTerminateHeader>();
    return tid;
}

TypeId
RdmapTerminateHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RdmapTerminateHeader::GetControlWord() const
{
    return iwarp::TermCtrl(cause.layer, cause.etype, cause.code, m, d, r);
}

uint32_t
RdmapTerminateHeader::GetSerializedSize() const
{
    return iwarp::kTermCtrlLen + iwarp::kTermSegLenLen + (d ? ddpHeader.size() : 0) +
           (r ? rdmaHeader.size() : 0);
}

void
RdmapTerminateHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32(GetControlWord()); // the 13 reserved bits are 0 (RDMAP-016)
    i.WriteHtonU16(m ? ddpSegLen : 0);
    if (d)
    {
        i.Write(ddpHeader.data(), ddpHeader.size());
    }
    if (r)
    {
        i.Write(rdmaHeader.data(), rdmaHeader.size());
    }
}

uint32_t
RdmapTerminateHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    const uint32_t ctrl = i.ReadNtohU32();
    cause.layer = uint8_t(ctrl >> 28);
    cause.etype = uint8_t((ctrl >> 24) & 0xF);
    cause.code = uint8_t((ctrl >> 16) & 0xFF);
    m = (ctrl >> 15) & 1;
    d = (ctrl >> 14) & 1;
    r = (ctrl >> 13) & 1;
    ddpSegLen = i.ReadNtohU16();
    ddpHeader.clear();
    rdmaHeader.clear();
    if (d)
    {
        const uint8_t first = i.PeekU8();
        ddpHeader.resize(DdpControl::IsTagged(first) ? iwarp::kDdpTaggedHdrLen
                                                      : iwarp::kDdpUntaggedHdrLen);
        i.Read(ddpHeader.data(), ddpHeader.size());
    }
    if (r)
    {
        rdmaHeader.resize(iwarp::kReadReqHdrLen);
        i.Read(rdmaHeader.data(), rdmaHeader.size());
    }
    return i.GetDistanceFrom(start);
}

bool
RdmapTerminateHeader::Parse(const uint8_t* data, size_t len)
{
    if (len < iwarp::kTermCtrlLen)
    {
        return false;
    }
    // A12: a Terminate with M=D=R=0 may be a bare 4-octet control word; any of the bits
    // promises the Segment Length field at least.
    const uint8_t flags = data[2];
    const bool wantD = flags & 0x40;
    const bool wantR = flags & 0x20;
    size_t need = iwarp::kTermCtrlLen;
    const bool wantM = flags & 0x80;
    if (wantM || wantD || wantR || len >= iwarp::kTermCtrlLen + iwarp::kTermSegLenLen)
    {
        need += iwarp::kTermSegLenLen;
    }
    if (wantD)
    {
        if (len < need + 1)
        {
            return false;
        }
        need += DdpControl::IsTagged(data[need]) ? iwarp::kDdpTaggedHdrLen : iwarp::kDdpUntaggedHdrLen;
    }
    if (wantR)
    {
        need += iwarp::kReadReqHdrLen;
    }
    if (len < need)
    {
        return false;
    }
    std::vector<uint8_t> padded(data, data + need);
    padded.resize(std::max<size_t>(need, iwarp::kTermCtrlLen + iwarp::kTermSegLenLen), 0);
    Buffer b;
    Deserialize(BufferOver(b, padded.data(), padded.size()));
    return true;
}

std::vector<uint8_t>
RdmapTerminateHeader::ToBytes() const
{
    return HeaderBytes(*this);
}

void
RdmapTerminateHeader::Print(std::ostream& os) const
{
    os << "RDMAP Terminate " << cause.ToString() << " M=" << m << " D=" << d << " R=" << r
       << " DDPSegLen=" << ddpSegLen;
}

} // namespace ns3
