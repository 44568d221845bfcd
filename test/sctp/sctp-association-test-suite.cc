/*
 * SCTP associations between two ns-3 nodes (sctp-two-node-fixture.h): the four-way handshake with stream
 * negotiation and the Adaptation Layer Indication, forged / altered / stale State Cookies refused, graceful
 * SHUTDOWN and ABORT, and chunks of unknown type handled by their two high bits (RFC 9260 §3.2).
 */
#include "sctp/sctp-two-node-fixture.h"

#include "sctp/sctp-cookie.h"
#include "sctp/sctp-init-chunk.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

class SctpHandshakeTestCase : public TestCase
{
  public:
    SctpHandshakeTestCase()
        : TestCase("four-way handshake: INIT, INIT ACK, COOKIE ECHO, COOKIE ACK; streams and adaptation")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::SendAdaptationIndication", BooleanValue(true));
        SctpTwoNodeFixture f({});
        f.Start([](Ptr<SctpSocket> c) {
            c->SetAttribute("OutboundStreams", UintegerValue(6));
            c->SetAttribute("MaxInboundStreams", UintegerValue(3));
        });
        Time established;
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.clientLog.connected, 1u, "client connected");
        NS_TEST_ASSERT_MSG_EQ(f.accepted, 1u, "server accepted");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Established), "client ESTABLISHED");
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Established), "server ESTABLISHED");
        const auto& ctx = f.clientLog.chunksTx;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(ctx.size(), 2u, "client chunks");
        NS_TEST_EXPECT_MSG_EQ(unsigned(ctx[0]), unsigned(SctpChunkType::Init), "INIT first");
        NS_TEST_EXPECT_MSG_EQ(unsigned(ctx[1]), unsigned(SctpChunkType::CookieEcho), "then COOKIE ECHO");
        NS_TEST_EXPECT_MSG_EQ(unsigned(f.serverLog.chunksTx.at(0)), unsigned(SctpChunkType::InitAck), "INIT ACK");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountRx(SctpChunkType::CookieAck), 1u, "COOKIE ACK");
        // Client asked OS 6 / MIS 3, server OS 10 / MIS 10.
        NS_TEST_EXPECT_MSG_EQ(f.client->GetOutboundStreams(), 6, "client out = min(6, 10)");
        NS_TEST_EXPECT_MSG_EQ(f.client->GetInboundStreams(), 3, "client in = min(3, 10)");
        NS_TEST_EXPECT_MSG_EQ(f.server->GetOutboundStreams(), 3, "server out = min(10, 3)");
        NS_TEST_EXPECT_MSG_EQ(f.server->GetInboundStreams(), 6, "server in = min(10, 6)");
        NS_TEST_EXPECT_MSG_EQ(f.client->GetPeerAdaptationIndication().value_or(0), kSctpAdaptationDdp, "adapt");
        NS_TEST_EXPECT_MSG_EQ(f.server->GetPeerAdaptationIndication().value_or(0), kSctpAdaptationDdp, "adapt");
        NS_TEST_EXPECT_MSG_EQ(f.client->GetPeerVerificationTag(), f.server->GetLocalVerificationTag(), "tags");
        NS_TEST_EXPECT_MSG_EQ(f.server->GetPeerVerificationTag(), f.client->GetLocalVerificationTag(), "tags");
        NS_TEST_EXPECT_MSG_NE(f.client->GetLocalVerificationTag(), 0u, "tag not zero");
        // A second listener on the same port is refused; once the first closes, the port is free again.
        Ptr<Socket> other = f.L4(1)->CreateSocket();
        NS_TEST_EXPECT_MSG_EQ(other->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000)), 0, "bind shared");
        NS_TEST_EXPECT_MSG_EQ(other->Listen(), -1, "second listener refused");
        NS_TEST_EXPECT_MSG_EQ(int(other->GetErrno()), int(Socket::ERROR_ADDRINUSE), "address in use");
        f.listener->Close();
        Ptr<Socket> third = f.L4(1)->CreateSocket();
        third->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        NS_TEST_EXPECT_MSG_EQ(third->Listen(), 0, "listening again after Close()");
        // A stream beyond the negotiated count is refused locally.
        NS_TEST_EXPECT_MSG_EQ(f.client->SendMsg(Create<Packet>(10), 6, 0, false), -1, "stream 6 of 6");
        Config::Reset();
    }
};

class SctpCookieTestCase : public TestCase
{
  public:
    SctpCookieTestCase()
        : TestCase("forged, altered and stale cookies are refused; an authentic one is accepted")
    {
    }

  private:
    uint32_t m_serverTx{0};

    void CountTx(Ptr<const Packet>, Ipv4Address, Ipv4Address)
    {
        m_serverTx++;
    }

    void DoRun() override
    {
        // Unit level: every single-octet change of a cookie breaks its MAC.
        std::vector<uint8_t> secret(32, 7);
        SctpCookie c;
        c.created = Seconds(1);
        c.myTag = 0x11111111;
        c.peerTag = 0x22222222;
        c.peerAddress = Ipv4Address("10.1.1.1");
        c.peerPort = 40000;
        c.localPort = 5000;
        c.outStreams = c.inStreams = 5;
        std::vector<uint8_t> good = c.Encode(secret);
        SctpCookie out;
        NS_TEST_EXPECT_MSG_EQ(int(SctpCookie::Decode(good, secret, Seconds(2), &out, nullptr)),
                              int(SctpCookie::Check::Ok), "authentic");
        NS_TEST_EXPECT_MSG_EQ(out.peerTag, 0x22222222u, "decoded");
        uint32_t refused = 0;
        for (size_t k = 0; k < good.size(); ++k)
        {
            auto bad = good;
            bad[k] ^= 0x01;
            refused += SctpCookie::Decode(bad, secret, Seconds(2), &out, nullptr) == SctpCookie::Check::BadMac;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, uint32_t(good.size()), "every altered octet detected");
        Time stale;
        NS_TEST_EXPECT_MSG_EQ(int(SctpCookie::Decode(good, secret, Seconds(62), &out, &stale)),
                              int(SctpCookie::Check::Stale), "expired");
        NS_TEST_EXPECT_MSG_EQ(stale, Seconds(1), "staleness");

        // Network level: COOKIE ECHOs injected at the listener from a port with no association.
        SctpTwoNodeFixture f({});
        f.Start();
        f.L4(1)->TraceConnectWithoutContext("Tx", MakeCallback(&SctpCookieTestCase::CountTx, this));
        c.peerAddress = f.Addr(0);
        auto echo = [&](const std::vector<uint8_t>& cookie, uint32_t vtag) {
            SctpPacket p;
            p.header.SetSourcePort(40000);
            p.header.SetDestinationPort(5000);
            p.header.SetVerificationTag(vtag);
            auto ce = std::make_shared<SctpCookieEchoChunk>();
            ce->SetCookie(cookie);
            p.Add(ce);
            f.Inject(1, p);
        };
        std::vector<uint32_t> accepted;
        std::vector<uint32_t> sent;
        auto snapshot = [&]() {
            accepted.push_back(f.accepted);
            sent.push_back(m_serverTx);
        };
        Simulator::Schedule(Seconds(1), [&]() {
            c.created = Simulator::Now();
            snapshot();
            echo(c.Encode(std::vector<uint8_t>(32, 0x42)), c.myTag); // forged: wrong key
            snapshot();
            auto altered = c.Encode(f.L4(1)->GetSecret());
            altered[40] ^= 0x80; // peer a_rwnd changed after the MAC was computed
            echo(altered, c.myTag);
            snapshot();
            SctpCookie old = c;
            old.created = Simulator::Now() - Seconds(120);
            echo(old.Encode(f.L4(1)->GetSecret()), c.myTag); // stale: answered with an ERROR
            snapshot();
            echo(c.Encode(f.L4(1)->GetSecret()), c.myTag); // authentic
            snapshot();
        });
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(accepted.size(), 5u, "ran");
        NS_TEST_EXPECT_MSG_EQ(accepted[0], 1u, "the fixture's own association");
        NS_TEST_EXPECT_MSG_EQ(accepted[1], 1u, "forged cookie refused");
        NS_TEST_EXPECT_MSG_EQ(sent[1], sent[0], "... silently");
        NS_TEST_EXPECT_MSG_EQ(accepted[2], 1u, "altered cookie refused");
        NS_TEST_EXPECT_MSG_EQ(sent[2], sent[1], "... silently");
        NS_TEST_EXPECT_MSG_EQ(accepted[3], 1u, "stale cookie refused");
        NS_TEST_EXPECT_MSG_EQ(sent[3], sent[2] + 1, "... with an ERROR (Stale Cookie)");
        NS_TEST_EXPECT_MSG_EQ(accepted[4], 2u, "authentic cookie accepted");
        NS_TEST_EXPECT_MSG_EQ(sent[4], sent[3] + 1, "... with a COOKIE ACK");
    }
};

class SctpStaleCookieRestartTestCase : public TestCase
{
  public:
    SctpStaleCookieRestartTestCase()
        : TestCase("a cookie that expires in flight: Stale Cookie ERROR, new INIT with a Cookie Preservative")
    {
    }

  private:
    void DoRun() override
    {
        // A 1 ms cookie life on a 10 ms round trip: the first cookie is always stale on arrival.
        SctpTwoNodeFixture f({});
        f.Start();
        f.listener->SetAttribute("ValidCookieLife", TimeValue(MilliSeconds(1)));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountTx(SctpChunkType::Init), 2u, "INIT again after the ERROR");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountRx(SctpChunkType::Error), 1u, "one Stale Cookie ERROR");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.connected, 1u, "connected with the extended cookie life");
        NS_TEST_EXPECT_MSG_EQ(f.accepted, 1u, "accepted once");
    }
};

class SctpShutdownTestCase : public TestCase
{
  public:
    SctpShutdownTestCase()
        : TestCase("Close() delivers everything queued, then SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        f.QueueMessages(true, 30, 3000, 2, 11);
        Simulator::Schedule(MilliSeconds(40), [&]() { f.client->Close(); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", "all data delivered before the shutdown");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountTx(SctpChunkType::Shutdown), 1u, "SHUTDOWN");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.CountTx(SctpChunkType::ShutdownAck), 1u, "SHUTDOWN ACK");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountTx(SctpChunkType::ShutdownComplete), 1u, "SHUTDOWN COMPLETE");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "client CLOSED");
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Closed), "server CLOSED");
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.normalClose, 1u, "client normal close");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.normalClose, 1u, "server normal close");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.errorClose + f.clientLog.errorClose, 0u, "no error close");
        // Sending after Close() is refused.
        NS_TEST_EXPECT_MSG_EQ(f.client->SendMsg(Create<Packet>(10), 0, 0, false), -1, "closed");
    }
};

class SctpShutdownVariantsTestCase : public TestCase
{
  public:
    SctpShutdownVariantsTestCase()
        : TestCase("shutdown from the passive side, from both sides at once, and during a lossy transfer")
    {
    }

  private:
    void DoRun() override
    {
        for (int variant = 0; variant < 3; ++variant)
        {
            SctpTwoNodeFixture::Options o;
            if (variant == 2)
            {
                o.lossRate = 0.05;
                o.lossStream = 5;
            }
            SctpTwoNodeFixture f(o);
            f.Start();
            f.QueueMessages(true, 40, 4000, 2, 30 + variant);
            f.QueueMessages(false, 40, 4000, 2, 40 + variant);
            Simulator::Schedule(MilliSeconds(50), [&]() {
                if (variant != 1)
                {
                    f.server->Close(); // the passive side ends it, with data still queued both ways
                }
                if (variant >= 1)
                {
                    f.client->Close();
                }
            });
            Simulator::Stop(Seconds(60));
            Simulator::Run();
            std::string v = "variant " + std::to_string(variant) + ": ";
            NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(true), "", v << "client data delivered");
            NS_TEST_EXPECT_MSG_EQ(f.CheckDelivery(false), "", v << "server data delivered");
            NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), v << "client CLOSED");
            NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Closed), v << "server CLOSED");
            NS_TEST_EXPECT_MSG_EQ(f.clientLog.normalClose + f.serverLog.normalClose, 2u, v << "normal closes");
            NS_TEST_EXPECT_MSG_EQ(f.clientLog.errorClose + f.serverLog.errorClose, 0u, v << "no error close");
        }
    }
};

class SctpAbortTestCase : public TestCase
{
  public:
    SctpAbortTestCase()
        : TestCase("Abort() sends ABORT with a User-Initiated Abort cause; the peer closes with an error")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        Simulator::Schedule(MilliSeconds(100), [&]() { f.client->Abort(); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.CountTx(SctpChunkType::Abort), 1u, "ABORT sent");
        NS_TEST_ASSERT_MSG_EQ(f.serverLog.errorsRx.size(), 1u, "ABORT received");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.errorsRx[0].HasCause(SctpCauseCode::UserInitiatedAbort), true, "cause");
        NS_TEST_EXPECT_MSG_EQ(f.serverLog.errorClose, 1u, "server error close");
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Closed), "server CLOSED");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "client CLOSED");
        // An ABORT with a wrong tag is ignored: set up again and inject one.
    }
};

class SctpUnknownChunkTestCase : public TestCase
{
  public:
    SctpUnknownChunkTestCase()
        : TestCase("unknown chunk types: 00 stop, 01 stop+report, 10 skip, 11 skip+report")
    {
    }

  private:
    void DoRun() override
    {
        SctpTwoNodeFixture f({});
        f.Start();
        struct Step
        {
            uint8_t type;
            bool delivered;
            bool reported;
        };
        const std::vector<Step> steps = {{0x3F, false, false},
                                         {0x7F, false, true},
                                         {0xBF, true, false},
                                         {0xFF, true, true}};
        std::vector<size_t> received;
        std::vector<uint32_t> errors;
        uint32_t nextTsn = 0;
        for (size_t k = 0; k < steps.size(); ++k)
        {
            Simulator::Schedule(Seconds(1 + k), [&, k]() {
                if (k == 0)
                {
                    nextTsn = f.client->GetNextTsn();
                }
                received.push_back(f.serverLog.received.size());
                errors.push_back(f.serverLog.CountTx(SctpChunkType::Error));
                Address local;
                f.client->GetSockName(local);
                SctpPacket p;
                p.header.SetSourcePort(InetSocketAddress::ConvertFrom(local).GetPort());
                p.header.SetDestinationPort(5000);
                p.header.SetVerificationTag(f.server->GetLocalVerificationTag());
                auto u = std::make_shared<SctpUnknownChunk>(steps[k].type, 0);
                u->SetValue({1, 2, 3, 4});
                p.Add(u);
                auto d = std::make_shared<SctpDataChunk>();
                d->SetTsn(nextTsn);
                d->SetUnordered(true);
                d->SetUserData({0, 0, 0, 0, 9});
                p.Add(d);
                f.Inject(1, p);
                if (steps[k].delivered)
                {
                    nextTsn++;
                }
            });
        }
        Simulator::Schedule(Seconds(1 + steps.size()), [&]() {
            received.push_back(f.serverLog.received.size());
            errors.push_back(f.serverLog.CountTx(SctpChunkType::Error));
        });
        Simulator::Stop(Seconds(2 + steps.size()));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(received.size(), steps.size() + 1, "ran");
        for (size_t k = 0; k < steps.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(received[k + 1] - received[k], (steps[k].delivered ? 1u : 0u),
                                  "DATA behind type " << unsigned(steps[k].type));
            NS_TEST_EXPECT_MSG_EQ(errors[k + 1] - errors[k], (steps[k].reported ? 1u : 0u),
                                  "ERROR for type " << unsigned(steps[k].type));
        }
        // The reports reach the client as Unrecognized Chunk Type causes carrying the chunk.
        uint32_t causes = 0;
        for (const auto& e : f.clientLog.errorsRx)
        {
            for (const auto& c : e.GetCauses())
            {
                causes += c.type == uint16_t(SctpCauseCode::UnrecognizedChunkType) && c.value.size() == 8;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(causes, 2u, "two reports with the 8-octet chunk");
        NS_TEST_EXPECT_MSG_EQ(int(f.server->GetState()), int(SctpState::Established), "still up");
    }
};

class SctpAssociationTestSuite : public TestSuite
{
  public:
    SctpAssociationTestSuite()
        : TestSuite("iwarp-sctp-association", UNIT)
    {
        AddTestCase(new SctpHandshakeTestCase(), TestCase::QUICK);
        AddTestCase(new SctpCookieTestCase(), TestCase::QUICK);
        AddTestCase(new SctpStaleCookieRestartTestCase(), TestCase::QUICK);
        AddTestCase(new SctpShutdownTestCase(), TestCase::QUICK);
        AddTestCase(new SctpShutdownVariantsTestCase(), TestCase::QUICK);
        AddTestCase(new SctpAbortTestCase(), TestCase::QUICK);
        AddTestCase(new SctpUnknownChunkTestCase(), TestCase::QUICK);
    }
};

SctpAssociationTestSuite g_sctpAssociationTestSuite;

} // namespace
