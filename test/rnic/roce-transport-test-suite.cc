/*
 * iwarp-roce-transport: RoCEv2's reliable connection (RoceTransport, RoceConnector) on a 10 Gb/s link. Writes,
 * Sends and Reads arrive byte-exact under 1 % loss each way and under reordering, completing in order;
 * go-back-N resends from the PSN its NAK names and nothing before it; PSNs wrap at 2^24; a peer that stops
 * answering fails the queue pair after RetryCount timeouts; every packet on the wire carries a good ICRC, and
 * tshark decodes a whole connection (CM MADs, Write, Send, Read, ACKs) with nothing malformed. The queue pair
 * verbs cases of iwarp-qp-verbs and the connection manager's of iwarp-rnic run over RoCEv2 too.
 */
#include "rnic/rnic-pair.h"
#include "rnic/verbs-test-util.h"
#include "support/tshark-pdml.h"

#include "rnic/roce-transport.h"
#include "roce/roce-icrc.h"

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/pcap-file.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <filesystem>
#include <set>
#include <sstream>

namespace ns3
{
namespace
{
using iwarptest::Filled;
using iwarptest::SameOctets;
using iwarptest::Wr;
using namespace MemAccess;

constexpr uint32_t kPppHeaderLen = 2;
constexpr uint32_t kBthAt = kPppHeaderLen + 20 + 8; ///< where a received frame's BTH starts

Ptr<RoceTransport>
RoceOf(Ptr<QueuePair> qp)
{
    return DynamicCast<RoceTransport>(qp->GetTransport());
}

/** Loss on both devices' receive side, each with a random stream of its own. */
void
AddLoss(RnicPair& p, double rate)
{
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(rate));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(41 + i);
        p.links[0].Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

void
SetBoth(RnicPair& p, const std::string& name, const AttributeValue& v)
{
    RoceOf(p.cqp)->SetAttribute(name, v);
    RoceOf(p.sqp)->SetAttribute(name, v);
}

/** Drops the `nth` (from 1) RoCE request packet carrying payload that reaches the device, and says its PSN. */
class DropOneRequest : public ErrorModel
{
  public:
    explicit DropOneRequest(uint32_t nth)
        : m_nth(nth)
    {
    }

    uint32_t droppedPsn{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t h[kBthAt + 12] = {};
        if (p->GetSize() < sizeof(h) || p->CopyData(h, sizeof(h)) != sizeof(h) || ((h[24] << 8) | h[25]) != 4791)
        {
            return false;
        }
        const uint8_t op = h[kBthAt];
        if (op > uint8_t(IbOpcode::WriteOnlyImm) || ++m_seen != m_nth)
        {
            return false;
        }
        droppedPsn = uint32_t(h[kBthAt + 9]) << 16 | uint32_t(h[kBthAt + 10]) << 8 | h[kBthAt + 11];
        return true;
    }
    void DoReset() override {}

    uint32_t m_nth;
    uint32_t m_seen{0};
};

/** Four 256 KB messages of one kind, client to server (a Read: server to client), under loss and reordering. */
class RoceLossTestCase : public TestCase
{
  public:
    RoceLossTestCase(WrOpcode op, double loss, double reorder, uint32_t initialPsn, bool selective = false)
        : TestCase(std::string(selective ? "Selective repeat (IRN, 16 in flight): " : "Go-back-N: ") + ToString(op) +
                   " x4 of 256 KB byte-exact, in order, under " +
                   std::to_string(int(loss * 100)) + " % loss each way" +
                   (reorder > 0 ? " and " + std::to_string(int(reorder * 100)) + " % reordered" : "") +
                   (initialPsn ? ", PSNs from " + std::to_string(initialPsn) + " across the 2^24 wrap" : "")),
          m_op(op),
          m_loss(loss),
          m_reorder(reorder),
          m_initialPsn(initialPsn),
          m_selective(selective)
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint32_t kLen = 256 * 1024;
        constexpr uint32_t kCount = 4;
        RnicPair p(TestTransport::Roce, m_reorder);
        for (Ptr<Rnic> r : {p.client, p.server})
        {
            r->GetConnectionManager()->GetConnector()->SetAttribute("InitialPsn", UintegerValue(m_initialPsn));
        }
        SetBoth(p, "AckTimeout", TimeValue(MilliSeconds(1)));
        if (m_selective)
        {
            SetBoth(p, "Recovery", StringValue("SelectiveRepeat"));
            SetBoth(p, "MaxInflight", UintegerValue(16));
        }
        p.ConnectAndSettle();
        NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
        AddLoss(p, m_loss);
        const bool read = m_op == WrOpcode::Read;
        Ptr<MemoryRegion> src = read ? Filled(p.server, p.spd, kLen * kCount, kRemoteRead, 9)
                                     : Filled(p.client, p.cpd, kLen * kCount, kLocalRead, 9);
        Ptr<MemoryRegion> dst = read ? p.client->RegisterMemory(p.cpd, kLen * kCount, kLocalWrite)
                                     : p.server->RegisterMemory(p.spd, kLen * kCount, kLocalWrite | kRemoteWrite);
        for (uint32_t i = 0; i < kCount; ++i)
        {
            const uint64_t at = uint64_t(i) * kLen;
            if (m_op == WrOpcode::Send)
            {
                p.sqp->PostRecv(100 + i, LocalBuffer{dst->GetStag(), at, kLen});
            }
            const LocalBuffer local{read ? dst->GetStag() : src->GetStag(), at, kLen};
            const uint32_t remote = read ? src->GetStag() : dst->GetStag();
            NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(i + 1, m_op, local, m_op == WrOpcode::Send ? 0 : remote, at)),
                                  true, "post " << i);
        }
        p.Run(Seconds(2));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), kCount, "every request completed");
        for (uint32_t i = 0; i < kCount; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].id, i + 1u, "in posting order");
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, WcStatus::Success, "request " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, uint64_t(kLen) * kCount), true, "byte-exact");
        if (m_op == WrOpcode::Send)
        {
            NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), kCount, "every receive completed");
            for (uint32_t i = 0; i < kCount; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(p.serverDone[i].byteLength, kLen, "receive " << i);
            }
        }
        // The loss was recovered from, not absent.
        NS_TEST_EXPECT_MSG_GT(RoceOf(p.cqp)->GetRetransmittedPackets(), 0u, "the requester resent packets");
        if (!read)
        {
            NS_TEST_EXPECT_MSG_GT(RoceOf(p.sqp)->GetNaksSent(), 0u, "the responder NAKed gaps");
        }
    }

    WrOpcode m_op;
    double m_loss;
    double m_reorder;
    uint32_t m_initialPsn;
    bool m_selective;
};

class RoceSelectiveRepeatTestCase : public TestCase
{
  public:
    RoceSelectiveRepeatTestCase()
        : TestCase("Selective repeat: under 2 % loss of the Writes' packets the requester resends exactly the packets "
                   "lost, and tshark reads IRN's NAKs with nothing malformed")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = (std::filesystem::temp_directory_path() / "iwarp-roce-irn.pcap").string();
        RunLossyWrites(file);
        CheckNaksDecode(file);
    }

    /** Four 256 KB Writes under 2 % loss toward the responder, captured at the requester. */
    void RunLossyWrites(const std::string& file)
    {
        RnicPair p(TestTransport::Roce); // closes the capture when it goes
        SetBoth(p, "Recovery", StringValue("SelectiveRepeat"));
        SetBoth(p, "AckEvery", UintegerValue(1)); // a timeout then resends only what is missing
        SetBoth(p, "AckTimeout", TimeValue(MilliSeconds(1)));
        p.ConnectAndSettle();
        PointToPointHelper().EnablePcap(file, p.links[0].Get(0), false, true);
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(0.02));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(5);
        p.links[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        uint32_t lost = 0;
        p.links[0].Get(1)->TraceConnectWithoutContext(
            "PhyRxDrop", MakeBoundCallback(+[](uint32_t* n, Ptr<const Packet>) { ++*n; }, &lost));
        constexpr uint32_t kLen = 256 * 1024;
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 4 * kLen, kLocalRead, 8);
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, 4 * kLen, kLocalWrite | kRemoteWrite);
        for (uint32_t i = 0; i < 4; ++i)
        {
            p.cqp->PostSend(Wr(i + 1, WrOpcode::Write, {src->GetStag(), i * kLen, kLen}, dst->GetStag(), i * kLen));
        }
        p.Run(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 4u, "the Writes completed");
        for (const WorkCompletion& c : p.clientDone)
        {
            NS_TEST_EXPECT_MSG_EQ(c.status, WcStatus::Success, "Write " << c.id);
        }
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, 4 * kLen), true, "byte-exact");
        NS_TEST_EXPECT_MSG_GT(lost, 10u, "packets were lost");
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.cqp)->GetRetransmittedPackets(), lost, "each lost packet resent once, no more");
        NS_TEST_EXPECT_MSG_GT(RoceOf(p.sqp)->GetNaksSent(), 0u, "NAKs named what arrived past a gap");
    }

    void CheckNaksDecode(const std::string& file)
    {
        int status = 0;
        const std::string out = iwarptest::RunCommand(
            "tshark -n -r " + file + " -Y 'infiniband.aeth.syndrome == 96' -T fields -E separator=, "
                                     "-e infiniband.bth.psn -e _ws.malformed -e _ws.expert.severity 2>&1",
            &status);
        std::filesystem::remove(file);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        uint32_t naks = 0;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);)
        {
            if (line.rfind("Running as user", 0) == 0)
            {
                continue;
            }
            ++naks;
            NS_TEST_EXPECT_MSG_EQ(line.substr(line.find(',') == std::string::npos ? 0 : line.find(',')), ",,",
                                  "nothing malformed: " << line);
        }
        NS_TEST_EXPECT_MSG_GT(naks, 0u, "IRN NAKs captured: " << out);
    }
};

class RoceGoBackNTestCase : public TestCase
{
  public:
    RoceGoBackNTestCase()
        : TestCase("Go-back-N: one Write packet lost; one NAK names its PSN and the requester resends from it, "
                   "every packet after it and none before")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(TestTransport::Roce);
        p.ConnectAndSettle();
        Ptr<DropOneRequest> drop = CreateObject<DropOneRequest>(20);
        p.links[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        std::vector<std::pair<uint32_t, bool>> sent; // (PSN, sent before)
        RoceOf(p.cqp)->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(+[](std::vector<std::pair<uint32_t, bool>>* v, uint32_t psn, uint8_t, bool again) {
                v->emplace_back(psn, again);
            }, &sent));
        constexpr uint32_t kLen = 100 * 1024;
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, kLen, kLocalRead, 3);
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, kLen, kLocalWrite | kRemoteWrite);
        p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, kLen}, dst->GetStag()));
        p.Run(MilliSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 1u, "the Write completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::Success, "the Write");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, kLen), true, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.sqp)->GetNaksSent(), 1u, "one NAK for the one gap");
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.cqp)->GetTimeouts(), 0u, "recovered without a timeout");
        std::vector<uint32_t> again;
        uint32_t highestBefore = 0;
        for (const auto& [psn, wasSent] : sent)
        {
            if (wasSent)
            {
                again.push_back(psn);
            }
            else if (again.empty())
            {
                highestBefore = psn;
            }
        }
        NS_TEST_ASSERT_MSG_GT(again.size(), 0u, "packets were resent");
        NS_TEST_EXPECT_MSG_EQ(again.front(), drop->droppedPsn, "resent from the lost PSN");
        for (size_t k = 0; k < again.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(again[k], drop->droppedPsn + k, "in order, with nothing skipped");
        }
        NS_TEST_EXPECT_MSG_EQ(again.back(), highestBefore, "up to the last one sent before the NAK came");
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.cqp)->GetRetransmittedPackets(), again.size(), "counted");
    }
};

class RoceRetryExceededTestCase : public TestCase
{
  public:
    RoceRetryExceededTestCase()
        : TestCase("A peer that stops answering: after RetryCount + 1 ACK timeouts the Write completes FatalError, "
                   "the next request is flushed and the QP is in error")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(TestTransport::Roce);
        SetBoth(p, "AckTimeout", TimeValue(MilliSeconds(1)));
        SetBoth(p, "RetryCount", UintegerValue(3));
        p.ConnectAndSettle();
        AddLoss(p, 1.0);
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 5000, kLocalRead, 1);
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, 5000, kLocalWrite | kRemoteWrite);
        p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, 5000}, dst->GetStag()));
        p.cqp->PostSend(Wr(2, WrOpcode::Send, {src->GetStag(), 0, 10}));
        p.Run(MilliSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.cqp)->GetTimeouts(), 4u, "RetryCount 3: the fourth timeout ends it");
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "both completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::FatalError, "retry count exceeded");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::Flushed, "the Send after it");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::ERROR, "the QP");
    }
};

class RocePcapTestCase : public TestCase
{
  public:
    RocePcapTestCase()
        : TestCase("A captured connection: every RoCEv2 packet's ICRC is good, and tshark decodes the CM MADs, "
                   "Writes, a Send, a Read and the ACKs with nothing malformed")
    {
    }

  private:
    void DoRun() override
    {
        const std::string prefix = (std::filesystem::temp_directory_path() / "iwarp-roce-pcap").string();
        const std::string file = prefix + ".pcap";
        {
            RnicPair p(TestTransport::Roce);
            PointToPointHelper().EnablePcap(file, p.links[0].Get(0), false, true); // that file name
            p.ConnectAndSettle();
            Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 5000, kLocalRead | kLocalWrite, 2);
            Ptr<MemoryRegion> dst = Filled(p.server, p.spd, 5000, kLocalWrite | kRemoteWrite | kRemoteRead, 4);
            p.sqp->PostRecv(7, LocalBuffer{dst->GetStag(), 0, 3000});
            p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, 3000}, dst->GetStag()));
            p.cqp->PostSend(Wr(2, WrOpcode::Send, {src->GetStag(), 0, 500}));
            p.cqp->PostSend(Wr(3, WrOpcode::Read, {src->GetStag(), 0, 2500}, dst->GetStag(), 100));
            p.Run(MilliSeconds(10));
            NS_TEST_EXPECT_MSG_EQ(p.clientDone.size(), 3u, "three completions");
            p.cqp->Disconnect();
            p.Run(MilliSeconds(20));
        }
        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "the capture opens");
        uint32_t roce = 0;
        std::vector<uint8_t> frame(70000);
        for (;;)
        {
            uint32_t sec, usec, inclLen, origLen, readLen;
            pcap.Read(frame.data(), uint32_t(frame.size()), sec, usec, inclLen, origLen, readLen);
            if (pcap.Eof() || pcap.Fail())
            {
                break;
            }
            const uint8_t* ip = frame.data() + kPppHeaderLen;
            const bool udp4791 = readLen > kBthAt && ip[9] == 17 && ((ip[22] << 8) | ip[23]) == 4791;
            if (udp4791)
            {
                ++roce;
                NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(ip, readLen - kPppHeaderLen), true, "ICRC of frame " << roce);
            }
        }
        pcap.Close();
        NS_TEST_EXPECT_MSG_GT(roce, 12u, "the connection's packets were captured");

        int status = 0;
        const std::string out = iwarptest::RunCommand(
            "tshark -n -r " + file + " -T fields -E separator=, -e infiniband.bth.opcode -e _ws.malformed "
                                     "-e _ws.expert.severity 2>&1",
            &status);
        std::filesystem::remove(file);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        std::set<unsigned> opcodes;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);)
        {
            if (line.rfind("Running as user", 0) == 0)
            {
                continue; // tshark's warning when the tests run as root
            }
            const size_t comma = line.find(',');
            if (comma == std::string::npos)
            {
                NS_TEST_EXPECT_MSG_EQ(line, "", "not a line of tshark's fields");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(line.substr(comma), ",,", "nothing malformed: " << line);
            if (comma > 0)
            {
                opcodes.insert(unsigned(std::stoul(line.substr(0, comma))));
            }
        }
        for (IbOpcode op : {IbOpcode::UdSendOnly, IbOpcode::WriteFirst, IbOpcode::WriteMiddle, IbOpcode::WriteLast,
                            IbOpcode::SendOnly, IbOpcode::ReadRequest, IbOpcode::Acknowledge})
        {
            NS_TEST_EXPECT_MSG_EQ(opcodes.count(unsigned(op)), 1u, ToString(op) << " decoded: " << out);
        }
    }
};

class RoceTransportTestSuite : public TestSuite
{
  public:
    RoceTransportTestSuite()
        : TestSuite("iwarp-roce-transport", UNIT)
    {
        for (WrOpcode op : {WrOpcode::Write, WrOpcode::Send, WrOpcode::Read})
        {
            AddTestCase(new RoceLossTestCase(op, 0.01, 0, 0), TestCase::QUICK);
            AddTestCase(new RoceLossTestCase(op, 0.01, 0.05, 0xFFFF00), TestCase::QUICK);
            AddTestCase(new RoceLossTestCase(op, 0.01, 0.05, 0xFFFF00, true), TestCase::QUICK);
        }
        AddTestCase(new RoceSelectiveRepeatTestCase, TestCase::QUICK);
        AddTestCase(new RoceGoBackNTestCase, TestCase::QUICK);
        AddTestCase(new RoceRetryExceededTestCase, TestCase::QUICK);
        AddTestCase(new RocePcapTestCase, TestCase::QUICK);
    }
};

RoceTransportTestSuite g_roceTransportTestSuite;

} // namespace
} // namespace ns3
