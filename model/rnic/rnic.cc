#include "rnic/rnic.h"

#include "host/host-model.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rdma-transport-kinds.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Rnic");
NS_OBJECT_ENSURE_REGISTERED(Rnic);

TypeId
Rnic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Rnic")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<Rnic>()
            .AddAttribute("QueuePairType",
                          "The type of the queue pairs CreateQp makes (an ns3::QueuePair)",
                          TypeIdValue(QueuePair::GetTypeId()),
                          MakeTypeIdAccessor(&Rnic::SetQpType, &Rnic::GetQpType),
                          MakeTypeIdChecker())
            .AddAttribute("CompletionQueueType",
                          "The type of the completion queues CreateCq makes (an ns3::CompletionQueue)",
                          TypeIdValue(CompletionQueue::GetTypeId()),
                          MakeTypeIdAccessor(&Rnic::SetCqType, &Rnic::GetCqType),
                          MakeTypeIdChecker())
            .AddAttribute("TransportType",
                          "The RDMA transport each new queue pair runs over: the one the connection manager's "
                          "LlpConnector pairs with (RdmaTransportKinds), so the two cannot disagree. Read-only: "
                          "choose the transport by choosing ns3::ConnectionManager::LlpConnector",
                          TypeId::ATTR_GET,
                          TypeIdValue(IwarpTransport::GetTypeId()),
                          MakeTypeIdAccessor(&Rnic::GetTransportType),
                          MakeTypeIdChecker())
            .AddTraceSource("QpCreated",
                            "A queue pair was created on this RNIC",
                            MakeTraceSourceAccessor(&Rnic::m_qpCreatedTrace),
                            "ns3::Rnic::QpCreatedTracedCallback");
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
    for (auto& [cq, core] : m_cqCores)
    {
        cq->Dispose();
    }
    m_cqCores.clear();
    m_cm->Dispose();
    m_memory->Dispose();
    m_node = nullptr;
    m_qpCreatedTrace = TracedCallback<Ptr<QueuePair>>(); // sinks may hold Ptrs
    Object::DoDispose();
}

namespace
{

/**
 * A factory's type must be `base` or derive from it, and be creatable: anything else could not be
 * used as one. False (and nothing changes) otherwise, so that SetAttribute fails and
 * SetAttributeFailSafe returns false, as for ConnectionManager::LlpConnector.
 */
bool
SetFactoryType(ObjectFactory* f, TypeId tid, TypeId base, const char* attribute)
{
    if (!(tid == base || tid.IsChildOf(base)) || !tid.HasConstructor())
    {
        NS_LOG_ERROR("Rnic::" << attribute << ": " << tid.GetName() << " is not a " << base.GetName()
                              << " that can be created");
        return false;
    }
    f->SetTypeId(tid);
    return true;
}

} // namespace

bool
Rnic::SetQpType(TypeId tid)
{
    return SetFactoryType(&m_qpFactory, tid, QueuePair::GetTypeId(), "QueuePairType");
}

bool
Rnic::SetCqType(TypeId tid)
{
    return SetFactoryType(&m_cqFactory, tid, CompletionQueue::GetTypeId(), "CompletionQueueType");
}

TypeId
Rnic::GetTransportType() const
{
    return RdmaTransportKindOfConnector(m_cm->GetConnectorType())->transport; // every connector the CM takes pairs
}

namespace
{
/** A completion queue armed for events raised one: its thread's core pays the event. */
void
OnEvent(Ptr<HostModel> host, int32_t core, const WorkCompletion& /* c */)
{
    host->RdmaEvent(MakeNullCallback<void>(), core);
}
} // namespace

Ptr<MemoryRegion>
Rnic::RegisterMemory(Ptr<ProtectionDomain> pd, uint64_t length, uint8_t access, MemoryRegistry::Backing backing)
{
    Ptr<MemoryRegion> mr = m_memory->Register(pd, length, access, backing);
    if (Ptr<HostModel> host = GetHost(); host && mr)
    {
        host->RdmaRegister(length, MakeNullCallback<void>());
    }
    return mr;
}

Ptr<CompletionQueue>
Rnic::CreateCq()
{
    Ptr<CompletionQueue> cq = m_cqFactory.Create<CompletionQueue>();
    ConfigurePart(cq);
    if (Ptr<HostModel> host = GetHost())
    {
        const uint32_t core = host->AssignFlowCore();
        m_cqCores[cq] = core;
        cq->TraceConnectWithoutContext("Notify", MakeBoundCallback(&OnEvent, host, int32_t(core)));
    }
    return cq;
}

Ptr<QueuePair>
Rnic::CreateQp(Ptr<ProtectionDomain> pd, Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq)
{
    Ptr<QueuePair> qp = m_qpFactory.Create<QueuePair>();
    ObjectFactory transport;
    transport.SetTypeId(GetTransportType());
    qp->Setup(m_nextQpn++, m_memory, pd, sendCq, recvCq, transport.Create<RdmaTransport>());
    m_qps.push_back(qp);
    // Before QpCreated: its sinks (per-host settings) come on top.
    ConfigurePart(qp);
    ConfigurePart(qp->GetTransport());
    for (Ptr<Object> part : qp->GetTransport()->Parts())
    {
        ConfigurePart(part);
    }
    ChargeHost(qp, sendCq, recvCq);
    m_qpCreatedTrace(qp);
    return qp;
}

// ---- part attributes (see rnic.h) ----

void
Rnic::SetPartAttribute(TypeId part, const std::string& name, const AttributeValue& value)
{
    AttributeSet one;
    one.Set(part, name, value);
    SetPartAttributes(one);
}

void
Rnic::SetPartAttributes(const AttributeSet& parts)
{
    m_partAttributes.Add(parts);
    // These two exist from the RNIC's construction on.
    ConfigurePart(m_cm);
    ConfigurePart(m_memory);
}

void
Rnic::ConfigurePart(Ptr<Object> part) const
{
    m_partAttributes.ApplyTo(part);
}

namespace
{

void
OnPlaced(Ptr<HostModel> host, uint64_t octets)
{
    host->RdmaReceive(octets, MakeNullCallback<void>()); // doc/architecture.md: one bus crossing
}

void
OnSent(Ptr<HostModel> host, uint64_t octets)
{
    host->RdmaSend(octets, MakeNullCallback<void>());
}

// `sendCore` and `recvCore`: the cores of the threads that own a QP's send and receive completion queues.
void
OnPost(Ptr<HostModel> host, int32_t sendCore, int32_t recvCore, uint64_t /* id */, bool receive)
{
    host->RdmaPost(1, MakeNullCallback<void>(), receive ? recvCore : sendCore);
}

void
OnCompletion(Ptr<HostModel> host, int32_t sendCore, int32_t recvCore, const WorkCompletion& c)
{
    host->RdmaPoll(MakeNullCallback<void>(), c.IsRecv() ? recvCore : sendCore);
}

} // namespace

Ptr<HostModel>
Rnic::GetHost() const
{
    return m_node ? m_node->GetObject<HostModel>() : nullptr;
}

int32_t
Rnic::CoreOf(Ptr<CompletionQueue> cq, Ptr<HostModel> host)
{
    auto it = m_cqCores.find(cq);
    if (it == m_cqCores.end())
    {
        it = m_cqCores.emplace(cq, host->AssignFlowCore()).first; // a CQ this RNIC did not make
    }
    return int32_t(it->second);
}

void
Rnic::ChargeHost(Ptr<QueuePair> qp, Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq)
{
    Ptr<HostModel> host = GetHost();
    if (!host)
    {
        return;
    }
    // The verbs' cycles: every request posted and every completion reaped, on the core of the thread
    // that owns the CQ the queue completes on.
    const int32_t sendCore = CoreOf(sendCq, host);
    const int32_t recvCore = CoreOf(recvCq, host);
    qp->TraceConnectWithoutContext("Post", MakeBoundCallback(&OnPost, host, sendCore, recvCore));
    qp->TraceConnectWithoutContext("Completion", MakeBoundCallback(&OnCompletion, host, sendCore, recvCore));
    // Per segment or packet the transport moves, whatever the transport (RdmaTransport::WatchOctets).
    // The charge is counted and contends for the bus with the host's other traffic (a sockets
    // baseline on the same node); RDMA placement itself is not held back by it (doc/host-model.md).
    qp->GetTransport()->WatchOctets(MakeBoundCallback(&OnPlaced, host), MakeBoundCallback(&OnSent, host));
}

} // namespace ns3
