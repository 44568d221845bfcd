/*
 * Benchmark: a k = 8 fat-tree (128 hosts, 80 switches, 10 Gb/s links, per-flow ECMP) carrying a
 * permutation of streams, host i to host (i + 64) mod 128, once as RDMA Writes over MPA/TCP and
 * once as the ordinary-sockets baseline on the same traffic, both through the scenario runner.
 * Prints wall time, events per second, peak memory, and memory per queue pair (heap in use at the
 * end of the RDMA run, less that of the same network with a single one-message ping-pong, per QP).
 *
 *   build/iwarp-bench-fat-tree [--duration=1ms] [--size=65536] [--outstanding=4]
 *
 * Printed ratios come from runs in one process, side by side; nothing here is a timed assertion.
 */
#include "bench/bench-common.h"
#include "helper/scenario/scenario-runner.h"

#include "ns3/command-line.h"
#include "ns3/simulator.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

std::string
Scenario(const std::string& kind, const std::string& duration, uint32_t size, uint32_t outstanding, bool single)
{
    std::ostringstream y;
    y << "name: fat-tree-bench\nstop: " << duration << "\ntopology:\n  kind: fat-tree\n  k: 8\n  ecmp: true\n"
      << "links:\n  rate: 10Gbps\n  delay: 1us\nworkloads:\n";
    if (single)
    {
        y << "  - kind: ping-pong\n    from: h0\n    to: h64\n    size: 64\n    count: 1\n";
        return y.str();
    }
    for (int i = 0; i < 128; ++i)
    {
        y << "  - kind: " << kind << "\n    from: h" << i << "\n    to: h" << (i + 64) % 128 << "\n    size: " << size
          << "\n    duration: " << duration << "\n";
        if (kind == "stream")
        {
            y << "    op: write\n    outstanding: " << outstanding << "\n";
        }
    }
    return y.str();
}

struct Measured
{
    RunResult result;
    double heapMiB{0}; ///< heap in use just before the simulation ends
};

Measured
Run(const std::string& yaml, const std::string& dir, const std::string& name, Time stop)
{
    Measured m;
    ScenarioConfig cfg = LoadScenarioString(yaml, {}, name);
    // Sampled just before the stop, while every connection and buffer is still alive.
    Simulator::Schedule(stop - NanoSeconds(1), [&m]() { m.heapMiB = mallinfo2().uordblks / 1048576.0; });
    ScenarioRunOptions o;
    o.outDir = dir + "/" + name;
    o.progress = false;
    m.result = RunScenario(cfg, o).result;
    return m;
}

uint64_t
Bytes(const RunResult& r)
{
    uint64_t b = 0;
    for (const WorkloadResult& w : r.workloads)
    {
        b += w.octetsDelivered; // delivered at the sinks (doc/metrics.md)
    }
    return b;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string duration = "1ms";
    uint32_t size = 65536;
    uint32_t outstanding = 4;
    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time each stream posts for (and the run's stop)", duration);
    cmd.AddValue("size", "Octets per message", size);
    cmd.AddValue("outstanding", "RDMA Writes in flight per stream", outstanding);
    cmd.Parse(argc, argv);

    const std::string dir = std::filesystem::temp_directory_path() / ("iwarp-bench-fat-tree-" + std::to_string(getpid()));
    const Time stop(duration);
    const Measured base = Run(Scenario("stream", duration, size, outstanding, true), dir, "baseline", stop);
    const Measured rdma = Run(Scenario("stream", duration, size, outstanding, false), dir, "rdma", stop);
    const Measured sock = Run(Scenario("sockets-stream", duration, size, outstanding, false), dir, "sockets", stop);
    std::filesystem::remove_all(dir);

    std::cout << "== k=8 fat-tree (128 hosts, 80 switches, 384 links, ECMP), permutation h(i) -> h(i+64), "
              << duration << " of " << size << "-octet messages ==\n"
              << std::fixed << std::setprecision(2) << std::left << std::setw(26) << "run" << std::right
              << std::setw(10) << "wall s" << std::setw(12) << "events" << std::setw(14) << "events/s"
              << std::setw(14) << "Gb/s total" << std::setw(12) << "heap MiB" << "\n";
    for (auto [name, m] : {std::pair<const char*, const Measured*>{"(a) RDMA Write, MPA/TCP", &rdma},
                           {"(b) sockets baseline", &sock}})
    {
        const RunResult& r = m->result;
        std::cout << std::left << std::setw(26) << name << std::right << std::setw(10) << r.wallSeconds
                  << std::setw(12) << r.events << std::setw(14) << std::setprecision(0)
                  << r.events / std::max(r.wallSeconds, 1e-9) << std::setprecision(2) << std::setw(14)
                  << Bytes(r) * 8 / stop.GetSeconds() / 1e9 << std::setw(12) << m->heapMiB << "\n";
    }
    const double perQp = (rdma.heapMiB - base.heapMiB) * 1048576.0 / (2 * 128 - 2);
    std::cout << "memory per queue pair (heap, connection and buffers, in flight): " << std::setprecision(0) << perQp
              << " octets (" << std::setprecision(2) << rdma.heapMiB << " MiB with 256 QPs, " << base.heapMiB
              << " MiB with 2)\n"
              << "peak RSS of the process: " << bench::PeakRssMiB() << " MiB\n"
              << "wall ratio (a)/(b): " << rdma.result.wallSeconds / sock.result.wallSeconds << "\n";
    return 0;
}
