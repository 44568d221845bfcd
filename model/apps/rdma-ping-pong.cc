#include "apps/rdma-ping-pong.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPingPong");
NS_OBJECT_ENSURE_REGISTERED(RdmaPingPong);

void
AppendBe32(std::vector<uint8_t>& out, uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8)
    {
        out.push_back(uint8_t(v >> s));
    }
}

uint32_t
ReadBe32(const std::vector<uint8_t>& in, std::size_t offset)
{
    uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i)
    {
        v = (v << 8) | in.at(offset + i);
    }
    return v;
}

void
RdmaBufferAdvert::Serialize(std::vector<uint8_t>& out) const
{
    AppendBe32(out, stag);
    AppendBe32(out, uint32_t(to >> 32));
    AppendBe32(out, uint32_t(to));
}

bool
RdmaBufferAdvert::Deserialize(const std::vector<uint8_t>& in, std::size_t offset)
{
    if (in.size() < offset + kSize)
    {
        return false;
    }
    stag = ReadBe32(in, offset);
    to = (uint64_t(ReadBe32(in, offset + 4)) << 32) | ReadBe32(in, offset + 8);
    return true;
}

namespace
{
constexpr uint8_t kAllAccess =
    MemAccess::kLocalRead | MemAccess::kLocalWrite | MemAccess::kRemoteRead | MemAccess::kRemoteWrite;
} // namespace

TypeId
RdmaPingPong::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPingPong")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<RdmaPingPong>()
            .AddAttribute("Role",
                          "Client (connects and measures) or Server (listens and answers)",
                          EnumValue(RDMA_ROLE_CLIENT),
                          MakeEnumAccessor(&RdmaPingPong::m_role),
                          MakeEnumChecker(RDMA_ROLE_CLIENT, "Client", RDMA_ROLE_SERVER, "Server"))
            .AddAttribute("Remote",
                          "The server's address (an InetSocketAddress; client only)",
                          AddressValue(),
                          MakeAddressAccessor(&RdmaPingPong::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Port",
                          "TCP port the server listens on",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RdmaPingPong::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Size",
                          "Octets per message, each way",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaPingPong::m_size),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Count",
                          "Round trips the client runs",
                          UintegerValue(10),
                          MakeUintegerAccessor(&RdmaPingPong::m_count),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mode",
                          "Send: Send/Receive; Write: RDMA Write followed by a zero-length Send; WritePoll: "
                          "RDMA Write alone, seen by the peer when the last octet of its buffer is placed "
                          "(how ib_write_lat waits: it polls that octet)",
                          EnumValue(SEND),
                          MakeEnumAccessor(&RdmaPingPong::m_mode),
                          MakeEnumChecker(SEND, "Send", WRITE, "Write", WRITE_POLL, "WritePoll"))
            .AddAttribute("Payload",
                          "Real: buffers hold octets; Virtual: sizes only",
                          EnumValue(RDMA_PAYLOAD_REAL),
                          MakeEnumAccessor(&RdmaPingPong::m_payload),
                          MakeEnumChecker(RDMA_PAYLOAD_REAL, "Real", RDMA_PAYLOAD_VIRTUAL, "Virtual"))
            .AddTraceSource("Posted",
                            "A message was posted (iteration, octets)",
                            MakeTraceSourceAccessor(&RdmaPingPong::m_postedTrace),
                            "ns3::RdmaPingPong::PostedTracedCallback")
            .AddTraceSource("Completed",
                            "A round trip completed at the client (iteration, octets, half RTT)",
                            MakeTraceSourceAccessor(&RdmaPingPong::m_completedTrace),
                            "ns3::RdmaPingPong::CompletedTracedCallback")
            .AddTraceSource("Delivered",
                            "The server detected a message (iteration, octets)",
                            MakeTraceSourceAccessor(&RdmaPingPong::m_deliveredTrace),
                            "ns3::RdmaPingPong::DeliveredTracedCallback")
            .AddTraceSource("QueuePair",
                            "A queue pair this application made for a connection, before it connects: who "
                            "owns a connection, without inferring it from its ports",
                            MakeTraceSourceAccessor(&RdmaPingPong::m_queuePairTrace),
                            "ns3::Rnic::QpCreatedTracedCallback");
    return tid;
}

RdmaPingPong::RdmaPingPong()
    : m_role(RDMA_ROLE_CLIENT),
      m_port(9000),
      m_size(64),
      m_count(10),
      m_mode(SEND),
      m_payload(RDMA_PAYLOAD_REAL)
{
}

void
RdmaPingPong::DoDispose()
{
    m_rnic = nullptr;
    m_pd = nullptr;
    m_region = nullptr;
    m_client = nullptr;
    m_peers.clear();
    Application::DoDispose();
}

Ptr<RdmaPingPong::Peer>
RdmaPingPong::MakePeer()
{
    Ptr<Peer> p = Create<Peer>();
    const auto backing = m_payload == RDMA_PAYLOAD_REAL ? MemoryRegistry::Backing::Real
                                                        : MemoryRegistry::Backing::Virtual;
    p->region = m_rnic->RegisterMemory(m_pd, m_size, kAllAccess, backing);
    if (uint8_t* d = p->region->GetBuffer()->Data())
    {
        const uint8_t seed = m_role == RDMA_ROLE_CLIENT ? 0x11 : 0x77;
        for (uint32_t i = 0; i < m_size; ++i)
        {
            d[i] = uint8_t(seed + i * 13);
        }
    }
    Ptr<CompletionQueue> cq = m_rnic->CreateCq();
    p->qp = m_rnic->CreateQp(m_pd, cq, cq);
    m_queuePairTrace(p->qp);
    p->qp->TraceConnectWithoutContext(
        "Completion",
        MakeBoundCallback(&RdmaPingPong::OnCompletionThunk, this, p));
    if (m_mode == WRITE_POLL)
    {
        p->qp->GetTransport()->WatchPlacement(MakeCallback(&RdmaPingPong::OnPlaced, this, p));
    }
    return p;
}

void
RdmaPingPong::StartApplication()
{
    m_running = true;
    m_rnic = GetNode()->GetObject<Rnic>();
    NS_ABORT_MSG_UNLESS(m_rnic, "RdmaPingPong needs an Rnic on its node (IwarpHelper::Install)");
    m_pd = m_rnic->AllocatePd();
    if (m_role == RDMA_ROLE_SERVER)
    {
        m_rnic->GetConnectionManager()->Listen(m_port, MakeCallback(&RdmaPingPong::OnRequest, this));
        return;
    }
    m_client = MakePeer();
    m_region = m_client->region;
    // Sockets are usable once the simulation runs; StartApplication is such an event.
    DoConnect();
}

void
RdmaPingPong::StopApplication()
{
    m_running = false;
}

void
RdmaPingPong::DoConnect()
{
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{m_client->region->GetStag(), m_client->region->GetBaseTo()}.Serialize(pd);
    m_rnic->GetConnectionManager()->Connect(m_client->qp, m_remote, pd,
                                            MakeCallback(&RdmaPingPong::OnConnected, this));
}

void
RdmaPingPong::OnRequest(Ptr<ConnectionRequest> req)
{
    Ptr<Peer> p = MakePeer();
    if (!p->remote.Deserialize(req->privateData))
    {
        NS_LOG_WARN("connection request without a buffer advertisement: rejected");
        m_rnic->GetConnectionManager()->Reject(req, {});
        return;
    }
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{p->region->GetStag(), p->region->GetBaseTo()}.Serialize(pd);
    m_rnic->GetConnectionManager()->Accept(req, p->qp, pd);
    m_peers.push_back(p);
    if (m_mode != WRITE_POLL) // WritePoll sends no Send: nothing to receive
    {
        // Two receives: the next request may arrive before the answer to this one completes.
        PostRecv(p);
        PostRecv(p);
    }
}

void
RdmaPingPong::OnConnected(Ptr<QueuePair>, bool accepted, const std::vector<uint8_t>& pd)
{
    if (!accepted || !m_client->remote.Deserialize(pd))
    {
        NS_LOG_WARN("connection refused or no buffer advertised");
        return;
    }
    m_connected = true;
    if (m_mode != WRITE_POLL)
    {
        PostRecv(m_client);
    }
    StartIteration();
}

void
RdmaPingPong::StartIteration()
{
    if (!m_running || m_done >= m_count)
    {
        return;
    }
    m_iterStart = Simulator::Now();
    m_postedTrace(m_done, m_size);
    PostMessage(m_client);
}

bool
RdmaPingPong::PostRecv(Ptr<Peer> p)
{
    return p->qp->PostRecv(m_nextWrId++, LocalBuffer{p->region->GetStag(), p->region->GetBaseTo(), m_size});
}

bool
RdmaPingPong::PostMessage(Ptr<Peer> p)
{
    const LocalBuffer all{p->region->GetStag(), p->region->GetBaseTo(), m_size};
    SendWr wr;
    wr.id = m_nextWrId++;
    if (m_mode == SEND)
    {
        wr.type = WrOpcode::Send;
        wr.local = all;
        return p->qp->PostSend(wr);
    }
    wr.type = WrOpcode::Write;
    wr.local = all;
    wr.remoteStag = p->remote.stag;
    wr.remoteTo = p->remote.to;
    if (m_mode == WRITE_POLL)
    {
        // The octet the peer polls changes with every message, as ib_write_lat's does.
        if (uint8_t* d = p->region->GetBuffer()->Data())
        {
            d[m_size - 1] = PollMarker(p->sent);
        }
        ++p->sent;
        return p->qp->PostSend(wr);
    }
    bool ok = p->qp->PostSend(wr);
    SendWr note; // the zero-length Send that orders after the Write's placement (RDMAP-059)
    note.id = m_nextWrId++;
    note.type = WrOpcode::Send;
    note.local = LocalBuffer{p->region->GetStag(), p->region->GetBaseTo(), 0};
    return p->qp->PostSend(note) && ok;
}

void
RdmaPingPong::OnCompletionThunk(RdmaPingPong* app, Ptr<Peer> peer, const WorkCompletion& c)
{
    app->OnCompletion(peer, c);
}

void
RdmaPingPong::OnCompletion(Ptr<Peer> p, const WorkCompletion& c)
{
    if (c.status != WcStatus::Success)
    {
        NS_LOG_WARN("completion " << ToString(c.type) << " failed: " << ToString(c.status));
        return;
    }
    if (!c.IsRecv())
    {
        return; // send-queue completions carry no latency information here
    }
    PostRecv(p); // replace the receive just consumed
    OnMessageArrived(p);
}

void
RdmaPingPong::OnPlaced(Ptr<Peer> p, uint32_t stag, uint64_t to, uint64_t payload)
{
    const uint64_t end = p->region->GetBaseTo() + m_size;
    if (stag != p->region->GetStag() || payload == 0 || to + payload != end)
    {
        return; // the polled octet is the buffer's last one; other segments change nothing it sees
    }
    if (const uint8_t* d = p->region->GetBuffer()->Data())
    {
        if (d[m_size - 1] != PollMarker(p->received))
        {
            NS_LOG_WARN("the last octet changed to " << unsigned(d[m_size - 1]) << ", not message "
                                                       << p->received << "'s marker");
            return;
        }
    }
    OnMessageArrived(p);
}

void
RdmaPingPong::OnMessageArrived(Ptr<Peer> p)
{
    if (m_role == RDMA_ROLE_SERVER)
    {
        m_deliveredTrace(p->received, m_size);
        ++p->received;
        ++m_received;
        PostMessage(p);
        return;
    }
    ++p->received;
    const Time half = (Simulator::Now() - m_iterStart) / 2;
    m_halfRtts.push_back(half);
    m_completedTrace(m_done, m_size, half);
    ++m_done;
    StartIteration();
}

} // namespace ns3
