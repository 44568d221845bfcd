/*
 * Rnic: one RDMA NIC per node, aggregated to the Node (IwarpHelper installs it). It holds the
 * node's memory registry (protection domains, STags), creates completion queues and queue
 * pairs, and owns the connection manager. What it creates comes from three factories, set by
 * the QueuePairType, CompletionQueueType and TransportType attributes: each QP gets a fresh
 * transport of TransportType (ns3::IwarpTransport unless told otherwise).
 */
#ifndef IWARP_RNIC_H
#define IWARP_RNIC_H

#include "rnic/completion-queue.h"
#include "rnic/connection-manager.h"
#include "rnic/memory-registry.h"
#include "rnic/queue-pair.h"

#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class Rnic : public Object
{
  public:
    static TypeId GetTypeId();
    Rnic();

    Ptr<ProtectionDomain> AllocatePd() { return m_memory->AllocatePd(); }
    Ptr<MemoryRegion> RegisterMemory(Ptr<ProtectionDomain> pd, uint64_t length, uint8_t access,
                                     MemoryRegistry::Backing backing = MemoryRegistry::Backing::Real)
    {
        return m_memory->Register(pd, length, access, backing);
    }
    Ptr<CompletionQueue> CreateCq();
    /** A QP whose completions go to `sendCq` and `recvCq` (may be the same CQ). */
    Ptr<QueuePair> CreateQp(Ptr<ProtectionDomain> pd, Ptr<CompletionQueue> sendCq,
                            Ptr<CompletionQueue> recvCq);

    Ptr<MemoryRegistry> GetMemory() const { return m_memory; }
    Ptr<ConnectionManager> GetConnectionManager() const { return m_cm; }
    Ptr<Node> GetNode() const { return m_node; }
    const std::vector<Ptr<QueuePair>>& GetQps() const { return m_qps; }

    typedef void (*QpCreatedTracedCallback)(Ptr<QueuePair> qp);

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    /** With a HostModel on the node: the RNIC's DMA of each segment's payload crosses its memory bus. */
    void ChargeHost(Ptr<QueuePair> qp);

    void SetQpType(TypeId tid);
    TypeId GetQpType() const { return m_qpFactory.GetTypeId(); }
    void SetCqType(TypeId tid);
    TypeId GetCqType() const { return m_cqFactory.GetTypeId(); }
    void SetTransportType(TypeId tid);
    TypeId GetTransportType() const { return m_transportFactory.GetTypeId(); }

    ObjectFactory m_qpFactory;
    ObjectFactory m_cqFactory;
    ObjectFactory m_transportFactory;

    Ptr<Node> m_node;
    Ptr<MemoryRegistry> m_memory;
    Ptr<ConnectionManager> m_cm;
    std::vector<Ptr<QueuePair>> m_qps;
    uint32_t m_nextQpn{1};
    TracedCallback<Ptr<QueuePair>> m_qpCreatedTrace;
};

} // namespace ns3

#endif // IWARP_RNIC_H
