#include "apps/socket-ping-pong.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketPingPong");
NS_OBJECT_ENSURE_REGISTERED(SocketPingPong);

TypeId
SocketPingPong::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::SocketPingPong")
                       .SetParent<Application>()
                       .SetGroupName("Iwarp")
                       .AddConstructor<SocketPingPong>();
        AddConnectionAttributes(t, "Client (sends and times) or Server (echoes)", 9100);
        t.AddAttribute("Size",
                       "Octets per message, each way (same at both ends)",
                       UintegerValue(64),
                       MakeUintegerAccessor(&SocketPingPong::m_size),
                       MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Count",
                          "Round trips the client makes",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SocketPingPong::m_count),
                          MakeUintegerChecker<uint32_t>(1));
        AddHostAttributes(t);
        return t.AddTraceSource("Posted",
                                "The client sent a message (iteration, octets)",
                                MakeTraceSourceAccessor(&SocketPingPong::m_postedTrace),
                                "ns3::SocketPingPong::PostedTracedCallback")
            .AddTraceSource("Completed",
                            "An iteration completed at the client (iteration, octets, half RTT)",
                            MakeTraceSourceAccessor(&SocketPingPong::m_completedTrace),
                            "ns3::SocketPingPong::CompletedTracedCallback")
            .AddTraceSource("Delivered",
                            "The server's user has a whole message (message, octets)",
                            MakeTraceSourceAccessor(&SocketPingPong::m_deliveredTrace),
                            "ns3::SocketPingPong::DeliveredTracedCallback");
    }();
    return tid;
}

SocketPingPong::SocketPingPong()
    : SocketApp(9100),
      m_size(64),
      m_count(10)
{
}

void
SocketPingPong::StopApplication()
{
    m_running = false;
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
SocketPingPong::OnConnectFailed(Ptr<Socket> /*s*/)
{
    NS_LOG_WARN("SocketPingPong: connection to " << m_remote << " failed");
}

void
SocketPingPong::ClientConnected()
{
    m_path->SetDeliverCallback(MakeCallback(&SocketPingPong::OnClientDeliver, this));
    StartIteration();
}

void
SocketPingPong::StartIteration()
{
    m_iterStart = Simulator::Now();
    m_postedTrace(GetIterationsDone(), m_size);
    m_path->SendMessage(Create<Packet>(m_size));
}

void
SocketPingPong::OnClientDeliver(Ptr<Packet> chunk)
{
    m_rxBytes += chunk->GetSize();
    while (m_rxBytes >= m_size)
    {
        m_rxBytes -= m_size;
        const Time half = (Simulator::Now() - m_iterStart) / 2;
        const uint32_t it = GetIterationsDone();
        m_halfRtts.push_back(half);
        m_completedTrace(it, m_size, half);
        if (GetIterationsDone() < m_count && m_running)
        {
            StartIteration();
        }
        else
        {
            m_socket->Close();
        }
    }
}

void
SocketPingPong::ServerAccepted(Socket* key, Ptr<SocketHostPath> path)
{
    m_conns[key] = {path, 0};
    path->SetDeliverCallback(MakeCallback(&SocketPingPong::OnServerDeliver, this, key));
}

void
SocketPingPong::OnServerDeliver(Socket* key, Ptr<Packet> chunk)
{
    auto& conn = m_conns.at(key);
    conn.second += chunk->GetSize();
    while (conn.second >= m_size)
    {
        conn.second -= m_size;
        m_deliveredTrace(m_received++, m_size);
        conn.first->SendMessage(Create<Packet>(m_size));
    }
}

} // namespace ns3
