#include "apps/socket-app.h"

#include "transport/transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/integer.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

SocketApp::SocketApp(uint16_t port)
    : m_role(SOCKET_ROLE_CLIENT),
      m_port(port),
      m_core(HostModel::kAnyCore)
{
}

void
SocketApp::AddConnectionAttributes(TypeId& tid, const std::string& roleHelp, uint16_t port)
{
    tid.AddAttribute("Role",
                     roleHelp,
                     EnumValue(SOCKET_ROLE_CLIENT),
                     MakeEnumAccessor(&SocketApp::m_role),
                     MakeEnumChecker(SOCKET_ROLE_CLIENT, "Client", SOCKET_ROLE_SERVER, "Server"))
        .AddAttribute("Remote",
                      "The server's address (an InetSocketAddress; client only)",
                      AddressValue(),
                      MakeAddressAccessor(&SocketApp::m_remote),
                      MakeAddressChecker())
        .AddAttribute("Port",
                      "TCP port the server listens on",
                      UintegerValue(port),
                      MakeUintegerAccessor(&SocketApp::m_port),
                      MakeUintegerChecker<uint16_t>())
        .AddTraceSource("Socket",
                        "Client: its TCP socket, once it has asked to connect: who owns a connection, "
                        "without finding the socket by its ports",
                        MakeTraceSourceAccessor(&SocketApp::m_socketTrace),
                        "ns3::SocketApp::SocketTracedCallback");
}

void
SocketApp::AddHostAttributes(TypeId& tid)
{
    tid.AddAttribute("Core",
                     "Host core this connection's processing runs on (-1: assigned round-robin per "
                     "connection, as RSS spreads flows over cores)",
                     IntegerValue(HostModel::kAnyCore),
                     MakeIntegerAccessor(&SocketApp::m_core),
                     MakeIntegerChecker<int32_t>(-1))
        .AddAttribute("RxBacklog",
                      "Octets the receiving host may hold taken from TCP and not yet delivered (its socket "
                      "buffer and the read in processing) before the application stops taking data from the "
                      "socket, so that TCP's window closes when the host cannot keep up (0: no limit)",
                      UintegerValue(0),
                      MakeUintegerAccessor(&SocketApp::m_rxLimit),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("RxReadSize",
                      "Octets one read copies at most: the receiving application reads one at a time, each "
                      "charged to the host when it is taken (64 KiB: a choice, the largest aggregate Linux's "
                      "GRO builds)",
                      UintegerValue(65536),
                      MakeUintegerAccessor(&SocketApp::m_readSize),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("ZeroCopySend",
                      "Send without the copy into the kernel, as Linux's MSG_ZEROCOPY: the host pins the "
                      "pages and is told of the completion (HostModel::ZeroCopyCyclesPerSend) instead",
                      BooleanValue(false),
                      MakeBooleanAccessor(&SocketApp::m_zeroCopySend),
                      MakeBooleanChecker());
}

void
SocketApp::DoDispose()
{
    for (const Ptr<SocketHostPath>& path : m_paths)
    {
        path->Detach();
    }
    m_paths.clear();
    m_path = nullptr;
    m_socket = nullptr;
    m_host = nullptr;
    Application::DoDispose();
}

void
SocketApp::StartApplication()
{
    m_running = true;
    m_host = GetNode()->GetObject<HostModel>(); // null: the uncharged baseline
    m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(m_socket); // a server's accepted connections fork its listener
    if (m_role == SOCKET_ROLE_SERVER)
    {
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        m_socket->Listen();
        m_socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&SocketApp::OnAccept, this));
        return;
    }
    m_socket->Bind();
    m_socket->SetConnectCallback(MakeCallback(&SocketApp::OnConnected, this),
                                 MakeCallback(&SocketApp::OnConnectFailed, this));
    m_socket->Connect(m_remote);
    m_socketTrace(m_socket);
}

Ptr<SocketHostPath>
SocketApp::OpenPath(Ptr<Socket> s)
{
    Ptr<SocketHostPath> path = Create<SocketHostPath>(s, m_host, m_core);
    path->SetRxLimit(m_rxLimit);
    path->SetReadSize(m_readSize);
    path->SetZeroCopySend(m_zeroCopySend);
    m_paths.push_back(path);
    return path;
}

void
SocketApp::OnConnected(Ptr<Socket> s)
{
    m_path = OpenPath(s);
    ClientConnected();
}

void
SocketApp::OnAccept(Ptr<Socket> s, const Address& /*from*/)
{
    ServerAccepted(PeekPointer(s), OpenPath(s));
}

} // namespace ns3
