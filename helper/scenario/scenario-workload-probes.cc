/*
 * ScenarioWorkloads, the probes and the results: which workload each queue pair belongs to (its
 * application reports it), the sink's placement and delivery records, TCP retransmissions,
 * Terminates, and the RunResult rows they become. The applications are in scenario-workloads.cc.
 */
#include "helper/scenario/data-flows.h"
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/workload-metrics.h"

#include "apps/rdma-collective.h"
#include "apps/rdma-traffic.h"
#include "rnic/iwarp-transport.h"
#include "rnic/roce-transport.h"
#include "rnic/rnic.h"
#include "sctp/sctp-socket.h"

#include "ns3/inet-socket-address.h"
#include "ns3/simulator.h"

namespace ns3
{

namespace
{

/** Terminate layers and error types by name (RFC 5040 §4.8, RFC 5041 §7.2). */
void
DescribeCause(const iwarp::ErrorCause& c, TerminateRecord* t)
{
    static const char* const kRdmap[] = {"local catastrophic", "remote protection", "remote operation"};
    static const char* const kDdp[] = {"catastrophic", "tagged buffer", "untagged buffer", "rsvd"};
    switch (c.layer)
    {
    case 0:
        t->layer = "rdmap";
        t->type = c.etype < 3 ? kRdmap[c.etype] : "reserved";
        break;
    case 1:
        t->layer = "ddp";
        t->type = c.etype < 4 ? kDdp[c.etype] : "reserved";
        break;
    case 2:
        t->layer = "llp";
        t->type = c.etype == 0 ? "mpa" : "llp " + std::to_string(c.etype);
        break;
    default:
        t->layer = "reserved " + std::to_string(c.layer);
        t->type = std::to_string(c.etype);
    }
    t->code = c.code;
}


} // namespace

// ---------------------------------------------------------------------------------- QP probes

void
ScenarioWorkloads::HookRnic(const std::string& node)
{
    Ptr<Rnic> rnic = m_topo.GetNode(node)->GetObject<Rnic>();
    if (!rnic)
    {
        return;
    }
    rnic->TraceConnectWithoutContext(
        "QpCreated",
        MakeBoundCallback(+[](ScenarioWorkloads* self, std::string n, Ptr<QueuePair> qp) {
            qp->TraceConnectWithoutContext(
                "Event",
                MakeBoundCallback(+[](ScenarioWorkloads* s, std::string nn, QueuePair* q, const QpEventInfo& e) {
                    s->OnQpEvent(nn, Ptr<QueuePair>(q), e);
                },
                                  self, n, PeekPointer(qp)));
        },
                          this, node));
}

void
ScenarioWorkloads::OnQpEvent(std::string node, Ptr<QueuePair> qp, const QpEventInfo& e)
{
    if (e.type == QpEvent::Established)
    {
        OnEstablished(node, qp);
        return;
    }
    if (e.type == QpEvent::FatalError && m_qpWorkload.count(qp))
    {
        // The LLP lost an established connection (TCP gave up, an SCTP association aborted);
        // either end may see it first, so each connection is counted once, by its client end.
        m_qpWorkload[qp]->lostConnections.insert(m_qpConnection[qp]);
        return;
    }
    if (e.type != QpEvent::LocalError && e.type != QpEvent::RemoteError)
    {
        return;
    }
    auto it = m_qpWorkload.find(qp);
    if (it == m_qpWorkload.end())
    {
        return;
    }
    TerminateRecord t;
    t.time = Simulator::Now();
    t.node = node;
    t.sent = e.type == QpEvent::LocalError; // an iWARP QP's stream errors are Terminates
    DescribeCause(e.cause, &t);
    it->second->terminates.push_back(t);
}

namespace
{
/** A connection's ends as the probes name them. */
struct QpEnds
{
    Ipv4Address peer;
    uint32_t localPort{0}; ///< TCP, SCTP: the socket's port. RoCEv2: the listened port, or the initiator's QPN
    uint32_t peerPort{0};  ///< the same for the peer
    bool listened{false};  ///< this end is the one on the listening port
    Ptr<Socket> socket;    ///< the LLP's socket; none over RoCEv2
};

/** The ends of `qp`'s connection, false before it has any; a RoCEv2 initiator is named by its QP number. */
bool
EndsOf(Ptr<QueuePair> qp, uint16_t listeningPort, QpEnds* out)
{
    if (Ptr<RoceTransport> roce = DynamicCast<RoceTransport>(qp->GetTransport()))
    {
        Ptr<RoceConnection> c = roce->GetConnection();
        if (!c)
        {
            return false;
        }
        const RoceConnectionParams& p = c->Params();
        out->peer = p.remote;
        out->listened = p.responder;
        out->localPort = p.responder ? p.port : c->GetLocalQpn();
        out->peerPort = p.responder ? p.remoteQpn : p.port;
        return true;
    }
    const Ptr<DdpLowerLayer> llp = IwarpTransport::Of(qp, "the scenario's probes")->GetLlp();
    out->socket = llp ? llp->GetSocket() : nullptr;
    if (!out->socket)
    {
        return false;
    }
    Address local;
    Address peer;
    out->socket->GetSockName(local);
    out->socket->GetPeerName(peer);
    const InetSocketAddress l = InetSocketAddress::ConvertFrom(local);
    const InetSocketAddress p = InetSocketAddress::ConvertFrom(peer);
    out->peer = p.GetIpv4();
    out->localPort = l.GetPort();
    out->peerPort = p.GetPort();
    out->listened = l.GetPort() == listeningPort;
    return true;
}
} // namespace

void
ScenarioWorkloads::OnEstablished(const std::string& node, Ptr<QueuePair> qp)
{
    // Whose connection this is, the application that made the QP said (Adopt); its server end is
    // at the workload's `to`, its client ends at the other nodes.
    auto owner = m_qpOwner.find(qp);
    QpEnds ends;
    if (owner == m_qpOwner.end() || !EndsOf(qp, uint16_t(owner->second->port), &ends))
    {
        return;
    }
    auto peerHost = m_hostByAddress.find(ends.peer.Get());
    const std::string peerName = peerHost != m_hostByAddress.end() ? peerHost->second : "?";
    Workload* w = owner->second;
    // A host group's hosts are clients and servers at once: the server end is the one on the listening port.
    const bool hostGroup = w->kind->hostGroup;
    const bool serverSide = hostGroup ? ends.listened : node == w->cfg->to;
    m_qpWorkload[qp] = w;
    w->qpByEnds[{node, peerName}] = qp;
    // One name per connection at both ends: its client's host and port.
    if (serverSide)
    {
        m_qpConnection[qp] = peerName + ":" + std::to_string(ends.peerPort);
    }
    else
    {
        m_qpConnection[qp] = node + ":" + std::to_string(ends.localPort);
        ++w->connections.established;
    }
    const Ptr<Socket> socket = ends.socket;
    // The end that sends the flow's data: the initiator's, but the responder's when the data flows back.
    if (m_senderSocket && socket && !hostGroup && serverSide == DataFlowsBack(*w->cfg))
    {
        m_senderSocket(w->index, serverSide ? peerName : node, socket);
    }
    if (Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket))
    {
        FollowTcp(w, tcp);
    }
    else if (Ptr<RoceTransport> roce = DynamicCast<RoceTransport>(qp->GetTransport()))
    {
        FollowRoce(w, roce);
    }
    else if (Ptr<SctpSocket> sctp = DynamicCast<SctpSocket>(socket))
    {
        sctp->TraceConnectWithoutContext(
            "Retransmission", MakeBoundCallback(+[](Workload* wl, uint32_t, bool fast) {
                ++wl->retransmissions.total;
                ++(fast ? wl->retransmissions.fast : wl->retransmissions.timeout);
            },
                                                w));
        sctp->TraceConnectWithoutContext(
            "RetransmissionTimeout",
            MakeBoundCallback(+[](Workload* wl, Time) { ++wl->retransmissions.rtoExpirations; }, w));
        w->sctpAssociations.Follow(sctp, node, m_qpConnection[qp]);
    }
    if (hostGroup)
    {
        NoteTrafficConnection(*w, node, peerName, serverSide, qp);
        if (serverSide)
        {
            // Its Writes flow from the client end to this one (a connection of one flow: that flow's).
            auto flow = m_qpFlow.find(qp);
            const std::string key = flow == m_qpFlow.end() ? node : FlowKey(*w->cfg, node, flow->second);
            FollowSink(w, peerName, qp, key);
        }
        return;
    }
    if (node != w->sinkNode)
    {
        return;
    }
    FollowSink(w, DataFlowsBack(*w->cfg) ? node : peerName, qp);
}

void
ScenarioWorkloads::SinkDelivery(Workload& w, const std::string& sender, const std::string& receiver,
                                uint64_t length, Time firstPlaced, Time delivered)
{
    if (length == 0)
    {
        return;
    }
    FlowOf(w, sender, receiver).sink.emplace_back(firstPlaced, delivered);
    if (w.deliveryPoint == DeliveryPoint::Placement)
    {
        NoteDelivered(w, sender);
    }
}

void
ScenarioWorkloads::FollowRoce(Workload* w, Ptr<RoceTransport> roce)
{
    // The requester's resends, each after a NAK (fast) or its ACK timer (timeout), and each timer expiry.
    roce->TraceConnectWithoutContext(
        "Tx", MakeBoundCallback(+[](Workload* wl, RoceTransport* t, uint32_t, uint8_t, bool again) {
            if (again)
            {
                ++wl->retransmissions.total;
                ++(t->ResendingAfterTimeout() ? wl->retransmissions.timeout : wl->retransmissions.fast);
            }
        },
                                w, PeekPointer(roce)));
    roce->TraceConnectWithoutContext(
        "Timeout", MakeBoundCallback(+[](Workload* wl, uint32_t) { ++wl->retransmissions.rtoExpirations; }, w));
}

void
ScenarioWorkloads::FollowSink(Workload* w, const std::string& sender, Ptr<QueuePair> qp, const std::string& receiver)
{
    // Each data message's placement and delivery at the sink, in order, for its sender's flow
    // (zero-length messages are the stream's end handshake, not data).
    if (Ptr<RoceTransport> roce = DynamicCast<RoceTransport>(qp->GetTransport()))
    {
        roce->TraceConnectWithoutContext(
            "Delivered",
            MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, std::string rcv, bool,
                                  uint64_t length, Time firstPlaced, Time delivered) {
                self->SinkDelivery(*wl, snd, rcv, length, firstPlaced, delivered);
            },
                              this, w, sender, receiver));
    }
    else
    {
        IwarpTransport::Of(qp, "the scenario's probes")->GetDdp()->TraceConnectWithoutContext(
            "Delivered",
            MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, std::string rcv,
                                  const DdpDelivery& d) {
                if (d.tagged || d.qn == 0)
                {
                    self->SinkDelivery(*wl, snd, rcv, d.length, d.firstPlaced, d.delivered);
                }
            },
                              this, w, sender, receiver));
    }
    // A Send is delivered when its receive completes at the sink (doc/metrics.md).
    qp->TraceConnectWithoutContext(
        "Completion",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, std::string rcv,
                              const WorkCompletion& c) {
            if (c.IsRecv() && c.status == WcStatus::Success && c.byteLength > 0)
            {
                self->FlowOf(*wl, snd, rcv).receives.push_back(Simulator::Now());
                if (wl->deliveryPoint == DeliveryPoint::ReceiveCompletion)
                {
                    self->NoteDelivered(*wl, snd);
                }
            }
        },
                          this, w, sender, receiver));
}

void
ScenarioWorkloads::FollowSocketsClient(Workload& w, Ptr<Application> client)
{
    // The application reports its TCP socket as it connects: follow its transmissions
    // (retransmissions) and its state (connections) from there.
    client->TraceConnectWithoutContext(
        "Socket",
        MakeBoundCallback(
            +[](ScenarioWorkloads* self, Workload* wl, Ptr<Socket> socket) {
                Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
                if (!tcp)
                {
                    return;
                }
                self->FollowTcp(wl, tcp);
                self->FollowSocketsConnection(wl, tcp);
                if (self->m_senderSocket)
                {
                    self->m_senderSocket(wl->index, wl->cfg->from, tcp); // the client sends the data
                }
            },
            this,
            &w));
}

void
ScenarioWorkloads::FollowTcp(Workload* w, Ptr<TcpSocketBase> tcp)
{
    tcp->TraceConnectWithoutContext(
        "Tx", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, Ptr<const Packet> pk, const TcpHeader& h,
                                    Ptr<const TcpSocketBase> so) { self->OnTcpTx(wl, pk, h, so); },
                                this, w));
    // Loss recovery entered by a retransmission timeout is CA_LOSS; fast retransmit enters CA_RECOVERY.
    // The state is followed per socket so that each retransmitted segment is told apart by it.
    tcp->TraceConnectWithoutContext(
        "CongState",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, const TcpSocketBase* so,
                              TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
            self->m_congState[so] = now;
            if (now == TcpSocketState::CA_LOSS)
            {
                ++wl->retransmissions.rtoExpirations;
            }
        },
                          // bound as const: ns-3 binds by the argument's own type (UBSan checks)
                          this, w, static_cast<const TcpSocketBase*>(PeekPointer(tcp))));
}

void
ScenarioWorkloads::FollowSocketsConnection(Workload* w, Ptr<TcpSocketBase> tcp)
{
    m_socketsClients[tcp] = {w, TcpSocket::SYN_SENT};
    tcp->TraceConnectWithoutContext(
        "State", MakeBoundCallback(+[](ScenarioWorkloads* self, TcpSocketBase* so, TcpSocket::TcpStates_t,
                                       TcpSocket::TcpStates_t now) {
            auto& [wl, state] = self->m_socketsClients[Ptr<TcpSocketBase>(so)];
            if (now == TcpSocket::ESTABLISHED && state != TcpSocket::ESTABLISHED)
            {
                ++wl->connections.established;
            }
            state = now;
        },
                                   this, PeekPointer(tcp)));
}

void
ScenarioWorkloads::OnTcpTx(Workload* w, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    const SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
    auto [it, fresh] = m_highestSent.emplace(PeekPointer(s), end);
    if (!fresh)
    {
        if (h.GetSequenceNumber() < it->second)
        {
            // Sent before: a retransmission, after a timeout when the socket is in loss recovery.
            auto st = m_congState.find(PeekPointer(s));
            const bool timeout = st != m_congState.end() && st->second == TcpSocketState::CA_LOSS;
            ++w->retransmissions.total;
            ++(timeout ? w->retransmissions.timeout : w->retransmissions.fast);
        }
        if (end > it->second)
        {
            it->second = end;
        }
    }
}

// -------------------------------------------------------------------------------------- results

std::vector<MessageRecord>
ScenarioWorkloads::MergedRecords(const Workload& w, const Flow& f) const
{
    const WorkloadConfig& c = *w.cfg;
    // Where the sink's records complete a message (doc/metrics.md): RDMA data reaches the sink
    // in post order (DDP delivers in MSN order, RDMAP-059); the sockets baseline and Reads set
    // their delivery themselves.
    const DeliveryPoint at = DeliveryPointOf(c);
    const bool rdmaData = at != DeliveryPoint::Application;
    const bool read = at == DeliveryPoint::RequesterCompletion; // kind read, or a stream with op read
    const bool send = at == DeliveryPoint::ReceiveCompletion;
    std::vector<MessageRecord> messages;
    std::size_t sinkIndex = 0; // a message that failed never reached the sink: the next one takes its place
    for (const MessageRecord& posted : f.messages)
    {
        MessageRecord m = posted;
        const std::size_t i = sinkIndex;
        sinkIndex += m.failed ? 0 : 1;
        if (m.failed)
        {
            messages.push_back(m);
            continue;
        }
        if (rdmaData && i < f.sink.size())
        {
            m.firstPlaced = f.sink[i].first;
            if (!read && !send)
            {
                m.delivered = f.sink[i].second; // a Write: its DDP delivery
            }
        }
        if (send && i < f.receives.size())
        {
            m.delivered = f.receives[i];
        }
        messages.push_back(m);
    }
    return messages;
}

std::vector<MessageRecord>
ScenarioWorkloads::FlowRecords(std::size_t index, const std::string& initiator) const
{
    const Workload& w = *m_workloads.at(index);
    for (const Flow& f : w.flows)
    {
        if (f.sender == initiator)
        {
            return MergedRecords(w, f);
        }
    }
    return {};
}

WorkloadMetricsInput
ScenarioWorkloads::CompletionInput(const Workload& w) const
{
    const WorkloadConfig& c = *w.cfg;
    WorkloadMetricsInput in;
    in.pingPong = w.kind->pingPong;
    const uint64_t senders = w.kind->manySenders ? c.senders.size() : 1;
    const uint64_t sizes = c.sizes.empty() ? 1 : c.sizes.size();
    if (w.kind->family == WorkloadFamily::Inject)
    {
        in.expectedMessages = 1;
    }
    else if (c.collective)
    {
        in.expectedMessages = c.collective->Messages() * c.iterations;
    }
    else if (c.count && (in.pingPong || !c.duration))
    {
        in.expectedMessages = *c.count * senders * sizes;
    }
    in.postingEnded = w.postingEnded >= senders;
    return in;
}

WorkloadMetricsInput
ScenarioWorkloads::MetricsInput(const Workload& w) const
{
    WorkloadMetricsInput in = CompletionInput(w);
    if (m_cfg.measure)
    {
        in.window = std::make_pair(m_cfg.measure->from, m_cfg.measure->to);
    }
    in.halfRttNs = w.halfRttNs;
    in.slowdown = w.kind->hostGroup;
    in.end = Simulator::Now(); // collected after the run: its end
    for (const LinkEventConfig& e : m_cfg.events)
    {
        if (e.action == LinkEventAction::Down || e.action == LinkEventAction::NodeDown)
        {
            in.failures.push_back(e.at); // each outage is measured from a failure
        }
    }
    return in;
}

void
ScenarioWorkloads::Collect(RunResult& result, const Paths& paths) const
{
    for (const auto& w : m_workloads)
    {
        const WorkloadConfig& c = *w->cfg;
        std::vector<MessageRecord> messages;
        for (const Flow& f : w->flows)
        {
            std::vector<MessageRecord> flow = MergedRecords(*w, f);
            if (w->kind->hostGroup)
            {
                SetIdealFcts(*w, f, paths, flow);
            }
            messages.insert(messages.end(), flow.begin(), flow.end());
        }
        const WorkloadMetricsInput in = MetricsInput(*w);

        WorkloadResult r;
        r.name = c.name;
        r.kind = ToString(c.kind);
        r.op = OpLabel(c);
        r.llp = CarrierOf(c).name;
        r.dataFlows = DataFlowsOf(c);
        for (std::size_t i : c.after)
        {
            r.after.push_back(m_cfg.workloads[i].name);
            if (!m_workloads[i]->completedAt)
            {
                r.waitingFor.push_back(m_cfg.workloads[i].name);
            }
        }
        r.start = w->installed ? std::optional<Time>(w->start) : std::nullopt;
        r.completedAt = w->completedAt;
        r.retransmissions = w->retransmissions;
        r.sctpAssociations = w->sctpAssociations.Records(in.failures);
        r.terminates = w->terminates;
        r.connections = w->connections;
        for (auto it = w->apps.Begin(); it != w->apps.End(); ++it)
        {
            if (Ptr<RdmaTraffic> t = DynamicCast<RdmaTraffic>(*it))
            {
                r.connections.attempted += t->GetConnectionCount(); // a host group connects as it needs to
            }
            else if (Ptr<SocketTraffic> t = DynamicCast<SocketTraffic>(*it))
            {
                r.connections.attempted += t->GetConnectionCount();
            }
            else if (Ptr<RdmaCollective> t = DynamicCast<RdmaCollective>(*it))
            {
                r.connections.attempted += t->GetConnectionCount();
            }
        }
        r.connections.lost = w->lostConnections.size();
        for (const auto& [tcp, followed] : m_socketsClients)
        {
            // ns-3's TCP gives a connection up (retries exhausted) without a state change: it only
            // lets go of its endpoint, which an orderly close does from CLOSED or TIME_WAIT alone.
            Address local;
            tcp->GetSockName(local);
            const TcpSocket::TcpStates_t state = followed.second;
            if (followed.first == w.get() && state != TcpSocket::CLOSED && state != TcpSocket::TIME_WAIT &&
                InetSocketAddress::ConvertFrom(local).GetPort() == 0)
            {
                ++r.connections.lost;
            }
        }
        SummarizeMessages(messages, in, r);
        if (w->load)
        {
            r.traffic = OperatingPoint(*w, messages);
        }
        if (w->collective)
        {
            r.collective = CollectiveOutcome(*w, paths);
        }
        result.workloads.push_back(r);
        result.messages.insert(result.messages.end(), messages.begin(), messages.end());
    }
}

} // namespace ns3
