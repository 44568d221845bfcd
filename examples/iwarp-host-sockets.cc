/*
 * iwarp-host-sockets: what the host costs a sockets application (doc/host-model.md).
 *
 * Two hosts on one point-to-point link run the ordinary-sockets baseline over ns-3's TCP twice,
 * without and with a host model (HostHelper): a SocketStream of --total octets in --size
 * messages, then a SocketPingPong per message size. It prints throughput, latency and the
 * receiver's host counters, so the cost of DMA + protocol cycles + copy is visible next to the
 * uncharged network-only figures. Every parameter is a command-line option:
 *
 *   build/iwarp-host-sockets --busRate=25.6GBps --cores=1 --freq=2.5e9
 *   build/iwarp-host-sockets --csv=receiver-host.csv
 */
#include "common/time-resolution.h"
#include "helper/host-helper.h"
#include "helper/socket-app-helper.h"
#include "helper/two-host-topology.h"

#include "ns3/core-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

struct Options
{
    std::string linkRate{"10Gbps"};
    std::string linkDelay{"5us"};
    uint64_t total{8 << 20};
    uint32_t size{65536};
    std::string busRate{"204800Mbps"};
    uint32_t cores{4};
    double freq{2.5e9};
    std::string csv;
};

void
InstallHost(const Options& o, NodeContainer nodes)
{
    HostHelper host;
    host.SetMemoryAttribute("Bandwidth", DataRateValue(DataRate(o.busRate)));
    host.SetCpuAttribute("Cores", UintegerValue(o.cores));
    host.SetCpuAttribute("Frequency", DoubleValue(o.freq));
    host.Install(nodes);
}

void
RunStream(const Options& o, bool charged)
{
    TwoHostTopology t(DataRate(o.linkRate), Time(o.linkDelay), false);
    if (charged)
    {
        InstallHost(o, t.nodes);
    }
    SocketStreamHelper server(SOCKET_ROLE_SERVER, 9101);
    SocketStreamHelper client(SOCKET_ROLE_CLIENT, 9101, InetSocketAddress(t.serverAddress, 9101));
    client.SetAttribute("TotalBytes", UintegerValue(o.total));
    client.SetAttribute("Size", UintegerValue(o.size));
    Ptr<SocketStream> s = DynamicCast<SocketStream>(server.Install(t.nodes.Get(1)).Get(0));
    client.Install(t.nodes.Get(0)).Start(MicroSeconds(10));
    Simulator::Stop(Seconds(60));
    Simulator::Run();

    const auto& lat = s->GetLatencies();
    std::cout << std::left << std::setw(10) << (charged ? "charged" : "uncharged") << std::right
              << std::setw(12) << std::fixed << std::setprecision(3)
              << s->GetThroughput().GetBitRate() / 1e9 << " Gb/s" << std::setw(12)
              << (lat.empty() ? 0.0 : lat.front().GetSeconds() * 1e6) << " us first" << std::setw(8)
              << s->GetDeliveredMessages() << " msgs\n";
    if (charged)
    {
        HostCounters c = HostCounters::FromNode(t.nodes.Get(1));
        std::cout << "  receiver bus " << c.busBytes << " B (" << double(c.busBytes) / s->GetDeliveredBytes()
                  << "x delivered), cpu " << c.cpuCycles << " cycles, busy "
                  << c.CpuBusy().GetSeconds() * 1e6 << " us over " << c.coreBusy.size() << " cores\n";
        if (!o.csv.empty())
        {
            std::ofstream out(o.csv);
            out << HostCounters::CsvHeader(c.coreBusy.size()) << "\n" << c.CsvRow() << "\n";
        }
    }
    Simulator::Destroy();
}

Time
RunPingPong(const Options& o, bool charged, uint32_t size)
{
    TwoHostTopology t(DataRate(o.linkRate), Time(o.linkDelay), false);
    if (charged)
    {
        InstallHost(o, t.nodes);
    }
    SocketPingPongHelper server(SOCKET_ROLE_SERVER, 9100);
    server.SetAttribute("Size", UintegerValue(size));
    SocketPingPongHelper client(SOCKET_ROLE_CLIENT, 9100, InetSocketAddress(t.serverAddress, 9100));
    client.SetAttribute("Size", UintegerValue(size));
    client.SetAttribute("Count", UintegerValue(10));
    server.Install(t.nodes.Get(1));
    ApplicationContainer c = client.Install(t.nodes.Get(0));
    c.Start(MicroSeconds(10));
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    const auto& h = DynamicCast<SocketPingPong>(c.Get(0))->GetHalfRtts();
    Time last = h.empty() ? Time(0) : h.back(); // the last one: past slow start
    Simulator::Destroy();
    return last;
}

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    Options o;
    CommandLine cmd(__FILE__);
    cmd.AddValue("linkRate", "Link data rate", o.linkRate);
    cmd.AddValue("linkDelay", "Link propagation delay", o.linkDelay);
    cmd.AddValue("total", "Stream octets", o.total);
    cmd.AddValue("size", "Stream message octets", o.size);
    cmd.AddValue("busRate", "HostMemoryModel Bandwidth", o.busRate);
    cmd.AddValue("cores", "HostCpuModel Cores", o.cores);
    cmd.AddValue("freq", "HostCpuModel Frequency (Hz)", o.freq);
    cmd.AddValue("csv", "Write the receiver's host counters to this CSV file", o.csv);
    cmd.Parse(argc, argv);

    std::cout << "SocketStream " << o.total << " B in " << o.size << " B messages over " << o.linkRate
              << "\n";
    RunStream(o, false);
    RunStream(o, true);
    std::cout << "\nSocketPingPong half RTT (us)\n" << std::setw(8) << "size" << std::setw(12)
              << "uncharged" << std::setw(12) << "charged\n";
    for (uint32_t size : {64u, 1024u, 8192u, 65536u})
    {
        std::cout << std::setw(8) << size << std::setw(12) << std::setprecision(2)
                  << RunPingPong(o, false, size).GetSeconds() * 1e6 << std::setw(12)
                  << RunPingPong(o, true, size).GetSeconds() * 1e6 << "\n";
    }
    return 0;
}
