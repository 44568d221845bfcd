#include "rnic/rnic-pair.h"

#include "rnic/loopback-llp-connector.h"
#include "rnic/loopback-rdma-transport.h"

#include "helper/iwarp-helper.h"
#include "helper/sctp-helper.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

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

std::string
TransportCaseName(const std::string& base, TestTransport t)
{
    return t == TestTransport::Loopback ? base + " -loopback" : base;
}

RnicPair::RnicPair(const std::string& rate, const std::string& delay, bool sctp, bool dualHomed)
{
    BuildIwarp(rate, delay, sctp, dualHomed);
}

void
RnicPair::BuildIwarp(const std::string& rate, const std::string& delay, bool sctp, bool dualHomed)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devs = p2p.Install(nodes);
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
