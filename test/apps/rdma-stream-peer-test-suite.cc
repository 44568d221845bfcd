/*
 * iwarp-rdma-stream-peer: an RdmaStream server takes the stream's shape (Size, Outstanding,
 * Op) from the client's MPA private data. Those octets come from the peer, so the server must
 * refuse a shape it cannot serve instead of dividing by zero, casting an unknown operation or
 * registering whatever buffer is asked for (issue 14 defect 5). Each case connects a raw QP with
 * crafted private data to a real server over MPA/TCP and checks the outcome; a well-formed
 * client connecting afterwards proves the server is still usable.
 */
#include "apps/rdma-stream.h"
#include "helper/rdma-app-helper.h"
#include "helper/two-host-topology.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint16_t kPort = 9001;
constexpr uint64_t kMaxRegion = 64 * 1024; // the server's MaxPeerRegion in these cases

/** The private data a client sends: its buffer advertisement, then Size, Outstanding, Op. */
std::vector<uint8_t>
StreamRequest(uint32_t size, uint32_t outstanding, uint32_t op)
{
    std::vector<uint8_t> pd;
    RdmaBufferAdvert{0x1234, 0}.Serialize(pd);
    AppendBe32(pd, size);
    AppendBe32(pd, outstanding);
    AppendBe32(pd, op);
    return pd;
}

class PeerShapeCase : public TestCase
{
  public:
    /** `reason` is a part of the rejection reason expected, or "" when the request is accepted. */
    PeerShapeCase(const std::string& name, std::vector<uint8_t> pd, std::string reason)
        : TestCase(name),
          m_pd(std::move(pd)),
          m_reason(std::move(reason))
    {
    }

  private:
    void DoRun() override
    {
        {
            TwoHostTopology h(DataRate("10Gbps"), MicroSeconds(5));
            RdmaStreamHelper server(RDMA_ROLE_SERVER, kPort);
            server.SetAttribute("MaxPeerRegion", UintegerValue(kMaxRegion));
            ApplicationContainer s = server.Install(h.nodes.Get(1));
            Ptr<RdmaStream> sv = DynamicCast<RdmaStream>(s.Get(0));
            std::vector<std::string> rejected;
            sv->TraceConnectWithoutContext("Rejected", Callback<void, const std::string&>([&rejected](
                                                                                const std::string& r) {
                                               rejected.push_back(r);
                                           }));

            // The crafted request, from a QP of the client's RNIC.
            Ptr<Rnic> rnic = h.ClientRnic();
            Ptr<CompletionQueue> cq = rnic->CreateCq();
            Ptr<QueuePair> qp = rnic->CreateQp(rnic->AllocatePd(), cq, cq);
            int outcome = -1; // -1: no answer, 0: rejected, 1: accepted
            Simulator::Schedule(MicroSeconds(10), [&]() {
                rnic->GetConnectionManager()->Connect(
                    qp, InetSocketAddress(h.serverAddress, kPort), m_pd,
                    Callback<void, Ptr<QueuePair>, bool, const std::vector<uint8_t>&>(
                        [&outcome](Ptr<QueuePair>, bool accepted, const std::vector<uint8_t>&) {
                            outcome = accepted ? 1 : 0;
                        }));
            });

            // Then a well-formed client: the server must still serve it.
            RdmaStreamHelper client(RDMA_ROLE_CLIENT, kPort, InetSocketAddress(h.serverAddress, kPort));
            client.SetAttribute("Size", UintegerValue(4096));
            client.SetAttribute("Outstanding", UintegerValue(4));
            client.SetAttribute("TotalBytes", UintegerValue(64 * 1024));
            ApplicationContainer c = client.Install(h.nodes.Get(0));
            c.Start(MilliSeconds(5));
            Simulator::Stop(Seconds(1));
            Simulator::Run();

            if (m_reason.empty())
            {
                NS_TEST_EXPECT_MSG_EQ(outcome, 1, "the request is accepted");
                NS_TEST_EXPECT_MSG_EQ(rejected.size(), 0u, "nothing rejected");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(outcome, 0, "the request is rejected (MPA Reply with Reject)");
                NS_TEST_ASSERT_MSG_EQ(rejected.size(), 1u, "one Rejected trace");
                NS_TEST_EXPECT_MSG_NE(rejected[0].find(m_reason), std::string::npos,
                                      "reason '" << rejected[0] << "' names " << m_reason);
            }
            Ptr<RdmaStream> cl = DynamicCast<RdmaStream>(c.Get(0));
            NS_TEST_EXPECT_MSG_EQ(cl->IsFinished(), true, "a good client afterwards completes its stream");
            NS_TEST_EXPECT_MSG_EQ(cl->GetBytes(), 64u * 1024, "and moves all its octets");
        }
        Simulator::Destroy();
    }

    std::vector<uint8_t> m_pd;
    std::string m_reason;
};

class RdmaStreamPeerSuite : public TestSuite
{
  public:
    RdmaStreamPeerSuite()
        : TestSuite("iwarp-rdma-stream-peer", UNIT)
    {
        const auto add = [this](const std::string& name, std::vector<uint8_t> pd, const std::string& reason) {
            AddTestCase(new PeerShapeCase(name, std::move(pd), reason), QUICK);
        };
        add("a request at MaxPeerRegion exactly is accepted", StreamRequest(8192, 8, 0), "");
        add("Outstanding 0 is rejected, never a division by zero", StreamRequest(4096, 0, 0), "Outstanding 0");
        add("Size 0 is rejected", StreamRequest(0, 4, 0), "Size 0");
        add("Op 3 is rejected, never cast to the enum", StreamRequest(4096, 4, 3), "Op 3");
        add("Op 0xFFFFFFFF is rejected", StreamRequest(4096, 4, 0xFFFFFFFF), "Op 4294967295");
        add("one octet over MaxPeerRegion is rejected", StreamRequest(8193, 8, 0), "exceeds MaxPeerRegion");
        add("Size x Outstanding of 2.9 GB is rejected, not allocated", StreamRequest(0xB0000000, 1, 2),
            "exceeds MaxPeerRegion");
        add("private data without the stream's parameters is rejected", std::vector<uint8_t>(14, 0),
            "too short");
    }
};

RdmaStreamPeerSuite g_rdmaStreamPeerSuite;

} // namespace
} // namespace ns3
