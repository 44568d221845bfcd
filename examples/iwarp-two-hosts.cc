/*
 * iwarp-two-hosts: two hosts with iWARP RNICs on one point-to-point link.
 *
 * This tutorial builds the smallest complete iWARP network: two nodes, a point-to-point link,
 * ns-3's Internet stack (the RNIC's LLP is ns-3 TCP, with MPA framing on it), and an Rnic on
 * each node (IwarpHelper). Two applications then run one after the other:
 *
 *  1. RdmaPingPong measures latency: --pingCount round trips of --pingSize octets, in Send mode
 *     (Send/Receive) or Write mode (an RDMA Write plus a zero-length Send that tells the peer
 *     the data is placed - in iWARP a Write alone notifies nobody).
 *  2. RdmaStream measures bandwidth: --streamBytes moved as --streamOp operations (Write, Send
 *     or Read) of --streamSize octets, --outstanding of them in flight.
 *
 * Packet captures of both devices go to --outDir (Wireshark decodes iWARP over TCP with its
 * MPA/DDP/RDMAP dissectors, given the port: Decode As... iWARP MPA on ports 9000/9001).
 *
 *   build/iwarp-two-hosts --rate=10Gbps --delay=5us --pingSize=64 --pingMode=Write \
 *       --streamOp=Write --streamBytes=20000000 --outDir=out/two-hosts
 */
#include "common/time-resolution.h"
#include "helper/iwarp-helper.h"
#include "helper/rdma-app-helper.h"
#include "transport/transport-profile.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <numeric>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    std::string rate = "10Gbps";
    std::string delay = "5us";
    uint32_t segmentSize = 1448;
    uint32_t socketBuffer = 4 << 20;
    uint32_t pingSize = 64;
    uint32_t pingCount = 20;
    std::string pingMode = "Send";
    std::string streamOp = "Write";
    uint32_t streamSize = 65536;
    uint32_t outstanding = 8;
    uint64_t streamBytes = 20'000'000;
    std::string outDir = "iwarp-two-hosts-output";
    bool pcap = true;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "Link data rate", rate);
    cmd.AddValue("delay", "Link propagation delay", delay);
    cmd.AddValue("segmentSize", "TCP segment size (MSS) in octets", segmentSize);
    cmd.AddValue("socketBuffer", "TCP send and receive buffer in octets", socketBuffer);
    cmd.AddValue("pingSize", "Ping-pong message size in octets", pingSize);
    cmd.AddValue("pingCount", "Ping-pong round trips", pingCount);
    cmd.AddValue("pingMode", "Ping-pong mode: Send or Write", pingMode);
    cmd.AddValue("streamOp", "Stream operation: Write, Send or Read", streamOp);
    cmd.AddValue("streamSize", "Stream operation size in octets", streamSize);
    cmd.AddValue("outstanding", "Stream operations in flight", outstanding);
    cmd.AddValue("streamBytes", "Octets the stream moves", streamBytes);
    cmd.AddValue("outDir", "Directory for the pcap files", outDir);
    cmd.AddValue("pcap", "Write pcap files", pcap);
    cmd.Parse(argc, argv);

    // Step 1: two nodes, one link, IPv4, an RNIC on each.
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4Address serverIp = addresses.Assign(devices).GetAddress(1);
    IwarpHelper iwarp;
    iwarp.Install(nodes);

    // Step 2: TCP as the LLP under MPA, sized on each node's TransportProfile, which the RNIC's
    // connection manager applies to every socket it makes (ns-3's defaults stay as they are).
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<TransportProfile> tcp = TransportProfile::Of(nodes.Get(i));
        tcp->SetTcpAttribute("SegmentSize", UintegerValue(segmentSize));
        tcp->SetTcpAttribute("SndBufSize", UintegerValue(socketBuffer));
        tcp->SetTcpAttribute("RcvBufSize", UintegerValue(socketBuffer));
    }
    if (pcap)
    {
        std::filesystem::create_directories(outDir);
        p2p.EnablePcapAll(outDir + "/iwarp-two-hosts", false);
    }

    // Step 3: a latency ping-pong (node 0 client, node 1 server) ...
    RdmaPingPongHelper pingServer(RDMA_ROLE_SERVER, 9000);
    pingServer.SetAttribute("Size", UintegerValue(pingSize));
    pingServer.SetAttribute("Mode", StringValue(pingMode));
    RdmaPingPongHelper pingClient(RDMA_ROLE_CLIENT, 9000, InetSocketAddress(serverIp, 9000));
    pingClient.SetAttribute("Size", UintegerValue(pingSize));
    pingClient.SetAttribute("Count", UintegerValue(pingCount));
    pingClient.SetAttribute("Mode", StringValue(pingMode));
    pingServer.Install(nodes.Get(1));
    ApplicationContainer ping = pingClient.Install(nodes.Get(0));
    ping.Start(MicroSeconds(10));

    // ... then a bandwidth stream, started once the ping-pong has had time to finish.
    RdmaStreamHelper streamServer(RDMA_ROLE_SERVER, 9001);
    RdmaStreamHelper streamClient(RDMA_ROLE_CLIENT, 9001, InetSocketAddress(serverIp, 9001));
    streamClient.SetAttribute("Op", StringValue(streamOp));
    streamClient.SetAttribute("Size", UintegerValue(streamSize));
    streamClient.SetAttribute("Outstanding", UintegerValue(outstanding));
    streamClient.SetAttribute("TotalBytes", UintegerValue(streamBytes));
    ApplicationContainer streamSrv = streamServer.Install(nodes.Get(1));
    ApplicationContainer stream = streamClient.Install(nodes.Get(0));
    stream.Start(MilliSeconds(10));

    Simulator::Stop(Seconds(100));
    Simulator::Run();

    // Step 4: the summary.
    Ptr<RdmaPingPong> pp = DynamicCast<RdmaPingPong>(ping.Get(0));
    Ptr<RdmaStream> st = DynamicCast<RdmaStream>(stream.Get(0));
    std::vector<Time> h = pp->GetHalfRtts();
    std::sort(h.begin(), h.end());
    const double meanUs =
        h.empty() ? 0 : std::accumulate(h.begin(), h.end(), Time(0)).GetNanoSeconds() / 1e3 / double(h.size());
    std::cout << "iwarp-two-hosts: " << rate << " link, " << delay << " one way\n\n"
              << std::left << std::setw(34) << "measure" << "value\n"
              << std::string(60, '-') << "\n"
              << std::setw(34) << ("ping-pong " + pingMode + " " + std::to_string(pingSize) + " B")
              << pp->GetIterationsDone() << "/" << pingCount << " round trips\n";
    if (!h.empty())
    {
        std::cout << std::fixed << std::setprecision(3) << std::setw(34) << "  half RTT min / mean / max (us)"
                  << h.front().GetNanoSeconds() / 1e3 << " / " << meanUs << " / "
                  << h.back().GetNanoSeconds() / 1e3 << "\n";
    }
    std::cout << std::setw(34) << ("stream " + streamOp + " " + std::to_string(streamSize) + " B x" +
                                   std::to_string(outstanding))
              << st->GetBytes() << " octets, " << st->GetCompletions() << " completions\n"
              << std::setw(34) << "  time (ms)" << (st->GetEndTime() - st->GetStartTime()).GetMicroSeconds() / 1e3
              << "\n"
              << std::setw(34) << "  throughput (Gb/s)" << st->GetThroughput().GetBitRate() / 1e9 << "\n";
    if (pcap)
    {
        std::cout << "\npcaps: " << outDir << "/iwarp-two-hosts-*.pcap\n";
    }
    Simulator::Destroy();
    return (pp->GetIterationsDone() == pingCount && st->IsFinished()) ? 0 : 1;
}
