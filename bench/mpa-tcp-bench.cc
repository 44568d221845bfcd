/*
 * iwarp-bench-mpa-tcp: what iWARP over MPA/TCP costs in simulation time over plain ns-3 TCP.
 *
 * One topology (two hosts, a 10 Gb/s point-to-point link, 4 MiB socket buffers, MSS 1448):
 *  (a) RdmaStream of RDMA Writes, virtual payload, over MPA/TCP;
 *  (b) BulkSendHelper over TCP into a PacketSink;
 * the same number of octets (--bytes) each, alternating in this process (--repeat pairs). Printed:
 * wall and CPU time of each, the median wall ratio (target: at most 1.15) and goodput ratio, simulated
 * octets per wall second, events, and the process's peak resident memory after each (the sides
 * and the table are bench/bench-common.*, shared with iwarp-bench-sctp). Then a latency table:
 * RDMA Write and Send ping-pong half round trips for 8 B ... 1 MiB. In between, the same pair on the
 * scenario runner's host queues before queue discs (a 100-packet device queue) and now (an unlimited
 * FIFO queue disc over a 2-packet ring), --queueRepeat pairs each, the pair with the runner's `auto`
 * socket buffers, and a table of the setups' median ratios side by side. The CPU ratio is printed
 * beside issue 16's target (at most 1.05). --queues=ns3|none|fifo and --autoBuffers pick the first
 * pair's setup, so --only=rdma|tcp can profile any of them (callgrind, doc/performance.md).
 * Figures only, never timed assertions.
 *
 *   build/iwarp-bench-mpa-tcp --bytes=200000000
 */
#include "common/time-resolution.h"
#include "host/host-profile.h"
#include "bench/bench-common.h"
#include "common/iwarp-constants.h"
#include "helper/rdma-app-helper.h"
#include "helper/scenario/path-limits.h"
#include "helper/scenario/scenario-transport.h"
#include "helper/topology/topology-builder.h"
#include "mpa/mpa-fpdu.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <iostream>
#include <numeric>

using namespace ns3;
using namespace ns3::bench;

namespace
{

/** Mean half round trip of `count` ping-pongs. */
Time
PingPong(const std::string& mode, uint32_t size, uint32_t count, const std::string& rate, const std::string& delay)
{
    BenchTopology t(rate, delay, true);
    RdmaPingPongHelper server(RDMA_ROLE_SERVER, 9000);
    server.SetAttribute("Size", UintegerValue(size));
    server.SetAttribute("Mode", StringValue(mode));
    server.SetAttribute("Payload", StringValue("Virtual"));
    RdmaPingPongHelper client(RDMA_ROLE_CLIENT, 9000, InetSocketAddress(t.serverIp, 9000));
    client.SetAttribute("Size", UintegerValue(size));
    client.SetAttribute("Mode", StringValue(mode));
    client.SetAttribute("Count", UintegerValue(count));
    client.SetAttribute("Payload", StringValue("Virtual"));
    server.Install(t.nodes.Get(1));
    ApplicationContainer c = client.Install(t.nodes.Get(0));
    Simulator::Stop(Seconds(100));
    Simulator::Run();
    const auto& h = DynamicCast<RdmaPingPong>(c.Get(0))->GetHalfRtts();
    Time mean = h.empty() ? Time(0) : std::accumulate(h.begin(), h.end(), Time(0)) / int64_t(h.size());
    if (h.size() != count)
    {
        mean = Time(-1);
    }
    Simulator::Destroy();
    return mean;
}

/** What the scenario runner's `auto` buffers are on this link (a two-hosts scenario's h0). */
uint32_t
AutoBuffer(const std::string& rate, const std::string& delay)
{
    TopologySpec spec;
    spec.link.rate = DataRate(rate);
    spec.link.delay = Time(delay);
    const BuiltTopology topo = TopologyBuilder::Build(spec);
    const uint32_t octets = uint32_t(AutoBufferSize(Paths(topo), "h0"));
    Simulator::Destroy();
    return octets;
}

} // namespace

int
main(int argc, char* argv[])
{
    // First: ns-3 allows a resolution before any run only, so --resolution is looked at before the command
    // line is parsed. ns keeps ns-3's default, to measure what picoseconds cost (bench/resolution-bench.py).
    const bool nanoseconds = std::find(argv + 1, argv + argc, std::string("--resolution=ns")) != argv + argc;
    if (!nanoseconds)
    {
        ns3::iwarp::UseModuleTimeResolution();
    }
    std::string resolution = nanoseconds ? "ns" : "ps";
    uint64_t bytes = 200'000'000;
    std::string rate = "10Gbps";
    std::string delay = "5us";
    // Writes of whole full-size FPDUs by default (see below); --opSize=1048576 for 1 MiB.
    uint32_t opSize = 0;
    bool oddPair = true;
    uint32_t outstanding = 4;
    uint32_t pingCount = 20;
    bool latency = true;
    std::string only; // "rdma" or "tcp": run one side alone, for profiling
    uint32_t repeat = 1;
    uint32_t queueRepeat = 3;
    std::string queues = "ns3";
    bool autoBuffers = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Octets each transfer moves", bytes);
    cmd.AddValue("rate", "Link data rate", rate);
    cmd.AddValue("delay", "Link one-way delay", delay);
    cmd.AddValue("opSize", "RDMA Write size of the stream (0: the most whole full-segment FPDUs in 1 MiB)", opSize);
    cmd.AddValue("oddPair", "Also run one pair with 1 MiB Writes, whose last FPDU is short", oddPair);
    cmd.AddValue("outstanding", "RDMA Writes in flight", outstanding);
    cmd.AddValue("pingCount", "Round trips per latency figure", pingCount);
    cmd.AddValue("latency", "Print the latency table", latency);
    cmd.AddValue("only", "Profile one side: rdma or tcp (no ratio is printed)", only);
    cmd.AddValue("repeat", "Pairs of runs, (a) and (b) alternating; the ratio printed is the median", repeat);
    cmd.AddValue("queueRepeat",
                 "Pairs per host queue setup of the scenario runner, before and with queue discs (0: none)",
                 queueRepeat);
    cmd.AddValue("queues",
                 "Host queues of the first pair (to profile a setup with --only): ns3 (ns-3 helpers, fq-codel), "
                 "none (no queue disc, 100-packet device queue) or fifo (the scenario runner's defaults)",
                 queues);
    cmd.AddValue("resolution",
                 "ps: the module's time resolution; ns: ns-3's default, only to measure the difference "
                 "(give it as --resolution=ns)",
                 resolution);
    cmd.AddValue("autoBuffers", "The first pair with the runner's auto socket buffers instead of 4 MiB", autoBuffers);
    cmd.Parse(argc, argv);

    std::cout << "== MPA/TCP (RDMA Write stream, virtual payload) vs plain TCP (BulkSend), " << bytes
              << " octets, " << rate << ", " << delay << ", time step 1 " << resolution << " ==\n";
    if (resolution != (nanoseconds ? "ns" : "ps"))
    {
        std::cerr << "--resolution is ps or ns, given as --resolution=ns\n";
        return 2;
    }
    if (repeat == 0)
    {
        std::cerr << "--repeat must be at least 1\n";
        return 2;
    }
    const std::map<std::string, HostQueues> queueNames{
        {"ns3", HostQueues::Ns3Helper}, {"none", HostQueues::None}, {"fifo", HostQueues::Defaults}};
    if (queueNames.count(queues) == 0)
    {
        std::cerr << "--queues must be ns3, none or fifo, not '" << queues << "'\n";
        return 2;
    }
    const HostQueues firstQueues = queueNames.at(queues);
    if (autoBuffers)
    {
        SetSocketBuffer(AutoBuffer(rate, delay));
    }
    // A Write whose length is not a whole number of segments' payload ends in a short FPDU, hence a
    // short TCP segment; while one is in flight, cwnd minus the octets in flight is a few hundred
    // octets, and ns-3's TCP then walks its whole sent list (TcpTxBuffer::NextSeg) on every ACK only
    // to find the window too small to send. With 4 MiB of buffers that list holds thousands of
    // segments, so the walk dominates (perf: 35% of the run). BulkSend never sends a short segment.
    // The headline ratio therefore uses Writes of whole full-size FPDUs; the odd pair shows 1 MiB.
    const uint32_t perSegment = MpaMulpdu(1448, false) - uint32_t(iwarp::kDdpTaggedHdrLen);
    const uint32_t wholeSegments = (1u << 20) / perSegment * perSegment;
    const uint32_t size = opSize == 0 ? wholeSegments : opSize;
    std::cout << "RDMA Writes of " << size << " octets"
              << (size % perSegment == 0 ? " (whole FPDUs of " + std::to_string(perSegment) + " payload octets)" : "")
              << ", " << outstanding << " outstanding\n";
    // The pair, (a) and (b), on the given host queues (buffers: whatever SetSocketBuffer last set).
    const auto pairOn = [&](HostQueues q) {
        return std::make_pair(Side{"(a) RdmaStream MPA/TCP", "rdma",
                                   [=]() { return RunRdmaWrites(bytes, rate, delay, size, outstanding, "Mpa", q); }},
                              Side{"(b) BulkSend TCP", "tcp", [=]() { return RunTcpBulk(bytes, rate, delay, q); }});
    };
    const auto [rdma, tcp] = pairOn(HostQueues::Ns3Helper);
    const auto [firstRdma, firstTcp] = pairOn(firstQueues);
    if (firstQueues != HostQueues::Ns3Helper || autoBuffers)
    {
        std::cout << "first pair: host queues " << Describe(firstQueues) << ", socket buffers "
                  << (autoBuffers ? "auto" : "4 MiB") << "\n";
    }
    std::vector<std::pair<HostQueues, Medians>> bySetup{{firstQueues, Medians{}}};
    // Issue 16's targets for the headline pair: wall time at most 1.15x, CPU time at most 1.05x.
    if (!Compare(std::cout, firstRdma, firstTcp, repeat, only, 1.15, &bySetup[0].second, 1.05))
    {
        return 2;
    }
    if (autoBuffers)
    {
        SetSocketBuffer(kSocketBuffer); // the setups below name their buffers
        bySetup[0].second.label = std::string(Describe(firstQueues)) + ", auto buffers";
    }
    // The same pair on the hosts' queues of the scenario runner, before queue discs and now, so that
    // what the queue discs cost in simulation speed (and give in goodput) shows beside the headline.
    for (HostQueues q : {HostQueues::None, HostQueues::Defaults})
    {
        if (queueRepeat == 0 || !only.empty())
        {
            break;
        }
        if (q == firstQueues && !autoBuffers)
        {
            continue; // the first pair ran this setup already
        }
        std::cout << "\n-- host queues: " << Describe(q) << " --\n";
        const auto [a, b] = pairOn(q);
        bySetup.emplace_back(q, Medians{});
        Compare(std::cout, a, b, queueRepeat, "", 0, &bySetup.back().second);
    }
    // Buffers near the bandwidth-delay product (issue 16): the same pair with the buffers the
    // scenario runner's `auto` gives this path, against the fixed 4 MiB above. ns-3's TCP walks its
    // whole sent list on every transmission attempt (TcpTxBuffer::NextSeg), so the data a large
    // buffer lets into flight costs simulation time per packet.
    if (queueRepeat > 0 && only.empty())
    {
        const uint32_t autoBuffer = AutoBuffer(rate, delay);
        std::cout << "\n-- socket buffers " << autoBuffer << " octets (the runner's auto for this link) instead of "
                  << kSocketBuffer << ", ns-3 helper queues --\n";
        SetSocketBuffer(autoBuffer);
        bySetup.emplace_back(HostQueues::Ns3Helper, Medians{});
        Compare(std::cout, rdma, tcp, queueRepeat, "", 0, &bySetup.back().second);
        bySetup.back().second.label = "ns-3 helpers, auto buffers";
        SetSocketBuffer(kSocketBuffer);
    }
    // The host path (issue 27): (a) on hosts of the scenarios' default profile, the RNICs charging DMA per
    // segment and the verbs per request and completion, against (a) on hosts without a host model.
    if (queueRepeat > 0 && only.empty())
    {
        std::cout << "\n-- (a) on `current` hosts (host model charged) against (a) on hosts without one --\n";
        const Side charged{"(a) on current hosts", "rdma-host", [=]() {
                               return RunRdmaWrites(bytes, rate, delay, size, outstanding, "Mpa", HostQueues::Ns3Helper,
                                                    kDefaultHostProfile);
                           }};
        Compare(std::cout, charged, rdma, queueRepeat, "", 0);
    }
    if (bySetup.size() > 1)
    {
        std::cout << "\n== MPA/TCP (a) vs BulkSend (b) by host queues and buffers (medians; 4 MiB unless named) ==\n"
                  << std::left << std::setw(30) << "host queues" << std::right << std::setw(14) << "wall (a)/(b)"
                  << std::setw(13) << "cpu (a)/(b)" << std::setw(17) << "goodput (a)/(b)" << std::setw(12)
                  << "(a) Gb/s" << std::setw(12) << "(b) Gb/s" << "\n";
        for (const auto& [q, m] : bySetup)
        {
            std::cout << std::left << std::setw(30) << (m.label.empty() ? Describe(q) : m.label.c_str()) << std::right
                      << std::setprecision(3) << std::setw(14) << m.wallRatio << std::setw(13) << m.cpuRatio
                      << std::setw(17) << m.goodputRatio << std::setw(12) << m.goodputA << std::setw(12) << m.goodputB
                      << "\n";
        }
    }
    if (oddPair && only.empty() && size % perSegment == 0)
    {
        std::cout << "\n-- one pair with 1 MiB Writes (a short last FPDU per Write) --\n";
        const Side odd{"(a) RdmaStream 1 MiB", "rdma", [&]() {
                           return RunRdmaWrites(bytes, rate, delay, 1u << 20, outstanding, "Mpa");
                       }};
        Compare(std::cout, odd, tcp, 1, "", 0);
    }

    if (latency)
    {
        std::cout << "\n== ping-pong half round trip (mean of " << pingCount << "), " << rate << ", " << delay
                  << " ==\n"
                  << std::left << std::setw(10) << "size" << std::right << std::setw(16) << "Write us"
                  << std::setw(16) << "Send us" << "\n";
        for (uint32_t size : {8u, 64u, 512u, 4096u, 65536u, 1u << 20})
        {
            const Time w = PingPong("Write", size, pingCount, rate, delay);
            const Time s = PingPong("Send", size, pingCount, rate, delay);
            std::cout << std::left << std::setw(10) << size << std::right << std::setw(16)
                      << w.GetNanoSeconds() / 1e3 << std::setw(16) << s.GetNanoSeconds() / 1e3 << "\n";
        }
    }
    return 0;
}
