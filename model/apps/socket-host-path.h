/*
 * SocketHostPath: one connected TCP socket's data path through the node's HostModel, shared by
 * the sockets baseline applications (SocketStream, SocketPingPong).
 *
 * Receive: whatever ns-3's TCP has reassembled is taken from the socket at once and charged as
 * HostModel::SocketReceive(bytes, ceil(bytes / SegmentSize)); it reaches the user (the deliver
 * callback) only when that has completed, in stream order even when chunks finish on different
 * cores out of order.
 * Send: messages are charged one at a time (one user thread in send()) as
 * HostModel::SocketSend(bytes, ceil(bytes / SegmentSize)) and handed to the socket when done,
 * as far as its send buffer takes them; the rest waits for the socket's send callback.
 *
 * Without a HostModel (null) both directions pass straight through, so the same application
 * gives the uncharged baseline.
 *
 * Flow control: with SetRxLimit(L), at most L octets are taken from the socket and held in
 * host receive processing; the rest stays in TCP's receive buffer, whose free space is the
 * window TCP advertises, so a receiver that cannot keep up slows the sender down as a kernel's
 * full socket buffer would. Without a limit a slow receiver only delays delivery.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_HOST_PATH_H
#define IWARP_SOCKET_HOST_PATH_H

#include "host/host-model.h"

#include "ns3/callback.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"

#include <deque>

namespace ns3
{

/** Which end of the connection a socket application is. */
enum SocketAppRole
{
    SOCKET_ROLE_CLIENT,
    SOCKET_ROLE_SERVER,
};

class SocketHostPath : public SimpleRefCount<SocketHostPath>
{
  public:
    /**
     * `host` may be null (uncharged). `core`: a core index, or HostModel::kAnyCore for one
     * chosen by HostModel::AssignFlowCore (connections spread round-robin, each on one core).
     */
    SocketHostPath(Ptr<Socket> socket, Ptr<HostModel> host, int32_t core);

    /** In-order octets that reached the user buffer. */
    void SetDeliverCallback(Callback<void, Ptr<Packet>> cb) { m_deliver = cb; }
    /** Everything given to SendMessage is in the socket: the user may send again. */
    void SetSendIdleCallback(Callback<void> cb) { m_idle = cb; }

    /** Queue a message for host send processing, then the socket. */
    void SendMessage(Ptr<Packet> message);
    /** Nothing in host send processing nor waiting for socket buffer space. */
    bool IsSendIdle() const { return m_txCharging.empty() && m_txReady.empty(); }
    /** At most `octets` in host receive processing at once (0: no limit, the default). */
    void SetRxLimit(uint32_t octets) { m_rxLimit = octets; }
    /** Octets taken from the socket and not yet delivered to the user. */
    uint64_t GetRxBacklog() const { return m_rxBacklog; }
    /** Packets counted for a chunk of `bytes` (ceil(bytes / SegmentSize), at least 1). */
    uint32_t Packets(uint64_t bytes) const;

    Ptr<Socket> GetSocket() const { return m_socket; }
    /** Drop the socket's and the user's callbacks (before the application goes away). */
    void Detach();

  private:
    void OnRecv(Ptr<Socket> s);
    void OnSendSpace(Ptr<Socket> s, uint32_t available);
    void RxDone(uint64_t chunk);
    void StartCharging();
    void TxCharged();
    void Flush();

    struct RxChunk
    {
        Ptr<Packet> data;
        bool done{false};
    };

    Ptr<Socket> m_socket;
    Ptr<HostModel> m_host;
    int32_t m_core;
    uint32_t m_segmentSize{1448};
    Callback<void, Ptr<Packet>> m_deliver;
    Callback<void> m_idle;

    std::deque<RxChunk> m_rx;   ///< chunks in host receive processing, stream order
    uint64_t m_rxFirst{0};      ///< chunk number of m_rx.front()
    uint64_t m_rxBacklog{0};
    uint32_t m_rxLimit{0};
    bool m_windowClosing{false}; ///< data left in TCP's buffer since the last window update
    std::deque<Ptr<Packet>> m_txCharging; ///< front is being charged, the rest wait for it
    bool m_charging{false};
    bool m_inSend{false};
    std::deque<Ptr<Packet>> m_txReady;    ///< charged, waiting for socket buffer space
};

} // namespace ns3

#endif // IWARP_SOCKET_HOST_PATH_H
