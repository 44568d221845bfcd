/*
 * iwarp-helper-factories: the helpers keep their settings themselves (factories, AttributeSet,
 * TransportProfile) and hand them to the objects they make; none of them changes ns-3's
 * process-wide attribute defaults, so two helpers in one process, or two nodes, can differ.
 */
#include "helper/iwarp-helper.h"
#include "helper/sctp-helper.h"
#include "helper/two-host-topology.h"
#include "sctp-ddp/sctp-ddp-llp-connector.h"
#include "sctp/sctp-socket.h"
#include "transport/transport-profile.h"

#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

#include <map>
#include <string>

namespace ns3
{
namespace
{

/** The iWARP parts of a QP (IwarpTransport::Of; the default transport). */
Ptr<IwarpTransport>
Iw(Ptr<QueuePair> qp)
{
    return IwarpTransport::Of(qp, "iwarp-helper-factories");
}

/** ns-3's process-wide default of "ns3::T::A", as the text of its value. */
std::string
ProcessDefault(const std::string& full)
{
    const auto sep = full.rfind("::");
    TypeId::AttributeInformation info;
    TypeId::LookupByName(full.substr(0, sep)).LookupAttributeByName(full.substr(sep + 2), &info);
    return info.initialValue->SerializeToString(info.checker);
}

/** The process defaults of the attributes these helpers set. */
std::map<std::string, std::string>
Watched()
{
    std::map<std::string, std::string> m;
    for (const char* name : {"ns3::RnicPipeline::TxPerMessage", "ns3::MpaConnection::Markers",
                             "ns3::RdmapEndpoint::Ord", "ns3::CompletionQueue::Capacity",
                             "ns3::SctpDdpLlpConnector::SctpStream", "ns3::ConnectionManager::LlpConnector",
                             "ns3::SctpSocket::Pmtu",
                             "ns3::TcpSocket::SegmentSize", "ns3::TcpSocket::SndBufSize"})
    {
        m[name] = ProcessDefault(name);
    }
    return m;
}

template <typename V, typename T>
auto
Get(Ptr<T> object, const std::string& name)
{
    V v;
    object->GetAttribute(name, v);
    return v.Get();
}

class AttributeSetTestCase : public TestCase
{
  public:
    AttributeSetTestCase()
        : TestCase("AttributeSet: applies by type or parent type, the later setting wins, text is converted")
    {
    }

  private:
    void DoRun() override
    {
        AttributeSet s;
        s.Set(RnicPipeline::GetTypeId(), "TxPerMessage", TimeValue(NanoSeconds(10)));
        s.Set(RnicPipeline::GetTypeId(), "TxPerMessage", StringValue("20ns")); // replaces
        s.Set(TcpSocket::GetTypeId(), "SegmentSize", UintegerValue(1000));
        NS_TEST_EXPECT_MSG_EQ(s.IsEmpty(), false, "two settings");
        Ptr<RnicPipeline> p = CreateObject<RnicPipeline>();
        NS_TEST_EXPECT_MSG_EQ(s.ApplyTo(p), 1u, "only the pipeline's setting applies to a pipeline");
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(p, "TxPerMessage"), NanoSeconds(20), "the later value, from text");
        NS_TEST_EXPECT_MSG_EQ(s.ApplyTo(CreateObject<DdpEndpoint>()), 0u, "nothing for another type");
        // A setting of a parent type (TcpSocket) reaches its children (TcpSocketBase's sockets).
        Ptr<Node> node = CreateObject<Node>();
        InternetStackHelper().Install(node);
        Ptr<Socket> tcp = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        NS_TEST_EXPECT_MSG_EQ(s.ApplyTo(tcp), 1u, "the TcpSocket setting applies to a TcpSocketBase");
        NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(tcp, "SegmentSize"), 1000u, "set on the socket");
        Simulator::Destroy();
    }
};

class IwarpHelperTestCase : public TestCase
{
  public:
    IwarpHelperTestCase()
        : TestCase("IwarpHelper: each helper's part settings reach its own RNICs' parts, and only theirs")
    {
    }

  private:
    void DoRun() override
    {
        const std::map<std::string, std::string> before = Watched();
        NodeContainer nodes;
        nodes.Create(3);
        IwarpHelper slow;
        slow.SetPipelineAttribute("TxPerMessage", TimeValue(NanoSeconds(900)));
        slow.SetRdmapAttribute("Ord", UintegerValue(2));
        slow.SetPartAttribute(CompletionQueue::GetTypeId(), "Capacity", UintegerValue(7));
        slow.SetPartAttribute(ConnectionManager::GetTypeId(), "LlpConnector",
                              TypeIdValue(SctpDdpLlpConnector::GetTypeId()));
        slow.SetPartAttribute(SctpDdpLlpConnector::GetTypeId(), "SctpStream", UintegerValue(3));
        Ptr<Rnic> a = slow.Install(nodes.Get(0));
        Ptr<Rnic> b = IwarpHelper().Install(nodes.Get(1)); // a plain helper
        Ptr<Rnic> c = slow.Install(nodes.Get(2));
        NS_TEST_EXPECT_MSG_EQ((Watched() == before), true, "no ns-3 default changed");

        Ptr<QueuePair> qa = a->CreateQp(a->AllocatePd(), a->CreateCq(), a->CreateCq());
        Ptr<QueuePair> qb = b->CreateQp(b->AllocatePd(), b->CreateCq(), b->CreateCq());
        Ptr<QueuePair> qc = c->CreateQp(c->AllocatePd(), c->CreateCq(), c->CreateCq());
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(Iw(qa)->GetPipeline(), "TxPerMessage"), NanoSeconds(900), "a's pipeline");
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(Iw(qc)->GetPipeline(), "TxPerMessage"), NanoSeconds(900), "c's too");
        NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(Iw(qa)->GetRdmap(), "Ord"), 2u, "a's RDMAP endpoint");
        NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(a->CreateCq(), "Capacity"), 7u, "a's completion queues");
        NS_TEST_EXPECT_MSG_EQ(Get<TypeIdValue>(a->GetConnectionManager(), "LlpConnector"),
                              SctpDdpLlpConnector::GetTypeId(),
                              "a's connection manager, made before the settings, gets them at install");
        NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(a->GetConnectionManager()->GetConnector(), "SctpStream"), 3u,
                              "the connector a's manager makes gets them as it is made");
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(Iw(qb)->GetPipeline(), "TxPerMessage"),
                              Get<TimeValue>(CreateObject<RnicPipeline>(), "TxPerMessage"),
                              "the plain helper's RNIC keeps ns-3's value");
        NS_TEST_EXPECT_MSG_NE(Get<UintegerValue>(b->CreateCq(), "Capacity"), 7u, "and its CQs theirs");

        // One RNIC can be given more afterwards: its later parts get it, the others' do not.
        b->SetPartAttribute(RnicPipeline::GetTypeId(), "TxPerMessage", TimeValue(NanoSeconds(5)));
        Ptr<QueuePair> qb2 = b->CreateQp(b->AllocatePd(), b->CreateCq(), b->CreateCq());
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(Iw(qb2)->GetPipeline(), "TxPerMessage"), NanoSeconds(5), "b's new QP");
        Ptr<QueuePair> qc2 = c->CreateQp(c->AllocatePd(), c->CreateCq(), c->CreateCq());
        NS_TEST_EXPECT_MSG_EQ(Get<TimeValue>(Iw(qc2)->GetPipeline(), "TxPerMessage"), NanoSeconds(900), "c unchanged");
        NS_TEST_EXPECT_MSG_EQ((Watched() == before), true, "still no ns-3 default changed");
        Simulator::Destroy();
    }
};

class SocketHelpersTestCase : public TestCase
{
  public:
    SocketHelpersTestCase()
        : TestCase("SctpHelper and TwoHostTopology size their nodes' sockets through TransportProfile, not defaults")
    {
    }

  private:
    void DoRun() override
    {
        const std::map<std::string, std::string> before = Watched();
        {
            TwoHostTopology t(DataRate("1Gbps"), MicroSeconds(1), false, 1000);
            SctpHelper sctp;
            sctp.SetSocketAttribute("Pmtu", UintegerValue(1280));
            sctp.Install(t.nodes.Get(0));
            SctpHelper().Install(t.nodes.Get(1)); // SCTP without the helper's settings
            NS_TEST_EXPECT_MSG_EQ((Watched() == before), true, "no ns-3 default changed");

            NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(SctpHelper::CreateSocket(t.nodes.Get(0)), "Pmtu"), 1280u,
                                  "the helper's node: its Pmtu");
            NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(SctpHelper::CreateSocket(t.nodes.Get(1)), "Pmtu"),
                                  std::stoul(before.at("ns3::SctpSocket::Pmtu")),
                                  "the other node: the model's");
            Ptr<Socket> tcp = Socket::CreateSocket(t.nodes.Get(0), TcpSocketFactory::GetTypeId());
            TransportProfile::Configure(tcp);
            NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(tcp, "SegmentSize"), 1000u, "the topology's segment size");
            NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(tcp, "SndBufSize"), uint32_t(4 << 20), "and buffers");
            Ptr<Socket> raw = Socket::CreateSocket(t.nodes.Get(0), TcpSocketFactory::GetTypeId());
            NS_TEST_EXPECT_MSG_EQ(Get<UintegerValue>(raw, "SegmentSize"),
                                  std::stoul(before.at("ns3::TcpSocket::SegmentSize")),
                                  "a socket nobody configures keeps ns-3's");
        }
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ((Watched() == before), true, "nothing left behind");
    }
};

class HelperFactoriesTestSuite : public TestSuite
{
  public:
    HelperFactoriesTestSuite()
        : TestSuite("iwarp-helper-factories", UNIT)
    {
        AddTestCase(new AttributeSetTestCase(), TestCase::QUICK);
        AddTestCase(new IwarpHelperTestCase(), TestCase::QUICK);
        AddTestCase(new SocketHelpersTestCase(), TestCase::QUICK);
    }
};

HelperFactoriesTestSuite g_helperFactoriesTestSuite;

} // namespace
} // namespace ns3
