/*
 * QueuePair: the verbs-level endpoint of one RDMA stream. Work requests name local memory by
 * (local STag, TO, length) in the RNIC's registry; the QP checks it, hands RDMAP a payload
 * source that reads it at transmit time (so a buffer deregistered meanwhile is a local error,
 * RDMAP-083), and puts completions on its completion queues.
 *
 *   app -> QueuePair::PostSend -> RdmapEndpoint -> DdpEndpoint -> RnicPipeline -> LLP
 */
#ifndef IWARP_QUEUE_PAIR_H
#define IWARP_QUEUE_PAIR_H

#include "ddp/ddp-endpoint.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/completion-queue.h"
#include "rnic/memory-registry.h"
#include "rnic/rnic-pipeline.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{

/** One contiguous piece of local registered memory. */
struct LocalBuffer
{
    uint32_t stag{0}; ///< the local STag (lkey)
    uint64_t to{0};   ///< tagged offset inside its region
    uint32_t length{0};
};

/** A send-queue work request in verbs terms. */
struct SendWr
{
    uint64_t id{0};
    RdmapWrType type{RdmapWrType::Send};
    LocalBuffer local;      ///< Send/Write source; Read sink
    uint32_t remoteStag{0}; ///< Write sink; Read source
    uint64_t remoteTo{0};
    uint32_t invalidateStag{0};
};

class QueuePair : public Object
{
  public:
    static TypeId GetTypeId();
    QueuePair();

    enum State
    {
        CREATED,
        CONNECTING,
        CONNECTED,
        ERROR,
        CLOSED,
    };

    /** Set by Rnic::CreateQp. */
    void Setup(uint32_t qpn, Ptr<MemoryRegistry> memory, Ptr<ProtectionDomain> pd,
               Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq);
    /** Put the QP on an LLP stream (done by the connection manager). */
    void Bind(Ptr<DdpLowerLayer> llp);

    /** Returns false (and completes nothing) when the request cannot be accepted. */
    bool PostSend(const SendWr& wr);
    bool PostRecv(uint64_t id, const LocalBuffer& buffer);
    void Disconnect(bool graceful = true);

    uint32_t GetQpn() const { return m_qpn; }
    State GetState() const { return m_state; }
    Ptr<RdmapEndpoint> GetRdmap() const { return m_rdmap; }
    Ptr<DdpEndpoint> GetDdp() const { return m_ddp; }
    Ptr<DdpLowerLayer> GetLlp() const { return m_pipeline->GetInner(); }
    Ptr<RnicPipeline> GetPipeline() const { return m_pipeline; }
    Ptr<ProtectionDomain> GetPd() const { return m_pd; }

    typedef void (*EventTracedCallback)(const RdmapEventInfo& e);

  protected:
    void DoDispose() override;

  private:
    void OnCompletion(const RdmapCompletion& c);
    void OnEvent(const RdmapEventInfo& e);

    uint32_t m_qpn{0};
    Ptr<MemoryRegistry> m_memory;
    Ptr<ProtectionDomain> m_pd;
    Ptr<CompletionQueue> m_sendCq;
    Ptr<CompletionQueue> m_recvCq;
    Ptr<RnicPipeline> m_pipeline;
    Ptr<DdpEndpoint> m_ddp;
    Ptr<RdmapEndpoint> m_rdmap;
    TracedValue<State> m_state;
    TracedCallback<const RdmapEventInfo&> m_eventTrace;
};

} // namespace ns3

#endif // IWARP_QUEUE_PAIR_H
