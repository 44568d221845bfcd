/*
 * The TcpLinuxCubic end-to-end fixture; see linux-cubic-bulk.h.
 */
#include "tcp/linux-cubic-bulk.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cmath>

namespace ns3
{
namespace iwarptest
{

namespace
{

/** Keep the socket's send buffer full: the application never limits the sender. */
void
FillSendBuffer(Ptr<Socket> s, uint32_t)
{
    while (s->GetTxAvailable() > 0)
    {
        uint32_t n = std::min<uint32_t>(s->GetTxAvailable(), 64 * 1024);
        if (s->Send(Create<Packet>(n)) < 0)
        {
            return;
        }
    }
}

void
ConnectTo(Ptr<Socket> s, InetSocketAddress to)
{
    s->Connect(to);
}

void
OnConnected(Ptr<Socket> s)
{
    FillSendBuffer(s, 0);
}

void
OnConnectFailed(Ptr<Socket>)
{
    NS_FATAL_ERROR("linux-cubic bulk fixture: the TCP connection failed");
}

void
CountStates(CubicBulkResult* r, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        ++r->recoveries;
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        ++r->timeouts;
    }
}

void
KeepSsThresh(CubicBulkResult* r, uint32_t, uint32_t now)
{
    r->finalSsThresh = now;
}

void
CountDrop(CubicBulkResult* r, Ptr<const QueueDiscItem>)
{
    ++r->queueDrops;
}

void
SampleRx(const uint64_t* received, uint64_t* at)
{
    *at = *received;
}

void
Drain(uint64_t* received, Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        *received += p->GetSize();
    }
}

void
OnAccept(uint64_t* received, Ptr<Socket> s, const Address&)
{
    s->SetRecvCallback(MakeBoundCallback(&Drain, received));
}

} // namespace

CubicBulkResult
RunCubicBulk(const CubicBulkConfig& c)
{
    NS_ABORT_MSG_IF(!c.cc, "RunCubicBulk needs a congestion-control object");
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(c.seed);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(c.rate));
    p2p.SetChannelAttribute("Delay", TimeValue(c.oneWayDelay));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper stack;
    stack.Install(nodes);
    if (c.fifoPackets > 0)
    {
        // Before addresses are assigned: Ipv4AddressHelper::Assign installs ns-3's default (FqCoDel) only
        // on a device that has no root queue disc yet.
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, c.fifoPackets)));
        tch.Install(devices);
    }
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addresses.Assign(devices);
    if (c.lossRate > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(c.lossRate);
        // A fixed stream: the automatic numbering counts every random variable made earlier in the
        // process, which would tie the losses to the order the tests run in.
        em->AssignStreams(1);
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    const uint16_t port = 5001;
    // The receiver is a listening socket of our own rather than a PacketSink, so that its receive
    // buffer (the window it advertises) is set here and not through a global default.
    uint64_t received = 0;
    Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
    listener->SetAttribute("SegmentSize", UintegerValue(c.segmentSize));
    listener->SetAttribute("RcvBufSize", UintegerValue(c.bufferBytes));
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    listener->Listen();
    listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeBoundCallback(&OnAccept, &received));

    Ptr<Socket> socket = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
    socket->SetAttribute("SegmentSize", UintegerValue(c.segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(c.bufferBytes));
    socket->SetAttribute("RcvBufSize", UintegerValue(c.bufferBytes));
    Ptr<TcpSocketBase> tcpSocket = DynamicCast<TcpSocketBase>(socket);
    tcpSocket->SetCongestionControlAlgorithm(c.cc);

    CubicBulkResult r;
    tcpSocket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CountStates, &r));
    tcpSocket->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&KeepSsThresh, &r));
    socket->SetConnectCallback(MakeCallback(&OnConnected), MakeCallback(&OnConnectFailed));
    socket->SetSendCallback(MakeCallback(&FillSendBuffer));
    socket->Bind();
    // Connect once the simulation runs: the nodes (and their queue discs) are initialized at its start.
    Simulator::ScheduleNow(&ConnectTo, socket, InetSocketAddress(ifs.GetAddress(1), port));

    Ptr<QueueDisc> queue = nodes.Get(0)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(devices.Get(0));
    NS_ABORT_MSG_IF(!queue, "linux-cubic bulk fixture: the sender's device has no queue disc");
    queue->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, &r));
    uint64_t rxAtWarmup = 0;
    uint64_t rxAtEnd = 0;
    Simulator::Schedule(c.warmup, &SampleRx, &received, &rxAtWarmup);
    Simulator::Schedule(c.duration, &SampleRx, &received, &rxAtEnd);
    Simulator::Stop(c.duration);
    Simulator::Run();
    r.goodputMbps = (rxAtEnd - rxAtWarmup) * 8.0 / (c.duration - c.warmup).GetSeconds() / 1e6;
    Simulator::Destroy();
    return r;
}

double
MathisMbps(uint32_t mss, Time rtt, double p)
{
    return mss * 8.0 / rtt.GetSeconds() * std::sqrt(3.0 / (2.0 * p)) / 1e6;
}

} // namespace iwarptest
} // namespace ns3
