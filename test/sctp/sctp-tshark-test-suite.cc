/*
 * Independent check of the SCTP model's octets with Wireshark's dissector (tshark 4.0, Debian package
 * `tshark`): a two-node transfer both ways with 1 % loss, ended by a graceful shutdown, is captured on the
 * client's device. tshark (with -o 'sctp.checksum:CRC 32c', doc/sctp.md) must find every packet's checksum
 * correct, no malformed packet, and every chunk type the exchange uses.
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

        std::string types = RunCommand("tshark -r '" + pcap + "' " + kOpts +
                                           " -Y sctp -T fields -E occurrence=a -E separator=, -e sctp.chunk_type"
                                           " 2>/dev/null",
                                       &status);
        std::set<int> seen;
        std::istringstream in(types);
        std::string line;
        while (std::getline(in, line))
        {
            std::istringstream l(line);
            std::string t;
            while (std::getline(l, t, ','))
            {
                if (!t.empty())
                {
                    seen.insert(std::atoi(t.c_str()));
                }
            }
        }
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

class SctpTsharkTestSuite : public TestSuite
{
  public:
    SctpTsharkTestSuite()
        : TestSuite("iwarp-sctp-tshark", UNIT)
    {
        AddTestCase(new SctpTsharkTestCase(), TestCase::QUICK);
    }
};

SctpTsharkTestSuite g_sctpTsharkTestSuite;

} // namespace
