/*
 * The RNIC node model over iWARP: connection manager (listen, connect with private data, accept,
 * reject, IRD/ORD) and the engine pipeline's latency calibration (doc/iwarp.md "RNIC model").
 * The connection manager's cases also run over the loopback transport (LoopbackLlpConnector): the
 * manager keeps its rules (private data, rejection, IRD/ORD) whatever RdmaTransport the QPs have.
 * The queue pair's verbs behaviour, which holds over any transport, is in qp-verbs-test-suite.cc.
 */
#include "rnic/rdma-transport-kinds.h"
#include "rnic/rnic-pair.h"

#include "rnic/loopback-llp-connector.h"
#include "rnic/loopback-rdma-transport.h"

#include "helper/iwarp-helper.h"
#include "sctp-ddp/sctp-ddp-connection.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/** The pair a connection-manager case runs on: iWARP over MPA/TCP or SCTP, or the loopback transport. */
RnicPair
Make(bool sctp, TestTransport t)
{
    return t == TestTransport::Iwarp ? RnicPair("10Gbps", "5us", sctp) : RnicPair(t);
}

class CmConnectTest : public TestCase
{
  public:
    CmConnectTest(bool sctp = false, TestTransport t = TestTransport::Iwarp)
        : TestCase(TransportCaseName(sctp ? "Connection manager with the SCTP connector (RFC 5043): connect with "
                                            "private data, accept, Send and Write byte-exact"
                                          : "Connection manager: connect with private data, accept, Send and Write "
                                            "byte-exact",
                                     t)),
          m_sctp(sctp),
          m_transport(t)
    {
    }

  private:
    bool m_sctp;
    TestTransport m_transport;
    void DoRun() override
    {
        RnicPair p = Make(m_sctp, m_transport);
        p.Connect({1, 2, 3}, {9, 8}, false);
        p.Run(MilliSeconds(5));
        NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
        NS_TEST_EXPECT_MSG_EQ(SamePrivateData(p.requestPd, {1, 2, 3}, m_transport), true, "request private data");
        NS_TEST_EXPECT_MSG_EQ(SamePrivateData(p.replyPd, {9, 8}, m_transport), true, "reply private data");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::CONNECTED, "client QP");
        using namespace MemAccess;
        Ptr<MemoryRegion> src = p.client->RegisterMemory(p.cpd, 100000, kLocalRead | kLocalWrite);
        for (uint32_t i = 0; i < 100000; ++i)
        {
            src->GetBuffer()->Data()[i] = uint8_t(i * 7 + 1);
        }
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, 100000, kLocalWrite | kRemoteWrite);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 4096, kLocalWrite);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(5, LocalBuffer{rcv->GetStag(), 0, 4096}), true, "post recv");
        SendWr w;
        w.id = 1;
        w.type = WrOpcode::Write;
        w.local = LocalBuffer{src->GetStag(), 0, 100000};
        w.remoteStag = dst->GetStag();
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(w), true, "post Write");
        SendWr s;
        s.id = 2;
        s.type = WrOpcode::Send;
        s.local = LocalBuffer{src->GetStag(), 0, 1000};
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(s), true, "post Send");
        p.Run(MilliSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "two send completions on the client CQ");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::Success, "Write");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::Success, "Send");
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 1u, "one receive completion on the server CQ");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].byteLength, 1000u, "Send length");
        NS_TEST_EXPECT_MSG_EQ(std::equal(src->GetBuffer()->Data(), src->GetBuffer()->Data() + 100000,
                                         dst->GetBuffer()->Data()),
                              true,
                              "Write placed byte-exact");
        NS_TEST_EXPECT_MSG_EQ(std::equal(src->GetBuffer()->Data(), src->GetBuffer()->Data() + 1000,
                                         rcv->GetBuffer()->Data()),
                              true,
                              "Send delivered byte-exact");
    }
};

class CmRejectTest : public TestCase
{
  public:
    CmRejectTest(bool sctp = false, TestTransport t = TestTransport::Iwarp)
        : TestCase(TransportCaseName(sctp ? "Connection manager with the SCTP connector: a rejected connect reports "
                                            "the reason"
                                          : "Connection manager: a rejected connect reports the reason and the QP "
                                            "takes no work",
                                     t)),
          m_sctp(sctp),
          m_transport(t)
    {
    }

  private:
    bool m_sctp;
    TestTransport m_transport;
    void DoRun() override
    {
        RnicPair p = Make(m_sctp, m_transport);
        p.Connect({}, {'n', 'o'}, true);
        p.Run(MilliSeconds(5));
        NS_TEST_EXPECT_MSG_EQ(p.connected, false, "not connected");
        NS_TEST_EXPECT_MSG_EQ(SamePrivateData(p.replyPd, {'n', 'o'}, m_transport), true, "the reason arrived");
        NS_TEST_EXPECT_MSG_EQ(p.accepted, false, "never accepted");
    }
};

class PipelineLatencyTest : public TestCase
{
  public:
    PipelineLatencyTest()
        : TestCase("RNIC engine costs: a 64-octet Send's one-way latency is the engine costs plus "
                   "the wire's, near the ~1.5 us of the calibration")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p("40Gbps", "100ns");
        p.Connect({}, {}, false);
        p.Run(MilliSeconds(5));
        using namespace MemAccess;
        Ptr<MemoryRegion> src = p.client->RegisterMemory(p.cpd, 64, kLocalRead);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 64, kLocalWrite);
        p.sqp->PostRecv(1, LocalBuffer{rcv->GetStag(), 0, 64});
        const Time start = Simulator::Now();
        SendWr s;
        s.id = 1;
        s.type = WrOpcode::Send;
        s.local = LocalBuffer{src->GetStag(), 0, 64};
        p.cqp->PostSend(s);
        Time arrived;
        p.scq->TraceConnectWithoutContext("Notify",
                                          MakeBoundCallback(+[](Time* t, const WorkCompletion&) {
                                              *t = Simulator::Now();
                                          },
                                                            &arrived));
        p.Run(MilliSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 1u, "delivered");
        Ptr<RnicPipeline> pipe = CreateObject<RnicPipeline>();
        const uint32_t seg = 18 + 64;
        const Time engine = pipe->Cost(seg, true, true) + pipe->Cost(seg, true, false);
        // One FPDU in one TCP/IPv4/PPP frame: 2 + 82 + 2 pad + 4 CRC + 32 TCP + 20 IP + 2 PPP.
        const Time wire = DataRate("40Gbps").CalculateBytesTxTime(2 + seg + 2 + 4 + 32 + 20 + 2) +
                          NanoSeconds(100);
        const Time measured = arrived - start;
        std::cout << "one-way Send latency " << measured.As(Time::NS) << " (engine "
                  << engine.As(Time::NS) << ", wire " << wire.As(Time::NS) << ")" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured.GetNanoSeconds(), (engine + wire).GetNanoSeconds(), 5,
                                  "engine + wire, nothing else");
        NS_TEST_EXPECT_MSG_EQ((measured > NanoSeconds(1200) && measured < NanoSeconds(1800)), true,
                              "near the 1.5 us calibration point");
    }
};

/** Set a QP's IRD and ORD where its transport keeps them (RDMAP for iWARP, the transport itself otherwise). */
void
SetDepths(Ptr<QueuePair> qp, uint32_t ird, uint32_t ord)
{
    Ptr<Object> holder = qp->GetTransport();
    if (Ptr<IwarpTransport> iw = IwarpTransport::Find(qp))
    {
        holder = iw->GetRdmap();
    }
    holder->SetAttribute("Ird", UintegerValue(ird));
    holder->SetAttribute("Ord", UintegerValue(ord));
}

class CmOrdFollowsPeerIrdTest : public TestCase
{
  public:
    explicit CmOrdFollowsPeerIrdTest(TestTransport t = TestTransport::Iwarp)
        : TestCase(TransportCaseName("Connection manager: each QP's ORD is lowered to the peer's IRD from the Rev 2 "
                                     "set-up (RFC 6581)",
                                     t)),
          m_transport(t)
    {
    }

  private:
    TestTransport m_transport;
    void DoRun() override
    {
        RnicPair p(m_transport);
        SetDepths(p.cqp, 3, 8);
        SetDepths(p.sqp, 2, 6);
        p.Connect({}, {}, false);
        p.Run(MilliSeconds(5));
        NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetTransport()->GetOrd(), 2u, "client ORD 8 lowered to the server's IRD 2");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetTransport()->GetOrd(), 3u, "server ORD 6 lowered to the client's IRD 3");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetTransport()->GetIrd(), 3u, "client IRD kept");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetTransport()->GetIrd(), 2u, "server IRD kept");
    }
};

/**
 * Part settings reach the RFC 5043 sessions an SCTP association makes on either side; before, the
 * association made them unconfigured, so an SctpDdpConnection setting was kept and never applied.
 */
class PartSettingsReachSctpSessionsTest : public TestCase
{
  public:
    PartSettingsReachSctpSessionsTest()
        : TestCase("Rnic::SetPartAttribute of ns3::SctpDdpConnection reaches the sessions of both ends")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p("10Gbps", "5us", true);
        p.client->SetPartAttribute(SctpDdpConnection::GetTypeId(), "MaxHeldSegments", UintegerValue(7));
        p.server->SetPartAttribute(SctpDdpConnection::GetTypeId(), "MaxHeldSegments", UintegerValue(9));
        p.Connect({}, {}, false);
        p.Run(MilliSeconds(5));
        NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
        for (const auto& [qp, expected] : {std::pair{p.cqp, 7u}, std::pair{p.sqp, 9u}})
        {
            Ptr<DdpLowerLayer> llp = IwarpTransport::Of(qp, "the test")->GetLlp();
            NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<SctpDdpConnection>(llp)), true, "an RFC 5043 session");
            UintegerValue held;
            llp->GetAttribute("MaxHeldSegments", held);
            NS_TEST_EXPECT_MSG_EQ(held.Get(), expected, "the RNIC's setting on its session");
        }
    }
};

/** The Rnic's factory types are checked as they are set: a wrong one fails, it does not abort later. */
class FactoryTypesTest : public TestCase
{
  public:
    FactoryTypesTest()
        : TestCase("Rnic factory TypeIds: a type of the wrong kind or one that cannot be created is refused "
                   "(SetAttributeFailSafe is false, nothing changes); TransportType is read-only")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Rnic> rnic = CreateObject<Rnic>();
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"QueuePairType", "ns3::RdmaTransport"},    // not a queue pair
            {"CompletionQueueType", "ns3::QueuePair"}, // not a completion queue
            // The transport follows the connector (rdma-transport-kinds.h): it is not set on its own.
            {"TransportType", "ns3::LoopbackRdmaTransport"},
        };
        for (const auto& [attribute, type] : bad)
        {
            NS_TEST_EXPECT_MSG_EQ(rnic->SetAttributeFailSafe(attribute, StringValue(type)), false,
                                  attribute << " = " << type);
        }
        TypeIdValue t;
        rnic->GetAttribute("TransportType", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), IwarpTransport::GetTypeId(), "the transport type is unchanged");
        rnic->Dispose();
    }
};

/** A creatable LlpConnector that no RDMA transport kind names. */
class UnpairedLlpConnector : public LoopbackLlpConnector
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::UnpairedLlpConnector")
                                .SetParent<LoopbackLlpConnector>()
                                .SetGroupName("IwarpTest")
                                .AddConstructor<UnpairedLlpConnector>();
        return tid;
    }
};

/**
 * The transport and its connector come as one pair (rdma-transport-kinds.h): choosing the connector chooses the
 * transport, a connector that pairs with none is refused, and a pair is registered whole or not at all.
 */
class TransportPairsTest : public TestCase
{
  public:
    TransportPairsTest()
        : TestCase("RDMA transport kinds: the LlpConnector chooses the QPs' transport; a connector of no pair is "
                   "refused; a pair is registered whole")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Rnic> rnic = CreateObject<Rnic>();
        Ptr<ConnectionManager> cm = rnic->GetConnectionManager();
        TypeIdValue t;
        for (const char* name : {"iwarp-mpa", "iwarp-sctp", "loopback"})
        {
            const RdmaTransportKind* kind = FindRdmaTransportKind(name);
            NS_TEST_ASSERT_MSG_NE(kind, nullptr, name);
            NS_TEST_EXPECT_MSG_EQ(cm->SetAttributeFailSafe("LlpConnector", TypeIdValue(kind->connector)), true, name);
            rnic->GetAttribute("TransportType", t);
            NS_TEST_EXPECT_MSG_EQ(t.Get(), kind->transport, name << ": the transport follows the connector");
        }
        NS_TEST_EXPECT_MSG_EQ(cm->SetAttributeFailSafe("LlpConnector", TypeIdValue(UnpairedLlpConnector::GetTypeId())),
                              false, "a connector no kind names: its QPs would have no transport");
        rnic->GetAttribute("TransportType", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), FindRdmaTransportKind("loopback")->transport, "nothing changed");
        const RdmaTransportKind loopback = *FindRdmaTransportKind("loopback");
        const size_t kindsBefore = RdmaTransportKinds().size();
        const auto refusal = [](const RdmaTransportKind& k) {
            try
            {
                RegisterRdmaTransportKind(k);
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        NS_TEST_EXPECT_MSG_NE(refusal({"loopback", loopback.transport, loopback.connector}), "", "a taken name");
        NS_TEST_EXPECT_MSG_EQ(refusal({"loopback-2", loopback.transport, loopback.connector}),
                              "RDMA transport kind 'loopback-2': ns3::LoopbackLlpConnector already sets up 'loopback'",
                              "a connector already paired");
        NS_TEST_EXPECT_MSG_NE(refusal({"odd", CompletionQueue::GetTypeId(), loopback.connector}), "", "no transport");
        NS_TEST_EXPECT_MSG_EQ(RdmaTransportKinds().size(), kindsBefore, "nothing added by the refusals");
        rnic->Dispose();
    }
};

class RnicSuite : public TestSuite
{
  public:
    RnicSuite()
        : TestSuite("iwarp-rnic", UNIT)
    {
        AddTestCase(new CmConnectTest, TestCase::QUICK);
        AddTestCase(new CmRejectTest, TestCase::QUICK);
        AddTestCase(new CmConnectTest(true), TestCase::QUICK);
        AddTestCase(new CmRejectTest(true), TestCase::QUICK);
        AddTestCase(new CmOrdFollowsPeerIrdTest, TestCase::QUICK);
        AddTestCase(new CmConnectTest(false, TestTransport::Loopback), TestCase::QUICK);
        AddTestCase(new CmRejectTest(false, TestTransport::Loopback), TestCase::QUICK);
        AddTestCase(new CmOrdFollowsPeerIrdTest(TestTransport::Loopback), TestCase::QUICK);
        AddTestCase(new CmConnectTest(false, TestTransport::Roce), TestCase::QUICK);
        AddTestCase(new CmRejectTest(false, TestTransport::Roce), TestCase::QUICK);
        AddTestCase(new CmOrdFollowsPeerIrdTest(TestTransport::Roce), TestCase::QUICK);
        AddTestCase(new PartSettingsReachSctpSessionsTest, TestCase::QUICK);
        AddTestCase(new FactoryTypesTest, TestCase::QUICK);
        AddTestCase(new TransportPairsTest, TestCase::QUICK);
        AddTestCase(new PipelineLatencyTest, TestCase::QUICK);
    }
};

RnicSuite g_rnicSuite;

} // namespace
