/*
 * SocketHostPath: one connected TCP socket's data path through the node's HostModel, shared by
 * the sockets baseline applications (SocketStream, SocketPingPong).
 *
 * Receive: what ns-3's TCP has reassembled moves at once into the socket buffer (nothing charged),
 * and the application reads it one read at a time, as a recv() loop: a read copies up to ReadSize
 * octets, is charged as HostModel::SocketReceive(bytes, packets), `packets` the data segments that
 * arrived (TcpArrivals) whose last octet the read takes (without TcpArrivals, ceil(bytes /
 * SegmentSize)), and reaches the
 * user (the deliver callback) when that has completed; then the next read. A read is taken when the
 * connection's core is free, of what the buffer holds then, so connections waiting for one core take
 * turns a read each and a short flow waits for at most one read of each other flow on its core. Data
 * waiting in the buffer has cost nothing yet: at any instant the host has charged at most one read
 * that is not delivered. A segment of data already received (a retransmission of data that had
 * arrived, or a late original) costs its DMA and one packet's protocol cycles as it arrives
 * (HostModel::SocketDuplicate, seen through TcpArrivals), so loss and reordering make a host dearer,
 * never cheaper.
 * Interrupt coalescing (HostModel::InterruptDelay, InterruptFrames): data reaching a connection with no
 * read in processing or waiting is read no earlier than its interrupt; data arriving while one is, is
 * polled by the reads that follow. DDIO: each arrived segment is marked with the host's count of octets
 * the NIC has written (HostModel::NoteNicWrite), and a read passes on those still in the cache. The
 * receive stack runs on the connection's stack core (HostModel::StackCore: its own with aRFS, its
 * RSS queue's without), the copy on its application's core.
 * Flow control (SetRxLimit, off by default): the socket buffer and the read in processing hold at
 * most that many octets; the rest stays in TCP's buffer, whose free space is the window TCP
 * advertises, so a receiver host that cannot keep up slows the sender down.
 * Send: messages are charged one at a time (one user thread in send()), each in chunks of up to
 * kSendChunk octets (a zero-copy send whole), each chunk as HostModel::SocketSend(bytes,
 * SendPackets(bytes)) and handed to the socket when done, as far as its send buffer takes it (the rest
 * waits for the socket's send callback): a large message's copy overlaps its transmission, as Linux's
 * tcp_sendmsg copies into 64 KiB buffers and pushes each.
 *
 * Without a HostModel (null) both directions pass straight through, so the same application
 * gives the uncharged baseline.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_HOST_PATH_H
#define IWARP_SOCKET_HOST_PATH_H

#include "host/host-model.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-base.h"

#include <algorithm>
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
     * `host` may be null (uncharged). `core`: the application's core, or HostModel::kAnyCore for one
     * chosen by HostModel::AssignFlowCore (connections spread round-robin); its receive stack runs
     * on HostModel::StackCore's.
     */
    SocketHostPath(Ptr<Socket> socket, Ptr<HostModel> host, int32_t core);

    /** In-order octets that reached the user buffer. */
    void SetDeliverCallback(Callback<void, Ptr<Packet>> cb) { m_deliver = cb; }
    /** Everything given to SendMessage is in the socket: the user may send again. */
    void SetSendIdleCallback(Callback<void> cb) { m_idle = cb; }

    /** The most octets of a message charged and handed to the socket at once (Linux's 64 KiB skb with GSO). */
    static constexpr uint32_t kSendChunk = 65536;

    /** Queue a message for host send processing, then the socket. */
    void SendMessage(Ptr<Packet> message);
    /** Nothing in host send processing nor waiting for socket buffer space. */
    bool IsSendIdle() const { return m_txCharging.empty() && m_txReady.empty(); }
    /**
     * At most `octets` in the socket buffer and the read in processing together; the rest stays in
     * TCP's buffer, whose window closes (0: no bound, the default).
     */
    void SetRxLimit(uint32_t octets) { m_rxLimit = octets; }
    /** Sends without the copy into the kernel (HostModel::SocketSend's zero-copy). */
    void SetZeroCopySend(bool on) { m_zeroCopySend = on; }
    /** Octets one read copies at most (at least 1). */
    void SetReadSize(uint32_t octets) { m_readSize = std::max<uint32_t>(1, octets); }
    /** Octets taken from TCP and not yet delivered to the user: the socket buffer and the read. */
    uint64_t GetRxBacklog() const { return m_rxQueued + (m_rxChunk ? m_rxChunk->GetSize() : 0); }
    /** Packets counted for a chunk of `bytes` (ceil(bytes / SegmentSize), at least 1). */
    uint32_t Packets(uint64_t bytes) const;

    Ptr<Socket> GetSocket() const { return m_socket; }
    /** Drop the socket's and the user's callbacks (before the application goes away). */
    void Detach();

  private:
    void OnRecv(Ptr<Socket> s);
    /** A data segment of the connection reached the node (TcpArrivals), before TCP has it. */
    void OnSegment(SequenceNumber32 seq, uint32_t octets);
    void OnSendSpace(Ptr<Socket> s, uint32_t available);
    /** Move what TCP has reassembled into the socket buffer, up to RxBacklog. */
    void Pull();
    /** Start the next read unless one is in processing or waiting (the socket buffer holds data). */
    void StartRead();
    /** Take the next read once the connection's core is free (ReadWhenCoreFree). */
    void WaitForCore();
    void ReadWhenCoreFree(uint64_t generation);
    /** What a read is charged for: protocol packets (aggregates) and octets still in the cache. */
    struct ReadCost
    {
        uint32_t packets;
        uint64_t cached;
    };
    /** The cost of a read of `octets`, the next in the stream. */
    ReadCost CostOfRead(uint32_t octets);
    /** New data reached the connection: start or advance its receive interrupt (coalescing). */
    void NoteArrival();
    void RxDone();
    /** Octets free in TCP's receive buffer: what its window can advertise. */
    uint32_t FreeReceiveSpace() const;
    /** Reading waits: note whether TCP's receive window has closed (less than a segment free). */
    void NoteWindow();
    /** Send a window update if reading has reopened half of a closed receive window. */
    void AnnounceWindow();
    void StartCharging();
    void TxCharged();
    void Flush();

    Ptr<Socket> m_socket;
    Ptr<TcpSocketBase> m_tcp; ///< m_socket as TCP (null for another socket), found once
    Ptr<HostModel> m_host;
    int32_t m_core;      ///< the application's core: its reads' copies (and its sends)
    int32_t m_stackCore; ///< the core of its receive stack: m_core with aRFS, else its RSS queue's
    uint32_t m_segmentSize{1448};
    Callback<void, Ptr<Packet>> m_deliver;
    Callback<void> m_idle;

    std::deque<Ptr<Packet>> m_rxQueue; ///< the socket buffer: data TCP delivered, not yet read
    uint64_t m_rxQueued{0};            ///< octets in m_rxQueue
    uint64_t m_rxOctetsRead{0};        ///< octets of every read so far
    SequenceNumber32 m_rxStreamStart;  ///< TCP's sequence number of the stream's first octet
    /** A new-data segment that arrived and is not yet read. */
    struct ArrivedSegment
    {
        SequenceNumber32 end; ///< TCP sequence number after its last octet
        uint32_t octets;
        uint64_t nicMark;     ///< HostModel::NoteNicWrite's count after its DMA (DDIO)
    };
    std::deque<ArrivedSegment> m_segmentEnds; ///< in stream order
    uint32_t m_readSize{65536};        ///< octets one read copies at most
    bool m_zeroCopySend{false};
    Ptr<Packet> m_rxChunk;      ///< the read in host receive processing, if any
    bool m_readWaiting{false};  ///< a read waits for the connection's core (or its interrupt)
    uint64_t m_readGeneration{0}; ///< of the last scheduled ReadWhenCoreFree: older ones are stale
    bool m_interruptPending{false}; ///< data reached the idle connection, its interrupt not yet taken
    Time m_interruptAt;             ///< when that interrupt fires (coalescing)
    uint32_t m_interruptFrames{0};  ///< packets since that data
    bool m_watchesArrivals{false}; ///< a charged TCP connection: its duplicates are charged (TcpArrivals)
    uint32_t m_rxLimit{0};
    bool m_windowClosed{false}; ///< TCP's receive window closed since the last window update
    std::deque<Ptr<Packet>> m_txCharging; ///< front is being charged, the rest wait for it
    bool m_charging{false};
    bool m_inSend{false};
    std::deque<Ptr<Packet>> m_txReady;    ///< charged, waiting for socket buffer space
};

} // namespace ns3

#endif // IWARP_SOCKET_HOST_PATH_H
