#include "helper/scenario/scenario-runner.h"
#include "helper/scenario/scenario-events.h"
#include "helper/scenario/sections/scenario-sections.h"

#include "host/host-profile.h"

#include "helper/scenario/event-scheduler.h"
#include "helper/scenario/host-attributes.h"
#include "helper/common/units.h"
#include "helper/scenario/llp-descriptors.h"
#include "helper/scenario/link-drops.h"
#include "helper/scenario/physics-checks.h"
#include "helper/scenario/progress-bar.h"
#include "helper/scenario/queue-stats.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-transport.h"
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/series-recorder.h"
#include "helper/scenario/stats.h"

#include "common/iwarp-constants.h"
#include "common/time-resolution.h"
#include "host/host-counters.h"
#include "rnic/rnic-pipeline.h"
#include "rnic/rnic.h"

#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <chrono>
#include <exception>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

std::string
ResultsFolder(const ScenarioConfig& cfg, const ScenarioRunOptions& o)
{
    if (!o.outDir.empty())
    {
        return o.outDir;
    }
    return cfg.output.empty() ? "results/" + cfg.name : cfg.output;
}

/** The host profile `host` runs: its own `per-host` one, else the scenario's, else none (doc/host-model.md). */
std::string
HostProfileOf(const ScenarioConfig& cfg, const std::string& host)
{
    auto it = cfg.perHost.find(host);
    if (it != cfg.perHost.end() && !it->second.hostProfile.empty())
    {
        return it->second.hostProfile;
    }
    return cfg.hostProfile.empty() ? kNoHostProfile : cfg.hostProfile;
}

HostResult
HostRow(const std::string& name, Ptr<Node> node)
{
    const HostCounters c = HostCounters::FromNode(node);
    HostResult h;
    h.node = name;
    h.cpuBusyPerCore = c.coreBusy;
    h.busBytes = c.busBytes;
    h.counters["cpu_cycles"] = double(c.cpuCycles);
    h.counters["bus_busy_s"] = c.busBusy.GetSeconds();
    h.counters["copies"] = double(c.copies);
    h.counters["dma_transactions"] = double(c.dmas);
    h.counters["ddio_bytes"] = double(c.ddioBytes);
    for (const auto& [column, value] : c.Fields())
    {
        if (column.rfind("bus_bytes_", 0) == 0 || column.rfind("cpu_cycles_", 0) == 0)
        {
            h.counters[column] = std::stod(value);
        }
    }
    return h;
}

/** The RNIC profile `host` ran and what its engine carries at its link's MTU (HostResult::engineLimitBps). */
void
NoteEngine(const ScenarioConfig& cfg, const std::string& host, Ptr<Node> node, HostResult& h)
{
    const auto [bps, mtu] = FastestLink(node);
    h.rnicProfile = RnicProfileOf(cfg, host, bps);
    Ptr<Rnic> rnic = node->GetObject<Rnic>();
    if (!rnic || mtu == 0)
    {
        return;
    }
    Ptr<RnicPipeline> engine = CreateObject<RnicPipeline>(); // configured as the RNIC's own would be
    rnic->ConfigurePart(engine);
    h.engineLimitBps = engine->CeilingBps(DefaultLlp().mulpdu(cfg, mtu).octets, iwarp::kDdpTaggedHdrLen);
}

/** Pcaps on every link or on the links `tracing` names, into the results' temporary folder. */
void
EnablePcaps(const ScenarioConfig& cfg, const BuiltTopology& topo, ResultsWriter& writer)
{
    if (cfg.tracing.pcapAll)
    {
        topo.EnablePcapAll(writer.PcapDirectory(cfg.tracing.directory) + "/link");
    }
    for (const auto& [a, b] : cfg.tracing.pcapLinks)
    {
        topo.EnablePcap(writer.PcapDirectory(cfg.tracing.directory) + "/link", a, b);
    }
}

/** Run the simulation to the stop time, with the progress bar if asked for. */
void
Simulate(const ScenarioConfig& cfg, const ScenarioRunOptions& options, const BuiltTopology& topo)
{
    std::unique_ptr<ProgressBar> bar;
    if (options.progress)
    {
        bar = std::make_unique<ProgressBar>(cfg.stop);
        bar->Start();
    }
    if (options.beforeRun)
    {
        options.beforeRun(topo);
    }
    Simulator::Stop(cfg.stop);
    Simulator::Run();
    if (bar)
    {
        bar->Finish();
    }
}

/** What identifies the run and how far it went, as the simulator has it at the end. */
void
RecordRun(const ScenarioConfig& cfg, const std::string& scheduler, RunResult& r)
{
    r.scenario = cfg.name;
    r.seed = cfg.seed;
    r.run = cfg.run;
    r.scheduler = scheduler;
    r.switchFastPath = cfg.topology.switchFastPath;
    r.simulatedTime = Simulator::Now();
    r.stopTime = cfg.stop;
    r.events = Simulator::GetEventCount();
    r.scenarioYaml = cfg.resolvedYaml;
    r.overrides = cfg.overrides;
    if (cfg.measure)
    {
        r.measure = std::make_pair(cfg.measure->from, cfg.measure->to);
    }
}

} // namespace

namespace
{
/**
 * A run refused part-way (a link-change its port cannot take, ...) leaves events scheduled on objects about
 * to go: Simulator::Destroy on the way out, so that the next run in this process (Python's) starts clean.
 */
struct DestroyIfAbandoned
{
    ~DestroyIfAbandoned()
    {
        if (std::uncaught_exceptions() > 0)
        {
            Simulator::Destroy();
        }
    }
};
} // namespace

ScenarioOutcome
RunScenario(const ScenarioConfig& cfg, const ScenarioRunOptions& options)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (!iwarp::AtModuleTimeResolution())
    {
        // At nanoseconds a 40 Gb/s link would send each frame 0.4 ns early, and the results would say
        // nothing of it (common/time-resolution.h).
        std::ostringstream step;
        step << TimeStep(1).As(Time::AUTO);
        throw std::runtime_error("the scenario runner simulates at picosecond resolution "
                                 "(model/common/time-resolution.h), but ns-3's time step in this program is " +
                                 step.str() +
                                 ": call ns3::iwarp::UseModuleTimeResolution() first thing in main, as iwarp-sim "
                                 "does (Python: import iwarpsim before running any other ns-3 simulation)");
    }
    // Refuses an existing folder before anything is simulated.
    ResultsWriter writer(ResultsFolder(cfg, options));

    // Nothing here changes ns-3's process-wide attribute defaults, so that runs in one process do
    // not leak into each other: the `host:`/`rnic:`/`per-host` maps are given to each object as it is
    // made (host-attributes.h), `transport` and the socket attributes of those maps to each socket
    // by its node's TransportProfile (scenario-transport.h), and each workload's segment sizes, which
    // fill the MTU of its paths, to that profile as the workload starts (socket-defaults.h).
    RngSeedManager::SetSeed(cfg.seed);
    RngSeedManager::SetRun(cfg.run);
    // Before anything is scheduled: the topology and the workloads schedule their start events.
    const std::string scheduler = cfg.scheduler.empty() ? scenario::kDefaultScheduler : cfg.scheduler;
    scenario::UseScheduler(scheduler);
    ScenarioOutcome out;
    {
        const DestroyIfAbandoned abandoned;
        std::unique_ptr<BuiltTopology> topo = BuildScenarioNetwork(cfg);
        std::vector<HostTransport> transport = InstallTransport(cfg, *topo);
        ScenarioWorkloads workloads(cfg, *topo);
        workloads.Install();
        ScenarioEvents events(cfg, *topo); // before the drop counters: they tell its drops apart
        const Paths asBuilt(*topo); // before any link-change
        LinkDropCounters drops(*topo);
        QueueCounters queues(*topo);
        EnablePcaps(cfg, *topo, writer);
        std::unique_ptr<SeriesRecorder> series;
        if (cfg.tracing.series)
        {
            series = StartScenarioSeries(cfg, *topo, workloads);
        }
        Simulate(cfg, options, *topo);

        RunResult& r = out.result;
        RecordRun(cfg, scheduler, r);
        r.linkEvents = events.Collect();
        const Paths bounding = BoundingPaths(asBuilt, *topo, r.linkEvents);
        workloads.Collect(r, bounding);
        if (series)
        {
            r.seriesFile = FinishScenarioSeries(*series, workloads, writer.TempPath());
        }
        for (uint32_t i = 0; i < topo->hosts.GetN(); ++i)
        {
            r.hosts.push_back(HostRow(topo->hostNames[i], topo->hosts.Get(i)));
            r.hosts.back().profile = HostProfileOf(cfg, topo->hostNames[i]);
            NoteEngine(cfg, topo->hostNames[i], topo->hosts.Get(i), r.hosts.back());
        }
        r.drops = drops.Collect();
        r.queues = queues.Collect();
        r.transport = std::move(transport);
        r.pcap = cfg.tracing.Enabled();
        r.pcapDirectory = cfg.tracing.directory;
        r.checks = RunPhysicsChecks(cfg, bounding, r);
        Simulator::Destroy();
    }
    out.result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    writer.Write(out.result);
    writer.Commit();
    out.folder = writer.FinalPath();
    return out;
}

namespace
{

/** ": rate 1 Gb/s, delay 50 us, loss 0.01, queue 20p": what a link-change set ("" for other events). */
std::string
LinkChangeText(const EventRecord& e)
{
    std::vector<std::string> parts;
    if (e.rateBps)
    {
        parts.push_back("rate " + scenario::FormatRate(*e.rateBps));
    }
    if (e.delay)
    {
        parts.push_back("delay " + scenario::FormatTime(*e.delay));
    }
    if (e.loss)
    {
        std::ostringstream loss;
        loss << *e.loss;
        parts.push_back("loss " + loss.str());
    }
    if (e.queue)
    {
        parts.push_back("queue " + *e.queue);
    }
    std::string out;
    for (const std::string& p : parts)
    {
        out += (out.empty() ? ": " : ", ") + p;
    }
    return out;
}

/** A collective's line: its iterations against its ideal, or why none began. */
void
WriteCollectiveLine(std::ostream& os, const CollectiveResult& c)
{
    os << "    " << c.algorithm << " over " << c.ranks.size() << " ranks: ";
    if (c.ranksReady < c.ranks.size())
    {
        os << "only " << c.ranksReady << " of " << c.ranks.size() << " ranks connected, no iteration began\n";
        return;
    }
    const SampleStats t = c.CompletionNs();
    os << t.count << " of " << c.iterations << " iterations completed";
    if (t.count)
    {
        os << ", completion mean " << t.mean / 1e3 << " us, max " << t.max / 1e3 << " us";
        if (c.ideal)
        {
            os << " (ideal " << double(c.ideal->GetNanoSeconds()) / 1e3 << " us, mean x"
               << t.mean / double(c.ideal->GetNanoSeconds()) << ")";
        }
        os << ", bus bandwidth " << c.BusBandwidthBps().value_or(0) / 1e9 << " Gb/s";
    }
    for (const CollectiveHalt& h : c.halted)
    {
        os << "; rank " << h.rank << " (" << c.ranks.at(h.rank) << ") halted in iteration " << h.iteration << ": "
           << h.why;
    }
    os << "\n";
}

/** A workload's multihomed SCTP associations' failovers and returns to the primary, for its run line. */
void
WriteDataPathChanges(std::ostream& os, const WorkloadResult& w)
{
    for (const SctpAssociationRecord& a : w.sctpAssociations)
    {
        for (const SctpFailoverRecord& c : a.failovers)
        {
            os << ", SCTP " << a.connection << " at " << a.node << (c.toPrimary ? " back to " : " failed over to ")
               << c.to;
            if (c.sinceFailure)
            {
                os << " " << c.sinceFailure->GetSeconds() * 1e3 << " ms after the failure";
            }
        }
    }
}

/** One workload's line (and its sizes' lines) of the run's summary. */
void
WriteWorkloadLine(std::ostream& os, const WorkloadResult& w)
{
    // Figures as doc/metrics.md defines them: at the sink, never what a sender handed off.
    os << "  " << w.name << " (" << w.kind << (w.op.empty() ? "" : " " + w.op) << "): " << w.messagesDelivered
       << "/" << w.messagesPosted << " messages delivered";
    if (w.messagesOutstanding)
    {
        os << ", " << w.messagesOutstanding << " outstanding at stop";
    }
    if (w.messagesFlushed)
    {
        os << ", " << w.messagesFlushed << " flushed";
    }
    if (w.goodputBps)
    {
        os << ", goodput " << *w.goodputBps / 1e9 << " Gb/s";
    }
    if (w.goodputWindowBps)
    {
        os << " (" << *w.goodputWindowBps / 1e9 << " Gb/s in the measure window)";
    }
    if (w.longestStall)
    {
        os << ", longest stall " << double(w.longestStall->GetNanoSeconds()) / 1e3 << " us";
    }
    if (!w.pingPong && w.fctNs.count)
    {
        os << ", FCT p50 " << w.fctNs.p50 / 1e3 << " us, p99 " << w.fctNs.p99 / 1e3 << " us";
    }
    if (w.retransmissions.total > 0)
    {
        os << ", " << w.retransmissions.total << " retransmissions (" << w.retransmissions.fast << " fast, "
           << w.retransmissions.timeout << " after " << w.retransmissions.rtoExpirations << " timeouts)";
    }
    for (const Outage& o : w.outages)
    {
        if (o.longest)
        {
            os << ", outage after " << o.at.GetSeconds() * 1e3 << " ms: " << o.longest->GetSeconds() * 1e3 << " ms"
               << (o.recovered ? "" : " (not over)");
        }
    }
    WriteDataPathChanges(os, w);
    if (!w.terminates.empty())
    {
        os << ", " << w.terminates.size() << " Terminates";
    }
    if (w.connections.NotEstablished() > 0)
    {
        os << ", " << w.connections.NotEstablished() << " of " << w.connections.attempted
           << " connections not established";
    }
    if (w.connections.lost > 0)
    {
        os << ", " << w.connections.lost << " connections lost";
    }
    if (!w.start)
    {
        std::string names;
        for (const std::string& n : w.waitingFor)
        {
            names += (names.empty() ? "" : ", ") + n;
        }
        os << ", never started (waits for " << names << " to complete)";
    }
    os << (w.completed ? "" : ", not completed") << "\n";
    for (const SizeLatency& l : w.latencyBySize)
    {
        os << "    " << l.size << " B: half round trip p50 " << l.ns.p50 / 1e3 << " us, p99 " << l.ns.p99 / 1e3
           << " us, max " << l.ns.max / 1e3 << " us (" << l.ns.count << " round trips)\n";
    }
    if (w.collective)
    {
        WriteCollectiveLine(os, *w.collective);
    }
}

} // namespace

std::string
SummarizeRun(const ScenarioOutcome& o)
{
    std::ostringstream os;
    const RunResult& r = o.result;
    os << std::fixed << std::setprecision(2);
    os << "scenario " << r.scenario << ": " << r.simulatedTime.GetSeconds() * 1e3 << " ms simulated in "
       << r.wallSeconds << " s (" << r.events << " events)\n";
    for (const WorkloadResult& w : r.workloads)
    {
        WriteWorkloadLine(os, w);
    }
    uint64_t dropped = 0;
    for (const LinkDrops& d : r.drops)
    {
        dropped += d.queue + d.impairment + d.linkDown;
    }
    for (const EventRecord& e : r.linkEvents)
    {
        const bool oneWay = e.direction == scenario::NameOf(scenario::LinkDirectionNames(), LinkDirection::Forward);
        os << "  " << e.action << " " << (e.node.empty() ? e.a + "-" + e.b : e.node) << (oneWay ? " (one way)" : "")
           << " at " << e.at.GetSeconds() * 1e3 << " ms";
        if (e.action == scenario::NameOf(scenario::LinkEventActionNames(), LinkEventAction::Down) ||
            e.action == scenario::NameOf(scenario::LinkEventActionNames(), LinkEventAction::NodeDown))
        {
            os << ": " << e.dropped << " packets lost";
        }
        if (e.reroutedAt)
        {
            os << ", rerouted at " << e.reroutedAt->GetSeconds() * 1e3 << " ms";
        }
        os << LinkChangeText(e) << "\n";
    }
    if (dropped)
    {
        os << "  " << dropped << " packets dropped on " << r.drops.size() << " links (summary.json: drops)\n";
    }
    uint64_t marked = 0;
    for (const QueueResult& q : r.queues)
    {
        marked += q.marked;
    }
    if (marked)
    {
        os << "  " << marked << " packets ECN-marked (summary.json: queues)\n";
    }
    os << "results: " << o.folder << "\n";
    return os.str();
}

std::string
FailedChecksReport(const RunResult& r)
{
    std::ostringstream os;
    os.precision(6);
    for (const CheckResult& c : r.checks)
    {
        if (!c.pass)
        {
            os << "warning: check failed: " << c.name << ": " << c.subject << ": " << c.value << " " << c.unit
               << " against the bound " << c.bound << " " << c.unit << " (" << c.detail << ")\n";
        }
    }
    return os.str();
}

} // namespace ns3
