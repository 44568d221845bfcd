/*
 * SCTP multihoming (RFC 9260 §5.1.2, §5.4, §6.4, §8.2, §8.3) between two nodes joined by two links
 * (sctp-two-node-fixture.h, dualHomed): the addresses each side lists in INIT / INIT ACK, the primary path
 * and the confirmation of the other, failover after Path.Max.Retrans + 1 timeouts at the times RTO back-off
 * gives, failback once a HEARTBEAT ACK shows the primary alive, every message delivered once across it,
 * heartbeats at HB.interval plus RTO with its jitter, and an association whose every path fails reported
 * lost. Single-homed stays the default (RFC 5043 §7.2).
 */
#include "sctp/sctp-two-node-fixture.h"

#include "common/sha256.h"
#include "sctp/sctp-cookie.h"
#include "sctp/sctp-init-chunk.h"

#include "ns3/test.h"

#include <algorithm>
#include <cmath>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/**
 * Every SctpSocket (client, listener, accepted) with these settings; Config::Reset() in the destructor. SACKs
 * are delayed 10 ms, below RTO.Min (as the scenario loader insists): a SACK held back longer than the RTO
 * would time out a working path.
 */
struct MultihomedDefaults
{
    MultihomedDefaults(bool multihoming, Time rtoMin, Time rtoMax, uint32_t pathMaxRetrans, Time hbInterval)
    {
        Config::SetDefault("ns3::SctpSocket::Multihoming", BooleanValue(multihoming));
        Config::SetDefault("ns3::SctpSocket::RtoInitial", TimeValue(rtoMin));
        Config::SetDefault("ns3::SctpSocket::RtoMin", TimeValue(rtoMin));
        Config::SetDefault("ns3::SctpSocket::RtoMax", TimeValue(rtoMax));
        Config::SetDefault("ns3::SctpSocket::PathMaxRetrans", UintegerValue(pathMaxRetrans));
        Config::SetDefault("ns3::SctpSocket::HbInterval", TimeValue(hbInterval));
        Config::SetDefault("ns3::SctpSocket::SackDelay", TimeValue(MilliSeconds(10)));
    }

    ~MultihomedDefaults() { Config::Reset(); }
};

SctpTwoNodeFixture::Options
DualHomed()
{
    SctpTwoNodeFixture::Options o;
    o.rate = "100Mbps";
    o.delay = "1ms";
    o.dualHomed = true;
    return o;
}

/** Addresses listed in the INIT (or INIT ACK) a node sent, from its ChunkTx trace. */
void
RecordInitAddresses(std::vector<Ipv4Address>* out, const SctpChunk& c)
{
    if (const auto* init = dynamic_cast<const SctpInitChunk*>(&c))
    {
        *out = init->GetIpv4Addresses();
    }
}

struct PathEvents
{
    std::vector<std::pair<Time, Ipv4Address>> dataPath; ///< (when, to)
    std::vector<std::pair<Time, bool>> state;            ///< (when, active) of any path
    std::vector<std::pair<Time, Ipv4Address>> heartbeats;
    std::vector<Time> t3;                                ///< T3-rtx expiries (any path)
};

void
Watch(Ptr<SctpSocket> s, PathEvents* ev)
{
    s->TraceConnectWithoutContext(
        "DataPath",
        MakeBoundCallback(+[](PathEvents* e, Ipv4Address, Ipv4Address to) {
            e->dataPath.emplace_back(Simulator::Now(), to);
        }, ev));
    s->TraceConnectWithoutContext(
        "PathState",
        MakeBoundCallback(+[](PathEvents* e, Ipv4Address, bool active) {
            e->state.emplace_back(Simulator::Now(), active);
        }, ev));
    s->TraceConnectWithoutContext(
        "Heartbeat",
        MakeBoundCallback(+[](PathEvents* e, Ipv4Address a) { e->heartbeats.emplace_back(Simulator::Now(), a); },
                          ev));
    s->TraceConnectWithoutContext(
        "RetransmissionTimeout",
        MakeBoundCallback(+[](PathEvents* e, Time) { e->t3.push_back(Simulator::Now()); }, ev));
}

// ------------------------------------------------------------------------------------------- addresses

class SctpMultihomedAddressesTestCase : public TestCase
{
  public:
    SctpMultihomedAddressesTestCase()
        : TestCase("INIT and INIT ACK list both addresses; the primary is the address connected to, the "
                   "other is confirmed by a HEARTBEAT; off (the default) one path and no address listed")
    {
    }

  private:
    void DoRun() override
    {
        for (bool multihoming : {true, false})
        {
            MultihomedDefaults d(multihoming, MilliSeconds(200), Seconds(2), 2, Seconds(30));
            SctpTwoNodeFixture f(DualHomed());
            std::vector<Ipv4Address> initAddrs, initAckAddrs;
            f.Start([&](Ptr<SctpSocket> c) {
                c->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&RecordInitAddresses, &initAddrs));
            });
            f.listener->TraceConnectWithoutContext("ChunkTx",
                                                   MakeBoundCallback(&RecordInitAddresses, &initAckAddrs));
            // Before RTO.Initial (200 ms): the alternate is probed at once on ESTABLISHED (§5.4), not an RTO on.
            Simulator::Stop(MilliSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(f.clientLog.connected, 1u, "connected");
            const size_t paths = multihoming ? 2 : 1;
            const size_t listed = paths == 2 ? 2 : 0;
            NS_TEST_EXPECT_MSG_EQ(initAddrs.size(), listed, "addresses in the INIT");
            NS_TEST_EXPECT_MSG_EQ(initAckAddrs.size(), listed, "addresses in the INIT ACK");
            NS_TEST_ASSERT_MSG_EQ(f.client->GetPathCount(), paths, "client paths");
            NS_TEST_ASSERT_MSG_EQ(f.server->GetPathCount(), paths, "server paths");
            if (f.client->GetPathCount() != paths || f.server->GetPathCount() != paths)
            {
                return;
            }
            SctpPathInfo c0 = f.client->GetPathInfo(0);
            NS_TEST_EXPECT_MSG_EQ(c0.address, f.Addr(1), "client's primary: the address connected to");
            NS_TEST_EXPECT_MSG_EQ((c0.primary && c0.dataPath && c0.active && c0.confirmed), true, "primary");
            NS_TEST_EXPECT_MSG_EQ(f.server->GetPathInfo(0).address, f.Addr(0), "server's primary: INIT source");
            if (paths == 2)
            {
                SctpPathInfo c1 = f.client->GetPathInfo(1);
                NS_TEST_EXPECT_MSG_EQ(c1.address, f.Addr2(1), "client's alternate");
                NS_TEST_EXPECT_MSG_EQ(c1.source, f.Addr2(0), "sent from the address on that link");
                NS_TEST_EXPECT_MSG_EQ((c1.confirmed && c1.active && !c1.dataPath), true, "confirmed, idle");
                NS_TEST_EXPECT_MSG_EQ(c1.counters.heartbeatAcks, 1u, "one HEARTBEAT confirmed it");
                NS_TEST_EXPECT_MSG_EQ(f.server->GetPathInfo(1).address, f.Addr2(0), "server's alternate");
                NS_TEST_EXPECT_MSG_EQ(f.server->GetPathInfo(1).confirmed, true, "server's alternate confirmed");
            }
        }
    }
};

class SctpCookieAddressesTestCase : public TestCase
{
  public:
    SctpCookieAddressesTestCase()
        : TestCase("the State Cookie carries the INIT's addresses; a cookie cut short is malformed")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> secret(32, 7);
        SctpCookie c;
        c.peerAddress = Ipv4Address("10.1.1.1");
        c.otherPeerAddresses = {Ipv4Address("10.1.1.1"), Ipv4Address("10.1.2.1")};
        std::vector<uint8_t> bytes = c.Encode(secret);
        NS_TEST_EXPECT_MSG_EQ(bytes.size(), SctpCookie::kFixedLen + 8 + SctpCookie::kMacLen, "length");
        SctpCookie out;
        NS_TEST_ASSERT_MSG_EQ(int(SctpCookie::Decode(bytes, secret, Seconds(1), &out, nullptr)),
                              int(SctpCookie::Check::Ok),
                              "decodes");
        NS_TEST_EXPECT_MSG_EQ(out.otherPeerAddresses.size(), 2u, "two addresses");
        NS_TEST_EXPECT_MSG_EQ(out.otherPeerAddresses.at(1), Ipv4Address("10.1.2.1"), "second address");
        // A single-homed peer's cookie is as long as before multihoming: no count, no addresses.
        SctpCookie single;
        std::vector<uint8_t> plain = single.Encode(secret);
        NS_TEST_EXPECT_MSG_EQ(plain.size(), SctpCookie::kFixedLen - 4 + SctpCookie::kMacLen, "no address tail");
        NS_TEST_EXPECT_MSG_EQ(int(SctpCookie::Decode(plain, secret, Seconds(1), &out, nullptr)),
                              int(SctpCookie::Check::Ok),
                              "decodes");
        NS_TEST_EXPECT_MSG_EQ(out.otherPeerAddresses.empty(), true, "and lists none");
        std::vector<uint8_t> ragged(bytes.begin() + 2, bytes.end());
        NS_TEST_EXPECT_MSG_EQ(int(SctpCookie::Decode(ragged, secret, Seconds(1), &out, nullptr)),
                              int(SctpCookie::Check::Malformed),
                              "not a whole number of addresses");
        // Authentic (MAC made with the secret) but counting three addresses where two follow.
        std::vector<uint8_t> body(bytes.begin(), bytes.end() - SctpCookie::kMacLen);
        body[SctpCookie::kFixedLen - 4] = 3;
        Sha256Digest mac = HmacSha256(secret.data(), secret.size(), body.data(), body.size());
        body.insert(body.end(), mac.begin(), mac.end());
        NS_TEST_EXPECT_MSG_EQ(int(SctpCookie::Decode(body, secret, Seconds(1), &out, nullptr)),
                              int(SctpCookie::Check::Malformed),
                              "an address short");
    }
};

// ------------------------------------------------------------------------------------------- failover

/**
 * The primary link is cut at 300 ms while the client sends; back at `upAt` (zero: never). Path.Max.Retrans 2,
 * RTO.Min 100 ms, RTO.Max 1.6 s, HB.interval 500 ms. Cut one way (client to server), the SACKs of what
 * crossed before the cut still arrive, so no chunk sent there is acknowledged after the cut and the
 * primary's timeouts run undisturbed; cut both ways, those SACKs are lost and the chunks are acknowledged
 * later through the alternate, which clears the primary's error count (§8.2) once more.
 */
/** A packet with DATA sent to `to`: when (R1 of §6.3.2 starts that address's T3-rtx then if it is not running). */
void
NoteDataTo(std::vector<Time>* out, Ipv4Address to, Ptr<const Packet> p, Ipv4Address, Ipv4Address dst)
{
    SctpPacket pkt;
    if (dst != to || SctpPacket::Parse(p, &pkt) != SctpParseError::None)
    {
        return;
    }
    for (const auto& c : pkt.chunks)
    {
        if (c->GetType() == uint8_t(SctpChunkType::Data))
        {
            out->push_back(Simulator::Now());
            return;
        }
    }
}

struct FailoverRun
{
    static constexpr uint32_t kPathMaxRetrans = 2;

    explicit FailoverRun(Time upAt, uint32_t messages, bool bothWays)
        : defaults(true, MilliSeconds(100), MilliSeconds(1600), kPathMaxRetrans, MilliSeconds(500)),
          f(DualHomed())
    {
        f.Start();
        Watch(f.client, &client);
        f.L4(0)->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(&NoteDataTo, &dataToPrimary, f.Addr(1)));
        f.QueueMessages(true, messages, 3000, 4, 29);
        f.CutLink(0, cutAt, upAt, bothWays);
        Simulator::Schedule(cutAt, [this]() { rtoAtCut = f.client->GetPathInfo(0).rto; });
    }

    Time cutAt{MilliSeconds(300)};
    Time rtoAtCut;
    MultihomedDefaults defaults;
    SctpTwoNodeFixture f;
    PathEvents client;
    std::vector<Time> dataToPrimary; ///< when the client sent a packet with DATA to the server's primary address
};

class SctpFailoverTimingTestCase : public TestCase
{
  public:
    SctpFailoverTimingTestCase()
        : TestCase("failover after Path.Max.Retrans + 1 T3-rtx expiries, each RTO double the last; every "
                   "message delivered once and intact")
    {
    }

  private:
    void DoRun() override
    {
        FailoverRun r(Time(0), 6000, false);
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        const PathEvents& ev = r.client;
        NS_TEST_ASSERT_MSG_EQ(ev.dataPath.size(), 1u, "one failover, no failback (the link stays down)");
        if (ev.dataPath.size() != 1)
        {
            return; // the test runner goes on after a failed assertion
        }
        NS_TEST_EXPECT_MSG_EQ(ev.dataPath[0].second, r.f.Addr2(1), "to the alternate");
        const uint32_t needed = FailoverRun::kPathMaxRetrans + 1;
        std::vector<Time> before;
        for (Time t : ev.t3)
        {
            if (t <= ev.dataPath[0].first)
            {
                before.push_back(t);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(before.size(), needed, "T3-rtx expiries up to the failover");
        if (before.size() != needed)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(before.back(), ev.dataPath[0].first, "failover at the last of them");
        // The first expiry comes one RTO after the timer last restarted: at the SACK of the last chunk that
        // crossed before the cut, at most a SACK delay (10 ms), a round trip (2 ms) and a packet's time after
        // it. Each next one an RTO, doubled each time up to RTO.Max (§6.3.3 E2), after the first DATA sent to
        // the primary after the one before: its retransmissions went to the alternate (§6.4.1), so the
        // primary's timer restarts with the next new DATA sent there (R1), not at the expiry.
        const Time lastSackBound = MilliSeconds(10) + MilliSeconds(2) + MilliSeconds(1);
        NS_TEST_EXPECT_MSG_EQ((before[0] > r.cutAt + r.rtoAtCut && before[0] <= r.cutAt + r.rtoAtCut + lastSackBound),
                              true,
                              "first expiry at " << before[0].As(Time::MS));
        Time rto = r.rtoAtCut;
        for (size_t k = 1; k < before.size(); ++k)
        {
            rto = std::min(rto * 2, MilliSeconds(1600));
            auto next = std::lower_bound(r.dataToPrimary.begin(), r.dataToPrimary.end(), before[k - 1]);
            NS_TEST_ASSERT_MSG_EQ((next != r.dataToPrimary.end()), true, "DATA to the primary after expiry " << k);
            if (next == r.dataToPrimary.end())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ(before[k] - *next, rto, "RTO back-off between expiries " << k);
            NS_TEST_EXPECT_MSG_LT(*next - before[k - 1], MilliSeconds(20), "the primary was tried again soon");
        }
        SctpPathInfo p0 = r.f.client->GetPathInfo(0);
        SctpPathInfo p1 = r.f.client->GetPathInfo(1);
        NS_TEST_EXPECT_MSG_EQ((!p0.active && p1.active && p1.dataPath), true, "primary inactive, alternate used");
        NS_TEST_EXPECT_MSG_GT(p1.counters.retransmissions, 0u, "retransmissions went to the alternate");
        NS_TEST_EXPECT_MSG_EQ(p0.counters.timeouts, uint64_t(needed), "timeouts counted on the primary");
        NS_TEST_EXPECT_MSG_EQ(r.f.clientLog.errorClose, 0u, "the association survives");
        NS_TEST_EXPECT_MSG_EQ(r.f.AllDelivered(true), true, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(r.f.CheckDelivery(true), "", "once, intact, in order");
    }
};

class SctpFailbackTestCase : public TestCase
{
  public:
    SctpFailbackTestCase()
        : TestCase("back to the primary once a HEARTBEAT ACK shows it alive; nothing lost or duplicated")
    {
    }

  private:
    void DoRun() override
    {
        const Time upAt = Seconds(4);
        FailoverRun r(upAt, 40000, true);
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        const PathEvents& ev = r.client;
        NS_TEST_ASSERT_MSG_EQ(ev.dataPath.size(), 2u, "failover and failback");
        if (ev.dataPath.size() != 2)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(ev.dataPath[1].second, r.f.Addr(1), "back to the primary");
        // The primary is heartbeated while inactive, every HB.interval + RTO (+/- half an RTO, RTO at most
        // RTO.Max): the first HEARTBEAT after the link is back brings it back within that, plus a round trip.
        const Time bound = MilliSeconds(500) + MilliSeconds(1600) * 3 / 2 + MilliSeconds(10);
        NS_TEST_EXPECT_MSG_EQ((ev.dataPath[1].first > upAt && ev.dataPath[1].first <= upAt + bound),
                              true,
                              "failback at " << ev.dataPath[1].first.As(Time::MS));
        SctpPathInfo p0 = r.f.client->GetPathInfo(0);
        NS_TEST_EXPECT_MSG_EQ((p0.active && p0.dataPath && p0.errorCount == 0), true, "primary again");
        NS_TEST_EXPECT_MSG_GT(p0.counters.heartbeatAcks, 0u, "a HEARTBEAT ACK on the primary");
        NS_TEST_EXPECT_MSG_EQ(r.f.AllDelivered(true), true, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(r.f.CheckDelivery(true), "", "once, intact, in order");
    }
};

class SctpAllPathsFailTestCase : public TestCase
{
  public:
    SctpAllPathsFailTestCase()
        : TestCase("both links cut: the association is reported lost (error close) after "
                   "min(Association.Max.Retrans, paths x Path.Max.Retrans) + 1 timeouts, not left to stall")
    {
    }

  private:
    void DoRun() override
    {
        MultihomedDefaults d(true, MilliSeconds(100), MilliSeconds(400), 2, MilliSeconds(500));
        SctpTwoNodeFixture f(DualHomed());
        f.Start();
        f.QueueMessages(true, 6000, 3000, 2, 5);
        f.CutLink(0, MilliSeconds(200), Time(0));
        f.CutLink(1, MilliSeconds(200), Time(0));
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.errorClose, 1u, "the client learns the association is gone");
        NS_TEST_EXPECT_MSG_EQ(int(f.client->GetState()), int(SctpState::Closed), "closed");
        NS_TEST_EXPECT_MSG_EQ(f.AllDelivered(true), false, "not everything could be delivered");
        // Limit min(10, 2 x 2) = 4: the fifth timeout (T3 or unanswered HEARTBEAT) ends it; each path
        // counts its own, so both are inactive by then or one is past Path.Max.Retrans.
        uint32_t timeouts = 0;
        for (size_t p = 0; p < f.client->GetPathCount(); ++p)
        {
            timeouts += f.client->GetPathInfo(p).errorCount;
        }
        NS_TEST_EXPECT_MSG_EQ(timeouts, 5u, "errors counted on the paths");
    }
};

// ------------------------------------------------------------------------------------------- heartbeats

class SctpHeartbeatTimingTestCase : public TestCase
{
  public:
    SctpHeartbeatTimingTestCase()
        : TestCase("an idle path is heartbeated every HB.interval + RTO, jittered by up to half an RTO either way (§8.3)")
    {
    }

  private:
    void DoRun() override
    {
        MultihomedDefaults d(true, MilliSeconds(100), Seconds(1), 5, MilliSeconds(300));
        SctpTwoNodeFixture f(DualHomed());
        f.Start();
        PathEvents ev;
        Simulator::Schedule(MilliSeconds(500), [&]() { Watch(f.client, &ev); });
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        const Time rto = MilliSeconds(100); // RTO.Min: a 2 ms round trip measures far below it
        for (uint32_t p = 0; p < 2; ++p)
        {
            Ipv4Address a = f.client->GetPathInfo(p).address;
            NS_TEST_EXPECT_MSG_EQ(f.client->GetPathInfo(p).rto, rto, "RTO of path " << p);
            std::vector<Time> at;
            for (const auto& [t, to] : ev.heartbeats)
            {
                if (to == a)
                {
                    at.push_back(t);
                }
            }
            NS_TEST_ASSERT_MSG_GT(at.size(), 100u, "heartbeats to path " << p);
            if (at.size() < 2)
            {
                return;
            }
            double sum = 0;
            double sumSq = 0;
            for (size_t k = 1; k < at.size(); ++k)
            {
                Time gap = at[k] - at[k - 1];
                NS_TEST_EXPECT_MSG_EQ((gap >= MilliSeconds(300) + rto / 2 && gap < MilliSeconds(300) + rto * 3 / 2),
                                      true,
                                      "gap " << gap.As(Time::MS));
                sum += gap.GetSeconds();
                sumSq += gap.GetSeconds() * gap.GetSeconds();
            }
            const double n = double(at.size() - 1);
            const double mean = sum / n;
            const double sd = std::sqrt(std::max(0.0, sumSq / n - mean * mean));
            // Uniform jitter over one RTO: mean HB.interval + RTO, standard deviation RTO / sqrt(12).
            NS_TEST_EXPECT_MSG_EQ_TOL(mean, 0.4, 4 * 0.1 / std::sqrt(12.0 * n), "mean gap");
            NS_TEST_EXPECT_MSG_EQ_TOL(sd, 0.1 / std::sqrt(12.0), 0.01, "jitter's spread");
        }
        NS_TEST_EXPECT_MSG_EQ(f.clientLog.errorClose, 0u, "answered heartbeats keep it alive");
    }
};

class SctpMultihomingTestSuite : public TestSuite
{
  public:
    SctpMultihomingTestSuite()
        : TestSuite("iwarp-sctp-multihoming", UNIT)
    {
        AddTestCase(new SctpMultihomedAddressesTestCase, TestCase::QUICK);
        AddTestCase(new SctpCookieAddressesTestCase, TestCase::QUICK);
        AddTestCase(new SctpFailoverTimingTestCase, TestCase::QUICK);
        AddTestCase(new SctpFailbackTestCase, TestCase::QUICK);
        AddTestCase(new SctpAllPathsFailTestCase, TestCase::QUICK);
        AddTestCase(new SctpHeartbeatTimingTestCase, TestCase::QUICK);
    }
};

SctpMultihomingTestSuite g_sctpMultihomingTestSuite;

} // namespace
