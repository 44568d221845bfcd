/*
 * SCTP timers and defences between two ns-3 nodes: delayed SACK (every second packet, else after 200 ms),
 * heartbeats on an idle association and the ABORT when they go unanswered, INIT retransmission with
 * back-off up to Max.Init.Retransmits, packets with a bad checksum dropped and reported by the Drop trace,
 * verification tags enforced, and out-of-the-blue packets answered by an ABORT with the T bit.
 */
#include "sctp/sctp-two-node-fixture.h"

#include "sctp/sctp-init-chunk.h"

#include "ns3/test.h"

#include <functional>
#include <random>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** Times at which `log` sent chunks of type `t`, at or after `from`. */
std::vector<Time>
TxTimes(const SctpEndLog& log, SctpChunkType t, Time from)
{
    std::vector<Time> out;
    for (size_t k = 0; k < log.chunksTx.size(); ++k)
    {
        if (log.chunksTx[k] == uint8_t(t) && log.chunksTxTime[k] >= from)
        {
            out.push_back(log.chunksTxTime[k]);
        }
    }
    return out;
}

class SctpDelayedSackTestCase : public TestCase
{
  public:
    SctpDelayedSackTestCase()
        : TestCase("delayed SACK: one packet waits SackDelay, the second packet is acknowledged at once")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        Simulator::Schedule(Seconds(1), [&]() { f.QueueMessages(true, 1, 100, 1, 1); });
        Simulator::Schedule(Seconds(2), [&]() { f.QueueMessages(true, 2, 100, 1, 2); });
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "delivered");
        auto one = TxTimes(f.serverLog, SctpChunkType::Sack, Seconds(1));
        NS_TEST_ASSERT_MSG_GT_OR_EQ(one.size(), 2u, "SACKs sent");
        // The DATA arrives about 5.1 ms after 1 s; its SACK leaves SackDelay (200 ms) later.
        NS_TEST_EXPECT_MSG_EQ_TOL(one[0].GetSeconds(), 1.2051, 0.001, "delayed by 200 ms");
        auto two = TxTimes(f.serverLog, SctpChunkType::Sack, Seconds(2));
        NS_TEST_ASSERT_MSG_EQ(two.size(), 1u, "one SACK for two packets");
        NS_TEST_EXPECT_MSG_LT(two[0], Seconds(2.01), "sent at the second packet's arrival");
    }
};

class SctpHeartbeatTestCase : public TestCase
{
  public:
    SctpHeartbeatTestCase()
        : TestCase("heartbeats on an idle association measure the RTT; unanswered ones end it")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::HbInterval", TimeValue(Seconds(1)));
        Config::SetDefault("ns3::SctpSocket::PathMaxRetrans", UintegerValue(2));
        SctpTwoNodeFixture f({});
        f.Start();
        Ptr<SctpDropListErrorModel> em;
        Simulator::Schedule(Seconds(10), [&]() {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(f.clientLog.CountTx(SctpChunkType::Heartbeat), 3u, "HEARTBEATs");
            NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountRx(SctpChunkType::HeartbeatAck),
                                  f.clientLog.CountTx(SctpChunkType::Heartbeat),
                                  "each one acknowledged");
            NS_TEST_EXPECT_MSG_EQ_TOL(f.client->GetSrtt().GetSeconds(), 0.0101, 0.001, "RTT from heartbeats");
            em = f.DropOn(1);
            em->dropFrom = 1;
        });
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.errorClose, 1u, "aborted after Path.Max.Retrans + 1 misses");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "CLOSED");
        Config::Reset();
    }
};

class SctpInitRetransmitTestCase : public TestCase
{
  public:
    SctpInitRetransmitTestCase()
        : TestCase("INIT is retransmitted with back-off; Max.Init.Retransmits ends in a failed connect")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::MaxInitRetransmits", UintegerValue(2));
        SctpTwoNodeFixture f({});
        Ptr<SctpDropListErrorModel> em = f.DropOn(1);
        em->dropFrom = 1;
        f.Start();
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        auto inits = TxTimes(f.clientLog, SctpChunkType::Init, Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(inits.size(), 3u, "INIT and two retransmissions");
        NS_TEST_EXPECT_MSG_EQ(inits[1] - inits[0], Seconds(1), "RTO.Initial");
        NS_TEST_EXPECT_MSG_EQ(inits[2] - inits[1], Seconds(2), "doubled");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.connectFailed, 1u, "connect failed");
        NS_TEST_EXPECT_MSG_EQ(f.accepted, 0u, "nothing accepted");
        Config::Reset();
    }
};

class SctpDefencesTestCase : public TestCase
{
  public:
    SctpDefencesTestCase()
        : TestCase("bad checksum dropped and traced; wrong verification tag ignored; out-of-the-blue ABORT")
    {
    }

  private:
    std::vector<SctpParseError> m_drops;
    std::vector<SctpPacket> m_serverTx;

    void Drop(Ptr<const Packet>, Ipv4Address, SctpParseError e)
    {
        m_drops.push_back(e);
    }

    void Tx(Ptr<const Packet> p, Ipv4Address, Ipv4Address)
    {
        SctpPacket pkt;
        SctpPacket::Parse(p, &pkt);
        m_serverTx.push_back(pkt);
    }

    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        f.L4(1)->TraceConnectWithoutContext("Drop", MakeCallback(&SctpDefencesTestCase::Drop, this));
        f.L4(1)->TraceConnectWithoutContext("Tx", MakeCallback(&SctpDefencesTestCase::Tx, this));
        uint16_t clientPort = 0;
        auto abortWithTag = [&](uint32_t vtag) {
            SctpPacket p;
            p.header.SetSourcePort(clientPort);
            p.header.SetDestinationPort(5000);
            p.header.SetVerificationTag(vtag);
            p.Add(std::make_shared<SctpErrorChunk>(SctpChunkType::Abort));
            return p;
        };
        size_t txBefore = 0;
        Simulator::Schedule(Seconds(1), [&]() {
            Address a;
            f.client->GetSockName(a);
            clientPort = InetSocketAddress::ConvertFrom(a).GetPort();
            // A valid ABORT with one bit flipped after the checksum was computed.
            std::vector<uint8_t> b = abortWithTag(f.server->GetLocalVerificationTag()).ToBytes();
            b[12] ^= 0x40;
            Ipv4Header h;
            h.SetSource(f.Addr(0));
            h.SetDestination(f.Addr(1));
            f.L4(1)->Receive(Create<Packet>(b.data(), uint32_t(b.size())), h, nullptr);
            // Right checksum, wrong tag.
            f.Inject(1, abortWithTag(f.server->GetLocalVerificationTag() + 1));
        });
        Simulator::Schedule(Seconds(2), [&]() {
            NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Established), "still up");
            // Out of the blue: DATA to a port nobody listens on.
            txBefore = m_serverTx.size();
            SctpPacket p;
            p.header.SetSourcePort(7777);
            p.header.SetDestinationPort(6000);
            p.header.SetVerificationTag(0xABCDEF01);
            auto d = std::make_shared<SctpDataChunk>();
            d->SetUserData({1});
            p.Add(d);
            f.Inject(1, p);
        });
        size_t txBeforeListenerOotb = 0;
        Simulator::Schedule(Seconds(2.5), [&]() {
            // Out of the blue at the listener's port, from a port with no association there.
            txBeforeListenerOotb = m_serverTx.size();
            SctpPacket p;
            p.header.SetSourcePort(7778);
            p.header.SetDestinationPort(5000);
            p.header.SetVerificationTag(0x01020304);
            p.Add(std::make_shared<SctpShutdownChunk>());
            f.Inject(1, p);
        });
        Simulator::Schedule(Seconds(3), [&]() {
            f.Inject(1, abortWithTag(f.server->GetLocalVerificationTag())); // the right tag: accepted
        });
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_drops.size(), 1u, "one drop traced");
        NS_TEST_EXPECT_MSG_EQ(int(m_drops[0]), int(SctpParseError::BadChecksum), "for its checksum");
        NS_TEST_ASSERT_MSG_GT(m_serverTx.size(), txBefore, "the out-of-the-blue packet was answered");
        const SctpPacket& ootb = m_serverTx[txBefore];
        NS_TEST_EXPECT_MSG_EQ(ootb.header.GetDestinationPort(), 7777, "to its sender");
        NS_TEST_EXPECT_MSG_EQ(ootb.header.GetVerificationTag(), 0xABCDEF01u, "tag reflected");
        auto abort = std::dynamic_pointer_cast<SctpErrorChunk>(ootb.chunks.at(0));
        NS_TEST_ASSERT_MSG_NE(abort, nullptr, "an ABORT");
        NS_TEST_EXPECT_MSG_EQ(bool(abort->IsAbort() && abort->GetTBit()), true, "with the T bit");
        NS_TEST_ASSERT_MSG_GT(m_serverTx.size(), txBeforeListenerOotb, "answered at the listener's port too");
        NS_TEST_EXPECT_MSG_EQ(m_serverTx[txBeforeListenerOotb].header.GetDestinationPort(), 7778, "to it");
        NS_TEST_EXPECT_MSG_EQ(unsigned(m_serverTx[txBeforeListenerOotb].chunks.at(0)->GetType()),
                              unsigned(SctpChunkType::Abort), "with an ABORT");
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Closed), "a correct ABORT closes");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.errorClose, 1u, "error close");
    }
};

class SctpDataErrorsTestCase : public TestCase
{
  public:
    SctpDataErrorsTestCase()
        : TestCase("DATA on a stream beyond the negotiated count: ERROR, TSN acked; DATA without data: ABORT")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        uint16_t port = 0;
        uint32_t tsn = 0;
        auto dataPacket = [&](uint16_t sid, std::vector<uint8_t> payload) {
            SctpPacket p;
            p.header.SetSourcePort(port);
            p.header.SetDestinationPort(5000);
            p.header.SetVerificationTag(f.server->GetLocalVerificationTag());
            auto d = std::make_shared<SctpDataChunk>();
            d->SetTsn(tsn);
            d->SetStreamId(sid);
            d->SetUserData(std::move(payload));
            p.Add(d);
            return p;
        };
        uint32_t sacksBefore = 0;
        Simulator::Schedule(Seconds(1), [&]() {
            Address a;
            f.client->GetSockName(a);
            port = InetSocketAddress::ConvertFrom(a).GetPort();
            tsn = f.client->GetNextTsn();
            sacksBefore = f.clientLog.CountRx(SctpChunkType::Sack);
            f.Inject(1, dataPacket(f.server->GetInboundStreams(), {1, 2, 3})); // one past the last stream
        });
        Simulator::Schedule(Seconds(2), [&]() {
            NS_TEST_EXPECT_MSG_EQ(f.serverLog.received.size(), 0u, "not delivered");
            NS_TEST_EXPECT_MSG_EQ(f.serverLog.CountTx(SctpChunkType::Error), 1u, "ERROR sent");
            NS_TEST_EXPECT_MSG_GT(f.clientLog.CountRx(SctpChunkType::Sack), sacksBefore, "TSN acknowledged");
            bool cause = false;
            for (const auto& e : f.clientLog.errorsRx)
            {
                cause = cause || e.HasCause(SctpCauseCode::InvalidStreamIdentifier);
            }
            NS_TEST_EXPECT_MSG_EQ(cause, true, "Invalid Stream Identifier");
            NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Established), "still up");
            tsn++;
            f.Inject(1, dataPacket(0, {}));
        });
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Closed), "aborted");
        bool noUserData = false;
        for (const auto& e : f.clientLog.errorsRx)
        {
            noUserData = noUserData || (e.IsAbort() && e.HasCause(SctpCauseCode::NoUserData));
        }
        NS_TEST_EXPECT_MSG_EQ(noUserData, true, "ABORT with No User Data");
    }
};

class SctpChunkFuzzTestCase : public TestCase
{
  public:
    SctpChunkFuzzTestCase()
        : TestCase("3000 well-formed but random packets into a live association: no crash, no hang")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        f.QueueMessages(true, 50, 3000, 3, 77);
        f.QueueMessages(false, 50, 3000, 3, 78);
        std::mt19937 rng(4242);
        auto rnd = [&](uint32_t lo, uint32_t hi) { return lo + uint32_t(rng() % (hi - lo + 1)); };
        auto bytes = [&](uint32_t n) {
            std::vector<uint8_t> v(n);
            for (auto& b : v)
            {
                b = uint8_t(rng());
            }
            return v;
        };
        uint32_t injected = 0;
        uint32_t aliveAt1500 = 0;
        std::function<void()> inject = [&]() {
            if (injected == 3000)
            {
                return;
            }
            injected++;
            if (injected == 1500 && f.server && f.server->GetState() == SctpState::Established)
            {
                aliveAt1500 = 1;
            }
            Address a;
            f.client->GetSockName(a);
            SctpPacket p;
            p.header.SetSourcePort(InetSocketAddress::ConvertFrom(a).GetPort());
            p.header.SetDestinationPort(5000);
            p.header.SetVerificationTag(f.server ? f.server->GetLocalVerificationTag() : 0);
            uint32_t base = f.client->GetNextTsn();
            uint32_t srvBase = f.server ? f.server->GetNextTsn() : 0;
            for (uint32_t k = rnd(1, 3); k > 0; --k)
            {
                switch (rnd(0, 11))
                {
                case 0:
                case 1: {
                    auto d = std::make_shared<SctpDataChunk>();
                    d->SetFlags(uint8_t(rnd(0, 15)));
                    d->SetTsn(base + rnd(0, 40) - 20);
                    d->SetStreamId(uint16_t(rnd(0, 12)));
                    d->SetSsn(uint16_t(rnd(0, 4)));
                    d->SetUserData(bytes(rnd(1, 60)));
                    p.Add(d);
                    break;
                }
                case 2:
                case 3: {
                    auto sk = std::make_shared<SctpSackChunk>();
                    sk->SetCumTsnAck(srvBase + rnd(0, 60) - 50);
                    sk->SetArwnd(rnd(0, 300000));
                    for (uint32_t g = rnd(0, 4); g > 0; --g)
                    {
                        sk->AddGapBlock(uint16_t(rnd(0, 30)), uint16_t(rnd(0, 30)));
                    }
                    for (uint32_t g = rnd(0, 2); g > 0; --g)
                    {
                        sk->AddDupTsn(rng());
                    }
                    p.Add(sk);
                    break;
                }
                case 4: {
                    auto hb = std::make_shared<SctpHeartbeatChunk>(rnd(0, 1) == 1);
                    hb->SetInfo(bytes(rnd(0, 20)));
                    p.Add(hb);
                    break;
                }
                case 5: {
                    // SHUTDOWN (a tenth of the time in the second half: it ends the association for good)
                    if (injected > 1500 && rnd(0, 9) == 0)
                    {
                        auto sd = std::make_shared<SctpShutdownChunk>();
                        sd->SetCumTsnAck(srvBase + rnd(0, 60) - 50);
                        p.Add(sd);
                    }
                    break;
                }
                case 6: {
                    // SHUTDOWN ACK / COMPLETE only late: they too may end the association.
                    static const SctpChunkType t[] = {SctpChunkType::CookieAck, SctpChunkType::ShutdownAck,
                                                      SctpChunkType::ShutdownComplete};
                    auto e = std::make_shared<SctpEmptyChunk>(t[injected > 2500 ? rnd(0, 2) : 0]);
                    e->SetFlags(uint8_t(rnd(0, 1)));
                    p.Add(e);
                    break;
                }
                case 7: {
                    bool abort = injected > 2900 && rnd(0, 20) == 0;
                    auto e = std::make_shared<SctpErrorChunk>(abort ? SctpChunkType::Abort : SctpChunkType::Error);
                    e->AddCause(SctpCauseCode(rnd(0, 15)), bytes(rnd(0, 12)));
                    p.Add(e);
                    break;
                }
                case 8: {
                    auto c = std::make_shared<SctpCookieEchoChunk>();
                    c->SetCookie(bytes(rnd(0, 100)));
                    p.Add(c);
                    break;
                }
                case 9: {
                    auto i = std::make_shared<SctpInitChunk>(rnd(0, 1) == 1);
                    i->SetInitiateTag(rng());
                    i->SetOutboundStreams(uint16_t(rnd(0, 3)));
                    i->SetInboundStreams(uint16_t(rnd(0, 3)));
                    i->SetInitialTsn(rng());
                    if (rnd(0, 1))
                    {
                        i->SetStateCookie(bytes(rnd(0, 40)));
                    }
                    p.Add(i);
                    break;
                }
                default: {
                    auto u = std::make_shared<SctpUnknownChunk>(uint8_t(rnd(15, 255)), uint8_t(rng()));
                    u->SetValue(bytes(rnd(0, 16)));
                    p.Add(u);
                    break;
                }
                }
            }
            f.Inject(1, p);
            Simulator::Schedule(MilliSeconds(1), inject);
        };
        Simulator::Schedule(MilliSeconds(30), inject);
        Simulator::Stop(Seconds(120));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(injected, 3000u, "all injected and survived");
        NS_TEST_EXPECT_MSG_LT(int(f.client->GetState()), 8, "a valid state");
        NS_TEST_EXPECT_MSG_GT(aliveAt1500, 0u, "the association survived the first half");
        std::cout << "fuzz: client " << SctpStateName(f.client->GetState()) << ", server "
                  << SctpStateName(f.server->GetState()) << ", server received " << f.serverLog.received.size()
                  << " messages" << std::endl;
    }
};

class SctpRobustnessTestSuite : public TestSuite
{
  public:
    SctpRobustnessTestSuite()
        : TestSuite("iwarp-sctp-robustness", UNIT)
    {
        AddTestCase(new SctpDelayedSackTestCase(), TestCase::QUICK);
        AddTestCase(new SctpHeartbeatTestCase(), TestCase::QUICK);
        AddTestCase(new SctpInitRetransmitTestCase(), TestCase::QUICK);
        AddTestCase(new SctpDefencesTestCase(), TestCase::QUICK);
        AddTestCase(new SctpDataErrorsTestCase(), TestCase::QUICK);
        AddTestCase(new SctpChunkFuzzTestCase(), TestCase::QUICK);
    }
};

SctpRobustnessTestSuite g_sctpRobustnessTestSuite;

} // namespace
