#include "apps/socket-host-path.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketHostPath");

SocketHostPath::SocketHostPath(Ptr<Socket> socket, Ptr<HostModel> host, int32_t core)
    : m_socket(socket),
      m_host(host),
      m_core(core)
{
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
    Ptr<Packet> p;
    while ((p = s->Recv()) && p->GetSize() > 0)
    {
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
