/*
 * Benchmark: a k = 8 fat-tree (128 hosts, 80 switches, 10 Gb/s links, per-flow ECMP) carrying a
 * permutation of streams, host i to host (i + 64) mod 128, through the scenario runner:
 *  (a) RDMA Writes over MPA/TCP, the runner's defaults;
 *  (b) the ordinary-sockets baseline on the same traffic;
 *  (c) (a) with 4 MiB socket buffers, the fixed size before `auto` buffers (4 x the path's BDP,
 *      at least 256 KiB; doc/transports.md): what sizing buffers near the BDP changes;
 *  (d) (a) with the settings of 3831cbd, where issue 16 measured 122 k events per second: 4 MiB
 *      buffers, ns-3's TCP defaults (TcpCubic, MinRto 1 s, delayed ACK 200 ms), no queue discs
 *      and 100-packet device queues, switches forwarding through ns-3's IPv4 stack;
 *  (e) (a) on each other event scheduler (`scheduler:`; same events, so only the speed differs);
 *  (f) (a) with HyStart++ (RFC 9406) in TcpLinuxCubic (`transport.tcp.hystart: rfc9406`), the default
 *      before Linux's HyStart: its delay test has a 4 ms floor that these 20 us round trips never
 *      reach, so slow start overflows the switch queues;
 *  (g) (a) with `topology.switch-fast-path: false`: the switches forward through ns-3's IPv4
 *      stack instead of SwitchForwarder (the same events and figures; only the speed differs);
 *  (h), (i) (a) and (b) on hosts of no profile (`host: {profile: none}`: the parts' defaults, per-segment
 *      costs, no TSO/GRO; RDMA's verbs are charged either way): what the scenarios' default `current`
 *      hosts cost in simulation.
 * Each run is a child process of its own (bench-common.h says why). Printed per run: wall and CPU
 * seconds, events, events per wall and per CPU second, goodput delivered at the sinks, heap in use
 * before the stop; then heap per queue pair (the RDMA run less a single ping-pong on the same
 * network, per QP) and the ratios of (a) against the others.
 *
 *   build/iwarp-bench-fat-tree [--duration=1ms] [--size=65536] [--outstanding=4] [--schedulers=true]
 *
 * Printed ratios come from runs side by side in one invocation; nothing here is a timed assertion.
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "bench/bench-scenario.h"
#include "helper/scenario/event-scheduler.h"
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

/** What a run changes against the runner's defaults, as scenario keys (top level). */
const std::string kFixedBuffers = "transport:\n  buffers: {send: 4MiB, receive: 4MiB}\n";
const std::string k3831cbd = "transport:\n"
                             "  tcp: {congestion: Ns3Cubic, min-rto: 1s, delayed-ack-timeout: 200ms}\n"
                             "  buffers: {send: 4MiB, receive: 4MiB}\n"
                             "host-nic: {queue: 100p, queue-disc: {kind: none}}\n";
const std::string k3831cbdLinks = "  queue: 100p\n  queue-disc: {kind: none}\n";
const std::string kNoHostProfile = "host: {profile: none}\n";

std::string
Scenario(const std::string& kind,
         const std::string& duration,
         uint32_t size,
         uint32_t outstanding,
         bool single,
         const std::string& settings = "",
         const std::string& linkSettings = "")
{
    std::ostringstream y;
    y << "name: fat-tree-bench\nstop: " << duration << "\ntopology:\n  kind: fat-tree\n  k: 8\n  ecmp: true\n"
      << "links:\n  rate: 10Gbps\n  delay: 1us\n"
      << linkSettings << settings << "workloads:\n";
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

void
PrintRow(const std::string& name, const bench::RunResult& r)
{
    std::cout << std::left << std::setw(44) << name << std::right << std::fixed << std::setprecision(2)
              << std::setw(9) << r.wall << std::setw(9) << r.cpu << std::setw(11) << r.events << std::setprecision(0)
              << std::setw(12) << r.events / std::max(r.wall, 1e-9) << std::setw(12) << r.events / std::max(r.cpu, 1e-9)
              << std::setprecision(2) << std::setw(12) << r.GoodputGbps() << std::setw(10) << r.heapMiB << "\n";
}

} // namespace

int
main(int argc, char** argv)
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    std::string duration = "1ms";
    uint32_t size = 65536;
    uint32_t outstanding = 4;
    bool schedulers = true;
    bool printScenario = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time each stream posts for (and the run's stop)", duration);
    cmd.AddValue("size", "Octets per message", size);
    cmd.AddValue("outstanding", "RDMA Writes in flight per stream", outstanding);
    cmd.AddValue("schedulers", "Also run (a) on every other event scheduler", schedulers);
    cmd.AddValue("print-scenario", "Print (a)'s scenario YAML (for iwarp-sim run) and run nothing", printScenario);
    cmd.Parse(argc, argv);

    const Time stop(duration);
    const std::string rdmaYaml = Scenario("stream", duration, size, outstanding, false);
    if (printScenario)
    {
        std::cout << rdmaYaml;
        return 0;
    }
    const bench::RunResult base =
        RunIsolated(ScenarioSide("baseline", Scenario("stream", duration, size, outstanding, true), stop));
    std::vector<std::pair<std::string, bench::RunResult>> rows;
    auto run = [&](const std::string& name, const std::string& yaml, const std::vector<std::string>& overrides = {}) {
        rows.emplace_back(name, RunIsolated(ScenarioSide(name, yaml, stop, overrides)));
        return rows.back().second;
    };
    const bench::RunResult rdma = run("(a) RDMA Write, MPA/TCP", rdmaYaml);
    const bench::RunResult sock = run("(b) sockets baseline", Scenario("sockets-stream", duration, size, outstanding, false));
    const bench::RunResult fixed =
        run("(c) (a), 4 MiB buffers (before auto)", Scenario("stream", duration, size, outstanding, false, kFixedBuffers));
    const bench::RunResult old = run("(d) (a), settings of 3831cbd",
                                     Scenario("stream", duration, size, outstanding, false, k3831cbd, k3831cbdLinks),
                                     {"topology.switch-fast-path=false"});
    const bench::RunResult hyStartPp =
        run("(f) (a), HyStart++ (before Linux HyStart)", rdmaYaml, {"transport.tcp.hystart=rfc9406"});
    const bench::RunResult ns3Forwarding =
        run("(g) (a), switches through ns-3's IPv4", rdmaYaml, {"topology.switch-fast-path=false"});
    const bench::RunResult rdmaPlainHost =
        run("(h) (a), hosts of no profile", Scenario("stream", duration, size, outstanding, false, kNoHostProfile));
    const bench::RunResult sockPlainHost = run("(i) (b), hosts of no profile",
                                               Scenario("sockets-stream", duration, size, outstanding, false, kNoHostProfile));
    if (schedulers)
    {
        for (const std::string& s : scenario::SchedulerNames())
        {
            if (s != scenario::kDefaultScheduler && s != "list") // list: linear insertion, hopeless at this size
            {
                run("(e) (a), scheduler: " + s, rdmaYaml, {"scheduler=" + s});
            }
        }
    }

    std::cout << "== k=8 fat-tree (128 hosts, 80 switches, 384 links, ECMP), permutation h(i) -> h(i+64), "
              << duration << " of " << size << "-octet messages; scheduler " << scenario::kDefaultScheduler
              << " unless named ==\n"
              << std::left << std::setw(44) << "run" << std::right << std::setw(9) << "wall s" << std::setw(9)
              << "cpu s" << std::setw(11) << "events" << std::setw(12) << "ev/wall s" << std::setw(12) << "ev/cpu s"
              << std::setw(12) << "Gb/s total" << std::setw(10) << "heap MiB" << "\n";
    for (const auto& [name, r] : rows)
    {
        PrintRow(name, r);
    }
    const double perQp = (rdma.heapMiB - base.heapMiB) * 1048576.0 / (2 * 128 - 2);
    std::cout << std::setprecision(0) << "memory per queue pair (heap, connection and buffers, in flight): " << perQp
              << " octets (" << std::setprecision(2) << rdma.heapMiB << " MiB with 256 QPs, " << base.heapMiB
              << " MiB with 2)\n"
              << std::setprecision(3) << "wall ratio (a)/(b): " << rdma.wall / sock.wall
              << "   cpu ratio (a)/(b): " << rdma.cpu / sock.cpu << "\n";
    auto against = [&](const char* label, const bench::RunResult& other) {
        std::cout << label << ": events per cpu second x" << (rdma.events / rdma.cpu) / (other.events / other.cpu)
                  << ", per wall second x" << (rdma.events / rdma.wall) / (other.events / other.wall)
                  << ", cpu seconds x" << rdma.cpu / other.cpu << ", goodput x" << rdma.GoodputGbps() / other.GoodputGbps()
                  << "\n";
    };
    against("(a) against (c), auto against 4 MiB buffers", fixed);
    against("(a) against (d), today's defaults against 3831cbd's settings", old);
    against("(a) against (f), Linux's HyStart against HyStart++", hyStartPp);
    against("(a) against (g), the switches' fast path against ns-3's IPv4 forwarding", ns3Forwarding);
    against("(a) against (h), RDMA on current hosts against hosts of no profile", rdmaPlainHost);
    // The sockets move more on current hosts (GRO, faster cores): compare the work per octet delivered.
    std::cout << "(b) against (i), sockets on current hosts against hosts of no profile: events per cpu second x"
              << (sock.events / sock.cpu) / (sockPlainHost.events / sockPlainHost.cpu) << ", cpu seconds x"
              << sock.cpu / sockPlainHost.cpu << ", goodput x" << sock.GoodputGbps() / sockPlainHost.GoodputGbps()
              << ", cpu seconds per octet delivered x"
              << (sock.cpu / sock.GoodputGbps()) / (sockPlainHost.cpu / sockPlainHost.GoodputGbps()) << "\n";
    std::cout << "picoseconds against nanoseconds: the scenario runner runs at picoseconds only "
                 "(doc/architecture.md); bench/resolution-bench.py measures the MPA/TCP pair at both\n";
    return 0;
}
