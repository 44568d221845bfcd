/*
 * Segments that arrive out of the sender's order, as DDP over SCTP delivers them (RFC 5043
 * §5: unordered DATA; SCTP-043), and untagged messages whose MSN is inside the legal range
 * but not the next one (DDP-060 U5, A4, A34). Regression tests for issue 14 defects 1 and 2:
 * each case failed with a Terminate before the fix.
 */
#include "support/conformance-fixture.h"

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using iwarp::ErrorCause;

class OutOfOrderCase : public ConformanceFixture
{
  public:
    using ConformanceFixture::ConformanceFixture;

  protected:
    /** The two Read Requests the DUT sent for reads 1 and 2 (sinks in L1 at 0x0 and 0x2000). */
    void PostTwoReads(uint32_t size)
    {
        PostRead(1, kStagA, 0x10000, size, kStagL1, 0x0);
        PostRead(2, kStagA, 0x14000, size, kStagL1, 0x2000);
        RunFor();
        NS_TEST_ASSERT_MSG_EQ(Sent().size(), 2u, "two Read Requests sent");
    }

    /** Inject the Response to a Read of `data` into L1 at `sinkTo` as two segments. */
    void InjectResponse(uint64_t sinkTo, const Bytes& data)
    {
        const std::size_t half = data.size() / 2;
        Inject(seg::ReadResponse(kStagL1, sinkTo, Sub(data, 0, half), false));
        Inject(seg::ReadResponse(kStagL1, sinkTo + half, Sub(data, half, data.size() - half), true));
    }

    /** The completions of the DUT's Reads, in the order reported. */
    std::vector<RdmapCompletion> ReadCompletions() const
    {
        std::vector<RdmapCompletion> out;
        for (const RdmapCompletion& c : Completions())
        {
            if (c.type == RdmapWrType::Read)
            {
                out.push_back(c);
            }
        }
        return out;
    }
};

#define OOO_CASE(Cls) IWARP_CONFORMANCE_CASE(Cls, OutOfOrderCase)

// Issue 14 defect 1: the Response to the second Read overtakes the first's (SCTP unordered).
OOO_CASE(SecondReadResponseFirst)
{
    SetUpFixture();
    PostTwoReads(3000);
    const Bytes r1 = seg::Pattern(3000, 0x21);
    const Bytes r2 = seg::Pattern(3000, 0x62);
    m_inj->SetHold(true);
    InjectResponse(0x0, r1);
    InjectResponse(0x2000, r2);
    NS_TEST_ASSERT_MSG_EQ(m_inj->GetHeldCount(), 4u, "four Response segments held");
    m_inj->Release({2, 3}); // the whole second Response arrives first
    RunFor();
    ExpectNoError();
    NS_TEST_EXPECT_MSG_EQ(ReadCompletions().size(), 0u, "no Read completes before the first Response");
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x2000, 3000) == r2), true, "the second Response placed on arrival");
    m_inj->ReleaseAll();
    m_inj->SetHold(false);
    RunFor();
    ExpectNoError();
    const auto rc = ReadCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "both Reads complete");
    NS_TEST_EXPECT_MSG_EQ(rc[0].id, 1u, "Read 1 completes first (RDMAP-036)");
    NS_TEST_EXPECT_MSG_EQ(rc[1].id, 2u, "then Read 2");
    for (const RdmapCompletion& c : rc)
    {
        NS_TEST_EXPECT_MSG_EQ(St(c.status), St(WcStatus::Success), "Read " << c.id << " Success");
        NS_TEST_EXPECT_MSG_EQ(c.byteLength, 3000u, "Read " << c.id << " length");
    }
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x0, 3000) == r1), true, "Read 1's octets");
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x2000, 3000) == r2), true, "Read 2's octets");
}

// The segments of two Responses interleaved, the last segment of each first.
OOO_CASE(ReadResponsesInterleaved)
{
    SetUpFixture();
    PostTwoReads(3000);
    const Bytes r1 = seg::Pattern(3000, 0x31);
    const Bytes r2 = seg::Pattern(3000, 0x72);
    m_inj->SetHold(true);
    InjectResponse(0x0, r1);
    InjectResponse(0x2000, r2);
    m_inj->Release({3, 1, 2, 0});
    m_inj->SetHold(false);
    RunFor();
    ExpectNoError();
    const auto rc = ReadCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "both Reads complete");
    NS_TEST_EXPECT_MSG_EQ(rc[0].id * 10 + rc[1].id, 12u, "in posting order");
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x0, 3000) == r1), true, "Read 1's octets");
    NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagL1, 0x2000, 3000) == r2), true, "Read 2's octets");
}

// A33 still holds with several Reads outstanding: a Response no Read asked for is refused.
OOO_CASE(ResponseToNoOutstandingReadStag)
{
    SetUpFixture();
    PostTwoReads(3000);
    const std::vector<Bytes> before = SnapshotMemory();
    const Bytes bad = seg::ReadResponse(kStagA, 0x10000, seg::Pattern(100), true);
    InjectOffending(bad);
    ExpectTerminate(1, 1, 0x00, true, true, false, &bad, nullptr, &before); // A33: STag mismatch
}

OOO_CASE(ResponseOutsideEveryOutstandingRead)
{
    SetUpFixture();
    PostTwoReads(3000);
    const std::vector<Bytes> before = SnapshotMemory();
    // Inside L1, between the two sinks ([0, 3000) and [0x2000, 0x2000 + 3000)).
    const Bytes bad = seg::ReadResponse(kStagL1, 0x1000, seg::Pattern(100), true);
    InjectOffending(bad);
    ExpectTerminate(1, 1, 0x01, true, true, false, &bad, nullptr, &before); // A33: TO/length mismatch
}

// Issue 14 defect 2: DDP-060 U5 accepts any MSN in [first, last available buffer]; A4.
OOO_CASE(SendMsnTwoBeforeOne)
{
    SetUpFixture();
    const Bytes m1 = seg::Pattern(100, 0x01);
    const Bytes m2 = seg::Pattern(200, 0x02);
    Inject(seg::Send(2, 0, m2));
    RunFor();
    ExpectNoError();
    NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 0u, "MSN 2 waits for MSN 1");
    NS_TEST_EXPECT_MSG_EQ((RecvBytes(1, 0, 200) == m2), true, "MSN 2 placed in the second buffer");
    Inject(seg::Send(1, 0, m1));
    RunFor();
    ExpectNoError();
    const auto rc = RecvCompletions();
    NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "both Sends delivered");
    ExpectDelivered(rc[0], 0, m1, "MSN 1 first");
    ExpectDelivered(rc[1], 1, m2, "then MSN 2");
}

// A message parked behind a missing MSN is not delivered twice when a duplicate MSN follows.
OOO_CASE(SendSameMsnTwiceAhead)
{
    SetUpFixture();
    const Bytes first = seg::Pattern(50, 0x02);
    Inject(seg::Send(2, 0, first));
    RunFor();
    const Bytes again = seg::Send(2, 0, seg::Pattern(50, 0x12));
    Inject(again);
    RunFor();
    ErrorCause cause;
    NS_TEST_ASSERT_MSG_EQ(FirstErrorEvent(&cause), true, "a second message with MSN 2 is an error");
    NS_TEST_EXPECT_MSG_EQ(cause.ToString(), ErrorCause::Ddp(iwarp::DdpUntaggedCode::MsnRange).ToString(),
                          "MSN range (U5)");
    NS_TEST_EXPECT_MSG_EQ(RecvOk(), 0u, "nothing delivered");
    NS_TEST_EXPECT_MSG_EQ((RecvBytes(1, 0, 50) == first), true, "the parked message is not overwritten (P1)");
}

// A34: QN 1's range is [next, next + IRD - 1]; Read Requests are answered in MSN order.
OOO_CASE(ReadRequestMsnTwoBeforeOne)
{
    SetUpFixture();
    const Bytes src = seg::Pattern(0x2000, 0x47);
    Fill(kStagA, 0x10000, src);
    Inject(seg::ReadRequest(2, 0xF002, 0x5000, 500, kStagA, 0x11000));
    RunFor();
    ExpectNoError();
    NS_TEST_EXPECT_MSG_EQ(SentNonTerminates().size(), 0u, "Request 2 is not answered before Request 1");
    Inject(seg::ReadRequest(1, 0xF001, 0x4000, 300, kStagA, 0x10000));
    RunFor();
    ExpectNoError();
    const auto sent = SentNonTerminates();
    NS_TEST_ASSERT_MSG_EQ(sent.size(), 2u, "one Response segment each");
    NS_TEST_EXPECT_MSG_EQ(sent[0].stag, 0xF001u, "Request 1 answered first (RDMAP-064)");
    NS_TEST_EXPECT_MSG_EQ((sent[0].Payload() == Sub(src, 0, 300)), true, "Response 1's octets");
    NS_TEST_EXPECT_MSG_EQ(sent[1].stag, 0xF002u, "then Request 2");
    NS_TEST_EXPECT_MSG_EQ((sent[1].Payload() == Sub(src, 0x1000, 500)), true, "Response 2's octets");
}

class OutOfOrderArrivalSuite : public TestSuite
{
  public:
    OutOfOrderArrivalSuite()
        : TestSuite("iwarp-out-of-order-arrival", UNIT)
    {
        AddTestCase(new SecondReadResponseFirst(
                        "a Read Response overtaking the one before it is placed by STag and TO (issue 14 #1)"),
                    QUICK);
        AddTestCase(new ReadResponsesInterleaved("two Responses' segments interleaved complete both Reads in order"),
                    QUICK);
        AddTestCase(new ResponseToNoOutstandingReadStag(
                        "A33 a Response whose STag no outstanding Read uses gives TERM 1.1.0x00"),
                    QUICK);
        AddTestCase(new ResponseOutsideEveryOutstandingRead(
                        "A33 a Response outside every outstanding Read's sink gives TERM 1.1.0x01"),
                    QUICK);
        AddTestCase(new SendMsnTwoBeforeOne(
                        "DDP-060 U5 a Send with MSN 2 before MSN 1 is placed, then both delivered in order (#2)"),
                    QUICK);
        AddTestCase(new SendSameMsnTwiceAhead("a second message with a parked MSN gives TERM 1.2.0x03"), QUICK);
        AddTestCase(new ReadRequestMsnTwoBeforeOne(
                        "A34 a Read Request with MSN 2 before MSN 1 is answered after Request 1 (#2)"),
                    QUICK);
    }
};

OutOfOrderArrivalSuite g_outOfOrderArrivalSuite;

} // namespace
