/*
 * iwarp-roce-recovery: RoCEv2's loss recovery (RoceTransport) on a 10 Gb/s link. Writes, Sends and Reads arrive
 * byte-exact and complete in order under 1 % loss each way, under reordering and across the 24-bit PSN wrap,
 * with go-back-N and with IRN's selective repeat, and Reads and Writes interleaved under 2 % loss; go-back-N
 * resends from the PSN its NAK names and nothing before it; selective repeat resends exactly what was lost; a
 * lost Read Response is asked for again from its PSN before any timeout.
 */
#include "rnic/roce-test-util.h"
#include "rnic/verbs-test-util.h"
#include "support/tshark-pdml.h"

#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <filesystem>
#include <sstream>

namespace ns3
{
namespace
{
using iwarptest::AddLoss;
using iwarptest::DropOne;
using iwarptest::Filled;
using iwarptest::RoceOf;
using iwarptest::SameOctets;
using iwarptest::SetBoth;
using iwarptest::Wr;
using namespace MemAccess;

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
        Ptr<DropOne> drop = CreateObject<DropOne>(IbOpcode::SendFirst, IbOpcode::WriteOnlyImm, 20);
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

class RoceReadRecoveryTestCase : public TestCase
{
  public:
    RoceReadRecoveryTestCase()
        : TestCase("A lost Read Response: the Read is asked again from the lost response's PSN, with the VA and "
                   "length of what is missing, before any timeout; a Write posted after it completes too")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(TestTransport::Roce);
        p.ConnectAndSettle();
        Ptr<DropOne> drop = CreateObject<DropOne>(IbOpcode::ReadResponseFirst, IbOpcode::ReadResponseOnly, 10);
        p.links[0].Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        std::vector<std::pair<uint32_t, uint8_t>> again; // (PSN, opcode) of packets sent again
        RoceOf(p.cqp)->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(+[](std::vector<std::pair<uint32_t, uint8_t>>* v, uint32_t psn, uint8_t op,
                                        bool resent) {
                if (resent)
                {
                    v->emplace_back(psn, op);
                }
            }, &again));
        constexpr uint32_t kLen = 40 * 1024;
        Ptr<MemoryRegion> src = Filled(p.server, p.spd, kLen, kRemoteRead | kRemoteWrite | kLocalWrite, 6);
        Ptr<MemoryRegion> mine = Filled(p.client, p.cpd, kLen, kLocalRead | kLocalWrite, 1);
        Ptr<MemoryRegion> sink = p.client->RegisterMemory(p.cpd, kLen, kLocalWrite);
        p.cqp->PostSend(Wr(1, WrOpcode::Read, {sink->GetStag(), 0, kLen}, src->GetStag(), 0));
        p.cqp->PostSend(Wr(2, WrOpcode::Write, {mine->GetStag(), 0, 4096}, src->GetStag(), 0));
        p.Run(MilliSeconds(30));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "both completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::Success, "the Read");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::Success, "the Write after it");
        NS_TEST_EXPECT_MSG_EQ(RoceOf(p.cqp)->GetTimeouts(), 0u, "no timeout was needed");
        NS_TEST_ASSERT_MSG_GT(again.size(), 0u, "something was sent again");
        NS_TEST_EXPECT_MSG_EQ(again.front().first, drop->droppedPsn, "asked again from the lost response");
        NS_TEST_EXPECT_MSG_EQ(unsigned(again.front().second), unsigned(IbOpcode::ReadRequest), "as a Read Request");
        // The Write overwrote the first 4 KB after the Read had read them: compare what the Read took.
        Ptr<MemoryRegion> original = Filled(p.server, p.spd, kLen, kRemoteRead, 6);
        NS_TEST_EXPECT_MSG_EQ(SameOctets(original, 0, sink, 0, kLen), true, "the Read's data byte-exact");
    }
};

class RoceMixedLossTestCase : public TestCase
{
  public:
    explicit RoceMixedLossTestCase(bool selective)
        : TestCase(std::string(selective ? "Selective repeat" : "Go-back-N") +
                   ": Reads and Writes interleaved under 2 % loss each way all complete, byte-exact, in order"),
          m_selective(selective)
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint32_t kLen = 64 * 1024;
        constexpr uint32_t kEach = 6;
        RnicPair p(TestTransport::Roce);
        SetBoth(p, "AckTimeout", TimeValue(MilliSeconds(1)));
        if (m_selective)
        {
            SetBoth(p, "Recovery", StringValue("SelectiveRepeat"));
        }
        p.ConnectAndSettle();
        AddLoss(p, 0.02);
        Ptr<MemoryRegion> remote = Filled(p.server, p.spd, 2 * kEach * kLen, kRemoteRead | kRemoteWrite | kLocalWrite, 3);
        Ptr<MemoryRegion> local = Filled(p.client, p.cpd, 2 * kEach * kLen, kLocalRead | kLocalWrite, 4);
        Ptr<MemoryRegion> expectRead = Filled(p.server, p.spd, 2 * kEach * kLen, kRemoteRead, 3);
        for (uint32_t i = 0; i < 2 * kEach; ++i)
        {
            const uint64_t at = uint64_t(i) * kLen;
            // Even: Read the server's bytes at `at` into ours; odd: Write ours at `at` to the server.
            const WrOpcode op = i % 2 == 0 ? WrOpcode::Read : WrOpcode::Write;
            p.cqp->PostSend(Wr(i + 1, op, {local->GetStag(), at, kLen}, remote->GetStag(), at));
        }
        p.Run(Seconds(2));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2 * kEach, "every request completed");
        for (uint32_t i = 0; i < 2 * kEach; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].id, i + 1u, "in posting order");
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, WcStatus::Success, "request " << i + 1);
            const uint64_t at = uint64_t(i) * kLen;
            NS_TEST_EXPECT_MSG_EQ((i % 2 == 0 ? SameOctets(expectRead, at, local, at, kLen)
                                              : SameOctets(local, at, remote, at, kLen)),
                                  true, "request " << i + 1 << " byte-exact");
        }
    }

    bool m_selective;
};

class RoceRecoveryTestSuite : public TestSuite
{
  public:
    RoceRecoveryTestSuite()
        : TestSuite("iwarp-roce-recovery", UNIT)
    {
        for (WrOpcode op : {WrOpcode::Write, WrOpcode::Send, WrOpcode::Read})
        {
            AddTestCase(new RoceLossTestCase(op, 0.01, 0, 0), TestCase::QUICK);
            AddTestCase(new RoceLossTestCase(op, 0.01, 0.05, 0xFFFF00), TestCase::QUICK);
            AddTestCase(new RoceLossTestCase(op, 0.01, 0.05, 0xFFFF00, true), TestCase::QUICK);
        }
        AddTestCase(new RoceGoBackNTestCase, TestCase::QUICK);
        AddTestCase(new RoceSelectiveRepeatTestCase, TestCase::QUICK);
        AddTestCase(new RoceMixedLossTestCase(false), TestCase::QUICK);
        AddTestCase(new RoceMixedLossTestCase(true), TestCase::QUICK);
        AddTestCase(new RoceReadRecoveryTestCase, TestCase::QUICK);
    }
};

RoceRecoveryTestSuite g_roceRecoveryTestSuite;

} // namespace
} // namespace ns3
