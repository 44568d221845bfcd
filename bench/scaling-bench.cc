/*
 * Benchmark (issue 16): how the simulator's cost grows with the fabric, and what an idle QP costs.
 *
 * 1. The scaling table: fat-trees of k = 4, 8, 12, 16 (16, 128, 432, 1,024 hosts, 10 Gb/s links,
 *    1 us per link, ECMP) carrying the permutation h(i) -> h((i + hosts/2) mod hosts) of
 *    64 KiB-message streams for a fixed simulated time, as RDMA Writes over MPA/TCP, over SCTP,
 *    and as the ordinary-sockets baseline; then all-to-all at k = 8 (every host an incast
 *    receiver of all the others, RDMA Writes over MPA/TCP). Each row runs through the scenario
 *    runner in a child process of its own, so its peak RSS is its own. Heap per QP is measured as
 *    iwarp-bench-fat-tree does: heap in use just before the stop, less that of the same network
 *    with one ping-pong of the same kind, per connection end beyond that ping-pong's two.
 *    The exponent is log(wall / wall before) / log(hosts / hosts before) against the same
 *    variant's previous row: 1 is linear in the hosts; the same of CPU time beside it, which a
 *    busy machine disturbs less.
 * 2. Idle connections (bench/idle-connections.h): N = 1,000 and 10,000 connected, idle QPs on two
 *    hosts, over MPA/TCP and SCTP, against plain connected sockets of the transport: heap per QP
 *    beyond its socket, with the target of issue 16 (4 KiB) beside it.
 *
 *   build/iwarp-bench-scaling [--sim-time=250us] [--k=4,8,12,16] [--all-to-all=true]
 *                             [--idle=1000,10000|none] [--table=true]
 *
 * Wall time on a shared machine measures the other processes too; CPU time (this row's process
 * only) moves less. Nothing here is a timed assertion.
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "bench/bench-scenario.h"
#include "bench/idle-connections.h"
#include "helper/scenario/scenario-runner.h"

#include "ns3/command-line.h"
#include "ns3/simulator.h"


#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

using namespace ns3;

namespace
{

/** How the hosts talk, one per table row group. */
enum class Variant
{
    Mpa,
    Sctp,
    Sockets,
};

const char*
Name(Variant v)
{
    switch (v)
    {
    case Variant::Mpa:
        return "RDMA Write, MPA/TCP";
    case Variant::Sctp:
        return "RDMA Write, SCTP";
    case Variant::Sockets:
        return "sockets baseline";
    }
    return "?";
}

constexpr uint32_t kSize = 65536; ///< octets per message, as iwarp-bench-fat-tree
constexpr uint32_t kOutstanding = 4;

uint32_t
Hosts(uint32_t k)
{
    return k * k * k / 4;
}

std::string
Network(uint32_t k, const std::string& stop)
{
    std::ostringstream y;
    y << "name: scaling-bench\nstop: " << stop << "\ntopology:\n  kind: fat-tree\n  k: " << k
      << "\n  ecmp: true\nlinks:\n  rate: 10Gbps\n  delay: 1us\nworkloads:\n";
    return y.str();
}

/** The flow keys of one variant: its kind prefix and, for RDMA, op, depth and LLP. */
std::string
FlowKeys(Variant v, const std::string& stop)
{
    std::ostringstream y;
    y << "size: " << kSize << ", duration: " << stop;
    if (v != Variant::Sockets)
    {
        y << ", op: write, outstanding: " << kOutstanding << ", llp: " << (v == Variant::Sctp ? "sctp" : "tcp");
    }
    return y.str();
}

std::string
Permutation(uint32_t k, Variant v, const std::string& stop)
{
    std::ostringstream y;
    y << Network(k, stop);
    const uint32_t n = Hosts(k);
    for (uint32_t i = 0; i < n; ++i)
    {
        y << "  - {kind: " << (v == Variant::Sockets ? "sockets-stream" : "stream") << ", from: h" << i << ", to: h"
          << (i + n / 2) % n << ", " << FlowKeys(v, stop) << "}\n";
    }
    return y.str();
}

/** All-to-all as one incast per receiver (the runner's one kind with many senders per workload). */
std::string
AllToAll(uint32_t k, const std::string& stop)
{
    std::ostringstream y;
    y << Network(k, stop);
    const uint32_t n = Hosts(k);
    for (uint32_t j = 0; j < n; ++j)
    {
        y << "  - {kind: incast, to: h" << j << ", senders: [";
        for (uint32_t i = 0, first = 1; i < n; ++i)
        {
            if (i != j)
            {
                y << (first ? "" : ", ") << "h" << i;
                first = 0;
            }
        }
        y << "], " << FlowKeys(Variant::Mpa, stop) << "}\n";
    }
    return y.str();
}

/** The same network with one ping-pong of the variant's kind: what heap per QP subtracts. */
std::string
Baseline(uint32_t k, Variant v, const std::string& stop)
{
    std::ostringstream y;
    y << Network(k, stop) << "  - {kind: " << (v == Variant::Sockets ? "sockets-ping-pong" : "ping-pong")
      << ", from: h0, to: h" << Hosts(k) / 2 << ", size: 64, count: 1";
    if (v != Variant::Sockets)
    {
        y << ", llp: " << (v == Variant::Sctp ? "sctp" : "tcp");
    }
    y << "}\n";
    return y.str();
}

/** `yaml` through the scenario runner, timed (bench-scenario.h). */
bench::RunResult
RunYaml(const std::string& yaml, const std::string& name, const std::string& stop)
{
    return bench::RunScenarioYaml(yaml, name, Time(stop));
}

bench::RunResult
Isolated(const std::string& name, std::function<bench::RunResult()> run)
{
    return bench::RunIsolated(bench::Side{name, name, std::move(run)});
}

void
PrintTableHeader(const std::string& stop)
{
    std::cout << "== scaling: fat-tree permutation h(i) -> h(i + hosts/2), " << kSize << "-octet messages ("
              << kOutstanding << " outstanding per RDMA stream), " << stop << " simulated per row ==\n"
              << "(wall time includes whatever else the machine runs; cpu s is the row's own process)\n"
              << std::left << std::setw(22) << "variant" << std::setw(12) << "pattern" << std::right << std::setw(6)
              << "hosts" << std::setw(7) << "QPs" << std::setw(11) << "events" << std::setw(8) << "wall s"
              << std::setw(8) << "cpu s" << std::setw(11) << "events/s" << std::setw(15) << "sim MB/wall s"
              << std::setw(8) << "Gb/s" << std::setw(9) << "RSS MiB" << std::setw(13) << "heap/QP KiB"
              << std::setw(9) << "exp wall" << std::setw(8) << "exp cpu" << "\n";
}

/** The previous row of a variant, for the growth exponents. */
struct Previous
{
    uint32_t hosts;
    double wall;
    double cpu;
};

/**
 * One row: `qps` connection ends (2 per flow), `base` the heap of the one-ping-pong network,
 * `prev` the same variant's previous row for the exponents of wall and CPU time against hosts.
 */
void
PrintRow(const std::string& variant,
         const std::string& pattern,
         uint32_t hosts,
         uint64_t qps,
         const bench::RunResult& r,
         double baseHeapMiB,
         std::optional<Previous> prev)
{
    const double heapPerQp = (r.heapMiB - baseHeapMiB) * 1048576.0 / double(qps - 2) / 1024.0;
    std::cout << std::left << std::setw(22) << variant << std::setw(12) << pattern << std::right << std::fixed
              << std::setw(6) << hosts << std::setw(7) << qps << std::setw(11) << r.events << std::setprecision(1)
              << std::setw(8) << r.wall << std::setw(8) << r.cpu << std::setprecision(0) << std::setw(11)
              << r.events / std::max(r.wall, 1e-9) << std::setprecision(1) << std::setw(15)
              << r.bytes / 1e6 / std::max(r.wall, 1e-9) << std::setprecision(2) << std::setw(8)
              << r.bytes * 8 / r.simSeconds / 1e9 << std::setprecision(0) << std::setw(9) << r.rssMiB
              << std::setprecision(1) << std::setw(13) << heapPerQp << std::setprecision(2);
    if (prev)
    {
        const double hostsRatio = std::log(double(hosts) / prev->hosts);
        std::cout << std::setw(9) << std::log(r.wall / prev->wall) / hostsRatio << std::setw(8)
                  << std::log(r.cpu / prev->cpu) / hostsRatio;
    }
    else
    {
        std::cout << std::setw(9) << "-" << std::setw(8) << "-";
    }
    std::cout << "\n" << std::flush;
}

std::vector<uint32_t>
ParseList(const std::string& text, const std::string& option)
{
    std::vector<uint32_t> v;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        char* end = nullptr;
        const unsigned long x = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || x == 0 || x > 1000000)
        {
            std::cerr << "--" << option << ": '" << item << "' is not a positive integer (list: " << text << ")\n";
            std::exit(2);
        }
        v.push_back(uint32_t(x));
    }
    return v;
}

void
ScalingTable(const std::vector<uint32_t>& ks, const std::string& stop, bool allToAll)
{
    PrintTableHeader(stop);
    std::map<std::pair<uint32_t, Variant>, double> bases; // heap MiB of the one-ping-pong networks
    auto base = [&](uint32_t k, Variant v) {
        auto it = bases.find({k, v});
        if (it == bases.end())
        {
            const auto r = Isolated("baseline", [=]() { return RunYaml(Baseline(k, v, stop), "baseline", stop); });
            it = bases.emplace(std::make_pair(k, v), r.heapMiB).first;
        }
        return it->second;
    };
    for (Variant v : {Variant::Mpa, Variant::Sctp, Variant::Sockets})
    {
        std::optional<Previous> prev;
        for (uint32_t k : ks)
        {
            const auto r = Isolated(Name(v), [=]() { return RunYaml(Permutation(k, v, stop), "permutation", stop); });
            PrintRow(Name(v), "perm k=" + std::to_string(k), Hosts(k), 2ull * Hosts(k), r, base(k, v), prev);
            prev = Previous{Hosts(k), r.wall, r.cpu};
        }
    }
    if (allToAll)
    {
        const uint32_t k = 8;
        const auto r = Isolated("all-to-all", [=]() { return RunYaml(AllToAll(k, stop), "all-to-all", stop); });
        PrintRow(Name(Variant::Mpa), "a2a k=8", Hosts(k), 2ull * Hosts(k) * (Hosts(k) - 1), r,
                 base(k, Variant::Mpa), std::nullopt);
    }
}

void
IdleTable(const std::vector<uint32_t>& counts)
{
    std::cout << "== idle connections on two hosts: heap once all are connected and idle, less before the first ==\n"
              << std::left << std::setw(18) << "connections" << std::right << std::setw(8) << "N" << std::setw(11)
              << "heap MiB" << std::setw(14) << "KiB per end" << std::setw(22) << "KiB per QP beyond" << "\n";
    for (uint32_t n : counts)
    {
        for (auto [qp, socket] : {std::pair{bench::IdleKind::MpaQp, bench::IdleKind::TcpSocket},
                                  std::pair{bench::IdleKind::SctpQp, bench::IdleKind::SctpSocket}})
        {
            const auto s = Isolated("sockets", [=]() { return bench::RunIdleConnections(socket, n); });
            const auto q = Isolated("qps", [=]() { return bench::RunIdleConnections(qp, n); });
            // Two ends per connection, each with its socket and (for QPs) its QP.
            const double perEndS = s.heapMiB * 1024.0 / (2.0 * n);
            const double perEndQ = q.heapMiB * 1024.0 / (2.0 * n);
            std::cout << std::left << std::setw(18) << bench::Describe(socket) << std::right << std::setw(8) << n
                      << std::fixed << std::setprecision(2) << std::setw(11) << s.heapMiB << std::setw(14)
                      << perEndS << "\n"
                      << std::left << std::setw(18) << bench::Describe(qp) << std::right << std::setw(8) << n
                      << std::setw(11) << q.heapMiB << std::setw(14) << perEndQ << std::setw(22)
                      << perEndQ - perEndS << "  (target <= 4 KiB)\n"
                      << std::flush;
        }
    }
}

} // namespace

int
main(int argc, char** argv)
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    // 250 us keeps the default table (12 permutation rows, all-to-all, baselines) near 3 minutes on
    // an idle 2-core machine; the connections are set up and the streams past slow start by then.
    std::string simTime = "250us";
    std::string kList = "4,8,12,16";
    std::string idle = "1000,10000";
    bool table = true;
    bool allToAll = true;
    std::string profile;
    CommandLine cmd(__FILE__);
    cmd.AddValue("sim-time", "Simulated time of each table row (the streams post this long)", simTime);
    cmd.AddValue("k", "Fat-tree sizes, a comma-separated list of even k", kList);
    cmd.AddValue("all-to-all", "Add the all-to-all row at k = 8", allToAll);
    cmd.AddValue("table", "Print the scaling table", table);
    cmd.AddValue("idle", "Idle-connection counts, comma-separated, or none", idle);
    cmd.AddValue("profile-idle",
                 "Run only the idle connections of this kind (mpa, sctp, tcp-socket, sctp-socket), the first "
                 "--idle count, in this process: for heaptrack or massif, which do not follow the forked rows",
                 profile);
    cmd.Parse(argc, argv);

    const std::vector<uint32_t> ks = ParseList(kList, "k");
    // ns-3's CommandLine refuses an empty value, hence a word for none.
    const std::vector<uint32_t> idleCounts = idle == "none" ? std::vector<uint32_t>{} : ParseList(idle, "idle");
    if (table && ks.empty())
    {
        std::cerr << "--k: no fat-tree size given (or --table=false)\n";
        return 2;
    }
    for (uint32_t k : ks)
    {
        if (k % 2 != 0 || k < 2 || k > 64)
        {
            std::cerr << "--k: " << k << " is not an even fat-tree size in 2..64\n";
            return 2;
        }
    }
    if (Time(simTime) <= MicroSeconds(10))
    {
        std::cerr << "--sim-time: " << simTime << " is too short to set up a connection (more than 10us)\n";
        return 2;
    }
    if (!profile.empty())
    {
        const std::map<std::string, bench::IdleKind> kinds{{"mpa", bench::IdleKind::MpaQp},
                                                           {"sctp", bench::IdleKind::SctpQp},
                                                           {"tcp-socket", bench::IdleKind::TcpSocket},
                                                           {"sctp-socket", bench::IdleKind::SctpSocket}};
        const auto it = kinds.find(profile);
        if (it == kinds.end() || idleCounts.empty())
        {
            std::cerr << "--profile-idle: '" << profile
                      << "' is not mpa, sctp, tcp-socket or sctp-socket (or --idle is none)\n";
            return 2;
        }
        const uint32_t n = idleCounts.front();
        const bench::RunResult r = bench::RunIdleConnections(it->second, n);
        std::cout << bench::Describe(it->second) << " x " << n << ": " << r.heapMiB << " MiB heap\n";
        return 0;
    }
    std::cout << "iwarp-bench-scaling: --sim-time=" << simTime << " --k=" << kList << " --idle=" << idle << "\n";
    if (table)
    {
        ScalingTable(ks, simTime, allToAll);
    }
    if (!idleCounts.empty())
    {
        IdleTable(idleCounts);
    }
    return 0;
}
