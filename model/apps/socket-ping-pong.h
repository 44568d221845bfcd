/*
 * SocketPingPong: the ordinary-sockets latency baseline over ns-3's TCP, charged by the node's
 * HostModel when it has one (SocketHostPath), uncharged otherwise; connection set-up and the
 * Role / Remote / Port / Core / RxBacklog attributes are SocketApp's.
 *
 * The client connects to Remote and runs Count iterations: it sends Size octets; the server,
 * once its user has the whole message (after its host's receive processing), sends Size octets
 * back; the iteration ends when the client's user has all of them. Each iteration gives one
 * half round trip, (end - start) / 2, where start is the client's send() call. Both ends must
 * be configured with the same Size.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_PING_PONG_H
#define IWARP_SOCKET_PING_PONG_H

#include "apps/socket-app.h"

#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

class SocketPingPong : public SocketApp
{
  public:
    static TypeId GetTypeId();
    SocketPingPong();

    /** Half round-trip samples, one per completed iteration (client). */
    const std::vector<Time>& GetHalfRtts() const { return m_halfRtts; }
    uint32_t GetIterationsDone() const { return uint32_t(m_halfRtts.size()); }
    /** Whole messages the server's user received (server). */
    uint32_t GetMessagesReceived() const { return m_received; }

    /** (iteration, octets): the client sent a message. */
    typedef void (*PostedTracedCallback)(uint32_t iteration, uint32_t size);
    /** (iteration, octets, half round trip): an iteration completed at the client. */
    typedef void (*CompletedTracedCallback)(uint32_t iteration, uint32_t size, Time halfRtt);
    /** (message, octets): the server's user has a whole message. */
    typedef void (*DeliveredTracedCallback)(uint32_t message, uint32_t size);

  private:
    void StopApplication() override;
    void ClientConnected() override;
    void OnConnectFailed(Ptr<Socket> s) override;
    void ServerAccepted(Socket* key, Ptr<SocketHostPath> path) override;

    void StartIteration();
    void OnClientDeliver(Ptr<Packet> chunk);
    void OnServerDeliver(Socket* key, Ptr<Packet> chunk);

    uint32_t m_size;
    uint32_t m_count;

    /** Server: per accepted connection, its path and octets of the current message. */
    std::map<Socket*, std::pair<Ptr<SocketHostPath>, uint64_t>> m_conns;
    uint64_t m_rxBytes{0};
    Time m_iterStart;
    uint32_t m_received{0};
    std::vector<Time> m_halfRtts;

    TracedCallback<uint32_t, uint32_t> m_postedTrace;
    TracedCallback<uint32_t, uint32_t, Time> m_completedTrace;
    TracedCallback<uint32_t, uint32_t> m_deliveredTrace;
};

} // namespace ns3

#endif // IWARP_SOCKET_PING_PONG_H
