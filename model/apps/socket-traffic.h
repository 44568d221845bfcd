/*
 * SocketTraffic: one host's end of a data-center load over ordinary sockets (the scenario's `sockets-traffic`
 * workload), the baseline of RdmaTraffic. Every host of the load runs one; each listens on Port and, asked to
 * (Submit), sends a message of any size to the SocketTraffic of another host over TCP, charged by the node's
 * HostModel when it has one (SocketHostPath), uncharged otherwise.
 *
 * Connections are kept per host pair and reused, as RdmaTraffic keeps its queue pairs: the first message to a
 * peer opens a TCP connection to it, the messages submitted meanwhile wait here, in order, and go to the socket
 * once it is up; a connection carries data one way (from the end that opened it). With PerFlowConnection each
 * message opens a connection of its own instead, closed once the message is in the socket.
 *
 * Each message is the flow's octets behind a 16-octet stamp (MessageStamp: number, size, post time), the
 * application framing any message protocol over a byte stream needs; the receiver cuts the stream back into
 * messages and reports each one whole at its user (Delivered), so its FCT is taken at the receiver.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_TRAFFIC_H
#define IWARP_SOCKET_TRAFFIC_H

#include "apps/message-stamp.h"
#include "apps/socket-app.h"

#include "ns3/ipv4-address.h"

#include <deque>
#include <map>

namespace ns3
{

class SocketTraffic : public SocketApp
{
  public:
    static TypeId GetTypeId();
    SocketTraffic();

    /**
     * Send `octets` (1 .. 2^32 - 1 - the stamp) to the SocketTraffic at `peer` (its Port), connecting first if
     * need be. Returns the message's number (this application's count of messages submitted). A message that
     * cannot go (too large, submitted while not running, its connection refused) is reported by the Failed
     * trace, never dropped silently.
     */
    uint64_t Submit(Ipv4Address peer, uint32_t octets);

    /** Connections this end opened. */
    uint64_t GetConnectionCount() const { return m_opened; }

    /** (message number, peer, octets): a message was submitted (Posted) or cannot be delivered (Failed). */
    typedef void (*MessageTracedCallback)(uint64_t message, Ipv4Address peer, uint32_t octets);
    /** (the sender's message number, the sender, octets, time from its submission to its delivery here). */
    typedef void (*DeliveredTracedCallback)(uint64_t message, Ipv4Address from, uint32_t octets, Time fct);
    /** (the sender's message number, the sender): the message's first octets reached this end's user. */
    typedef void (*FirstOctetTracedCallback)(uint64_t message, Ipv4Address from);

  private:
    struct Message
    {
        uint32_t number;
        uint32_t octets;
        Time submitted;
    };

    /** One connection this end opened and the messages waiting for it. */
    struct Outbound
    {
        Ipv4Address peer;
        Ptr<Socket> socket;
        Ptr<SocketHostPath> path;
        bool connected{false};
        bool failed{false};
        bool perFlow{false}; ///< closed once its one message is in the socket
        std::deque<Message> waiting; ///< submitted before the connection was up
    };

    void StopApplication() override;
    void DoDispose() override;
    void ClientConnected() override {} // this end opens its connections itself (Open)
    void OnConnectFailed(Ptr<Socket>) override {}
    void ServerAccepted(Socket* key, Ptr<SocketHostPath> path) override;

    /** A new connection to `peer`, kept under `key` in m_outbound. */
    Outbound& Open(Ipv4Address peer, uint64_t key, bool perFlow);
    void OnConnected(uint64_t key, bool ok);
    void Send(Outbound& o, const Message& m);
    void CloseWhenSent(uint64_t key);
    void Fail(Ipv4Address peer, const Message& m);
    void OnDeliver(Socket* key, Ptr<Packet> chunk);

    bool m_perFlow{false};

    std::map<uint64_t, Outbound> m_outbound; ///< by the peer's address, or (PerFlowConnection) by a count
    uint64_t m_nextPerFlowKey{uint64_t(1) << 32}; ///< above every address: the two kinds of key never meet
    uint64_t m_opened{0};
    struct Inbound
    {
        Ipv4Address from;
        StampedStreamReader reader;
    };
    std::map<Socket*, Inbound> m_inbound;
    uint64_t m_submitted{0};

    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t, Time> m_deliveredTrace;
    TracedCallback<uint64_t, Ipv4Address> m_firstOctetTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_failedTrace;
};

} // namespace ns3

#endif // IWARP_SOCKET_TRAFFIC_H
