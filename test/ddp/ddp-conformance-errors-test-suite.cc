/*
 * doc/conformance.md §4.1: the DDP conformance cases D-13 ... D-24 (receive errors, their Terminates
 * and postconditions P1-P6, and teardown), each a TestCase named by its id.
 * D-01 ... D-06 are in ddp-conformance-test-suite.cc, D-07 ... D-12 in
 * ddp-conformance-order-test-suite.cc.
 */
#include "support/conformance-fixture.h"

#include <iostream>
#include <map>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

using iwarp::ErrorCause;

/** A negative case whose stimulus is one injected segment and whose result is one TERM. */
class OneSegmentError : public ConformanceFixture
{
  public:
    OneSegmentError(const std::string& name, Bytes segment, ErrorCause expected)
        : ConformanceFixture(name),
          m_segment(std::move(segment)),
          m_expected(expected)
    {
    }

  protected:
    virtual void Configure() { SetUpFixture(); }

    void DoRun() override
    {
        Configure();
        InjectOffending(m_segment);
        ExpectDdpError(m_expected.layer, m_expected.etype, m_expected.code, m_segment);
    }

    Bytes m_segment;
    ErrorCause m_expected;
};

ErrorCause
Tagged(iwarp::DdpTaggedCode c)
{
    return ErrorCause::Ddp(c);
}

ErrorCause
Untagged(iwarp::DdpUntaggedCode c)
{
    return ErrorCause::Ddp(c);
}

Bytes
UntaggedSendOnQn(uint32_t qn, uint32_t msn, uint32_t mo, const Bytes& payload)
{
    return seg::Untagged(seg::DdpCtrl(false, true), seg::RdmapCtrl(0x3), 0, qn, msn, mo, payload);
}

// ------------------------------------------------------------------ D-13

class D13WriteInvalidStag : public ConformanceFixture
{
  public:
    D13WriteInvalidStag()
        : ConformanceFixture("D-13 RDMA Write to an unallocated STag gives TERM 1.1.0x00 MDR=110 (V5)")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        InjectV1ExpectV5();
        ExpectSilentAfterError();
    }
};

// ------------------------------------------------------------------ D-14

class D14cSecondSegmentOutOfBounds : public ConformanceFixture
{
  public:
    D14cSecondSegmentOutOfBounds()
        : ConformanceFixture("D-14(c) a 2-segment Write whose second segment runs past A gives TERM 1.1.0x01 "
                             "with the second header")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes d1 = seg::Pattern(1486, 0x21);
        const Bytes d2 = seg::Pattern(1486, 0x43);
        const Bytes s1 = seg::Write(kStagA, 0x1F800, d1, false);
        const Bytes s2 = seg::Write(kStagA, 0x1FDCE, d2, true);
        Arm();
        Inject(s1);
        Inject(s2);
        RunFor();
        ExpectTerminate(1, 1, 0x01, true, true, false, &s2, nullptr, nullptr);
        // P1 as the row states it: seg1 may stay placed, nothing of seg2, nothing outside A.
        const std::vector<Bytes> after = SnapshotMemory();
        NS_TEST_ASSERT_MSG_EQ(after.size(), m_before.size(), "same regions");
        for (std::size_t i = 1; i < after.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((after[i] == m_before[i]), true, "region or buffer " << i << " untouched");
        }
        const Bytes& a0 = m_before[0];
        const Bytes& a1 = after[0];
        const std::size_t s1Off = 0x1F800 - 0x10000;
        const std::size_t s2Off = 0x1FDCE - 0x10000;
        NS_TEST_EXPECT_MSG_EQ((Sub(a1, 0, s1Off) == Sub(a0, 0, s1Off)), true, "A below seg1 untouched");
        const Bytes seg1Area = Sub(a1, s1Off, s2Off - s1Off);
        const bool seg1Placed = seg1Area == d1;
        NS_TEST_EXPECT_MSG_EQ((seg1Placed || seg1Area == Sub(a0, s1Off, s2Off - s1Off)), true,
                              "seg1's range holds seg1's data or is untouched");
        NS_TEST_EXPECT_MSG_EQ((Sub(a1, s2Off, a1.size() - s2Off) == Sub(a0, s2Off, a0.size() - s2Off)), true,
                              "no octet of seg2 placed in A");
        std::cout << "D-14(c): seg1 " << (seg1Placed ? "stayed placed" : "was not placed") << std::endl;
        ExpectAfterError();
    }
};

// ------------------------------------------------------------------ D-17

class D17WriteToReadOnly : public ConformanceFixture
{
  public:
    D17WriteToReadOnly()
        : ConformanceFixture("D-17 a Write to the read-only STag RO is refused, TERM 1.1.0x00 preferred")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes w = seg::Write(kStagRO, 0x20000, seg::Pattern(100));
        InjectOffending(w);
        const ErrorCause accessRights =
            ErrorCause::Rdma(iwarp::RdmapEType::RemoteProtection, iwarp::RdmapCode::AccessRights);
        const ErrorCause got =
            ExpectTerminateOneOf({Tagged(iwarp::DdpTaggedCode::InvalidStag), accessRights}, "AMBIG A3");
        if (got == Tagged(iwarp::DdpTaggedCode::InvalidStag))
        {
            ExpectTerminate(1, 1, 0x00, true, true, false, &w, nullptr, &m_before);
        }
        else
        {
            std::cout << "D-17: 0/1/0x02 conflicts with RDMAP Figure 10 (flagged)" << std::endl;
            NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == m_before), true, "P1: nothing placed");
        }
        ExpectAfterError();
    }
};

// ------------------------------------------------------------------ D-19, D-21 variants

class D19NoBuffer : public OneSegmentError
{
  public:
    D19NoBuffer()
        : OneSegmentError("D-19 a Send with no QN 0 buffer posted gives TERM 1.2.0x02 MDR=110",
                          seg::Send(1, 0, seg::Pattern(100)), Untagged(iwarp::DdpUntaggedCode::MsnNoBuffer))
    {
    }

  private:
    void Configure() override
    {
        Options o;
        o.recvBuffers = 0;
        SetUpFixture(o);
    }
};

// ------------------------------------------------------------------ D-20

class D20aStaleMsn : public ConformanceFixture
{
  public:
    D20aStaleMsn()
        : ConformanceFixture("D-20(a) a second Send with the completed MSN 1 gives TERM 1.2.0x03 MDR=110")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes first = seg::Pattern(100, 0x10);
        Inject(seg::Send(1, 0, first));
        RunFor();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "the Send with MSN 1 completed");
        NS_TEST_EXPECT_MSG_EQ(St(rc[0].status), St(WcStatus::Success), "Success");
        NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, "no Terminate yet");
        const Bytes stale = seg::Send(1, 0, seg::Pattern(100, 0x90));
        InjectOffending(stale);
        ExpectDdpError(1, 2, 0x03, stale);
    }
};

class D20bFarMsn : public ConformanceFixture
{
  public:
    D20bFarMsn()
        : ConformanceFixture("D-20(b) a Send with MSN 0x80000001 gives TERM 1.2.0x03 (or 0x02)")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        NS_TEST_ASSERT_MSG_EQ(m_ddp->GetPostedCount(0), 8u, "8 buffers posted");
        const Bytes s = seg::Send(0x80000001, 0, seg::Pattern(100));
        InjectOffending(s);
        const ErrorCause got = ExpectTerminateOneOf(
            {Untagged(iwarp::DdpUntaggedCode::MsnRange), Untagged(iwarp::DdpUntaggedCode::MsnNoBuffer)}, "AMBIG A4");
        ExpectDdpError(got.layer, got.etype, got.code, s);
    }
};

/** A6's other side: a zero-length last segment at MO = buffer length ends a message that fills the buffer. */
class ZeroLengthAtBufferEnd : public ConformanceFixture
{
  public:
    ZeroLengthAtBufferEnd()
        : ConformanceFixture("D-21(z) a zero-length last segment at MO 4096 ends a 4096-octet Send that fills its buffer")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes data = seg::Pattern(4096, 0x21);
        Inject(seg::Send(1, 0, data, false));
        Inject(seg::Send(1, 4096, Bytes{}, true));
        RunFor();
        ExpectNoError();
        const auto rc = RecvCompletions();
        NS_TEST_ASSERT_MSG_EQ(rc.size(), 1u, "one receive completion");
        ExpectDelivered(rc[0], 0, data, "the Send");
    }
};

// ------------------------------------------------------------------ D-22

class D22MessageTooLong : public ConformanceFixture
{
  public:
    D22MessageTooLong()
        : ConformanceFixture("D-22 a 1400-octet Send into 1024-octet buffers gives TERM 1.2.0x05 and a length error")
    {
    }

  private:
    void DoRun() override
    {
        Options o;
        o.recvBufferSize = 1024;
        SetUpFixture(o);
        const Bytes s = seg::Send(1, 0, seg::Pattern(1400));
        InjectOffending(s);
        const ErrorCause got =
            ExpectTerminateOneOf({Untagged(iwarp::DdpUntaggedCode::MsgTooLong)}, "AMBIG A5");
        ExpectTerminate(got.layer, got.etype, got.code, true, true, false, &s, nullptr, &m_before);
        bool found = false;
        for (const auto& c : RecvCompletions())
        {
            if (c.id == 0)
            {
                found = true;
                NS_TEST_EXPECT_MSG_EQ(St(c.status), St(WcStatus::LocalLengthError),
                                      "the receive completion reports message larger than buffer");
            }
            else
            {
                NS_TEST_EXPECT_MSG_NE(St(c.status), St(WcStatus::Success), "other buffers not successful");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(found, true, "the first receive buffer completed");
        ExpectAfterError();
    }
};

// ------------------------------------------------------------------ D-23

class D23FirstErrorOnly : public ConformanceFixture
{
  public:
    D23FirstErrorOnly()
        : ConformanceFixture("D-23 only the first error is reported, later segments dropped, later posts fail")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes write = seg::Write(kStagBAD, 0x10000, seg::Pattern(100, 0x01));
        const Bytes badQn = UntaggedSendOnQn(3, 1, 0, seg::Pattern(100, 0x02));
        const Bytes good = seg::Send(1, 0, seg::Pattern(100, 0x03));
        Arm();
        // (a) all three in the same instant: the Terminate cannot go out in between.
        Inject(write);
        Inject(badQn);
        Inject(good);
        RunFor();
        ExpectTerminate(1, 1, 0x00, true, true, false, &write, nullptr, &m_before);
        NS_TEST_EXPECT_MSG_EQ(RecvOk(), 0u, "(a) the valid Send is silently dropped");
        // (b) after the Terminate the ULP posts a Send: refused or flushed, nothing sent.
        const std::size_t sent = Sent().size();
        const bool accepted = PostSendBytes(7, RdmapWrType::Send, seg::Pattern(50));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Sent().size(), sent, "(b) nothing else goes out on S1");
        if (accepted)
        {
            bool flushed = false;
            for (const auto& c : SendCompletions())
            {
                if (c.id == 7)
                {
                    flushed = true;
                    NS_TEST_EXPECT_MSG_NE(St(c.status), St(WcStatus::Success), "(b) flushed with an error");
                }
            }
            NS_TEST_EXPECT_MSG_EQ(flushed, true, "(b) an accepted post is flushed with an error");
            std::cout << "D-23(b): the post was accepted and flushed" << std::endl;
        }
        else
        {
            std::cout << "D-23(b): the post failed" << std::endl;
        }
        ExpectAfterError();
        // The stream stays until the ULP asks for abortive teardown.
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedAbortively(), false, "(b) no abortive teardown yet");
        m_rdmap->Close(DdpLowerLayer::CloseMode::Abortive);
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->IsClosed(), true, "(b) torn down once the ULP asks");
    }
};

// ------------------------------------------------------------------ D-24

class D24aDataAfterPeerClose : public ConformanceFixture
{
  public:
    D24aDataAfterPeerClose()
        : ConformanceFixture("D-24(a) data after the LLP graceful teardown is not placed and aborts the stream")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        m_inj->SignalGracefulClose();
        RunFor();
        std::cout << "D-24(a): half-close reported to the ULP: "
                  << (HasEvent(RdmapEvent::HalfClosed) ? "yes" : "no") << std::endl;
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->IsClosed(), false, "the DUT keeps its half open (DDP-053)");
        Arm();
        Inject(seg::Send(1, 0, seg::Pattern(100, 0x44)));
        Inject(seg::Write(kStagA, 0x10000, seg::Pattern(100, 0x45)));
        RunFor();
        NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == m_before), true, "the extra data is not placed");
        NS_TEST_EXPECT_MSG_EQ(RecvOk(), 0u, "the extra data is not delivered");
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedAbortively(), true, "the stream is torn down abortively");
    }
};

class D24bPostAfterGracefulClose : public ConformanceFixture
{
  public:
    D24bPostAfterGracefulClose()
        : ConformanceFixture("D-24(b) after a ULP graceful teardown a new Send fails and queued data is still sent")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes data = seg::Pattern(3000, 0x77);
        m_dutLlp->SetTxBlocked(true); // keep the first Send queued in the DUT
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(1, RdmapWrType::Send, data), true, "the first Send is posted");
        m_rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
        NS_TEST_EXPECT_MSG_EQ(PostSendBytes(2, RdmapWrType::Send, seg::Pattern(10)), false,
                              "a Send posted after the graceful close fails");
        m_dutLlp->SetTxBlocked(false);
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 3u, "the queued 3000-octet Send still goes out (3 segments)");
        Bytes all;
        for (const auto& c : s)
        {
            NS_TEST_EXPECT_MSG_EQ(c.msn, 1u, "only MSN 1 is on the wire");
            NS_TEST_EXPECT_MSG_EQ(unsigned(c.opcode), 0x3u, "a Send");
            const Bytes p = c.Payload();
            all.insert(all.end(), p.begin(), p.end());
        }
        NS_TEST_EXPECT_MSG_EQ((all == data), true, "all of the queued data");
        const auto sc = SendCompletions();
        NS_TEST_ASSERT_MSG_EQ(sc.size(), 1u, "one send completion");
        NS_TEST_EXPECT_MSG_EQ(sc[0].id, 1u, "for the first Send");
        NS_TEST_EXPECT_MSG_EQ(St(sc[0].status), St(WcStatus::Success), "it completed");
        NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedGracefully(), true, "the LLP is closed gracefully");
    }
};

class D24cConnectionLost : public ConformanceFixture
{
  public:
    D24cConnectionLost()
        : ConformanceFixture("D-24(c) losing the LLP reports a fatal error and completes every request in error")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        NS_TEST_ASSERT_MSG_EQ(PostRead(100, 0x0000F00D, 0, 256, kStagL1, 0), true, "a Read (never answered)");
        RunFor();
        NS_TEST_ASSERT_MSG_EQ(Sent().size(), 1u, "the Read Request went out");
        m_dutLlp->SetTxBlocked(true);
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(101, RdmapWrType::Send, seg::Pattern(100)), true,
                              "a Send (stuck in the DUT)");
        NS_TEST_ASSERT_MSG_EQ(PostSendBytes(102, RdmapWrType::Write, seg::Pattern(100), 0x0000F00D, 0), true,
                              "a Write (stuck in the DUT)");
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(Completions().size(), 0u, "nothing completed yet");
        m_dutLlp->SignalConnectionLost();
        RunFor();
        NS_TEST_EXPECT_MSG_EQ(HasEvent(RdmapEvent::FatalError), true, "the ULP is told of a fatal error");
        std::map<uint64_t, int> sendSeen;
        std::map<uint64_t, int> recvSeen;
        for (const auto& c : Completions())
        {
            NS_TEST_EXPECT_MSG_NE(St(c.status), St(WcStatus::Success),
                                  "request " << c.id << " completes in error");
            ++(c.IsRecv() ? recvSeen : sendSeen)[c.id];
        }
        for (uint64_t id : {100, 101, 102})
        {
            NS_TEST_EXPECT_MSG_EQ(sendSeen[id], 1, "send-queue request " << id << " completed once");
        }
        for (uint64_t id = 0; id < 8; ++id)
        {
            NS_TEST_EXPECT_MSG_EQ(recvSeen[id], 1, "receive " << id << " completed once");
        }
        NS_TEST_EXPECT_MSG_EQ(SendCompletions().size(), 3u, "no other send completion");
        NS_TEST_EXPECT_MSG_EQ(RecvCompletions().size(), 8u, "no other receive completion");
    }
};

class DdpConformanceErrorsSuite : public TestSuite
{
  public:
    DdpConformanceErrorsSuite()
        : TestSuite("iwarp-ddp-conformance-errors", UNIT)
    {
        using TC = iwarp::DdpTaggedCode;
        using UC = iwarp::DdpUntaggedCode;
        AddTestCase(new D13WriteInvalidStag, TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-14(a) a Write to A one octet below its base gives TERM 1.1.0x01 MDR=110",
                                        seg::Write(kStagA, 0x0FFFF, seg::Pattern(100)), Tagged(TC::BaseBounds)),
                    TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-14(b) a Write of 101 octets at 0x1FF9C, one past the end of A, gives "
                                        "TERM 1.1.0x01 MDR=110",
                                        seg::Write(kStagA, 0x1FF9C, seg::Pattern(101)), Tagged(TC::BaseBounds)),
                    TestCase::QUICK);
        AddTestCase(new D14cSecondSegmentOutOfBounds, TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-15 a Write to TOP whose TO + length wraps 2^64 gives TERM 1.1.0x03 "
                                        "MDR=110",
                                        seg::Write(kStagTOP, 0xFFFFFFFFFFFFFF00ull, seg::Pattern(512)),
                                        Tagged(TC::ToWrap)),
                    TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-16(a) a Write to X of PD P2 gives TERM 1.1.0x02 MDR=110",
                                        seg::Write(kStagX, 0x40000, seg::Pattern(100)), Tagged(TC::StagNotAssoc)),
                    TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-16(b) a Write to Y scoped to stream S2 gives TERM 1.1.0x02 MDR=110",
                                        seg::Write(kStagY, 0x70000, seg::Pattern(100)), Tagged(TC::StagNotAssoc)),
                    TestCase::QUICK);
        AddTestCase(new D17WriteToReadOnly, TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-18 a Send on QN 3 gives TERM 1.2.0x01 MDR=110",
                                        UntaggedSendOnQn(3, 1, 0, seg::Pattern(100)), Untagged(UC::InvalidQn)),
                    TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-18 a Send on QN 0xFFFFFFFF gives TERM 1.2.0x01 MDR=110",
                                        UntaggedSendOnQn(0xFFFFFFFF, 1, 0, seg::Pattern(100)),
                                        Untagged(UC::InvalidQn)),
                    TestCase::QUICK);
        AddTestCase(new D19NoBuffer, TestCase::QUICK);
        AddTestCase(new D20aStaleMsn, TestCase::QUICK);
        AddTestCase(new D20bFarMsn, TestCase::QUICK);
        AddTestCase(new OneSegmentError("D-21 a Send with MO 8192 into 4096-octet buffers gives TERM 1.2.0x04 "
                                        "MDR=110",
                                        seg::Send(1, 8192, seg::Pattern(100)), Untagged(UC::InvalidMo)),
                    TestCase::QUICK);
        // Found by fuzz/ddp-rdmap-endpoint (fuzz/regressions/.../zero-length-send-mo-beyond-buffer): a
        // zero-length L=1 segment whose MO lies past the buffer completed the receive with length MO.
        AddTestCase(new OneSegmentError("D-21(z) a zero-length Send with MO 4097 into 4096-octet buffers gives "
                                        "TERM 1.2.0x04 MDR=110 (A6: its legal MOs are 0 .. buffer length)",
                                        seg::Send(1, 4097, Bytes{}), Untagged(UC::InvalidMo)),
                    TestCase::QUICK);
        AddTestCase(new ZeroLengthAtBufferEnd, TestCase::QUICK);
        AddTestCase(new D22MessageTooLong, TestCase::QUICK);
        AddTestCase(new D23FirstErrorOnly, TestCase::QUICK);
        AddTestCase(new D24aDataAfterPeerClose, TestCase::QUICK);
        AddTestCase(new D24bPostAfterGracefulClose, TestCase::QUICK);
        AddTestCase(new D24cConnectionLost, TestCase::QUICK);
    }
};

DdpConformanceErrorsSuite g_ddpConformanceErrorsSuite;

} // namespace
