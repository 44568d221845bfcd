/*
 * RdmaTraffic: one host's end of a data-center load over RDMA (the scenario's `traffic` workload). Every host
 * of the load runs one; each listens on Port and, asked to (Submit), RDMA-Writes a message of any size up to
 * MaxMessage octets to the RdmaTraffic of another host.
 *
 * Connections are kept per host pair and reused, as RDMA applications keep their queue pairs: the first
 * message to a peer opens a connection to it (its MPA Request carries this end's buffer advertisement), the
 * messages submitted meanwhile wait here, in order, and are posted once the peer has accepted. A connection
 * carries data one way (from the end that opened it), so a pair that sends both ways has two. Each end
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

    /** Connections this end opened (one per peer it sent to). */
    std::size_t GetConnectionCount() const { return m_peers.size(); }

    /** (message number, peer, octets): a message was submitted (Posted) or completed with an error (Failed). */
    typedef void (*MessageTracedCallback)(uint64_t message, Ipv4Address peer, uint32_t octets);
    /** (message number, peer, octets, time from submission to the source's completion). */
    typedef void (*CompletedTracedCallback)(uint64_t message, Ipv4Address peer, uint32_t octets, Time latency);

  protected:
    void DoDispose() override;

  private:
    struct Message
    {
        uint64_t number;
        uint32_t octets;
        Time submitted;
    };

    /** This end's connection to one peer and the messages waiting for it. */
    struct Peer
    {
        Ipv4Address address;
        Ptr<QueuePair> qp;
        bool connected{false};
        bool failed{false};
        RdmaBufferAdvert remote;
        std::deque<Message> waiting; ///< submitted before the connection was up
    };

    void StartApplication() override;
    void StopApplication() override;

    void Connect(Peer& peer);
    void OnConnected(Ipv4Address peer, Ptr<QueuePair> qp, bool accepted, const std::vector<uint8_t>& pd);
    void OnRequest(Ptr<ConnectionRequest> req);
    void Post(Peer& peer, const Message& m);
    void Fail(Ipv4Address peer, const Message& m);
    void OnCompletion(Ipv4Address peer, const WorkCompletion& c);
    Ptr<QueuePair> MakeQp(Ipv4Address peer);

    uint16_t m_port;
    uint32_t m_maxMessage;

    bool m_running{false};
    Ptr<Rnic> m_rnic;
    Ptr<ProtectionDomain> m_pd;
    Ptr<MemoryRegion> m_region;
    std::map<uint32_t, Peer> m_peers; ///< by the peer's address (Ipv4Address::Get)
    std::vector<Ptr<QueuePair>> m_accepted;
    std::unordered_map<uint64_t, Message> m_posted; ///< work request id -> its message, until it completes
    uint64_t m_submitted{0};
    uint64_t m_nextWrId{1};

    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t, Time> m_completedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_failedTrace;
    TracedCallback<Ptr<QueuePair>> m_queuePairTrace;
};

} // namespace ns3

#endif // IWARP_RDMA_TRAFFIC_H
