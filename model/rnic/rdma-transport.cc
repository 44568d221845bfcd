#include "rnic/rdma-transport.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaTransport);

TypeId
RdmaTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaTransport").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

void
RdmaTransport::Setup(Ptr<MemoryAccess> memory, const StreamContext& ctx, Owner* owner)
{
    m_memory = memory;
    m_ctx = ctx;
    m_owner = owner;
}

void
RdmaTransport::DoDispose()
{
    m_memory = nullptr;
    m_owner = nullptr; // the QP it points back to
    Object::DoDispose();
}

bool
RdmaTransport::ResolveLocal(const LocalBuffer& b, uint8_t access, BufferWindow* out) const
{
    return m_memory->Resolve(b.stag, b.to, b.length, access, m_ctx, out) == TagCheck::Ok;
}

} // namespace ns3
