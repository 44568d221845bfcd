/*
 * Independent check of the SCTP model's octets with Wireshark's dissector (tshark 4.0, Debian package
 * `tshark`): a two-node transfer both ways with 1 % loss, ended by a graceful shutdown, is captured on the
 * client's device. tshark (with -o 'sctp.checksum:CRC 32c', doc/sctp.md) must find every packet's checksum
 * correct, no malformed packet, and every chunk type the exchange uses. A multihomed association whose
 * primary link is cut is captured on both links: the addresses in INIT and INIT ACK, the heartbeats, and the
 * data on the second link after the failover, all decoded with nothing malformed.
 */
#include "sctp/sctp-two-node-fixture.h"
#include "support/tshark-pdml.h"

#include "ns3/test.h"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

const char* const kOpts = "-o 'sctp.checksum:CRC 32c'";

uint32_t
CountLines(const std::string& s)
{
    uint32_t n = 0;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line))
    {
        n += line.empty() ? 0 : 1;
    }
    return n;
}

/** Chunk types tshark decoded in `pcap`, and the IPv4 Address parameters it found (INIT, INIT ACK). */
std::set<int>
ChunkTypes(const std::string& pcap, uint32_t* addresses)
{
    int status = 0;
    std::string out = RunCommand("tshark -r '" + pcap + "' " + kOpts +
                                     " -Y sctp -T fields -E occurrence=a -E separator=, -e sctp.chunk_type"
                                     " -e sctp.parameter_ipv4_address 2>/dev/null",
                                 &status);
    std::set<int> seen;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream l(line);
        std::string t;
        while (std::getline(l, t, ','))
        {
            const bool address = t.find('.') != std::string::npos;
            *addresses += address ? 1 : 0;
            if (!t.empty() && !address)
            {
                seen.insert(std::atoi(t.c_str()));
            }
        }
    }
    return seen;
}

class SctpTsharkTestCase : public TestCase
{
  public:
    SctpTsharkTestCase()
        : TestCase("tshark verifies every checksum and decodes every chunk of a lossy transfer")
    {
    }

  private:
    void DoRun() override
    {
        const bool haveTshark = std::system("command -v tshark >/dev/null 2>&1") == 0;
        NS_TEST_ASSERT_MSG_EQ(haveTshark, true, "tshark is not installed (Debian package tshark)");
        const std::string prefix = CreateTempDirFilename("sctp-tshark");
        {
            SctpTwoNodeFixture::Options o;
            o.lossRate = 0.01;
            o.lossStream = 9;
            SctpTwoNodeFixture f(o);
            f.EnablePcap(prefix, 0);
            f.Start();
            f.QueueMessages(true, 60, 6000, 3, 21);
            f.QueueMessages(false, 60, 6000, 3, 22);
            Simulator::Schedule(Seconds(3), [&]() { f.client->Close(); });
            Simulator::Stop(Seconds(20));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "client to server");
            NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(false), "", "server to client");
            NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "shut down");
        }
        const std::string pcap = prefix + "-0-0.pcap";
        int status = 0;
        std::string all = RunCommand("tshark -r '" + pcap + "' " + kOpts + " -Y sctp 2>/dev/null", &status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark ran on " << pcap);
        std::string good = RunCommand(
            "tshark -r '" + pcap + "' " + kOpts + " -Y 'sctp.checksum.status == 1' 2>/dev/null", &status);
        std::string bad = RunCommand(
            "tshark -r '" + pcap + "' " + kOpts + " -Y 'sctp && !(sctp.checksum.status == 1)' 2>/dev/null",
            &status);
        std::string malformed =
            RunCommand("tshark -r '" + pcap + "' " + kOpts + " -Y '_ws.malformed' 2>/dev/null", &status);
        uint32_t packets = CountLines(all);
        NS_TEST_EXPECT_MSG_GT(packets, 100u, "tshark saw the SCTP packets");
        NS_TEST_EXPECT_MSG_EQ(CountLines(good), packets, "every checksum correct");
        NS_TEST_EXPECT_MSG_EQ(bad, "", "no packet with a wrong or unchecked checksum");
        NS_TEST_EXPECT_MSG_EQ(malformed, "", "no malformed packet");

        uint32_t addresses = 0; // single-homed: none
        const std::set<int> seen = ChunkTypes(pcap, &addresses);
        for (int t : {0, 1, 2, 3, 7, 8, 10, 11, 14})
        {
            NS_TEST_EXPECT_MSG_EQ(seen.count(t), 1u, "tshark decoded chunk type " << t);
        }
        std::cout << "tshark: " << packets << " SCTP packets, chunk types";
        for (int t : seen)
        {
            std::cout << " " << t;
        }
        std::cout << std::endl;
        std::remove(pcap.c_str());
    }
};

class SctpTsharkMultihomedTestCase : public TestCase
{
  public:
    SctpTsharkMultihomedTestCase()
        : TestCase("tshark decodes a multihomed association across a failover on both links")
    {
    }

  private:
    void DoRun() override
    {
        const std::string prefix = CreateTempDirFilename("sctp-tshark-mh");
        Config::SetDefault("ns3::SctpSocket::Multihoming", BooleanValue(true));
        Config::SetDefault("ns3::SctpSocket::RtoMin", TimeValue(MilliSeconds(100)));
        Config::SetDefault("ns3::SctpSocket::RtoInitial", TimeValue(MilliSeconds(100)));
        Config::SetDefault("ns3::SctpSocket::PathMaxRetrans", UintegerValue(1));
        Config::SetDefault("ns3::SctpSocket::HbInterval", TimeValue(MilliSeconds(200)));
        Config::SetDefault("ns3::SctpSocket::SackDelay", TimeValue(MilliSeconds(10)));
        {
            SctpTwoNodeFixture::Options o;
            o.dualHomed = true;
            SctpTwoNodeFixture f(o);
            f.EnablePcap(prefix, 0);
            PointToPointHelper().EnablePcap(prefix + "-second", f.devices2.Get(0), true);
            f.Start();
            f.QueueMessages(true, 400, 4000, 2, 31);
            f.CutLink(0, MilliSeconds(500), Time(0));
            Simulator::Stop(Seconds(5));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "every message across the failover");
        }
        Config::Reset();
        for (const std::string& pcap : {prefix + "-0-0.pcap", prefix + "-second-0-2.pcap"})
        {
            int status = 0;
            std::string all = RunCommand("tshark -r '" + pcap + "' " + kOpts + " -Y sctp 2>/dev/null", &status);
            NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark ran on " << pcap);
            std::string bad = RunCommand(
                "tshark -r '" + pcap + "' " + kOpts + " -Y 'sctp && !(sctp.checksum.status == 1)' 2>/dev/null",
                &status);
            std::string malformed =
                RunCommand("tshark -r '" + pcap + "' " + kOpts + " -Y '_ws.malformed' 2>/dev/null", &status);
            NS_TEST_EXPECT_MSG_GT(CountLines(all), 10u, "SCTP packets in " << pcap);
            NS_TEST_EXPECT_MSG_EQ(bad, "", "every checksum correct in " << pcap);
            NS_TEST_EXPECT_MSG_EQ(malformed, "", "nothing malformed in " << pcap);
        }
        uint32_t addresses = 0;
        const std::set<int> first = ChunkTypes(prefix + "-0-0.pcap", &addresses);
        NS_TEST_EXPECT_MSG_EQ(addresses, 4u, "two IPv4 Address parameters in each of INIT and INIT ACK");
        NS_TEST_EXPECT_MSG_EQ((first.count(1) && first.count(2)), true, "INIT and INIT ACK on the primary link");
        uint32_t none = 0;
        const std::set<int> second = ChunkTypes(prefix + "-second-0-2.pcap", &none);
        for (int t : {0, 3, 4, 5})
        {
            NS_TEST_EXPECT_MSG_EQ(second.count(t), 1u, "chunk type " << t << " on the second link");
        }
        std::remove((prefix + "-0-0.pcap").c_str());
        std::remove((prefix + "-second-0-2.pcap").c_str());
    }
};

class SctpTsharkTestSuite : public TestSuite
{
  public:
    SctpTsharkTestSuite()
        : TestSuite("iwarp-sctp-tshark", UNIT)
    {
        AddTestCase(new SctpTsharkTestCase(), TestCase::QUICK);
        AddTestCase(new SctpTsharkMultihomedTestCase(), TestCase::QUICK);
    }
};

SctpTsharkTestSuite g_sctpTsharkTestSuite;

} // namespace
