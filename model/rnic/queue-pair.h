/*
 * QueuePair: the verbs-level endpoint of one RDMA stream. It keeps the verbs state (created,
 * connecting, connected, error, closed), refuses work in states that take none, and puts
 * completions on its completion queues. The protocol that carries the work is an RdmaTransport
 * (IwarpTransport by default, chosen by the Rnic's TransportType factory): the QP crosses that
 * seam once per work request and once per completion.
 *
 *   app -> QueuePair::PostSend -> RdmaTransport (IwarpTransport: RDMAP -> DDP -> pipeline -> LLP)
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_QUEUE_PAIR_H
#define IWARP_QUEUE_PAIR_H

#include "common/verbs-types.h"
#include "rnic/completion-queue.h"
#include "rnic/memory-registry.h"
#include "rnic/rdma-transport.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{

class QueuePair : public Object, private RdmaTransport::Owner
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

    /** Set by Rnic::CreateQp: the QP's number, memory, PD, CQs and the transport it runs over. */
    void Setup(uint32_t qpn, Ptr<MemoryRegistry> memory, Ptr<ProtectionDomain> pd,
               Ptr<CompletionQueue> sendCq, Ptr<CompletionQueue> recvCq, Ptr<RdmaTransport> transport);
    /**
     * Put the QP on its connection (done by the connection manager): an LLP stream for the
     * iWARP transport; see RdmaTransport::Bind.
     */
    void Bind(Ptr<Object> lower);

    /** Returns false (and completes nothing) when the request cannot be accepted. */
    bool PostSend(const SendWr& wr);
    bool PostRecv(uint64_t id, const LocalBuffer& buffer);
    void Disconnect(bool graceful = true);

    uint32_t GetQpn() const { return m_qpn; }
    State GetState() const { return m_state; }
    Ptr<ProtectionDomain> GetPd() const { return m_pd; }
    Ptr<RdmaTransport> GetTransport() const { return m_transport; }

    typedef void (*EventTracedCallback)(const QpEventInfo& e);
    typedef void (*CompletionTracedCallback)(const WorkCompletion& c);
    /** (work request id, true for the receive queue). */
    typedef void (*PostTracedCallback)(uint64_t id, bool receive);

  protected:
    void DoDispose() override;

  private:
    // RdmaTransport::Owner
    void OnTransportCompletion(const WorkCompletion& c) override;
    void OnTransportEvent(const QpEventInfo& e) override;
    bool TakesWork() const { return m_state != ERROR && m_state != CLOSED && m_state != CREATED; }

    uint32_t m_qpn{0};
    Ptr<ProtectionDomain> m_pd;
    Ptr<CompletionQueue> m_sendCq;
    Ptr<CompletionQueue> m_recvCq;
    Ptr<RdmaTransport> m_transport;
    TracedValue<State> m_state;
    TracedCallback<const QpEventInfo&> m_eventTrace;
    TracedCallback<const WorkCompletion&> m_completionTrace;
    TracedCallback<uint64_t, bool> m_postTrace;
};

} // namespace ns3

#endif // IWARP_QUEUE_PAIR_H
