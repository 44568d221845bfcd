/*
 * TcpLinuxCubic end to end (issue 13): a bulk TCP transfer over 100 Mb/s with 10 ms each way (20 ms RTT)
 * and random packet loss on the receiver's device. Under loss the Reno-friendly region must keep it at
 * or above NewReno (mean over three seeds, within 10 %); without loss it must fill the link. Each case
 * prints ours, NewReno, ns-3 3.37's TcpCubic and the Mathis rate side by side (doc/tcp-congestion.md
 * "Validation" quotes these lines).
 */
#include "tcp/linux-cubic-bulk.h"
#include "tcp/tcp-linux-cubic.h"

#include "ns3/config.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"

#include <cstdio>
#include <functional>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

const uint32_t kSeeds = 3;

/** Goodput of one algorithm over the seeds, and their mean. */
struct SeedRuns
{
    std::vector<double> mbps;
    double mean{0};

    std::string Show() const
    {
        std::ostringstream os;
        os.precision(2);
        os << std::fixed << mean << " (";
        for (size_t i = 0; i < mbps.size(); ++i)
        {
            os << (i ? " " : "") << mbps[i];
        }
        os << ")";
        return os.str();
    }
};

SeedRuns
RunSeeds(const std::function<Ptr<TcpCongestionOps>()>& make, double p, Time duration)
{
    SeedRuns r;
    for (uint32_t seed = 1; seed <= kSeeds; ++seed)
    {
        CubicBulkConfig c;
        c.cc = make();
        c.lossRate = p;
        c.seed = seed;
        c.duration = duration;
        r.mbps.push_back(RunCubicBulk(c).goodputMbps);
        r.mean += r.mbps.back() / kSeeds;
    }
    return r;
}

class GoodputUnderLossTestCase : public TestCase
{
  public:
    GoodputUnderLossTestCase(double p, Time duration)
        : TestCase(Name(p)),
          m_p(p),
          m_duration(duration)
    {
    }

  private:
    static std::string Name(double p)
    {
        std::ostringstream os;
        os << "goodput at p = " << p << ": TcpLinuxCubic at least 0.9 x NewReno, 3 seeds";
        return os.str();
    }

    void DoRun() override
    {
        SeedRuns ours = RunSeeds([] { return CreateObject<TcpLinuxCubic>(); }, m_p, m_duration);
        SeedRuns reno = RunSeeds([] { return CreateObject<TcpNewReno>(); }, m_p, m_duration);
        SeedRuns ns3Cubic = RunSeeds([] { return CreateObject<TcpCubic>(); }, m_p, m_duration);
        double mathis = MathisMbps(1448, MilliSeconds(20), m_p);
        std::printf("linux-cubic goodput p=%g, Mb/s, mean (seeds 1 2 3) over %.0f-%.0f s: TcpLinuxCubic %s  "
                    "NewReno %s  ns-3 TcpCubic %s  Mathis %.2f  ours/NewReno %.2f\n",
                    m_p, CubicBulkConfig().warmup.GetSeconds(), m_duration.GetSeconds(), ours.Show().c_str(),
                    reno.Show().c_str(), ns3Cubic.Show().c_str(), mathis, ours.mean / reno.mean);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ours.mean, 0.9 * reno.mean,
                                    "TcpLinuxCubic fell below 0.9 x NewReno at p = " << m_p);
    }

    double m_p;
    Time m_duration;
};

class NoLossLinkRateTestCase : public TestCase
{
  public:
    NoLossLinkRateTestCase()
        : TestCase("no loss: TcpLinuxCubic fills a 100 Mbps link")
    {
    }

  private:
    void DoRun() override
    {
        CubicBulkConfig c;
        c.cc = CreateObject<TcpLinuxCubic>();
        c.duration = Seconds(6);
        CubicBulkResult r = RunCubicBulk(c);
        // A 1448-octet segment is 1502 octets on the wire (TCP with timestamps 32, IPv4 20, PPP 2).
        double linkGoodput = 100.0 * 1448 / 1502;
        std::printf("linux-cubic no loss: %.2f Mb/s of %.2f Mb/s possible, %u recoveries, %u timeouts\n",
                    r.goodputMbps, linkGoodput, r.recoveries, r.timeouts);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.goodputMbps, 0.95 * linkGoodput, "the link is not full");
    }
};

class SelectByNameTestCase : public TestCase
{
  public:
    SelectByNameTestCase()
        : TestCase("selectable as every new socket's TCP through TcpL4Protocol::SocketType, by name")
    {
    }

  private:
    static std::string NewSocketAlgorithm()
    {
        Ptr<Node> node = CreateObject<Node>();
        InternetStackHelper().Install(node);
        Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        PointerValue cc;
        s->GetAttribute("CongestionOps", cc);
        return cc.Get<TcpCongestionOps>()->GetName();
    }

    void DoRun() override
    {
        TypeId::AttributeInformation info;
        TcpL4Protocol::GetTypeId().LookupAttributeByName("SocketType", &info);
        Ptr<const AttributeValue> before = info.initialValue;
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpLinuxCubic"));
        NS_TEST_EXPECT_MSG_EQ(NewSocketAlgorithm(), "TcpLinuxCubic", "by name");
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
        NS_TEST_EXPECT_MSG_EQ(NewSocketAlgorithm(), "TcpNewReno", "and back");
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpLinuxCubic::GetTypeId()));
        NS_TEST_EXPECT_MSG_EQ(NewSocketAlgorithm(), "TcpLinuxCubic", "by TypeId");
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", *before);
        Simulator::Destroy();
    }
};

class LinuxCubicGoodputTestSuite : public TestSuite
{
  public:
    LinuxCubicGoodputTestSuite()
        : TestSuite("iwarp-linux-cubic-goodput", SYSTEM)
    {
        AddTestCase(new SelectByNameTestCase(), TestCase::QUICK);
        AddTestCase(new NoLossLinkRateTestCase(), TestCase::QUICK);
        AddTestCase(new GoodputUnderLossTestCase(1e-3, Seconds(40)), TestCase::QUICK);
        AddTestCase(new GoodputUnderLossTestCase(1e-2, Seconds(40)), TestCase::QUICK);
    }
};

LinuxCubicGoodputTestSuite g_linuxCubicGoodputTestSuite;

} // namespace
