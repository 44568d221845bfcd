/*
 * Benchmark (issue 28): a data-center load on the k = 8 fat-tree of iwarp-bench-fat-tree (128 hosts, 80
 * switches, 10 Gb/s links, 1 us, per-flow ECMP, DCTCP with RED marking at 30 packets), side by side with a
 * permutation of RDMA Write streams on the same fabric for the same simulated time:
 *  (a) the `traffic` workload: 50 % web-search load, Poisson arrivals, RDMA Writes over MPA/TCP, connections
 *      kept per host pair;
 *  (b) the same load as the sockets baseline (`sockets-traffic`: the same flows over plain TCP sockets, each
 *      host charged for its copies by the `current` host profile);
 *  (c) the permutation h(i) -> h(i+64), 64 KiB Writes, 4 in flight per stream.
 * Printed per run: flows started and delivered, events, CPU seconds, events per CPU second, peak RSS, and the
 * heap in use just before the stop with the flows in flight and the connections then, and the heap per flow
 * in flight and per connection. The load keeps no per-flow object beyond a message's record (about a hundred
 * octets): its heap is the connections' (queue pairs, sockets and their buffers) and the packets in flight. Then the load's CPU and heap extrapolated to 100 ms of simulated time (linear in flows: the
 * load is stationary) against the target of 10 CPU minutes and 4 GiB.
 *
 *   build/iwarp-bench-traffic [--duration=20ms] [--load=0.5]
 *
 * Each run is a child process of its own (bench-common.h); nothing here is a timed assertion.
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "bench/bench-scenario.h"
#include "helper/scenario/scenario-runner.h"

#include "ns3/command-line.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::bench;

namespace
{

std::string
Fabric(const std::string& duration)
{
    return "name: traffic-bench\nstop: " + duration +
           "\ntopology: {kind: fat-tree, k: 8, ecmp: true}\n"
           "links: {rate: 10Gbps, delay: 1us, queue: 200p, queue-disc: {kind: red, red: {threshold: 30p}}}\n"
           "transport:\n  tcp: {congestion: Dctcp}\n"
           "workloads:\n";
}

std::string
Load(const std::string& duration, double load, const std::string& kind)
{
    std::ostringstream y;
    y << Fabric(duration) << "  - {name: web, kind: " << kind << ", flow-sizes: web-search, load: " << load
      << ", duration: " << duration << "}\n";
    return y.str();
}

std::string
Permutation(const std::string& duration)
{
    std::ostringstream y;
    y << Fabric(duration);
    for (int i = 0; i < 128; ++i)
    {
        y << "  - {kind: stream, op: write, from: h" << i << ", to: h" << (i + 64) % 128
          << ", size: 65536, outstanding: 4, duration: " << duration << "}\n";
    }
    return y.str();
}

/** Messages posted by `t` and not delivered by then. */
uint64_t
InFlightAt(const ns3::RunResult& r, Time t)
{
    uint64_t n = 0;
    for (const MessageRecord& m : r.messages)
    {
        n += m.post <= t && (!m.delivered || *m.delivered > t) ? 1 : 0;
    }
    return n;
}

/** A side of the load: RunScenarioYaml's figures, and the flows posted, delivered and in flight at the heap's sample. */
Side
LoadSide(const std::string& name, const std::string& yaml, Time stop)
{
    const Time sampled = stop - NanoSeconds(1);
    return bench::ScenarioSide(name, yaml, stop, {}, [sampled](const ns3::RunResult& r, bench::RunResult& m) {
        for (const WorkloadResult& w : r.workloads)
        {
            m.flows += w.messagesPosted;
            m.flowsDelivered += w.messagesDelivered;
            m.connections += w.connections.established;
        }
        m.flowsInFlight = InFlightAt(r, sampled);
    });
}

void
PrintRow(const std::string& name, const bench::RunResult& r)
{
    std::cout << std::left << std::setw(34) << name << std::right << std::setw(9) << r.flows << std::setw(10)
              << r.flowsDelivered << std::setw(11) << r.events << std::fixed << std::setprecision(2) << std::setw(8)
              << r.cpu << std::setprecision(0) << std::setw(11) << r.events / std::max(r.cpu, 1e-9)
              << std::setprecision(1) << std::setw(9) << r.rssMiB << std::setw(9) << r.heapMiB << std::setw(10)
              << r.flowsInFlight << std::setw(12)
              << (r.flowsInFlight ? r.heapMiB * 1024 / double(r.flowsInFlight) : 0.0) << std::setw(7) << r.connections
              << std::setw(10) << (r.connections ? r.heapMiB * 1024 / double(r.connections) : 0.0) << "\n";
}

} // namespace

int
main(int argc, char** argv)
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    std::string duration = "20ms";
    double load = 0.5;
    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time flows start for (and the run's stop)", duration);
    cmd.AddValue("load", "The load's fraction of each host's link", load);
    cmd.Parse(argc, argv);
    const Time stop(duration);

    const bench::RunResult traffic =
        RunIsolated(LoadSide("(a) traffic, web-search", Load(duration, load, "traffic"), stop));
    const bench::RunResult sockets =
        RunIsolated(LoadSide("(b) sockets-traffic, web-search", Load(duration, load, "sockets-traffic"), stop));
    const bench::RunResult perm = RunIsolated(LoadSide("(c) permutation streams", Permutation(duration), stop));

    std::cout << "== k=8 fat-tree (128 hosts, 10 Gb/s, ECMP, DCTCP + RED 30p), " << duration << "; (a) "
              << load * 100 << " % web-search load, RDMA Writes over MPA/TCP; (b) the same flows over sockets ==\n"
              << std::left << std::setw(34) << "run" << std::right << std::setw(9) << "flows" << std::setw(10)
              << "delivered" << std::setw(11) << "events" << std::setw(8) << "cpu s" << std::setw(11) << "ev/cpu s"
              << std::setw(9) << "RSS MiB" << std::setw(9) << "heap MiB" << std::setw(10) << "in flight"
              << std::setw(12) << "KiB/flight" << std::setw(7) << "conns" << std::setw(10) << "KiB/conn" << "\n";
    PrintRow("(a) traffic, web-search", traffic);
    PrintRow("(b) sockets-traffic, web-search", sockets);
    PrintRow("(c) permutation streams", perm);
    const double scale = 0.1 / stop.GetSeconds();
    std::cout << std::setprecision(2) << "events per cpu second, (a) against (c): x"
              << (traffic.events / traffic.cpu) / (perm.events / perm.cpu) << "; (b) against (a): x"
              << (sockets.events / sockets.cpu) / (traffic.events / traffic.cpu) << "; cpu s, (b) against (a): x"
              << sockets.cpu / traffic.cpu << "\n"
              << std::setprecision(0) << "(a) at 100 ms of simulated time (x" << scale
              << ", linear in flows): about " << traffic.cpu * scale << " CPU s (target 600) and "
              << traffic.rssMiB * scale << " MiB peak RSS at most (target 4096)\n";
    return 0;
}
