/*
 * iwarp-roce-transport: RoCEv2's reliable connection (RoceTransport, RoceConnector) on a 10 Gb/s link, beside its
 * loss recovery (iwarp-roce-recovery). A peer that stops answering fails the queue pair after RetryCount
 * timeouts; an error NAK leaves behind the Read Responses owed before it; with ns-3's checksums on, packets
 * carry a UDP checksum it accepts; every packet on the wire carries a good ICRC, and tshark decodes a whole
 * connection (CM MADs, Write, Send, Read Request and Responses, ACKs, DREQ and DREP) with nothing malformed.
 * The queue pair verbs cases of iwarp-qp-verbs and the connection manager's of iwarp-rnic run over RoCEv2 too.
 */
#include "rnic/roce-test-util.h"
#include "rnic/verbs-test-util.h"
#include "support/tshark-pdml.h"

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
using iwarptest::AddLoss;
using iwarptest::Filled;
using iwarptest::kBthAt;
using iwarptest::kPppHeaderLen;
using iwarptest::RoceOf;
using iwarptest::SetBoth;
using iwarptest::SameOctets;
using iwarptest::Wr;
using namespace MemAccess;

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
                            IbOpcode::SendOnly, IbOpcode::ReadRequest, IbOpcode::ReadResponseFirst,
                            IbOpcode::ReadResponseLast, IbOpcode::Acknowledge})
        {
            NS_TEST_EXPECT_MSG_EQ(opcodes.count(unsigned(op)), 1u, ToString(op) << " decoded: " << out);
        }
        // The CM's REQ, REP, RTU, DREQ and DREP, each a UD SEND_ONLY to QP1.
        const std::string cm = iwarptest::RunCommand(
            "tshark -n -r " + file + " -Y 'infiniband.bth.opcode == 100' -T fields -e infiniband.mad.attributeid "
                                     "2>/dev/null",
            &status);
        for (const char* id : {"0x0010", "0x0013", "0x0014", "0x0015", "0x0016"})
        {
            NS_TEST_EXPECT_MSG_NE(cm.find(id), std::string::npos, "CM attribute " << id << " captured: " << cm);
        }
        std::filesystem::remove(file);
    }
};


class RoceErrorOrderTestCase : public TestCase
{
  public:
    RoceErrorOrderTestCase()
        : TestCase("A Write to a bad R_Key behind a Read: the Read's responses leave before the NAK, the Read "
                   "completes Success and the Write RemoteError, in that order")
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(TestTransport::Roce);
        p.ConnectAndSettle();
        constexpr uint32_t kLen = 64 * 1024;
        Ptr<MemoryRegion> remote = Filled(p.server, p.spd, kLen, kRemoteRead, 2);
        Ptr<MemoryRegion> local = Filled(p.client, p.cpd, kLen, kLocalRead | kLocalWrite, 3);
        Ptr<MemoryRegion> sink = p.client->RegisterMemory(p.cpd, kLen, kLocalWrite);
        p.cqp->PostSend(Wr(1, WrOpcode::Read, {sink->GetStag(), 0, kLen}, remote->GetStag(), 0));
        p.cqp->PostSend(Wr(2, WrOpcode::Write, {local->GetStag(), 0, 100}, remote->GetStag(), 0)); // no remote write
        p.Run(MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "both completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].id, 1u, "the Read first");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::Success, "the Read, executed before the error");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::RemoteError, "the Write refused");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(remote, 0, sink, 0, kLen), true, "the Read's data");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetState(), QueuePair::ERROR, "the responder ended the stream");
    }
};

class RoceChecksumTestCase : public TestCase
{
  public:
    RoceChecksumTestCase()
        : TestCase("With ns-3's checksums on, RoCEv2 packets carry a UDP checksum ns-3 accepts: set-up and a "
                   "Write go through")
    {
    }

  private:
    void DoRun() override
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        {
            RnicPair p(TestTransport::Roce);
            p.ConnectAndSettle();
            NS_TEST_EXPECT_MSG_EQ(p.connected, true, "connected");
            Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 3001, kLocalRead, 5);
            Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, 3001, kLocalWrite | kRemoteWrite);
            p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, 3001}, dst->GetStag()));
            p.Run(MilliSeconds(10));
            NS_TEST_EXPECT_MSG_EQ(p.clientDone.size(), 1u, "the Write completed");
            NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, 3001), true, "byte-exact");
        }
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    }
};

class RoceTransportTestSuite : public TestSuite
{
  public:
    RoceTransportTestSuite()
        : TestSuite("iwarp-roce-transport", UNIT)
    {
        AddTestCase(new RoceRetryExceededTestCase, TestCase::QUICK);
        AddTestCase(new RocePcapTestCase, TestCase::QUICK);
        AddTestCase(new RoceErrorOrderTestCase, TestCase::QUICK);
        AddTestCase(new RoceChecksumTestCase, TestCase::QUICK);
    }
};

RoceTransportTestSuite g_roceTransportTestSuite;

} // namespace
} // namespace ns3
