/*
 * CHECKLIST §4.1: the DDP conformance cases D-01 ... D-12, each a TestCase named by its id.
 * D-13 ... D-24 (the negative cases) are in ddp-conformance-errors-test-suite.cc.
 */
#include "conformance-fixture.h"

#include "ns3/simulator.h"

#include <iostream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** A completion status as text, so that NS_TEST_* can print it. */
std::string
St(WcStatus s)
{
    return ToString(s);
}

/** Common checks of the D-xx cases on top of the shared fixture. */
class DdpCase : public ConformanceFixture
{
  public:
    explicit DdpCase(const std::string& name)
        : ConformanceFixture(name)
    {
    }

  protected:
    /** Receive completions with status Success. */
    std::size_t RecvOk() const
    {
        std::size_t n = 0;
        for (const auto& c : RecvCompletions())
        {
            n += (c.status == WcStatus::Success);
        }
        return n;
    }

    /** `len` octets of receive buffer `i` at offset `off`. */
    Bytes RecvBytes(std::size_t i, std::size_t off, std::size_t len) const
    {
        const uint8_t* d = RecvBuffer(i)->Data();
        return Bytes(d + off, d + off + len);
    }

    /** Post a send WR with any payload source (e.g. an empty packet or a huge virtual one). */
    bool PostSource(uint64_t id, RdmapWrType type, Ptr<DdpPayloadSource> src, uint32_t stag = 0,
                    uint64_t to = 0)
    {
        RdmapWorkRequest wr;
        wr.id = id;
        wr.type = type;
        wr.source = src;
        wr.remoteStag = stag;
        wr.remoteTo = to;
        return m_rdmap->PostSend(wr);
    }

    /** Take the P1 snapshot and the P2 baseline right before the offending injection. */
    void Arm()
    {
        m_before = SnapshotMemory();
        m_okBefore = RecvOk();
    }

    /**
     * TERM layer/etype/code MDR=110 for `offending`, plus P1-P6: nothing placed, not
     * completed, exactly one Terminate, copied header and length, later segments dropped,
     * no abortive teardown by the DUT on its own.
     */
    void ExpectDdpError(uint8_t layer, uint8_t etype, uint8_t code, const Bytes& offending)
    {
        ExpectTerminate(layer, etype, code, true, true, false, &offending, nullptr, &m_before);
        ExpectAfterError();
    }

    /** P2 (not completed), P3/P5 (nothing more sent or placed), P6 (no abortive close). */
    void ExpectAfterError()
    {
        NS_TEST_EXPECT_MSG_EQ(RecvOk(), m_okBefore,
                              "P2: the offending message is not completed successfully");
        const std::size_t sent = Sent().size();
        const std::size_t terms = SentTerminates().size();
        const std::vector<Bytes> snap = SnapshotMemory();
        Inject(seg::Send(1, 0, seg::Pattern(64, 0x66)));
        RunFor(MilliSeconds(5));
        NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == snap), true, "P5: a later Send is not placed");
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), terms, "P5: no second Terminate");
        NS_TEST_EXPECT_MSG_EQ(RecvOk(), m_okBefore, "P5: a later Send is not delivered");
        ExpectSilentAfterError();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), sent, "P3: the DUT sends nothing after the Terminate");
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedAbortively(), false,
                              "P6: no abortive teardown before the ULP asks for it");
    }

    std::vector<Bytes> m_before;
    std::size_t m_okBefore{0};
};

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

class D02SendSegmentation : public DdpCase
{
  public:
    D02SendSegmentation()
        : DdpCase("D-02 first Send of 2048 octets is two untagged segments, QN 0, MSN 1, MO 0 and 1482")
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

class D03aMsnPerQueue : public DdpCase
{
  public:
    D03aMsnPerQueue()
        : DdpCase("D-03(a) each QN counts MSNs from 1 - Send, Send, Read, Send, then a Terminate")
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

class D03bSendMsnWrap : public DdpCase
{
  public:
    D03bSendMsnWrap()
        : DdpCase("D-03(b) the send MSN goes 0xFFFFFFFE, 0xFFFFFFFF, 0")
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

class D03cRecvMsnWrap : public DdpCase
{
  public:
    D03cRecvMsnWrap()
        : DdpCase("D-03(c) Sends with MSN 0xFFFFFFFF then 0 are accepted and delivered in order")
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
        NS_TEST_EXPECT_MSG_EQ(rc[0].id, 0u, "MSN 0xFFFFFFFF in the first buffer, delivered first");
        NS_TEST_EXPECT_MSG_EQ(rc[1].id, 1u, "MSN 0 in the second buffer, delivered second");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "first Success");
        NS_TEST_EXPECT_MSG_EQ(St(rc[1].status), St(WcStatus::Success), "second Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 100u, "first length");
        NS_TEST_EXPECT_MSG_EQ(rc[1].byteLength, 200u, "second length");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 100) == a), true, "first content");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(1, 0, 200) == b), true, "second content");
    }
};

// ------------------------------------------------------------------ D-04

class D04aLargeSend : public DdpCase
{
  public:
    D04aLargeSend()
        : DdpCase("D-04(a) a Send of 1 MiB + 7 octets is cut within MULPDU with contiguous MOs")
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

class D04bMulpduChange : public DdpCase
{
  public:
    D04bMulpduChange()
        : DdpCase("D-04(b) a MULPDU drop from 1500 to 1000 mid-Write applies to later segments only")
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

class D04cTooLong : public DdpCase
{
  public:
    D04cTooLong()
        : DdpCase("D-04(c) a message of 2^32 octets is refused locally and nothing is sent")
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

class D05aZeroLengthSendOut : public DdpCase
{
  public:
    D05aZeroLengthSendOut()
        : DdpCase("D-05(a) a zero-length Send is exactly one 18-octet segment")
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

class D05bZeroLengthSendIn : public DdpCase
{
  public:
    D05bZeroLengthSendIn()
        : DdpCase("D-05(b) an inbound zero-length Send uses exactly one buffer and is delivered with length 0")
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
        NS_TEST_EXPECT_MSG_EQ(rc[0].id, 0u, "the first buffer");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 0u, "length 0");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "exactly one QN 0 buffer used");
        const Bytes next = seg::Pattern(100, 0x31);
        Inject(seg::Send(2, 0, next));
        RunFor();
        rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "the next Send is delivered");
        NS_TEST_EXPECT_MSG_EQ(rc[1].id, 1u, "into the next buffer");
        NS_TEST_EXPECT_MSG_EQ(St(rc[1].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[1].byteLength, 100u, "length 100");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(1, 0, 100) == next), true, "content");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 6u, "one more buffer used");
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, "no Terminate");
    }
};

// ------------------------------------------------------------------ D-06

class D06ZeroLengthWriteUnchecked : public DdpCase
{
  public:
    D06ZeroLengthWriteUnchecked()
        : DdpCase("D-06 a zero-length Write to STag BAD at TO 2^64-1 is not checked")
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
        std::size_t errors = 0;
        for (const auto& e : Events())
        {
            errors += (e.type != RdmapEvent::Established);
        }
        NS_TEST_EXPECT_MSG_EQ(errors, 0u, "no error event");
        NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "no completion (nothing flushed)");
        const Bytes data = seg::Pattern(100, 0x42);
        Inject(seg::Send(1, 0, data));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "still no Terminate");
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "the Send is delivered");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 100u, "length");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 100) == data), true, "content");
    }
};

// ------------------------------------------------------------------ D-07 .. D-09 (out of order)

/** A 4000-octet Send as three segments: MO 0/1482/2964, lengths 1482/1482/1036. */
std::vector<Bytes>
ThreeSegmentSend(const Bytes& data, uint32_t msn)
{
    return {seg::Send(msn, 0, Bytes(data.begin(), data.begin() + 1482), false),
            seg::Send(msn, 1482, Bytes(data.begin() + 1482, data.begin() + 2964), false),
            seg::Send(msn, 2964, Bytes(data.begin() + 2964, data.end()), true)};
}

class D07OutOfOrder : public DdpCase
{
  public:
    D07OutOfOrder()
        : DdpCase("D-07 segments handed up as 3, 1, 2 are placed and delivered once with length 4000")
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
        NS_TEST_EXPECT_MSG_EQ(rc[0].id, 0u, "into the first buffer");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 4000u, "length 4000 = 2964 + 1036");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 4000) == data), true, "placed correctly");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "one buffer used");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no Terminate");
    }
};

class D08Duplicate : public DdpCase
{
  public:
    D08Duplicate()
        : DdpCase("D-08 segment 2 handed up twice before segment 1 is delivered exactly once")
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
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 4000u, "length 4000");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 4000) == data), true, "correct content");
        NS_TEST_EXPECT_MSG_EQ(m_ddp->GetPostedCount(0), 7u, "one buffer used");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no error (no Terminate)");
        NS_TEST_EXPECT_MSG_EQ(m_rdmap->IsTerminated(), false, "stream not terminated");
    }
};

class D09DeliveryOrder : public DdpCase
{
  public:
    D09DeliveryOrder()
        : DdpCase("D-09 M2 is not delivered before M1 when M1 segment 1 is held back for 1 s")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes m1 = seg::Pattern(2000, 0x50);
        const Bytes m2 = seg::Pattern(100, 0x70);
        m_inj->SetHold(true);
        Inject(seg::Send(1, 0, Bytes(m1.begin(), m1.begin() + 1482), false)); // M1#1
        Inject(seg::Send(1, 1482, Bytes(m1.begin() + 1482, m1.end()), true)); // M1#2
        Inject(seg::Send(2, 0, m2, true));                                       // M2
        m_inj->Release({2, 1}); // M2, then M1#2
        RunFor(Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 0u, "nothing delivered while M1#1 is held");
        m_inj->Release({0}); // M1#1
        RunFor();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 2u, "both delivered");
        NS_TEST_EXPECT_MSG_EQ(rc[0].id, 0u, "M1 first");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 2000u, "M1 length");
        NS_TEST_EXPECT_MSG_EQ(rc[1].id, 1u, "M2 second");
        NS_TEST_EXPECT_MSG_EQ(rc[1].byteLength, 100u, "M2 length");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "M1 Success");
        NS_TEST_EXPECT_MSG_EQ(St(rc[1].status), St(WcStatus::Success), "M2 Success");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 2000) == m1), true, "M1 content");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(1, 0, 100) == m2), true, "M2 content");
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), 0u, "no Terminate");
    }
};

// ------------------------------------------------------------------ D-10

class D10ReservedBits : public DdpCase
{
  public:
    D10ReservedBits()
        : DdpCase("D-10 DDP Rsvd bits are ignored on receive and sent as zero")
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
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(rc[0].byteLength, 100u, "length");
        NS_TEST_EXPECT_MSG_EQ((RecvBytes(0, 0, 100) == sendData), true, "Send content");
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

class D11TaggedVersion : public DdpCase
{
  public:
    explicit D11TaggedVersion(uint8_t dv)
        : DdpCase("D-11 DV=" + std::to_string(dv) +
                  " on a tagged Write gives TERM 1.1.0x04 MDR=110 SegLen 114"),
          m_dv(dv)
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes w = seg::Tagged(seg::DdpCtrl(true, true, m_dv), seg::RdmapCtrl(0x0), kStagA, 0x10000,
                                    seg::Pattern(100));
        NS_TEST_ASSERT_MSG_EQ(w.size(), 114u, "the offending segment is 114 octets");
        Arm();
        Inject(w);
        RunFor();
        ExpectDdpError(1, 1, 0x04, w);
        const auto t = SentTerminates();
        NS_TEST_ASSERT_MSG_EQ(t.size(), 1u, "one Terminate");
        const Bytes p = t[0].Payload();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6u, "Terminate header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(p[4] << 8 | p[5]), 114u, "SegLen = 114");
    }

    uint8_t m_dv;
};

class D12UntaggedVersion : public DdpCase
{
  public:
    explicit D12UntaggedVersion(uint8_t dv)
        : DdpCase("D-12 DV=" + std::to_string(dv) +
                  " on an untagged Send gives TERM 1.2.0x06 MDR=110 SegLen 118"),
          m_dv(dv)
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes s = seg::Untagged(seg::DdpCtrl(false, true, m_dv), seg::RdmapCtrl(0x3), 0, 0, 1, 0,
                                      seg::Pattern(100));
        NS_TEST_ASSERT_MSG_EQ(s.size(), 118u, "the offending segment is 118 octets");
        Arm();
        Inject(s);
        RunFor();
        ExpectDdpError(1, 2, 0x06, s);
        const auto t = SentTerminates();
        NS_TEST_ASSERT_MSG_EQ(t.size(), 1u, "one Terminate");
        const Bytes p = t[0].Payload();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6u, "Terminate header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(p[4] << 8 | p[5]), 118u, "SegLen = 118");
    }

    uint8_t m_dv;
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
        AddTestCase(new D07OutOfOrder, TestCase::QUICK);
        AddTestCase(new D08Duplicate, TestCase::QUICK);
        AddTestCase(new D09DeliveryOrder, TestCase::QUICK);
        AddTestCase(new D10ReservedBits, TestCase::QUICK);
        for (uint8_t dv : {0, 2, 3})
        {
            AddTestCase(new D11TaggedVersion(dv), TestCase::QUICK);
        }
        for (uint8_t dv : {0, 2, 3})
        {
            AddTestCase(new D12UntaggedVersion(dv), TestCase::QUICK);
        }
    }
};

DdpConformanceSuite g_ddpConformanceSuite;

} // namespace
