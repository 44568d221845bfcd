#include "apps/rdma-stream.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaStream");
NS_OBJECT_ENSURE_REGISTERED(RdmaStream);

namespace
{
constexpr uint8_t kAllAccess =
    MemAccess::kLocalRead | MemAccess::kLocalWrite | MemAccess::kRemoteRead | MemAccess::kRemoteWrite;
} // namespace

TypeId
RdmaStream::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaStream")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<RdmaStream>()
            .AddAttribute("Role",
                          "Client (connects and moves data) or Server (listens and accepts)",
                          EnumValue(RDMA_ROLE_CLIENT),
                          MakeEnumAccessor(&RdmaStream::m_role),
                          MakeEnumChecker(RDMA_ROLE_CLIENT, "Client", RDMA_ROLE_SERVER, "Server"))
            .AddAttribute("Remote",
                          "The server's address (an InetSocketAddress; client only)",
                          AddressValue(),
                          MakeAddressAccessor(&RdmaStream::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Port",
                          "TCP port the server listens on",
                          UintegerValue(9001),
                          MakeUintegerAccessor(&RdmaStream::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Size",
                          "Octets per operation",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaStream::m_size),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Outstanding",
                          "Operations the client keeps in flight",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RdmaStream::m_outstanding),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Op",
                          "The operation: RDMA Write, Send or RDMA Read",
                          EnumValue(WRITE),
                          MakeEnumAccessor(&RdmaStream::m_op),
                          MakeEnumChecker(WRITE, "Write", SEND, "Send", READ, "Read"))
            .AddAttribute("TotalBytes",
                          "Octets to move (0: no limit, Duration ends the stream)",
                          UintegerValue(10 << 20),
                          MakeUintegerAccessor(&RdmaStream::m_totalBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Duration",
                          "Stop posting after this long from the first post (0: no limit)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaStream::m_duration),
                          MakeTimeChecker())
            .AddAttribute("Payload",
                          "Real: buffers hold octets; Virtual: sizes only",
                          EnumValue(RDMA_PAYLOAD_VIRTUAL),
                          MakeEnumAccessor(&RdmaStream::m_payload),
                          MakeEnumChecker(RDMA_PAYLOAD_REAL, "Real", RDMA_PAYLOAD_VIRTUAL, "Virtual"))
            .AddAttribute("ReceiveDepth",
                          "Receives the server keeps posted for a Send stream",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaStream::m_receiveDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxPeerRegion",
                          "Server: the largest buffer (Size x Outstanding octets) a client's request may "
                          "make this end register; a larger request is rejected (1 GiB by default: a "
                          "client's private data must not make the server allocate at will)",
                          UintegerValue(uint64_t(1) << 30),
                          MakeUintegerAccessor(&RdmaStream::m_maxPeerRegion),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Rejected",
                            "Server: a client's connection request was rejected (the reason)",
                            MakeTraceSourceAccessor(&RdmaStream::m_rejectedTrace),
                            "ns3::RdmaStream::RejectedTracedCallback")
            .AddTraceSource("Posted",
                            "An operation was posted (operation number, octets)",
                            MakeTraceSourceAccessor(&RdmaStream::m_postedTrace),
                            "ns3::RdmaStream::PostedTracedCallback")
            .AddTraceSource("Completed",
                            "An operation completed (operation number, octets, latency); at the "
                            "server, a Send was delivered",
                            MakeTraceSourceAccessor(&RdmaStream::m_completedTrace),
                            "ns3::RdmaStream::CompletedTracedCallback")
            .AddTraceSource("Finished",
                            "The stream finished at this end (bytes, completions, start, end)",
                            MakeTraceSourceAccessor(&RdmaStream::m_finishedTrace),
                            "ns3::RdmaStream::FinishedTracedCallback")
            .AddTraceSource("Failed",
                            "An operation completed with an error status (operation number, octets)",
                            MakeTraceSourceAccessor(&RdmaStream::m_failedTrace),
                            "ns3::RdmaStream::FailedTracedCallback")
            .AddTraceSource("QueuePair",
                            "A queue pair this application made for a connection, before it connects (the "
                            "client's one; a server's, one per accepted request): who owns a connection, "
                            "without inferring it from its ports",
                            MakeTraceSourceAccessor(&RdmaStream::m_queuePairTrace),
                            "ns3::Rnic::QpCreatedTracedCallback")
            .AddTraceSource("PostingEnded",
                            "The client posts no more: TotalBytes or Duration reached (operations, octets)",
                            MakeTraceSourceAccessor(&RdmaStream::m_postingEndedTrace),
                            "ns3::RdmaStream::PostingEndedTracedCallback");
    return tid;
}

RdmaStream::RdmaStream()
    : m_role(RDMA_ROLE_CLIENT),
      m_port(9001),
      m_size(65536),
      m_outstanding(8),
      m_op(WRITE),
      m_totalBytes(10 << 20),
      m_payload(RDMA_PAYLOAD_VIRTUAL),
      m_receiveDepth(4096)
{
}

void
RdmaStream::DoDispose()
{
    m_rnic = nullptr;
    m_pd = nullptr;
    m_region = nullptr;
    m_qp = nullptr;
    m_serverQps.clear();
    Application::DoDispose();
}

uint64_t
RdmaStream::GetBytes() const
{
    if (m_role == RDMA_ROLE_SERVER && m_op == WRITE && m_region)
    {
        return m_region->GetBuffer()->GetBytesWritten();
    }
    return m_bytes;
}

DataRate
RdmaStream::GetThroughput() const
{
    if (!m_finished || m_end <= m_start)
    {
        return DataRate(0);
    }
    return DataRate(uint64_t(double(GetBytes()) * 8.0 / (m_end - m_start).GetSeconds()));
}

Ptr<MemoryRegion>
RdmaStream::Register(uint64_t length)
{
    const auto backing = m_payload == RDMA_PAYLOAD_REAL ? MemoryRegistry::Backing::Real
                                                        : MemoryRegistry::Backing::Virtual;
    Ptr<MemoryRegion> mr = m_rnic->RegisterMemory(m_pd, length, kAllAccess, backing);
    if (uint8_t* d = mr->GetBuffer()->Data())
    {
        const uint8_t seed = m_role == RDMA_ROLE_CLIENT ? 0x5a : 0xc3;
        for (uint64_t i = 0; i < length; ++i)
        {
            d[i] = uint8_t(seed + i * 31 + (i >> 8));
        }
    }
    return mr;
}

Ptr<QueuePair>
RdmaStream::MakeQp()
{
    Ptr<CompletionQueue> cq = m_rnic->CreateCq();
    Ptr<QueuePair> qp = m_rnic->CreateQp(m_pd, cq, cq);
    qp->TraceConnectWithoutContext(
        "Completion", MakeBoundCallback(&RdmaStream::OnCompletionThunk, this, qp));
    m_queuePairTrace(qp);
    return qp;
}

void
RdmaStream::StartApplication()
{
    m_running = true;
    m_rnic = GetNode()->GetObject<Rnic>();
    NS_ABORT_MSG_UNLESS(m_rnic, "RdmaStream needs an Rnic on its node (IwarpHelper::Install)");
    m_pd = m_rnic->AllocatePd();
    if (m_op == READ)
    {
        // Read Requests beyond ORD wait in the send queue; that is fine, but say so.
        NS_LOG_INFO("Read stream: at most ORD Reads are on the wire at once");
    }
    if (m_role == RDMA_ROLE_SERVER)
    {
        m_rnic->GetConnectionManager()->Listen(m_port, MakeCallback(&RdmaStream::OnRequest, this));
        return;
    }
    m_region = Register(uint64_t(m_size) * m_outstanding);
    m_qp = MakeQp();
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{m_region->GetStag(), m_region->GetBaseTo()}.Serialize(pd);
    AppendBe32(pd, m_size);
    AppendBe32(pd, m_outstanding);
    AppendBe32(pd, uint32_t(m_op));
    m_rnic->GetConnectionManager()->Connect(m_qp, m_remote, pd,
                                            MakeCallback(&RdmaStream::OnConnected, this));
}

void
RdmaStream::StopApplication()
{
    m_running = false;
}

void
RdmaStream::OnRequest(Ptr<ConnectionRequest> req)
{
    RdmaBufferAdvert peer;
    auto reject = [this, &req](const std::string& reason) {
        NS_LOG_WARN("stream request rejected: " << reason);
        m_rejectedTrace(reason);
        m_rnic->GetConnectionManager()->Reject(req, {});
    };
    if (!peer.Deserialize(req->privateData) || req->privateData.size() < RdmaBufferAdvert::kSize + 12)
    {
        reject("private data too short for a stream's parameters");
        return;
    }
    // The client's shape wins over this end's attributes, once it is known to be sane: the
    // octets come from the peer, so nothing in them may divide by zero, name an operation
    // that does not exist or make this end allocate without bound.
    const uint32_t size = ReadBe32(req->privateData, RdmaBufferAdvert::kSize);
    const uint32_t outstanding = ReadBe32(req->privateData, RdmaBufferAdvert::kSize + 4);
    const uint32_t op = ReadBe32(req->privateData, RdmaBufferAdvert::kSize + 8);
    const std::string problem = CheckPeerShape(size, outstanding, op, m_maxPeerRegion);
    if (!problem.empty())
    {
        reject(problem);
        return;
    }
    m_size = size;
    m_outstanding = outstanding;
    m_op = Op(op);
    m_region = Register(uint64_t(m_size) * m_outstanding);
    Ptr<QueuePair> qp = MakeQp();
    m_serverQps.push_back(qp);
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{m_region->GetStag(), m_region->GetBaseTo()}.Serialize(pd);
    m_rnic->GetConnectionManager()->Accept(req, qp, pd);
    const uint32_t depth = m_op == SEND ? m_receiveDepth : 2;
    for (uint32_t i = 0; i < depth; ++i)
    {
        const uint64_t slot = i % m_outstanding;
        qp->PostRecv(m_nextWrId++, LocalBuffer{m_region->GetStag(), m_region->GetBaseTo() + slot * m_size, m_size});
    }
}

std::string
RdmaStream::CheckPeerShape(uint32_t size, uint32_t outstanding, uint32_t op, uint64_t maxRegion)
{
    std::ostringstream why;
    if (size == 0)
    {
        why << "Size 0";
    }
    else if (outstanding == 0)
    {
        why << "Outstanding 0";
    }
    else if (op > uint32_t(READ))
    {
        why << "Op " << op << " is none of Write (0), Send (1), Read (2)";
    }
    else if (uint64_t(size) * outstanding > maxRegion)
    {
        why << "Size x Outstanding = " << uint64_t(size) * outstanding << " octets exceeds MaxPeerRegion "
            << maxRegion;
    }
    return why.str();
}

void
RdmaStream::OnConnected(Ptr<QueuePair>, bool accepted, const std::vector<uint8_t>& pd)
{
    if (!accepted || !m_remoteBuf.Deserialize(pd))
    {
        NS_LOG_WARN("stream connection refused or no buffer advertised");
        return;
    }
    // One receive for the server's answer to the fin.
    m_qp->PostRecv(m_nextWrId++, LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(), m_size});
    m_start = Simulator::Now();
    Fill();
}

bool
RdmaStream::MorePosts() const
{
    if (!m_running)
    {
        return false;
    }
    if (m_totalBytes > 0 && m_postedBytes >= m_totalBytes)
    {
        return false;
    }
    if (!m_duration.IsZero() && Simulator::Now() - m_start >= m_duration)
    {
        return false;
    }
    return m_totalBytes > 0 || !m_duration.IsZero();
}

void
RdmaStream::Fill()
{
    while (m_inFlight < m_outstanding && MorePosts())
    {
        PostOne();
    }
    if (m_inFlight == 0 && !MorePosts() && !m_finSent)
    {
        m_finSent = true;
        if (m_running)
        {
            m_postingEndedTrace(m_posted, m_postedBytes); // not when the application was stopped
        }
        PostZeroSend(m_qp);
    }
}

void
RdmaStream::PostOne()
{
    uint32_t len = m_size;
    if (m_totalBytes > 0 && m_totalBytes - m_postedBytes < len)
    {
        len = uint32_t(m_totalBytes - m_postedBytes);
    }
    const uint64_t slot = m_posted % m_outstanding;
    SendWr wr;
    wr.id = m_nextWrId++;
    wr.local = LocalBuffer{m_region->GetStag(), m_region->GetBaseTo() + slot * m_size, len};
    wr.remoteStag = m_remoteBuf.stag;
    wr.remoteTo = m_remoteBuf.to + slot * m_size;
    wr.type = m_op == WRITE ? WrOpcode::Write : m_op == SEND ? WrOpcode::Send : WrOpcode::Read;
    // Book the post before making it: with a zero-cost engine the Write can complete (and this
    // app's completion handler run) before PostSend returns.
    m_postTimes[wr.id] = PostedOp{m_posted, len, Simulator::Now()};
    m_postedTrace(m_posted, len);
    ++m_posted;
    m_postedBytes += len;
    ++m_inFlight;
    if (!m_qp->PostSend(wr))
    {
        NS_LOG_WARN("PostSend refused; stream stops");
        m_postTimes.erase(wr.id);
        --m_posted;
        m_postedBytes -= len;
        --m_inFlight;
        m_running = false;
    }
}

void
RdmaStream::PostZeroSend(Ptr<QueuePair> qp)
{
    SendWr wr;
    wr.id = m_nextWrId++;
    wr.type = WrOpcode::Send;
    wr.local = LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(), 0};
    qp->PostSend(wr);
}

void
RdmaStream::Finish()
{
    m_finished = true;
    m_end = Simulator::Now();
    m_finishedTrace(GetBytes(), m_completions, m_start, m_end);
}

void
RdmaStream::OnCompletionThunk(RdmaStream* app, Ptr<QueuePair> qp, const WorkCompletion& c)
{
    app->OnCompletion(qp, c);
}

void
RdmaStream::OnCompletion(Ptr<QueuePair> qp, const WorkCompletion& c)
{
    if (c.status != WcStatus::Success)
    {
        NS_LOG_WARN("completion " << ToString(c.type) << " failed: " << ToString(c.status));
        auto it = m_postTimes.find(c.id);
        if (m_role == RDMA_ROLE_CLIENT && it != m_postTimes.end())
        {
            m_failedTrace(it->second.number, it->second.size);
            m_postTimes.erase(it);
        }
        return;
    }
    if (m_role == RDMA_ROLE_SERVER)
    {
        if (!c.IsRecv())
        {
            return;
        }
        if (c.byteLength == 0) // the fin: every Write before it has been placed
        {
            if (m_completions == 0 && m_op != SEND)
            {
                m_start = Time(0);
            }
            Finish();
            PostZeroSend(qp);
            return;
        }
        if (m_completions == 0)
        {
            m_start = Simulator::Now();
        }
        m_bytes += c.byteLength;
        m_completedTrace(m_completions, uint32_t(c.byteLength), Time(0));
        ++m_completions;
        // Re-post the buffer just consumed (slots rotate with the client's).
        const uint64_t slot = (m_completions - 1) % m_outstanding;
        qp->PostRecv(m_nextWrId++, LocalBuffer{m_region->GetStag(), m_region->GetBaseTo() + slot * m_size, m_size});
        return;
    }
    if (c.IsRecv())
    {
        Finish(); // the server's answer to the fin
        return;
    }
    auto it = m_postTimes.find(c.id);
    if (it == m_postTimes.end())
    {
        return; // the fin's own send completion
    }
    m_completedTrace(it->second.number, uint32_t(c.byteLength), Simulator::Now() - it->second.time);
    m_postTimes.erase(it);
    m_bytes += c.byteLength;
    ++m_completions;
    --m_inFlight;
    Fill();
}

} // namespace ns3
