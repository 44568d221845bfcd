#include "apps/socket-ping-pong.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketPingPong");
NS_OBJECT_ENSURE_REGISTERED(SocketPingPong);

TypeId
SocketPingPong::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SocketPingPong")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<SocketPingPong>()
            .AddAttribute("Role",
                          "Client (sends and times) or Server (echoes)",
                          EnumValue(SOCKET_ROLE_CLIENT),
                          MakeEnumAccessor(&SocketPingPong::m_role),
                          MakeEnumChecker(SOCKET_ROLE_CLIENT, "Client", SOCKET_ROLE_SERVER, "Server"))
            .AddAttribute("Remote",
                          "The server's address (an InetSocketAddress; client only)",
                          AddressValue(),
                          MakeAddressAccessor(&SocketPingPong::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Port",
                          "TCP port the server listens on",
                          UintegerValue(9100),
                          MakeUintegerAccessor(&SocketPingPong::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Size",
                          "Octets per message, each way (same at both ends)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&SocketPingPong::m_size),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Count",
                          "Round trips the client makes",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SocketPingPong::m_count),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Core",
                          "Host core this connection's processing runs on (-1: assigned round-robin per "
                          "connection, as RSS spreads flows over cores)",
                          IntegerValue(HostModel::kAnyCore),
                          MakeIntegerAccessor(&SocketPingPong::m_core),
                          MakeIntegerChecker<int32_t>(-1))
            .AddAttribute("RxBacklog",
                          "Octets the receiving host may hold in DMA, protocol processing and "
                          "copy before the application stops reading the socket, so that TCP's "
                          "window closes when the host cannot keep up (0: no limit)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SocketPingPong::m_rxLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Posted",
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
    return tid;
}

SocketPingPong::SocketPingPong()
    : m_role(SOCKET_ROLE_CLIENT),
      m_port(9100),
      m_size(64),
      m_count(10),
      m_core(HostModel::kAnyCore)
{
}

void
SocketPingPong::DoDispose()
{
    if (m_path)
    {
        m_path->Detach();
    }
    for (auto& [key, conn] : m_conns)
    {
        conn.first->Detach();
    }
    m_conns.clear();
    m_path = nullptr;
    m_socket = nullptr;
    m_host = nullptr;
    Application::DoDispose();
}

void
SocketPingPong::StartApplication()
{
    m_running = true;
    m_host = GetNode()->GetObject<HostModel>(); // null: the uncharged baseline
    m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (m_role == SOCKET_ROLE_SERVER)
    {
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        m_socket->Listen();
        m_socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&SocketPingPong::OnAccept, this));
        return;
    }
    m_socket->Bind();
    m_socket->SetConnectCallback(MakeCallback(&SocketPingPong::OnConnected, this),
                                 MakeCallback(&SocketPingPong::OnConnectFailed, this));
    m_socket->Connect(m_remote);
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
SocketPingPong::OnConnected(Ptr<Socket> s)
{
    m_path = Create<SocketHostPath>(s, m_host, m_core);
    m_path->SetRxLimit(m_rxLimit);
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
SocketPingPong::OnAccept(Ptr<Socket> s, const Address& /*from*/)
{
    auto& conn = m_conns[PeekPointer(s)];
    conn.first = Create<SocketHostPath>(s, m_host, m_core);
    conn.first->SetRxLimit(m_rxLimit);
    conn.second = 0;
    conn.first->SetDeliverCallback(MakeCallback(&SocketPingPong::OnServerDeliver, this, PeekPointer(s)));
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
