#include "helper/scenario/physics-checks.h"
#include "helper/scenario/data-flows.h"
#include "helper/scenario/llp-descriptors.h"
#include "helper/scenario/path-limits.h"
#include "helper/scenario/workloads/workload-kind.h"

#include "common/iwarp-constants.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Header octets per full-size packet for a workload's data (see the file comment of the header): its
 * carrier's (llp-descriptors.h), then DDP's tagged header for Writes and Read Responses, its untagged one
 * for Sends (each with RDMAP's control octets, RFC 5041 §4.2-§4.3).
 */
uint32_t
PayloadOverhead(const ScenarioConfig& cfg, const WorkloadConfig& w)
{
    const uint32_t framing = CarrierOf(w).framingOctets(TcpTimestampsOn(cfg, w));
    if (!IsRdma(w.kind) || !CarrierOf(w).ddp)
    {
        return framing; // RoCEv2's transport headers are its framing
    }
    const bool tagged = w.op != RdmaOp::Send; // Writes, Read Responses
    return framing + uint32_t(tagged ? iwarp::kDdpTaggedHdrLen : iwarp::kDdpUntaggedHdrLen);
}

/**
 * The workload's full packets: PayloadOverhead's headers, and for an LLP that is not a byte stream under DDP
 * (RoCEv2) its MULPDU as the most payload a packet carries (RoCEv2's does not depend on the path: its Mtu).
 */
PacketShape
ShapeOf(const ScenarioConfig& cfg, const WorkloadConfig& w)
{
    const LlpDescriptor& carrier = CarrierOf(w);
    if (!IsRdma(w.kind) || carrier.ddp || !carrier.mulpdu)
    {
        return PacketShape(PayloadOverhead(cfg, w));
    }
    return PacketShape(PayloadOverhead(cfg, w), carrier.mulpdu(cfg, std::numeric_limits<uint32_t>::max()).octets);
}

CheckResult
Check(std::string name, std::string subject, double bound, double value, bool pass, std::string unit,
      std::string detail)
{
    return CheckResult{std::move(name), std::move(subject), bound, value, std::move(unit), pass, std::move(detail)};
}

/** The messages of each workload, in cfg's order (messages.csv names incast flows "<workload>:<sender>"). */
std::vector<std::vector<const MessageRecord*>>
MessagesByWorkload(const ScenarioConfig& cfg, const RunResult& r)
{
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
    return messagesOf;
}

/** What one pass over a workload's messages finds, for the FCT, window and accounting checks. */
struct MessageScan
{
    uint64_t largest = 0;                 ///< the largest message's size
    std::size_t disordered = 0;           ///< messages whose times contradict each other
    const MessageRecord* worst = nullptr; ///< the delivered message closest to its FCT bound
    double worstFct = 0;
    double worstBound = 0;
    double worstMargin = std::numeric_limits<double>::infinity();
};

/** A flow's key among a workload's path limits: its source, and for a host group (traffic) its sink too. */
std::string
FlowKey(const WorkloadConfig& wc, const std::string& source, const std::string& sink)
{
    return IsHostGroup(wc.kind) ? source + ">" + sink : source;
}

MessageScan
ScanMessages(const WorkloadConfig& wc,
             const std::vector<const MessageRecord*>& messages,
             const std::map<std::string, PathLimits>& bySender)
{
    MessageScan s;
    for (const MessageRecord* mp : messages)
    {
        const MessageRecord& m = *mp;
        s.disordered += (m.delivered && *m.delivered < m.post) || (m.completed && *m.completed < m.post) ||
                                (m.firstPlaced && m.delivered && *m.firstPlaced > *m.delivered)
                            ? 1
                            : 0;
        s.largest = std::max(s.largest, m.size);
        auto it = bySender.find(FlowKey(wc, m.sender, m.receiver));
        if (!m.delivered || it == bySender.end())
        {
            continue;
        }
        const PathLimits& p = it->second;
        // Data that flows back first waits for its request to cross the path.
        const Time prop = DataFlowsBack(wc) ? p.propagation * 2 : p.propagation;
        const double bound = double(m.size) * 8.0 / p.bottleneckBps * 1e9 + double(prop.GetNanoSeconds());
        const double fct = double(m.Fct()->GetNanoSeconds());
        if (fct - bound < s.worstMargin)
        {
            s.worstMargin = fct - bound;
            s.worst = &m;
            s.worstFct = fct;
            s.worstBound = bound;
        }
    }
    return s;
}

/** Each ping-pong size's smallest half round trip against its one-way bound. */
void
AddLatencyChecks(const WorkloadResult& w,
                 const std::map<std::string, PathLimits>& bySender,
                 std::vector<CheckResult>& out)
{
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
}

/** A load's flows: none faster than its ideal FCT (ideal-fct.h), which leaves out only what slows a flow. */
void
AddIdealFctCheck(const WorkloadResult& w, const std::vector<const MessageRecord*>& messages,
                 std::vector<CheckResult>& out)
{
    const MessageRecord* worst = nullptr;
    double worstMargin = 0;
    for (const MessageRecord* m : messages)
    {
        if (!m->idealFct || !m->Fct())
        {
            continue;
        }
        const double margin = double((*m->Fct() - *m->idealFct).GetNanoSeconds());
        if (!worst || margin < worstMargin)
        {
            worst = m;
            worstMargin = margin;
        }
    }
    if (worst)
    {
        out.push_back(Check("fct >= ideal fct", w.name + "#" + std::to_string(worst->id),
                            double(worst->idealFct->GetNanoSeconds()), double(worst->Fct()->GetNanoSeconds()),
                            worstMargin >= 0, "ns",
                            "the flow closest to its ideal: " + std::to_string(worst->size) +
                                " octets alone on the empty network (doc/traffic.md)"));
    }
}

/** Octets and messages: none delivered that were not posted, none lost from the counts. */
void
AddAccountingChecks(const WorkloadResult& w,
                    std::size_t recorded,
                    std::size_t disordered,
                    std::vector<CheckResult>& out)
{
    out.push_back(Check("octets delivered <= posted", w.name, double(w.octetsPosted), double(w.octetsDelivered),
                        w.octetsDelivered <= w.octetsPosted, "octets", "counted per message"));
    // Every message has one status by construction (MessageRecord::Status): what can go wrong is
    // a record whose times contradict each other, or counts that lose messages on the way.
    const uint64_t accounted = w.messagesDelivered + w.messagesOutstanding + w.messagesFlushed +
                               (w.op == "inject" ? w.messagesPosted : 0);
    out.push_back(Check("every message delivered, outstanding or flushed", w.name, double(recorded),
                        double(accounted), accounted == recorded && disordered == 0, "messages",
                        std::to_string(disordered) + " messages with times out of order (delivered or "
                                                     "completed before posted, placed after delivered)"));
}

/** The checks of workload `i`; none for a workload without data flows (an injection). */
void
CheckWorkload(const ScenarioConfig& cfg,
              const Paths& paths,
              const RunResult& r,
              std::size_t i,
              const std::vector<const MessageRecord*>& messages,
              std::vector<CheckResult>& out)
{
    const WorkloadConfig& wc = cfg.workloads[i];
    const WorkloadResult& w = r.workloads[i];
    const std::vector<DataFlow> flows = DataFlowsOf(wc);
    if (flows.empty())
    {
        return;
    }
    const PacketShape shape = ShapeOf(cfg, wc);
    std::map<std::string, PathLimits> bySender; // by FlowKey
    std::map<std::string, double> sumBySink;
    for (const DataFlow& f : flows)
    {
        const PathLimits& p = bySender[FlowKey(wc, f.source, f.sink)] = paths.Limits(f.source, f.sink, shape);
        sumBySink[f.sink] += p.payloadLimitBps;
    }
    // Several senders share a sink's own links: those cap their sum.
    double limit = 0;
    for (const auto& [sink, sum] : sumBySink)
    {
        limit += std::min(sum, paths.HostLimit(sink, shape));
    }
    std::string how = "bottleneck payload rate for " + std::to_string(shape.overhead) +
                      " header octets per packet (+2 PPP)";
    if (shape.maxPayload != std::numeric_limits<uint32_t>::max())
    {
        how += " and at most " + std::to_string(shape.maxPayload) + " payload octets";
    }
    if (w.goodputBps)
    {
        out.push_back(Check("goodput <= payload limit", w.name, limit, *w.goodputBps, *w.goodputBps <= limit,
                            "bps", how));
    }
    const MessageScan s = ScanMessages(wc, messages, bySender);
    if (s.worst)
    {
        out.push_back(Check("fct >= serialisation + propagation", w.name + "#" + std::to_string(s.worst->id),
                            s.worstBound, s.worstFct, s.worstMargin >= 0, "ns",
                            "the message closest to its bound: " + std::to_string(s.worst->size) +
                                " octets at the bottleneck rate plus the path's propagation delay"));
    }
    if (w.goodputWindowBps && r.measure)
    {
        // Each message's octets are spread evenly over its arrival, an approximation (and over SCTP
        // consecutive messages arrive interleaved): each flow is allowed one message on top.
        const double window = (r.measure->second - r.measure->first).GetSeconds();
        const double slack = double(s.largest) * 8.0 * double(flows.size()) / window;
        out.push_back(Check("goodput in window <= payload limit + one message per flow", w.name, limit + slack,
                            *w.goodputWindowBps, *w.goodputWindowBps <= limit + slack, "bps", how));
    }
    AddLatencyChecks(w, bySender, out);
    AddIdealFctCheck(w, messages, out);
    AddAccountingChecks(w, messages.size(), s.disordered, out);
}

/** Utilisation: no core and no memory bus is busy for longer than the run. */
void
AddUtilisationChecks(const RunResult& r, std::vector<CheckResult>& out)
{
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
}

} // namespace

bool
TcpTimestampsOn(const ScenarioConfig& cfg, const WorkloadConfig& w)
{
    std::vector<std::string> ends = HostsOf(w);
    return std::all_of(ends.begin(), ends.end(), [&cfg](const std::string& h) {
        return h.empty() || ResolveTransport(cfg.transport, h).tcp.timestamps;
    });
}

std::vector<CheckResult>
RunPhysicsChecks(const ScenarioConfig& cfg, const BuiltTopology& topo, const RunResult& r)
{
    return RunPhysicsChecks(cfg, Paths(topo), r);
}

Paths
BoundingPaths(const Paths& asBuilt, const BuiltTopology& topo, const std::vector<EventRecord>& events)
{
    Paths paths = asBuilt;
    for (const EventRecord& e : events)
    {
        for (uint32_t link : e.rateBps || e.delay ? topo.FindLinks(e.a, e.b) : std::vector<uint32_t>{})
        {
            paths.Widen(link, e.rateBps ? double(*e.rateBps) : 0.0, e.delay.value_or(Time::Max()));
        }
    }
    return paths;
}

std::vector<CheckResult>
RunPhysicsChecks(const ScenarioConfig& cfg, const Paths& paths, const RunResult& r)
{
    std::vector<CheckResult> out;
    const std::vector<std::vector<const MessageRecord*>> messagesOf = MessagesByWorkload(cfg, r);
    for (std::size_t i = 0; i < cfg.workloads.size() && i < r.workloads.size(); ++i)
    {
        CheckWorkload(cfg, paths, r, i, messagesOf[i], out);
    }
    AddUtilisationChecks(r, out);
    return out;
}

} // namespace ns3
