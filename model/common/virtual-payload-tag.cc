#include "common/virtual-payload-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VirtualPayloadTag);

TypeId
VirtualPayloadTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VirtualPayloadTag")
                            .SetParent<Tag>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<VirtualPayloadTag>();
    return tid;
}

TypeId
VirtualPayloadTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VirtualPayloadTag::GetSerializedSize() const
{
    return 4;
}

void
VirtualPayloadTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_octets);
}

void
VirtualPayloadTag::Deserialize(TagBuffer i)
{
    m_octets = i.ReadU32();
}

void
VirtualPayloadTag::Print(std::ostream& os) const
{
    os << "virtual=" << m_octets;
}

} // namespace ns3
