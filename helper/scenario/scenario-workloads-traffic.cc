/*
 * ScenarioWorkloads, the host groups (kind traffic): an RdmaTraffic on each host of the group, the TrafficLoad
 * that hands them their flows, and each host's messages followed into its flows by receiver (kind collective
 * too: scenario-workloads-collective.cc). The other kinds' applications are in scenario-workloads.cc.
 */
#include "helper/rdma-app-helper.h"
#include "helper/socket-app-helper.h"
#include "helper/scenario/host-attributes.h"
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/physics-checks.h"
#include "helper/scenario/random-streams.h"
#include "helper/scenario/traffic-load.h"
#include "helper/scenario/workloads/traffic-pattern-keys.h"

#include "common/iwarp-constants.h"
#include "rnic/iwarp-transport.h"
#include "rnic/roce-transport.h"
#include "rnic/rnic-pipeline.h"
#include "host/host-model.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{

using scenario::kTrafficFirstStream;
using scenario::kTrafficStreamsPerWorkload;

/** The bit rate of a host's links (the sum over its point-to-point devices). */
double
HostLinkRateBps(Ptr<Node> node)
{
    double rate = 0;
    for (const HostLink& l : HostLinks(node))
    {
        rate += l.bps;
    }
    return rate;
}

/**
 * The sockets baseline's ideal FCT of a message of `octets` (its stamp included): no run beats it (doc/traffic.md).
 * One segment's worth: the sender's send() on an idle host, the segment through the path (`m`, exact), the
 * receiver's read of it on an idle host (its octets in the cache where the host has DDIO). More: send() copies
 * a chunk at a time (SocketHostPath::kSendChunk) and TCP cuts the stream into segments as it goes, across chunk
 * and message boundaries, so over the chunks i the latest of (chunk i copied + AnySegmentationBound of the
 * octets from chunk i on), then a read of one octet (the last read may hold no more). Interrupt moderation is
 * left out (data reaching a connection that is being read is polled).
 */
Time
IdealSocketsFct(IdealFctModel m, uint64_t octets, const Ptr<HostModel>& sender, const Ptr<HostModel>& receiver)
{
    auto read = [&receiver](uint64_t n) {
        return receiver ? receiver->IdleReadTime(n, 1, receiver->GetDdioOctets() > 0 ? n : 0) : Time(0);
    };
    if (octets <= m.mulpdu)
    {
        m.before = sender ? sender->IdleSendTime(octets, sender->SendPackets(octets, m.mulpdu)) : Time(0);
        m.after = read(octets);
        return IdealFct(m, octets);
    }
    const uint64_t chunk = sender ? SocketHostPath::kSendChunk : octets; // uncharged: all in the socket at once
    Time best(0);
    Time copied(0);
    for (uint64_t at = 0; at < octets; at += chunk)
    {
        const uint64_t n = std::min(chunk, octets - at);
        copied += sender ? sender->IdleSendTime(n, sender->SendPackets(n, m.mulpdu)) : Time(0);
        best = std::max(best, copied + AnySegmentationBound(m, octets - at));
    }
    return best + read(1);
}

} // namespace

std::string
FlowKey(const WorkloadConfig& w, const std::string& receiver, uint64_t id)
{
    // A separator no host name has (names are YAML or GraphML text, never control characters).
    return w.perFlowConnection ? receiver + '\x1f' + std::to_string(id) : receiver;
}

std::string
HostOfFlowKey(const std::string& key)
{
    return key.substr(0, key.find('\x1f'));
}

void
ScenarioWorkloads::InstallTraffic(Workload& w)
{
    const WorkloadConfig& c = *w.cfg;
    const bool sockets = w.kind->family == WorkloadFamily::Sockets;
    RdmaTrafficHelper rdma(w.port);
    rdma.SetAttribute("MaxMessage", UintegerValue(uint32_t(std::ceil(c.flowSizes->MaxOctets()))));
    rdma.SetAttribute("PerFlowConnection", BooleanValue(c.perFlowConnection));
    rdma.SetAttribute("Op", StringValue(c.op == RdmaOp::Send ? "Send" : "Write"));
    SocketTrafficHelper plain(w.port);
    plain.SetAttribute("PerFlowConnection", BooleanValue(c.perFlowConnection));
    std::vector<TrafficLoad::Submit> submit;
    std::vector<Ipv4Address> addresses;
    std::vector<double> rates;
    for (const std::string& h : c.hosts)
    {
        SizeSockets(w, h, w.start);
        ApplicationContainer a = sockets ? plain.Install(m_topo.GetNode(h)) : rdma.Install(m_topo.GetNode(h));
        a.Start(Delay(w.start));
        Adopt(w, a);
        FollowGroupHost(w, a.Get(0), h);
        if (sockets)
        {
            Ptr<SocketTraffic> app = DynamicCast<SocketTraffic>(a.Get(0));
            FollowSocketsTraffic(w, app, h);
            submit.emplace_back([app](Ipv4Address to, uint32_t octets) { app->Submit(to, octets); });
        }
        else
        {
            Ptr<RdmaTraffic> app = DynamicCast<RdmaTraffic>(a.Get(0));
            app->TraceConnectWithoutContext(
                "FlowQueuePair",
                MakeBoundCallback(+[](ScenarioWorkloads* self, Ptr<QueuePair> qp, uint64_t message) {
                    self->m_qpFlow[qp] = message; // its sink's deliveries are that message's
                },
                                  this));
            submit.emplace_back([app](Ipv4Address to, uint32_t octets) { app->Submit(to, octets); });
        }
        w.hostIndex[h] = addresses.size();
        addresses.push_back(m_topo.GetHostAddress(h));
        rates.push_back(HostLinkRateBps(m_topo.GetNode(h)));
    }
    // A closed loop draws the gaps and leaves them unused: any load in (0, 1] does.
    FlowArrivals arrivals(*c.flowSizes, rates, c.arrivals == TrafficArrivals::ClosedLoop ? 1.0 : c.load,
                          TrafficPatternOf(c),
                          kTrafficFirstStream + int64_t(w.index) * kTrafficStreamsPerWorkload);
    for (std::size_t h = 0; h < rates.size(); ++h)
    {
        w.groupRateBps += arrivals.Sends(h) ? rates[h] : 0; // the load is offered by the hosts that send
    }
    const std::optional<uint32_t> closedLoop =
        c.arrivals == TrafficArrivals::ClosedLoop ? std::optional<uint32_t>(c.outstanding) : std::nullopt;
    w.load = std::make_shared<TrafficLoad>(std::move(arrivals), std::move(submit), addresses, w.start, c.count,
                                           c.duration, closedLoop);
    w.load->SetEndedCallback([this, wl = &w]() {
        ++wl->postingEnded;
        NoteProgress(*wl);
    });
    w.load->Start();
}

void
ScenarioWorkloads::FollowSocketsTraffic(Workload& w, Ptr<SocketTraffic> app, const std::string& host)
{
    // Delivered at the receiver's user: the sockets baseline's data sink is its application.
    app->TraceConnectWithoutContext(
        "Delivered", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string rcv, uint64_t id,
                                           Ipv4Address from, uint32_t, Time) {
            self->Delivered(*wl, self->HostAt(from), id, FlowKey(*wl->cfg, rcv, id));
        },
                                       this, &w, host));
    app->TraceConnectWithoutContext(
        "FirstOctet", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string rcv, uint64_t id,
                                            Ipv4Address from) {
            self->FirstOctet(*wl, self->HostAt(from), id, FlowKey(*wl->cfg, rcv, id));
        },
                                        this, &w, host));
    // Each connection it opens: its retransmissions, whether it came up, and its segment size (the ideal FCT).
    app->TraceConnectWithoutContext(
        "Socket", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, Ptr<Socket> s) {
            Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(s);
            Address peer;
            if (!tcp || tcp->GetPeerName(peer) != 0)
            {
                return;
            }
            self->FollowTcp(wl, tcp);
            self->FollowSocketsConnection(wl, tcp);
            UintegerValue mss;
            tcp->GetAttribute("SegmentSize", mss);
            wl->segment[{snd, self->HostAt(InetSocketAddress::ConvertFrom(peer).GetIpv4())}] = uint32_t(mss.Get());
        },
                                    this, &w, host));
}

void
ScenarioWorkloads::FollowGroupHost(Workload& w, Ptr<Application> app, const std::string& host)
{
    app->TraceConnectWithoutContext(
        "Posted", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t id,
                                        Ipv4Address peer, uint32_t octets) {
            self->Posted(*wl, snd, id, octets, FlowKey(*wl->cfg, self->HostAt(peer), id));
        },
                                    this, &w, host));
    app->TraceConnectWithoutContext(
        "Completed", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t id,
                                           Ipv4Address peer, uint32_t, Time) {
            self->Completed(*wl, snd, id, FlowKey(*wl->cfg, self->HostAt(peer), id));
        },
                                       this, &w, host));
    app->TraceConnectWithoutContext(
        "Failed", MakeBoundCallback(+[](ScenarioWorkloads* self, Workload* wl, std::string snd, uint64_t id,
                                        Ipv4Address peer, uint32_t) {
            self->Failed(*wl, snd, id, FlowKey(*wl->cfg, self->HostAt(peer), id));
        },
                                    this, &w, host));
}

void
ScenarioWorkloads::NoteTrafficConnection(Workload& w,
                                         const std::string& node,
                                         const std::string& peer,
                                         bool serverSide,
                                         Ptr<QueuePair> qp)
{
    if (Ptr<RoceTransport> roce = DynamicCast<RoceTransport>(qp->GetTransport()))
    {
        // RoCEv2's transport has no engine-cost model: its packets cost only the wire (doc/roce.md).
        m_engines[node] = {EngineCosts{Time(0), Time(0), 0}, EngineCosts{Time(0), Time(0), 0}};
        if (!serverSide)
        {
            w.segment[{node, peer}] = roce->GetMtu();
        }
        return;
    }
    const Ptr<IwarpTransport> transport = IwarpTransport::Of(qp, "the ideal FCT");
    const Ptr<RnicPipeline> pipeline = transport->GetPipeline();
    auto costs = [&pipeline](const char* perSegment, const char* perMessage) {
        TimeValue segment;
        TimeValue message;
        DataRateValue rate;
        pipeline->GetAttribute(perSegment, segment);
        pipeline->GetAttribute(perMessage, message);
        pipeline->GetAttribute("EngineRate", rate);
        return EngineCosts{segment.Get(), message.Get(), double(rate.Get().GetBitRate())};
    };
    m_engines[node] = {costs("TxPerSegment", "TxPerMessage"), costs("RxPerSegment", "RxPerMessage")};
    if (!serverSide)
    {
        w.segment[{node, peer}] = transport->GetLlp()->GetMulpdu(); // the sender segments at it
    }
}

std::optional<IdealFctModel>
ScenarioWorkloads::IdealModel(const Workload& w, const Flow& f, const Paths& paths) const
{
    const bool sockets = w.kind->family == WorkloadFamily::Sockets;
    auto tx = m_engines.find(f.sender);
    auto rx = m_engines.find(f.receiver);
    auto segment = w.segment.find({f.sender, f.receiver});
    if (segment == w.segment.end() || (!sockets && (tx == m_engines.end() || rx == m_engines.end())))
    {
        return std::nullopt; // the connection never came up: no message of it was delivered
    }
    IdealFctModel m;
    if (!sockets)
    {
        m.tx = tx->second.first;
        m.rx = rx->second.second;
    }
    // The sockets baseline: TCP segments of the connection's SegmentSize, no DDP header and no engine (its
    // hosts' costs are in what the slowdown measures: doc/traffic.md).
    m.hops = paths.Hops(f.sender, f.receiver);
    m.mulpdu = segment->second;
    // RoCEv2's transport headers are in its framing (a RETH's 16 only on a Write's first packet: left out, so the
    // ideal stays a lower bound).
    const bool ddp = !sockets && CarrierOf(*w.cfg).ddp;
    m.ddpHeader = !ddp ? 0 : w.cfg->op == RdmaOp::Send ? iwarp::kDdpUntaggedHdrLen : iwarp::kDdpTaggedHdrLen;
    m.framing = CarrierOf(*w.cfg).framingOctets(TcpTimestampsOn(m_cfg, *w.cfg));
    m.padding = CarrierOf(*w.cfg).padding;
    return m;
}

void
ScenarioWorkloads::SetIdealFcts(const Workload& w,
                                const Flow& f,
                                const Paths& paths,
                                std::vector<MessageRecord>& messages) const
{
    const std::optional<IdealFctModel> m = IdealModel(w, f, paths);
    if (!m)
    {
        return;
    }
    if (w.kind->family != WorkloadFamily::Sockets)
    {
        for (MessageRecord& r : messages)
        {
            r.idealFct = IdealFct(*m, r.size);
        }
        return;
    }
    const Ptr<HostModel> sender = m_topo.GetNode(f.sender)->GetObject<HostModel>();
    const Ptr<HostModel> receiver = m_topo.GetNode(f.receiver)->GetObject<HostModel>();
    for (MessageRecord& r : messages)
    {
        r.idealFct = IdealSocketsFct(*m, r.size + MessageStamp::kOctets, sender, receiver);
    }
}

TrafficOperatingPoint
ScenarioWorkloads::OperatingPoint(const Workload& w, const std::vector<MessageRecord>& messages) const
{
    const WorkloadConfig& c = *w.cfg;
    TrafficOperatingPoint p;
    const bool closedLoop = c.arrivals == TrafficArrivals::ClosedLoop;
    p.arrivals = closedLoop ? "closed-loop" : "poisson";
    p.load = closedLoop ? std::nullopt : std::optional<double>(c.load);
    p.outstanding = closedLoop ? std::optional<uint32_t>(c.outstanding) : std::nullopt;
    p.flowSizes = c.flowSizes->Name();
    p.pattern = ToString(c.pattern);
    if (c.pattern == TrafficPattern::ManyToOne)
    {
        p.target = c.target;
        p.incastFraction = c.incastFraction;
    }
    p.pairs = c.pairs.size();
    p.hosts = c.hosts.size();
    double octets = 0;
    Time lastStart = w.start;
    for (const MessageRecord& m : messages)
    {
        octets += double(m.size);
        lastStart = std::max(lastStart, m.post);
    }
    // Flows start until start + duration, or the last one's start with count; never after the run's end.
    const Time end = std::min(c.duration ? w.start + *c.duration : lastStart, Simulator::Now());
    if (end > w.start && w.groupRateBps > 0)
    {
        p.offeredLoad = octets * 8.0 / ((end - w.start).GetSeconds() * w.groupRateBps);
    }
    return p;
}

std::string
ScenarioWorkloads::HostAt(Ipv4Address a) const
{
    auto it = m_hostByAddress.find(a.Get());
    return it == m_hostByAddress.end() ? "?" : it->second;
}

} // namespace ns3
