/*
 * iwarp-bench-mpa-tcp: what iWARP over MPA/TCP costs in simulation time over plain ns-3 TCP.
 *
 * One topology (two hosts, a 10 Gb/s point-to-point link, 4 MiB socket buffers, MSS 1448):
 *  (a) RdmaStream of RDMA Writes, virtual payload, over MPA/TCP;
 *  (b) BulkSendHelper over TCP into a PacketSink;
 * the same number of octets (--bytes) each, one after the other in this process. Printed: wall
 * time of each, their ratio (target: at most 1.15), simulated octets per wall second, and the
 * process's peak resident memory after each. Then a latency table: RDMA Write and Send
 * ping-pong half round trips for 8 B ... 1 MiB. Figures only, never timed assertions.
 *
 *   build/iwarp-bench-mpa-tcp --bytes=200000000
 */
#include "helper/two-host-topology.h"
#include "helper/iwarp-helper.h"
#include "helper/rdma-app-helper.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <chrono>
#include <vector>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/** The benchmark's one topology: two hosts on a link, RNICs only where RDMA runs. */
struct Topology : public TwoHostTopology
{
    Topology(const std::string& rate, const std::string& delay, bool rnic)
        : TwoHostTopology(DataRate(rate), Time(delay), rnic),
          serverIp(serverAddress)
    {
    }

    Ipv4Address serverIp;
};

long
PeakRssMiB()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

struct RunResult
{
    double wall{0};
    double simSeconds{0};
    uint64_t bytes{0};
    uint64_t events{0};
    long rssMiB{0};
};

RunResult
RunRdma(uint64_t bytes, const std::string& rate, const std::string& delay, uint32_t opSize, uint32_t outstanding)
{
    const auto t0 = std::chrono::steady_clock::now();
    Topology t(rate, delay, true);
    RdmaStreamHelper server(RDMA_ROLE_SERVER, 9001);
    RdmaStreamHelper client(RDMA_ROLE_CLIENT, 9001, InetSocketAddress(t.serverIp, 9001));
    client.SetAttribute("Op", StringValue("Write"));
    client.SetAttribute("Size", UintegerValue(opSize));
    client.SetAttribute("Outstanding", UintegerValue(outstanding));
    client.SetAttribute("TotalBytes", UintegerValue(bytes));
    client.SetAttribute("Payload", StringValue("Virtual"));
    server.Install(t.nodes.Get(1));
    ApplicationContainer c = client.Install(t.nodes.Get(0));
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    Ptr<RdmaStream> st = DynamicCast<RdmaStream>(c.Get(0));
    RunResult r;
    r.bytes = st->GetBytes();
    r.simSeconds = (st->GetEndTime() - st->GetStartTime()).GetSeconds();
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.rssMiB = PeakRssMiB();
    return r;
}

RunResult
RunTcp(uint64_t bytes, const std::string& rate, const std::string& delay)
{
    const auto t0 = std::chrono::steady_clock::now();
    Topology t(rate, delay, false);
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(t.serverIp, 9002));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(65536));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9002));
    ApplicationContainer s = sink.Install(t.nodes.Get(1));
    bulk.Install(t.nodes.Get(0));
    Ptr<PacketSink> ps = DynamicCast<PacketSink>(s.Get(0));
    Time last;
    ps->TraceConnectWithoutContext("Rx", MakeBoundCallback(+[](Time* l, Ptr<const Packet>, const Address&) {
                                       *l = Simulator::Now();
                                   }, &last));
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    RunResult r;
    r.bytes = ps->GetTotalRx();
    r.simSeconds = last.GetSeconds();
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.rssMiB = PeakRssMiB();
    return r;
}

/** Mean half round trip of `count` ping-pongs. */
Time
PingPong(const std::string& mode, uint32_t size, uint32_t count, const std::string& rate, const std::string& delay)
{
    Topology t(rate, delay, true);
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

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t bytes = 200'000'000;
    std::string rate = "10Gbps";
    std::string delay = "5us";
    uint32_t opSize = 1 << 20;
    uint32_t outstanding = 4;
    uint32_t pingCount = 20;
    bool latency = true;
    std::string only; // "rdma" or "tcp": run one side alone, for profiling
    uint32_t repeat = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Octets each transfer moves", bytes);
    cmd.AddValue("rate", "Link data rate", rate);
    cmd.AddValue("delay", "Link one-way delay", delay);
    cmd.AddValue("opSize", "RDMA Write size of the stream", opSize);
    cmd.AddValue("outstanding", "RDMA Writes in flight", outstanding);
    cmd.AddValue("pingCount", "Round trips per latency figure", pingCount);
    cmd.AddValue("latency", "Print the latency table", latency);
    cmd.AddValue("only", "Profile one side: rdma or tcp (no ratio is printed)", only);
    cmd.AddValue("repeat", "Pairs of runs, (a) and (b) alternating; the ratio printed is the median", repeat);
    cmd.Parse(argc, argv);

    std::cout << "== MPA/TCP (RDMA Write stream, virtual payload) vs plain TCP (BulkSend), " << bytes
              << " octets, " << rate << ", " << delay << " ==\n";
    if (!only.empty() && only != "rdma" && only != "tcp")
    {
        std::cerr << "--only must be rdma or tcp, not '" << only << "'\n";
        return 2;
    }
    if (repeat == 0)
    {
        std::cerr << "--repeat must be at least 1\n";
        return 2;
    }
    std::cout << std::fixed << std::setprecision(3) << std::left << std::setw(26) << "run" << std::right
              << std::setw(10) << "wall s" << std::setw(12) << "sim s" << std::setw(14) << "goodput Gb/s"
              << std::setw(16) << "sim MB/wall s" << std::setw(14) << "peak RSS MiB" << std::setw(12) << "events"
              << std::setw(14) << "events/wall s" << "\n";
    // (a) and (b) alternate, so a slower stretch of the machine weighs on both sides alike.
    std::vector<double> ratios;
    for (uint32_t k = 0; k < repeat; ++k)
    {
        const RunResult a = only == "tcp" ? RunResult{} : RunRdma(bytes, rate, delay, opSize, outstanding);
        const RunResult b = only == "rdma" ? RunResult{} : RunTcp(bytes, rate, delay);
        for (auto [name, r] :
             {std::pair<const char*, RunResult>{"(a) RdmaStream MPA/TCP", a}, {"(b) BulkSend TCP", b}})
        {
            std::cout << std::left << std::setw(26) << name << std::right << std::setw(10) << r.wall
                      << std::setw(12) << r.simSeconds << std::setw(14)
                      << (r.simSeconds > 0 ? r.bytes * 8 / r.simSeconds / 1e9 : 0) << std::setw(16)
                      << r.bytes / 1e6 / r.wall << std::setw(14) << r.rssMiB << std::setw(12) << r.events
                      << std::setw(14) << std::setprecision(0) << r.events / std::max(r.wall, 1e-9)
                      << std::setprecision(3) << "\n";
        }
        std::cout << "bytes moved: (a) " << a.bytes << "  (b) " << b.bytes << "\n";
        if (only.empty())
        {
            ratios.push_back(a.wall / b.wall);
            std::cout << "wall ratio (a)/(b), pair " << k + 1 << ": " << ratios.back() << "\n";
        }
    }
    if (!ratios.empty())
    {
        std::sort(ratios.begin(), ratios.end());
        const double median = ratios.size() % 2 ? ratios[ratios.size() / 2]
                                                : (ratios[ratios.size() / 2 - 1] + ratios[ratios.size() / 2]) / 2;
        std::cout << "wall ratio (a)/(b): " << median << " (median of " << ratios.size()
                  << ", min " << ratios.front() << ", max " << ratios.back() << ")  (target <= 1.15)\n";
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
