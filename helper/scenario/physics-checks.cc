#include "helper/scenario/physics-checks.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr uint32_t kPpp = 2;     ///< PPP's protocol field, on the wire beside the MTU-sized IP packet
constexpr uint32_t kIp = 20;     ///< IPv4 without options
constexpr uint32_t kTcp = 20;    ///< TCP without options
constexpr uint32_t kTcpTs = 12;  ///< the timestamp option, padded (RFC 7323)
constexpr uint32_t kMpa = 6;     ///< ULPDU length 2 + CRC 4 (RFC 5044 §4); markers not counted: looser bound
constexpr uint32_t kSctp = 12;   ///< SCTP common header (RFC 9260 §3.1)
constexpr uint32_t kSctpData = 16; ///< DATA chunk header (RFC 9260 §3.3.1)
constexpr uint32_t kTagged = 14;   ///< DDP tagged + RDMAP control (RFC 5041 §4.2, RFC 5040 §4.1)
constexpr uint32_t kUntagged = 18; ///< DDP untagged + RDMAP control

/** What bounds a flow on one link, read once per run from the built devices (overrides applied). */
struct EdgeFacts
{
    double rateBps{0};
    Time delay;
    uint32_t mtu{1500};
};

double
PayloadRate(const EdgeFacts& e, uint32_t overhead)
{
    return e.mtu > overhead ? e.rateBps * double(e.mtu - overhead) / double(e.mtu + kPpp) : 0.0;
}

/** What the shortest paths between two hosts allow (the most permissive of them, so that bounds hold). */
struct PathLimits
{
    double bottleneckBps{0};   ///< the highest bottleneck rate over the shortest paths
    double payloadLimitBps{0}; ///< the highest bottleneck payload rate for the given overhead
    Time propagation;          ///< the smallest sum of link delays
};

/** The topology's links and vertices, read once, and the limits of the paths between hosts. */
class Paths
{
  public:
    explicit Paths(const BuiltTopology& topo)
        : m_topo(topo)
    {
        for (const BuiltLink& l : topo.links)
        {
            DataRateValue rate;
            l.devA->GetAttribute("DataRate", rate);
            TimeValue delay;
            l.channel->GetAttribute("Delay", delay);
            m_links.push_back(EdgeFacts{double(rate.Get().GetBitRate()), delay.Get(),
                                        std::min(l.devA->GetMtu(), l.devB->GetMtu())});
        }
        for (std::size_t v = 0; v < boost::num_vertices(topo.graph); ++v)
        {
            m_vertex[topo.graph[v].name] = v;
        }
    }

    /**
     * Breadth-first from src: routes follow shortest paths by hops (doc/topology.md). Over the DAG
     * of shortest paths keep, per vertex, the best bottleneck rate and payload rate and the least
     * propagation: with ECMP a flow may take any of them, so the bounds take the most permissive.
     */
    PathLimits Limits(const std::string& src, const std::string& dst, uint32_t overhead) const
    {
        const TopologyGraph& g = m_topo.graph;
        const std::size_t n = boost::num_vertices(g);
        const double inf = std::numeric_limits<double>::infinity();
        std::vector<int> hops(n, -1);
        std::vector<double> rate(n, 0.0);
        std::vector<double> payload(n, 0.0);
        std::vector<Time> prop(n, Time::Max());
        const std::size_t s = m_vertex.at(src);
        hops[s] = 0;
        rate[s] = inf;
        payload[s] = inf;
        prop[s] = Time(0);
        std::deque<std::size_t> queue{s};
        while (!queue.empty())
        {
            const std::size_t u = queue.front();
            queue.pop_front();
            for (auto [e, end] = boost::out_edges(u, g); e != end; ++e)
            {
                const std::size_t v = boost::target(*e, g);
                if (hops[v] >= 0 && hops[v] != hops[u] + 1)
                {
                    continue;
                }
                if (hops[v] < 0)
                {
                    hops[v] = hops[u] + 1;
                    queue.push_back(v);
                }
                const EdgeFacts& f = m_links[g[*e].link];
                rate[v] = std::max(rate[v], std::min(rate[u], f.rateBps));
                payload[v] = std::max(payload[v], std::min(payload[u], PayloadRate(f, overhead)));
                prop[v] = std::min(prop[v], prop[u] + f.delay);
            }
        }
        const std::size_t d = m_vertex.at(dst);
        if (hops[d] < 0)
        {
            // The loader refuses unreachable pairs; a topology built otherwise must not get here.
            throw std::invalid_argument(src + " and " + dst + " are not connected");
        }
        return PathLimits{rate[d], payload[d], prop[d]};
    }

    /** The payload rate of all of a host's own links together. */
    double HostLimit(const std::string& host, uint32_t overhead) const
    {
        double sum = 0;
        for (std::size_t i = 0; i < m_links.size(); ++i)
        {
            const BuiltLink& l = m_topo.links[i];
            sum += l.a == host || l.b == host ? PayloadRate(m_links[i], overhead) : 0.0;
        }
        return sum;
    }

  private:
    const BuiltTopology& m_topo;
    std::vector<EdgeFacts> m_links; ///< by BuiltTopology link index
    std::map<std::string, std::size_t> m_vertex;
};

/** Whether any host setting turns TCP timestamps off (then their 12 octets are not counted). */
bool
TimestampsOn(const ScenarioConfig& cfg)
{
    auto off = [](const AttributeMap& m) {
        auto it = m.find("ns3::TcpSocketBase::Timestamp");
        BooleanValue on(true);
        return it != m.end() && on.DeserializeFromString(it->second, MakeBooleanChecker()) && !on.Get();
    };
    bool on = !off(cfg.host);
    for (const auto& [node, a] : cfg.perHost)
    {
        on = on && !off(a.host);
    }
    return on;
}

/** Header octets per full-size packet for a workload's data (see the file comment of the header). */
uint32_t
PayloadOverhead(const ScenarioConfig& cfg, const WorkloadConfig& w)
{
    const uint32_t tcp = kIp + kTcp + (TimestampsOn(cfg) ? kTcpTs : 0);
    if (w.kind == WorkloadKind::SocketsStream || w.kind == WorkloadKind::SocketsPingPong)
    {
        return tcp;
    }
    const bool tagged = w.op != RdmaOp::Send; // Writes, Read Responses
    const uint32_t ddp = tagged ? kTagged : kUntagged;
    return ddp + (w.llp == Llp::Sctp ? kIp + kSctp + kSctpData : tcp + kMpa);
}

/** The data flows of a workload: (source host, sink host). */
std::vector<std::pair<std::string, std::string>>
Flows(const WorkloadConfig& w)
{
    switch (w.kind)
    {
    case WorkloadKind::Inject:
        return {};
    case WorkloadKind::Incast: {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& s : w.senders)
        {
            out.emplace_back(s, w.to);
        }
        return out;
    }
    default:
        // A Read's data flows from the responder to the requester (kind read, or a stream with op read).
        return w.op == RdmaOp::Read ? std::vector<std::pair<std::string, std::string>>{{w.to, w.from}}
                                    : std::vector<std::pair<std::string, std::string>>{{w.from, w.to}};
    }
}

CheckResult
Check(std::string name, std::string subject, double bound, double value, bool pass, std::string unit,
      std::string detail)
{
    return CheckResult{std::move(name), std::move(subject), bound, value, std::move(unit), pass, std::move(detail)};
}

} // namespace

std::vector<CheckResult>
RunPhysicsChecks(const ScenarioConfig& cfg, const BuiltTopology& topo, const RunResult& r)
{
    std::vector<CheckResult> out;
    const Paths paths(topo);
    // The messages of each workload, in one pass (messages.csv names incast flows "<workload>:<sender>").
    std::map<std::string, std::size_t> workloadOf;
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        workloadOf[cfg.workloads[i].name] = i;
        for (const std::string& s : cfg.workloads[i].senders)
        {
            workloadOf[cfg.workloads[i].name + ":" + s] = i;
        }
    }
    std::vector<std::vector<const MessageRecord*>> messagesOf(cfg.workloads.size());
    for (const MessageRecord& m : r.messages)
    {
        auto it = workloadOf.find(m.workload);
        if (it != workloadOf.end())
        {
            messagesOf[it->second].push_back(&m);
        }
    }
    for (std::size_t i = 0; i < cfg.workloads.size() && i < r.workloads.size(); ++i)
    {
        const WorkloadConfig& wc = cfg.workloads[i];
        const WorkloadResult& w = r.workloads[i];
        const auto flows = Flows(wc);
        if (flows.empty())
        {
            continue;
        }
        const uint32_t overhead = PayloadOverhead(cfg, wc);
        std::map<std::string, PathLimits> bySender;
        double sumLimit = 0;
        for (const auto& [src, dst] : flows)
        {
            bySender[src] = paths.Limits(src, dst, overhead);
            sumLimit += bySender[src].payloadLimitBps;
        }
        // Several senders share the sink's own links: those cap their sum.
        const double limit = std::min(sumLimit, paths.HostLimit(flows.front().second, overhead));
        const std::string how = "bottleneck payload rate for " + std::to_string(overhead) +
                                " header octets per packet (+2 PPP)";
        if (w.goodputBps)
        {
            out.push_back(Check("goodput <= payload limit", w.name, limit, *w.goodputBps, *w.goodputBps <= limit,
                                "bps", how));
        }
        uint64_t largest = 0;
        const MessageRecord* worst = nullptr;
        double worstFct = 0;
        double worstBound = 0;
        double worstMargin = std::numeric_limits<double>::infinity();
        std::size_t disordered = 0;
        for (const MessageRecord* mp : messagesOf[i])
        {
            const MessageRecord& m = *mp;
            disordered += (m.delivered && *m.delivered < m.post) || (m.completed && *m.completed < m.post) ||
                                  (m.firstPlaced && m.delivered && *m.firstPlaced > *m.delivered)
                              ? 1
                              : 0;
            largest = std::max(largest, m.size);
            auto it = bySender.find(m.sender);
            if (!m.delivered || it == bySender.end())
            {
                continue;
            }
            const PathLimits& p = it->second;
            const Time prop = wc.op == RdmaOp::Read ? p.propagation * 2 : p.propagation;
            const double bound = double(m.size) * 8.0 / p.bottleneckBps * 1e9 + double(prop.GetNanoSeconds());
            const double fct = double(m.Fct()->GetNanoSeconds());
            if (fct - bound < worstMargin)
            {
                worstMargin = fct - bound;
                worst = &m;
                worstFct = fct;
                worstBound = bound;
            }
        }
        if (worst)
        {
            out.push_back(Check("fct >= serialisation + propagation", w.name + "#" + std::to_string(worst->id),
                                worstBound, worstFct, worstMargin >= 0, "ns",
                                "the message closest to its bound: " + std::to_string(worst->size) +
                                    " octets at the bottleneck rate plus the path's propagation delay"));
        }
        if (w.goodputWindowBps && r.measure)
        {
            // Each message's octets are spread evenly over its arrival, an approximation (and over SCTP
            // consecutive messages arrive interleaved): each flow is allowed one message on top.
            const double window = (r.measure->second - r.measure->first).GetSeconds();
            const double slack = double(largest) * 8.0 * double(flows.size()) / window;
            out.push_back(Check("goodput in window <= payload limit + one message per flow", w.name, limit + slack,
                                *w.goodputWindowBps, *w.goodputWindowBps <= limit + slack, "bps", how));
        }
        for (const SizeLatency& l : w.latencyBySize)
        {
            const PathLimits& p = bySender.begin()->second;
            const double bound = double(l.size) * 8.0 / p.bottleneckBps * 1e9 + double(p.propagation.GetNanoSeconds());
            if (l.ns.count)
            {
                out.push_back(Check("latency >= serialisation + propagation",
                                    w.name + " size " + std::to_string(l.size), bound, l.ns.min, l.ns.min >= bound,
                                    "ns", "the smallest half round trip against one way at the bottleneck rate"));
            }
        }
        out.push_back(Check("octets delivered <= posted", w.name, double(w.octetsPosted), double(w.octetsDelivered),
                            w.octetsDelivered <= w.octetsPosted, "octets", "counted per message"));
        // Every message has one status by construction (MessageRecord::Status): what can go wrong is
        // a record whose times contradict each other, or counts that lose messages on the way.
        const uint64_t accounted = w.messagesDelivered + w.messagesOutstanding + w.messagesFlushed +
                                   (w.op == "inject" ? w.messagesPosted : 0);
        out.push_back(Check("every message delivered, outstanding or flushed", w.name,
                            double(messagesOf[i].size()), double(accounted),
                            accounted == messagesOf[i].size() && disordered == 0, "messages",
                            std::to_string(disordered) + " messages with times out of order (delivered or "
                                                         "completed before posted, placed after delivered)"));
    }
    // Utilisation: no core and no memory bus is busy for longer than the run.
    const double simulated = double(r.simulatedTime.GetNanoSeconds());
    double worstCore = 0;
    std::string coreSubject = "-";
    double worstBus = 0;
    std::string busSubject = "-";
    for (const HostResult& h : r.hosts)
    {
        for (std::size_t c = 0; c < h.cpuBusyPerCore.size(); ++c)
        {
            const double busy = double(h.cpuBusyPerCore[c].GetNanoSeconds());
            if (busy > worstCore)
            {
                worstCore = busy;
                coreSubject = h.node + " core " + std::to_string(c);
            }
        }
        auto it = h.counters.find("bus_busy_s");
        if (it != h.counters.end() && it->second * 1e9 > worstBus)
        {
            worstBus = it->second * 1e9;
            busSubject = h.node;
        }
    }
    out.push_back(Check("cpu utilisation <= 100%", coreSubject, simulated, worstCore, worstCore <= simulated, "ns",
                        "the busiest core's busy time against the simulated time"));
    out.push_back(Check("memory-bus utilisation <= 100%", busSubject, simulated, worstBus, worstBus <= simulated * (1 + 1e-9),
                        "ns", "the busiest bus's busy time against the simulated time"));
    return out;
}

} // namespace ns3
