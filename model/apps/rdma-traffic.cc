#include "apps/rdma-traffic.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTraffic");
NS_OBJECT_ENSURE_REGISTERED(RdmaTraffic);

namespace
{
constexpr uint8_t kWriteAccess = MemAccess::kLocalRead | MemAccess::kLocalWrite | MemAccess::kRemoteWrite;
} // namespace

TypeId
RdmaTraffic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTraffic")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<RdmaTraffic>()
            .AddAttribute("Port",
                          "The port every RdmaTraffic of the load listens on and connects to",
                          UintegerValue(9001),
                          MakeUintegerAccessor(&RdmaTraffic::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("MaxMessage",
                          "The largest message, in octets: the buffer each end registers (Virtual: no octets "
                          "are kept); a larger one is refused (the Failed trace)",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RdmaTraffic::m_maxMessage),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Op",
                          "What each message is carried as: an RDMA Write into the peer's buffer, or a Send "
                          "into one of its posted receives",
                          EnumValue(WRITE),
                          MakeEnumAccessor(&RdmaTraffic::m_op),
                          MakeEnumChecker(WRITE, "Write", SEND, "Send"))
            .AddAttribute("ReceiveDepth",
                          "Op Send: receives the accepting end keeps posted on each connection, one posted again "
                          "as each completes (1024: a choice, deep enough for the loads of doc/traffic.md; a "
                          "Send that finds none ends its connection with a Terminate)",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaTraffic::m_receiveDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PerFlowConnection",
                          "Open a connection (a queue pair) for each message, closed once its Write (or Send) "
                          "has completed here, instead of one kept per peer",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaTraffic::m_perFlow),
                          MakeBooleanChecker())
            .AddTraceSource("Posted",
                            "A message was submitted (number, peer, octets)",
                            MakeTraceSourceAccessor(&RdmaTraffic::m_postedTrace),
                            "ns3::RdmaTraffic::MessageTracedCallback")
            .AddTraceSource("Completed",
                            "A message's Write completed at this end: the LLP took it (number, peer, octets, "
                            "time since it was submitted)",
                            MakeTraceSourceAccessor(&RdmaTraffic::m_completedTrace),
                            "ns3::RdmaTraffic::CompletedTracedCallback")
            .AddTraceSource("Failed",
                            "A message cannot be delivered: too large, refused connection, flushed (number, "
                            "peer, octets)",
                            MakeTraceSourceAccessor(&RdmaTraffic::m_failedTrace),
                            "ns3::RdmaTraffic::MessageTracedCallback")
            .AddTraceSource("QueuePair",
                            "A queue pair this application made, before it connects (one per peer it sends to, "
                            "one per peer it accepts): who owns a connection, without inferring it from ports",
                            MakeTraceSourceAccessor(&RdmaTraffic::m_queuePairTrace),
                            "ns3::Rnic::QpCreatedTracedCallback")
            .AddTraceSource("FlowQueuePair",
                            "A queue pair of one message's connection (PerFlowConnection), at either end, before "
                            "it connects (queue pair, the sending end's message number)",
                            MakeTraceSourceAccessor(&RdmaTraffic::m_flowQueuePairTrace),
                            "ns3::RdmaTraffic::FlowQueuePairTracedCallback");
    return tid;
}

RdmaTraffic::RdmaTraffic()
    : m_port(9001),
      m_maxMessage(1 << 20)
{
}

void
RdmaTraffic::DoDispose()
{
    m_rnic = nullptr;
    m_pd = nullptr;
    m_region = nullptr;
    m_peers.clear();
    m_accepted.clear();
    Application::DoDispose();
}

void
RdmaTraffic::StartApplication()
{
    m_running = true;
    m_rnic = GetNode()->GetObject<Rnic>();
    NS_ABORT_MSG_UNLESS(m_rnic, "RdmaTraffic needs an Rnic on its node (IwarpHelper::Install)");
    m_pd = m_rnic->AllocatePd();
    m_region = m_rnic->RegisterMemory(m_pd, m_maxMessage, kWriteAccess, MemoryRegistry::Backing::Virtual);
    m_rnic->GetConnectionManager()->Listen(m_port, MakeCallback(&RdmaTraffic::OnRequest, this));
}

void
RdmaTraffic::StopApplication()
{
    m_running = false;
}

Ptr<QueuePair>
RdmaTraffic::MakeQp(uint64_t key)
{
    Ptr<CompletionQueue> cq = m_rnic->CreateCq();
    Ptr<QueuePair> qp = m_rnic->CreateQp(m_pd, cq, cq);
    qp->TraceConnectWithoutContext(
        "Completion",
        MakeBoundCallback(+[](RdmaTraffic* app, uint64_t k, const WorkCompletion& c) { app->OnCompletion(k, c); },
                          this, key));
    m_queuePairTrace(qp);
    return qp;
}

uint64_t
RdmaTraffic::Submit(Ipv4Address peer, uint32_t octets)
{
    const Message m{m_submitted++, octets, Simulator::Now()};
    m_postedTrace(m.number, peer, octets);
    if (!m_running || octets == 0 || octets > m_maxMessage)
    {
        NS_LOG_WARN("message " << m.number << " of " << octets << " octets to " << peer << " refused ("
                               << (m_running ? "size outside 1..MaxMessage" : "not running") << ")");
        Fail(peer, m);
        return m.number;
    }
    const uint64_t key = m_perFlow ? m_nextPerFlowKey++ : uint64_t(peer.Get()) + 1;
    auto [it, fresh] = m_peers.try_emplace(key);
    Peer& p = it->second;
    if (fresh)
    {
        p.address = peer;
        p.perFlow = m_perFlow;
        Connect(key, p, m.number);
    }
    if (p.failed)
    {
        Fail(peer, m);
    }
    else if (!p.connected)
    {
        p.waiting.push_back(m);
    }
    else
    {
        Post(p, m);
    }
    return m.number;
}

void
RdmaTraffic::Connect(uint64_t key, Peer& peer, uint64_t number)
{
    peer.qp = MakeQp(key);
    ++m_opened;
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{m_region->GetStag(), m_region->GetBaseTo()}.Serialize(pd);
    if (peer.perFlow)
    {
        m_flowQueuePairTrace(peer.qp, number);
        AppendBe32(pd, uint32_t(number >> 32)); // the message it carries, for the accepting end
        AppendBe32(pd, uint32_t(number));
    }
    m_rnic->GetConnectionManager()->Connect(
        peer.qp, InetSocketAddress(peer.address, m_port), pd,
        MakeBoundCallback(+[](RdmaTraffic* app, uint64_t k, Ptr<QueuePair>, bool ok,
                              const std::vector<uint8_t>& reply) { app->OnConnected(k, ok, reply); },
                          this, key));
}

void
RdmaTraffic::OnConnected(uint64_t key, bool accepted, const std::vector<uint8_t>& pd)
{
    auto found = m_peers.find(key);
    if (found == m_peers.end())
    {
        return; // disposed
    }
    Peer& p = found->second;
    const Ipv4Address address = p.address;
    if (!accepted || !p.remote.Deserialize(pd))
    {
        NS_LOG_WARN("connection to " << address << " refused or no buffer advertised: " << p.waiting.size()
                                     << " waiting messages fail");
        p.failed = true;
        for (const Message& m : p.waiting)
        {
            Fail(address, m);
        }
        p.waiting.clear();
        return;
    }
    p.connected = true;
    while (!p.waiting.empty())
    {
        const Message m = p.waiting.front();
        p.waiting.pop_front();
        Post(p, m);
    }
}

void
RdmaTraffic::OnRequest(Ptr<ConnectionRequest> req)
{
    // Any peer of the load may connect; it Writes into this end's one buffer, which it learns here (or Sends
    // into the receives posted below, all of them that buffer: the load measures time, not contents).
    Ptr<QueuePair> qp = MakeQp(0);
    if (m_op == SEND)
    {
        qp->TraceConnectWithoutContext(
            "Completion",
            MakeBoundCallback(+[](RdmaTraffic* app, Ptr<QueuePair> q, const WorkCompletion& c) {
                app->OnAcceptedCompletion(q, c);
            },
                              this, qp));
    }
    m_accepted.push_back(qp);
    const bool oneFlow = req->privateData.size() == RdmaBufferAdvert::kSize + 8;
    if (oneFlow)
    {
        // A connection of one message: the peer named it after its advertisement.
        const uint64_t number = (uint64_t(ReadBe32(req->privateData, RdmaBufferAdvert::kSize)) << 32) |
                                ReadBe32(req->privateData, RdmaBufferAdvert::kSize + 4);
        m_flowQueuePairTrace(qp, number);
        qp->TraceConnectWithoutContext(
            "Event", MakeBoundCallback(+[](RdmaTraffic* app, Ptr<QueuePair> q, const QpEventInfo& e) {
                app->OnAcceptedEvent(q, e);
            },
                                       this, qp));
    }
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{m_region->GetStag(), m_region->GetBaseTo()}.Serialize(pd);
    m_rnic->GetConnectionManager()->Accept(req, qp, pd);
    if (m_op == SEND)
    {
        PostReceives(qp, oneFlow ? 1 : m_receiveDepth); // a connection of one flow gets one Send
    }
}

void
RdmaTraffic::Post(Peer& peer, const Message& m)
{
    SendWr wr;
    wr.id = m_nextWrId++;
    wr.type = m_op == SEND ? WrOpcode::Send : WrOpcode::Write;
    wr.local = LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(), m.octets};
    wr.remoteStag = peer.remote.stag;
    wr.remoteTo = peer.remote.to;
    // Booked first: with a zero-cost engine the Write can complete before PostSend returns.
    m_posted[wr.id] = m;
    if (!peer.qp->PostSend(wr))
    {
        NS_LOG_WARN("PostSend to " << peer.address << " refused: message " << m.number << " fails");
        m_posted.erase(wr.id);
        Fail(peer.address, m);
    }
}

void
RdmaTraffic::ClosePerFlow(uint64_t key)
{
    auto it = m_peers.find(key);
    if (it != m_peers.end())
    {
        it->second.qp->Disconnect(true); // graceful: the data goes first
        m_peers.erase(it);
    }
}

void
RdmaTraffic::OnAcceptedEvent(Ptr<QueuePair> qp, const QpEventInfo& e)
{
    // A connection of one flow: its sender closed it once its message was sent, so this end closes too
    // (otherwise it would hold the connection half-open to the end of the run).
    if (e.type == QpEvent::HalfClosed || e.type == QpEvent::Closed)
    {
        // From an event of its own: the queue pair is reporting this from inside its transport.
        Simulator::ScheduleNow([this, qp]() {
            qp->Disconnect(true);
            m_accepted.erase(std::remove(m_accepted.begin(), m_accepted.end(), qp), m_accepted.end());
        });
    }
}

void
RdmaTraffic::PostReceives(Ptr<QueuePair> qp, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        if (!qp->PostRecv(m_nextWrId++, LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(), m_maxMessage}))
        {
            NS_LOG_WARN("a receive was refused: the queue pair is down");
            return;
        }
    }
}

void
RdmaTraffic::OnAcceptedCompletion(Ptr<QueuePair> qp, const WorkCompletion& c)
{
    if (c.IsRecv() && c.status == WcStatus::Success)
    {
        PostReceives(qp, 1);
    }
}

void
RdmaTraffic::Fail(Ipv4Address peer, const Message& m)
{
    m_failedTrace(m.number, peer, m.octets);
}

void
RdmaTraffic::OnCompletion(uint64_t key, const WorkCompletion& c)
{
    auto it = m_posted.find(c.id);
    auto peerIt = m_peers.find(key);
    if (it == m_posted.end() || peerIt == m_peers.end())
    {
        return; // an accepted connection's: it posts nothing
    }
    const Message m = it->second;
    m_posted.erase(it);
    const Ipv4Address peer = peerIt->second.address;
    if (peerIt->second.perFlow)
    {
        // Its one message is the LLP's: close the connection behind it, from an event of its own (this may run
        // inside the PostSend of OnConnected's loop over the entry).
        Simulator::ScheduleNow(&RdmaTraffic::ClosePerFlow, this, key);
    }
    if (c.status != WcStatus::Success)
    {
        NS_LOG_WARN("message " << m.number << " to " << peer << ": " << ToString(c.status));
        Fail(peer, m);
        return;
    }
    m_completedTrace(m.number, peer, m.octets, Simulator::Now() - m.submitted);
}

} // namespace ns3
