/*
 * ScenarioWorkloads, the probes and the results: which workload each queue pair belongs to (by
 * its connection's ports), the sink's placement and delivery records, TCP retransmissions,
 * Terminates, and the RunResult rows they become. The applications are in scenario-workloads.cc.
 */
#include "helper/scenario/scenario-workloads.h"

#include "mpa/mpa-connection.h"
#include "rnic/rnic.h"
#include "sctp-ddp/sctp-ddp-connection.h"

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
                MakeBoundCallback(+[](ScenarioWorkloads* s, std::string nn, QueuePair* q, const RdmapEventInfo& e) {
                    s->OnQpEvent(nn, Ptr<QueuePair>(q), e);
                },
                                  self, n, PeekPointer(qp)));
        },
                          this, node));
}

ScenarioWorkloads::Workload*
ScenarioWorkloads::FindByPort(uint16_t port)
{
    if (port < kBasePort)
    {
        return nullptr;
    }
    const std::size_t i = (port - kBasePort) / 100;
    return i < m_workloads.size() ? m_workloads[i].get() : nullptr;
}

void
ScenarioWorkloads::OnQpEvent(std::string node, Ptr<QueuePair> qp, const RdmapEventInfo& e)
{
    if (e.type == RdmapEvent::Established)
    {
        OnEstablished(node, qp);
        return;
    }
    if (e.type != RdmapEvent::TerminateSent && e.type != RdmapEvent::TerminateReceived)
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
    t.sent = e.type == RdmapEvent::TerminateSent;
    DescribeCause(t.sent ? e.cause : e.terminate.GetCause(), &t);
    it->second->terminates.push_back(t);
}

void
ScenarioWorkloads::OnEstablished(const std::string& node, Ptr<QueuePair> qp)
{
    Ptr<Socket> socket;
    if (Ptr<MpaConnection> mpa = DynamicCast<MpaConnection>(qp->GetLlp()))
    {
        socket = mpa->GetSocket();
    }
    else if (Ptr<SctpDdpConnection> sctp = DynamicCast<SctpDdpConnection>(qp->GetLlp()))
    {
        socket = sctp->GetSocket();
    }
    if (!socket)
    {
        return;
    }
    Address local;
    Address peer;
    socket->GetSockName(local);
    socket->GetPeerName(peer);
    const InetSocketAddress l = InetSocketAddress::ConvertFrom(local);
    const InetSocketAddress p = InetSocketAddress::ConvertFrom(peer);
    Workload* w = FindByPort(l.GetPort());
    bool serverSide = w != nullptr && l.GetPort() - kBasePort - 100 * w->index < 100;
    if (!w || !serverSide)
    {
        w = FindByPort(p.GetPort());
        serverSide = false;
    }
    if (!w)
    {
        return;
    }
    m_qpWorkload[qp] = w;
    w->qpByNode[node] = qp;
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    if (tcp)
    {
        tcp->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, Ptr<const Packet> pk, const TcpHeader& h,
                                  Ptr<const TcpSocketBase> so) { self->OnTcpTx(wl, pk, h, so); },
                              this, w));
    }
    if (node != w->sinkNode)
    {
        return;
    }
    // The data sink: each data message's placement and delivery, in order, for its sender's flow.
    auto peerHost = m_hostByAddress.find(p.GetIpv4().Get());
    const std::string sender =
        w->cfg->kind == WorkloadKind::Read ? node : (peerHost != m_hostByAddress.end() ? peerHost->second : "?");
    qp->GetDdp()->TraceConnectWithoutContext(
        "Delivered",
        MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, const DdpDelivery& d) {
            if ((d.tagged || d.qn == 0) && d.length > 0)
            {
                self->FlowOf(*wl, snd).sink.emplace_back(d.firstPlaced, d.delivered);
            }
        },
                          this, w, sender));
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
            ++w->retransmissions; // sent before: a retransmission
        }
        if (end > it->second)
        {
            it->second = end;
        }
    }
}

// -------------------------------------------------------------------------------------- results

void
ScenarioWorkloads::Collect(RunResult& result) const
{
    for (const auto& w : m_workloads)
    {
        WorkloadResult r;
        r.name = w->cfg->name;
        r.kind = ToString(w->cfg->kind);
        r.retransmissions = w->retransmissions;
        r.terminates = w->terminates;
        Time first = Time::Max();
        Time last;
        for (const Flow& f : w->flows)
        {
            r.messages += f.done;
            r.bytes += f.bytes;
            r.latencies.insert(r.latencies.end(), f.latencies.begin(), f.latencies.end());
            first = std::min(first, f.firstPost);
            last = std::max(last, f.lastDone);
            // A Write completes when the RNIC has taken its data, before the sink has it: throughput
            // runs to the last delivery at the sink when there is one (goodput, not offered load).
            for (const auto& [placed, delivered] : f.sink)
            {
                last = std::max(last, delivered);
            }
            for (std::size_t i = 0; i < f.messages.size(); ++i)
            {
                MessageRecord m = f.messages[i];
                if (i < f.sink.size())
                {
                    m.firstPlaced = f.sink[i].first;
                    m.delivered = f.sink[i].second;
                }
                result.messages.push_back(m);
            }
        }
        if (r.bytes > 0 && last > first && first != Time::Max())
        {
            r.throughputBps = double(r.bytes) * 8.0 / (last - first).GetSeconds();
        }
        result.workloads.push_back(r);
    }
}

} // namespace ns3
