#include "rnic/memory-region.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ProtectionDomain);
NS_OBJECT_ENSURE_REGISTERED(MemoryRegion);

TypeId
ProtectionDomain::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ProtectionDomain").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

TypeId
MemoryRegion::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MemoryRegion").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

MemoryRegion::MemoryRegion(uint32_t stag,
                           uint32_t pdId,
                           uint64_t baseTo,
                           Ptr<ByteBuffer> backing,
                           uint8_t access)
    : m_stag(stag),
      m_pdId(pdId),
      m_baseTo(baseTo),
      m_backing(backing),
      m_access(access)
{
}

BufferWindow
MemoryRegion::Window(uint64_t to, uint64_t len) const
{
    return BufferWindow{m_backing, to - m_baseTo, len};
}

} // namespace ns3
