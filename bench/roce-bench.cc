/*
 * iwarp-bench-roce (issue 31): what the RoCEv2 transport (model/rnic/roce-*, model/roce) costs in simulation
 * beside iWARP's two, per octet delivered. Target: RoCEv2 no slower per delivered octet than SCTP.
 *
 *  (A) Two hosts (iwarp-bench-sctp's topology: one 10 Gb/s link, 5 us, 1500-octet MTU), --bytes of RDMA
 *      Writes (--opSize each, --outstanding in flight, virtual payload) over RoCEv2 against over SCTP, then
 *      against over MPA/TCP, --repeat alternating pairs each, every run in a child process of its own. Both
 *      sides of a pair deliver the same octets, so the CPU ratio is the ratio per octet.
 *  (B) The k = 8 fat-tree of iwarp-bench-fat-tree (128 hosts, 10 Gb/s, 1 us, per-flow ECMP, the runner's
 *      default queues) carrying the permutation h(i) -> h(i+64) of 64 KiB RDMA Write streams (4 in flight)
 *      for --duration, as `llp: rocev2`, `sctp` and `tcp` (MPA), --fabricRepeat rounds of the three. The
 *      fabric drops what overflows a queue and each transport recovers in its own way, so the octets
 *      delivered differ: the ratios are of CPU and wall seconds per octet delivered at the receivers.
 * RoCEv2 runs its transport's defaults (go-back-N, DCQCN, no PFC): the commodity configuration without a
 * lossless fabric. Figures only, never assertions (bench-common.h).
 *
 *   build/iwarp-bench-roce [--repeat=3] [--fabricRepeat=1] [--duration=1ms] [--which=AB]
 *   build/iwarp-bench-roce --which=A --only=rdma-roce --bytes=20000000   # one side alone, for a profiler
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "bench/bench-scenario.h"

#include "ns3/command-line.h"

#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::bench;

namespace
{

/** The permutation on the k = 8 fat-tree over `llp` (a workload's `llp:` value). */
std::string
Permutation(const std::string& llp, const std::string& duration)
{
    std::ostringstream y;
    y << "name: roce-bench\nstop: " << duration << "\ntopology: {kind: fat-tree, k: 8, ecmp: true}\n"
      << "links: {rate: 10Gbps, delay: 1us}\nworkloads:\n";
    for (int i = 0; i < 128; ++i)
    {
        y << "  - {kind: stream, op: write, from: h" << i << ", to: h" << (i + 64) % 128
          << ", size: 65536, outstanding: 4, duration: " << duration << ", llp: " << llp << "}\n";
    }
    return y.str();
}

double
PerGigabyte(double seconds, const bench::RunResult& r)
{
    return r.bytes ? seconds / (r.bytes / 1e9) : 0;
}

void
PrintFabricRow(const std::string& name, const bench::RunResult& r)
{
    std::cout << std::left << std::setw(24) << name << std::right << std::fixed << std::setprecision(2)
              << std::setw(9) << r.wall << std::setw(9) << r.cpu << std::setw(11) << r.events << std::setprecision(0)
              << std::setw(12) << r.events / std::max(r.cpu, 1e-9) << std::setprecision(2) << std::setw(12)
              << r.GoodputGbps() << std::setw(13) << PerGigabyte(r.cpu, r) << std::setw(14) << PerGigabyte(r.wall, r)
              << "\n";
}

/** Median over rounds of (a)'s seconds per octet against (b)'s, for wall and for CPU. */
void
PrintPerOctetRatio(const std::string& label,
                   const std::vector<bench::RunResult>& a,
                   const std::vector<bench::RunResult>& b,
                   double cpuTarget)
{
    std::vector<double> wall;
    std::vector<double> cpu;
    for (size_t i = 0; i < a.size(); ++i)
    {
        if (a[i].bytes == 0 || b[i].bytes == 0)
        {
            std::cout << label << ": a run delivered nothing by the stop (a longer --duration?), no ratio\n";
            return;
        }
        wall.push_back(PerGigabyte(a[i].wall, a[i]) / PerGigabyte(b[i].wall, b[i]));
        cpu.push_back(PerGigabyte(a[i].cpu, a[i]) / PerGigabyte(b[i].cpu, b[i]));
    }
    std::cout << std::setprecision(3) << label << ", per octet delivered (median of " << a.size()
              << "): cpu x" << Median(cpu) << (cpuTarget > 0 ? "  (target <= 1.00)" : "") << ", wall x"
              << Median(wall) << "\n";
}

void
RunFabric(const std::string& duration, uint32_t rounds)
{
    const Time stop(duration);
    std::vector<bench::RunResult> roce;
    std::vector<bench::RunResult> sctp;
    std::vector<bench::RunResult> mpa;
    std::cout << "\n== (B) k=8 fat-tree (128 hosts, 10 Gb/s, 1 us, ECMP, the runner's default queues), permutation "
                 "h(i) -> h(i+64), 64 KiB RDMA Writes, 4 in flight, "
              << duration << " ==\n"
              << std::left << std::setw(24) << "run" << std::right << std::setw(9) << "wall s" << std::setw(9)
              << "cpu s" << std::setw(11) << "events" << std::setw(12) << "ev/cpu s" << std::setw(12)
              << "Gb/s total" << std::setw(13) << "cpu s per GB" << std::setw(14) << "wall s per GB" << "\n";
    for (uint32_t k = 0; k < rounds; ++k)
    {
        for (auto [name, llp, rows] : {std::make_tuple("RDMA Write, RoCEv2", "rocev2", &roce),
                                       std::make_tuple("RDMA Write, SCTP", "sctp", &sctp),
                                       std::make_tuple("RDMA Write, MPA/TCP", "tcp", &mpa)})
        {
            rows->push_back(RunIsolated(ScenarioSide(name, Permutation(llp, duration), stop)));
            PrintFabricRow(name, rows->back());
        }
    }
    PrintPerOctetRatio("RoCEv2 against SCTP", roce, sctp, 1.0);
    PrintPerOctetRatio("RoCEv2 against MPA/TCP", roce, mpa, 0);
}

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    uint64_t bytes = 200'000'000;
    std::string rate = "10Gbps";
    std::string delay = "5us";
    uint32_t opSize = 1 << 20;
    uint32_t outstanding = 4;
    uint32_t repeat = 3;
    uint32_t fabricRepeat = 1;
    std::string duration = "1ms";
    std::string which = "AB";
    std::string only;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "(A) octets each transfer moves", bytes);
    cmd.AddValue("rate", "(A) link data rate", rate);
    cmd.AddValue("delay", "(A) link one-way delay", delay);
    cmd.AddValue("opSize", "(A) RDMA Write size", opSize);
    cmd.AddValue("outstanding", "(A) RDMA Writes in flight", outstanding);
    cmd.AddValue("repeat", "(A) pairs of runs per comparison; the ratios printed are medians", repeat);
    cmd.AddValue("fabricRepeat", "(B) rounds of the three fabric runs", fabricRepeat);
    cmd.AddValue("duration", "(B) simulated time the streams post for (and the stop)", duration);
    cmd.AddValue("which", "Parts to run: A, B or AB", which);
    cmd.AddValue("only", "(A) one side alone: rdma-roce, rdma-sctp or rdma-mpa (no ratio is printed)", only);
    cmd.Parse(argc, argv);
    if (repeat == 0 || fabricRepeat == 0 || which.empty() || which.find_first_not_of("AB") != std::string::npos)
    {
        std::cerr << "--repeat and --fabricRepeat must be at least 1 and --which one of A, B, AB\n";
        return 2;
    }
    if (which.find('A') != std::string::npos)
    {
        auto side = [&](const std::string& name, const std::string& key, const std::string& llp) {
            return Side{name, key, [=]() { return RunRdmaWrites(bytes, rate, delay, opSize, outstanding, llp); }};
        };
        const Side roce = side("(a) RdmaStream over RoCEv2", "rdma-roce", "Roce");
        std::cout << "== (A) RDMA Write stream (" << opSize << "-octet Writes, " << outstanding
                  << " outstanding, virtual payload), " << bytes << " octets, " << rate << ", " << delay << " ==\n"
                  << "-- RoCEv2 against SCTP (the target: cpu ratio <= 1 per octet; both deliver the same octets)\n";
        const std::string onlyA = only == "rdma-mpa" ? "" : only;
        if (only != "rdma-mpa" &&
            !Compare(std::cout, roce, side("(b) RdmaStream over SCTP", "rdma-sctp", "Sctp"), repeat, onlyA, 0, nullptr, 1.0))
        {
            return 2;
        }
        if (only.empty() || only == "rdma-mpa")
        {
            std::cout << "-- RoCEv2 against MPA/TCP\n";
            Compare(std::cout, roce, side("(b) RdmaStream over MPA/TCP", "rdma-mpa", "Mpa"), repeat, only, 0);
        }
    }
    if (which.find('B') != std::string::npos)
    {
        RunFabric(duration, fabricRepeat);
    }
    return 0;
}
