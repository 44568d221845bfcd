/*
 * SocketStream: the ordinary-sockets bandwidth baseline over ns-3's TCP, charged by the node's
 * HostModel when it has one (SocketHostPath), uncharged otherwise; connection set-up and the
 * Role / Remote / Port / Core / RxBacklog attributes are SocketApp's.
 *
 * The client connects to Remote and sends messages of Size octets, one send() at a time, until
 * TotalBytes (rounded up to whole messages) have been posted or Duration has passed since the
 * first post, then closes. Each message starts with a 16-octet stamp (message number, size,
 * post time in ns; big-endian), so the server needs no configuration and can measure
 *     latency(k) = time the last octet of message k reached the user - its post time,
 * which includes both hosts' costs: the sender's copy, protocol cycles and DMA before the data
 * enters TCP, and the receiver's DMA, protocol cycles and copy after TCP has it.
 *
 * Throughput (server) = delivered octets * 8 / (last delivery - first post).
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_STREAM_H
#define IWARP_SOCKET_STREAM_H

#include "apps/message-stamp.h"
#include "apps/socket-app.h"

#include "ns3/data-rate.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

class SocketStream : public SocketApp
{
  public:
    static TypeId GetTypeId();
    SocketStream();

    /** Octets of the per-message stamp (and so the smallest Size). */
    static constexpr uint32_t kStampSize = MessageStamp::kOctets;

    // Client
    uint64_t GetPostedMessages() const { return m_posted; }
    uint64_t GetPostedBytes() const { return m_postedBytes; }

    // Server (all connections together)
    uint64_t GetDeliveredBytes() const { return m_deliveredBytes; }
    uint64_t GetDeliveredMessages() const { return m_latencies.size(); }
    /** Latency of each delivered message, in delivery order. */
    const std::vector<Time>& GetLatencies() const { return m_latencies; }
    Time GetFirstPost() const { return m_firstPost; }
    Time GetLastDelivery() const { return m_lastDelivery; }
    /** Delivered octets * 8 / (last delivery - first post); zero before any delivery. */
    DataRate GetThroughput() const;

    /** (message number, octets): the client posted a message (called send()). */
    typedef void (*PostedTracedCallback)(uint64_t message, uint32_t size);
    /** (message number, octets, latency): the server's user has the whole message. */
    typedef void (*DeliveredTracedCallback)(uint64_t message, uint32_t size, Time latency);
    /** (message number): the message's first octets reached the server's user. */
    typedef void (*FirstOctetTracedCallback)(uint64_t message);
    /** (messages posted, octets posted): the client posts no more (TotalBytes or Duration reached). */
    typedef void (*PostingEndedTracedCallback)(uint64_t messages, uint64_t bytes);

  private:
    void StopApplication() override;
    void ClientConnected() override;
    void OnConnectFailed(Ptr<Socket> s) override;
    void ServerAccepted(Socket* key, Ptr<SocketHostPath> path) override;

    bool MorePosts() const;
    void PostMessages();

    /** Receive state of one accepted connection. */
    struct Conn
    {
        Ptr<SocketHostPath> path;
        StampedStreamReader reader;
    };
    void OnDeliver(Socket* key, Ptr<Packet> chunk);

    uint32_t m_size;
    uint64_t m_totalBytes;
    Time m_duration;

    std::map<Socket*, Conn> m_conns;
    bool m_closed{false};
    uint64_t m_posted{0};
    uint64_t m_postedBytes{0};
    Time m_start;

    uint64_t m_deliveredBytes{0};
    std::vector<Time> m_latencies;
    Time m_firstPost{Time::Max()};
    Time m_lastDelivery;

    TracedCallback<uint64_t, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, uint32_t, Time> m_deliveredTrace;
    TracedCallback<uint64_t> m_firstOctetTrace;
    TracedCallback<uint64_t, uint64_t> m_postingEndedTrace;
};

} // namespace ns3

#endif // IWARP_SOCKET_STREAM_H
