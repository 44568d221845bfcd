#include "helper/scenario/scenario-workloads.h"

#include "helper/scenario/data-flows.h"
#include "helper/scenario/listening-ports.h"
#include "helper/scenario/scenario-error.h"

#include "helper/rdma-app-helper.h"
#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/socket-defaults.h"
#include "helper/sctp-helper.h"
#include "helper/socket-app-helper.h"

#include "apps/rdma-ping-pong.h"
#include "apps/rdma-stream.h"
#include "apps/socket-ping-pong.h"
#include "apps/socket-stream.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioWorkloads");

namespace
{

const char*
OpName(RdmaOp op)
{
    return op == RdmaOp::Write ? "Write" : op == RdmaOp::Send ? "Send" : "Read";
}

} // namespace

std::string
OpLabel(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.opLabel)
    {
        return kind.opLabel(w);
    }
    return w.poll ? "write-poll" : ToString(w.op);
}

class ScenarioWorkloads::Site : public WorkloadSite
{
  public:
    Site(ScenarioWorkloads& owner, Workload& w)
        : m_owner(owner),
          m_w(w)
    {
    }

    const WorkloadConfig& Config() const override { return *m_w.cfg; }
    Ptr<Node> GetNode(const std::string& name) const override { return m_owner.m_topo.GetNode(name); }
    Ipv4Address GetHostAddress(const std::string& host) const override { return m_owner.m_topo.GetHostAddress(host); }
    Time StartDelay() const override { return Delay(m_w.start); }
    uint16_t Port() const override { return m_w.port; }
    void SizeSockets(const std::string& node, Time start) override { m_owner.SizeSockets(m_w, node, start); }
    void AddApplications(const ApplicationContainer& apps, uint32_t connections) override
    {
        m_owner.Adopt(m_w, apps);
        m_w.connections.attempted += connections;
    }
    void FollowStreamClient(Ptr<Application> app, const std::string& sender) override
    {
        m_owner.FollowStreamClient(m_w, app, sender);
    }
    void InstallRdmaStreams() override { m_owner.InstallRdma(m_w); }
    void InstallPingPongs() override { m_owner.InstallPingPongChain(m_w, 0, m_w.start); }
    void InstallSocketsStream() override { m_owner.InstallSockets(m_w); }
    void InstallInject() override { m_owner.InstallInject(m_w); }
    void InstallTraffic() override { m_owner.InstallTraffic(m_w); }
    void InstallCollective() override { m_owner.InstallCollective(m_w); }

  private:
    ScenarioWorkloads& m_owner;
    Workload& m_w;
};

ScenarioWorkloads::ScenarioWorkloads(const ScenarioConfig& cfg, const BuiltTopology& topo)
    : m_cfg(cfg),
      m_topo(topo)
{
    // Every address of a multi-homed host names it, not only the primary workloads connect to.
    for (const std::string& host : topo.hostNames)
    {
        for (Ipv4Address a : topo.GetHostAddresses(host))
        {
            m_hostByAddress[a.Get()] = host;
        }
    }
    m_ownSegmentSize = ScenarioDefault(cfg, "ns3::TcpSocket::SegmentSize").has_value();
    m_ownPmtu = ScenarioDefault(cfg, "ns3::SctpSocket::Pmtu").has_value();
}

ScenarioWorkloads::~ScenarioWorkloads() = default;

void
ScenarioWorkloads::Install()
{
    for (const std::string& h : m_topo.hostNames)
    {
        HookRnic(h);
    }
    const ListeningPortPlan ports = PlanListeningPorts(m_cfg.workloads);
    if (ports.overflowAt)
    {
        // ScenarioReader::CheckListeningPorts refuses such a scenario when it is read; a
        // configuration built in code reaches this.
        const std::size_t i = *ports.overflowAt;
        throw ScenarioError(m_cfg.sourceFile.empty() ? "<string>" : m_cfg.sourceFile, 0, 0,
                            "workloads." + std::to_string(i), ListeningPortsExhausted(ports));
    }
    for (std::size_t i = 0; i < m_cfg.workloads.size(); ++i)
    {
        auto w = std::make_unique<Workload>();
        w->cfg = &m_cfg.workloads[i];
        w->kind = &Describe(w->cfg->kind);
        w->index = i;
        w->port = ports.firstPort[i];
        w->sinkNode = DataSinkOf(*w->cfg);
        w->deliveryPoint = DeliveryPointOf(*w->cfg);
        m_workloads.push_back(std::move(w));
    }
    bool anySctp = false;
    for (auto& w : m_workloads)
    {
        anySctp = anySctp || CarrierOf(*w->cfg).carrier == LlpCarrier::Sctp;
    }
    if (anySctp)
    {
        SctpHelper().Install(m_topo.hosts);
    }
    for (auto& w : m_workloads)
    {
        w->progress.injected = IsInject(w->cfg->kind);
        if (w->cfg->after.empty())
        {
            w->start = w->cfg->start;
            InstallWorkload(*w);
        }
    }
}

void
ScenarioWorkloads::InstallWorkload(Workload& w)
{
    w.installed = true;
    ChooseLlp(w);
    Site site(*this, w);
    w.kind->install(site);
}

void
ScenarioWorkloads::Adopt(Workload& w, const ApplicationContainer& apps)
{
    w.apps.Add(apps);
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        // Only the RDMA applications have the trace: the sockets baseline has no queue pairs.
        (*it)->TraceConnectWithoutContext(
            "QueuePair",
            MakeBoundCallback(
                +[](ScenarioWorkloads* self, Workload* wl, Ptr<QueuePair> qp) { self->m_qpOwner[qp] = wl; },
                this,
                &w));
    }
}

ScenarioWorkloads::Flow&
ScenarioWorkloads::FlowOf(Workload& w, const std::string& sender, const std::string& receiver)
{
    // Looked up before inserting: every message's post, completion and delivery comes here, and an emplace
    // would allocate a map node each time only to drop it.
    auto key = std::make_pair(sender, receiver);
    auto it = w.flowIndex.find(key);
    if (it != w.flowIndex.end())
    {
        return w.flows[it->second];
    }
    w.flowIndex.emplace(std::move(key), w.flows.size());
    w.flows.push_back(Flow{});
    w.flows.back().sender = sender;
    w.flows.back().receiver = HostOfFlowKey(receiver);
    return w.flows.back();
}

void
ScenarioWorkloads::Posted(Workload& w, const std::string& sender, uint64_t id, uint64_t size,
                          const std::string& receiver)
{
    Flow& f = FlowOf(w, sender, receiver);
    MessageRecord r;
    r.workload = w.kind->manySenders ? w.cfg->name + ":" + sender : w.cfg->name;
    // A host group's hosts number their messages each from 0: the workload numbers its flows in arrival order.
    r.id = w.kind->hostGroup ? w.nextMessageId++ : id;
    r.op = OpLabel(*w.cfg);
    r.size = size;
    r.post = Simulator::Now();
    r.sender = sender;
    r.receiver = HostOfFlowKey(receiver);
    f.byId[id] = f.messages.size();
    f.messages.push_back(r);
    ++w.progress.posted;
    NoteProgress(w);
}

MessageRecord*
ScenarioWorkloads::Find(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver)
{
    Flow& f = FlowOf(w, sender, receiver);
    auto it = f.byId.find(id);
    return it == f.byId.end() ? nullptr : &f.messages[it->second];
}

void
ScenarioWorkloads::Completed(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver)
{
    if (MessageRecord* r = Find(w, sender, id, receiver))
    {
        r->completed = Simulator::Now();
        ++w.progress.completed;
        if (w.deliveryPoint == DeliveryPoint::RequesterCompletion)
        {
            r->delivered = r->completed; // a Read's data sink is its requester: delivered at its completion
            ++w.progress.delivered;
        }
        NoteProgress(w);
    }
}

void
ScenarioWorkloads::Delivered(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver)
{
    if (MessageRecord* r = Find(w, sender, id, receiver))
    {
        r->delivered = Simulator::Now();
        NoteDelivered(w, sender);
    }
}

void
ScenarioWorkloads::FirstOctet(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver)
{
    if (MessageRecord* r = Find(w, sender, id, receiver))
    {
        r->firstPlaced = Simulator::Now();
    }
}

void
ScenarioWorkloads::Failed(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver)
{
    if (MessageRecord* r = Find(w, sender, id, receiver))
    {
        r->failed = true;
        NoteFlowEnded(w, sender, false);
    }
}

// ------------------------------------------------------------------------------ RDMA workloads

void
ScenarioWorkloads::InstallRdma(Workload& w)
{
    const WorkloadConfig& c = *w.cfg;
    RdmaStreamHelper server(RDMA_ROLE_SERVER, w.port);
    server.SetAttribute("Payload", StringValue(c.payload == PayloadMode::Real ? "Real" : "Virtual"));
    server.SetAttribute("Size", UintegerValue(c.size));
    server.SetAttribute("Outstanding", UintegerValue(c.outstanding));
    SizeSockets(w, c.to, w.start);
    ApplicationContainer s = server.Install(m_topo.GetNode(c.to));
    s.Start(Delay(w.start));
    Adopt(w, s);
    const std::vector<std::string> senders = w.kind->manySenders ? c.senders : std::vector<std::string>{c.from};
    for (const std::string& sender : senders)
    {
        RdmaStreamHelper client(RDMA_ROLE_CLIENT, w.port, InetSocketAddress(m_topo.GetHostAddress(c.to), w.port));
        client.SetAttribute("Op", StringValue(OpName(c.op))); // kind read: op is read
        client.SetAttribute("Size", UintegerValue(c.size));
        client.SetAttribute("Outstanding", UintegerValue(c.outstanding));
        client.SetAttribute("Payload", StringValue(c.payload == PayloadMode::Real ? "Real" : "Virtual"));
        // TotalBytes has a default of its own (10 MiB): always set it, 0 (no limit) for a stream
        // that `duration` alone ends, or the stream would stop there silently.
        client.SetAttribute("TotalBytes", UintegerValue(c.count ? *c.count * c.size : 0));
        client.SetAttribute("Duration", TimeValue(c.duration.value_or(Time(0))));
        SizeSockets(w, sender, w.start);
        ApplicationContainer a = client.Install(m_topo.GetNode(sender));
        ++w.connections.attempted;
        a.Start(Delay(w.start));
        Adopt(w, a);
        FollowStreamClient(w, a.Get(0), sender);
    }
}

void
ScenarioWorkloads::FollowStreamClient(Workload& w, Ptr<Application> app, const std::string& sender)
{
    FlowOf(w, sender);
    app->TraceConnectWithoutContext(
        "Posted",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t op, uint32_t size) {
            self->Posted(*wl, snd, op, size);
        },
                          this, &w, sender));
    app->TraceConnectWithoutContext(
        "Completed",
        MakeBoundCallback(
            +[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t op, uint32_t, Time) {
                self->Completed(*wl, snd, op);
            },
            this, &w, sender));
    app->TraceConnectWithoutContext(
        "Failed",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t op, uint32_t) {
            self->Failed(*wl, snd, op);
        },
                          this, &w, sender));
    app->TraceConnectWithoutContext(
        "PostingEnded",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t, uint64_t) {
            ++wl->postingEnded;
            self->NoteProgress(*wl);
        },
                          this, &w));
}

void
ScenarioWorkloads::InstallPingPongChain(Workload& w, std::size_t sizeIndex, Time start)
{
    const WorkloadConfig& c = *w.cfg;
    const std::vector<uint64_t> sizes = c.sizes.empty() ? std::vector<uint64_t>{c.size} : c.sizes;
    if (sizeIndex >= sizes.size())
    {
        return;
    }
    const uint16_t port = uint16_t(w.port + sizeIndex);
    const uint32_t count = uint32_t(c.count.value_or(1));
    const bool sockets = w.kind->family == WorkloadFamily::Sockets;
    auto [s, a] = InstallPingPongApps(w, sizes[sizeIndex], port, count, start);
    ++w.connections.attempted; // each size has a connection of its own
    if (sockets)
    {
        FollowSocketsClient(w, a.Get(0));
    }
    // Installed while the simulation runs (sizes after the first): start times count from now.
    const Time delay = start > Simulator::Now() ? start - Simulator::Now() : Time(0);
    s.Start(delay);
    a.Start(delay);
    Adopt(w, s);
    Adopt(w, a);
    FollowPingPong(w, s, a, sizeIndex, count);
}

std::pair<ApplicationContainer, ApplicationContainer>
ScenarioWorkloads::InstallPingPongApps(Workload& w, uint64_t size, uint16_t port, uint32_t count, Time start)
{
    const WorkloadConfig& c = *w.cfg;
    ApplicationContainer s;
    ApplicationContainer a;
    const Address remote = InetSocketAddress(m_topo.GetHostAddress(c.to), port);
    if (w.kind->family == WorkloadFamily::Sockets)
    {
        SocketPingPongHelper server(SOCKET_ROLE_SERVER, port);
        server.SetAttribute("Size", UintegerValue(size));
        SocketPingPongHelper client(SOCKET_ROLE_CLIENT, port, remote);
        client.SetAttribute("Size", UintegerValue(size));
        client.SetAttribute("Count", UintegerValue(count));
        SizeSockets(w, c.to, start);
        s = server.Install(m_topo.GetNode(c.to));
        SizeSockets(w, c.from, start);
        a = client.Install(m_topo.GetNode(c.from));
    }
    else
    {
        RdmaPingPongHelper server(RDMA_ROLE_SERVER, port);
        RdmaPingPongHelper client(RDMA_ROLE_CLIENT, port, remote);
        for (RdmaPingPongHelper* h : {&server, &client})
        {
            h->SetAttribute("Size", UintegerValue(size));
            h->SetAttribute("Mode", StringValue(c.poll ? "WritePoll" : OpName(c.op)));
            h->SetAttribute("Payload", StringValue(c.payload == PayloadMode::Real ? "Real" : "Virtual"));
        }
        client.SetAttribute("Count", UintegerValue(count));
        SizeSockets(w, c.to, start);
        s = server.Install(m_topo.GetNode(c.to));
        SizeSockets(w, c.from, start);
        a = client.Install(m_topo.GetNode(c.from));
    }
    return {s, a};
}

void
ScenarioWorkloads::FollowPingPong(Workload& w,
                                  const ApplicationContainer& server,
                                  const ApplicationContainer& client,
                                  std::size_t sizeIndex,
                                  uint32_t count)
{
    const std::string sender = w.cfg->from;
    FlowOf(w, sender);
    Ptr<Application> app = client.Get(0);
    const uint64_t idBase = w.nextMessageId;
    w.nextMessageId += count;
    app->TraceConnectWithoutContext(
        "Posted",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t base, uint32_t it, uint32_t size) {
            self->Posted(*wl, wl->cfg->from, base + it, size);
        },
                          this, &w, idBase));
    app->TraceConnectWithoutContext(
        "Completed",
        MakeBoundCallback(
            +[](ScenarioWorkloads* self, Workload* wl, uint64_t base, std::size_t idx, uint32_t n, uint32_t it,
                uint32_t size, Time halfRtt) {
                self->Completed(*wl, wl->cfg->from, base + it);
                wl->halfRttNs[size].push_back(double(halfRtt.GetNanoSeconds()));
                if (it + 1 == n)
                {
                    // The next size of the sweep starts once this one is done (one at a time, so
                    // that they never share the link).
                    Simulator::ScheduleNow([self, wl, idx]() {
                        self->InstallPingPongChain(*wl, idx + 1, Simulator::Now() + MicroSeconds(1));
                    });
                }
            },
            this, &w, idBase, sizeIndex, count));
    if (w.kind->family == WorkloadFamily::Sockets)
    {
        // The sockets baseline's ping reaches the server's user here (RDMA pings: the sink QP's probes).
        server.Get(0)->TraceConnectWithoutContext(
            "Delivered",
            MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t base, uint32_t m, uint32_t) {
                self->Delivered(*wl, wl->cfg->from, base + m);
            },
                              this, &w, idBase));
    }
}

// --------------------------------------------------------------------------- sockets baseline

void
ScenarioWorkloads::InstallSockets(Workload& w)
{
    const WorkloadConfig& c = *w.cfg;
    SocketStreamHelper server(SOCKET_ROLE_SERVER, w.port);
    server.SetAttribute("Size", UintegerValue(c.size));
    SocketStreamHelper client(SOCKET_ROLE_CLIENT, w.port, InetSocketAddress(m_topo.GetHostAddress(c.to), w.port));
    client.SetAttribute("Size", UintegerValue(c.size));
    client.SetAttribute("TotalBytes", UintegerValue(c.count ? *c.count * c.size : 0)); // as for RDMA streams
    client.SetAttribute("Duration", TimeValue(c.duration.value_or(Time(0))));
    client.SetAttribute("ZeroCopySend", BooleanValue(c.zeroCopy));
    SizeSockets(w, c.to, w.start);
    ApplicationContainer s = server.Install(m_topo.GetNode(c.to));
    SizeSockets(w, c.from, w.start);
    ApplicationContainer a = client.Install(m_topo.GetNode(c.from));
    ++w.connections.attempted;
    s.Start(Delay(w.start));
    a.Start(Delay(w.start));
    Adopt(w, s);
    Adopt(w, a);
    FlowOf(w, c.from);
    FollowSocketsClient(w, a.Get(0));
    a.Get(0)->TraceConnectWithoutContext(
        "Posted",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t m, uint32_t size) {
            self->Posted(*wl, wl->cfg->from, m, size);
        },
                          this, &w));
    s.Get(0)->TraceConnectWithoutContext(
        "Delivered",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t m, uint32_t, Time) {
            self->Delivered(*wl, wl->cfg->from, m);
        },
                          this, &w));
    s.Get(0)->TraceConnectWithoutContext(
        "FirstOctet", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t m) {
            self->FirstOctet(*wl, wl->cfg->from, m);
        },
                                        this, &w));
    a.Get(0)->TraceConnectWithoutContext(
        "PostingEnded", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, uint64_t, uint64_t) {
            ++wl->postingEnded;
            self->NoteProgress(*wl);
        },
                          this, &w));
}

// ------------------------------------------------------------------------------------- inject

void
ScenarioWorkloads::InstallInject(Workload& w)
{
    const InjectConfig& in = *w.cfg->inject;
    Workload* target = m_workloads.at(in.targetIndex).get();
    Simulator::Schedule(in.at, &ScenarioWorkloads::TryInject, this, &w, target, BuildInjectedSegment(in), in.at);
}

void
ScenarioWorkloads::TryInject(Workload* w, Workload* target, std::vector<uint8_t> bytes, Time posted)
{
    const InjectConfig& in = *w->cfg->inject;
    auto it = target->qpByEnds.find({in.from, in.to});
    const Ptr<DdpLowerLayer> llp =
        it == target->qpByEnds.end() ? nullptr : IwarpTransport::Of(it->second, "inject")->GetLlp();
    if (!llp)
    {
        std::cerr << "iwarp-sim: inject '" << w->cfg->name << "' at " << in.at.As(Time::US) << ": workload '"
                  << target->cfg->name << "' has no connection between " << in.from << " and " << in.to
                  << " yet; nothing injected\n";
        return;
    }
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    if (!llp->SendSegment(p))
    {
        // The LLP has no room now (the target's own traffic fills the send buffer): try again
        // shortly.  DDP owns the LLP's SendReady callback, so poll; the segment goes out between
        // two of the target's segments, as its own FPDU.
        Simulator::Schedule(MicroSeconds(1), &ScenarioWorkloads::TryInject, this, w, target, std::move(bytes),
                            posted);
        return;
    }
    Flow& f = FlowOf(*w, in.from);
    MessageRecord r;
    r.workload = w->cfg->name;
    r.id = f.messages.size();
    r.op = "inject";
    r.size = bytes.size();
    r.post = posted;
    r.completed = Simulator::Now(); // the LLP took it (status "injected"; not a data message)
    r.sender = in.from;
    f.messages.push_back(r);
    ++w->progress.posted;
    ++w->progress.completed;
    NoteProgress(*w);
}

// ------------------------------------------------------------------------------------- the LLP

void
ScenarioWorkloads::SizeSockets(const Workload& w, const std::string& node, Time start)
{
    const WorkloadConfig& c = *w.cfg;
    const uint32_t mtu = PathMtuAt(c, node);
    const bool sctp = CarrierOf(c).carrier == LlpCarrier::Sctp;
    const bool tcp = CarrierOf(c).carrier == LlpCarrier::Tcp;
    // The loader has checked these against the LLP's minimum (and a size the scenario sets itself
    // against the paths); SCTP's Pmtu is set only for SCTP, whose minimum is above its checker's.
    const uint32_t segmentSize = !tcp || m_ownSegmentSize ? 0 : TcpSegmentSizeFor(mtu);
    const uint32_t pmtu = !sctp || m_ownPmtu ? 0 : mtu;
    InstallSocketDefaults(m_topo.GetNode(node), segmentSize, pmtu, start);
}

void
ScenarioWorkloads::ChooseLlp(Workload& w)
{
    const WorkloadConfig& c = *w.cfg;
    if (w.kind->family != WorkloadFamily::Rdma)
    {
        return;
    }
    // The connection manager picks the LLP when its application listens or connects, which is at
    // the workload's start: set it on both ends just before (an event scheduled now runs ahead of
    // the applications' start events at the same time).
    const std::vector<std::string> nodes = HostsOf(c);
    const std::string connector = c.llp->connector;
    for (const std::string& n : nodes)
    {
        Ptr<Rnic> rnic = m_topo.GetNode(n)->GetObject<Rnic>();
        Simulator::Schedule(Delay(w.start), [rnic, connector]() {
            rnic->GetConnectionManager()->SetAttribute("LlpConnector", StringValue(connector));
        });
    }
}


} // namespace ns3
