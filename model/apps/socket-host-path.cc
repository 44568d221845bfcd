#include "apps/socket-host-path.h"

#include "apps/tcp-arrivals.h"
#include "net/ipv4-ecmp-routing.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketHostPath");

namespace
{
/**
 * ns-3's TCP does not announce a window that reopens because the application read from a
 * full receive buffer; the sender then waits for its persist timer (seconds). A kernel sends
 * that window update (RFC 1122 4.2.3.3), and the host model's reads are what keep the buffer
 * full, so SocketHostPath sends it. TcpSocketBase's ACK sender is protected: it is
 * reached through a pointer to member formed inside a derived class, which the language
 * allows; no object of the derived class exists.
 */
struct TcpWindowUpdate : public TcpSocketBase
{
    static void Send(TcpSocketBase* socket)
    {
        void (TcpSocketBase::*sendEmpty)(uint8_t) = &TcpWindowUpdate::SendEmptyPacket;
        (socket->*sendEmpty)(TcpHeader::ACK);
    }
};

/** RSS's hash of a TCP connection, the 5-tuple hash ECMP uses (0 before it is connected both ways). */
uint32_t
FlowHash(Ptr<Socket> socket)
{
    Address local;
    Address peer;
    if (socket->GetSockName(local) != 0 || socket->GetPeerName(peer) != 0 ||
        !InetSocketAddress::IsMatchingType(local) || !InetSocketAddress::IsMatchingType(peer))
    {
        return 0;
    }
    const InetSocketAddress l = InetSocketAddress::ConvertFrom(local);
    const InetSocketAddress p = InetSocketAddress::ConvertFrom(peer);
    return uint32_t(
        Ipv4EcmpRouting::TupleHash(p.GetIpv4(), l.GetIpv4(), TcpL4Protocol::PROT_NUMBER, p.GetPort(), l.GetPort()));
}
} // namespace

SocketHostPath::SocketHostPath(Ptr<Socket> socket, Ptr<HostModel> host, int32_t core)
    : m_socket(socket),
      m_host(host),
      m_core(core)
{
    if (m_host && m_core == HostModel::kAnyCore)
    {
        m_core = int32_t(m_host->AssignFlowCore()); // the application's thread, one core
    }
    m_stackCore = m_host ? int32_t(m_host->StackCore(uint32_t(m_core), FlowHash(socket))) : m_core; // RSS, aRFS
    UintegerValue seg;
    if (socket->GetAttributeFailSafe("SegmentSize", seg) && seg.Get() > 0)
    {
        m_segmentSize = uint32_t(seg.Get());
    }
    socket->SetRecvCallback(MakeCallback(&SocketHostPath::OnRecv, this));
    socket->SetSendCallback(MakeCallback(&SocketHostPath::OnSendSpace, this));
    m_tcp = DynamicCast<TcpSocketBase>(socket);
    if (m_host && m_tcp)
    {
        m_watchesArrivals =
            TcpArrivals::Of(socket->GetNode())->Watch(socket, MakeCallback(&SocketHostPath::OnSegment, this));
        m_rxStreamStart = m_tcp->GetRxBuffer()->NextRxSequence(); // the first octet a read will take
    }
}

void
SocketHostPath::OnSegment(SequenceNumber32 seq, uint32_t octets)
{
    // A segment wholly below what TCP has already received in order is a duplicate (a retransmission
    // of data that had arrived, or a late original): the stack processes it and drops it. New data,
    // in order or not, is charged with the read that takes it.
    const uint64_t mark = m_host->NoteNicWrite(octets);
    if (seq + octets <= m_tcp->GetRxBuffer()->NextRxSequence())
    {
        m_host->SocketDuplicate(octets, Callback<void>(), m_stackCore);
        return;
    }
    NoteArrival();
    // Kept in stream order (out-of-order arrivals are few and near the back).
    const SequenceNumber32 end = seq + octets;
    auto it = m_segmentEnds.end();
    while (it != m_segmentEnds.begin() && end < std::prev(it)->end)
    {
        --it;
    }
    m_segmentEnds.insert(it, ArrivedSegment{end, octets, mark});
}

void
SocketHostPath::NoteArrival()
{
    // Interrupt coalescing: data reaching an idle connection is seen when the NIC's interrupt fires,
    // InterruptDelay after the first packet or at the InterruptFrames-th; data arriving while a read
    // is in processing or waiting for the core is polled by it (NAPI), no interrupt needed.
    const Time delay = m_host->GetInterruptDelay();
    const Time now = Simulator::Now();
    const bool fired = m_interruptPending && m_interruptAt <= now;
    if (delay.IsZero() || m_rxChunk || (m_readWaiting && (!m_interruptPending || fired)))
    {
        return; // no coalescing, or a read in processing or about to run polls this data
    }
    if (!m_interruptPending || fired)
    {
        m_interruptPending = true;
        m_interruptAt = now + delay;
        m_interruptFrames = 0;
    }
    if (++m_interruptFrames >= m_host->GetInterruptFrames() && m_interruptAt > now)
    {
        m_interruptAt = now;
        if (m_readWaiting)
        {
            WaitForCore(); // the read waiting for the interrupt may start now
        }
    }
}

SocketHostPath::ReadCost
SocketHostPath::CostOfRead(uint32_t octets)
{
    m_rxOctetsRead += octets;
    if (!m_watchesArrivals)
    {
        return {m_host->ReceiveAggregates(Packets(octets), m_segmentSize), 0};
    }
    // The segments whose last octet this read takes are its packets: a segment split between two reads
    // is paid once. Each octet the read takes is in the cache (DDIO) or not as its segment is.
    const SequenceNumber32 readEnd = m_rxStreamStart + uint32_t(m_rxOctetsRead);
    const SequenceNumber32 readStart = readEnd - octets;
    uint32_t segments = 0;
    uint64_t cached = 0;
    for (const ArrivedSegment& s : m_segmentEnds)
    {
        const SequenceNumber32 start = s.end - s.octets;
        if (start >= readEnd)
        {
            break;
        }
        const SequenceNumber32 from = std::max(start, readStart);
        const SequenceNumber32 to = std::min(s.end, readEnd);
        if (from < to)
        {
            cached += m_host->CachedOctets(s.nicMark, uint32_t(to - from));
        }
    }
    while (!m_segmentEnds.empty() && m_segmentEnds.front().end <= readEnd)
    {
        m_segmentEnds.pop_front();
        ++segments;
    }
    return {m_host->ReceiveAggregates(segments, m_segmentSize), std::min<uint64_t>(cached, octets)}; // GRO
}

void
SocketHostPath::Detach()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        if (m_watchesArrivals)
        {
            TcpArrivals::Of(m_socket->GetNode())->Unwatch(m_socket);
        }
    }
    ++m_readGeneration; // a read still scheduled finds itself stale
    m_interruptPending = false;
    m_deliver = Callback<void, Ptr<Packet>>();
    m_idle = Callback<void>();
    m_socket = nullptr;
    m_tcp = nullptr;
    m_host = nullptr;
}

uint32_t
SocketHostPath::Packets(uint64_t bytes) const
{
    return uint32_t(std::max<uint64_t>(1, (bytes + m_segmentSize - 1) / m_segmentSize));
}

void
SocketHostPath::OnRecv(Ptr<Socket> s)
{
    if (!m_host)
    {
        Ptr<Packet> p;
        while ((p = s->Recv()) && p->GetSize() > 0)
        {
            if (!m_deliver.IsNull())
            {
                m_deliver(p);
            }
        }
        return;
    }
    if (!m_watchesArrivals)
    {
        NoteArrival(); // no segment arrivals to go by: TCP's delivery stands for them
    }
    Pull();
    StartRead();
}

void
SocketHostPath::Pull()
{
    // What TCP has reassembled waits in the socket buffer (m_rxQueue) until a read copies it; nothing
    // is charged before. With a bound (RxBacklog), what does not fit stays in TCP's buffer, whose
    // window closes if the host cannot keep up.
    while (m_socket->GetRxAvailable() > 0)
    {
        const uint64_t held = m_rxQueued + (m_rxChunk ? m_rxChunk->GetSize() : 0);
        if (m_rxLimit > 0 && held >= m_rxLimit)
        {
            NoteWindow();
            return;
        }
        Ptr<Packet> p = m_socket->Recv(m_rxLimit > 0 ? uint32_t(m_rxLimit - held) : UINT32_MAX, 0);
        if (!p || p->GetSize() == 0)
        {
            return;
        }
        m_rxQueued += p->GetSize();
        m_rxQueue.push_back(p);
    }
}

void
SocketHostPath::StartRead()
{
    if (m_rxChunk || m_readWaiting || m_rxQueue.empty())
    {
        return; // one read in host processing at a time: RxDone starts the next
    }
    m_readWaiting = true;
    WaitForCore();
}

void
SocketHostPath::WaitForCore()
{
    // recv() copies what the socket holds when its thread runs, not when data arrived: the read is
    // taken once the connection's core is free. Connections waiting for one core are then served in
    // the order they started waiting, a read each, so a short flow waits for at most one read of
    // each other flow on its core.
    const Time now = Simulator::Now();
    Time at = std::max(now, m_host->GetCpu()->GetFreeAt(uint32_t(m_core)));
    if (m_interruptPending)
    {
        at = std::max(at, m_interruptAt); // the host has not seen the data before its interrupt
    }
    // The event holds the path until it runs; an earlier one still scheduled is stale (no EventId is kept:
    // it would hold the event, and the event the path).
    Simulator::Schedule(at - now, &SocketHostPath::ReadWhenCoreFree, Ptr<SocketHostPath>(this), ++m_readGeneration);
}

void
SocketHostPath::ReadWhenCoreFree(uint64_t generation)
{
    if (!m_socket || !m_readWaiting || generation != m_readGeneration)
    {
        return; // detached while waiting, no read waits, or a later WaitForCore took over
    }
    if (m_host->GetCpu()->GetFreeAt(uint32_t(m_core)) > Simulator::Now() ||
        (m_interruptPending && m_interruptAt > Simulator::Now()))
    {
        WaitForCore(); // another read took the core first
        return;
    }
    m_readWaiting = false;
    m_interruptPending = false; // this read takes what the interrupt announced
    Pull(); // what arrived meanwhile is read too
    // One read: up to ReadSize octets from the front of the socket buffer.
    Ptr<Packet> read = Create<Packet>();
    while (!m_rxQueue.empty() && read->GetSize() < m_readSize)
    {
        Ptr<Packet> front = m_rxQueue.front();
        const uint32_t take = std::min(front->GetSize(), m_readSize - read->GetSize());
        if (take == front->GetSize())
        {
            m_rxQueue.pop_front();
        }
        else
        {
            m_rxQueue.front() = front->CreateFragment(take, front->GetSize() - take);
            front = front->CreateFragment(0, take);
        }
        read->AddAtEnd(front);
    }
    m_rxQueued -= read->GetSize();
    m_rxChunk = read;
    const ReadCost cost = CostOfRead(read->GetSize());
    // The callback holds a reference so that a pending charge never outlives the path.
    m_host->SocketReceive(read->GetSize(),
                          cost.packets,
                          MakeCallback(&SocketHostPath::RxDone, Ptr<SocketHostPath>(this)),
                          m_core,
                          cost.cached,
                          m_stackCore);
}

void
SocketHostPath::RxDone()
{
    Ptr<Packet> p = m_rxChunk;
    m_rxChunk = nullptr;
    if (!m_deliver.IsNull())
    {
        m_deliver(p);
    }
    if (!m_socket)
    {
        return; // detached: the application is gone
    }
    Pull();
    AnnounceWindow();
    StartRead();
}

uint32_t
SocketHostPath::FreeReceiveSpace() const
{
    Ptr<TcpRxBuffer> rx = m_tcp->GetRxBuffer();
    return rx->MaxBufferSize() - std::min(rx->MaxBufferSize(), rx->Size()); // out-of-order data included
}

void
SocketHostPath::NoteWindow()
{
    if (m_tcp && FreeReceiveSpace() < m_segmentSize)
    {
        m_windowClosed = true; // less than a segment free: the peer stops sending until told otherwise
    }
}

void
SocketHostPath::AnnounceWindow()
{
    // ns-3's TCP does not announce a window that a read reopens. While the window is open, every
    // segment's ACK carries its size; once it has closed, the peer sends nothing and hears nothing
    // until its persist timer (seconds), so reopening a closed window is announced here, once reading
    // has freed half the buffer (receiver-side silly window avoidance). Only a closed window with no
    // out-of-order data: then the peer has nothing in flight, and the update cannot read as a
    // duplicate ACK, which ns-3's sender takes it for when data is in flight.
    if (!m_windowClosed || !m_tcp)
    {
        return;
    }
    Ptr<TcpRxBuffer> rx = m_tcp->GetRxBuffer();
    if (rx->Size() == rx->Available() && FreeReceiveSpace() >= rx->MaxBufferSize() / 2)
    {
        m_windowClosed = false;
        TcpWindowUpdate::Send(PeekPointer(m_tcp));
    }
}

void
SocketHostPath::SendMessage(Ptr<Packet> message)
{
    // send() copies into the socket's buffers a chunk at a time and TCP sends each as it is copied, so a large
    // message's copy overlaps its transmission; a zero-copy send pins it whole (one notification per send).
    const uint32_t size = message->GetSize();
    if (m_host && !m_zeroCopySend && size > kSendChunk)
    {
        for (uint32_t at = 0; at < size; at += kSendChunk)
        {
            m_txCharging.push_back(message->CreateFragment(at, std::min(kSendChunk, size - at)));
        }
    }
    else
    {
        m_txCharging.push_back(message);
    }
    // The idle callback is for completions that happen later; inside SendMessage the caller
    // checks IsSendIdle() itself, which keeps an uncharged sender's loop flat (no recursion).
    m_inSend = true;
    StartCharging();
    m_inSend = false;
}

void
SocketHostPath::StartCharging()
{
    if (m_charging || m_txCharging.empty())
    {
        return;
    }
    if (!m_host)
    {
        TxCharged();
        return;
    }
    m_charging = true;
    const uint32_t size = m_txCharging.front()->GetSize();
    m_host->SocketSend(size,
                       m_host->SendPackets(size, m_segmentSize), // TSO: per super-packet
                       MakeCallback(&SocketHostPath::TxCharged, Ptr<SocketHostPath>(this)),
                       m_core,
                       m_zeroCopySend);
}

void
SocketHostPath::TxCharged()
{
    m_charging = false;
    if (!m_socket)
    {
        return; // detached while charging
    }
    m_txReady.push_back(m_txCharging.front());
    m_txCharging.pop_front();
    Flush();
    StartCharging();
}

void
SocketHostPath::OnSendSpace(Ptr<Socket> /*s*/, uint32_t /*available*/)
{
    if (!m_txReady.empty())
    {
        Flush();
    }
}

void
SocketHostPath::Flush()
{
    while (!m_txReady.empty())
    {
        Ptr<Packet> p = m_txReady.front();
        const uint32_t room = m_socket->GetTxAvailable();
        if (room == 0)
        {
            return; // OnSendSpace resumes
        }
        if (p->GetSize() <= room)
        {
            const int sent = m_socket->Send(p);
            NS_ABORT_MSG_IF(sent < 0, "SocketHostPath: Send failed with room available");
            m_txReady.pop_front();
            continue;
        }
        // Fill the buffer with the head of the message; the rest waits for space.
        m_socket->Send(p->CreateFragment(0, room));
        m_txReady.front() = p->CreateFragment(room, p->GetSize() - room);
        return;
    }
    if (IsSendIdle() && !m_inSend && !m_idle.IsNull())
    {
        m_idle();
    }
}

} // namespace ns3
