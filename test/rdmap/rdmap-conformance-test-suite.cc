/*
 * doc/conformance.md §4.2: the RDMAP conformance cases R-01 ... R-15, each a TestCase named by its id
 * (R-16 ... R-30 are in rdmap-conformance-send-terminate-test-suite.cc).
 */
#include "support/conformance-fixture.h"

#include <iostream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using iwarp::ErrorCause;

/** What a parameterised case varies (only the fields it uses are set). */
struct Param
{
    uint32_t stag{0};
    uint64_t to{0};
    uint32_t size{0};
    uint8_t code{0};
    char which{0};
};

/** Common helpers of the R-xx cases. */
class RdmapCase : public ConformanceFixture
{
  public:
    RdmapCase(const std::string& name, Param p = {})
        : ConformanceFixture(name),
          m_p(p)
    {
    }

  protected:
    /** A Read Request that fails a source check: TERM 0/1/code MDR=111, plus P (R-10..R-14). */
    void RunReadProtection(uint32_t srcStag, uint64_t srcTo, uint32_t size, uint8_t code)
    {
        SetUpFixture();
        const Bytes req = seg::ReadRequest(1, 0x0000F00D, 0x5000, size, srcStag, srcTo);
        const Bytes rr = Sub(req, 18, 28);
        InjectOffending(req);
        ExpectTerminate(0, 1, code, true, true, true, &req, &rr, &m_before);
        NS_TEST_EXPECT_MSG_EQ(SentNonTerminates().size(), 0u, "no Read Response");
        ExpectSilentAfterError();
    }

    Param m_p;
    Bytes m_bytes; // scratch state for trace sinks
};

#define RDMAP_CASE(Cls) IWARP_CONFORMANCE_CASE(Cls, RdmapCase)

// ------------------------------------------------------------------

RDMAP_CASE(R01HeaderOctets)
{
    SetUpFixture();
    PostSendBytes(1, RdmapWrType::Write, seg::Pattern(16), 0x0000F00D, 0x4000);
    PostRead(2, 0x0000C0DE, 0x2000, 100, kStagL1, 0x100);
    PostSendBytes(3, RdmapWrType::Send, seg::Pattern(10));
    PostSendBytes(4, RdmapWrType::SendInv, seg::Pattern(10), 0, 0, 0x11223344);
    PostSendBytes(5, RdmapWrType::SendSE, seg::Pattern(10));
    PostSendBytes(6, RdmapWrType::SendSEInv, seg::Pattern(10), 0, 0, 0x55667788);
    RunFor();
    m_rdmap->Abort(); // forced to Terminate
    RunFor();

    const auto& s = Sent();
    NS_TEST_ASSERT_MSG_EQ(s.size(), 7u, "Write, Read Request, 4 Sends and a Terminate");
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s[i].bytes.size(), 14u, "segment " << i << " has a header");
        // RDMA mode: only well-formed RDMA messages (DV=1, RV=01b, Rsv=0, opcode 0-7).
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0 & 0x3C), 0u, "segment " << i << " DDP Rsvd = 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0 & 0x03), 1u, "segment " << i << " DV = 1");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl1 >> 6), 1u, "segment " << i << " RV = 01b");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl1 & 0x30), 0u, "segment " << i << " Rsv = 0");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(unsigned(s[i].opcode), 7u, "segment " << i << " opcode");
    }
    // Write: C1 40, STag, TO.
    const Bytes w = {0xC1, 0x40, 0x00, 0x00, 0xF0, 0x0D, 0, 0, 0, 0, 0, 0, 0x40, 0x00};
    NS_TEST_EXPECT_MSG_EQ((Sub(s[0].bytes, 0, 14) == w), true, "Write header: " << Hex(s[0].bytes));
    NS_TEST_EXPECT_MSG_EQ((s[0].Payload() == seg::Pattern(16)), true, "Write payload");
    // Read Request: 41 41, QN 1, MSN 1, MO 0 and the 28-octet header.
    const Bytes rr = seg::ReadRequest(1, kStagL1, 0x100, 100, 0x0000C0DE, 0x2000);
    NS_TEST_EXPECT_MSG_EQ((s[1].bytes == rr), true, "Read Request: " << Hex(s[1].bytes));
    // The Send types.
    const uint8_t op[4] = {0x43, 0x44, 0x45, 0x46};
    const uint32_t inv[4] = {0, 0x11223344, 0, 0x55667788};
    for (int i = 0; i < 4; ++i)
    {
        const Captured& c = s[2 + i];
        NS_TEST_EXPECT_MSG_EQ(unsigned(c.ctrl0), 0x41u, "Send type " << i << " octet 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(c.ctrl1), unsigned(op[i]), "Send type " << i << " octet 1");
        NS_TEST_EXPECT_MSG_EQ(c.invStag, inv[i], "Send type " << i << " octets 2-5");
        NS_TEST_EXPECT_MSG_EQ(c.qn, 0u, "Send type " << i << " QN 0");
        NS_TEST_EXPECT_MSG_EQ(c.msn, uint32_t(1 + i), "Send type " << i << " MSN");
        NS_TEST_EXPECT_MSG_EQ(c.mo, 0u, "Send type " << i << " MO");
        NS_TEST_EXPECT_MSG_EQ((c.Payload() == seg::Pattern(10)), true, "Send type " << i << " payload");
    }
    // Terminate: 41 47, octets 2-5 zero, QN 2, MSN 1, MO 0, reserved 13 bits zero.
    const Captured& t = s[6];
    ExpectTerminateSegment(t, "");
    const Bytes p = t.Payload();
    NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 4u, "Terminate Control present");
    NS_TEST_EXPECT_MSG_EQ((seg::Be32(p.data()) & 0x1FFFu), 0u, "Terminate reserved bits");
}

// ------------------------------------------------------------------

RDMAP_CASE(R02WritePlacedNotDelivered)
{
    SetUpFixture();
    const Bytes data = seg::Pattern(3000, 0x21);
    // Two segments, as the row says (the second carries 1514 octets).
    Inject(seg::Write(kStagA, 0x10100, Sub(data, 0, 1486), false));
    Inject(seg::Write(kStagA, 0x10100 + 1486, Sub(data, 1486, 1514), true));
    RunFor();
    Bytes expect(0x10000, 0);
    std::copy(data.begin(), data.end(), expect.begin() + 0x100);
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagA, 0x10000, 0x10000) == expect), true,
                          "data at 0x10100-0x10CB7 and nowhere else in A");
    NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion for a Write");
    NS_TEST_EXPECT_MSG_EQ(UlpEvents(), 0u, "no event for a Write");

    const auto before = SnapshotMemory();
    Inject(seg::Write(kStagA, 0x10000, Bytes{}));
    RunFor();
    NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == before), true, "zero-length Write changes nothing");
    NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion for the zero-length Write");
    NS_TEST_EXPECT_MSG_EQ(UlpEvents(), 0u, "no event for the zero-length Write");
    NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "the DUT sends nothing");
}

// ------------------------------------------------------------------

RDMAP_CASE(R03SendAfterWrite)
{
    SetUpFixture();
    m_rdmap->TraceConnectWithoutContext(
        "Completion", Callback<void, const RdmapCompletion&>([this](const RdmapCompletion& c) {
            if (c.IsRecv())
            {
                m_bytes = ReadRegion(kStagA, 0x10000, 8000); // A as the ULP sees it at the Delivery
            }
        }));
    const Bytes data = seg::Pattern(8000, 3);
    m_inj->SetHold(true);
    for (uint32_t off = 0; off < 8000; off += 1486)
    {
        const uint32_t n = std::min<uint32_t>(1486, 8000 - off);
        Inject(seg::Write(kStagA, 0x10000 + off, Sub(data, off, n), off + n == 8000));
    }
    Inject(seg::Send(1, 0, Ascii("done")));
    NS_TEST_ASSERT_MSG_EQ(m_inj->GetHeldCount(), 7u, "6 Write segments and the Send held");
    m_inj->Release({0, 1, 2, 3, 4, 6}); // the Send before the Write's last segment
    RunFor();
    NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 0u, "Send not delivered before the Write is placed");
    m_inj->ReleaseAll();
    m_inj->SetHold(false);
    RunFor();
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "the Send is delivered once");
    ExpectDelivered(rc[0], 0, Ascii("done"), "the Send");
    NS_TEST_EXPECT_MSG_EQ((m_bytes == data), true, "all 8000 octets visible at delivery");
    ExpectNoError();
}

// ------------------------------------------------------------------

RDMAP_CASE(R04ReadResponder)
{
    SetUpFixture();
    const Bytes src = seg::Pattern(3000, 0x44);
    Fill(kStagA, 0x10000, src);
    NS_TEST_ASSERT_MSG_EQ((seg::ReadRequest(1, 0xF00D, 0x5000, 3000, kStagA, 0x10000) == kV4), true,
                          "builder matches V4");
    Inject(kV4);
    RunFor();
    const auto& s = Sent();
    NS_TEST_ASSERT_MSG_EQ(s.size(), 3u, "3 Response segments");
    const uint64_t to[3] = {0x5000, 0x55CE, 0x5B9C};
    const uint32_t len[3] = {1486, 1486, 28};
    const uint32_t off[3] = {0, 1486, 2972};
    for (int i = 0; i < 3; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0), (i == 2 ? 0xC1u : 0x81u), "segment " << i << " octet 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl1), 0x42u, "segment " << i << " octet 1");
        NS_TEST_EXPECT_MSG_EQ(s[i].stag, 0x0000F00Du, "segment " << i << " STag = SinkSTag");
        NS_TEST_EXPECT_MSG_EQ(s[i].to, to[i], "segment " << i << " TO");
        NS_TEST_EXPECT_MSG_EQ(s[i].payloadLength, len[i], "segment " << i << " length");
        NS_TEST_EXPECT_MSG_EQ((s[i].Payload() == Sub(src, off[i], len[i])), true, "segment " << i << " data");
    }
    NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion at the responder");
    NS_TEST_EXPECT_MSG_EQ(UlpEvents(), 0u, "no ULP event at the responder");
}

// ------------------------------------------------------------------

RDMAP_CASE(R05ReadRequester)
{
    SetUpFixture();
    PostRead(1, 0x0000C0DE, 0, 3000, kStagL1, 0x200);
    RunFor();
    NS_TEST_ASSERT_MSG_EQ(Sent().size(), 1u, "one Read Request");
    const Bytes rr = seg::ReadRequest(1, kStagL1, 0x200, 3000, 0x0000C0DE, 0);
    NS_TEST_EXPECT_MSG_EQ((Sent()[0].bytes == rr), true, "Read Request: " << Hex(Sent()[0].bytes));

    const Bytes data = seg::Pattern(3000, 0x55);
    Inject(seg::ReadResponse(kStagL1, 0x200, Sub(data, 0, 1486), false));
    RunFor(Seconds(1));
    NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion before the L=1 segment");
    Inject(seg::ReadResponse(kStagL1, 0x200 + 1486, Sub(data, 1486, 1514), true));
    RunFor();
    NS_TEST_ASSERT_MSG_EQ(Completions().size(), 1u, "exactly one completion");
    const RdmapCompletion& c = Completions()[0];
    NS_TEST_EXPECT_MSG_EQ(c.id, 1u, "completion id");
    NS_TEST_EXPECT_MSG_EQ(St(c.type), std::string("Read"), "completion type");
    NS_TEST_EXPECT_MSG_EQ(St(c.status), std::string("Success"), "completion status");
    NS_TEST_EXPECT_MSG_EQ(c.byteLength, 3000u, "completion length");
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x200, 3000) == data), true, "data in L1");
    RunFor(Seconds(1));
    NS_TEST_EXPECT_MSG_EQ(Completions().size(), 1u, "still exactly one completion");
    ExpectNoError();
}

// ------------------------------------------------------------------

RDMAP_CASE(R06ZeroLengthRead)
{
    SetUpFixture();
    Inject(seg::ReadRequest(1, 0xF00D, 0x7000, 0, kStagBAD, 0xFFFFFFFFFFFFFFFFull));
    RunFor();
    ExpectNoError();
    NS_TEST_ASSERT_MSG_EQ(Sent().size(), 1u, "one Response segment");
    const Bytes expect = {0xC1, 0x42, 0x00, 0x00, 0xF0, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x00};
    NS_TEST_EXPECT_MSG_EQ((Sent()[0].bytes == expect), true, "Response: " << Hex(Sent()[0].bytes));
}

// ------------------------------------------------------------------

RDMAP_CASE(R07ResponsesInOrder)
{
    SetUpFixture();
    const Bytes src = seg::Pattern(0x10000, 0x17);
    Fill(kStagA, 0x10000, src);
    const uint32_t size[4] = {2000, 10, 5000, 0};
    const uint64_t srcTo[4] = {0x10000, 0x11000, 0x12000, 0x14000};
    for (uint32_t i = 0; i < 4; ++i)
    {
        Inject(seg::ReadRequest(i + 1, 0xF001 + i, 0x1000 * (i + 1), size[i], kStagA, srcTo[i]));
    }
    RunFor();
    ExpectNoError();
    uint32_t current = 0; // index of the Response being sent
    uint64_t got[4] = {0, 0, 0, 0};
    bool ended[4] = {false, false, false, false};
    bool ok = true;
    for (const Captured& c : Sent())
    {
        NS_TEST_ASSERT_MSG_EQ(c.tagged && c.opcode == 0x2, true, "only Read Responses are sent");
        const uint32_t idx = c.stag - 0xF001;
        NS_TEST_ASSERT_MSG_LT(idx, 4u, "a known SinkSTag");
        if (idx != current)
        {
            // A new Response starts only once the current one is complete.
            ok = ok && idx == current + 1 && ended[current];
            current = idx;
        }
        NS_TEST_EXPECT_MSG_EQ(ended[idx], false, "no segment after the L=1 segment of Response " << idx);
        NS_TEST_EXPECT_MSG_EQ(c.to, 0x1000 * (idx + 1) + got[idx], "Response " << idx << " TO contiguous");
        NS_TEST_EXPECT_MSG_EQ((c.Payload() == Sub(src, srcTo[idx] - 0x10000 + got[idx], c.payloadLength)),
                              true, "Response " << idx << " data");
        got[idx] += c.payloadLength;
        ended[idx] = c.last;
    }
    NS_TEST_EXPECT_MSG_EQ(ok, true, "Responses in request order, each fully sent before the next");
    for (uint32_t i = 0; i < 4; ++i)
    {
        NS_TEST_EXPECT_MSG_EQ(got[i], size[i], "Response " << i << " size");
        NS_TEST_EXPECT_MSG_EQ(ended[i], true, "Response " << i << " ends with L=1");
    }
}

// ------------------------------------------------------------------

RDMAP_CASE(R08OrdLimit)
{
    Options o;
    o.ord = 2;
    SetUpFixture(o);
    std::size_t responses = 0;
    auto requests = [this]() {
        std::vector<std::size_t> idx; // positions of the Read Requests on the wire
        for (std::size_t i = 0; i < Sent().size(); ++i)
        {
            if (!Sent()[i].tagged && Sent()[i].qn == 1)
            {
                idx.push_back(i);
            }
        }
        return idx;
    };
    auto sendAt = [this]() {
        for (std::size_t i = 0; i < Sent().size(); ++i)
        {
            if (!Sent()[i].tagged && Sent()[i].qn == 0)
            {
                return int(i);
            }
        }
        return -1;
    };
    auto completed = [this]() {
        std::vector<uint64_t> ids;
        for (const auto& c : Completions())
        {
            ids.push_back(St(c.status) == "Success" ? c.id : 1000 + c.id);
        }
        return ids;
    };
    auto respond = [&](uint32_t i) {
        if (i > 0)
        {
            Inject(seg::ReadResponse(kStagL1, 0x1000 * i, seg::Pattern(100, uint8_t(i)), true));
            ++responses;
        }
        RunFor();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(requests().size() - responses, 2u, "never more than 2 outstanding");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_rdmap->GetOutstandingReads(), 2u, "DUT count within ORD");
    };
    for (uint32_t i = 1; i <= 4; ++i)
    {
        PostRead(i, 0x0000C0DE, 0x1000 * i, 100, kStagL1, 0x1000 * i);
    }
    PostSendBytes(5, RdmapWrType::Send, seg::Pattern(20));
    respond(0);
    NS_TEST_ASSERT_MSG_EQ(requests().size(), 2u, "exactly 2 Read Requests");
    NS_TEST_EXPECT_MSG_EQ((Sent()[0].msn == 1 && Sent()[1].msn == 2), true, "Request MSNs 1, 2");
    NS_TEST_EXPECT_MSG_EQ(sendAt(), -1, "S is not sent");
    respond(1);
    NS_TEST_ASSERT_MSG_EQ(requests().size(), 3u, "Request MSN 3 goes out after Response 1");
    const Bytes rq3 = seg::ReadRequest(3, kStagL1, 0x3000, 100, 0x0000C0DE, 0x3000);
    NS_TEST_EXPECT_MSG_EQ((Sent()[requests()[2]].bytes == rq3), true, "third Request is Read 3, MSN 3");
    NS_TEST_EXPECT_MSG_EQ(sendAt(), -1, "S is still not sent");
    NS_TEST_EXPECT_MSG_EQ((completed() == std::vector<uint64_t>{1}), true, "R1 completes");
    respond(2);
    NS_TEST_ASSERT_MSG_EQ(requests().size(), 4u, "Request MSN 4 goes out after Response 2");
    NS_TEST_EXPECT_MSG_EQ(Sent()[requests()[3]].msn, 4u, "fourth Request MSN");
    NS_TEST_EXPECT_MSG_GT(sendAt(), int(requests()[3]), "S goes out, after Request 4");
    NS_TEST_EXPECT_MSG_EQ((completed() == std::vector<uint64_t>{1, 2}), true, "R2 completes; S waits");
    respond(3);
    respond(4);
    NS_TEST_EXPECT_MSG_EQ((completed() == std::vector<uint64_t>{1, 2, 3, 4, 5}), true,
                          "successful completions R1, R2, R3, R4, S");
    ExpectNoError();
}

// ------------------------------------------------------------------

RDMAP_CASE(R09IrdOverrun)
{
    Options o;
    o.ird = 2;
    SetUpFixture(o);
    m_dutLlp->SetTxBlocked(true); // Responses cannot finish
    std::vector<Bytes> req;
    for (uint32_t i = 0; i < 3; ++i)
    {
        req.push_back(seg::ReadRequest(i + 1, 0xF001 + i, 0x100000 * (i + 1), 0x10000, kStagA, 0x10000));
    }
    const auto before = SnapshotMemory();
    for (const auto& r : req)
    {
        Inject(r);
    }
    RunFor();
    NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "nothing leaves while the LLP is blocked");
    // Unblock with a bounded credit, so a DUT that keeps transmitting fails instead of hanging.
    m_dutLlp->SetTxCredit(100);
    m_dutLlp->SetTxBlocked(false);
    RunFor(MilliSeconds(100));
    if (SentTerminates().size() != 1)
    {
        std::cout << "R-09: the DUT sent " << Sent().size() << " segments, first ones:" << std::endl;
        for (std::size_t i = 0; i < std::min<std::size_t>(3, Sent().size()); ++i)
        {
            std::cout << "  " << Hex(Sub(Sent()[i].bytes, 0, std::min<std::size_t>(40, Sent()[i].bytes.size())))
                      << "(" << Sent()[i].bytes.size() << " octets)" << std::endl;
        }
    }
    const ErrorCause got =
        ExpectTerminateOneOf({ErrorCause{1, 2, 0x02}, ErrorCause{1, 2, 0x03}, ErrorCause{0, 2, 0x07}}, "AMBIG A17");
    if (got.layer == 1)
    {
        ExpectTerminate(got.layer, got.etype, got.code, true, true, false, &req[2], nullptr, &before);
    }
    else if (!SentTerminates().empty())
    {
        const Bytes p = SentTerminates()[0].Payload();
        const bool mdr110 = p.size() >= 6 + 18 && (p[2] & 0xE0) == 0xC0 && Sub(p, 6, 18) == Sub(req[2], 0, 18);
        const bool mdr000 = p.size() >= 4 && (p[2] & 0xE0) == 0;
        NS_TEST_EXPECT_MSG_EQ((mdr110 || mdr000), true, "0/2/0x07 with MDR=110 or 000");
    }
    for (const auto& c : Sent())
    {
        NS_TEST_EXPECT_MSG_EQ((c.tagged && c.stag == 0xF003), false, "never a Response to Request 3");
    }
    ExpectSilentAfterError();
}

// ------------------------------------------------------------------ R-10 ... R-14

RDMAP_CASE(R10InvalidSrcStag)
{
    RunReadProtection(kStagBAD, 0x10000, 100, 0x00);
    if (SentTerminates().size() != 1)
    {
        return;
    }
    const Bytes req = seg::ReadRequest(1, 0x0000F00D, 0x5000, 100, kStagBAD, 0x10000);
    Bytes v6 = {0x41, 0x47, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0x01, 0x00, 0xE0, 0x00, 0x00, 0x2E};
    v6.insert(v6.end(), req.begin(), req.end());
    NS_TEST_EXPECT_MSG_EQ(v6.size(), 70u, "V6 length");
    NS_TEST_EXPECT_MSG_EQ((SentTerminates()[0].bytes == v6), true,
                          "Terminate laid out as V6: " << Hex(SentTerminates()[0].bytes));
}

RDMAP_CASE(ReadProtectionCase)
{
    RunReadProtection(m_p.stag, m_p.to, m_p.size, m_p.code);
}

// ------------------------------------------------------------------

/** m_p.which: (a) a Send with RV=10b, (b) a Write with RV=11b, (c) a Read Request with RV=10b. */
RDMAP_CASE(R15BadVersion)
{
    SetUpFixture();
    Bytes bad = seg::ReadRequest(1, 0xF00D, 0x5000, 100, kStagA, 0x10000);
    bad[1] = 0x81;
    if (m_p.which == 'a')
    {
        bad = seg::Untagged(seg::DdpCtrl(false, true), 0x83, 0, 0, 1, 0, seg::Pattern(100));
    }
    else if (m_p.which == 'b')
    {
        bad = seg::Tagged(seg::DdpCtrl(true, true), 0xC0, kStagA, 0x10000, seg::Pattern(100));
    }
    const Bytes rr = m_p.which == 'c' ? Sub(bad, 18, 28) : Bytes{};
    InjectOffending(bad);
    bool r = false;
    if (m_p.which == 'c' && SentTerminates().size() == 1 && SentTerminates()[0].Payload().size() >= 4)
    {
        r = (SentTerminates()[0].Payload()[2] & 0x20) != 0;
        std::cout << "R-15(c) [AMBIG A11]: R=" << r << (r ? " (preferred)" : " (accepted)") << std::endl;
    }
    ExpectTerminate(0, 2, 0x05, true, true, r, &bad, r ? &rr : nullptr, &m_before);
    NS_TEST_EXPECT_MSG_EQ(SentNonTerminates().size(), 0u, "nothing but the Terminate is sent");
    NS_TEST_EXPECT_MSG_EQ((RecvCompletions().empty() || St(RecvCompletions()[0].status) != "Success"), true,
                          "nothing delivered successfully");
    ExpectSilentAfterError();
}

Param
Rp(uint32_t stag, uint64_t to, uint32_t size, uint8_t code)
{
    return Param{stag, to, size, code, 0};
}

Param
Rv(char which)
{
    return Param{0, 0, 0, 0, which};
}

class RdmapConformanceSuite : public TestSuite
{
  public:
    RdmapConformanceSuite()
        : TestSuite("iwarp-rdmap-conformance", UNIT)
    {
        auto add = [this](TestCase* t) { AddTestCase(t, TestCase::QUICK); };
        add(new R01HeaderOctets(
            "R-01 octets 0-1 and 2-5 of every RDMA message the DUT sends follow Figure 4"));
        add(new R02WritePlacedNotDelivered(
            "R-02 an inbound RDMA Write is placed at its TO and never delivered"));
        add(new R03SendAfterWrite(
            "R-03 a Send is delivered only after every segment of an earlier Write is placed"));
        add(new R04ReadResponder("R-04 Read Request V4 is answered by 3 tagged Response segments"));
        add(new R05ReadRequester(
            "R-05 a Read completes once, only after its last Response segment is delivered"));
        add(new R06ZeroLengthRead(
            "R-06 a zero-length Read Request is answered by one empty Response, sources unchecked"));
        add(new R07ResponsesInOrder(
            "R-07 four Read Requests are answered in order, each Response sent whole"));
        add(new R08OrdLimit("R-08 ORD 2 holds back the third Read and the Send behind it"));
        add(new R09IrdOverrun("R-09 a third Read Request beyond IRD 2 is terminated, never answered"));
        add(new R10InvalidSrcStag("R-10 Read Request with SrcSTag BAD gives TERM 0.1.0x00 MDR=111 (V6)"));
        add(new ReadProtectionCase("R-11(a) Read Request SrcTO 0x0FFFF below A gives TERM 0.1.0x01 MDR=111",
                                   Rp(kStagA, 0x0FFFF, 100, 0x01)));
        add(new ReadProtectionCase("R-11(b) Read Request one octet past the end of A gives TERM 0.1.0x01 MDR=111",
                                   Rp(kStagA, 0x1FF9C, 101, 0x01)));
        add(new ReadProtectionCase("R-12 Read Request on write-only WO gives TERM 0.1.0x02 MDR=111",
                                   Rp(kStagWO, 0x30000, 100, 0x02)));
        add(new ReadProtectionCase("R-13 Read Request on X of PD P2 gives TERM 0.1.0x03 MDR=111",
                                   Rp(kStagX, 0x40000, 100, 0x03)));
        add(new ReadProtectionCase("R-14 Read Request on TOP whose SrcTO+RDMARDSZ wraps gives TERM 0.1.0x04 MDR=111",
                                   Rp(kStagTOP, 0xFFFFFFFFFFFFFF00ull, 512, 0x04)));
        add(new R15BadVersion("R-15(a) Send with RV=10b gives TERM 0.2.0x05 MDR=110", Rv('a')));
        add(new R15BadVersion("R-15(b) Write with RV=11b gives TERM 0.2.0x05 MDR=110", Rv('b')));
        add(new R15BadVersion("R-15(c) Read Request with RV=10b gives TERM 0.2.0x05 M=D=1", Rv('c')));
    }
};

RdmapConformanceSuite g_rdmapConformanceSuite;

} // namespace
