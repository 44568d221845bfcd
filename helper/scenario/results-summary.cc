/*
 * summary.json (format 2) and the small helpers of the result records: one place that turns a
 * RunResult into the document doc/scenario-format.md and doc/metrics.md describe, so that the
 * CLI, the Python bindings and the sweeps all read the same figures.
 */
#include "helper/scenario/results-writer.h"
#include "helper/scenario/transport-keys.h"

#include <nlohmann/json.hpp>

namespace ns3
{

namespace
{

using nlohmann::json;

/** A statistic, or null when there is no sample: 0 ns would read as a measurement. */
json
Stats(const SampleStats& s)
{
    json j;
    j["count"] = s.count;
    j["p50"] = s.count ? json(s.p50) : json(nullptr);
    j["p99"] = s.count ? json(s.p99) : json(nullptr);
    j["mean"] = s.count ? json(s.mean) : json(nullptr);
    j["max"] = s.count ? json(s.max) : json(nullptr);
    return j;
}

json
OptionalNs(const std::optional<Time>& t)
{
    return t ? json(t->GetNanoSeconds()) : json(nullptr);
}

json
OptionalNumber(const std::optional<double>& v)
{
    return v ? json(*v) : json(nullptr);
}

/** A collective's facts and each iteration's times (doc/collectives.md); the steps are in collective-steps.csv. */
json
CollectiveJson(const CollectiveResult& c)
{
    json out = {{"algorithm", c.algorithm},
                {"ranks", c.ranks},
                {"size_octets", c.octets},
                {"iterations", c.iterations},
                {"gap_ns", c.gap.GetNanoSeconds()},
                {"bus_factor", c.busFactor},
                {"ranks_ready", c.ranksReady},
                {"halted", json::array()},
                {"per_iteration", json::array()}};
    for (const CollectiveHalt& h : c.halted)
    {
        out["halted"].push_back({{"rank", h.rank},
                                 {"host", c.ranks.at(h.rank)},
                                 {"iteration", h.iteration},
                                 {"time_ns", h.at.GetNanoSeconds()},
                                 {"why", h.why}});
    }
    for (const CollectiveIteration& i : c.started)
    {
        const std::optional<Time> end = i.End();
        // The rank that ended last holds the others up (a straggler), among those that ended.
        std::optional<std::size_t> last;
        for (std::size_t r = 0; r < i.rankEnd.size(); ++r)
        {
            if (i.rankEnd[r] && (!last || *i.rankEnd[r] > *i.rankEnd[*last]))
            {
                last = r;
            }
        }
        json ranksEnd = json::array();
        for (const std::optional<Time>& e : i.rankEnd)
        {
            ranksEnd.push_back(e ? json((*e - i.begun).GetNanoSeconds()) : json(nullptr));
        }
        out["per_iteration"].push_back({{"iteration", i.iteration},
                                        {"begun_ns", i.begun.GetNanoSeconds()},
                                        {"completion_ns", end ? json((*end - i.begun).GetNanoSeconds()) : json(nullptr)},
                                        {"last_rank", last ? json(*last) : json(nullptr)},
                                        {"rank_end_ns", ranksEnd}});
    }
    return out;
}

json
TerminatesJson(const std::vector<TerminateRecord>& terminates)
{
    json out = json::array();
    for (const auto& t : terminates)
    {
        out.push_back({{"time_ns", t.time.GetNanoSeconds()},
                       {"node", t.node},
                       {"direction", t.sent ? "sent" : "received"},
                       {"layer", t.layer},
                       {"type", t.type},
                       {"code", t.code}});
    }
    return out;
}

/** A workload's outages, one per link-down event (doc/metrics.md). */
json
OutagesJson(const std::vector<Outage>& outages)
{
    json out = json::array();
    for (const Outage& o : outages)
    {
        out.push_back({{"at_ns", o.at.GetNanoSeconds()},
                       {"flows", o.flows},
                       {"outage_ns", OptionalNs(o.longest)},
                       {"recovered", o.recovered}});
    }
    return out;
}

/** A collective's object and its metrics (null for other kinds: every workload has every field). */
void
AddCollective(const WorkloadResult& w, json& jw)
{
    jw["collective"] = nullptr;
    jw["collective_completion_ns"] = nullptr;
    jw["collective_ideal_ns"] = nullptr;
    jw["collective_busbw_bps"] = nullptr;
    if (w.collective)
    {
        jw["collective"] = CollectiveJson(*w.collective);
        jw["collective_completion_ns"] = Stats(w.collective->CompletionNs());
        jw["collective_ideal_ns"] = OptionalNs(w.collective->ideal);
        jw["collective_busbw_bps"] = OptionalNumber(w.collective->BusBandwidthBps());
    }
}

/** What the workload's LLP connections did: retransmissions, multihomed associations, connections, Terminates. */
void
AddTransportOutcome(const WorkloadResult& w, json& jw)
{
    jw["retransmissions"] = {{"total", w.retransmissions.total},
                             {"fast", w.retransmissions.fast},
                             {"timeout", w.retransmissions.timeout},
                             {"rto_expirations", w.retransmissions.rtoExpirations}};
    jw["sctp_associations"] = SctpAssociationsJson(w.sctpAssociations); // [] unless multihomed
    jw["connections"] = {{"attempted", w.connections.attempted},
                         {"established", w.connections.established},
                         {"not_established", w.connections.NotEstablished()},
                         {"lost", w.connections.lost}};
    jw["terminates"] = TerminatesJson(w.terminates);
}

json
WorkloadJson(const WorkloadResult& w)
{
    json jw;
    jw["name"] = w.name;
    jw["kind"] = w.kind;
    jw["op"] = w.op;
    jw["llp"] = w.llp;
    jw["data_flows"] = json::array();
    for (const DataFlow& f : w.dataFlows)
    {
        jw["data_flows"].push_back({{"source", f.source}, {"sink", f.sink}});
    }
    jw["after"] = w.after;
    jw["start_ns"] = OptionalNs(w.start);
    jw["messages"] = {{"posted", w.messagesPosted},
                      {"delivered", w.messagesDelivered},
                      {"completed", w.messagesCompleted},
                      {"outstanding", w.messagesOutstanding},
                      {"flushed", w.messagesFlushed}};
    jw["octets"] = {{"posted", w.octetsPosted}, {"delivered", w.octetsDelivered}};
    jw["completed"] = w.completed;
    jw["completed_ns"] = OptionalNs(w.completedAt);
    jw["goodput_bps"] = OptionalNumber(w.goodputBps);
    jw["goodput_window_bps"] = OptionalNumber(w.goodputWindowBps);
    jw["longest_stall_ns"] = OptionalNs(w.longestStall);
    jw["outages"] = OutagesJson(w.outages); // [] without link-down events
    jw["first_post_ns"] = OptionalNs(w.firstPost);
    jw["last_delivery_ns"] = OptionalNs(w.lastDelivery);
    jw["fct_ns"] = Stats(w.fctNs);
    jw["sender_completion_ns"] = Stats(w.senderCompletionNs);
    jw["latency_by_size"] = json::array();
    for (const SizeLatency& l : w.latencyBySize)
    {
        json e = Stats(l.ns);
        e["size"] = l.size;
        jw["latency_by_size"].push_back(e);
    }
    jw["traffic"] = nullptr;
    if (w.traffic)
    {
        jw["traffic"] = {{"arrivals", w.traffic->arrivals},
                         {"load", OptionalNumber(w.traffic->load)},
                         {"outstanding", w.traffic->outstanding ? json(*w.traffic->outstanding) : json(nullptr)},
                         {"flow_sizes", w.traffic->flowSizes},
                         {"pattern", w.traffic->pattern},
                         {"target", w.traffic->target.empty() ? json(nullptr) : json(w.traffic->target)},
                         {"incast_fraction", OptionalNumber(w.traffic->incastFraction)},
                         {"pairs", w.traffic->pairs},
                         {"hosts", w.traffic->hosts},
                         {"offered_load", OptionalNumber(w.traffic->offeredLoad)}};
    }
    AddCollective(w, jw);
    jw["slowdown"] = nullptr;
    if (w.slowdown)
    {
        jw["slowdown"] = json::array();
        for (const SlowdownBucket& b : *w.slowdown)
        {
            jw["slowdown"].push_back({{"min_octets", b.minOctets},
                                      {"max_octets", b.maxOctets},
                                      {"flows", b.flows},
                                      {"not_completed", b.notCompleted},
                                      {"p50", OptionalNumber(b.p50)},
                                      {"p95", OptionalNumber(b.p95)},
                                      {"p99", OptionalNumber(b.p99)},
                                      {"p999", OptionalNumber(b.p999)},
                                      {"fct_p50_ns", OptionalNumber(b.fctP50Ns)},
                                      {"fct_p99_ns", OptionalNumber(b.fctP99Ns)}});
        }
    }
    AddTransportOutcome(w, jw);
    return jw;
}

/** One host's transport settings as run (doc/metrics.md, "transport"): each key's fields (transport-keys.cc). */
json
TransportJson(const TransportSettings& s)
{
    json out = {{"tcp", json::object()}, {"sctp", json::object()}};
    for (const TransportKey& k : TransportKeys())
    {
        if (k.record)
        {
            k.record(s, out[k.Section()]);
        }
    }
    return out;
}

/** Each host's CPU busy time per core, bus octets and counters (host.csv has the same figures). */
json
HostsJson(const std::vector<HostResult>& hosts)
{
    json out = json::array();
    for (const auto& h : hosts)
    {
        json cores = json::array();
        for (const Time& t : h.cpuBusyPerCore)
        {
            cores.push_back(t.GetNanoSeconds());
        }
        out.push_back({{"node", h.node},
                       {"profile", h.profile},
                       {"rnic", {{"profile", h.rnicProfile}, {"engine_limit_bps", h.engineLimitBps}}},
                       {"cpu_busy_ns", cores},
                       {"bus_bytes", h.busBytes},
                       {"counters", h.counters}});
    }
    return out;
}

/** The drops on every link, by cause, and their totals. */
json
DropsJson(const std::vector<LinkDrops>& drops)
{
    uint64_t queue = 0;
    uint64_t impairment = 0;
    uint64_t linkDown = 0;
    json links = json::array();
    for (const LinkDrops& d : drops)
    {
        queue += d.queue;
        impairment += d.impairment;
        linkDown += d.linkDown;
        links.push_back(
            {{"a", d.a}, {"b", d.b}, {"queue", d.queue}, {"impairment", d.impairment}, {"link_down", d.linkDown}});
    }
    json out = {{"total", queue + impairment + linkDown}, {"queue", queue}, {"impairment", impairment},
                {"link_down", linkDown}, {"links", links}};
    return out;
}

/** A link-change's new values, those it sets; null for the other actions. */
json
ChangesJson(const EventRecord& e)
{
    if (!e.rateBps && !e.delay && !e.loss && !e.queue)
    {
        return nullptr;
    }
    json out = json::object();
    if (e.rateBps)
    {
        out["rate_bps"] = *e.rateBps;
    }
    if (e.delay)
    {
        out["delay_ns"] = e.delay->GetNanoSeconds();
    }
    if (e.loss)
    {
        out["loss"] = *e.loss;
    }
    if (e.queue)
    {
        out["queue"] = *e.queue;
    }
    return out;
}

/** The scenario's events as run (doc/failures.md). */
json
EventsJson(const std::vector<EventRecord>& events)
{
    json out = json::array();
    for (const EventRecord& e : events)
    {
        out.push_back({{"at_ns", e.at.GetNanoSeconds()},
                       {"action", e.action},
                       {"between", e.node.empty() ? json({e.a, e.b}) : json(nullptr)},
                       {"node", e.node.empty() ? json(nullptr) : json(e.node)},
                       {"direction", e.direction},
                       {"dropped_packets", e.dropped},
                       {"rerouted_ns", OptionalNs(e.reroutedAt)},
                       {"changes", ChangesJson(e)}});
    }
    return out;
}

/** The ports that saw a packet (queues.csv has them all), with their drops and marks by reason. */
json
QueuesJson(const std::vector<QueueResult>& queues)
{
    json out = json::array();
    for (const QueueResult& q : queues)
    {
        if (q.enqueued + q.dropped + q.deviceEnqueued == 0)
        {
            continue;
        }
        json pfc = nullptr;
        if (q.pfc)
        {
            pfc = {{"xoff_sent", q.pfc->xoffSent},         {"xon_sent", q.pfc->xonSent},
                   {"pauses_received", q.pfc->pausesReceived}, {"paused_ns", q.pfc->pausedTime.GetNanoSeconds()},
                   {"peak_ingress_bytes", q.pfc->peakIngress}, {"xoff_bytes", q.pfc->xoff},
                   {"headroom_bytes", q.pfc->headroom}};
        }
        out.push_back({{"node", q.node},
                       {"peer", q.peer},
                       {"role", q.role},
                       {"kind", q.kind},
                       {"limit", q.limit},
                       {"enqueued", q.enqueued},
                       {"dequeued", q.dequeued},
                       {"dropped", q.dropped},
                       {"marked", q.marked},
                       {"drop_reasons", q.dropReasons},
                       {"mark_reasons", q.markReasons},
                       {"peak_packets", q.peakPackets},
                       {"peak_bytes", q.peakBytes},
                       {"device", {{"enqueued", q.deviceEnqueued},
                                   {"dropped", q.deviceDropped},
                                   {"peak_packets", q.devicePeakPackets}}},
                       {"pfc", pfc}});
    }
    return out;
}

json
ChecksJson(const std::vector<CheckResult>& checks)
{
    json out = json::array();
    for (const CheckResult& c : checks)
    {
        out.push_back({{"name", c.name},
                       {"subject", c.subject},
                       {"bound", c.bound},
                       {"value", c.value},
                       {"unit", c.unit},
                       {"pass", c.pass},
                       {"detail", c.detail}});
    }
    return out;
}

/** The files of the results folder besides summary.json: the optional ones only when written. */
json
FilesJson(const RunResult& r)
{
    json files = {{"messages", "messages.csv"}, {"hosts", "host.csv"}};
    if (!r.queues.empty())
    {
        files["queues"] = "queues.csv";
    }
    if (!r.scenarioYaml.empty())
    {
        files["scenario"] = "scenario.yaml";
    }
    if (!r.pcapFiles.empty() || r.pcap)
    {
        files["pcap"] = r.pcapDirectory;
    }
    if (!r.seriesFile.empty())
    {
        files["series"] = r.seriesFile;
    }
    return files;
}

} // namespace

const char*
ToString(MessageStatus s)
{
    switch (s)
    {
    case MessageStatus::Delivered:
        return "delivered";
    case MessageStatus::Outstanding:
        return "outstanding";
    case MessageStatus::Flushed:
        return "flushed";
    case MessageStatus::Injected:
        return "injected";
    }
    return "?";
}

MessageStatus
MessageRecord::Status() const
{
    if (op == "inject")
    {
        return completed ? MessageStatus::Injected : MessageStatus::Outstanding;
    }
    if (delivered)
    {
        return MessageStatus::Delivered;
    }
    return failed ? MessageStatus::Flushed : MessageStatus::Outstanding;
}

std::optional<Time>
MessageRecord::Fct() const
{
    if (!delivered)
    {
        return std::nullopt;
    }
    return *delivered - post;
}

std::size_t
RunResult::FailedChecks() const
{
    std::size_t n = 0;
    for (const CheckResult& c : checks)
    {
        n += c.pass ? 0 : 1;
    }
    return n;
}

std::string
ResultsWriter::SummaryJson(const RunResult& r)
{
    json j;
    j["format"] = kSummaryFormat;
    j["scenario"] = r.scenario;
    j["seed"] = r.seed;
    j["run"] = r.run;
    j["scheduler"] = r.scheduler;
    j["switch_fast_path"] = r.switchFastPath;
    j["wall_time_s"] = r.wallSeconds;
    j["simulated_time_s"] = r.simulatedTime.GetSeconds();
    j["stop_time_s"] = r.stopTime.GetSeconds();
    j["overrides"] = r.overrides;
    j["events"] = r.events;
    j["events_per_wall_s"] = r.wallSeconds > 0 ? json(double(r.events) / r.wallSeconds) : json(nullptr);
    j["measure"] = r.measure ? json{{"from_ns", r.measure->first.GetNanoSeconds()},
                                    {"to_ns", r.measure->second.GetNanoSeconds()}}
                             : json(nullptr);
    j["workloads"] = json::array();
    for (const auto& w : r.workloads)
    {
        j["workloads"].push_back(WorkloadJson(w));
    }
    j["hosts"] = HostsJson(r.hosts);
    j["drops"] = DropsJson(r.drops);
    j["link_events"] = EventsJson(r.linkEvents);
    j["queues"] = QueuesJson(r.queues);
    j["checks"] = ChecksJson(r.checks);
    j["checks_failed"] = r.FailedChecks();
    j["transport"] = json::object();
    for (const HostTransport& h : r.transport)
    {
        j["transport"][h.node] = TransportJson(h.settings);
    }
    j["files"] = FilesJson(r);
    return j.dump(2) + "\n";
}

} // namespace ns3
