/*
 * sctp-two-hosts: one SCTP association between two hosts on a point-to-point link.
 *
 * This tutorial shows the SCTP model on its own: ns-3's Internet stack on two nodes, SctpHelper to add
 * SCTP (IP protocol 132), a listener on the server, a client that connects and sends --bytes of user
 * messages of --msgSize octets on --streams streams (unordered with --unordered), and random packet loss
 * (--loss, on both receiving devices). It prints the handshake time, the transfer's goodput and how the
 * association repaired losses (fast retransmissions, T3 retransmissions), then closes gracefully.
 * A pcap of the client's device goes to --outDir if given (tshark -o 'sctp.checksum:CRC 32c' decodes it).
 *
 *   build/sctp-two-hosts --rate=100Mbps --delay=1ms --bytes=10000000 --msgSize=8000 --loss=0.01
 */
#include "common/time-resolution.h"
#include "helper/sctp-helper.h"
#include "sctp/sctp-socket.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <filesystem>
#include <iostream>

using namespace ns3;

namespace
{

struct Run
{
    Ptr<SctpSocket> client;
    uint64_t toSend{0};
    uint64_t sent{0};
    uint64_t received{0};
    uint32_t msgSize{0};
    uint16_t streams{1};
    bool unordered{false};
    uint64_t messages{0};
    Time connectedAt;
    Time doneAt;
    uint32_t fastRtx{0};
    uint32_t t3Rtx{0};

    void Pump(Ptr<Socket>, uint32_t)
    {
        while (sent < toSend && client->GetTxAvailable() >= msgSize)
        {
            uint32_t n = uint32_t(std::min<uint64_t>(msgSize, toSend - sent));
            if (client->SendMsg(Create<Packet>(n), uint16_t(messages % streams), 0, unordered) < 0)
            {
                break;
            }
            sent += n;
            messages++;
        }
    }

    void Connected(Ptr<Socket> s)
    {
        connectedAt = Simulator::Now();
        Pump(s, 0);
    }

    void Failed(Ptr<Socket>)
    {
        std::cerr << "association set-up failed" << std::endl;
    }

    void Recv(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            received += p->GetSize();
        }
        if (received >= toSend && doneAt.IsZero())
        {
            doneAt = Simulator::Now();
            client->Close();
        }
    }

    void Accept(Ptr<Socket> s, const Address&)
    {
        s->SetRecvCallback(MakeCallback(&Run::Recv, this));
    }

    void Rtx(uint32_t, bool fast)
    {
        (fast ? fastRtx : t3Rtx)++;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    std::string rate = "100Mbps";
    std::string delay = "1ms";
    uint64_t bytes = 10000000;
    uint32_t msgSize = 8000;
    uint16_t streams = 2;
    bool unordered = false;
    double loss = 0.0;
    std::string outDir;
    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link data rate", rate);
    cmd.AddValue("delay", "one-way link delay", delay);
    cmd.AddValue("bytes", "user octets to send", bytes);
    cmd.AddValue("msgSize", "octets per user message", msgSize);
    cmd.AddValue("streams", "outbound streams used round-robin", streams);
    cmd.AddValue("unordered", "send unordered messages (U bit)", unordered);
    cmd.AddValue("loss", "packet loss rate on each receiving device", loss);
    cmd.AddValue("outDir", "directory for a pcap of the client's device (empty: none)", outDir);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    SctpHelper().Install(nodes);
    if (loss > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(loss);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    if (!outDir.empty())
    {
        std::filesystem::create_directories(outDir);
        p2p.EnablePcap(outDir + "/sctp", devices.Get(0), true);
    }

    Run run;
    run.toSend = bytes;
    run.msgSize = msgSize;
    run.streams = streams;
    run.unordered = unordered;
    Ptr<Socket> listener = SctpHelper::CreateSocket(nodes.Get(1));
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
    listener->Listen();
    listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&Run::Accept, &run));
    run.client = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(nodes.Get(0)));
    run.client->SetConnectCallback(MakeCallback(&Run::Connected, &run), MakeCallback(&Run::Failed, &run));
    run.client->SetSendCallback(MakeCallback(&Run::Pump, &run));
    run.client->TraceConnectWithoutContext("Retransmission", MakeCallback(&Run::Rtx, &run));
    // Devices are initialised by events at time 0; connect after them.
    Simulator::ScheduleNow([&]() { run.client->Connect(InetSocketAddress(ifs.GetAddress(1), 5000)); });
    Simulator::Stop(Seconds(3600));
    Simulator::Run();

    std::cout << "handshake done at " << run.connectedAt.As(Time::MS) << std::endl;
    if (run.doneAt.IsZero())
    {
        std::cout << "transfer incomplete: " << run.received << " of " << bytes << " octets" << std::endl;
    }
    else
    {
        double secs = (run.doneAt - run.connectedAt).GetSeconds();
        std::cout << run.received << " octets in " << run.messages << " messages, " << secs
                  << " s simulated: goodput " << run.received * 8 / secs / 1e6 << " Mb/s" << std::endl;
    }
    std::cout << "retransmissions: " << run.fastRtx << " fast, " << run.t3Rtx << " after T3; final cwnd "
              << run.client->GetCwnd() << ", SRTT " << run.client->GetSrtt().As(Time::MS) << ", state "
              << run.client->GetState() << std::endl;
    Simulator::Destroy();
    return 0;
}
