/*
 * doc/conformance.md §4.1: the DDP conformance cases D-01 ... D-06 (segmentation, MSNs, message sizes,
 * zero-length messages), each a TestCase named by its id. D-07 ... D-12 are in
 * ddp-conformance-order-test-suite.cc, D-13 ... D-24 (the negative cases) in
 * ddp-conformance-errors-test-suite.cc.
 */
#include "support/conformance-fixture.h"

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** A payload of `length` octets that exist only as sizes (D-04(c)). */
class VirtualSource : public DdpPayloadSource
{
  public:
    explicit VirtualSource(uint64_t length)
        : m_length(length)
    {
    }
    uint64_t GetLength() const override { return m_length; }
    Ptr<Packet> Read(uint64_t, uint32_t len) override { return Create<Packet>(len); }

  private:
    uint64_t m_length;
};

// ------------------------------------------------------------------ D-01

class D01WriteSegmentation : public ConformanceFixture
{
  public:
    D01WriteSegmentation()
        : ConformanceFixture("D-01 RDMA Write of 2048 octets is two tagged segments at MULPDU 1500")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        PostSendBytes(1, RdmapWrType::Write, seg::Pattern(2048), 0x0000F00D, 0x4000);
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 2, "exactly two segments");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl0), 0x81u, "#1 octet 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[1].ctrl0), 0xC1u, "#2 octet 0 (L=1 last)");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl1), 0x40u, "#1 octet 1");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[1].ctrl1), 0x40u, "#2 octet 1");
        NS_TEST_EXPECT_MSG_EQ(s[0].stag, 0x0000F00Du, "#1 STag");
        NS_TEST_EXPECT_MSG_EQ(s[1].stag, 0x0000F00Du, "#2 STag");
        NS_TEST_EXPECT_MSG_EQ(s[0].to, 0x4000u, "#1 TO");
        NS_TEST_EXPECT_MSG_EQ(s[1].to, 0x45CEu, "#2 TO");
        NS_TEST_EXPECT_MSG_EQ(s[0].payloadLength, 1486u, "#1 payload");
        NS_TEST_EXPECT_MSG_EQ(s[1].payloadLength, 562u, "#2 payload");
    }
};

// ------------------------------------------------------------------ D-02

class D02SendSegmentation : public ConformanceFixture
{
  public:
    D02SendSegmentation()
        : ConformanceFixture("D-02 first Send of 2048 octets is two untagged segments, QN 0, MSN 1, MO 0 and 1482")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes data = seg::Pattern(2048, 3);
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Send, data), true, "Send posted");
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 2, "exactly two segments");
        const uint8_t head1[6] = {0x01, 0x43, 0, 0, 0, 0};
        const uint8_t head2[6] = {0x41, 0x43, 0, 0, 0, 0};
        NS_TEST_EXPECT_MSG_EQ((Bytes(s[0].bytes.begin(), s[0].bytes.begin() + 6) ==
                               Bytes(head1, head1 + 6)),
                              true, "#1 octets 0-5 = 01 43 00000000");
        NS_TEST_EXPECT_MSG_EQ((Bytes(s[1].bytes.begin(), s[1].bytes.begin() + 6) ==
                               Bytes(head2, head2 + 6)),
                              true, "#2 octets 0-5 = 41 43 00000000");
        NS_TEST_EXPECT_MSG_EQ(s[0].qn, 0u, "#1 QN");
        NS_TEST_EXPECT_MSG_EQ(s[1].qn, 0u, "#2 QN");
        NS_TEST_EXPECT_MSG_EQ(s[0].msn, 1u, "#1 MSN");
        NS_TEST_EXPECT_MSG_EQ(s[1].msn, 1u, "#2 MSN");
        NS_TEST_EXPECT_MSG_EQ(s[0].mo, 0u, "#1 MO");
        NS_TEST_EXPECT_MSG_EQ(s[1].mo, 1482u, "#2 MO");
        NS_TEST_EXPECT_MSG_EQ(s[0].payloadLength, 1482u, "#1 payload length");
        NS_TEST_EXPECT_MSG_EQ(s[1].payloadLength, 566u, "#2 payload length");
        Bytes all = s[0].Payload();
        const Bytes p2 = s[1].Payload();
        all.insert(all.end(), p2.begin(), p2.end());
        NS_TEST_EXPECT_MSG_EQ((all == data), true, "the payloads carry the message");
    }
};

// ------------------------------------------------------------------ D-03

class D03aMsnPerQueue : public ConformanceFixture
{
  public:
    D03aMsnPerQueue()
        : ConformanceFixture("D-03(a) each QN counts MSNs from 1 - Send, Send, Read, Send, then a Terminate")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Send, seg::Pattern(10, 1)), true, "Send 1");
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(2, RdmapWrType::Send, seg::Pattern(10, 2)), true, "Send 2");
        NS_TEST_ASSERT_MSG_EQ(PostRead(3, 0x0000F00D, 0x1000, 100, kStagL1, 0), true, "Read");
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(4, RdmapWrType::Send, seg::Pattern(10, 4)), true, "Send 3");
        RunFor();
        m_rdmap->Abort(); // forced to Terminate
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 5, "Send, Send, Read Request, Send, Terminate");
        struct Want
        {
            uint8_t opcode;
            uint32_t qn;
            uint32_t msn;
        };
        const Want want[5] = {{0x3, 0, 1}, {0x3, 0, 2}, {0x1, 1, 1}, {0x3, 0, 3}, {0x7, 2, 1}};
        for (std::size_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(s[i].tagged, false, "segment " << i << " untagged");
            NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].opcode), unsigned(want[i].opcode),
                                  "segment " << i << " opcode");
            NS_TEST_EXPECT_MSG_EQ(s[i].qn, want[i].qn, "segment " << i << " QN");
            NS_TEST_EXPECT_MSG_EQ(s[i].msn, want[i].msn, "segment " << i << " MSN");
            NS_TEST_EXPECT_MSG_EQ(s[i].mo, 0u, "segment " << i << " MO");
        }
    }
};

class D03bSendMsnWrap : public ConformanceFixture
{
  public:
    D03bSendMsnWrap()
        : ConformanceFixture("D-03(b) the send MSN goes 0xFFFFFFFE, 0xFFFFFFFF, 0")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        m_ddp->SetNextSendMsn(0, 0xFFFFFFFE);
        for (uint64_t i = 1; i <= 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(PostSendBytes(i, RdmapWrType::Send, seg::Pattern(20, uint8_t(i))),
                                  true, "Send " << i);
        }
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 3, "three single-segment Sends");
        const uint32_t want[3] = {0xFFFFFFFE, 0xFFFFFFFF, 0x00000000};
        for (std::size_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(s[i].qn, 0u, "Send " << i << " QN");
            NS_TEST_EXPECT_MSG_EQ(s[i].msn, want[i], "Send " << i << " MSN");
            NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0), 0x41u, "Send " << i << " octet 0");
        }
    }
};

class D03cRecvMsnWrap : public ConformanceFixture
{
  public:
    D03cRecvMsnWrap()
        : ConformanceFixture("D-03(c) Sends with MSN 0xFFFFFFFF then 0 are accepted and delivered in order")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        m_ddp->SetExpectedMsn(0, 0xFFFFFFFF);
        const Bytes a = seg::Pattern(100, 0x11);
        const Bytes b = seg::Pattern(200, 0x22);
        Inject(seg::Send(0xFFFFFFFF, 0, a));
        Inject(seg::Send(0x00000000, 0, b));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, "no Terminate");
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 2, "two receive completions");
        ExpectDelivered(rc[0], 0, a, "MSN 0xFFFFFFFF, delivered first");
        ExpectDelivered(rc[1], 1, b, "MSN 0, delivered second");
    }
};

// ------------------------------------------------------------------ D-04

class D04aLargeSend : public ConformanceFixture
{
  public:
    D04aLargeSend()
        : ConformanceFixture("D-04(a) a Send of 1 MiB + 7 octets is cut within MULPDU with contiguous MOs")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const std::size_t n = 1048583;
        const Bytes data = seg::Pattern(n, 9);
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Send, data), true, "Send posted");
        RunFor(MilliSeconds(50));
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_GT(s.size(), 1u, "several segments");
        uint64_t mo = 0;
        uint32_t maxMo = 0;
        Bytes all;
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            const bool isLast = (i + 1 == s.size());
            NS_TEST_ASSERT_MSG_LT_OR_EQ(s[i].bytes.size(), 1500u, "segment " << i << " <= MULPDU");
            NS_TEST_ASSERT_MSG_EQ(s[i].tagged, false, "segment " << i << " untagged");
            NS_TEST_EXPECT_MSG_EQ(s[i].qn, 0u, "segment " << i << " QN");
            NS_TEST_EXPECT_MSG_EQ(s[i].msn, 1u, "segment " << i << " MSN");
            NS_TEST_ASSERT_MSG_EQ(uint64_t(s[i].mo), mo, "segment " << i << " MO contiguous");
            NS_TEST_ASSERT_MSG_EQ(s[i].last, isLast, "segment " << i << ": L=1 only on the last");
            NS_TEST_EXPECT_MSG_EQ(unsigned(s[i].ctrl0), (isLast ? 0x41u : 0x01u), "segment " << i << " octet 0");
            maxMo = std::max(maxMo, s[i].mo);
            mo += s[i].payloadLength;
            const Bytes p = s[i].Payload();
            all.insert(all.end(), p.begin(), p.end());
        }
        NS_TEST_EXPECT_MSG_EQ(s.back().mo, maxMo, "the L=1 segment has the highest MO");
        NS_TEST_EXPECT_MSG_EQ(mo, uint64_t(n), "the payloads add up to 1 048 583");
        NS_TEST_EXPECT_MSG_EQ((all == data), true, "the payloads carry the message");
    }
};

class D04bMulpduChange : public ConformanceFixture
{
  public:
    D04bMulpduChange()
        : ConformanceFixture("D-04(b) a MULPDU drop from 1500 to 1000 mid-Write applies to later segments only")
    {
    }

  private:
    static constexpr std::size_t kChangeAfter = 353; // about half of the 706 segments at 1500

    void OnTx(Ptr<const Packet>, uint64_t)
    {
        if (++m_txCount == kChangeAfter)
        {
            m_dutLlp->SetMulpdu(1000);
        }
    }

    void DoRun() override
    {
        SetUpFixture();
        m_dutLlp->TraceConnectWithoutContext("Tx", MakeCallback(&D04bMulpduChange::OnTx, this));
        const std::size_t n = 1048583;
        const uint64_t to0 = 0x100000;
        const Bytes data = seg::Pattern(n, 5);
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Write, data, 0x0000F00D, to0), true,
                              "Write posted");
        RunFor(MilliSeconds(50));
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_GT(s.size(), kChangeAfter, "the MULPDU changed mid-message");
        uint64_t to = to0;
        Bytes all;
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            const bool isLast = (i + 1 == s.size());
            NS_TEST_ASSERT_MSG_EQ(s[i].tagged, true, "segment " << i << " tagged");
            if (i < kChangeAfter)
            {
                // Posted before the change: full 1500-octet segments, never re-cut.
                NS_TEST_ASSERT_MSG_EQ(s[i].bytes.size(), 1500u, "segment " << i << " (before) = 1500");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(s[i].bytes.size(), 1000u, "segment " << i << " (after) <= 1000");
                if (!isLast)
                {
                    NS_TEST_EXPECT_MSG_EQ(s[i].bytes.size(), 1000u, "segment " << i << " uses the new MULPDU");
                }
            }
            NS_TEST_EXPECT_MSG_EQ(s[i].stag, 0x0000F00Du, "segment " << i << " STag");
            NS_TEST_ASSERT_MSG_EQ(s[i].to, to, "segment " << i << " TO contiguous");
            NS_TEST_ASSERT_MSG_EQ(s[i].last, isLast, "segment " << i << ": L=1 only on the last");
            to += s[i].payloadLength;
            const Bytes p = s[i].Payload();
            all.insert(all.end(), p.begin(), p.end());
        }
        NS_TEST_EXPECT_MSG_EQ(uint64_t(to - to0), uint64_t(n), "the payloads add up to 1 048 583");
        NS_TEST_EXPECT_MSG_EQ((all == data), true, "the payloads carry the message");
    }

    std::size_t m_txCount{0};
};

class D04cTooLong : public ConformanceFixture
{
  public:
    D04cTooLong()
        : ConformanceFixture("D-04(c) a message of 2^32 octets is refused locally and nothing is sent")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const uint64_t len = uint64_t(1) << 32;
        NS_TEST_EXPECT_MSG_EQ(PostSource(1, RdmapWrType::Send, Create<VirtualSource>(len)), false,
                              "a Send of 2^32 octets is refused");
        NS_TEST_EXPECT_MSG_EQ(PostSource(2, RdmapWrType::Write, Create<VirtualSource>(len), 0x0000F00D, 0),
                              false, "a Write of 2^32 octets is refused");
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "nothing sent");
        NS_TEST_EXPECT_MSG_EQ(SendCompletions().size(), 0u, "no completion for a refused post");
        // The stream is still usable: a normal Send goes out with MSN 1 (the refused one used none).
        NS_TEST_EXPECT_MSG_EQ(PostSendBytes(3, RdmapWrType::Send, seg::Pattern(10)), true, "a normal Send");
        RunFor();
        NS_TEST_ASSERT_MSG_EQ(Sent().size(), 1u, "the normal Send went out");
        NS_TEST_EXPECT_MSG_EQ(Sent()[0].msn, 1u, "with MSN 1");
    }
};

// ------------------------------------------------------------------ D-05

class D05aZeroLengthSendOut : public ConformanceFixture
{
  public:
    D05aZeroLengthSendOut()
        : ConformanceFixture("D-05(a) a zero-length Send is exactly one 18-octet segment")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        NS_TEST_ASSERT_MSG_EQ(PostSource(1, RdmapWrType::Send, Create<PacketPayloadSource>(Create<Packet>())),
                              true, "zero-length Send posted");
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 1u, "exactly one segment");
        NS_TEST_EXPECT_MSG_EQ(s[0].bytes.size(), 18u, "18 octets");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl0), 0x41u, "octet 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl1), 0x43u, "octet 1");
        NS_TEST_EXPECT_MSG_EQ(s[0].qn, 0u, "QN 0");
        NS_TEST_EXPECT_MSG_EQ(s[0].msn, 1u, "MSN 1");
        NS_TEST_EXPECT_MSG_EQ(s[0].mo, 0u, "MO 0");
        const auto sc = SendCompletions();
        NS_TEST_ASSERT_MSG_EQ(sc.size(), 1u, "one completion");
        NS_TEST_EXPECT_MSG_EQ(St(sc[0].status), St(WcStatus::Success), "completed");
    }
};

class D05bZeroLengthSendIn : public ConformanceFixture
{
  public:
    D05bZeroLengthSendIn()
        : ConformanceFixture(
              "D-05(b) an inbound zero-length Send uses exactly one buffer and is delivered with length 0")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes zero = seg::Send(1, 0, Bytes{});
        NS_TEST_ASSERT_MSG_EQ(zero.size(), 18u, "an 18-octet segment");
        Inject(zero);
        RunFor();
        auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "one receive completion");
        ExpectDelivered(rc[0], 0, Bytes{}, "the zero-length Send");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "exactly one QN 0 buffer used");
        const Bytes next = seg::Pattern(100, 0x31);
        Inject(seg::Send(2, 0, next));
        RunFor();
        rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "the next Send is delivered");
        ExpectDelivered(rc[1], 1, next, "the next Send");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 6u, "one more buffer used");
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, "no Terminate");
    }
};

// ------------------------------------------------------------------ D-06

class D06ZeroLengthWriteUnchecked : public ConformanceFixture
{
  public:
    D06ZeroLengthWriteUnchecked()
        : ConformanceFixture("D-06 a zero-length Write to STag BAD at TO 2^64-1 is not checked")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes w = seg::Write(kStagBAD, 0xFFFFFFFFFFFFFFFFull, Bytes{});
        NS_TEST_ASSERT_MSG_EQ(w.size(), 14u, "a 14-octet segment");
        const auto before = SnapshotMemory();
        Inject(w);
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no Terminate (nothing sent)");
        NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == before), true, "nothing placed");
        NS_TEST_EXPECT_MSG_EQ(UlpEvents(), 0u, "no error event");
        NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion (nothing flushed)");
        const Bytes data = seg::Pattern(100, 0x42);
        Inject(seg::Send(1, 0, data));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "still no Terminate");
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "the Send is delivered");
        ExpectDelivered(rc[0], 0, data, "the Send");
    }
};

class DdpConformanceSuite : public TestSuite
{
  public:
    DdpConformanceSuite()
        : TestSuite("iwarp-ddp-conformance", UNIT)
    {
        AddTestCase(new D01WriteSegmentation, TestCase::QUICK);
        AddTestCase(new D02SendSegmentation, TestCase::QUICK);
        AddTestCase(new D03aMsnPerQueue, TestCase::QUICK);
        AddTestCase(new D03bSendMsnWrap, TestCase::QUICK);
        AddTestCase(new D03cRecvMsnWrap, TestCase::QUICK);
        AddTestCase(new D04aLargeSend, TestCase::QUICK);
        AddTestCase(new D04bMulpduChange, TestCase::QUICK);
        AddTestCase(new D04cTooLong, TestCase::QUICK);
        AddTestCase(new D05aZeroLengthSendOut, TestCase::QUICK);
        AddTestCase(new D05bZeroLengthSendIn, TestCase::QUICK);
        AddTestCase(new D06ZeroLengthWriteUnchecked, TestCase::QUICK);
    }
};

DdpConformanceSuite g_ddpConformanceSuite;

} // namespace
