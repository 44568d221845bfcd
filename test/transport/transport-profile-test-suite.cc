/*
 * iwarp-transport-profile: TransportProfile on two nodes joined by one link, without the scenario
 * runner: every setting reaches a TCP socket and an SCTP socket made on a node with a profile, the
 * sockets a listener accepts carry the listener's settings, a node without a profile keeps ns-3's and
 * the model's defaults, and SCTP's new InitialCwnd attribute sets the window an association starts with.
 */
#include "helper/sctp-helper.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket-factory.h"
#include "sctp/sctp-socket.h"
#include "tcp/tcp-linux-cubic.h"
#include "transport/transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/enum.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <vector>

namespace ns3
{
namespace
{

/** Two nodes on a 1 Gb/s, 10 us link with IPv4, TCP and the SCTP model; the server listens on port 5000. */
struct TwoNodes
{
    NodeContainer nodes;
    Ipv4Address serverAddress;
    Ptr<Socket> client;
    Ptr<Socket> listener;
    Ptr<Socket> accepted;
    std::vector<Time> clientRto;       ///< the client's RTO trace, from its creation
    std::vector<uint8_t> synFlags;     ///< flags of the SYN and SYN-ACK sent (by either node)

    TwoNodes()
    {
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("10us"));
        NetDeviceContainer d = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        SctpHelper().Install(nodes);
        Ipv4AddressHelper a("10.1.1.0", "255.255.255.0");
        serverAddress = a.Assign(d).GetAddress(1);
    }

    ~TwoNodes() { Simulator::Destroy(); }

    /** Listen and connect over `factory` (TCP or SCTP), each socket configured as the runner's users do. */
    void Connect(TypeId factory)
    {
        listener = Socket::CreateSocket(nodes.Get(1), factory);
        TransportProfile::Configure(listener);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&TwoNodes::OnAccept, this));
        client = Socket::CreateSocket(nodes.Get(0), factory);
        if (Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(client))
        {
            tcp->TraceConnectWithoutContext("RTO", MakeCallback(&TwoNodes::OnRto, this));
            for (Ptr<Socket> s : {client, listener})
            {
                s->TraceConnectWithoutContext("Tx", MakeCallback(&TwoNodes::OnTcpTx, this));
            }
        }
        TransportProfile::Configure(client);
        Simulator::ScheduleNow([this]() { client->Connect(InetSocketAddress(serverAddress, 5000)); });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
    }

    void OnAccept(Ptr<Socket> s, const Address&) { accepted = s; }
    void OnRto(Time, Time now) { clientRto.push_back(now); }
    void OnTcpTx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        if (h.GetFlags() & TcpHeader::SYN)
        {
            synFlags.push_back(h.GetFlags());
        }
    }
};

template <typename V>
V
Read(Ptr<Socket> s, const std::string& name)
{
    V v;
    s->GetAttribute(name, v);
    return v;
}

std::string
CongestionOf(Ptr<Socket> s)
{
    return Read<PointerValue>(s, "CongestionOps").Get<TcpCongestionOps>()->GetInstanceTypeId().GetName();
}

class TcpProfileTestCase : public TestCase
{
  public:
    TcpProfileTestCase()
        : TestCase("every TCP setting reaches the connecting socket and the one its listener accepts")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes t;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<TransportProfile> p = CreateObject<TransportProfile>();
            p->SetTcpCongestionOps(TcpNewReno::GetTypeId());
            p->SetTcpAttribute("MinRto", TimeValue(MilliSeconds(3)));
            p->SetTcpInitialRto(MilliSeconds(700));
            p->SetTcpAttribute("DelAckTimeout", TimeValue(MicroSeconds(400)));
            p->SetTcpAttribute("DelAckCount", UintegerValue(1));
            p->SetTcpAttribute("InitialCwnd", UintegerValue(4));
            p->SetTcpAttribute("Sack", BooleanValue(false));
            p->SetTcpAttribute("Timestamp", BooleanValue(false));
            p->SetTcpAttribute("UseEcn", EnumValue(TcpSocketState::On));
            p->SetTcpAttribute("SndBufSize", UintegerValue(300000));
            p->SetTcpAttribute("RcvBufSize", UintegerValue(200000));
            t.nodes.Get(i)->AggregateObject(p);
        }
        t.Connect(TcpSocketFactory::GetTypeId());
        NS_TEST_ASSERT_MSG_NE(t.accepted, nullptr, "connected");
        for (Ptr<Socket> s : {t.client, t.listener, t.accepted})
        {
            NS_TEST_EXPECT_MSG_EQ(CongestionOf(s), "ns3::TcpNewReno", "congestion");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "MinRto").Get(), MilliSeconds(3), "min RTO");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "ConnTimeout").Get(), MilliSeconds(700), "SYN timeout");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "DelAckTimeout").Get(), MicroSeconds(400), "delayed ACK");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "DelAckCount").Get(), 1u, "delayed-ACK count");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "InitialCwnd").Get(), 4u, "initial cwnd");
            NS_TEST_EXPECT_MSG_EQ(Read<BooleanValue>(s, "Sack").Get(), false, "SACK");
            NS_TEST_EXPECT_MSG_EQ(Read<BooleanValue>(s, "Timestamp").Get(), false, "timestamps");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "SndBufSize").Get(), 300000u, "send buffer");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "RcvBufSize").Get(), 200000u, "receive buffer");
        }
        // The RTO before any sample: set with the SYN (then its timeout, ConnTimeout, takes over).
        NS_TEST_ASSERT_MSG_GT(t.clientRto.size(), 0u, "the client's RTO was traced");
        NS_TEST_EXPECT_MSG_EQ(t.clientRto.front(), MilliSeconds(700), "the RTO before the first RTT sample");
        // ECN, which ns-3 does not let one read: an ECN-setup SYN (ECE|CWR) and SYN-ACK (ECE), RFC 3168 §6.1.1.
        NS_TEST_ASSERT_MSG_EQ(t.synFlags.size(), 2u, "one SYN, one SYN-ACK");
        NS_TEST_EXPECT_MSG_EQ(int(t.synFlags[0] & (TcpHeader::ECE | TcpHeader::CWR)),
                              int(TcpHeader::ECE | TcpHeader::CWR), "the client asks for ECN");
        NS_TEST_EXPECT_MSG_EQ(int(t.synFlags[1] & (TcpHeader::ECE | TcpHeader::CWR)), int(TcpHeader::ECE),
                              "the accepted socket agrees to it");
    }
};

class DctcpTurnsEcnOnTestCase : public TestCase
{
  public:
    DctcpTurnsEcnOnTestCase()
        : TestCase("DCTCP chosen by the profile runs with ECN, whatever UseEcn said before it")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes t;
        Ptr<TransportProfile> p = CreateObject<TransportProfile>();
        p->SetTcpAttribute("UseEcn", EnumValue(TcpSocketState::Off));
        p->SetTcpCongestionOps(TcpDctcp::GetTypeId());
        t.nodes.Get(0)->AggregateObject(p);
        t.Connect(TcpSocketFactory::GetTypeId());
        NS_TEST_EXPECT_MSG_EQ(CongestionOf(t.client), "ns3::TcpDctcp", "DCTCP on the client");
        NS_TEST_ASSERT_MSG_GT(t.synFlags.size(), 0u, "a SYN");
        NS_TEST_EXPECT_MSG_EQ(int(t.synFlags[0] & (TcpHeader::ECE | TcpHeader::CWR)),
                              int(TcpHeader::ECE | TcpHeader::CWR), "an ECN-setup SYN");
        // The server has no profile: ns-3's defaults (ECN off, so no ECE in its SYN-ACK; TcpCubic).
        NS_TEST_EXPECT_MSG_EQ(int(t.synFlags.back() & TcpHeader::ECE), 0, "the server does not agree");
        NS_TEST_EXPECT_MSG_EQ(CongestionOf(t.accepted), "ns3::TcpCubic", "the server keeps ns-3's default");
    }
};

class NoProfileTestCase : public TestCase
{
  public:
    NoProfileTestCase()
        : TestCase("a node without a profile keeps ns-3's TCP and the SCTP model's defaults")
    {
    }

  private:
    void DoRun() override
    {
        for (TypeId factory : {TcpSocketFactory::GetTypeId(), SctpSocketFactory::GetTypeId()})
        {
            TwoNodes t;
            t.Connect(factory);
            NS_TEST_ASSERT_MSG_NE(t.accepted, nullptr, factory.GetName() << ": connected");
            for (Ptr<Socket> s : {t.client, t.accepted})
            {
                const TypeId tid = s->GetInstanceTypeId();
                for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
                {
                    const TypeId::AttributeInformation a = tid.GetAttribute(i);
                    const bool plain = (a.flags & TypeId::ATTR_GET) && a.accessor->HasGetter() &&
                                       a.checker->GetValueTypeName() != "ns3::PointerValue" &&
                                       a.checker->GetValueTypeName() != "CallbackValue";
                    if (!plain)
                    {
                        continue;
                    }
                    Ptr<AttributeValue> v = a.checker->Create();
                    s->GetAttribute(a.name, *v);
                    NS_TEST_EXPECT_MSG_EQ(v->SerializeToString(a.checker), a.initialValue->SerializeToString(a.checker),
                                          tid.GetName() << "::" << a.name << " keeps its default");
                }
            }
            if (factory == TcpSocketFactory::GetTypeId())
            {
                NS_TEST_EXPECT_MSG_EQ(t.clientRto.front(), Seconds(1) + MilliSeconds(1),
                                      "ns-3's RTO before a sample: 1 s estimate + 1 ms granularity");
            }
        }
    }
};

class SctpProfileTestCase : public TestCase
{
  public:
    SctpProfileTestCase()
        : TestCase("every SCTP setting reaches the connecting socket and the association its listener accepts")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes t;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<TransportProfile> p = CreateObject<TransportProfile>();
            p->SetSctpAttribute("RtoMin", TimeValue(MilliSeconds(3)));
            p->SetSctpAttribute("RtoInitial", TimeValue(MilliSeconds(700)));
            p->SetSctpAttribute("RtoMax", TimeValue(Seconds(9)));
            p->SetSctpAttribute("SackDelay", TimeValue(MicroSeconds(400)));
            p->SetSctpAttribute("SackFrequency", UintegerValue(3));
            p->SetSctpAttribute("InitialCwnd", UintegerValue(10));
            p->SetSctpAttribute("MaxBurst", UintegerValue(6));
            p->SetSctpAttribute("SndBufSize", UintegerValue(300000));
            p->SetSctpAttribute("RcvBufSize", UintegerValue(200000));
            t.nodes.Get(i)->AggregateObject(p);
        }
        t.Connect(SctpSocketFactory::GetTypeId());
        NS_TEST_ASSERT_MSG_NE(t.accepted, nullptr, "associated");
        for (Ptr<Socket> s : {t.client, t.listener, t.accepted})
        {
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "RtoMin").Get(), MilliSeconds(3), "RTO.Min");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "RtoInitial").Get(), MilliSeconds(700), "RTO.Initial");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "RtoMax").Get(), Seconds(9), "RTO.Max");
            NS_TEST_EXPECT_MSG_EQ(Read<TimeValue>(s, "SackDelay").Get(), MicroSeconds(400), "SACK delay");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "SackFrequency").Get(), 3u, "SACK frequency");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "InitialCwnd").Get(), 10u, "initial cwnd");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "MaxBurst").Get(), 6u, "Max.Burst");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "SndBufSize").Get(), 300000u, "send buffer");
            NS_TEST_EXPECT_MSG_EQ(Read<UintegerValue>(s, "RcvBufSize").Get(), 200000u, "receive buffer");
        }
    }
};

class SctpInitialCwndTestCase : public TestCase
{
  public:
    SctpInitialCwndTestCase()
        : TestCase("SctpSocket InitialCwnd: the window an association starts with, RFC 9260's when 0")
    {
    }

  private:
    void DoRun() override
    {
        // An idle association keeps its initial window; with a 1500-octet MTU SCTP's "MTU" is 1480.
        for (uint32_t mtus : {0u, 1u, 10u})
        {
            TwoNodes t;
            Ptr<TransportProfile> p = CreateObject<TransportProfile>();
            p->SetSctpAttribute("InitialCwnd", UintegerValue(mtus));
            t.nodes.Get(0)->AggregateObject(p);
            t.Connect(SctpSocketFactory::GetTypeId());
            const uint32_t expected = mtus == 0 ? 4380u : mtus * 1480u; // min(4 MTU, max(2 MTU, 4380))
            NS_TEST_EXPECT_MSG_EQ(DynamicCast<SctpSocket>(t.client)->GetCwnd(), expected, mtus << " MTUs");
            NS_TEST_EXPECT_MSG_EQ(DynamicCast<SctpSocket>(t.accepted)->GetCwnd(), 4380u,
                                  "the server, without a profile, starts as RFC 9260 says");
        }
    }
};

class TransportProfileTestSuite : public TestSuite
{
  public:
    TransportProfileTestSuite()
        : TestSuite("iwarp-transport-profile", UNIT)
    {
        AddTestCase(new TcpProfileTestCase, TestCase::QUICK);
        AddTestCase(new DctcpTurnsEcnOnTestCase, TestCase::QUICK);
        AddTestCase(new NoProfileTestCase, TestCase::QUICK);
        AddTestCase(new SctpProfileTestCase, TestCase::QUICK);
        AddTestCase(new SctpInitialCwndTestCase, TestCase::QUICK);
    }
};

TransportProfileTestSuite g_transportProfileTestSuite;

} // namespace
} // namespace ns3
