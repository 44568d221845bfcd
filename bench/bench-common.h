/*
 * What the two-host benchmarks (iwarp-bench-mpa-tcp, iwarp-bench-sctp) share, so that every side of
 * every comparison runs on the same topology and is timed, summarised and printed the same way:
 *
 *  - BenchTopology: two hosts on one point-to-point link; TCP with MSS 1448 and 4 MiB socket
 *    buffers (TwoHostTopology), SCTP (when asked for) with the same MTU and buffers;
 *  - the two sides that recur: an RdmaStream of RDMA Writes (over MPA/TCP or SCTP) and
 *    BulkSend over plain TCP;
 *  - Compare(): runs two sides alternately --repeat times, each run in a child process of its own,
 *    prints one table row per run and the medians of the wall-time and goodput ratios.
 *
 * Why a process per run: a simulation's speed depends on the heap it starts with. Run after a
 * BulkSend run in the same process, the RDMA stream (which allocates more small objects per packet)
 * took 10-25 % longer than in a fresh process, while BulkSend hardly changed; so one process for
 * all runs measured the order of the runs as much as the protocols. Researchers run one simulation
 * per process too.
 *
 * Figures only: no benchmark asserts on a time, the machine running it is usually shared.
 */
#ifndef IWARP_BENCH_COMMON_H
#define IWARP_BENCH_COMMON_H

#include "helper/two-host-topology.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{
namespace bench
{

/** The benchmarks' socket buffers unless SetSocketBuffer says otherwise: TwoHostTopology's 4 MiB. */
constexpr uint32_t kSocketBuffer = 4u << 20;

/**
 * Send and receive buffers of every TCP and SCTP socket of the BenchTopologies made afterwards
 * (inherited by the child processes Compare runs in): to compare the fixed 4 MiB with what the
 * scenario runner's `auto` gives the same path (doc/transports.md).
 */
void SetSocketBuffer(uint32_t octets);
uint32_t SocketBuffer();
constexpr uint32_t kMtu = 1500;

/**
 * The hosts' queues a run uses (doc/transports.md, "Queues"):
 *  - Ns3Helper: what ns-3's helpers give (PointToPointHelper with flow control, then
 *    Ipv4AddressHelper's default FQ-CoDel queue disc): the benchmarks' setup since they exist;
 *  - None: the scenario runner before queue discs, a 100-packet device queue and no queue disc;
 *  - Defaults: the scenario runner's host NICs now (DefaultHostNic(): an unlimited FIFO queue disc
 *    over a 2-packet device queue), built by TopologyBuilder as a two-hosts scenario is.
 */
enum class HostQueues
{
    Ns3Helper,
    None,
    Defaults,
};

/** "ns-3 helpers (fq-codel)", ... for tables. */
const char* Describe(HostQueues q);

/** Two hosts on one link (node 0 client, node 1 server); RNICs and SCTP only for the sides using them. */
struct BenchTopology
{
    BenchTopology(const std::string& rate,
                  const std::string& delay,
                  bool rnics,
                  bool sctp = false,
                  HostQueues queues = HostQueues::Ns3Helper);

    NodeContainer nodes;
    Ipv4Address serverIp;
    std::vector<Ptr<Rnic>> rnics; ///< empty without RNICs

  private:
    std::unique_ptr<TwoHostTopology> m_helperBuilt; ///< Ns3Helper: the objects it keeps
};

/** What one run of one side measured. */
struct RunResult
{
    double wall{0};       ///< seconds, topology built to simulator destroyed
    double cpu{0};        ///< user + system CPU seconds of this process over the same span
    double simSeconds{0}; ///< simulated time the transfer took (each side says from when to when)
    uint64_t bytes{0};    ///< octets delivered to the receiving application
    uint64_t events{0};
    double rssMiB{0}; ///< peak resident memory of the run's process (the run alone: see Compare)
    double heapMiB{0}; ///< heap in use where the run samples it (HeapInUseMiB); 0 if it does not
    uint64_t flows{0};         ///< messages posted (a load's flows), where the run counts them
    uint64_t flowsDelivered{0};
    uint64_t flowsInFlight{0}; ///< posted and not yet delivered when the heap was sampled
    uint64_t connections{0};   ///< established by the stop, where the run counts them

    /** Delivered octets per simulated second, in Gb/s (0 when nothing was timed). */
    double GoodputGbps() const { return simSeconds > 0 ? bytes * 8 / simSeconds / 1e9 : 0; }
};

/** Wall and CPU time of one run: start it before building the topology, Stop() after Simulator::Destroy. */
class RunTimer
{
  public:
    RunTimer();
    /** Fills wall, events (read before Destroy, pass it in) and the peak RSS into `r`. */
    RunResult Stop(RunResult r) const;

  private:
    std::chrono::steady_clock::time_point m_start;
    double m_cpuStart;
};

/** Peak resident set size of this process so far, MiB (getrusage). */
double PeakRssMiB();

/** Heap in use now (malloc's allocated octets, mallinfo2), MiB: what the memory-per-QP figures subtract. */
double HeapInUseMiB();

/** Median of `v` (mean of the middle two for an even count); 0 for none. */
double Median(std::vector<double> v);

/**
 * RdmaStream of `opSize`-octet RDMA Writes (virtual payload), `outstanding` in flight, over `llp` ("Mpa", "Sctp"
 * or "Roce", RoCEv2 with its transport's defaults); with `hostProfile` (host/host-profile.h) both hosts get a host model of that profile, which the RNICs
 * charge (DMA per segment, verbs per request and completion), else none.
 */
RunResult RunRdmaWrites(uint64_t bytes,
                        const std::string& rate,
                        const std::string& delay,
                        uint32_t opSize,
                        uint32_t outstanding,
                        const std::string& llp,
                        HostQueues queues = HostQueues::Ns3Helper,
                        const std::string& hostProfile = "");

/** BulkSend over ns-3's TCP (64 KiB writes) into a PacketSink; timed to the last octet at the sink. */
RunResult RunTcpBulk(uint64_t bytes,
                     const std::string& rate,
                     const std::string& delay,
                     HostQueues queues = HostQueues::Ns3Helper);

/** One side of a comparison: a name for the table, a key for --only, and the run itself. */
struct Side
{
    std::string name;
    std::string key;
    std::function<RunResult()> run;
};

/**
 * Runs `side` in a child process of its own and returns what it measured (through a pipe), so
 * every run starts from the same heap and its peak RSS is its own. Exits with status 2 if the
 * child fails.
 */
RunResult RunIsolated(const Side& side);

/**
 * Runs (a) and (b) alternately `repeat` times (so a slower stretch of the machine weighs on both
 * alike), one table row per run, then the medians of wall (a)/(b) (with `wallTarget` beside it when
 * it is positive), of CPU (a)/(b) (with `cpuTarget`, likewise), of goodput (a)/(b) and of events (a)/(b). `only` (a side's key) runs that side
 * alone, for profiling, and prints no ratio. Returns false if `only` names neither side.
 */
/** The medians a comparison printed, for a summary table across comparisons. */
struct Medians
{
    double wallRatio{0};
    double goodputRatio{0};
    double goodputA{0}; ///< Gb/s
    double goodputB{0};
    double cpuRatio{0};
    std::string label; ///< the row's name in a summary table ("" lets the caller name it)
};

bool Compare(std::ostream& os,
             const Side& a,
             const Side& b,
             uint32_t repeat,
             const std::string& only,
             double wallTarget,
             Medians* medians = nullptr,
             double cpuTarget = 0);

} // namespace bench
} // namespace ns3

#endif // IWARP_BENCH_COMMON_H
