#include "apps/rdma-collective.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCollective");
NS_OBJECT_ENSURE_REGISTERED(RdmaCollective);

namespace
{
constexpr uint8_t kSendRecvAccess = MemAccess::kLocalRead | MemAccess::kLocalWrite;
/** Receives are posted for this many iterations ahead of the one that runs, the one that runs included. */
constexpr uint32_t kIterationsPosted = 2;
} // namespace

TypeId
RdmaCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCollective")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<RdmaCollective>()
            .AddAttribute("Port", "The port every rank listens on and connects to", UintegerValue(9001),
                          MakeUintegerAccessor(&RdmaCollective::m_port), MakeUintegerChecker<uint16_t>())
            .AddAttribute("Iterations", "How many times the collective runs", UintegerValue(1),
                          MakeUintegerAccessor(&RdmaCollective::m_iterations), MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Gap",
                          "The time between the end of an iteration at a rank and its start of the next (the "
                          "compute between two collectives)",
                          TimeValue(Time(0)), MakeTimeAccessor(&RdmaCollective::m_gap), MakeTimeChecker(Time(0)))
            .AddTraceSource("Posted", "A Send was posted (message number, peer, octets)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_postedTrace),
                            "ns3::RdmaTraffic::MessageTracedCallback")
            .AddTraceSource("Completed",
                            "A Send completed at this end (message number, peer, octets, time since its post)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_completedTrace),
                            "ns3::RdmaTraffic::CompletedTracedCallback")
            .AddTraceSource("Failed", "A Send completed with an error (message number, peer, octets)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_failedTrace),
                            "ns3::RdmaTraffic::MessageTracedCallback")
            .AddTraceSource("QueuePair", "A queue pair this rank made, before it connects",
                            MakeTraceSourceAccessor(&RdmaCollective::m_queuePairTrace),
                            "ns3::Rnic::QpCreatedTracedCallback")
            .AddTraceSource("Ready", "Every connection this rank opens is up",
                            MakeTraceSourceAccessor(&RdmaCollective::m_readyTrace), "ns3::TracedCallback::Void")
            .AddTraceSource("StepPosted", "A step's Send was posted here (iteration, step)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_stepPostedTrace),
                            "ns3::RdmaCollective::StepTracedCallback")
            .AddTraceSource("StepDone", "Every receive of a step completed here (iteration, step)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_stepDoneTrace),
                            "ns3::RdmaCollective::StepTracedCallback")
            .AddTraceSource("Halted",
                            "The rank stopped for good: a Send or receive failed or was refused (iteration, why)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_haltedTrace),
                            "ns3::RdmaCollective::HaltedTracedCallback")
            .AddTraceSource("IterationDone", "An iteration ended at this rank (iteration, when it began here)",
                            MakeTraceSourceAccessor(&RdmaCollective::m_iterationTrace),
                            "ns3::RdmaCollective::IterationTracedCallback");
    return tid;
}

RdmaCollective::RdmaCollective()
    : m_port(9001),
      m_iterations(1)
{
}

void
RdmaCollective::Configure(uint32_t rank,
                          std::shared_ptr<const CollectiveSchedule> schedule,
                          std::vector<Ipv4Address> addresses)
{
    NS_ABORT_MSG_UNLESS(schedule && rank < schedule->ranks && addresses.size() == schedule->ranks,
                        "RdmaCollective: rank " << rank << " and " << addresses.size() << " addresses do not fit "
                                                << "the schedule");
    NS_ABORT_MSG_IF(schedule->MaxMessage() > UINT32_MAX, "RdmaCollective: a message above 2^32-1 octets");
    m_rank = rank;
    m_schedule = std::move(schedule);
    m_addresses = std::move(addresses);
    for (uint32_t r = 0; r < m_addresses.size(); ++r)
    {
        m_rankByAddress[m_addresses[r].Get()] = r;
    }
}

void
RdmaCollective::DoDispose()
{
    m_rnic = nullptr;
    m_pd = nullptr;
    m_region = nullptr;
    m_out.clear();
    m_in.clear();
    Application::DoDispose();
}

void
RdmaCollective::StartApplication()
{
    NS_ABORT_MSG_UNLESS(m_schedule, "RdmaCollective started before Configure");
    m_running = true;
    m_rnic = GetNode()->GetObject<Rnic>();
    NS_ABORT_MSG_UNLESS(m_rnic, "RdmaCollective needs an Rnic on its node (IwarpHelper::Install)");
    m_pd = m_rnic->AllocatePd();
    m_region = m_rnic->RegisterMemory(m_pd, m_schedule->MaxMessage(), kSendRecvAccess,
                                      MemoryRegistry::Backing::Virtual);
    m_rnic->GetConnectionManager()->Listen(m_port, MakeCallback(&RdmaCollective::OnRequest, this));
    for (const CollectiveSend& s : Program().sends)
    {
        if (m_out.count(s.to) == 0)
        {
            Outgoing& o = m_out[s.to];
            o.qp = MakeQp(false, s.to);
            m_rnic->GetConnectionManager()->Connect(
                o.qp, InetSocketAddress(m_addresses[s.to], m_port), {},
                MakeBoundCallback(+[](RdmaCollective* app, uint32_t peer, Ptr<QueuePair>, bool ok,
                                      const std::vector<uint8_t>&) { app->OnConnected(peer, ok); },
                                  this, s.to));
        }
    }
}

void
RdmaCollective::StopApplication()
{
    m_running = false;
}

Ptr<QueuePair>
RdmaCollective::MakeQp(bool incoming, uint32_t peer)
{
    Ptr<CompletionQueue> cq = m_rnic->CreateCq();
    Ptr<QueuePair> qp = m_rnic->CreateQp(m_pd, cq, cq);
    if (incoming)
    {
        qp->TraceConnectWithoutContext(
            "Completion", MakeBoundCallback(+[](RdmaCollective* app, uint32_t p, const WorkCompletion& c) {
                app->OnReceive(p, c);
            },
                                            this, peer));
    }
    else
    {
        qp->TraceConnectWithoutContext("Completion", MakeCallback(&RdmaCollective::OnSendCompletion, this));
    }
    m_queuePairTrace(qp);
    return qp;
}

bool
RdmaCollective::IsReady() const
{
    for (const auto& [peer, o] : m_out)
    {
        if (!o.connected)
        {
            return false;
        }
    }
    return m_running;
}

void
RdmaCollective::OnConnected(uint32_t peer, bool accepted)
{
    if (!accepted)
    {
        NS_LOG_WARN("rank " << m_rank << ": rank " << peer << " refused its connection: the collective cannot run");
        return;
    }
    m_out.at(peer).connected = true;
    if (IsReady())
    {
        m_readyTrace();
    }
}

void
RdmaCollective::OnRequest(Ptr<ConnectionRequest> req)
{
    const Ipv4Address from = InetSocketAddress::ConvertFrom(req->from).GetIpv4();
    auto rank = m_rankByAddress.find(from.Get());
    if (rank == m_rankByAddress.end() || m_in.count(rank->second) != 0)
    {
        NS_LOG_WARN("rank " << m_rank << ": a connection from " << from << ", no rank or one already connected, "
                            << "refused");
        m_rnic->GetConnectionManager()->Reject(req, {});
        return;
    }
    Incoming& in = m_in[rank->second];
    in.qp = MakeQp(true, rank->second);
    m_rnic->GetConnectionManager()->Accept(req, in.qp, {});
    for (uint32_t i = 0; i < std::min(kIterationsPosted, m_iterations); ++i)
    {
        PostReceives(rank->second, i);
    }
}

void
RdmaCollective::PostReceives(uint32_t peer, uint32_t iteration)
{
    Incoming& in = m_in.at(peer);
    const auto& receives = Program().receives;
    for (uint32_t i = 0; i < receives.size(); ++i)
    {
        if (receives[i].from == peer)
        {
            if (!in.qp->PostRecv(m_nextWrId++, LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(),
                                                            uint32_t(receives[i].octets)}))
            {
                Halt("its receive queue refused a receive for rank " + std::to_string(peer));
                return;
            }
            in.expected.emplace_back(iteration, i);
        }
    }
}

void
RdmaCollective::Begin()
{
    NS_ABORT_MSG_IF(m_begun, "RdmaCollective::Begin called twice");
    m_begun = true;
    StartIteration();
}

void
RdmaCollective::StartIteration()
{
    if (!m_running || m_halted)
    {
        return;
    }
    m_active = true;
    m_iterationBegun = Simulator::Now();
    m_nextSend = 0;
    m_receivesIn = 0;
    m_stepMissing.assign(m_schedule->steps, 0);
    for (const CollectiveReceive& r : Program().receives)
    {
        ++m_stepMissing.at(r.step);
    }
    std::vector<bool>& early = m_delivered[m_iteration];
    early.resize(Program().receives.size(), false);
    for (uint32_t i = 0; i < early.size(); ++i)
    {
        if (early[i])
        {
            Account(i); // delivered while this rank was still on the iteration before
        }
    }
    PostReady();
    EndIterationIfDone();
}

void
RdmaCollective::PostReady()
{
    const auto& sends = Program().sends;
    const std::vector<bool>& in = m_delivered[m_iteration];
    for (; m_running && m_active && m_nextSend < sends.size(); ++m_nextSend)
    {
        const CollectiveSend& s = sends[m_nextSend];
        for (uint32_t dep : s.after)
        {
            if (!in.at(dep))
            {
                return;
            }
        }
        SendWr wr;
        wr.id = m_nextWrId++;
        wr.type = WrOpcode::Send;
        wr.local = LocalBuffer{m_region->GetStag(), m_region->GetBaseTo(), uint32_t(s.octets)};
        const Message m{m_messages++, s.to, s.octets, Simulator::Now()};
        m_postedTrace(m.number, m_addresses[s.to], uint32_t(s.octets));
        m_stepPostedTrace(m_iteration, s.step);
        m_posted[wr.id] = m; // booked first: a zero-cost engine may complete it inside PostSend
        if (!m_out.at(s.to).qp->PostSend(wr))
        {
            m_posted.erase(wr.id);
            m_failedTrace(m.number, m_addresses[s.to], uint32_t(s.octets));
            Halt("PostSend to rank " + std::to_string(s.to) + " refused");
            return;
        }
    }
}

void
RdmaCollective::OnReceive(uint32_t peer, const WorkCompletion& c)
{
    if (!c.IsRecv())
    {
        return;
    }
    Incoming& in = m_in.at(peer);
    if (c.status != WcStatus::Success || in.expected.empty())
    {
        Halt("a receive from rank " + std::to_string(peer) + " ended " + ToString(c.status));
        return;
    }
    const auto [iteration, index] = in.expected.front();
    in.expected.pop_front();
    std::vector<bool>& delivered = m_delivered[iteration];
    delivered.resize(Program().receives.size(), false);
    delivered.at(index) = true;
    if (m_active && iteration == m_iteration)
    {
        Account(index);
        PostReady();
        EndIterationIfDone();
    }
}

void
RdmaCollective::Account(uint32_t index)
{
    ++m_receivesIn;
    const uint32_t step = Program().receives.at(index).step;
    if (--m_stepMissing.at(step) == 0)
    {
        m_stepDoneTrace(m_iteration, step);
    }
}

void
RdmaCollective::OnSendCompletion(const WorkCompletion& c)
{
    auto it = m_posted.find(c.id);
    if (it == m_posted.end())
    {
        return;
    }
    const Message m = it->second;
    m_posted.erase(it);
    if (c.status != WcStatus::Success)
    {
        m_failedTrace(m.number, m_addresses[m.to], uint32_t(m.octets));
        Halt("Send " + std::to_string(m.number) + " to rank " + std::to_string(m.to) + " ended " +
             ToString(c.status));
        return;
    }
    m_completedTrace(m.number, m_addresses[m.to], uint32_t(m.octets), Simulator::Now() - m.posted);
    EndIterationIfDone();
}

void
RdmaCollective::Halt(const std::string& why)
{
    if (m_halted)
    {
        return;
    }
    // The collective's data is incomplete from here on: this rank ends no iteration, and those waiting for
    // it wait for ever, as an application whose connection broke would (the run's records say what was lost).
    NS_LOG_WARN("rank " << m_rank << " halts in iteration " << m_iteration << ": " << why);
    m_halted = true;
    m_active = false;
    m_haltedTrace(m_iteration, why);
}

void
RdmaCollective::EndIterationIfDone()
{
    if (!m_active || m_nextSend < Program().sends.size() || !m_posted.empty() ||
        m_receivesIn < Program().receives.size())
    {
        return;
    }
    m_active = false;
    m_iterationTrace(m_iteration, m_iterationBegun);
    m_delivered.erase(m_iteration);
    const uint32_t ahead = m_iteration + kIterationsPosted;
    if (ahead < m_iterations)
    {
        for (auto& [peer, in] : m_in)
        {
            PostReceives(peer, ahead);
        }
    }
    if (++m_iteration < m_iterations)
    {
        Simulator::Schedule(m_gap, &RdmaCollective::StartIteration, this);
    }
}

} // namespace ns3
