/*
 * iwarp-sctp-ddp-session: doc/conformance.md §4.3 S-01 .. S-08 (association set-up, the adaptation indication, chunk
 * format and DDP-SSN, the session-control sequences of RFC 5043 §6) over two ns-3 nodes.
 */
#include "sctp-ddp/sctp-ddp-fixture.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::iwarptest;
using sctpddp::Function;

namespace
{

std::vector<uint8_t>
Bytes(std::initializer_list<uint8_t> l)
{
    return std::vector<uint8_t>(l);
}

bool
HasPpid(const std::vector<DdpDataRecord>& v, uint32_t a, uint32_t b)
{
    for (const auto& r : v)
    {
        if (r.ppid == a || r.ppid == b)
        {
            return true;
        }
    }
    return false;
}

/** S-01: INIT and INIT ACK carry C0 06 00 08 00 00 00 01 and OS = MIS; a session opens (SCTP-002, 012). */
class S01Indication : public TestCase
{
  public:
    S01Indication() : TestCase("S-01 DDP endpoint puts the DDP adaptation indication in INIT and INIT ACK, OS = MIS") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture f({});
        f.Start();
        f.Run(Seconds(0.2));
        NS_TEST_ASSERT_MSG_EQ((f.client.initTx.size() >= 1 && !f.client.initTx[0]->IsAck()), true, "client INIT");
        NS_TEST_ASSERT_MSG_EQ((f.server.initTx.size() >= 1 && f.server.initTx[0]->IsAck()), true, "server INIT ACK");
        for (auto* side : {&f.client, &f.server})
        {
            auto a = side->initTx[0]->GetAdaptationIndication();
            NS_TEST_ASSERT_MSG_EQ((a.has_value()), true, "indication present");
            NS_TEST_ASSERT_MSG_EQ((*a), 1u, "DDP code point 0x00000001");
            NS_TEST_ASSERT_MSG_EQ((side->initTx[0]->GetOutboundStreams()), side->initTx[0]->GetInboundStreams(),
                                  "OS = MIS");
            Buffer buf;
            buf.AddAtStart(side->initTx[0]->GetSerializedSize());
            side->initTx[0]->Serialize(buf.Begin());
            std::vector<uint8_t> w(buf.GetSize());
            buf.CopyData(w.data(), w.size());
            const auto needle = Bytes({0xC0, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01});
            NS_TEST_ASSERT_MSG_EQ((std::search(w.begin(), w.end(), needle.begin(), needle.end()) != w.end()), true,
                                  "wire bytes C0 06 00 08 00 00 00 01");
        }
        NS_TEST_ASSERT_MSG_EQ((f.client.attachOk && f.server.attachOk), true, "both ends accept the association");
        DdpStack* s = f.Open(1, {});
        NS_TEST_ASSERT_MSG_NE((s), nullptr, "a session can be opened");
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ((s->conn->GetState()), SctpDdpConnection::ESTABLISHED, "session up (active)");
        NS_TEST_ASSERT_MSG_EQ((f.server.stacks.size()), 1u, "session up (passive)");
        NS_TEST_ASSERT_MSG_EQ((f.server.stacks[0]->conn->GetState()), SctpDdpConnection::ESTABLISHED, "passive");
    }
};

/** S-02 / S-03: a peer without the DDP indication: abort, no PPID 16/17, session requests fail. */
class S02S03NoDdp : public TestCase
{
  public:
    S02S03NoDdp(const char* name, std::optional<uint32_t> code) : TestCase(name), m_code(code) {}

  private:
    void DoRun() override
    {
        for (bool dutActive : {false, true})
        {
            SctpDdpFixture::Options o;
            o.rawAdaptation = m_code;
            (dutActive ? o.serverRaw : o.clientRaw) = true;
            SctpDdpFixture f(o);
            f.Start();
            f.Run(Seconds(0.3));
            DdpEndSide& dut = dutActive ? f.client : f.server;
            NS_TEST_ASSERT_MSG_NE((dut.assoc), nullptr, "the DUT saw the association");
            NS_TEST_ASSERT_MSG_EQ((dut.attachOk), false, "no DDP on it (SCTP-003)");
            NS_TEST_ASSERT_MSG_EQ((dut.assoc->IsDdpEnabled()), false, "not DDP-enabled");
            NS_TEST_ASSERT_MSG_EQ((dut.aborts >= 1), true, "the DUT aborted the association (SCTP-005)");
            NS_TEST_ASSERT_MSG_EQ((dut.assoc->Connect(1, {})), nullptr, "ULP session requests fail");
            f.Run(Seconds(0.6));
            NS_TEST_ASSERT_MSG_EQ((HasPpid(dut.dataTx, 16, 17)), false, "no PPID 16/17 chunk ever sent");
        }
    }
    std::optional<uint32_t> m_code;
};

/** S-04: every DATA chunk U=1 B=E=1, PPID 16/17, DDP-SSN from 0 without gaps per (stream, direction). */
class S04ChunkFormat : public TestCase
{
  public:
    S04ChunkFormat() : TestCase("S-04 every DATA chunk is U=1 B=E=1 PPID 16 or 17 with gap-free DDP-SSN from 0") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.acceptPd = DdpPattern(512, 5);
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* a = f.Open(2, DdpPattern(512, 1));
        NS_TEST_ASSERT_MSG_NE((a), nullptr, "open");
        f.Run(Seconds(0.3));
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 1u, "Initiate reported");
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates[0].second == DdpPattern(512, 1)), true, "512-octet PD intact");
        NS_TEST_ASSERT_MSG_EQ((a->controls.size()), 1u, "Accept reported");
        NS_TEST_ASSERT_MSG_EQ((a->controls[0].second == DdpPattern(512, 5)), true, "Accept PD intact");
        DdpStack& b = *f.server.stacks[0];
        using namespace MemAccess;
        auto data = DdpPattern(20000, 3);
        auto target = b.memory->Register(b.pd, data.size(), kRemoteWrite | kRemoteRead);
        auto sink = a->memory->Register(a->pd, data.size(), kLocalWrite);
        auto rbuf = ByteBuffer::CreateReal(4096);
        b.rdmap->PostRecv(9, BufferWindow{rbuf, 0, 4096});
        RdmapWorkRequest w;
        w.id = 1;
        w.type = RdmapWrType::Write;
        w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), data.size()));
        w.remoteStag = target->GetStag();
        w.remoteTo = target->GetBaseTo();
        a->rdmap->PostSend(w);
        RdmapWorkRequest s;
        s.id = 2;
        s.type = RdmapWrType::Send;
        s.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), 3000));
        a->rdmap->PostSend(s);
        RdmapWorkRequest r;
        r.id = 3;
        r.type = RdmapWrType::Read;
        r.remoteStag = target->GetStag();
        r.remoteTo = target->GetBaseTo();
        r.readLength = uint32_t(data.size());
        r.localStag = sink->GetStag();
        r.localTo = sink->GetBaseTo();
        a->rdmap->PostSend(r);
        f.Run(Seconds(2));
        NS_TEST_ASSERT_MSG_EQ((std::equal(data.begin(), data.end(), sink->GetBuffer()->Data())), true, "Read");
        for (const DdpEndSide* side : {&f.client, &f.server})
        {
            auto v = f.DataTxOn(*side, 2);
            NS_TEST_ASSERT_MSG_GT((v.size()), 10u, "traffic captured");
            bool sawSegment = false;
            for (size_t i = 0; i < v.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ((v[i].u && v[i].b && v[i].e), true, "U=1 B=1 E=1 (SCTP-039, 042)");
                NS_TEST_ASSERT_MSG_EQ((v[i].ppid == 16 || v[i].ppid == 17), true, "PPID 16 or 17 (SCTP-015)");
                NS_TEST_ASSERT_MSG_EQ((v[i].Ssn()), uint16_t(i), "DDP-SSN 0, 1, 2, ... (SCTP-017, 025, 028)");
                sawSegment |= v[i].ppid == 16;
            }
            NS_TEST_ASSERT_MSG_EQ((v[0].ppid), 17u, "the session opens with a control message");
            NS_TEST_ASSERT_MSG_EQ((sawSegment), true, "segments seen");
        }
    }
};

/**
 * S-05: DUT active on stream 5. The Injector holds back its SACK and its Accept for 2 s, then SACKs (its SACKs
 * get through again; the next retransmission of the Initiate draws one), then Accepts: no PPID 16 chunk before
 * the SACK covering the Initiate's TSN, nor before the Accept (SCTP-036).
 */
class S05Active : public TestCase
{
  public:
    S05Active() : TestCase("S-05 active DUT: Initiate 00 00 00 01 + PD, no PPID 16 before the SACK of it nor the Accept, SSN 1, 2 ...") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.serverRaw = true;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        f.HoldSacks(f.client, true);
        DdpStack* a = f.Open(5, DdpPattern(100, 2));
        NS_TEST_ASSERT_MSG_NE((a), nullptr, "open");
        auto data = DdpPattern(4000, 8);
        RdmapWorkRequest w;
        w.id = 1;
        w.type = RdmapWrType::Write;
        w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), data.size()));
        w.remoteStag = 0x1234;
        a->rdmap->PostSend(w); // queued by DDP until the session is open
        f.Run(Seconds(2.1));
        auto v = f.DataTxOn(f.client, 5);
        NS_TEST_ASSERT_MSG_GT((v.size()), 0u, "the Initiate");
        NS_TEST_ASSERT_MSG_GT((f.GetHeldSackPackets()), 0u, "the Injector's SACKs were held back");
        NS_TEST_ASSERT_MSG_EQ((f.SackCovering(f.client, v[0].tsn).IsNegative()), true, "none got through");
        NS_TEST_ASSERT_MSG_EQ((v.size()), 1u, "only the Initiate went out during the 2 s (SCTP-036)");
        auto expect = Bytes({0, 0, 0, 1});
        auto pd = DdpPattern(100, 2);
        expect.insert(expect.end(), pd.begin(), pd.end());
        NS_TEST_ASSERT_MSG_EQ((v[0].ppid), 17u, "PPID 17");
        NS_TEST_ASSERT_MSG_EQ((v[0].data.size()), 104u, "104 octets");
        NS_TEST_ASSERT_MSG_EQ((v[0].data == expect), true, "00 00 00 01 + PD");
        f.HoldSacks(f.client, false);
        f.Run(Seconds(4));
        const Time sackAt = f.SackCovering(f.client, v[0].tsn);
        NS_TEST_ASSERT_MSG_EQ((sackAt.IsNegative()), false, "the Injector's SACK of the Initiate arrived");
        const Time acceptAt = Simulator::Now();
        f.RawSend(f.server, 5, 17, 0, SctpDdpFixture::Control(Function::Accept, DdpPattern(10, 4)));
        f.Run(Seconds(5));
        NS_TEST_ASSERT_MSG_EQ((a->controls.size()), 1u, "the ULP saw the Accept (SCTP-022)");
        NS_TEST_ASSERT_MSG_EQ((int(a->controls[0].first)), int(Function::Accept), "Accept");
        NS_TEST_ASSERT_MSG_EQ((a->controls[0].second == DdpPattern(10, 4)), true, "with its 10-octet PD");
        v = f.DataTxOn(f.client, 5);
        NS_TEST_ASSERT_MSG_GT((v.size()), 3u, "the Write went out after the Accept");
        for (size_t i = 1; i < v.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((v[i].ppid), 16u, "segments");
            NS_TEST_ASSERT_MSG_EQ((v[i].Ssn()), uint16_t(i), "DDP-SSN 1, 2, ...");
            NS_TEST_ASSERT_MSG_GT((v[i].at), sackAt, "after the SACK of the Initiate");
            NS_TEST_ASSERT_MSG_GT((v[i].at), acceptAt, "after the Accept");
        }
    }
};

/** S-06: passive DUT, Initiate with 512 octets of PD on stream 7, the ULP accepts with none. */
class S06Passive : public TestCase
{
  public:
    S06Passive() : TestCase("S-06 passive DUT: 512-octet PD reported, nothing sent before the ULP decides, Accept 00 00 00 02") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture f(SctpDdpFixture::RawClient());
        f.RawInitiate(7, DdpPattern(512, 6), Seconds(1));
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 1u, "reported to the ULP");
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates[0].second == DdpPattern(512, 6)), true, "exactly the 512 octets");
        NS_TEST_ASSERT_MSG_EQ((f.DataTxOn(f.server, 7).size()), 0u, "nothing on stream 7 before the decision");
        Ptr<SctpDdpConnection> c = f.server.initiates[0].first;
        f.Stack(f.server, c);
        NS_TEST_ASSERT_MSG_EQ((c->Accept({})), true, "accept");
        f.Run(Seconds(1.5));
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx.size()), 1u, "one message back");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].stream), 7u, "on stream 7");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].ppid), 17u, "PPID 17");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].data == Bytes({0, 0, 0, 2})), true, "00 00 00 02");
        NS_TEST_ASSERT_MSG_EQ((c->GetState()), SctpDdpConnection::ESTABLISHED, "established");
    }
};

/** S-07: (a) the ULP rejects with "busy"; (b) the peer rejects the DUT's Initiate. */
class S07Reject : public TestCase
{
  public:
    S07Reject() : TestCase("S-07 Reject only at the ULP's direction, with PD; a received Reject closes the session") {}

  private:
    void DoRun() override
    {
        {
            SctpDdpFixture f(SctpDdpFixture::RawClient());
            f.RawInitiate(3);
            NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 1u, "reported");
            NS_TEST_ASSERT_MSG_EQ((f.client.rawRx.size()), 0u, "no Reject without the ULP (SCTP-032)");
            NS_TEST_ASSERT_MSG_EQ((f.server.initiates[0].first->Reject({'b', 'u', 's', 'y'})), true, "reject");
            f.Run(Seconds(0.6));
            NS_TEST_ASSERT_MSG_EQ((f.client.rawRx.size()), 1u, "one message");
            NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].data == Bytes({0, 0, 0, 3, 0x62, 0x75, 0x73, 0x79})), true,
                                  "00 00 00 03 62 75 73 79");
            NS_TEST_ASSERT_MSG_EQ((HasPpid(f.server.dataTx, 16, 16)), false, "no PPID 16 for the session");
        }
        {
            SctpDdpFixture::Options o;
            o.serverRaw = true;
            SctpDdpFixture f(o);
            f.Start();
            f.Run(Seconds(0.1));
            DdpStack* a = f.Open(4, {});
            RdmapWorkRequest s;
            s.id = 1;
            s.type = RdmapWrType::Send;
            s.source = Create<PacketPayloadSource>(Create<Packet>(100));
            a->rdmap->PostSend(s);
            f.Run(Seconds(0.3));
            f.RawSend(f.server, 4, 17, 0, SctpDdpFixture::Control(Function::Reject, {'n', 'o'}));
            f.Run(Seconds(1));
            NS_TEST_ASSERT_MSG_EQ((a->controls.size()), 1u, "the ULP got the Reject");
            NS_TEST_ASSERT_MSG_EQ((int(a->controls[0].first)), int(Function::Reject), "Reject");
            NS_TEST_ASSERT_MSG_EQ((a->controls[0].second == Bytes({'n', 'o'})), true, "with its PD");
            NS_TEST_ASSERT_MSG_EQ((a->conn->GetState()), SctpDdpConnection::CLOSED, "session closed");
            NS_TEST_ASSERT_MSG_EQ((HasPpid(f.DataTxOn(f.client, 4), 16, 16)), false, "no DDP segment sent");
        }
    }
};

/** S-08: pending-Initiate limit 1, the ULP never answers: the second Initiate gets 00 00 00 04. */
class S08Limit : public TestCase
{
  public:
    S08Limit() : TestCase("S-08 Initiates beyond the pending limit are answered with a Terminate 00 00 00 04") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.clientRaw = true;
        o.autoAccept = false;
        o.maxPendingInitiates = 1;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        f.RawSend(f.client, 1, 17, 0, SctpDdpFixture::Control(Function::Initiate, {}));
        f.Run(Seconds(0.2));
        f.RawSend(f.client, 2, 17, 0, SctpDdpFixture::Control(Function::Initiate, {}));
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 1u, "only stream 1 reported");
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates[0].first->GetStream()), 1u, "stream 1");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx.size()), 1u, "one answer");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].stream), 2u, "on stream 2");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].ppid), 17u, "PPID 17");
        NS_TEST_ASSERT_MSG_EQ((f.client.rawRx[0].data == Bytes({0, 0, 0, 4})), true, "00 00 00 04");
    }
};

/** SCTP-035: closing while the Initiate is out sends the Terminate only after the reply. */
class S05CloseBeforeAccept : public TestCase
{
  public:
    S05CloseBeforeAccept() : TestCase("S-05 (SCTP-035) a Close before the Accept: the Terminate waits for the reply") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.serverRaw = true;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        Ptr<SctpDdpConnection> c = f.client.assoc->Connect(6, {});
        NS_TEST_ASSERT_MSG_NE(c, nullptr, "open");
        c->Close(DdpLowerLayer::CloseMode::Graceful);
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ(f.DataTxOn(f.client, 6).size(), 1u, "only the Initiate so far");
        f.RawSend(f.server, 6, 17, 0, SctpDdpFixture::Control(Function::Accept, {}));
        f.Run(Seconds(0.8));
        auto v = f.DataTxOn(f.client, 6);
        NS_TEST_ASSERT_MSG_EQ(v.size(), 2u, "then the Terminate");
        NS_TEST_ASSERT_MSG_EQ((v[1].data == Bytes({0, 1, 0, 4})), true, "00 01 00 04");
        NS_TEST_ASSERT_MSG_EQ(c->GetState(), SctpDdpConnection::TERMINATED, "terminated");
    }
};

class SctpDdpSessionSuite : public TestSuite
{
  public:
    SctpDdpSessionSuite() : TestSuite("iwarp-sctp-ddp-session", UNIT)
    {
        AddTestCase(new S01Indication, TestCase::QUICK);
        AddTestCase(new S02S03NoDdp("S-02 peer INIT or INIT ACK without an adaptation indication: no DDP, abort",
                                    std::nullopt),
                    TestCase::QUICK);
        AddTestCase(new S02S03NoDdp("S-03 peer indicates 0x00000002: no DDP, abort", 2u), TestCase::QUICK);
        AddTestCase(new S02S03NoDdp("S-03 peer indicates 0x12345678: no DDP, abort", 0x12345678u), TestCase::QUICK);
        AddTestCase(new S04ChunkFormat, TestCase::QUICK);
        AddTestCase(new S05Active, TestCase::QUICK);
        AddTestCase(new S05CloseBeforeAccept, TestCase::QUICK);
        AddTestCase(new S06Passive, TestCase::QUICK);
        AddTestCase(new S07Reject, TestCase::QUICK);
        AddTestCase(new S08Limit, TestCase::QUICK);
    }
};

static SctpDdpSessionSuite g_sctpDdpSessionSuite;

} // namespace
