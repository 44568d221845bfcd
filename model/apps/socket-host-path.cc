#include "apps/socket-host-path.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/tcp-header.h"
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
 * that window update (RFC 1122 4.2.3.3), and with RxLimit the host model is what keeps the
 * buffer full, so SocketHostPath sends it. TcpSocketBase's ACK sender is protected: it is
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
} // namespace

SocketHostPath::SocketHostPath(Ptr<Socket> socket, Ptr<HostModel> host, int32_t core)
    : m_socket(socket),
      m_host(host),
      m_core(core)
{
    if (m_host && m_core == HostModel::kAnyCore)
    {
        m_core = int32_t(m_host->AssignFlowCore()); // one connection, one core (RSS)
    }
    UintegerValue seg;
    if (socket->GetAttributeFailSafe("SegmentSize", seg) && seg.Get() > 0)
    {
        m_segmentSize = uint32_t(seg.Get());
    }
    socket->SetRecvCallback(MakeCallback(&SocketHostPath::OnRecv, this));
    socket->SetSendCallback(MakeCallback(&SocketHostPath::OnSendSpace, this));
}

void
SocketHostPath::Detach()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    }
    m_deliver = Callback<void, Ptr<Packet>>();
    m_idle = Callback<void>();
    m_socket = nullptr;
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
    while (true)
    {
        uint32_t room = UINT32_MAX;
        if (m_host && m_rxLimit > 0)
        {
            if (m_rxBacklog >= m_rxLimit)
            {
                // RxDone reads on when host processing has caught up; meanwhile TCP's buffer
                // fills and its window closes.
                m_windowClosing = true;
                return;
            }
            room = uint32_t(m_rxLimit - m_rxBacklog);
        }
        Ptr<Packet> p = s->Recv(room, 0);
        if (!p || p->GetSize() == 0)
        {
            return;
        }
        if (!m_host)
        {
            if (!m_deliver.IsNull())
            {
                m_deliver(p);
            }
            continue;
        }
        const uint64_t id = m_rxFirst + m_rx.size();
        m_rx.push_back(RxChunk{p, false});
        m_rxBacklog += p->GetSize();
        // The callback holds a reference so that a pending charge never outlives the path.
        m_host->SocketReceive(p->GetSize(),
                              Packets(p->GetSize()),
                              MakeCallback(&SocketHostPath::RxDone, Ptr<SocketHostPath>(this), id),
                              m_core);
    }
}

void
SocketHostPath::RxDone(uint64_t chunk)
{
    NS_ASSERT(chunk >= m_rxFirst && chunk - m_rxFirst < m_rx.size());
    m_rx[chunk - m_rxFirst].done = true;
    while (!m_rx.empty() && m_rx.front().done)
    {
        Ptr<Packet> p = m_rx.front().data;
        m_rx.pop_front();
        ++m_rxFirst;
        m_rxBacklog -= p->GetSize();
        if (!m_deliver.IsNull())
        {
            m_deliver(p);
        }
    }
    if (m_socket && m_rxLimit > 0)
    {
        if (m_socket->GetRxAvailable() > 0)
        {
            OnRecv(m_socket); // room in host processing again: read on
        }
        // Announce the window once reading has opened half the buffer (receiver-side silly
        // window avoidance: a window that opens a segment at a time meets the peer's delayed
        // ACKs and crawls).
        UintegerValue rcvBuf;
        m_socket->GetAttribute("RcvBufSize", rcvBuf);
        const uint64_t free = rcvBuf.Get() - std::min<uint64_t>(rcvBuf.Get(), m_socket->GetRxAvailable());
        Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(m_socket);
        if (m_windowClosing && free >= rcvBuf.Get() / 2 && tcp)
        {
            m_windowClosing = false;
            TcpWindowUpdate::Send(PeekPointer(tcp));
        }
    }
}

void
SocketHostPath::SendMessage(Ptr<Packet> message)
{
    m_txCharging.push_back(message);
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
                       Packets(size),
                       MakeCallback(&SocketHostPath::TxCharged, Ptr<SocketHostPath>(this)),
                       m_core);
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
