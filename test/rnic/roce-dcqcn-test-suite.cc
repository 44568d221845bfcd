/*
 * iwarp-roce-dcqcn: DCQCN in RoceTransport, on a 10 Gb/s link whose receive side marks RoCEv2 packets CE (as a
 * congested switch would; iwarptest::MarkCe). As notification point, the responder answers marked Writes with
 * CNPs at most one per CnpInterval (50 us), and the requester answers none for its marked ACKs; CNPs are not
 * ECN-capable. As reaction point, the requester's rate control takes each CNP, and its packets leave exactly
 * as far apart as the rate in force at each one allows (or the port, when that is slower); the rate comes
 * back to the line rate once the marks stop. With CongestionControl None the same marks draw no CNP and the
 * Writes finish exactly when unmarked ones do. tshark decodes the CNPs (opcode 0x81) with nothing malformed.
 * The reaction point's equations are iwarp-dcqcn's; the scenario-level convergence of two flows is
 * iwarp-roce-dcqcn-scenario's.
 */
#include "rnic/roce-test-util.h"
#include "rnic/verbs-test-util.h"
#include "support/roce-pcap.h"

#include "roce/roce-stack.h"

#include "ns3/core-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <filesystem>

namespace ns3
{
namespace
{
using iwarptest::Filled;
using iwarptest::MarkCe;
using iwarptest::RoceOf;
using iwarptest::SameOctets;
using iwarptest::Wr;
using namespace MemAccess;

constexpr uint32_t kLen = 256 * 1024;
constexpr uint32_t kWrites = 4;
constexpr double kLineBps = 10e9;
constexpr uint32_t kPpp = 2;

/** A packet the client's stack sent: when, its size (IPv4 on) and the client's DCQCN rate then. */
struct Sent
{
    Time at;
    uint32_t size;
    double rateBps;
};

/** Four 256 KiB Writes client -> server with marks on both receive sides for `markFor` after set-up. */
struct MarkedWrites
{
    std::vector<Sent> sent;
    std::vector<Time> cnpSentAt; ///< by the server
    Time lastCompletion;
    uint32_t writesMarked{0};
    uint32_t acksMarked{0};
    uint64_t serverCnpsSent{0};
    uint64_t clientCnpsSent{0};
    uint64_t clientCnpsReceived{0};
    uint64_t rateControlCnps{0};
    bool clientStillLimiting{true};
    double clientRateAtEnd{0};
    bool byteExact{false};
    size_t completions{0};

    MarkedWrites(bool dcqcn, Time markFor, const std::string& pcap = "")
    {
        RnicPair p(TestTransport::Roce);
        if (!pcap.empty())
        {
            PointToPointHelper().EnablePcap(pcap, p.links[0].Get(1), false, true);
        }
        for (Ptr<QueuePair> qp : {p.cqp, p.sqp})
        {
            RoceOf(qp)->SetAttribute("CongestionControl", EnumValue(dcqcn ? RoceTransport::CC_DCQCN
                                                                          : RoceTransport::CC_NONE));
        }
        Ptr<MarkCe> atServer = CreateObject<MarkCe>();
        Ptr<MarkCe> atClient = CreateObject<MarkCe>();
        p.links[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(atServer));
        p.links[0].Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(atClient));
        p.ConnectAndSettle();
        atServer->marked = atClient->marked = 0; // the CM's MADs are not the data's
        Simulator::Schedule(markFor, [atServer, atClient]() { atServer->on = atClient->on = false; });
        RoceOf(p.sqp)->TraceConnectWithoutContext(
            "CnpSent", MakeCallback(&MarkedWrites::OnCnpSent, this));
        Ptr<RoceTransport> client = RoceOf(p.cqp);
        RoceStack::Get(p.client->GetNode())
            ->TraceConnectWithoutContext("Tx", MakeBoundCallback(&MarkedWrites::OnTx, this, PeekPointer(client)));
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, kLen * kWrites, kLocalRead, 3);
        Ptr<MemoryRegion> dst = Filled(p.server, p.spd, kLen * kWrites, kLocalWrite | kRemoteWrite, 0);
        for (uint32_t i = 0; i < kWrites; ++i)
        {
            p.cqp->PostSend(Wr(i, WrOpcode::Write, {src->GetStag(), uint64_t(i) * kLen, kLen}, dst->GetStag(),
                               uint64_t(i) * kLen));
        }
        p.ccq->TraceConnectWithoutContext("Notify", MakeCallback(&MarkedWrites::OnCompletion, this));
        p.Run(MilliSeconds(200));
        completions = p.clientDone.size();
        byteExact = SameOctets(src, 0, dst, 0, uint64_t(kLen) * kWrites);
        writesMarked = atServer->marked;
        acksMarked = atClient->marked;
        serverCnpsSent = RoceOf(p.sqp)->GetCnpsSent();
        clientCnpsSent = client->GetCnpsSent();
        clientCnpsReceived = client->GetCnpsReceived();
        if (Ptr<DcqcnRateControl> rc = client->GetRateControl())
        {
            rateControlCnps = rc->GetCnps();
            clientStillLimiting = rc->IsLimiting();
            clientRateAtEnd = rc->GetRateBps();
        }
    }

    void OnCnpSent() { cnpSentAt.push_back(Simulator::Now()); }
    void OnCompletion(const WorkCompletion&) { lastCompletion = Simulator::Now(); }

    static void OnTx(MarkedWrites* self, RoceTransport* client, Ptr<const Packet> p)
    {
        Ptr<DcqcnRateControl> rc = client->GetRateControl();
        self->sent.push_back(Sent{Simulator::Now(), p->GetSize(), rc ? rc->GetRateBps() : kLineBps});
    }
};

Time
WireTime(uint32_t octets, double bps)
{
    return NanoSeconds(int64_t(std::ceil(double(octets) * 8e9 / bps)));
}

class NotificationPointTestCase : public TestCase
{
  public:
    NotificationPointTestCase()
        : TestCase("marked Writes draw CNPs at most one per 50 us; marked ACKs draw none; every CNP is taken")
    {
    }

  private:
    void DoRun() override
    {
        const MarkedWrites r(true, MicroSeconds(300));
        std::clog << "  " << r.writesMarked << " Write packets and " << r.acksMarked << " ACKs marked, "
                  << r.serverCnpsSent << " CNPs, last completion at " << r.lastCompletion.As(Time::US) << "\n";
        NS_TEST_EXPECT_MSG_EQ(r.completions, kWrites, "every Write completes");
        NS_TEST_EXPECT_MSG_EQ(r.byteExact, true, "byte-exact");
        NS_TEST_EXPECT_MSG_GT(r.writesMarked, 10u, "Writes were marked");
        NS_TEST_EXPECT_MSG_GT(r.acksMarked, 0u, "ACKs were marked");
        // 300 us of marks: one CNP at the first, then one per 50 us while marked packets keep coming.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.serverCnpsSent, 4u, "CNPs through the marking");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.serverCnpsSent, 7u, "at most one per 50 us over 300 us, and the first");
        NS_TEST_EXPECT_MSG_EQ(r.cnpSentAt.size(), r.serverCnpsSent, "the trace saw each");
        for (size_t i = 1; i < r.cnpSentAt.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.cnpSentAt[i] - r.cnpSentAt[i - 1], MicroSeconds(50), "CNP " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(r.clientCnpsSent, 0u, "an ACK's mark draws no CNP");
        NS_TEST_EXPECT_MSG_EQ(r.clientCnpsReceived, r.serverCnpsSent, "every CNP arrived");
        NS_TEST_EXPECT_MSG_EQ(r.rateControlCnps, r.serverCnpsSent, "and cut the rate");
        NS_TEST_EXPECT_MSG_EQ(r.clientStillLimiting, false, "the rate recovered once the marks stopped");
        NS_TEST_EXPECT_MSG_EQ(r.clientRateAtEnd, kLineBps, "back at the line rate");
    }
};

class ReactionPointPacingTestCase : public TestCase
{
  public:
    ReactionPointPacingTestCase()
        : TestCase("the requester's packets leave as far apart as the rate in force allows, or the port")
    {
    }

  private:
    void DoRun() override
    {
        const MarkedWrites r(true, MicroSeconds(300));
        NS_TEST_ASSERT_MSG_EQ(r.sent.size(), kWrites * kLen / 1024, "each of the Writes' packets seen, once");
        uint32_t paced = 0;
        uint32_t checked = 0;
        for (size_t i = 1; i < r.sent.size(); ++i)
        {
            const Sent& a = r.sent[i - 1];
            const Sent& b = r.sent[i];
            if (b.at > r.lastCompletion)
            {
                break;
            }
            const Time rate = WireTime(a.size, a.rateBps);
            const Time port = WireTime(a.size + kPpp, kLineBps);
            const Time expected = std::max(rate, port);
            ++checked;
            paced += rate > port;
            const int64_t off = (b.at - a.at - expected).GetNanoSeconds();
            NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(off), int64_t(1),
                                  "packet " << i << ": " << (b.at - a.at) << " after the last, expected " << expected
                                            << " at " << a.rateBps << " b/s");
        }
        std::clog << "  " << checked << " gaps checked, " << paced << " held by the rate\n";
        NS_TEST_EXPECT_MSG_GT(checked, 1000u, "the Writes' packets checked");
        NS_TEST_EXPECT_MSG_GT(paced, 100u, "many of them held by the rate, not the port");
    }
};

class DcqcnOffTestCase : public TestCase
{
  public:
    DcqcnOffTestCase()
        : TestCase("CongestionControl None: marks draw no CNP, and the Writes finish when unmarked ones do")
    {
    }

  private:
    void DoRun() override
    {
        const MarkedWrites off(false, MilliSeconds(200));
        const MarkedWrites unmarked(true, Time(0));
        const MarkedWrites on(true, MilliSeconds(200));
        NS_TEST_EXPECT_MSG_GT(off.writesMarked, 1000u, "every Write packet marked");
        NS_TEST_EXPECT_MSG_EQ(off.serverCnpsSent + off.clientCnpsSent, 0u, "no CNP without DCQCN");
        NS_TEST_EXPECT_MSG_EQ(unmarked.serverCnpsSent, 0u, "no CNP without marks");
        NS_TEST_EXPECT_MSG_EQ(off.lastCompletion, unmarked.lastCompletion, "the marks changed nothing");
        NS_TEST_EXPECT_MSG_GT(on.lastCompletion, unmarked.lastCompletion * 10, "with DCQCN the marks slow it");
    }
};

class CnpCaptureTestCase : public TestCase
{
  public:
    CnpCaptureTestCase()
        : TestCase("tshark decodes the captured CNPs: opcode 0x81 to the requester's QP, DSCP 48, nothing malformed")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = iwarptest::TempPcapName("roce-cnp");
        uint64_t cnps = 0;
        {
            const MarkedWrites r(true, MicroSeconds(300), file);
            cnps = r.serverCnpsSent;
        }
        int status = 0;
        std::string out;
        const auto rows = iwarptest::TsharkFields(file,
                                                  {"infiniband.bth.opcode", "infiniband.bth.destqp", "ip.dsfield.ecn",
                                                   "ip.dsfield.dscp", "_ws.malformed"},
                                                  &status, &out);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        uint64_t decoded = 0;
        for (const auto& row : rows)
        {
            if (row[0] != "129")
            {
                continue;
            }
            ++decoded;
            NS_TEST_EXPECT_MSG_NE(row[1], "", "a destination QP");
            NS_TEST_EXPECT_MSG_EQ(row[2] + "," + row[3] + "," + row[4], "0,48,", "Not-ECT, DSCP 48, nothing malformed");
        }
        NS_TEST_EXPECT_MSG_GT(cnps, 0u, "CNPs were sent");
        NS_TEST_EXPECT_MSG_EQ(decoded, cnps, "each CNP captured and decoded: " << out);
        std::filesystem::remove(file);
    }
};

class RoceDcqcnTestSuite : public TestSuite
{
  public:
    RoceDcqcnTestSuite()
        : TestSuite("iwarp-roce-dcqcn", UNIT)
    {
        AddTestCase(new NotificationPointTestCase, TestCase::QUICK);
        AddTestCase(new ReactionPointPacingTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnOffTestCase, TestCase::QUICK);
        AddTestCase(new CnpCaptureTestCase, TestCase::QUICK);
    }
};

RoceDcqcnTestSuite g_roceDcqcnTestSuite;

} // namespace
} // namespace ns3
