#include "rnic/rnic.h"

#include "ddp/ddp-header.h"
#include "host/host-model.h"

#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Rnic);

TypeId
Rnic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Rnic")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<Rnic>()
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
    m_cm->Dispose();
    m_memory->Dispose();
    m_node = nullptr;
    m_qpCreatedTrace = TracedCallback<Ptr<QueuePair>>(); // sinks may hold Ptrs
    Object::DoDispose();
}

Ptr<CompletionQueue>
Rnic::CreateCq()
{
    Ptr<CompletionQueue> cq = CreateObject<CompletionQueue>();
    ConfigurePart(cq);
    return cq;
}

Ptr<QueuePair>
Rnic::CreateQp(Ptr<ProtectionDomain> pd, Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq)
{
    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    qp->Setup(m_nextQpn++, m_memory, pd, sendCq, recvCq);
    m_qps.push_back(qp);
    for (Ptr<Object> part : {Ptr<Object>(qp), Ptr<Object>(qp->GetPipeline()), Ptr<Object>(qp->GetDdp()),
                             Ptr<Object>(qp->GetRdmap())})
    {
        ConfigurePart(part); // before QpCreated: its sinks (per-host settings) come on top
    }
    ChargeHost(qp);
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

/** Payload octets of a DDP segment: what the RNIC moves by DMA (headers stay on the adapter). */
uint64_t
PayloadOf(Ptr<const Packet> segment)
{
    const std::optional<DdpSegmentView> v = PeekDdpControl(segment);
    return v ? v->payloadLength : 0; // shorter than its header: nothing to move
}

void
OnPlaced(Ptr<HostModel> host, Ptr<const Packet> segment)
{
    host->RdmaReceive(PayloadOf(segment), MakeNullCallback<void>()); // DESIGN.md: one bus crossing
}

void
OnTxSegment(Ptr<HostModel> host, Ptr<const Packet> segment)
{
    host->RdmaSend(PayloadOf(segment), MakeNullCallback<void>());
}

} // namespace

void
Rnic::ChargeHost(Ptr<QueuePair> qp)
{
    Ptr<HostModel> host = m_node ? m_node->GetObject<HostModel>() : nullptr;
    if (!host)
    {
        return;
    }
    // The charge is counted and contends for the bus with the host's other traffic (a sockets
    // baseline on the same node); RDMA placement itself is not held back by it (doc/host-model.md).
    qp->GetDdp()->TraceConnectWithoutContext("Placed", MakeBoundCallback(&OnPlaced, host));
    qp->GetDdp()->TraceConnectWithoutContext("TxSegment", MakeBoundCallback(&OnTxSegment, host));
}

} // namespace ns3
