/*
 * Rnic: one RDMA NIC per node, aggregated to the Node (IwarpHelper installs it). It holds the
 * node's memory registry (protection domains, STags), creates completion queues and queue
 * pairs, and owns the connection manager. Its queue pairs and completion queues come from two
 * factories, set by the QueuePairType and CompletionQueueType attributes; each QP gets a fresh
 * transport of the kind its connection manager's LlpConnector pairs with (rdma-transport-kinds.h:
 * ns3::IwarpTransport for MPA/TCP and SCTP), shown read-only as TransportType.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_RNIC_H
#define IWARP_RNIC_H

#include "rnic/completion-queue.h"
#include "rnic/connection-manager.h"
#include "rnic/memory-registry.h"
#include "rnic/queue-pair.h"

#include "common/attribute-set.h"

#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>

namespace ns3
{

class HostModel;

class Rnic : public Object
{
  public:
    static TypeId GetTypeId();
    Rnic();

    Ptr<ProtectionDomain> AllocatePd() { return m_memory->AllocatePd(); }
    /** Register `length` octets; with a HostModel on the node its cycles are charged (HostModel::RdmaRegister). */
    Ptr<MemoryRegion> RegisterMemory(Ptr<ProtectionDomain> pd, uint64_t length, uint8_t access,
                                     MemoryRegistry::Backing backing = MemoryRegistry::Backing::Real);
    /**
     * A completion queue. With a HostModel on the node it belongs to one core (given round-robin, as a
     * thread per connection): the verbs work of the QPs whose send queue completes on it runs there.
     */
    Ptr<CompletionQueue> CreateCq();
    /** A QP whose completions go to `sendCq` and `recvCq` (may be the same CQ). */
    Ptr<QueuePair> CreateQp(Ptr<ProtectionDomain> pd, Ptr<CompletionQueue> sendCq,
                            Ptr<CompletionQueue> recvCq);

    Ptr<MemoryRegistry> GetMemory() const { return m_memory; }
    Ptr<ConnectionManager> GetConnectionManager() const { return m_cm; }
    Ptr<Node> GetNode() const { return m_node; }
    const std::vector<Ptr<QueuePair>>& GetQps() const { return m_qps; }

    typedef void (*QpCreatedTracedCallback)(Ptr<QueuePair> qp);

    // ---- Attributes of the parts this RNIC makes (IwarpHelper passes them down) ----
    /**
     * Attribute `name` of `part` (ns3::RnicPipeline, ns3::DdpEndpoint, ns3::RdmapEndpoint,
     * ns3::QueuePair, ns3::CompletionQueue, ns3::MpaConnection, ns3::SctpDdpAssociation,
     * ns3::SctpDdpConnection, ns3::ConnectionManager, ns3::MemoryRegistry or a parent type) for every such part of this
     * RNIC: those it makes later get it as they are made, the connection manager and memory
     * registry at once.  Per RNIC, never a process-wide default.
     */
    void SetPartAttribute(TypeId part, const std::string& name, const AttributeValue& value);
    /** SetPartAttribute for each setting of `parts`, in order. */
    void SetPartAttributes(const AttributeSet& parts);
    /** Give a part just made the part settings of its type (the connection manager calls it too). */
    void ConfigurePart(Ptr<Object> part) const;

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    /** The node's HostModel, or null. */
    Ptr<HostModel> GetHost() const;
    /**
     * With a HostModel on the node: the RNIC's DMA of each segment's payload crosses its memory bus, and
     * each work request posted and completion reaped costs cycles on the core of the CQ it completes on.
     */
    void ChargeHost(Ptr<QueuePair> qp, Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq);
    /** The core `cq`'s verbs work runs on (one given now to a CQ this RNIC did not make). */
    int32_t CoreOf(Ptr<CompletionQueue> cq, Ptr<HostModel> host);

    [[nodiscard]] bool SetQpType(TypeId tid);
    TypeId GetQpType() const { return m_qpFactory.GetTypeId(); }
    [[nodiscard]] bool SetCqType(TypeId tid);
    TypeId GetCqType() const { return m_cqFactory.GetTypeId(); }
    /** The transport new queue pairs run over: the one the connection manager's connector pairs with. */
    TypeId GetTransportType() const;

    ObjectFactory m_qpFactory;
    ObjectFactory m_cqFactory;

    Ptr<Node> m_node;
    Ptr<MemoryRegistry> m_memory;
    Ptr<ConnectionManager> m_cm;
    std::vector<Ptr<QueuePair>> m_qps;
    std::map<Ptr<CompletionQueue>, uint32_t> m_cqCores; ///< the core each CQ's verbs work runs on (with a host)
    uint32_t m_nextQpn{1};
    TracedCallback<Ptr<QueuePair>> m_qpCreatedTrace;
    AttributeSet m_partAttributes;
};

} // namespace ns3

#endif // IWARP_RNIC_H
