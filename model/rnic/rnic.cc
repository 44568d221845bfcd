#include "rnic/rnic.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Rnic);

TypeId
Rnic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Rnic").SetParent<Object>().SetGroupName("Iwarp").AddConstructor<Rnic>();
    return tid;
}

Rnic::Rnic()
    : m_memory(CreateObject<MemoryRegistry>()),
      m_cm(CreateObject<ConnectionManager>())
{
}

void
Rnic::NotifyNewAggregate()
{
    if (!m_node)
    {
        m_node = GetObject<Node>();
        m_cm->SetNode(m_node);
    }
    Object::NotifyNewAggregate();
}

void
Rnic::DoDispose()
{
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_cm->Dispose();
    m_memory->Dispose();
    m_node = nullptr;
    Object::DoDispose();
}

Ptr<CompletionQueue>
Rnic::CreateCq()
{
    return CreateObject<CompletionQueue>();
}

Ptr<QueuePair>
Rnic::CreateQp(Ptr<ProtectionDomain> pd, Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq)
{
    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    qp->Setup(m_nextQpn++, m_memory, pd, sendCq, recvCq);
    m_qps.push_back(qp);
    return qp;
}

} // namespace ns3
