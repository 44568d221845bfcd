/*
 * doc/conformance.md §4.1: the DDP conformance cases D-07 ... D-12 (segments out of order and
 * duplicated, delivery order, reserved bits, DDP version), each a TestCase named by its id.
 * D-01 ... D-06 are in ddp-conformance-test-suite.cc, D-13 ... D-24 in
 * ddp-conformance-errors-test-suite.cc.
 */
#include "support/conformance-fixture.h"

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

// ------------------------------------------------------------------ D-07 .. D-09 (out of order)

/** A 4000-octet Send as three segments: MO 0/1482/2964, lengths 1482/1482/1036. */
std::vector<Bytes>
ThreeSegmentSend(const Bytes& data, uint32_t msn)
{
    return {seg::Send(msn, 0, Sub(data, 0, 1482), false), seg::Send(msn, 1482, Sub(data, 1482, 1482), false),
            seg::Send(msn, 2964, Sub(data, 2964, 1036), true)};
}

class D07OutOfOrder : public ConformanceFixture
{
  public:
    D07OutOfOrder()
        : ConformanceFixture("D-07 segments handed up as 3, 1, 2 are placed and delivered once with length 4000")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes data = seg::Pattern(4000, 0x17);
        m_inj->SetHold(true);
        for (const Bytes& s : ThreeSegmentSend(data, 1))
        {
            Inject(s);
        }
        NS_TEST_ASSERT_MSG_EQ(m_inj->GetHeldCount(), 3u, "three held segments");
        m_inj->Release({2, 0}); // #3 (L=1) first, then #1
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 0u, "not delivered before #2 arrives");
        m_inj->Release({0}); // #2
        RunFor();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "exactly one Delivery");
        ExpectDelivered(rc[0], 0, data, "length 4000 = 2964 + 1036, placed correctly");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "one buffer used");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no Terminate");
    }
};

class D08Duplicate : public ConformanceFixture
{
  public:
    D08Duplicate()
        : ConformanceFixture("D-08 segment 2 handed up twice before segment 1 is delivered exactly once")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes data = seg::Pattern(4000, 0x29);
        const std::vector<Bytes> s = ThreeSegmentSend(data, 1);
        m_inj->SetHold(true);
        Inject(s[0]);
        m_inj->DuplicateNext(1);
        Inject(s[1]);
        Inject(s[2]);
        NS_TEST_ASSERT_MSG_EQ(m_inj->GetHeldCount(), 4u, "#1, #2, #2 again, #3 held");
        m_inj->Release({1, 2, 0, 3}); // #2, #2, #1, #3
        RunFor();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "Delivered exactly once");
        ExpectDelivered(rc[0], 0, data, "the Send");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "one buffer used");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no error (no Terminate)");
        NS_TEST_EXPECT_MSG_EQ(m_rdmap->IsTerminated(), false, "stream not terminated");
    }
};

class D09DeliveryOrder : public ConformanceFixture
{
  public:
    D09DeliveryOrder()
        : ConformanceFixture("D-09 M2 is not delivered before M1 when M1 segment 1 is held back for 1 s")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes m1 = seg::Pattern(2000, 0x50);
        const Bytes m2 = seg::Pattern(100, 0x70);
        m_inj->SetHold(true);
        Inject(seg::Send(1, 0, Sub(m1, 0, 1482), false));   // M1#1
        Inject(seg::Send(1, 1482, Sub(m1, 1482, 518), true)); // M1#2
        Inject(seg::Send(2, 0, m2, true));                     // M2
        m_inj->Release({2, 1}); // M2, then M1#2
        RunFor(Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 0u, "nothing delivered while M1#1 is held");
        m_inj->Release({0}); // M1#1
        RunFor();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "both delivered");
        ExpectDelivered(rc[0], 0, m1, "M1 first");
        ExpectDelivered(rc[1], 1, m2, "M2 second");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no Terminate");
    }
};

// ------------------------------------------------------------------ D-10

class D10ReservedBits : public ConformanceFixture
{
  public:
    D10ReservedBits()
        : ConformanceFixture("D-10 DDP Rsvd bits are ignored on receive and sent as zero")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes sendData = seg::Pattern(100, 0x13);
        const Bytes writeData = seg::Pattern(100, 0x37);
        const Bytes send =
            seg::Untagged(seg::DdpCtrl(false, true, 1, 0xF), seg::RdmapCtrl(0x3), 0, 0, 1, 0, sendData);
        const Bytes write =
            seg::Tagged(seg::DdpCtrl(true, true, 1, 0xF), seg::RdmapCtrl(0x0), kStagA, 0x10000, writeData);
        NS_TEST_ASSERT_MSG_EQ(unsigned(send[0]), 0x7Du, "Send octet 0 = 0x41 | 0x3C");
        NS_TEST_ASSERT_MSG_EQ(unsigned(write[0]), 0xFDu, "Write octet 0 = 0xC1 | 0x3C");
        Inject(send);
        Inject(write);
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, "no Terminate");
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "the Send is delivered");
        ExpectDelivered(rc[0], 0, sendData, "the Send");
        NS_TEST_EXPECT_MSG_EQ((ReadRegion(kStagA, 0x10000, 100) == writeData), true, "Write placed");

        // What the DUT sends: Rsvd = 0 and DV = 1 on every segment.
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Send, seg::Pattern(2000)), true, "Send");
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(2, RdmapWrType::Write, seg::Pattern(2000), 0x0000F00D, 0),
                              true, "Write");
        NS_TEST_ASSERT_MSG_EQ(PostRead(3, 0x0000F00D, 0, 64, kStagL1, 0), true, "Read");
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 5u, "2 Send + 2 Write + 1 Read Request segments");
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0 & 0x3C), 0u, "segment " << i << " Rsvd = 0");
            NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0 & 0x03), 1u, "segment " << i << " DV = 1");
        }
    }
};

// ------------------------------------------------------------------ D-11, D-12

/** D-11 (a tagged Write, 114 octets) and D-12 (an untagged Send, 118 octets) with DDP version `dv`. */
class BadDdpVersion : public ConformanceFixture
{
  public:
    BadDdpVersion(bool tagged, uint8_t dv)
        : ConformanceFixture(tagged ? "D-11 DV=" + std::to_string(dv) +
                                          " on a tagged Write gives TERM 1.1.0x04 MDR=110 SegLen 114"
                                    : "D-12 DV=" + std::to_string(dv) +
                                          " on an untagged Send gives TERM 1.2.0x06 MDR=110 SegLen 118"),
          m_tagged(tagged),
          m_dv(dv)
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes s =
            m_tagged ? seg::Tagged(seg::DdpCtrl(true, true, m_dv), seg::RdmapCtrl(0x0), kStagA, 0x10000,
                                   seg::Pattern(100))
                     : seg::Untagged(seg::DdpCtrl(false, true, m_dv), seg::RdmapCtrl(0x3), 0, 0, 1, 0,
                                     seg::Pattern(100));
        const unsigned len = m_tagged ? 114 : 118;
        NS_TEST_ASSERT_MSG_EQ(s.size(), len, "the offending segment is " << len << " octets");
        InjectOffending(s);
        ExpectDdpError(1, m_tagged ? 1 : 2, m_tagged ? 0x04 : 0x06, s);
        const auto t = SentTerminates();
        NS_TEST_ASSERT_MSG_EQ(t.size(), 1u, "one Terminate");
        const Bytes p = t[0].Payload();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6u, "Terminate header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(p[4] << 8 | p[5]), len, "SegLen = " << len);
    }

    bool m_tagged;
    uint8_t m_dv;
};

class DdpConformanceOrderSuite : public TestSuite
{
  public:
    DdpConformanceOrderSuite()
        : TestSuite("iwarp-ddp-conformance-order", UNIT)
    {
        AddTestCase(new D07OutOfOrder, TestCase::QUICK);
        AddTestCase(new D08Duplicate, TestCase::QUICK);
        AddTestCase(new D09DeliveryOrder, TestCase::QUICK);
        AddTestCase(new D10ReservedBits, TestCase::QUICK);
        for (uint8_t dv : {0, 2, 3})
        {
            AddTestCase(new BadDdpVersion(true, dv), TestCase::QUICK); // D-11
        }
        for (uint8_t dv : {0, 2, 3})
        {
            AddTestCase(new BadDdpVersion(false, dv), TestCase::QUICK); // D-12
        }
    }
};

DdpConformanceOrderSuite g_ddpConformanceOrderSuite;

} // namespace
