/*
 * Unit tests below the conformance level: DdpUntaggedQueue::Check (CHECKLIST A4-A6), the
 * TestLowerLayer's impairments, CompletionQueue notification, and an end-to-end run of two
 * RdmapEndpoints (each with its own DdpEndpoint and MemoryRegistry) over two TestLowerLayers,
 * clean, with segments held and released out of order, and with duplicated segments.
 */
#include "ddp/ddp-endpoint.h"
#include "ddp/ddp-untagged-queue.h"
#include "ddp/test-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/completion-queue.h"
#include "rnic/memory-registry.h"

#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ns3;
using iwarp::DdpUntaggedCode;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes
Pattern(std::size_t n, uint32_t seed)
{
    Bytes b(n);
    uint32_t x = seed * 2654435761u + 1;
    for (std::size_t i = 0; i < n; ++i)
    {
        x = x * 1103515245u + 12345u;
        b[i] = uint8_t(x >> 16);
    }
    return b;
}

// ------------------------------------------------------------------ DdpUntaggedQueue

DdpUntaggedBuffer
Buf(uint64_t len, uint64_t cookie)
{
    return DdpUntaggedBuffer{BufferWindow{ByteBuffer::CreateVirtual(len), 0, len}, cookie};
}

std::string
CheckName(const DdpUntaggedQueue& q, uint32_t msn, uint32_t mo, uint32_t len)
{
    const DdpUntaggedQueue::Match m = q.Check(msn, mo, len);
    return m.ok ? "ok" : iwarp::ErrorCause::Ddp(m.code).ToString();
}

const std::string kNoBuffer = iwarp::ErrorCause::Ddp(DdpUntaggedCode::MsnNoBuffer).ToString();
const std::string kRange = iwarp::ErrorCause::Ddp(DdpUntaggedCode::MsnRange).ToString();
const std::string kInvalidMo = iwarp::ErrorCause::Ddp(DdpUntaggedCode::InvalidMo).ToString();
const std::string kTooLong = iwarp::ErrorCause::Ddp(DdpUntaggedCode::MsgTooLong).ToString();

class UntaggedQueueMsn : public TestCase
{
  public:
    UntaggedQueueMsn()
        : TestCase("DdpUntaggedQueue MSN checks - stale, short of buffers, implausible, wrap (A4)")
    {
    }

  private:
    void DoRun() override
    {
        DdpUntaggedQueue q(16);
        NS_TEST_EXPECT_MSG_EQ(q.GetBaseMsn(), 1u, "MSNs start at 1 (DDP-026)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 0, 10), kNoBuffer, "next MSN, nothing posted (U2)");
        for (uint64_t i = 0; i < 4; ++i)
        {
            q.Post(Buf(100, i));
        }
        for (uint32_t msn = 1; msn <= 4; ++msn)
        {
            NS_TEST_EXPECT_MSG_EQ(CheckName(q, msn, 0, 10), "ok", "posted MSN " << msn);
            NS_TEST_EXPECT_MSG_EQ(q.Find(msn)->cookie, msn - 1u, "buffer for MSN " << msn);
        }
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 0, 0, 10), kRange, "MSN below base (stale, U5)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 5, 0, 10), kNoBuffer, "base + posted (short of buffers)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 5 + 15, 0, 10), kNoBuffer, "last MSN within the lookahead");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 5 + 16, 0, 10), kRange, "first MSN past the lookahead");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1u + 0x7FFFFFFFu, 0, 10), kRange, "base + 0x7FFFFFFF (implausible)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 0x80000001, 0, 10), kRange, "D-20(b): 0x80000001");
        NS_TEST_EXPECT_MSG_EQ((q.Find(5) == nullptr), true, "no buffer for MSN 5");

        // Delivering MSN 1 consumes its buffer: MSN 1 is now stale.
        NS_TEST_EXPECT_MSG_EQ(q.ConsumeFront().cookie, 0u, "oldest buffer consumed");
        NS_TEST_EXPECT_MSG_EQ(q.GetBaseMsn(), 2u, "base advanced");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 0, 10), kRange, "D-20(a): MSN 1 again");
        NS_TEST_EXPECT_MSG_EQ(q.GetPostedCount(), 3u, "three left");

        // The base wraps from 0xFFFFFFFF to 0 (DDP-026).
        DdpUntaggedQueue w(16);
        w.SetBaseMsn(0xFFFFFFFF);
        for (uint64_t i = 0; i < 3; ++i)
        {
            w.Post(Buf(100, 10 + i));
        }
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 0xFFFFFFFF, 0, 1), "ok", "base 0xFFFFFFFF");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 0, 0, 1), "ok", "MSN 0 after the wrap");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 1, 0, 1), "ok", "MSN 1 after the wrap");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 2, 0, 1), kNoBuffer, "MSN 2: short of buffers");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 0xFFFFFFFE, 0, 1), kRange, "0xFFFFFFFE is below the base");
        NS_TEST_EXPECT_MSG_EQ(w.Find(0)->cookie, 11u, "buffer for MSN 0");
        w.ConsumeFront();
        NS_TEST_EXPECT_MSG_EQ(w.GetBaseMsn(), 0u, "base wrapped to 0");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 0xFFFFFFFF, 0, 1), kRange, "0xFFFFFFFF is now stale");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 1, 0, 1), "ok", "MSN 1 still posted");
        NS_TEST_EXPECT_MSG_EQ(w.TakeAll().size(), 2u, "TakeAll returns the rest");
        NS_TEST_EXPECT_MSG_EQ(CheckName(w, 0, 0, 1), kNoBuffer, "after TakeAll");
    }
};

class UntaggedQueueMo : public TestCase
{
  public:
    UntaggedQueueMo()
        : TestCase("DdpUntaggedQueue MO checks (A5) and zero-length segments (A6)")
    {
    }

  private:
    void DoRun() override
    {
        DdpUntaggedQueue q;
        q.Post(Buf(4096, 1));
        q.Post(Buf(0, 2));
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 0, 4096), "ok", "a message filling the buffer");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 4095, 1), "ok", "the last octet");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 4096, 1), kInvalidMo, "MO = buffer length (U3)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 8192, 100), kInvalidMo, "D-21: MO 8192");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 0xFFFFFFFF, 1), kInvalidMo, "MO 0xFFFFFFFF");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 4095, 2), kTooLong, "MO inside, MO + length past the end (U4)");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 0, 4097), kTooLong, "a message one octet too long");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 100, 0xFFFFFFFF), kTooLong, "MO + length beyond 2^32");
        const DdpUntaggedQueue::Match m = q.Check(1, 4095, 2);
        NS_TEST_EXPECT_MSG_EQ((m.buffer != nullptr && m.buffer->cookie == 1), true,
                              "a failed MO check still names the buffer");

        // A6: zero-length segments skip U3/U4 but still need a buffer (U2, U5).
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 5000, 0), "ok", "zero-length: the MO is not checked");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 2, 0, 0), "ok", "zero-length into a zero-length buffer");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 2, 0, 1), kInvalidMo, "one octet into a zero-length buffer");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 3, 0, 0), kNoBuffer, "zero-length, no buffer posted");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 0, 0, 0), kRange, "zero-length, stale MSN");
    }
};

// ------------------------------------------------------------------ TestLowerLayer

/** Records what one TestLowerLayer hands up. */
struct LlpLog
{
    std::vector<std::string> log;        ///< "seg <order> <first payload octet>" and event names
    std::vector<uint64_t> orders;
    std::vector<uint8_t> firstOctets;
    std::vector<uint32_t> mulpdus;
    int sendReady{0};

    void OnRx(Ptr<Packet> p, uint64_t order)
    {
        uint8_t first = 0;
        p->CopyData(&first, 1);
        orders.push_back(order);
        firstOctets.push_back(first);
        log.push_back("seg " + std::to_string(order) + " " + std::to_string(first));
    }
    void OnEvent(DdpLowerLayer::Event e, iwarp::ErrorCause) { log.push_back(ToString(e)); }
    void OnMulpdu(uint32_t m) { mulpdus.push_back(m); }
    void OnSendReady() { ++sendReady; }
};

class LlpPairCase : public TestCase
{
  public:
    using TestCase::TestCase;

  protected:
    void SetUpPair()
    {
        a = CreateObject<TestLowerLayer>();
        b = CreateObject<TestLowerLayer>();
        for (auto [llp, log] : {std::pair{a, &la}, std::pair{b, &lb}})
        {
            llp->SetReceiveCallback(MakeCallback(&LlpLog::OnRx, log));
            llp->SetEventCallback(MakeCallback(&LlpLog::OnEvent, log));
            llp->SetMulpduCallback(MakeCallback(&LlpLog::OnMulpdu, log));
            llp->SetSendReadyCallback(MakeCallback(&LlpLog::OnSendReady, log));
        }
        TestLowerLayer::Connect(a, b);
        Run();
    }
    void Run()
    {
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
    }
    bool Send(uint8_t tag, uint32_t size = 20)
    {
        Bytes d(size, tag);
        return a->SendSegment(Create<Packet>(d.data(), d.size()));
    }
    void DoTeardown() override
    {
        a->Dispose();
        b->Dispose();
        a = b = nullptr;
        Simulator::Destroy();
    }

    Ptr<TestLowerLayer> a;
    Ptr<TestLowerLayer> b;
    LlpLog la;
    LlpLog lb;
};

class LlpOrderImpairments : public LlpPairCase
{
  public:
    LlpOrderImpairments()
        : LlpPairCase("TestLowerLayer order numbers with Hold-Release, DropNext and DuplicateNext")
    {
    }

  private:
    void DoRun() override
    {
        SetUpPair();
        NS_TEST_ASSERT_MSG_EQ((la.log.size() == 1 && lb.log.size() == 1), true, "one event each");
        NS_TEST_EXPECT_MSG_EQ(lb.log[0], std::string("Established"), "Established on B");
        for (uint8_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(Send(i), true, "send " << unsigned(i));
        }
        Run();
        NS_TEST_EXPECT_MSG_EQ((lb.orders == std::vector<uint64_t>{0, 1, 2, 3, 4}), true, "consecutive from 0");

        // Hold 6 segments (orders 5..10), release #4 and #1 first, then the rest.
        a->SetHold(true);
        for (uint8_t i = 5; i < 11; ++i)
        {
            Send(i);
        }
        Run();
        NS_TEST_EXPECT_MSG_EQ(a->GetHeldCount(), 6u, "six held");
        NS_TEST_EXPECT_MSG_EQ(lb.orders.size(), 5u, "nothing held arrived");
        a->Release({4, 1});
        Run();
        NS_TEST_EXPECT_MSG_EQ(a->GetHeldCount(), 4u, "four still held");
        a->SetHold(false);
        a->ReleaseAll();
        Run();
        const std::vector<uint64_t> wantOrders = {0, 1, 2, 3, 4, 9, 6, 5, 7, 8, 10};
        NS_TEST_EXPECT_MSG_EQ((lb.orders == wantOrders), true, "released out of order");
        for (std::size_t i = 0; i < lb.orders.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(lb.orders[i], uint64_t(lb.firstOctets[i]), "order kept for segment " << i);
        }

        // DropNext: the dropped segment keeps its order number; DuplicateNext: same order twice.
        a->DropNext(1);
        Send(11);
        Send(12);
        a->DuplicateNext(1);
        Send(13);
        Send(14);
        Run();
        const std::vector<uint64_t> tail(lb.orders.begin() + 11, lb.orders.end());
        NS_TEST_EXPECT_MSG_EQ((tail == std::vector<uint64_t>{12, 13, 13, 14}), true, "drop 11, duplicate 13");
        NS_TEST_EXPECT_MSG_EQ(a->GetSegmentsSent(), 15u, "15 order numbers used");
        NS_TEST_EXPECT_MSG_EQ(la.orders.size(), 0u, "nothing flowed from B to A");
    }
};

class LlpFlowControl : public LlpPairCase
{
  public:
    LlpFlowControl()
        : LlpPairCase("TestLowerLayer send window, SendReady and MULPDU notification")
    {
    }

  private:
    void DoRun() override
    {
        SetUpPair();
        a->SetTxBlocked(true);
        Run();
        const int readyBefore = la.sendReady;
        NS_TEST_EXPECT_MSG_EQ(Send(1), false, "blocked: refused");
        NS_TEST_EXPECT_MSG_EQ(a->GetSegmentsSent(), 0u, "a refused segment uses no order number");
        a->SetTxBlocked(false);
        Run();
        NS_TEST_EXPECT_MSG_EQ(la.sendReady, readyBefore + 1, "unblocking signals SendReady once");
        NS_TEST_EXPECT_MSG_EQ(Send(2), true, "accepted again");

        a->SetTxCredit(2);
        Run();
        NS_TEST_EXPECT_MSG_EQ(Send(3), true, "credit 1");
        NS_TEST_EXPECT_MSG_EQ(Send(4), true, "credit 2");
        NS_TEST_EXPECT_MSG_EQ(Send(5), false, "credit exhausted");
        const int readyNow = la.sendReady;
        a->SetTxCredit(1);
        Run();
        NS_TEST_EXPECT_MSG_EQ(la.sendReady, readyNow + 1, "new credit signals SendReady");
        NS_TEST_EXPECT_MSG_EQ(Send(5), true, "sent with the new credit");
        Run();
        NS_TEST_EXPECT_MSG_EQ((lb.firstOctets == Bytes{2, 3, 4, 5}), true, "exactly the accepted segments");

        a->SetMulpdu(1000);
        NS_TEST_EXPECT_MSG_EQ(a->GetMulpdu(), 1000u, "MULPDU changed");
        NS_TEST_EXPECT_MSG_EQ((la.mulpdus == std::vector<uint32_t>{1000}), true, "MULPDU callback (DDP-001)");
        NS_TEST_EXPECT_MSG_EQ(lb.mulpdus.size(), 0u, "the peer's MULPDU is its own");
    }
};

class LlpClose : public LlpPairCase
{
  public:
    LlpClose(DdpLowerLayer::CloseMode mode)
        : LlpPairCase(mode == DdpLowerLayer::CloseMode::Graceful
                          ? "TestLowerLayer Close(Graceful) reaches the peer after the data in flight"
                          : "TestLowerLayer Close(Abortive) gives the peer ConnectionLost"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        SetUpPair();
        Send(1);
        Send(2);
        Send(3);
        a->Close(m_mode);
        NS_TEST_EXPECT_MSG_EQ(Send(4), false, "no sends after Close");
        NS_TEST_EXPECT_MSG_EQ(a->IsClosed(), true, "closed");
        Run();
        const bool graceful = m_mode == DdpLowerLayer::CloseMode::Graceful;
        NS_TEST_EXPECT_MSG_EQ(a->WasClosedGracefully(), graceful, "graceful flag");
        NS_TEST_EXPECT_MSG_EQ(a->WasClosedAbortively(), !graceful, "abortive flag");
        const std::vector<std::string> want = {"Established", "seg 0 1", "seg 1 2", "seg 2 3",
                                               graceful ? "PeerGracefulClose" : "ConnectionLost"};
        std::string got;
        for (const auto& s : lb.log)
        {
            got += s + "; ";
        }
        NS_TEST_EXPECT_MSG_EQ((lb.log == want), true, "peer saw: " << got);
    }

    DdpLowerLayer::CloseMode m_mode;
};

// ------------------------------------------------------------------ CompletionQueue

RdmapCompletion
Wc(uint64_t id, bool solicited)
{
    RdmapCompletion c;
    c.id = id;
    c.type = RdmapWrType::Recv;
    c.solicited = solicited;
    return c;
}

class CompletionQueueNotify : public TestCase
{
  public:
    CompletionQueueNotify()
        : TestCase("CompletionQueue solicited-only, next-completion and persistent notification")
    {
    }

  private:
    void OnNotify(const RdmapCompletion& c) { m_notified.push_back(c.id); }

    void DoRun() override
    {
        Ptr<CompletionQueue> cq = CreateObject<CompletionQueue>();
        cq->TraceConnectWithoutContext("Notify", MakeCallback(&CompletionQueueNotify::OnNotify, this));
        cq->Push(Wc(1, true));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 0u, "disarmed: no notification");

        cq->RequestNotify(CompletionQueue::SOLICITED_ONLY);
        cq->Push(Wc(2, false));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 0u, "solicited-only ignores an unsolicited one");
        cq->Push(Wc(3, true));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 1u, "solicited-only fires on a solicited one");
        cq->Push(Wc(4, true));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 1u, "and then disarms");

        cq->RequestNotify(CompletionQueue::NEXT_COMPLETION);
        cq->Push(Wc(5, false));
        cq->Push(Wc(6, false));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 2u, "next-completion fires once");

        cq->RequestNotify(CompletionQueue::NEXT_COMPLETION, true);
        for (uint64_t id = 7; id <= 9; ++id)
        {
            cq->Push(Wc(id, false));
        }
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 5u, "persistent fires every time");

        cq->RequestNotify(CompletionQueue::SOLICITED_ONLY, true);
        cq->Push(Wc(10, true));
        cq->Push(Wc(11, false));
        cq->Push(Wc(12, true));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 7u, "persistent solicited-only");

        cq->RequestNotify(CompletionQueue::DISARMED);
        cq->Push(Wc(13, true));
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 7u, "disarmed again");
        NS_TEST_EXPECT_MSG_EQ((m_notified == std::vector<uint64_t>{3, 5, 7, 8, 9, 10, 12}), true,
                              "the trace saw the notifying completions");

        NS_TEST_EXPECT_MSG_EQ(cq->GetDepth(), 13u, "all queued");
        const auto first = cq->Poll(3);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 3u, "Poll(3)");
        NS_TEST_EXPECT_MSG_EQ(first[0].id + first[1].id + first[2].id, 6u, "oldest first (1, 2, 3)");
        NS_TEST_EXPECT_MSG_EQ(first[2].id, 3u, "in order");
        NS_TEST_EXPECT_MSG_EQ(cq->Poll().size(), 10u, "the rest");
        NS_TEST_EXPECT_MSG_EQ(cq->GetDepth(), 0u, "empty");
        cq->Dispose();
    }

    std::vector<uint64_t> m_notified;
};

class CompletionQueueOverflow : public TestCase
{
  public:
    CompletionQueueOverflow()
        : TestCase("CompletionQueue capacity overflow returns false and sets HasOverflowed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CompletionQueue> cq = CreateObject<CompletionQueue>();
        Ptr<CompletionQueue> other = CreateObject<CompletionQueue>();
        cq->SetAttribute("Capacity", UintegerValue(3));
        cq->RequestNotify(CompletionQueue::NEXT_COMPLETION, true);
        for (uint64_t id = 1; id <= 3; ++id)
        {
            NS_TEST_EXPECT_MSG_EQ(cq->Push(Wc(id, false)), true, "push " << id);
        }
        NS_TEST_EXPECT_MSG_EQ(cq->HasOverflowed(), false, "full but not overflowed");
        NS_TEST_EXPECT_MSG_EQ(cq->Push(Wc(4, false)), false, "push beyond capacity fails");
        NS_TEST_EXPECT_MSG_EQ(cq->HasOverflowed(), true, "overflow recorded");
        NS_TEST_EXPECT_MSG_EQ(cq->GetDepth(), 3u, "nothing was added");
        NS_TEST_EXPECT_MSG_EQ(cq->GetNotifications(), 3u, "the refused completion notified nobody");
        NS_TEST_EXPECT_MSG_EQ((other->Push(Wc(9, false)) && !other->HasOverflowed()), true,
                              "another CQ is unaffected (RDMAP-094)");
        NS_TEST_EXPECT_MSG_EQ(cq->Poll(1).at(0).id, 1u, "the oldest survives");
        NS_TEST_EXPECT_MSG_EQ(cq->Push(Wc(5, false)), true, "room again after a poll");
        NS_TEST_EXPECT_MSG_EQ(cq->HasOverflowed(), true, "overflow stays recorded");
        cq->Dispose();
        other->Dispose();
    }
};

// ------------------------------------------------------------------ end to end

enum class Impairment
{
    None,
    Reorder,   ///< 2% of the segments in each direction held, then released in reverse
    Duplicate, ///< 5% of the segments in each direction delivered twice
};

/** One RNIC side: LLP, DDP, RDMAP, registry, and what it observed. */
struct Side
{
    Ptr<TestLowerLayer> llp;
    Ptr<DdpEndpoint> ddp;
    Ptr<RdmapEndpoint> rdmap;
    Ptr<MemoryRegistry> reg;
    Ptr<ProtectionDomain> pd;
    std::vector<RdmapCompletion> completions;
    std::vector<RdmapEventInfo> events;
    std::map<uint8_t, int> delivered; ///< by RDMAP opcode
    int rxErrors{0};
    int held{0};
    int duplicated{0};
    Impairment impairment{Impairment::None};
    std::mt19937 rng;

    void Build(uint32_t streamId, uint32_t seed)
    {
        rng.seed(seed);
        llp = CreateObject<TestLowerLayer>();
        llp->SetAttribute("Mulpdu", UintegerValue(1500));
        reg = CreateObject<MemoryRegistry>();
        reg->AssignStreams(seed);
        pd = reg->AllocatePd();
        ddp = CreateObject<DdpEndpoint>();
        ddp->SetLowerLayer(llp);
        rdmap = CreateObject<RdmapEndpoint>();
        rdmap->Attach(ddp, reg, StreamContext{pd->GetId(), streamId});
        rdmap->SetCompletionCallback(MakeCallback(&Side::OnCompletion, this));
        rdmap->SetEventCallback(MakeCallback(&Side::OnEvent, this));
        ddp->TraceConnectWithoutContext("Delivered", MakeCallback(&Side::OnDelivered, this));
        ddp->TraceConnectWithoutContext("RxError", MakeCallback(&Side::OnRxError, this));
        llp->TraceConnectWithoutContext("Tx", MakeCallback(&Side::OnTx, this));
    }
    void OnCompletion(const RdmapCompletion& c) { completions.push_back(c); }
    void OnEvent(const RdmapEventInfo& e) { events.push_back(e); }
    void OnDelivered(const DdpDelivery& d) { ++delivered[RdmapControl::OpcodeBits(d.rsvdUlp0)]; }
    void OnRxError(const DdpReceiveError&) { ++rxErrors; }
    void OnTx(Ptr<const Packet>, uint64_t)
    {
        // The trace fires before the LLP decides on hold and duplication for this segment.
        const uint32_t r = rng() % 100;
        const bool hold = impairment == Impairment::Reorder && r < 2;
        llp->SetHold(hold);
        held += hold;
        if (impairment == Impairment::Duplicate && r < 5)
        {
            llp->DuplicateNext(1);
            ++duplicated;
        }
    }
    void ReleaseReversed()
    {
        std::vector<std::size_t> idx;
        for (std::size_t i = llp->GetHeldCount(); i > 0; --i)
        {
            idx.push_back(i - 1);
        }
        llp->Release(idx);
    }
    Bytes Read(Ptr<MemoryRegion> mr, uint64_t offset, std::size_t len) const
    {
        const uint8_t* p = mr->GetBuffer()->Data() + offset;
        return Bytes(p, p + len);
    }
    void Dispose()
    {
        rdmap->Dispose();
        llp->Dispose();
        reg->Dispose();
    }
};

class EndToEnd : public TestCase
{
  public:
    explicit EndToEnd(Impairment imp)
        : TestCase(Name(imp)),
          m_imp(imp)
    {
    }

  private:
    static std::string Name(Impairment imp)
    {
        const std::string base = "Two RNICs - 1 MiB Write, 100 KB Send, 300 KB Read byte-exact at MULPDU 1500";
        switch (imp)
        {
        case Impairment::Reorder:
            return base + " with 2% of segments held and released out of order";
        case Impairment::Duplicate:
            return base + " with 5% of segments duplicated";
        case Impairment::None:
            break;
        }
        return base;
    }

    void ReleaseTick()
    {
        m_a.ReleaseReversed();
        m_b.ReleaseReversed();
        if (Simulator::Now() < MilliSeconds(20))
        {
            Simulator::Schedule(MicroSeconds(25), &EndToEnd::ReleaseTick, this);
        }
    }

    void DoRun() override
    {
        constexpr std::size_t kWriteLen = 1 << 20;
        constexpr std::size_t kSendLen = 100000;
        constexpr std::size_t kReadLen = 300000;
        constexpr uint64_t kReadSrcTo = 0x7000000000000000ull;
        using namespace MemAccess;
        m_a.Build(1, 11);
        m_b.Build(1, 22);
        m_a.impairment = m_b.impairment = m_imp;

        const Bytes writeData = Pattern(kWriteLen, 1);
        const Bytes sendData = Pattern(kSendLen, 2);
        const Bytes readData = Pattern(kReadLen, 3);
        // A: the Write's source and the Read's sink. B: the Write's sink, the Read's source, a receive buffer.
        Ptr<MemoryRegion> aSrc = m_a.reg->Register(m_a.pd, kWriteLen, kLocalRead | kLocalWrite);
        aSrc->GetBuffer()->Write(0, writeData.data(), kWriteLen);
        Ptr<MemoryRegion> aSink = m_a.reg->Register(m_a.pd, kReadLen, kLocalRead | kLocalWrite,
                                                    MemoryRegistry::Backing::Real, 0x5000);
        Ptr<MemoryRegion> bSink = m_b.reg->Register(m_b.pd, kWriteLen, kRemoteWrite | kLocalRead,
                                                    MemoryRegistry::Backing::Real, 0x100000);
        Ptr<MemoryRegion> bSrc = m_b.reg->Register(m_b.pd, kReadLen, kRemoteRead | kLocalRead,
                                                   MemoryRegistry::Backing::Real, kReadSrcTo);
        bSrc->GetBuffer()->Write(0, readData.data(), kReadLen);
        Ptr<ByteBuffer> bRecv = ByteBuffer::CreateReal(128 * 1024);
        m_b.rdmap->PostRecv(77, BufferWindow{bRecv, 0, bRecv->GetSize()});

        TestLowerLayer::Connect(m_a.llp, m_b.llp);
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        if (m_imp == Impairment::Reorder)
        {
            Simulator::Schedule(MicroSeconds(25), &EndToEnd::ReleaseTick, this);
        }

        RdmapWorkRequest w;
        w.id = 1;
        w.type = RdmapWrType::Write;
        w.source = Create<BufferPayloadSource>(BufferWindow{aSrc->GetBuffer(), 0, kWriteLen});
        w.remoteStag = bSink->GetStag();
        w.remoteTo = 0x100000;
        RdmapWorkRequest s;
        s.id = 2;
        s.type = RdmapWrType::Send;
        s.source = Create<PacketPayloadSource>(Create<Packet>(sendData.data(), kSendLen));
        RdmapWorkRequest r;
        r.id = 3;
        r.type = RdmapWrType::Read;
        r.remoteStag = bSrc->GetStag();
        r.remoteTo = kReadSrcTo;
        r.localStag = aSink->GetStag();
        r.localTo = 0x5000;
        r.readLength = kReadLen;
        NS_TEST_ASSERT_MSG_EQ((m_a.rdmap->PostSend(w) && m_a.rdmap->PostSend(s) && m_a.rdmap->PostSend(r)), true,
                              "posted");
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();

        if (m_imp == Impairment::Reorder)
        {
            NS_TEST_EXPECT_MSG_GT(m_a.held + m_b.held, 5, "segments were actually held");
            NS_TEST_EXPECT_MSG_EQ(m_a.llp->GetHeldCount() + m_b.llp->GetHeldCount(), 0u, "all released");
        }
        if (m_imp == Impairment::Duplicate)
        {
            NS_TEST_EXPECT_MSG_GT(m_a.duplicated + m_b.duplicated, 20, "segments were actually duplicated");
        }
        NS_TEST_EXPECT_MSG_GT(m_a.llp->GetSegmentsSent(), uint64_t(kWriteLen / 1486), "segmented at 1500");

        // Data: byte-exact at every sink.
        NS_TEST_EXPECT_MSG_EQ((m_b.Read(bSink, 0, kWriteLen) == writeData), true, "RDMA Write data at B");
        NS_TEST_EXPECT_MSG_EQ((Bytes(bRecv->Data(), bRecv->Data() + kSendLen) == sendData), true, "Send data at B");
        NS_TEST_EXPECT_MSG_EQ((m_a.Read(aSink, 0, kReadLen) == readData), true, "RDMA Read data at A");

        // Completions: A's three in posting order, B's one receive.
        NS_TEST_ASSERT_MSG_EQ(m_a.completions.size(), 3u, "three completions at A");
        const RdmapWrType types[] = {RdmapWrType::Write, RdmapWrType::Send, RdmapWrType::Read};
        const uint64_t lens[] = {kWriteLen, kSendLen, kReadLen};
        for (std::size_t i = 0; i < 3; ++i)
        {
            const RdmapCompletion& c = m_a.completions[i];
            NS_TEST_EXPECT_MSG_EQ(c.id, i + 1, "completion order at A");
            NS_TEST_EXPECT_MSG_EQ(std::string(ToString(c.type)), ToString(types[i]), "type of " << i + 1);
            NS_TEST_EXPECT_MSG_EQ(std::string(ToString(c.status)), "Success", "status of " << i + 1);
            NS_TEST_EXPECT_MSG_EQ(c.byteLength, lens[i], "length of " << i + 1);
        }
        NS_TEST_ASSERT_MSG_EQ(m_b.completions.size(), 1u, "one completion at B");
        NS_TEST_EXPECT_MSG_EQ(m_b.completions[0].id, 77u, "B's receive buffer");
        NS_TEST_EXPECT_MSG_EQ(m_b.completions[0].IsRecv(), true, "a receive completion");
        NS_TEST_EXPECT_MSG_EQ(std::string(ToString(m_b.completions[0].status)), "Success", "B's status");
        NS_TEST_EXPECT_MSG_EQ(m_b.completions[0].byteLength, kSendLen, "B's length");

        // Each message delivered exactly once, no errors, no Terminates.
        const std::map<uint8_t, int> wantB = {{0x0, 1}, {0x1, 1}, {0x3, 1}};
        const std::map<uint8_t, int> wantA = {{0x2, 1}};
        NS_TEST_EXPECT_MSG_EQ((m_b.delivered == wantB), true, "B: one Write, one Read Request, one Send");
        NS_TEST_EXPECT_MSG_EQ((m_a.delivered == wantA), true, "A: one Read Response");
        NS_TEST_EXPECT_MSG_EQ(m_a.rxErrors + m_b.rxErrors, 0, "no receive errors");
        for (const Side* side : {&m_a, &m_b})
        {
            for (const RdmapEventInfo& e : side->events)
            {
                NS_TEST_EXPECT_MSG_EQ(std::string(ToString(e.type)), "Established",
                                      "unexpected event, cause " << e.cause.ToString());
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_a.rdmap->GetOutstandingReads(), 0u, "no Read outstanding");
        NS_TEST_EXPECT_MSG_EQ((m_a.rdmap->IsTerminated() || m_b.rdmap->IsTerminated()), false, "not terminated");
    }

    void DoTeardown() override
    {
        m_a.Dispose();
        m_b.Dispose();
        Simulator::Destroy();
    }

    Impairment m_imp;
    Side m_a;
    Side m_b;
};

class DdpUnitSuite : public TestSuite
{
  public:
    DdpUnitSuite()
        : TestSuite("iwarp-ddp-unit", UNIT)
    {
        AddTestCase(new UntaggedQueueMsn, TestCase::QUICK);
        AddTestCase(new UntaggedQueueMo, TestCase::QUICK);
        AddTestCase(new LlpOrderImpairments, TestCase::QUICK);
        AddTestCase(new LlpFlowControl, TestCase::QUICK);
        AddTestCase(new LlpClose(DdpLowerLayer::CloseMode::Graceful), TestCase::QUICK);
        AddTestCase(new LlpClose(DdpLowerLayer::CloseMode::Abortive), TestCase::QUICK);
        AddTestCase(new CompletionQueueNotify, TestCase::QUICK);
        AddTestCase(new CompletionQueueOverflow, TestCase::QUICK);
        AddTestCase(new EndToEnd(Impairment::None), TestCase::QUICK);
        AddTestCase(new EndToEnd(Impairment::Reorder), TestCase::QUICK);
        AddTestCase(new EndToEnd(Impairment::Duplicate), TestCase::QUICK);
    }
};

DdpUnitSuite g_ddpUnitSuite;

} // namespace
