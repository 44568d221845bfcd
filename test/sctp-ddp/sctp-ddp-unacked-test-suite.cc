/*
 * iwarp-sctp-ddp-unacked: what the RFC 5043 adaptation may hand to SCTP while the peer holds back its SACKs
 * (doc/conformance.md §4.3, the Injector of §4.0 withholding acknowledgements through SctpDdpFixture::HoldSacks):
 *  - S-16(a), SCTP-044: never more than 32767 unacknowledged DATA chunks on a stream; what is over waits with
 *    DDP and goes out, none lost, once SACKs come back;
 *  - S-14(c), SCTP-037: a new session's Initiate on a stream goes out only once every chunk of the stream's
 *    previous session is acknowledged, at DDP-SSN 0.
 * The unacknowledged count is measured outside the model: chunks the adaptation handed to SCTP (its ChunkSent
 * trace) minus those of the stream that a SACK the DUT received (the fixture's sackRx) acknowledges cumulatively.
 */
#include "sctp-ddp/sctp-ddp-fixture.h"

#include "sctp/sctp-tx-queue.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::iwarptest;
using sctpddp::Function;

namespace
{

/** The DUT's unacknowledged DATA chunks on one stream, from its traces, and the largest count seen. */
struct UnackedMeter
{
    const DdpEndSide* dut{nullptr};
    uint16_t stream{0};
    uint32_t handed{0}; ///< handed to SCTP since the meter started
    uint32_t acked{0};  ///< of those, covered by a Cumulative TSN Ack the DUT received
    uint32_t max{0};
    size_t nextTx{0};   ///< first record of dut->dataTx not yet known to be acknowledged
    size_t nextSack{0}; ///< first record of dut->sackRx not yet looked at

    uint32_t Now() const { return handed - acked; }

    /** Counts from now on; everything `side` sent so far must be acknowledged already. */
    void Start(DdpEndSide& side, uint16_t s)
    {
        dut = &side;
        stream = s;
        nextTx = side.dataTx.size();
        nextSack = side.sackRx.size();
        side.assoc->TraceConnectWithoutContext("ChunkSent", MakeBoundCallback(&UnackedMeter::Sent, this));
    }

    /** Takes in the SACKs received since the last look. dataTx is in TSN order (first transmissions). */
    void CatchUp()
    {
        for (; nextSack < dut->sackRx.size(); ++nextSack)
        {
            const uint32_t cum = dut->sackRx[nextSack].second;
            for (; nextTx < dut->dataTx.size() && TsnLe(dut->dataTx[nextTx].tsn, cum); ++nextTx)
            {
                acked += dut->dataTx[nextTx].stream == stream;
            }
        }
    }

    static void Sent(UnackedMeter* m, uint16_t stream, uint32_t, Ptr<const Packet>)
    {
        if (stream == m->stream)
        {
            m->CatchUp();
            ++m->handed;
            m->max = std::max(m->max, m->Now()); // the count only grows here: its maximum over all time
        }
    }
};

class S16aUnackedLimit : public TestCase
{
  public:
    S16aUnackedLimit()
        : TestCase("S-16(a) SCTP-044: 40000 zero-length Sends with SACKs held back, never over 32767 unacked "
                   "chunks on the stream, all delivered after")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t kSends = 40000;
        SctpDdpFixture::Options o = SctpDdpFixture::RawClient();
        o.autoAccept = true;
        SctpDdpFixture f(o);
        f.RawInitiate(1, {}, Seconds(0.6)); // past the Injector's delayed SACK of the Accept
        NS_TEST_ASSERT_MSG_EQ(f.server.stacks.size(), 1u, "the DUT accepted the session");
        DdpStack& dut = *f.server.stacks[0];
        NS_TEST_ASSERT_MSG_EQ(f.server.socket->GetUnackedChunks(1), 0u, "the Accept is acknowledged");
        // Room in SCTP for all of them (20 octets each): only SCTP-044 can hold any back.
        f.server.socket->SetAttribute("SndBufSize", UintegerValue(4 << 20));
        UnackedMeter meter;
        meter.Start(f.server, 1);
        uint32_t limitHits = 0;
        dut.conn->TraceConnectWithoutContext("UnackedLimit",
                                             MakeBoundCallback(+[](uint32_t* n, uint32_t) { ++*n; }, &limitHits));

        f.HoldSacks(f.server, true);
        for (uint32_t i = 0; i < kSends; ++i)
        {
            RdmapWorkRequest s;
            s.id = i;
            s.type = RdmapWrType::Send;
            s.source = Create<PacketPayloadSource>(Create<Packet>(0));
            NS_TEST_ASSERT_MSG_EQ(dut.rdmap->PostSend(s), true, "posted");
        }
        f.Run(Seconds(2.5));
        meter.CatchUp();
        NS_TEST_EXPECT_MSG_GT(f.GetHeldSackPackets(), 0u, "the Injector's SACKs were held back");
        NS_TEST_EXPECT_MSG_EQ(meter.acked, 0u, "nothing acknowledged while held");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(meter.max, sctpddp::kMaxUnackedChunks, "at most 32767 unacked (SCTP-044)");
        NS_TEST_EXPECT_MSG_GT(meter.max, 32000u, "the stream filled up to the limit, not to some other bound");
        NS_TEST_EXPECT_MSG_LT(dut.completions.size(), size_t(kSends), "the rest waits with DDP");
        NS_TEST_EXPECT_MSG_GT(limitHits, 0u, "UnackedLimit traced");

        f.HoldSacks(f.server, false);
        f.Run(Seconds(10));
        meter.CatchUp();
        NS_TEST_EXPECT_MSG_EQ(meter.Now(), 0u, "all acknowledged in the end");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(meter.max, sctpddp::kMaxUnackedChunks, "never over 32767, after either");
        NS_TEST_EXPECT_MSG_EQ(meter.handed, kSends, "every Send handed to SCTP once");
        size_t ok = 0;
        for (const auto& c : dut.completions)
        {
            ok += c.status == WcStatus::Success;
        }
        NS_TEST_EXPECT_MSG_EQ(ok, size_t(kSends), "every Send completed");
        // The Injector got each one: PPID 16, 18-octet untagged segment, DDP-SSN 1 .. 40000 (mod 2^16) once each.
        std::vector<uint8_t> seen(kSends + 1, 0);
        uint32_t got = 0;
        bool shapeOk = true;
        for (const auto& r : f.client.rawRx)
        {
            if (r.stream != 1 || r.ppid != 16)
            {
                continue;
            }
            ++got;
            shapeOk &= r.data.size() == 2 + 18 && r.data[2] == 0x41 && r.data[3] == 0x43;
            // SSN k+1 carries MSN k+1: the 32-bit MSN (octets 12..15 after the SSN) tells the 16-bit SSN's wrap.
            const uint32_t msn = (uint32_t(r.data[12]) << 24) | (r.data[13] << 16) | (r.data[14] << 8) | r.data[15];
            if (msn >= 1 && msn <= kSends && uint16_t(msn) == r.Ssn())
            {
                ++seen[msn];
            }
        }
        NS_TEST_EXPECT_MSG_EQ(got, kSends, "40000 segments at the Injector");
        NS_TEST_EXPECT_MSG_EQ(shapeOk, true, "each an 18-octet zero-length Send (41 43 ...)");
        NS_TEST_EXPECT_MSG_EQ(size_t(std::count(seen.begin() + 1, seen.end(), 1)), size_t(kSends),
                              "MSN 1 .. 40000 each once, at DDP-SSN = MSN (mod 2^16)");
        std::cout << "  S-16(a): max unacked " << meter.max << ", limit hits " << limitHits << ", SACK packets held "
                  << f.GetHeldSackPackets() << std::endl;
    }
};

class S14cNewSessionAfterAck : public TestCase
{
  public:
    S14cNewSessionAfterAck()
        : TestCase("S-14(c) SCTP-037: a new Initiate on the stream only after the old session's last chunk is "
                   "acked, at DDP-SSN 0")
    {
    }

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.serverRaw = true;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* a = f.Open(2, {});
        NS_TEST_ASSERT_MSG_NE(a, nullptr, "open");
        f.Run(Seconds(0.3));
        f.RawSend(f.server, 2, 17, 0, SctpDdpFixture::Control(Function::Accept));
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ(a->conn->GetState(), SctpDdpConnection::ESTABLISHED, "session up");
        // The Injector ends its half first, so the DUT's Terminate is the old session's last chunk.
        f.RawSend(f.server, 2, 17, 1, SctpDdpFixture::Control(Function::Terminate));
        f.Run(Seconds(0.8));
        f.HoldSacks(f.client, true);
        a->rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
        f.Run(Seconds(0.9));
        NS_TEST_ASSERT_MSG_EQ(a->conn->GetState(), SctpDdpConnection::CLOSED, "both sides terminated");
        auto v = f.DataTxOn(f.client, 2);
        NS_TEST_ASSERT_MSG_EQ(v.size(), 2u, "Initiate, Terminate");
        NS_TEST_ASSERT_MSG_EQ((v[1].data == std::vector<uint8_t>{0, 1, 0, 4}), true, "Terminate at SSN 1");
        const uint32_t terminateTsn = v[1].tsn;

        Ptr<SctpDdpConnection> c = f.client.assoc->Connect(2, {7, 7});
        NS_TEST_ASSERT_MSG_NE(c, nullptr, "the ULP may ask at once");
        NS_TEST_EXPECT_MSG_EQ(c->IsInitiateDeferred(), true, "but the Initiate waits");
        f.Run(Seconds(2.5));
        NS_TEST_EXPECT_MSG_EQ(f.DataTxOn(f.client, 2).size(), 2u, "no Initiate while the Terminate is unacked");
        NS_TEST_EXPECT_MSG_EQ(f.SackCovering(f.client, terminateTsn).IsNegative(), true, "(no SACK got through)");
        f.HoldSacks(f.client, false);
        f.Run(Seconds(5));
        const Time ackedAt = f.SackCovering(f.client, terminateTsn);
        NS_TEST_ASSERT_MSG_EQ(ackedAt.IsNegative(), false, "the Terminate was acked once SACKs came back");
        v = f.DataTxOn(f.client, 2);
        NS_TEST_ASSERT_MSG_EQ(v.size(), 3u, "then the new Initiate");
        NS_TEST_EXPECT_MSG_EQ((v[2].ppid == 17 && v[2].data == std::vector<uint8_t>{0, 0, 0, 1, 7, 7}), true,
                              "Initiate 00 00 00 01 + PD at DDP-SSN 0 (SCTP-028)");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(v[2].at, ackedAt, "not before the SACK");
        f.RawSend(f.server, 2, 17, 0, SctpDdpFixture::Control(Function::Accept));
        f.Run(Seconds(5.5));
        NS_TEST_EXPECT_MSG_EQ(c->GetState(), SctpDdpConnection::ESTABLISHED, "the new session opens");
    }
};

class SctpDdpUnackedSuite : public TestSuite
{
  public:
    SctpDdpUnackedSuite()
        : TestSuite("iwarp-sctp-ddp-unacked", UNIT)
    {
        AddTestCase(new S14cNewSessionAfterAck, TestCase::QUICK);
        AddTestCase(new S16aUnackedLimit, TestCase::QUICK);
    }
};

static SctpDdpUnackedSuite g_sctpDdpUnackedSuite;

} // namespace
