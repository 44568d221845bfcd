/*
 * iwarp-linux-dctcp: TcpLinuxDctcp (model/tcp/tcp-linux-dctcp.h), DCTCP halving on loss (RFC 8257 §3.5).
 *
 *  - Its slow-start threshold: after a loss (fast recovery or a timeout) RFC 5681's max(FlightSize / 2, 2 SMSS);
 *    after CE marks (CWR) DCTCP's own cwnd x (1 - alpha / 2), as ns-3's TcpDctcp gives it.
 *  - The reproduction kept as a regression: an RDMA Write stream over MPA/TCP on two hosts, 10 Gb/s, 0.1 %
 *    random loss. ns-3's TcpDctcp (`Ns3Dctcp`) barely backs off, and ns-3's SACK recovery then resends segments
 *    still in flight on every ACK: more than 20 segments resent per packet lost (2,702 for 37 measured).
 *    `Dctcp` resends at most a few per packet lost, and the scenario's `Dctcp` is TcpLinuxDctcp.
 */
#include "tcp/tcp-linux-dctcp.h"

#include "support/scenario-run-util.h"

#include "ns3/double.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/test.h"

#include <iostream>

namespace ns3
{
namespace
{

constexpr uint32_t kMss = 1448;

Ptr<TcpSocketState>
Tcb(uint32_t cwndSegments)
{
    Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();
    tcb->m_segmentSize = kMss;
    tcb->m_cWnd = cwndSegments * kMss;
    return tcb;
}

class SsThreshTestCase : public TestCase
{
  public:
    SsThreshTestCase()
        : TestCase("after a loss RFC 5681's half of what is in flight (at least 2 SMSS); after CE marks DCTCP's own")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpLinuxDctcp> cc = CreateObject<TcpLinuxDctcp>();
        cc->SetAttribute("DctcpAlphaOnInit", DoubleValue(0)); // alpha 0: DCTCP's own answer keeps cwnd
        Ptr<TcpSocketState> tcb = Tcb(200);
        cc->Init(tcb);
        const uint32_t inFlight = 60 * kMss;
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, inFlight), 200 * kMss, "CE marks with alpha 0: no cut");
        cc->CongestionStateSet(tcb, TcpSocketState::CA_RECOVERY);
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, inFlight), 30 * kMss, "fast recovery: FlightSize / 2");
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, inFlight), 200 * kMss, "once: the next answer is DCTCP's again");
        cc->CongestionStateSet(tcb, TcpSocketState::CA_LOSS);
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, kMss), 2 * kMss, "a timeout: at least 2 SMSS");
        cc->CongestionStateSet(tcb, TcpSocketState::CA_CWR);
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, inFlight), 200 * kMss, "CWR is DCTCP's own reduction");
        cc->CongestionStateSet(tcb, TcpSocketState::CA_RECOVERY);
        cc->CongestionStateSet(tcb, TcpSocketState::CA_OPEN);
        NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, inFlight), 200 * kMss, "a recovery over without a cut: none");
        Ptr<TcpCongestionOps> fork = cc->Fork();
        NS_TEST_EXPECT_MSG_EQ(fork->GetName(), "TcpLinuxDctcp", "a fork is one too");
    }
};

const std::string kLossyPair = R"(
stop: 30ms
topology: {kind: two-hosts}
links: {rate: 10Gbps, delay: 2us, loss: 0.001}
workloads:
  - {name: rdma, kind: stream, from: h0, to: h1, op: write, size: 1MiB, outstanding: 4, duration: 20ms}
)";

class ResentPerLossTestCase : public TestCase
{
  public:
    ResentPerLossTestCase()
        : TestCase("0.1 % loss: ns-3's TcpDctcp resends over 20 segments per loss, Dctcp (TcpLinuxDctcp) a few")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t resent[2];
        uint64_t dropped[2];
        const char* names[2] = {"Ns3Dctcp", "Dctcp"};
        for (int i = 0; i < 2; ++i)
        {
            const RunResult r = RunYamlInTemp(kLossyPair, "linux-dctcp", names[i],
                                              {std::string("transport.tcp.congestion=") + names[i]});
            resent[i] = NamedWorkload(r, "rdma").retransmissions.total;
            dropped[i] = 0;
            for (const LinkDrops& d : r.drops)
            {
                dropped[i] += d.queue + d.impairment + d.linkDown;
            }
            std::clog << "  " << names[i] << ": " << resent[i] << " segments resent for " << dropped[i]
                      << " packets lost, goodput " << *NamedWorkload(r, "rdma").goodputBps / 1e9 << " Gb/s\n";
            NS_TEST_ASSERT_MSG_GT(dropped[i], 10u, names[i] << ": the link lost packets");
        }
        NS_TEST_EXPECT_MSG_GT(resent[0], 20 * dropped[0], "the reproduction: ns-3's TcpDctcp");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(resent[1], 4 * dropped[1], "Dctcp: a few per loss");
    }
};

class LinuxDctcpTestSuite : public TestSuite
{
  public:
    LinuxDctcpTestSuite()
        : TestSuite("iwarp-linux-dctcp", UNIT)
    {
        AddTestCase(new SsThreshTestCase, TestCase::QUICK);
        AddTestCase(new ResentPerLossTestCase, TestCase::QUICK);
    }
};

LinuxDctcpTestSuite g_linuxDctcpTestSuite;

} // namespace
} // namespace ns3
