/*
 * rdma-stream-two-nodes: the smallest program of your own on an installed iwarp-ns3.
 *
 * Two ns-3 nodes on a 10 Gb/s point-to-point link, an RNIC on each (IwarpHelper), and one RdmaStream:
 * node 0 moves --bytes octets to node 1 as RDMA Writes (or Sends, or Reads) of --size octets over MPA/TCP.
 * It prints what arrived and exits 0 when the whole stream completed, 1 otherwise. Every attribute of
 * RdmaStream is in share/iwarp-ns3/doc/attributes.md (or `iwarp-sim attributes`).
 */
#include "common/time-resolution.h"
#include "helper/iwarp-helper.h"
#include "helper/rdma-app-helper.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    uint64_t bytes = 4'000'000;
    uint32_t size = 65536;
    std::string op = "Write";
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Octets the stream moves", bytes);
    cmd.AddValue("size", "Octets per operation", size);
    cmd.AddValue("op", "Write, Send or Read", op);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    link.SetChannelAttribute("Delay", StringValue("5us"));
    NetDeviceContainer devices = link.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    const Ipv4Address server = addresses.Assign(devices).GetAddress(1);

    IwarpHelper iwarp; // an Rnic (queue pairs, MPA over TCP) on each node
    iwarp.Install(nodes);

    const uint16_t port = 9001;
    RdmaStreamHelper sink(RDMA_ROLE_SERVER, port);
    RdmaStreamHelper source(RDMA_ROLE_CLIENT, port, InetSocketAddress(server, port));
    source.SetAttribute("Op", StringValue(op));
    source.SetAttribute("Size", UintegerValue(size));
    source.SetAttribute("TotalBytes", UintegerValue(bytes));
    sink.Install(nodes.Get(1));
    ApplicationContainer app = source.Install(nodes.Get(0));
    app.Start(MicroSeconds(10));

    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Ptr<RdmaStream> stream = DynamicCast<RdmaStream>(app.Get(0));
    const bool done = stream->IsFinished() && stream->GetBytes() == bytes;
    std::cout << "rdma-stream-two-nodes: " << op << " " << stream->GetBytes() << " of " << bytes << " octets in "
              << stream->GetCompletions() << " completions, "
              << stream->GetThroughput().GetBitRate() / 1e9 << " Gb/s: " << (done ? "complete" : "INCOMPLETE")
              << std::endl;
    Simulator::Destroy();
    return done ? 0 : 1;
}
