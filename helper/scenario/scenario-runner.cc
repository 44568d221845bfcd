#include "helper/scenario/scenario-runner.h"

#include "helper/scenario/progress-bar.h"
#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/stats.h"

#include "host/host-counters.h"

#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <chrono>
#include <iomanip>
#include <sstream>

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
    for (const auto& [column, value] : c.Fields())
    {
        if (column.rfind("bus_bytes_", 0) == 0)
        {
            h.counters[column] = std::stod(value);
        }
    }
    return h;
}

} // namespace

ScenarioOutcome
RunScenario(const ScenarioConfig& cfg, const ScenarioRunOptions& options)
{
    const auto t0 = std::chrono::steady_clock::now();
    // Refuses an existing folder before anything is simulated.
    ResultsWriter writer(ResultsFolder(cfg, options));

    // The runner's own TCP defaults, which a scenario's `host:` map may override: segments that fill
    // the link MTU (ns-3's default SegmentSize is 536 octets, which would cut every FPDU and sockets
    // message into small segments), and 4 MiB socket buffers so that the window, not ns-3's 128 KiB
    // default, is not what limits a 10 Gb/s path with a few hundred microseconds of RTT.
    const uint32_t mtu = cfg.links.mtu.value_or(1500);
    ScopedAttributeDefaults tcpDefaults(AttributeMap{
        {"ns3::TcpSocket::SegmentSize", std::to_string(mtu > 52 + 536 ? mtu - 52 : 536)}, // IP, TCP, timestamps
        {"ns3::TcpSocket::SndBufSize", std::to_string(4u << 20)},
        {"ns3::TcpSocket::RcvBufSize", std::to_string(4u << 20)}});
    // Every RNIC, pipeline, MPA connection and host model made during the run gets these; they are
    // put back afterwards.
    ScopedAttributeDefaults hostDefaults(cfg.host);
    ScopedAttributeDefaults rnicDefaults(cfg.rnic);
    RngSeedManager::SetSeed(cfg.seed);
    RngSeedManager::SetRun(cfg.run);
    ScenarioOutcome out;
    {
        std::unique_ptr<BuiltTopology> topo = BuildScenarioNetwork(cfg);
        ScenarioWorkloads workloads(cfg, *topo);
        workloads.Install();
        if (cfg.tracing.pcapAll)
        {
            topo->EnablePcapAll(writer.PcapDirectory() + "/link");
        }
        for (const auto& [a, b] : cfg.tracing.pcapLinks)
        {
            topo->EnablePcap(writer.PcapDirectory() + "/link", a, b);
        }

        std::unique_ptr<ProgressBar> bar;
        if (options.progress)
        {
            bar = std::make_unique<ProgressBar>(cfg.stop);
            bar->Start();
        }
        Simulator::Stop(cfg.stop);
        Simulator::Run();
        if (bar)
        {
            bar->Finish();
        }

        RunResult& r = out.result;
        r.scenario = cfg.name;
        r.seed = cfg.seed;
        r.run = cfg.run;
        r.simulatedTime = Simulator::Now();
        r.stopTime = cfg.stop;
        r.events = Simulator::GetEventCount();
        r.scenarioYaml = cfg.resolvedYaml;
        r.overrides = cfg.overrides;
        workloads.Collect(r);
        for (uint32_t i = 0; i < topo->hosts.GetN(); ++i)
        {
            r.hosts.push_back(HostRow(topo->hostNames[i], topo->hosts.Get(i)));
        }
        Simulator::Destroy();
    }
    out.result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    writer.Write(out.result);
    writer.Commit();
    out.folder = writer.FinalPath();
    return out;
}

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
        os << "  " << w.name << " (" << w.kind << "): " << w.messages << " messages, " << w.bytes << " bytes";
        if (w.throughputBps)
        {
            os << ", " << *w.throughputBps / 1e9 << " Gb/s";
        }
        if (!w.latencies.empty())
        {
            std::vector<double> us;
            for (const Time& t : w.latencies)
            {
                us.push_back(t.GetNanoSeconds() / 1e3);
            }
            const SampleStats s = ComputeStats(us);
            os << ", latency p50 " << s.p50 << " us, p99 " << s.p99 << " us";
        }
        if (w.retransmissions > 0)
        {
            os << ", " << w.retransmissions << " retransmissions";
        }
        if (!w.terminates.empty())
        {
            os << ", " << w.terminates.size() << " Terminates";
        }
        os << "\n";
    }
    os << "results: " << o.folder << "\n";
    return os.str();
}

} // namespace ns3
