/*
 * RdmaTraffic: one host's end of a data-center load over RDMA (the scenario's `traffic` workload). Every host
 * of the load runs one; each listens on Port and, asked to (Submit), RDMA-Writes (or, with Op Send, Sends) a
 * message of any size up to MaxMessage octets to the RdmaTraffic of another host. For Sends the accepting end
 * keeps ReceiveDepth receives of MaxMessage octets posted on each connection, one posted again as each
 * completes; a Send that finds none posted ends its connection with a Terminate (RDMAP's, reported by the
 * scenario), never silently.
 *
 * Connections are kept per host pair and reused, as RDMA applications keep their queue pairs: the first
 * message to a peer opens a connection to it (its MPA Request carries this end's buffer advertisement), the
 * messages submitted meanwhile wait here, in order, and are posted once the peer has accepted. A connection
 * carries data one way (from the end that opened it), so a pair that sends both ways has two. With
 * PerFlowConnection each message opens a connection of its own instead (its MPA Request's private data names
 * the message after the buffer advertisement, so the accepting end can tell whose it is: FlowQueuePair), the
 * connection is closed gracefully once its Write (or Send) has completed at this end, and the accepting end
 * closes its side when the peer's close reaches it. Each end
 * registers one buffer of MaxMessage octets, shared by all its connections: every Write lands at the start of
 * the peer's buffer (the load measures time, not contents: Virtual payload, no octets kept).
 *
 * A message is posted as soon as it can be: the RNIC's send queue and the LLP's buffer hold what the network
 * has not yet taken, so a message waits behind the earlier ones of its pair (head of line, as on one QP).
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_RDMA_TRAFFIC_H
#define IWARP_RDMA_TRAFFIC_H

#include "apps/rdma-ping-pong.h"

#include "ns3/ipv4-address.h"

#include <deque>
#include <map>
#include <unordered_map>

namespace ns3
{

class RdmaTraffic : public Application
{
  public:
    static TypeId GetTypeId();
    RdmaTraffic();

    /**
     * Write `octets` (1..MaxMessage) to the RdmaTraffic at `peer` (its Port), connecting first if this end has
     * no connection to it yet. Returns the message's number (this application's count of messages submitted).
     * A message that cannot go (too large, submitted before the start or after the stop, the connection
     * refused or lost) is reported by the Failed trace, never dropped silently.
     */
    uint64_t Submit(Ipv4Address peer, uint32_t octets);

    /** Connections this end opened (one per peer it sent to; with PerFlowConnection one per message). */
    uint64_t GetConnectionCount() const { return m_opened; }

    /** (message number, peer, octets): a message was submitted (Posted) or completed with an error (Failed). */
    typedef void (*MessageTracedCallback)(uint64_t message, Ipv4Address peer, uint32_t octets);
    /** (message number, peer, octets, time from submission to the source's completion). */
    typedef void (*CompletedTracedCallback)(uint64_t message, Ipv4Address peer, uint32_t octets, Time latency);
    /** (queue pair, the sending end's message number): a connection of one message (PerFlowConnection). */
    typedef void (*FlowQueuePairTracedCallback)(Ptr<QueuePair> qp, uint64_t message);

  protected:
    void DoDispose() override;

  private:
    struct Message
    {
        uint64_t number;
        uint32_t octets;
        Time submitted;
    };

    /** One connection this end opened (to a peer, or for one message) and the messages waiting for it. */
    struct Peer
    {
        Ipv4Address address;
        bool perFlow{false}; ///< closed once its one message has completed
        Ptr<QueuePair> qp;
        bool connected{false};
        bool failed{false};
        RdmaBufferAdvert remote;
        std::deque<Message> waiting; ///< submitted before the connection was up
    };

    void StartApplication() override;
    void StopApplication() override;

    /** Connect the entry `key` of m_peers; a per-flow one names its message `number` in its private data. */
    void Connect(uint64_t key, Peer& peer, uint64_t number);
    void OnConnected(uint64_t key, bool accepted, const std::vector<uint8_t>& pd);
    void OnRequest(Ptr<ConnectionRequest> req);
    void Post(Peer& peer, const Message& m);
    void Fail(Ipv4Address peer, const Message& m);
    void OnCompletion(uint64_t key, const WorkCompletion& c);
    /** A queue pair whose completions go to OnCompletion(key); `key` 0: an accepted one, which posts nothing. */
    Ptr<QueuePair> MakeQp(uint64_t key);
    /** Close the connection of one flow kept under `key`, its message sent (PerFlowConnection). */
    void ClosePerFlow(uint64_t key);
    /** An event of accepted queue pair `qp` of one flow: its peer closed it, so this end closes too. */
    void OnAcceptedEvent(Ptr<QueuePair> qp, const QpEventInfo& e);
    /** A receive completed on accepted queue pair `qp`: post its replacement (Op Send). */
    void OnAcceptedCompletion(Ptr<QueuePair> qp, const WorkCompletion& c);

    /** What a message is carried as. */
    enum Op
    {
        WRITE,
        SEND,
    };

    /** Post `count` receives of MaxMessage octets on accepted queue pair `qp` (Op Send). */
    void PostReceives(Ptr<QueuePair> qp, uint32_t count);

    uint16_t m_port;
    uint32_t m_maxMessage;
    bool m_perFlow{false};
    Op m_op{WRITE};
    uint32_t m_receiveDepth{1024};

    bool m_running{false};
    Ptr<Rnic> m_rnic;
    Ptr<ProtectionDomain> m_pd;
    Ptr<MemoryRegion> m_region;
    /** By the peer's address (Ipv4Address::Get) plus one, or (PerFlowConnection) by a count above them all. */
    std::map<uint64_t, Peer> m_peers;
    uint64_t m_nextPerFlowKey{uint64_t(1) << 33};
    uint64_t m_opened{0};
    std::vector<Ptr<QueuePair>> m_accepted;
    std::unordered_map<uint64_t, Message> m_posted; ///< work request id -> its message, until it completes
    uint64_t m_submitted{0};
    uint64_t m_nextWrId{1};

    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t, Time> m_completedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_failedTrace;
    TracedCallback<Ptr<QueuePair>> m_queuePairTrace;
    TracedCallback<Ptr<QueuePair>, uint64_t> m_flowQueuePairTrace;
};

} // namespace ns3

#endif // IWARP_RDMA_TRAFFIC_H
