/*
 * iwarp-llp-connector: each LLP connector driven on its own, with no RNIC or QP (listen, connect
 * with private data both ways, accept, reject with the reason reaching the initiator, IRD/ORD where
 * the LLP carries them); the ConnectionManager choosing the connector by TypeId; and the scenario's
 * `llp:` names, an unknown one failing with the names it could have been. Set-up that fails after the
 * transport's handshake (the transport lost, or a Reply the initiator refuses) still gives the connect
 * exactly one outcome.
 */
#include "ddp/llp-connector.h"
#include "helper/iwarp-helper.h"
#include "helper/scenario/scenario-config.h"
#include "helper/sctp-helper.h"
#include "mpa/mpa-connection.h"
#include "sctp/sctp-socket.h"
#include "sctp/sctp-two-node-fixture.h"
#include "transport/transport-profile.h"

#include "support/scenario-run-util.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <algorithm>

using namespace ns3;

namespace
{

const char* const kMpa = "ns3::MpaLlpConnector";
const char* const kSctp = "ns3::SctpDdpLlpConnector";
constexpr uint16_t kPort = 7000;

bool
IsSctp(const std::string& connector)
{
    return connector == kSctp;
}

/** What one end saw of its stream: handed out, then its events. */
struct StreamSeen
{
    Ptr<DdpLowerLayer> stream;
    std::vector<DdpLowerLayer::Event> events;

    bool Established() const
    {
        return std::find(events.begin(), events.end(), DdpLowerLayer::Event::Established) != events.end();
    }

    static void Take(StreamSeen* s, Ptr<DdpLowerLayer> llp)
    {
        s->stream = llp;
        // Set before the LLP's set-up goes on: an Established seen here proves the order.
        llp->SetEventCallback(MakeBoundCallback(
            +[](StreamSeen* seen, DdpLowerLayer::Event e, iwarp::ErrorCause) { seen->events.push_back(e); }, s));
    }
};

/** Two nodes on one link, a connector of `connector`'s TypeId on each, the server's listening on kPort. */
struct ConnectorPair
{
    Ptr<LlpConnector> client;
    Ptr<LlpConnector> server;
    Ipv4Address clientAddr;
    Ipv4Address serverAddr;
    std::vector<Ptr<ConnectionRequest>> requests;
    std::vector<LlpConnectResult> results;
    StreamSeen clientSeen;
    StreamSeen serverSeen;

    explicit ConnectorPair(const std::string& connector)
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5us"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        if (IsSctp(connector))
        {
            SctpHelper().Install(nodes);
        }
        Ipv4InterfaceContainer ifs = Ipv4AddressHelper("10.3.1.0", "255.255.255.0").Assign(devs);
        clientAddr = ifs.GetAddress(0);
        serverAddr = ifs.GetAddress(1);
        ObjectFactory f(connector);
        client = f.Create<LlpConnector>();
        server = f.Create<LlpConnector>();
        client->SetNode(nodes.Get(0));
        server->SetNode(nodes.Get(1));
    }

    ~ConnectorPair()
    {
        client->Dispose();
        server->Dispose();
        Simulator::Destroy();
    }

    /**
     * The client connects to `port` at t = 0 (in the simulation: the nodes' stacks are initialised
     * as it starts) and the simulation runs for `time`.
     */
    void ConnectAndRun(uint16_t port, const std::vector<uint8_t>& pd, uint16_t ird, uint16_t ord, Time time)
    {
        Simulator::ScheduleNow(
            +[](ConnectorPair* p, uint16_t to, std::vector<uint8_t> d, uint16_t i, uint16_t o) {
                p->client->Connect(InetSocketAddress(p->serverAddr, to),
                                   d,
                                   i,
                                   o,
                                   MakeBoundCallback(&StreamSeen::Take, &p->clientSeen),
                                   MakeBoundCallback(
                                       +[](ConnectorPair* q, const LlpConnectResult& r) { q->results.push_back(r); },
                                       p));
            },
            this, port, pd, ird, ord);
        Simulator::Stop(time);
        Simulator::Run();
    }

    /** The server answers each request with `answer`; the client connects and 5 ms are run. */
    void Run(LlpConnector::RequestCallback answer, const std::vector<uint8_t>& pd, uint16_t ird, uint16_t ord)
    {
        server->Listen(kPort, answer);
        ConnectAndRun(kPort, pd, ird, ord, MilliSeconds(5));
    }

    /** A RequestCallback that records the request and accepts it with (ird, ord, pd). */
    LlpConnector::RequestCallback Accepting(uint16_t ird, uint16_t ord, std::vector<uint8_t> pd)
    {
        return MakeBoundCallback(
            +[](ConnectorPair* p, uint16_t i, uint16_t o, std::vector<uint8_t> reply, Ptr<ConnectionRequest> req) {
                p->requests.push_back(req);
                p->server->Accept(req, i, o, reply, MakeBoundCallback(&StreamSeen::Take, &p->serverSeen));
            },
            this, ird, ord, pd);
    }

    LlpConnector::RequestCallback Rejecting(std::vector<uint8_t> pd)
    {
        return MakeBoundCallback(
            +[](ConnectorPair* p, std::vector<uint8_t> reason, Ptr<ConnectionRequest> req) {
                p->requests.push_back(req);
                p->server->Reject(req, reason);
            },
            this, pd);
    }
};

class AcceptTestCase : public TestCase
{
  public:
    explicit AcceptTestCase(std::string connector)
        : TestCase(connector + ": connect with private data, IRD and ORD, accept with private data; both ends get "
                                "their stream before it is established"),
          m_connector(std::move(connector))
    {
    }

  private:
    std::string m_connector;

    void DoRun() override
    {
        ConnectorPair p(m_connector);
        p.Run(p.Accepting(2, 3, {9, 8}), {1, 2, 3}, 5, 8);
        const bool sctp = IsSctp(m_connector);
        NS_TEST_ASSERT_MSG_EQ(p.requests.size(), 1u, "one request at the listener");
        const Ptr<ConnectionRequest> req = p.requests[0];
        NS_TEST_EXPECT_MSG_EQ((req->privateData == std::vector<uint8_t>{1, 2, 3}), true, "the request's private data");
        NS_TEST_EXPECT_MSG_EQ(req->port, kPort, "the listened port");
        NS_TEST_EXPECT_MSG_EQ(InetSocketAddress::ConvertFrom(req->from).GetIpv4(), p.clientAddr, "from the client");
        // MPA Rev 2 (the default) carries IRD/ORD (RFC 6581); RFC 5043 carries none.
        NS_TEST_EXPECT_MSG_EQ(req->peerIrdKnown, !sctp, "peer IRD/ORD known");
        NS_TEST_EXPECT_MSG_EQ(req->peerIrd, (sctp ? 0 : 5), "the initiator's IRD");
        NS_TEST_EXPECT_MSG_EQ(req->peerOrd, (sctp ? 0 : 8), "the initiator's ORD");
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome at the initiator");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, true, "accepted");
        NS_TEST_EXPECT_MSG_EQ((p.results[0].privateData == std::vector<uint8_t>{9, 8}), true, "the reply's private data");
        // MPA lowers the initiator's ORD 8 to the responder's IRD 2; SCTP leaves it as given.
        NS_TEST_EXPECT_MSG_EQ(p.results[0].ord, (sctp ? 8 : 2), "the initiator's ORD after set-up");
        NS_TEST_ASSERT_MSG_NE(p.clientSeen.stream, nullptr, "the client's stream handed out");
        NS_TEST_ASSERT_MSG_NE(p.serverSeen.stream, nullptr, "the server's stream handed out");
        NS_TEST_EXPECT_MSG_EQ(p.clientSeen.Established(), true, "the client's stream reported Established");
        NS_TEST_EXPECT_MSG_EQ(p.serverSeen.Established(), true, "the server's stream reported Established");
        for (const Ptr<DdpLowerLayer>& s : {p.clientSeen.stream, p.serverSeen.stream})
        {
            const Ptr<Socket> socket = s->GetSocket();
            NS_TEST_ASSERT_MSG_NE(socket, nullptr, "a transport socket under the stream");
            NS_TEST_EXPECT_MSG_EQ((sctp ? DynamicCast<SctpSocket>(socket) != nullptr
                                        : DynamicCast<TcpSocketBase>(socket) != nullptr),
                                  true,
                                  "the LLP's own transport");
        }
    }
};

class RejectTestCase : public TestCase
{
  public:
    explicit RejectTestCase(std::string connector)
        : TestCase(connector + ": a reject delivers its private data to the initiator, once, and hands out no "
                                "responder stream"),
          m_connector(std::move(connector))
    {
    }

  private:
    std::string m_connector;

    void DoRun() override
    {
        ConnectorPair p(m_connector);
        p.Run(p.Rejecting({'n', 'o'}), {7}, 4, 4);
        NS_TEST_ASSERT_MSG_EQ(p.requests.size(), 1u, "one request at the listener");
        NS_TEST_EXPECT_MSG_EQ((p.requests[0]->privateData == std::vector<uint8_t>{7}), true, "request private data");
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome at the initiator");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, false, "refused");
        NS_TEST_EXPECT_MSG_EQ((p.results[0].privateData == std::vector<uint8_t>{'n', 'o'}), true, "the reason arrived");
        NS_TEST_EXPECT_MSG_EQ(p.serverSeen.stream, nullptr, "no responder stream");
        NS_TEST_EXPECT_MSG_EQ(p.clientSeen.Established(), false, "the initiator's stream never established");
    }
};

class NoListenerCallbackTestCase : public TestCase
{
  public:
    explicit NoListenerCallbackTestCase(std::string connector)
        : TestCase(connector + ": a listener without a request callback refuses, with no private data"),
          m_connector(std::move(connector))
    {
    }

  private:
    std::string m_connector;

    void DoRun() override
    {
        ConnectorPair p(m_connector);
        p.Run(LlpConnector::RequestCallback(), {1}, 4, 4);
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, false, "refused");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].privateData.empty(), true, "no private data");
    }
};

class TransportFailureTestCase : public TestCase
{
  public:
    explicit TransportFailureTestCase(std::string connector)
        : TestCase(connector + ": a connect nobody listens for is refused once, with the ORD unchanged"),
          m_connector(std::move(connector))
    {
    }

  private:
    std::string m_connector;

    void DoRun() override
    {
        ConnectorPair p(m_connector);
        // The transport gives up after one retry 10 ms on (the connector applies the node's profile).
        Ptr<TransportProfile> profile = CreateObject<TransportProfile>();
        profile->SetTcpAttribute("ConnTimeout", TimeValue(MilliSeconds(10)));
        profile->SetTcpAttribute("ConnCount", UintegerValue(1));
        profile->SetSctpAttribute("RtoInitial", TimeValue(MilliSeconds(10)));
        profile->SetSctpAttribute("RtoMin", TimeValue(MilliSeconds(10)));
        profile->SetSctpAttribute("MaxInitRetransmits", UintegerValue(1));
        p.client->GetNode()->AggregateObject(profile);
        p.ConnectAndRun(kPort + 1, {1}, 4, 6, Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, false, "refused");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].ord, 6, "the ORD as given");
    }
};

class LostDuringSetupTestCase : public TestCase
{
  public:
    explicit LostDuringSetupTestCase(std::string connector)
        : TestCase(connector + ": the transport is lost after its handshake, before the set-up frame arrives: "
                                "the connect is refused once, not left waiting"),
          m_connector(std::move(connector))
    {
    }

  private:
    std::string m_connector;

    void DoRun() override
    {
        ConnectorPair p(m_connector);
        // TCP: SYN, then the ACK of the SYN-ACK pass, and the MPA Request is lost with all after it.
        // SCTP: INIT and COOKIE ECHO pass; the DATA carrying the DDP Initiate is lost (RFC 5043 §6).
        Ptr<iwarptest::SctpDropListErrorModel> hole = CreateObject<iwarptest::SctpDropListErrorModel>();
        hole->dropFrom = 3; // counts any packet, whatever its transport
        Ptr<Node> server = p.server->GetNode();
        for (uint32_t i = 0; i < server->GetNDevices(); ++i)
        {
            server->GetDevice(i)->SetAttributeFailSafe("ReceiveErrorModel", PointerValue(hole));
        }
        // The transport gives up on the unacknowledged frame after one retransmission 10 ms on
        // (long before MPA's 10 s InitiatorTimeout, which must not be what ends it).
        Ptr<TransportProfile> profile = CreateObject<TransportProfile>();
        profile->SetTcpAttribute("MinRto", TimeValue(MilliSeconds(10)));
        profile->SetTcpAttribute("DataRetries", UintegerValue(1));
        profile->SetSctpAttribute("RtoInitial", TimeValue(MilliSeconds(10)));
        profile->SetSctpAttribute("RtoMin", TimeValue(MilliSeconds(10)));
        profile->SetSctpAttribute("RtoMax", TimeValue(MilliSeconds(10)));
        profile->SetSctpAttribute("AssociationMaxRetrans", UintegerValue(1));
        profile->SetSctpAttribute("PathMaxRetrans", UintegerValue(1));
        profile->SetSctpAttribute("HeartbeatEnabled", BooleanValue(false));
        p.client->GetNode()->AggregateObject(profile);
        p.server->Listen(kPort, p.Accepting(4, 4, {}));
        p.ConnectAndRun(kPort, {1}, 4, 6, Seconds(1));
        NS_TEST_EXPECT_MSG_GT(hole->seen, 2u, "the set-up frame reached the server's device and was dropped");
        NS_TEST_EXPECT_MSG_EQ(p.requests.size(), 0u, "no request at the listener");
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome at the initiator, well before MPA's time-out");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, false, "refused");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].ord, 6, "the ORD as given");
        NS_TEST_EXPECT_MSG_EQ(p.clientSeen.Established(), false, "the initiator's stream never established");
    }
};

/** Sets ns3::MpaConnection's LowerOrdToPeerIrd on every MPA connection a connector makes. */
void
RefuseLowerOrd(Ptr<Object> part)
{
    if (DynamicCast<MpaConnection>(part))
    {
        part->SetAttribute("LowerOrdToPeerIrd", BooleanValue(false));
    }
}

class ReplyRefusedTestCase : public TestCase
{
  public:
    ReplyRefusedTestCase()
        : TestCase(std::string(kMpa) + ": a Reply whose IRD is below the initiator's ORD, with LowerOrdToPeerIrd "
                                       "off: the connect is refused once, after the LLP error (RFC 6581)")
    {
    }

  private:
    void DoRun() override
    {
        ConnectorPair p(kMpa);
        p.client->SetPartCallback(MakeCallback(&RefuseLowerOrd));
        p.Run(p.Accepting(2, 2, {5}), {1}, 4, 8);
        NS_TEST_ASSERT_MSG_EQ(p.requests.size(), 1u, "the responder accepted");
        NS_TEST_ASSERT_MSG_EQ(p.results.size(), 1u, "one outcome at the initiator");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].accepted, false, "refused by the initiator itself");
        NS_TEST_EXPECT_MSG_EQ(p.results[0].ord, 8, "the ORD as given: it was not lowered");
        const auto& seen = p.clientSeen.events;
        NS_TEST_EXPECT_MSG_EQ((std::find(seen.begin(), seen.end(), DdpLowerLayer::Event::LlpError) != seen.end()),
                              true,
                              "the stream got the LLP error (its ULP sends the Terminate, 2-0-0x06)");
        NS_TEST_EXPECT_MSG_EQ(p.clientSeen.Established(), false, "the initiator's stream never established");
    }
};

/**
 * ConnectionManager: the "LlpConnector" attribute picks the connector; a listener keeps the one it
 * listened with, so its requests are still answered after the attribute changes.
 */
class ManagerChoosesByTypeIdTestCase : public TestCase
{
  public:
    ManagerChoosesByTypeIdTestCase()
        : TestCase("ConnectionManager: LlpConnector picks the connector by TypeId (MPA by default); a listener keeps "
                   "answering with its own after a change")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        SctpHelper().Install(nodes);
        const Ipv4Address serverAddr = Ipv4AddressHelper("10.3.2.0", "255.255.255.0").Assign(devs).GetAddress(1);
        IwarpHelper iw;
        Ptr<Rnic> client = iw.Install(nodes.Get(0));
        Ptr<Rnic> server = iw.Install(nodes.Get(1));
        Ptr<ConnectionManager> scm = server->GetConnectionManager();
        NS_TEST_EXPECT_MSG_EQ(scm->GetConnector()->GetInstanceTypeId().GetName(), kMpa, "MPA by default");
        scm->Listen(kPort,
                    MakeBoundCallback(
                        +[](Ptr<Rnic> rnic, Ptr<ConnectionRequest> req) {
                            Ptr<ProtectionDomain> pd = rnic->AllocatePd();
                            Ptr<CompletionQueue> cq = rnic->CreateCq();
                            rnic->GetConnectionManager()->Accept(req, rnic->CreateQp(pd, cq, cq), {4});
                        },
                        server));
        // Bad input changes nothing: a TypeId of something else, the abstract base.
        for (const char* bad : {"ns3::TcpSocketBase", "ns3::LlpConnector"})
        {
            NS_TEST_EXPECT_MSG_EQ(scm->SetAttributeFailSafe("LlpConnector", StringValue(bad)), false, bad);
        }
        TypeIdValue chosen;
        scm->GetAttribute("LlpConnector", chosen);
        NS_TEST_EXPECT_MSG_EQ(chosen.Get().GetName(), kMpa, "still MPA after the refused settings");
        scm->SetAttribute("LlpConnector", StringValue(kSctp));
        NS_TEST_EXPECT_MSG_EQ(scm->GetConnector()->GetInstanceTypeId().GetName(), kSctp, "SCTP after the change");
        Ptr<CompletionQueue> cq = client->CreateCq();
        Ptr<QueuePair> qp = client->CreateQp(client->AllocatePd(), cq, cq);
        bool accepted = false;
        std::vector<uint8_t> reply;
        const ConnectionManager::ConnectCallback done = MakeBoundCallback(
            +[](bool* ok, std::vector<uint8_t>* pd, Ptr<QueuePair>, bool a, const std::vector<uint8_t>& r) {
                *ok = a;
                *pd = r;
            },
            &accepted, &reply);
        Simulator::ScheduleNow(&ConnectionManager::Connect, client->GetConnectionManager(), qp,
                               Address(InetSocketAddress(serverAddr, kPort)), std::vector<uint8_t>{}, done);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(accepted, true, "the MPA listener accepted");
        NS_TEST_EXPECT_MSG_EQ((reply == std::vector<uint8_t>{4}), true, "its private data");
        NS_TEST_EXPECT_MSG_EQ(qp->GetState(), QueuePair::CONNECTED, "the QP is on the stream");
        NS_TEST_EXPECT_MSG_EQ((IwarpTransport::Of(qp, "the connector test")->GetLlp()->GetSocket() != nullptr), true,
                              "over TCP");
        Simulator::Destroy();
    }
};

/** The scenario's `llp:` takes the short names and the connector TypeIds of LlpDescriptors(), nothing else. */
class ScenarioLlpNamesTestCase : public TestCase
{
  public:
    ScenarioLlpNamesTestCase()
        : TestCase("scenario llp: short names and connector TypeIds; an unknown name or a TypeId that is no "
                   "LlpConnector is an error listing the known names")
    {
    }

  private:
    static std::string Scenario(const std::string& llp)
    {
        return "stop: 5ms\ntopology: {kind: two-hosts}\nworkloads:\n"
               "  - {kind: stream, from: h0, to: h1, count: 2, llp: " +
               llp + "}\n";
    }

    void DoRun() override
    {
        for (const LlpDescriptor& e : LlpDescriptors())
        {
            TypeId tid;
            NS_TEST_ASSERT_MSG_EQ(TypeId::LookupByNameFailSafe(e.connector, &tid), true, e.connector << " exists");
            NS_TEST_EXPECT_MSG_EQ(tid.IsChildOf(LlpConnector::GetTypeId()), true, e.connector << " is a connector");
            for (const char* spelling : {e.name, e.connector})
            {
                NS_TEST_EXPECT_MSG_EQ(LoadScenarioString(Scenario(spelling), {}, "s.yaml").workloads[0].llp, &e,
                                      spelling);
            }
        }
        const std::string known =
            " (expected one of tcp (ns3::MpaLlpConnector), sctp (ns3::SctpDdpLlpConnector), rocev2 "
            "(ns3::RoceConnector))";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(Scenario("ns3::NoSuchConnector")),
                              "s.yaml:4:53: workloads.0.llp: unknown llp 'ns3::NoSuchConnector'" + known,
                              "an unknown TypeId");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(Scenario("Mpa")), "s.yaml:4:53: workloads.0.llp: unknown llp 'Mpa'" + known,
                              "the attribute's old spelling is no scenario name");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(Scenario("ns3::TcpSocketBase")),
                              "s.yaml:4:53: workloads.0.llp: llp 'ns3::TcpSocketBase' is not an LlpConnector" + known,
                              "a TypeId of something else");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(Scenario("ns3::LlpConnector")),
                              "s.yaml:4:53: workloads.0.llp: llp 'ns3::LlpConnector' is an LlpConnector scenarios "
                              "have no entry for" +
                                  known,
                              "a connector without a table entry");
    }
};

class LlpConnectorSuite : public TestSuite
{
  public:
    LlpConnectorSuite()
        : TestSuite("iwarp-llp-connector", UNIT)
    {
        for (const char* c : {kMpa, kSctp})
        {
            AddTestCase(new AcceptTestCase(c), TestCase::QUICK);
            AddTestCase(new RejectTestCase(c), TestCase::QUICK);
            AddTestCase(new NoListenerCallbackTestCase(c), TestCase::QUICK);
            AddTestCase(new TransportFailureTestCase(c), TestCase::QUICK);
            AddTestCase(new LostDuringSetupTestCase(c), TestCase::QUICK);
        }
        AddTestCase(new ReplyRefusedTestCase, TestCase::QUICK);
        AddTestCase(new ManagerChoosesByTypeIdTestCase, TestCase::QUICK);
        AddTestCase(new ScenarioLlpNamesTestCase, TestCase::QUICK);
    }
};

LlpConnectorSuite g_llpConnectorSuite;

} // namespace
