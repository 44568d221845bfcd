/*
 * doc/conformance.md §4.2: the RDMAP conformance cases R-16 ... R-30, each a TestCase named by its id: reserved and
 * mismatched opcodes, Sends and solicited events, Send with Invalidate and its errors, the Terminate a DUT
 * sends and the one it receives, and completion order behind a Read. R-01 ... R-15 (opcodes and versions on
 * the wire, Writes and Reads) are in rdmap-conformance-test-suite.cc.
 */
#include "support/conformance-fixture.h"

#include "ns3/enum.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iostream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using iwarp::ErrorCause;

/** What a parameterised case varies (only the fields it uses are set). */
struct Param
{
    Bytes bad;                         ///< the offending segment
    uint32_t stag{0};                  ///< the STag under test
    std::vector<ErrorCause> accepted;  ///< accepted causes, preferred first
    bool a{false};                     ///< case-specific switches
    bool b{false};
};

/** Common helpers of the R-xx cases. */
class RdmapCase : public ConformanceFixture
{
  public:
    RdmapCase(const std::string& name, Param p = {})
        : ConformanceFixture(name),
          m_p(std::move(p))
    {
    }

  protected:
    /** The offending Send's buffer (0) completes in error, and nothing is delivered. */
    void ExpectRecvFailed()
    {
        const RdmapCompletion* c = RecvCompletion(0);
        NS_TEST_EXPECT_MSG_NE((c ? St(c->status) : std::string("Success")), std::string("Success"),
                              "the buffer used completes with an error");
        for (const auto& r : RecvCompletions())
        {
            NS_TEST_EXPECT_MSG_NE(St(r.status), std::string("Success"), "nothing delivered");
        }
    }

    /** An AMBIG negative case after InjectOffending(bad): one of `accepted`, with MDR=110, plus P. */
    void ExpectTermAmbig(const std::vector<ErrorCause>& accepted, const Bytes& bad)
    {
        const ErrorCause got = ExpectTerminateOneOf(accepted);
        ExpectTerminate(got.layer, got.etype, got.code, true, true, false, &bad, nullptr, &m_before);
        const auto now = SnapshotMemory(); // P1 diagnostic: regions 0-7, then receive buffers
        for (std::size_t i = 0; i < now.size() && i < m_before.size(); ++i)
        {
            if (now[i] != m_before[i])
            {
                std::cout << Id() << ": P1 diagnostic: memory area " << i << " was written" << std::endl;
            }
        }
        ExpectSilentAfterError();
    }

    /** After the Terminate, a new post is refused or flushed, and nothing more is sent. */
    void ExpectPostRefused(uint64_t id)
    {
        const std::size_t sent = Sent().size();
        const std::size_t done = Completions().size();
        const bool accepted = PostSendBytes(id, RdmapWrType::Send, seg::Pattern(10));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), sent, "nothing more goes out after the Terminate");
        if (accepted)
        {
            NS_TEST_ASSERT_MSG_EQ(Completions().size(), done + 1, "an accepted post is flushed");
            NS_TEST_EXPECT_MSG_NE(St(Completions().back().status), std::string("Success"), "flushed in error");
        }
    }

    Param m_p;
    // Scratch state for trace sinks.
    std::vector<uint64_t> m_ids;
    std::vector<Time> m_times;
    uint32_t m_count{0};
    Time m_t;
};

#define RDMAP_CASE(Cls) IWARP_CONFORMANCE_CASE(Cls, RdmapCase)

// ------------------------------------------------------------------

/** m_p.bad draws 0/2/0x06 MDR=110 (m_p.a: 1/2/0x01 also accepted; m_p.b: check the buffer flush). */
RDMAP_CASE(UnexpectedOpcodeCase)
{
    SetUpFixture();
    InjectOffending(m_p.bad);
    std::vector<ErrorCause> ok{ErrorCause{0, 2, 0x06}};
    if (m_p.a)
    {
        ok.push_back(ErrorCause{1, 2, 0x01});
    }
    ExpectTermAmbig(ok, m_p.bad);
    if (m_p.b)
    {
        ExpectRecvFailed(); // "the QN 0 buffer used is flushed with an error"
    }
}

Param
Op(uint8_t opcode, uint32_t qn, const Bytes& payload, bool tagged, bool qnAlt, bool flush)
{
    Param p;
    p.bad = tagged ? seg::Tagged(seg::DdpCtrl(true, true), seg::RdmapCtrl(opcode), kStagA, 0x10000, payload)
                   : seg::Untagged(seg::DdpCtrl(false, true), seg::RdmapCtrl(opcode), 0, qn, 1, 0, payload);
    p.a = qnAlt;
    p.b = flush;
    return p;
}

// ------------------------------------------------------------------

RDMAP_CASE(R18SendSizes)
{
    SetUpFixture();
    const uint32_t len[4] = {4096, 1, 0, 3000};
    const uint32_t cut[4] = {1482, 1482, 1482, 1500}; // the 3000-octet Send in 2 segments
    std::vector<Bytes> data;
    for (uint32_t m = 0; m < 4; ++m)
    {
        data.push_back(seg::Pattern(len[m], uint8_t(0x30 + m)));
        uint32_t mo = 0;
        do
        {
            const uint32_t n = std::min(cut[m], len[m] - mo);
            Inject(seg::Send(m + 1, mo, Sub(data[m], mo, n), mo + n == len[m]));
            mo += n;
        } while (mo < len[m]);
    }
    RunFor();
    ExpectNoError();
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 4u, "4 deliveries");
    for (uint32_t m = 0; m < 4; ++m)
    {
        ExpectDelivered(rc[m], m, data[m], "delivery " + std::to_string(m));
    }
    NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 4u, "4 buffers consumed");
}

// ------------------------------------------------------------------

RDMAP_CASE(R19SolicitedEvent)
{
    SetUpFixture();
    m_cq->TraceConnectWithoutContext(
        "Notify", Callback<void, const RdmapCompletion&>([this](const RdmapCompletion& c) { m_ids.push_back(c.id); }));
    m_cq->RequestNotify(CompletionQueue::SOLICITED_ONLY, true);
    const uint8_t op[3] = {0x3, 0x5, 0x3};
    const uint64_t afterEach[3] = {0, 1, 1};
    for (uint32_t i = 0; i < 3; ++i)
    {
        Inject(seg::Send(i + 1, 0, seg::Pattern(20), true, op[i]));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), i + 1u, "Send " << i << " delivered");
        NS_TEST_EXPECT_MSG_EQ(m_cq->GetNotifications(), afterEach[i], "notifications after Send " << i);
    }
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 3u, "3 completions");
    for (uint32_t i = 0; i < 3; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(rc[i].id, i, "completion order");
        NS_TEST_EXPECT_MSG_EQ(rc[i].solicited, (op[i] == 0x5), "solicited flag of completion " << i);
    }
    NS_TEST_EXPECT_MSG_EQ((m_ids == std::vector<uint64_t>{1}), true, "the one Event is for the Send-SE");
    // Any-completion mode: every completion notifies.
    m_cq->RequestNotify(CompletionQueue::NEXT_COMPLETION, true);
    for (uint32_t i = 0; i < 3; ++i)
    {
        Inject(seg::Send(i + 4, 0, seg::Pattern(20), true, op[i]));
    }
    RunFor();
    NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 6u, "3 more completions");
    NS_TEST_EXPECT_MSG_EQ(m_cq->GetNotifications(), 4u, "each of them notifies");
    NS_TEST_EXPECT_MSG_EQ((m_ids == std::vector<uint64_t>{1, 3, 4, 5}), true, "Events for 3, 4, 5");
    ExpectNoError();
}

// ------------------------------------------------------------------

/** Z invalidated by a Send-Inv, then (m_p.a false) a Write to Z or (true) a Read of Z. */
RDMAP_CASE(R20SendInvalidate)
{
    SetUpFixture();
    const Bytes w1 = seg::Pattern(100, 0x61);
    Inject(seg::Write(kStagZ, 0x60000, w1));
    RunFor();
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagZ, 0x60000, 100) == w1), true, "(1) Write to Z placed");
    const Bytes w2 = seg::Pattern(50, 0x62); // a Write sent just before the Send-Inv is still placed
    Inject(seg::Write(kStagZ, 0x60100, w2));
    Inject(seg::Send(1, 0, seg::Pattern(64), true, 0x4, kStagZ));
    RunFor();
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagZ, 0x60100, 50) == w2), true, "Write before the Send-Inv placed");
    const RdmapCompletion* c = RecvCompletion(0);
    NS_TEST_ASSERT_MSG_NE(c, nullptr, "(2) Send-Inv delivered");
    NS_TEST_EXPECT_MSG_EQ(St(c->status), std::string("Success"), "(2) status");
    NS_TEST_EXPECT_MSG_EQ(c->byteLength, 64u, "(2) length");
    NS_TEST_EXPECT_MSG_EQ(c->invalidated, true, "(2) reports an invalidation");
    NS_TEST_EXPECT_MSG_EQ(c->invalidatedStag, kStagZ, "(2) invalidated STag 0x0000A606");
    NS_TEST_EXPECT_MSG_EQ(Region(kStagZ)->IsValid(), false, "(2) Z is invalid");
    ExpectNoError();
    const Bytes bad = m_p.a ? seg::ReadRequest(1, 0xF00D, 0x5000, 100, kStagZ, 0x60000)
                            : seg::Write(kStagZ, 0x60000, seg::Pattern(100, 0x63));
    const Bytes rr = m_p.a ? Sub(bad, 18, 28) : Bytes{};
    InjectOffending(bad);
    ExpectTerminate(m_p.a ? 0 : 1, 1, 0x00, true, true, m_p.a, &bad, m_p.a ? &rr : nullptr, &m_before);
    NS_TEST_EXPECT_MSG_EQ(SentNonTerminates().size(), 0u, "no Read Response");
    ExpectSilentAfterError();
}

RDMAP_CASE(R21ZeroLengthSendSEInv)
{
    SetUpFixture();
    m_cq->RequestNotify(CompletionQueue::SOLICITED_ONLY, true);
    Inject(seg::Send(1, 0, Bytes{}, true, 0x6, kStagZ));
    RunFor();
    ExpectNoError();
    NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "one buffer used");
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "one completion");
    NS_TEST_EXPECT_MSG_EQ((rc[0].id == 0 && St(rc[0].status) == "Success"), true, "buffer 0, success");
    NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 0u, "length 0");
    NS_TEST_EXPECT_MSG_EQ(rc[0].invalidated, true, "reports an invalidation");
    NS_TEST_EXPECT_MSG_EQ(rc[0].invalidatedStag, kStagZ, "invalidated STag Z");
    NS_TEST_EXPECT_MSG_EQ(m_cq->GetNotifications(), 1u, "an Event is raised");
    const Bytes w = seg::Write(kStagZ, 0x60000, seg::Pattern(100));
    InjectOffending(w);
    ExpectTerminate(1, 1, 0x00, true, true, false, &w, nullptr, &m_before);
    ExpectSilentAfterError();
}

// ------------------------------------------------------------------

/** A Send-Inv naming m_p.stag is refused (m_p.a: A shared by S1 and S2; m_p.b: PdWide policy). */
RDMAP_CASE(InvalidateRefusedCase)
{
    Options o;
    o.shareAAcrossStreams = m_p.a;
    SetUpFixture(o);
    if (m_p.b)
    {
        m_registry->SetAttribute("SharedPolicy", EnumValue(MemoryRegistry::PdWide));
    }
    const Bytes bad = seg::Send(1, 0, seg::Pattern(64), true, 0x4, m_p.stag);
    InjectOffending(bad);
    ExpectTermAmbig(m_p.accepted, bad);
    ExpectRecvFailed(); // the Send completes with an error
    if (Region(m_p.stag))
    {
        NS_TEST_EXPECT_MSG_EQ(Region(m_p.stag)->IsValid(), true, "the STag stays valid for its owner");
    }
    if (m_p.stag == kStagA)
    {
        // A later Write to A from S2 succeeds: A is still valid and associated with S2.
        const TagCheck c = m_registry->Resolve(kStagA, 0x10000, 100, MemAccess::kRemoteWrite,
                                               StreamContext{m_p1->GetId(), kStreamS2}, nullptr);
        NS_TEST_EXPECT_MSG_EQ((c == TagCheck::Ok), true, "a Write to A from S2 still passes");
    }
}

Param
Inv(uint32_t stag, std::vector<ErrorCause> accepted, bool shareA = false, bool pdWide = false)
{
    Param p;
    p.stag = stag;
    p.accepted = std::move(accepted);
    p.a = shareA;
    p.b = pdWide;
    return p;
}

// ------------------------------------------------------------------

RDMAP_CASE(R25ReservedIgnored)
{
    SetUpFixture();
    Fill(kStagA, 0x10000, seg::Pattern(100, 0x25));
    Inject(seg::Untagged(seg::DdpCtrl(false, true), 0x73, 0, 0, 1, 0, seg::Pattern(30))); // (a)
    Inject(seg::Send(2, 0, seg::Pattern(31), true, 0x3, kStagZ));                        // (b)
    Inject(seg::Send(3, 0, seg::Pattern(32), true, 0x5, kStagZ));
    const Bytes rr = Sub(seg::ReadRequest(1, 0xF00D, 0x5000, 100, kStagA, 0x10000), 18, 28);
    Inject(seg::Untagged(seg::DdpCtrl(false, true), seg::RdmapCtrl(0x1), kStagZ, 1, 1, 0, rr)); // (c)
    RunFor();
    ExpectNoError();
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 3u, "the three Sends are delivered");
    for (uint32_t i = 0; i < 3; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(St(rc[i].status), std::string("Success"), "Send " << i);
        NS_TEST_EXPECT_MSG_EQ(rc[i].byteLength, 30u + i, "Send " << i << " length");
        NS_TEST_EXPECT_MSG_EQ(rc[i].invalidated, false, "Send " << i << " invalidates nothing");
    }
    NS_TEST_ASSERT_MSG_EQ(Sent().size(), 1u, "(c) is answered by one Response segment");
    NS_TEST_EXPECT_MSG_EQ(Sent()[0].stag, 0x0000F00Du, "(c) Response STag");
    NS_TEST_EXPECT_MSG_EQ((Sent()[0].Payload() == seg::Pattern(100, 0x25)), true, "(c) Response data");
    NS_TEST_EXPECT_MSG_EQ(Region(kStagZ)->IsValid(), true, "Z is not invalidated");
    const Bytes w = seg::Pattern(100, 0x26);
    Inject(seg::Write(kStagZ, 0x60000, w));
    RunFor();
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagZ, 0x60000, 100) == w), true, "a later Write to Z succeeds");
    ExpectNoError();
}

// ------------------------------------------------------------------

RDMAP_CASE(R26TerminateV5)
{
    SetUpFixture();
    InjectV1ExpectV5();
    ExpectSilentAfterError(); // P5
    // Never a second Terminate, whatever else arrives.
    Inject(seg::Untagged(seg::DdpCtrl(false, true), seg::RdmapCtrl(0x3), 0, 3, 1, 0, seg::Pattern(10)));
    Inject(seg::Write(kStagBAD, 0x10000, seg::Pattern(10)));
    Inject(seg::ReadRequest(1, 0xF00D, 0, 100, kStagBAD, 0));
    RunFor();
    NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 1u, "one Terminate per stream");
    NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == m_before), true, "P1/P5: nothing placed");
    NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedAbortively(), false, "P6: no abortive teardown");
    ExpectPostRefused(9); // RDMAP-053
}

// ------------------------------------------------------------------

class FailingSource : public DdpPayloadSource
{
  public:
    uint64_t GetLength() const override { return 100; }
    Ptr<Packet> Read(uint64_t, uint32_t) override { return nullptr; } // a local DMA error
};

RDMAP_CASE(R27LocalCatastrophic)
{
    SetUpFixture();
    m_dutLlp->SetTxBlocked(true);
    PostSendBytes(1, RdmapWrType::Send, seg::Pattern(50));
    RdmapWorkRequest wr{2, RdmapWrType::Send, Create<FailingSource>()};
    NS_TEST_EXPECT_MSG_EQ(m_rdmap->PostSend(wr), true, "the faulty Send is posted");
    PostSendBytes(3, RdmapWrType::Send, seg::Pattern(60));
    PostSendBytes(4, RdmapWrType::Write, seg::Pattern(70), 0xF00D, 0x100);
    RunFor();
    m_dutLlp->SetTxCredit(100);
    m_dutLlp->SetTxBlocked(false);
    RunFor();

    const auto& s = Sent();
    NS_TEST_ASSERT_MSG_EQ(s.size(), 2u, "Send 1, then the Terminate instead of Send 2; nothing else");
    NS_TEST_EXPECT_MSG_EQ((!s[0].tagged && s[0].msn == 1 && s[0].payloadLength == 50), true, "Send 1");
    const auto terms = SentTerminates();
    NS_TEST_ASSERT_MSG_EQ(terms.size(), 1u, "one Terminate");
    const Captured& t = terms[0];
    NS_TEST_EXPECT_MSG_EQ((t.bytes.size() >= 18 && Sub(t.bytes, 0, 18) == seg::Untagged(0x41, 0x47, 0, 2, 1, 0, {})),
                          true, "P3: Terminate DDP header");
    const Bytes p = t.Payload();
    NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 4u, "Terminate Control");
    NS_TEST_EXPECT_MSG_EQ(unsigned(p[0]), 0x00u, "Layer 0, EType 0 (Local Catastrophic)");
    std::cout << "R-27: Local Catastrophic code 0x" << std::hex << unsigned(p[1]) << std::dec
              << ", Terminate header " << p.size() << " octets" << std::endl;
    const bool zero = std::all_of(p.begin() + 2, p.end(), [](uint8_t x) { return x == 0; });
    NS_TEST_EXPECT_MSG_EQ(zero, true, "MDR=000, no copied headers (or zero-filled ones, A12)");
    ErrorCause c;
    NS_TEST_EXPECT_MSG_EQ(FirstErrorEvent(&c), true, "the ULP is told");
    NS_TEST_EXPECT_MSG_EQ((c.layer == 0 && c.etype == 0), true, "the ULP's error is Local Catastrophic");

    const auto sc = SendCompletions();
    NS_TEST_ASSERT_MSG_EQ(sc.size(), 4u, "all 4 work requests complete");
    for (uint64_t i = 0; i < 4; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(sc[i].id, i + 1, "completion order");
        NS_TEST_EXPECT_MSG_EQ((St(sc[i].status) == "Success"), (i == 0), "completion " << i + 1 << " status");
    }
    ExpectPostRefused(5);
}

// ------------------------------------------------------------------

RDMAP_CASE(R28TerminateReceived)
{
    Options o;
    o.ord = 1;
    SetUpFixture(o);
    PostRead(1, 0x0000C0DE, 0, 100, kStagL1, 0);     // outstanding
    PostRead(2, 0x0000C0DE, 0x100, 100, kStagL1, 0x100); // pending (ORD 1)
    PostSendBytes(3, RdmapWrType::Send, seg::Pattern(10)); // pending behind it
    RunFor();
    NS_TEST_EXPECT_MSG_EQ(Sent().size(), 1u, "one Read Request outstanding");
    // 0/2/0x06, MDR=110, SegLen 0x0012, then a copied 14-octet (Write) header.
    const Bytes term = {0x02, 0x06, 0xC0, 0x00, 0x00, 0x12, 0xC1, 0x40, 0x00, 0x00,
                        0xA1, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00};
    const Bytes copied = Sub(term, 6, 14);
    Inject(seg::Untagged(seg::DdpCtrl(false, true), seg::RdmapCtrl(0x7), 0, 2, 1, 0, term));
    RunFor();

    const auto ev = std::find_if(Events().begin(), Events().end(),
                                 [](const RdmapEventInfo& i) { return i.type == RdmapEvent::TerminateReceived; });
    const RdmapEventInfo* e = ev == Events().end() ? nullptr : &*ev;
    NS_TEST_ASSERT_MSG_NE(e, nullptr, "the Terminate is delivered to the ULP");
    NS_TEST_EXPECT_MSG_EQ(e->terminate.cause.ToString(), ErrorCause({0, 2, 0x06}).ToString(), "L/ET/EC");
    NS_TEST_EXPECT_MSG_EQ((e->terminate.m && e->terminate.d && !e->terminate.r), true, "MDR=110");
    NS_TEST_EXPECT_MSG_EQ(e->terminate.ddpSegLen, 0x12u, "DDP Segment Length");
    NS_TEST_EXPECT_MSG_EQ((e->terminate.ddpHeader == copied), true, "copied DDP header");

    const auto sc = SendCompletions();
    NS_TEST_ASSERT_MSG_EQ(sc.size(), 3u, "every send-queue request completes");
    for (uint64_t i = 0; i < 3; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(sc[i].id, i + 1, "completion order");
        NS_TEST_EXPECT_MSG_NE(St(sc[i].status), std::string("Success"), "request " << i + 1 << " in error");
    }
    const auto rc = RecvCompletions();
    NS_TEST_EXPECT_MSG_EQ(rc.size(), 8u, "every posted receive completes");
    for (const auto& r : rc)
    {
        NS_TEST_EXPECT_MSG_NE(St(r.status), std::string("Success"), "receive " << r.id << " in error");
    }
    NS_TEST_EXPECT_MSG_EQ((Sent().size() >= 1 && !Sent()[0].IsTerminate()), true, "first segment is the Read");
    NS_TEST_EXPECT_MSG_EQ(Sent().size(), 1u, "the pending Read and Send never go out");
    NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedGracefully(), true, "the LLP is closed gracefully");
    ExpectPostRefused(4);
}

// ------------------------------------------------------------------

RDMAP_CASE(R29UpdatedRdmaHeader)
{
    Options o;
    o.mulpdu = 1038; // 1024 octets per tagged segment
    SetUpFixture(o);
    const Bytes src = seg::Pattern(8192, 0x29);
    Fill(kStagA, 0x10000, src);
    // The hook: once the 2nd Response segment has been submitted, revoke A.
    m_dutLlp->TraceConnectWithoutContext(
        "Tx", Callback<void, Ptr<const Packet>, uint64_t>([this](Ptr<const Packet> p, uint64_t) {
            uint8_t b0 = 0;
            if (p->CopyData(&b0, 1) == 1 && (b0 & 0x80) && ++m_count == 2)
            {
                Region(kStagA)->SetValid(false);
            }
        }));
    const Bytes req = seg::ReadRequest(1, 0xF00D, 0x8000, 8192, kStagA, 0x10000);
    Inject(req);
    RunFor();
    const auto resp = SentNonTerminates();
    NS_TEST_EXPECT_MSG_EQ(resp.size(), 2u, "2 Response segments (2048 octets) before the revocation");
    for (std::size_t i = 0; i < std::min<std::size_t>(2, resp.size()); ++i)
    {
        NS_TEST_EXPECT_MSG_EQ((resp[i].to == 0x8000 + 1024 * i && resp[i].payloadLength == 1024 &&
                               resp[i].Payload() == Sub(src, 1024 * i, 1024)),
                              true, "Response segment " << i);
    }
    ExpectTerminateOneOf({ErrorCause{0, 1, 0x00}});
    NS_TEST_ASSERT_MSG_EQ(SentTerminates().size(), 1u, "one Terminate");
    const Bytes p = SentTerminates()[0].Payload();
    NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6u, "Terminate header");
    NS_TEST_EXPECT_MSG_EQ(bool(p[2] & 0x20), true, "R=1");
    const Bytes updated = Sub(seg::ReadRequest(1, 0xF00D, 0x8800, 6144, kStagA, 0x10800), 18, 28);
    ExpectTerminate(0, 1, 0x00, p[2] & 0x80, p[2] & 0x40, true, &req, &updated, nullptr);
}

// ------------------------------------------------------------------

RDMAP_CASE(R30ReadCompletesFirst)
{
    SetUpFixture();
    m_dutLlp->TraceConnectWithoutContext(
        "Tx", Callback<void, Ptr<const Packet>, uint64_t>([this](Ptr<const Packet> p, uint64_t) {
            uint8_t b[2] = {0, 0};
            if (p->CopyData(b, 2) == 2 && b[0] == 0x41 && b[1] == 0x43)
            {
                m_t = Simulator::Now(); // the Send's last segment is handed to the LLP
            }
        }));
    m_rdmap->TraceConnectWithoutContext(
        "Completion", Callback<void, const RdmapCompletion&>([this](const RdmapCompletion&) {
            m_times.push_back(Simulator::Now());
        }));
    PostRead(1, 0x0000C0DE, 0, 100, kStagL1, 0);
    PostSendBytes(2, RdmapWrType::Send, seg::Pattern(100));
    RunFor(MilliSeconds(500)); // the Injector delays the Response by 500 ms
    NS_TEST_EXPECT_MSG_EQ(m_t.IsStrictlyPositive(), true, "the Send's transfer has finished");
    NS_TEST_EXPECT_MSG_EQ(m_times.size(), 0u, "nothing completes while the Read is pending");
    Inject(seg::ReadResponse(kStagL1, 0, seg::Pattern(100, 7), true));
    RunFor();
    const auto sc = SendCompletions();
    NS_TEST_ASSERT_MSG_EQ(sc.size(), 2u, "both complete");
    NS_TEST_EXPECT_MSG_EQ(sc[0].id, 1u, "the Read completes first");
    NS_TEST_EXPECT_MSG_EQ(sc[1].id, 2u, "then the Send");
    NS_TEST_EXPECT_MSG_EQ((St(sc[0].status) == "Success" && St(sc[1].status) == "Success"), true, "statuses");
    NS_TEST_ASSERT_MSG_EQ(m_times.size(), 2u, "two completion traces");
    NS_TEST_EXPECT_MSG_LT(m_t, m_times[0], "the Send was transferred before the Read completed");
    ExpectNoError();
}

class RdmapConformanceSendTerminateSuite : public TestSuite
{
  public:
    RdmapConformanceSendTerminateSuite()
        : TestSuite("iwarp-rdmap-conformance-send-terminate", UNIT)
    {
        const Bytes p100 = seg::Pattern(100);
        const Bytes rr = Sub(seg::ReadRequest(1, 0xF00D, 0x5000, 100, kStagA, 0x10000), 18, 28);
        const ErrorCause e1_9{0, 1, 0x09};
        const ErrorCause e2_9{0, 2, 0x09};
        auto add = [this](TestCase* t) { AddTestCase(t, TestCase::QUICK); };
        add(new UnexpectedOpcodeCase("R-16(a) reserved opcode 0x8 on QN 0 gives TERM 0.2.0x06 MDR=110",
                                     Op(0x8, 0, p100, false, false, true)));
        add(new UnexpectedOpcodeCase("R-16(b) reserved opcode 0xF on QN 0 gives TERM 0.2.0x06 MDR=110",
                                     Op(0xF, 0, p100, false, false, true)));
        add(new UnexpectedOpcodeCase("R-17(a) Write opcode with T=0 on QN 0 gives TERM 0.2.0x06",
                                     Op(0x0, 0, p100, false, false, false)));
        add(new UnexpectedOpcodeCase("R-17(b) Send opcode with T=1 to STag A gives TERM 0.2.0x06",
                                     Op(0x3, 0, p100, true, false, false)));
        add(new UnexpectedOpcodeCase("R-17(c) Send opcode on QN 1 gives TERM 0.2.0x06 or 1.2.0x01",
                                     Op(0x3, 1, Sub(p100, 0, 28), false, true, false)));
        add(new UnexpectedOpcodeCase("R-17(d) Read Request opcode on QN 0 gives TERM 0.2.0x06 or 1.2.0x01",
                                     Op(0x1, 0, rr, false, true, false)));
        add(new R18SendSizes("R-18 Sends of 4096, 1, 0 and 3000 octets use 4 buffers in order"));
        add(new R19SolicitedEvent("R-19 a solicited-only CQ notifies once, after the Send with SE"));
        Param zRead;
        zRead.a = true;
        add(new R20SendInvalidate(
            "R-20(a) Send with Invalidate of Z, then a Write to Z gives TERM 1.1.0x00"));
        add(new R20SendInvalidate("R-20(b) Send with Invalidate of Z, then a Read of Z gives TERM 0.1.0x00 MDR=111",
                                  zRead));
        add(new R21ZeroLengthSendSEInv(
            "R-21 a zero-length Send with SE and Invalidate uses a buffer, invalidates Z, raises an Event"));
        add(new InvalidateRefusedCase("R-22 Send with Invalidate of X gives TERM 0.1.0x09 MDR=110",
                                      Inv(kStagX, {e1_9, e2_9})));
        add(new InvalidateRefusedCase("R-23 Send with Invalidate of BAD gives TERM 0.1.0x00 MDR=110",
                                      Inv(kStagBAD, {ErrorCause{0, 1, 0x00}, e1_9, e2_9})));
        add(new InvalidateRefusedCase("R-24(a) Send with Invalidate of A shared by S1 and S2 is refused",
                                      Inv(kStagA, {e1_9, e2_9}, true, false)));
        add(new InvalidateRefusedCase("R-24(b) PdWide policy refuses invalidating PD-wide A of a 2-stream PD",
                                      Inv(kStagA, {e1_9, e2_9}, false, true)));
        add(new R25ReservedIgnored(
            "R-25 RDMAP Rsv bits and octets 2-5 of Send, Send-SE and Read Request are ignored"));
        add(new R26TerminateV5("R-26 the Terminate for D-13 is V5 byte for byte, once per stream, P1-P6"));
        add(new R27LocalCatastrophic(
            "R-27 a Send that cannot be built is replaced by a Local Catastrophic Terminate, MDR=000"));
        add(new R28TerminateReceived(
            "R-28 a received Terminate is delivered, work completes in error, the LLP closes"));
        add(new R29UpdatedRdmaHeader(
            "R-29 revoking A after 2048 Response octets gives a Terminate with the updated RDMA header"));
        add(new R30ReadCompletesFirst(
            "R-30 a Send posted after a Read completes after it, though its transfer ends first"));
    }
};

RdmapConformanceSendTerminateSuite g_rdmapConformanceSendTerminateSuite;

} // namespace
