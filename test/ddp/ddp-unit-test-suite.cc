/*
 * Unit tests below the conformance level: DdpUntaggedQueue::Check (doc/conformance.md A4-A6), the
 * TestLowerLayer's impairments and CompletionQueue notification. The end-to-end runs of two
 * stacks are in rdmap/two-stack-test-suite.cc.
 */
#include "support/test-bytes.h"

#include "ddp/ddp-untagged-queue.h"
#include "ddp/test-lower-layer.h"
#include "rnic/completion-queue.h"

#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;
using iwarp::DdpUntaggedCode;
using ns3::iwarptest::Bytes;

namespace
{

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

        // A6: zero-length segments skip U3/U4 but still need a buffer (U2, U5); their MO, the
        // message's length (DDP-046), may reach the buffer's end but not pass it.
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 4096, 0), "ok", "zero-length at MO = buffer length");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 1, 5000, 0), kInvalidMo, "zero-length past the buffer's end");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 2, 0, 0), "ok", "zero-length into a zero-length buffer");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 2, 0, 1), kInvalidMo, "one octet into a zero-length buffer");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 3, 0, 0), kNoBuffer, "zero-length, no buffer posted");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, 0, 0, 0), kRange, "zero-length, stale MSN");
    }
};

class UntaggedQueueOrder : public TestCase
{
  public:
    UntaggedQueueOrder()
        : TestCase("DdpUntaggedQueue keeps posting order across consumes and compaction; consumed buffers go")
    {
    }

  private:
    void DoRun() override
    {
        // Posts and consumes interleaved (two posts, one consume) for 1,000 messages: the queue drops
        // consumed entries as it goes, and every MSN must still find its own buffer, oldest first.
        DdpUntaggedQueue q;
        uint64_t posted = 0;
        uint64_t consumed = 0;
        bool inOrder = true;
        bool findsOwn = true;
        for (int round = 0; round < 1000; ++round)
        {
            q.Post(Buf(10 + posted, posted));
            ++posted;
            q.Post(Buf(10 + posted, posted));
            ++posted;
            const uint32_t base = q.GetBaseMsn();
            for (uint32_t i = 0; i < q.GetPostedCount(); ++i)
            {
                const DdpUntaggedBuffer* b = q.Find(base + i);
                findsOwn = findsOwn && b && b->cookie == consumed + i && b->window.length == 10 + consumed + i;
            }
            inOrder = inOrder && q.ConsumeFront().cookie == consumed;
            ++consumed;
        }
        NS_TEST_EXPECT_MSG_EQ(findsOwn, true, "each posted MSN finds its own buffer");
        NS_TEST_EXPECT_MSG_EQ(inOrder, true, "ConsumeFront returns the oldest");
        NS_TEST_EXPECT_MSG_EQ(q.GetPostedCount(), 1000u, "1,000 still posted");
        NS_TEST_EXPECT_MSG_EQ(q.GetBaseMsn(), iwarp::kMsnInitial + 1000, "base advanced per consume");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, q.GetBaseMsn() + 999, 0, 1), "ok", "the newest is in range");
        NS_TEST_EXPECT_MSG_EQ(CheckName(q, q.GetBaseMsn() - 1, 0, 1), kRange, "the last consumed is stale");

        // A consumed buffer belongs to the caller: the queue keeps no reference to it.
        Ptr<ByteBuffer> held = ByteBuffer::CreateVirtual(8);
        DdpUntaggedQueue r;
        r.Post(DdpUntaggedBuffer{BufferWindow{held, 0, 8}, 7});
        r.Post(Buf(8, 8));
        const uint32_t before = held->GetReferenceCount();
        r.ConsumeFront();
        NS_TEST_EXPECT_MSG_EQ(held->GetReferenceCount(), before - 1, "the queue dropped its reference");
        const std::vector<DdpUntaggedBuffer> rest = r.TakeAll();
        NS_TEST_EXPECT_MSG_EQ((rest.size() == 1 && rest[0].cookie == 8), true, "TakeAll after a consume: the rest");
        NS_TEST_EXPECT_MSG_EQ(r.GetPostedCount(), 0u, "empty after TakeAll");
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

/** A DdpLowerLayer::User that records what it is told, like LlpLog does for the callbacks. */
class LlpUserLog : public DdpLowerLayer::User
{
  public:
    void OnLlpReceive(Ptr<Packet> p, uint64_t order) override { log.OnRx(p, order); }
    void OnLlpMulpdu(uint32_t m) override { log.OnMulpdu(m); }
    void OnLlpSendReady() override { log.OnSendReady(); }
    void OnLlpEvent(DdpLowerLayer::Event e, iwarp::ErrorCause c) override { log.OnEvent(e, c); }
    LlpLog log;
};

class LlpUserInterface : public LlpPairCase
{
  public:
    LlpUserInterface()
        : LlpPairCase("DdpLowerLayer::User: an attached user gets every notification, the callbacks none; "
                      "detached, the callbacks again")
    {
    }

  private:
    void DoRun() override
    {
        SetUpPair();
        LlpUserLog user;
        b->SetUser(&user);
        Send(7);
        Run();
        NS_TEST_EXPECT_MSG_EQ((user.log.orders == std::vector<uint64_t>{0}), true, "the user got the segment");
        NS_TEST_EXPECT_MSG_EQ((user.log.firstOctets == std::vector<uint8_t>{7}), true, "its octets");
        NS_TEST_EXPECT_MSG_EQ(lb.orders.size(), 0u, "the callbacks got nothing while a user is attached");
        a->Close(DdpLowerLayer::CloseMode::Abortive); // the peer of the user's layer aborts
        Run();
        NS_TEST_EXPECT_MSG_EQ(user.log.log.empty(), false, "events go to the user too");
        NS_TEST_EXPECT_MSG_EQ(user.log.log.back(), std::string("ConnectionLost"), "the abort, to the user");
        NS_TEST_EXPECT_MSG_EQ(lb.log.size(), 1u, "the callback saw only Established, from before the user");

        // Detached: the callbacks are back (a fresh pair, since this one is closed).
        a->Dispose();
        b->Dispose();
        SetUpPair();
        b->SetUser(&user);
        b->SetUser(nullptr);
        const std::size_t before = user.log.orders.size();
        Send(9);
        Run();
        NS_TEST_EXPECT_MSG_EQ(user.log.orders.size(), before, "a detached user hears nothing");
        NS_TEST_EXPECT_MSG_EQ(lb.orders.size(), 1u, "the callback got the segment");
    }
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

WorkCompletion
Wc(uint64_t id, bool solicited)
{
    WorkCompletion c;
    c.id = id;
    c.type = WrOpcode::Recv;
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
    void OnNotify(const WorkCompletion& c) { m_notified.push_back(c.id); }

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
        NS_TEST_EXPECT_MSG_EQ(m_notified.empty(), true,
                              "notifications are raised from their own events, not inside Push");
        Simulator::Run();
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
        Simulator::Destroy();
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

class DdpUnitSuite : public TestSuite
{
  public:
    DdpUnitSuite()
        : TestSuite("iwarp-ddp-unit", UNIT)
    {
        AddTestCase(new UntaggedQueueMsn, TestCase::QUICK);
        AddTestCase(new UntaggedQueueMo, TestCase::QUICK);
        AddTestCase(new UntaggedQueueOrder, TestCase::QUICK);
        AddTestCase(new LlpOrderImpairments, TestCase::QUICK);
        AddTestCase(new LlpUserInterface, TestCase::QUICK);
        AddTestCase(new LlpFlowControl, TestCase::QUICK);
        AddTestCase(new LlpClose(DdpLowerLayer::CloseMode::Graceful), TestCase::QUICK);
        AddTestCase(new LlpClose(DdpLowerLayer::CloseMode::Abortive), TestCase::QUICK);
        AddTestCase(new CompletionQueueNotify, TestCase::QUICK);
        AddTestCase(new CompletionQueueOverflow, TestCase::QUICK);
    }
};

DdpUnitSuite g_ddpUnitSuite;

} // namespace
