#include "rnic/rnic-pair.h"

#include "rnic/loopback-llp-connector.h"
#include "rnic/loopback-rdma-transport.h"

#include "net/reordering-channel.h"

#include "helper/iwarp-helper.h"
#include "helper/sctp-helper.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>

namespace ns3
{

namespace
{

void
Record(std::vector<WorkCompletion>* v, const WorkCompletion& c)
{
    v->push_back(c);
}

} // namespace

bool
SamePrivateData(const std::vector<uint8_t>& got, const std::vector<uint8_t>& sent, TestTransport t)
{
    if (t != TestTransport::Roce)
    {
        return got == sent;
    }
    return got.size() >= sent.size() && std::equal(sent.begin(), sent.end(), got.begin()) &&
           std::all_of(got.begin() + sent.size(), got.end(), [](uint8_t o) { return o == 0; });
}

std::string
TransportCaseName(const std::string& base, TestTransport t)
{
    return t == TestTransport::Loopback ? base + " -loopback" : t == TestTransport::Roce ? base + " -rocev2" : base;
}

RnicPair::RnicPair(const std::string& rate, const std::string& delay, bool sctp, bool dualHomed)
{
    BuildIwarp(rate, delay, sctp, dualHomed);
}

void
RnicPair::BuildIwarp(const std::string& rate, const std::string& delay, bool sctp, bool dualHomed,
                     double reorderFraction)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devs;
    if (reorderFraction > 0)
    {
        // The helper makes only its own channel type: the devices are attached by hand.
        Ptr<ReorderingChannel> ch = CreateObject<ReorderingChannel>();
        ch->SetAttribute("Delay", StringValue(delay));
        ch->SetAttribute("ReorderFraction", DoubleValue(reorderFraction));
        ch->SetAttribute("ReorderDelay", TimeValue(MicroSeconds(20)));
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
            dev->SetAddress(Mac48Address::Allocate());
            dev->SetAttribute("DataRate", StringValue(rate));
            dev->SetQueue(CreateObject<DropTailQueue<Packet>>());
            nodes.Get(i)->AddDevice(dev);
            dev->Attach(ch);
            devs.Add(dev);
        }
    }
    else
    {
        devs = p2p.Install(nodes);
    }
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper addr("10.2.1.0", "255.255.255.0");
    serverAddr = addr.Assign(devs).GetAddress(1);
    links.push_back(devs);
    if (dualHomed)
    {
        links.push_back(p2p.Install(nodes));
        Ipv4AddressHelper("10.2.2.0", "255.255.255.0").Assign(links.back());
    }
    IwarpHelper iw;
    client = iw.Install(nodes.Get(0));
    server = iw.Install(nodes.Get(1));
    if (m_transport == TestTransport::Loopback)
    {
        // The link stays (the loopback connector finds listeners by IPv4 address) but carries nothing.
        for (Ptr<Rnic> r : {client, server})
        {
            r->GetConnectionManager()->SetAttribute("LlpConnector", TypeIdValue(LoopbackLlpConnector::GetTypeId()));
        }
    }
    else if (m_transport == TestTransport::Roce)
    {
        for (Ptr<Rnic> r : {client, server})
        {
            r->GetConnectionManager()->SetAttribute("LlpConnector", StringValue("ns3::RoceConnector"));
        }
    }
    else if (sctp)
    {
        SctpHelper().Install(nodes);
        client->GetConnectionManager()->SetAttribute("LlpConnector", StringValue("ns3::SctpDdpLlpConnector"));
        server->GetConnectionManager()->SetAttribute("LlpConnector", StringValue("ns3::SctpDdpLlpConnector"));
    }
    MakeQps();
}

RnicPair::RnicPair(TestTransport t)
    : m_transport(t)
{
    BuildIwarp("10Gbps", "5us", false);
}

RnicPair::RnicPair(TestTransport t, double reorderFraction)
    : m_transport(t)
{
    BuildIwarp("10Gbps", "5us", false, false, reorderFraction);
}

RnicPair::~RnicPair()
{
    Simulator::Destroy();
    Ipv4AddressGenerator::Reset(); // the next pair in this process takes the same addresses
}

void
RnicPair::MakeQps()
{
    cpd = client->AllocatePd();
    spd = server->AllocatePd();
    ccq = client->CreateCq();
    scq = server->CreateCq();
    ccq->RequestNotify(CompletionQueue::NEXT_COMPLETION, true);
    scq->RequestNotify(CompletionQueue::NEXT_COMPLETION, true);
    ccq->TraceConnectWithoutContext("Notify", MakeBoundCallback(&Record, &clientDone));
    scq->TraceConnectWithoutContext("Notify", MakeBoundCallback(&Record, &serverDone));
    cqp = client->CreateQp(cpd, ccq, ccq);
    sqp = server->CreateQp(spd, scq, scq);
}

void
RnicPair::Connect(const std::vector<uint8_t>& request, const std::vector<uint8_t>& reply, bool reject)
{
    server->GetConnectionManager()->Listen(
        7000,
        MakeBoundCallback(
            +[](RnicPair* p, std::vector<uint8_t> rep, bool rej, Ptr<ConnectionRequest> req) {
                p->requestPd = req->privateData;
                if (rej)
                {
                    p->server->GetConnectionManager()->Reject(req, rep);
                }
                else
                {
                    p->server->GetConnectionManager()->Accept(req, p->sqp, rep);
                    p->accepted = true;
                }
            },
            this,
            reply,
            reject));
    Simulator::ScheduleNow(
        +[](RnicPair* p, std::vector<uint8_t> req) {
            p->client->GetConnectionManager()->Connect(
                p->cqp,
                InetSocketAddress(p->serverAddr, 7000),
                req,
                MakeBoundCallback(
                    +[](RnicPair* q, Ptr<QueuePair>, bool ok, const std::vector<uint8_t>& pd) {
                        q->connected = ok;
                        q->replyPd = pd;
                    },
                    p));
        },
        this,
        request);
}

void
RnicPair::ConnectAndSettle()
{
    Connect({}, {}, false);
    Run(MilliSeconds(5));
}

void
RnicPair::Run(Time t)
{
    Simulator::Stop(t);
    Simulator::Run();
}

} // namespace ns3
