#include "apps/socket-traffic.h"

#include "transport/transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketTraffic");
NS_OBJECT_ENSURE_REGISTERED(SocketTraffic);

namespace
{
/** The most flow octets one message carries: its size, stamp included, is 32 bits. */
constexpr uint32_t kMaxOctets = std::numeric_limits<uint32_t>::max() - MessageStamp::kOctets;
} // namespace

TypeId
SocketTraffic::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::SocketTraffic")
                       .SetParent<Application>()
                       .SetGroupName("Iwarp")
                       .AddConstructor<SocketTraffic>()
                       .AddAttribute("Port",
                                     "The TCP port every SocketTraffic of the load listens on and connects to",
                                     UintegerValue(9201),
                                     MakeUintegerAccessor(&SocketTraffic::m_port),
                                     MakeUintegerChecker<uint16_t>())
                       .AddAttribute("PerFlowConnection",
                                     "Open a connection for each message, closed once the message is in the "
                                     "socket, instead of one kept per peer",
                                     BooleanValue(false),
                                     MakeBooleanAccessor(&SocketTraffic::m_perFlow),
                                     MakeBooleanChecker());
        AddHostAttributes(t);
        return t
            .AddTraceSource("Posted",
                            "A message was submitted (number, peer, octets)",
                            MakeTraceSourceAccessor(&SocketTraffic::m_postedTrace),
                            "ns3::SocketTraffic::MessageTracedCallback")
            .AddTraceSource("Delivered",
                            "A whole message reached this end's user (the sender's number, the sender, octets, "
                            "time since the sender submitted it)",
                            MakeTraceSourceAccessor(&SocketTraffic::m_deliveredTrace),
                            "ns3::SocketTraffic::DeliveredTracedCallback")
            .AddTraceSource("FirstOctet",
                            "A message's first octets reached this end's user (the read that took its stamp "
                            "completed): the sender's number, the sender",
                            MakeTraceSourceAccessor(&SocketTraffic::m_firstOctetTrace),
                            "ns3::SocketTraffic::FirstOctetTracedCallback")
            .AddTraceSource("Failed",
                            "A message cannot be delivered: too large, not running, its connection refused "
                            "(number, peer, octets)",
                            MakeTraceSourceAccessor(&SocketTraffic::m_failedTrace),
                            "ns3::SocketTraffic::MessageTracedCallback")
            .AddTraceSource("Socket",
                            "A TCP socket this end opened to a peer, once it has asked to connect: who owns a "
                            "connection, without finding the socket by its ports",
                            MakeTraceSourceAccessor(&SocketTraffic::m_socketTrace),
                            "ns3::SocketApp::SocketTracedCallback");
    }();
    return tid;
}

SocketTraffic::SocketTraffic()
    : SocketApp(9201)
{
    m_role = SOCKET_ROLE_SERVER; // it listens; the connections it opens are its own (Open)
}

void
SocketTraffic::DoDispose()
{
    m_outbound.clear();
    m_inbound.clear();
    SocketApp::DoDispose();
}

void
SocketTraffic::StopApplication()
{
    m_running = false; // messages already submitted run on to the simulation's stop, as RdmaTraffic's
}

uint64_t
SocketTraffic::Submit(Ipv4Address peer, uint32_t octets)
{
    const Message m{uint32_t(m_submitted++), octets, Simulator::Now()};
    m_postedTrace(m.number, peer, octets);
    if (!m_running || octets == 0 || octets > kMaxOctets)
    {
        NS_LOG_WARN("message " << m.number << " of " << octets << " octets to " << peer << " refused ("
                               << (m_running ? "size outside 1..2^32-17" : "not running") << ")");
        Fail(peer, m);
        return m.number;
    }
    uint64_t key = m_perFlow ? m_nextPerFlowKey++ : uint64_t(peer.Get());
    auto it = m_outbound.find(key);
    Outbound& o = it != m_outbound.end() ? it->second : Open(peer, key, m_perFlow);
    if (o.failed)
    {
        Fail(peer, m);
        if (o.perFlow)
        {
            m_outbound.erase(key); // nothing else will use it
        }
    }
    else if (!o.connected)
    {
        o.waiting.push_back(m);
    }
    else
    {
        Send(o, m);
    }
    return m.number;
}

SocketTraffic::Outbound&
SocketTraffic::Open(Ipv4Address peer, uint64_t key, bool perFlow)
{
    Outbound& o = m_outbound[key];
    o.peer = peer;
    o.perFlow = perFlow;
    o.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(o.socket);
    o.socket->SetConnectCallback(
        MakeBoundCallback(+[](SocketTraffic* app, uint64_t k, Ptr<Socket>) { app->OnConnected(k, true); }, this, key),
        MakeBoundCallback(+[](SocketTraffic* app, uint64_t k, Ptr<Socket>) { app->OnConnected(k, false); }, this,
                          key));
    ++m_opened;
    // No ephemeral port left (connections per flow faster than TIME_WAIT frees them), or no route: the
    // connection fails now, and so does what it was to carry (Submit), never waiting silently.
    if (o.socket->Bind() != 0 || o.socket->Connect(InetSocketAddress(peer, m_port)) != 0)
    {
        NS_LOG_WARN("connection to " << peer << " could not be opened (" << o.socket->GetErrno() << ")");
        o.failed = true;
        return o;
    }
    m_socketTrace(o.socket); // after Connect: its peer is known
    return o;
}

void
SocketTraffic::OnConnected(uint64_t key, bool ok)
{
    auto it = m_outbound.find(key);
    if (it == m_outbound.end())
    {
        return; // disposed
    }
    Outbound& o = it->second;
    if (!ok)
    {
        NS_LOG_WARN("connection to " << o.peer << " failed: " << o.waiting.size() << " waiting messages fail");
        o.failed = true;
        for (const Message& m : o.waiting)
        {
            Fail(o.peer, m);
        }
        o.waiting.clear();
        return;
    }
    o.connected = true;
    o.path = OpenPath(o.socket);
    while (!o.waiting.empty())
    {
        const Message m = o.waiting.front();
        o.waiting.pop_front();
        Send(o, m);
    }
    if (o.perFlow)
    {
        CloseWhenSent(key);
    }
}

void
SocketTraffic::Send(Outbound& o, const Message& m)
{
    o.path->SendMessage(MessageStamp::MakeMessage(m.number, m.octets + MessageStamp::kOctets, m.submitted));
}

void
SocketTraffic::CloseWhenSent(uint64_t key)
{
    Outbound& o = m_outbound.at(key);
    if (!o.path->IsSendIdle())
    {
        // Called back from an event of its own: the path's callback is not replaced while it runs.
        o.path->SetSendIdleCallback(MakeBoundCallback(
            +[](SocketTraffic* app, uint64_t k) { Simulator::ScheduleNow(&SocketTraffic::CloseWhenSent, app, k); },
            this, key));
        return;
    }
    // TCP sends its FIN once its buffer has drained; the connection's state goes with the entry.
    o.path->SetSendIdleCallback(MakeNullCallback<void>());
    o.socket->Close();
    m_outbound.erase(key);
}

void
SocketTraffic::Fail(Ipv4Address peer, const Message& m)
{
    m_failedTrace(m.number, peer, m.octets);
}

void
SocketTraffic::ServerAccepted(Socket* key, Ptr<SocketHostPath> path)
{
    Address from;
    path->GetSocket()->GetPeerName(from);
    m_inbound[key].from = InetSocketAddress::ConvertFrom(from).GetIpv4();
    path->SetDeliverCallback(MakeCallback(&SocketTraffic::OnDeliver, this, key));
    // The peer's close (a connection of one flow, sent): this end closes too rather than stay in CLOSE_WAIT.
    // Its data is in the path by then (read without a bound: TCP's buffer is empty at the FIN).
    path->GetSocket()->SetCloseCallbacks(
        MakeCallback(+[](Ptr<Socket> s) {
            Simulator::ScheduleNow([s]() {
                if (s->GetRxAvailable() == 0) // with RxBacklog, data may still wait: then it stays open
                {
                    s->Close();
                }
            });
        }),
        MakeNullCallback<void, Ptr<Socket>>());
}

void
SocketTraffic::OnDeliver(Socket* key, Ptr<Packet> chunk)
{
    Inbound& in = m_inbound.at(key);
    const Time now = Simulator::Now();
    in.reader.Consume(
        chunk,
        [this, &in, now](const MessageStamp& m) {
            m_deliveredTrace(m.number, in.from, m.size - MessageStamp::kOctets, now - m.posted);
        },
        [this, &in](const MessageStamp& m) { m_firstOctetTrace(m.number, in.from); });
}

} // namespace ns3
