/*
 * SctpMessageTag; see sctp-message-tag.h.
 */
#include "sctp/sctp-message-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpMessageTag);

TypeId
SctpMessageTag::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpMessageTag").SetParent<Tag>().SetGroupName("Iwarp").AddConstructor<SctpMessageTag>();
    return tid;
}

TypeId
SctpMessageTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
SctpMessageTag::Serialize(TagBuffer i) const
{
    i.WriteU16(stream);
    i.WriteU16(ssn);
    i.WriteU32(ppid);
    i.WriteU32(tsn);
    i.WriteU8(unordered ? 1 : 0);
    i.WriteU8(eor ? 1 : 0);
    i.WriteU16(0);
}

void
SctpMessageTag::Deserialize(TagBuffer i)
{
    stream = i.ReadU16();
    ssn = i.ReadU16();
    ppid = i.ReadU32();
    tsn = i.ReadU32();
    unordered = i.ReadU8() != 0;
    eor = i.ReadU8() != 0;
    i.ReadU16();
}

void
SctpMessageTag::Print(std::ostream& os) const
{
    os << "SID=" << stream << " SSN=" << ssn << " PPID=" << ppid << (unordered ? " U" : "") << " TSN=" << tsn;
}

} // namespace ns3
