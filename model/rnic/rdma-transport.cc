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
RdmaTransport::Setup(Ptr<MemoryAccess> memory, const StreamContext& ctx, CompletionCallback completion,
                     EventCallback event)
{
    m_memory = memory;
    m_ctx = ctx;
    m_completion = completion;
    m_event = event;
}

void
RdmaTransport::DoDispose()
{
    m_memory = nullptr;
    m_completion = CompletionCallback(); // they point back into the QP
    m_event = EventCallback();
    Object::DoDispose();
}

bool
RdmaTransport::ResolveLocal(const LocalBuffer& b, uint8_t access, BufferWindow* out) const
{
    return m_memory->Resolve(b.stag, b.to, b.length, access, m_ctx, out) == TagCheck::Ok;
}

} // namespace ns3
