/*
 * A queue pair's verbs behaviour, whatever transport carries it: each case runs over the iWARP
 * transport (MPA/TCP through the connection manager) and over the in-memory loopback transport
 * (names ending "-loopback"), through the QP and CQ interface alone. That one set of cases holds
 * over both is what shows the RdmaTransport seam keeps transport details out of the verbs.
 */
#include "support/abort-message.h"
#include "rnic/loopback-rdma-transport.h"
#include "rnic/rnic-pair.h"
#include "rnic/verbs-test-util.h"

#include "rnic/iwarp-transport.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>

using namespace ns3;

namespace
{

using namespace MemAccess;
using iwarptest::Filled;
using iwarptest::SameOctets;
using iwarptest::Wr;

/** Nothing was ever placed in a fresh (zeroed) region. */
bool
AllZero(Ptr<MemoryRegion> mr)
{
    const uint8_t* d = mr->GetBuffer()->Data();
    return std::all_of(d, d + mr->GetBuffer()->GetSize(), [](uint8_t b) { return b == 0; });
}

/** A TestCase run over one transport: `base` names it, with "-loopback" for the loopback. */
class TransportCase : public TestCase
{
  public:
    TransportCase(const std::string& base, TestTransport t)
        : TestCase(TransportCaseName(base, t)),
          m_transport(t)
    {
    }

  protected:
    TestTransport m_transport;
};

class QpTransferTest : public TransportCase
{
  public:
    explicit QpTransferTest(TestTransport t)
        : TransportCase("QP verbs: Write, Send with Solicited Event and Read move octets byte-exact and "
                        "complete in posting order",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        NS_TEST_ASSERT_MSG_EQ(p.cqp->GetState(), QueuePair::CONNECTED, "client QP connected");
        NS_TEST_ASSERT_MSG_EQ(p.sqp->GetState(), QueuePair::CONNECTED, "server QP connected");
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 100000, kLocalRead | kLocalWrite, 1);
        Ptr<MemoryRegion> dst = p.server->RegisterMemory(p.spd, 100000, kLocalWrite | kRemoteWrite);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 4096, kLocalWrite);
        Ptr<MemoryRegion> far = Filled(p.server, p.spd, 8000, kLocalRead | kRemoteRead, 99);
        // What a polling application sees: the tagged octets placed at each end, per STag.
        std::map<uint32_t, uint64_t> placed;
        const RdmaTransport::PlacementCallback count = MakeBoundCallback(
            +[](std::map<uint32_t, uint64_t>* m, uint32_t stag, uint64_t, uint64_t length) { (*m)[stag] += length; },
            &placed);
        p.cqp->GetTransport()->WatchPlacement(count);
        p.sqp->GetTransport()->WatchPlacement(count);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(5, LocalBuffer{rcv->GetStag(), 0, 4096}), true, "post recv");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, 100000}, dst->GetStag())),
                              true,
                              "post Write");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(2, WrOpcode::SendSE, {src->GetStag(), 0, 1000})), true, "post Send");
        // The Read's sink is the tail of the source region, so it lands after the Write read it.
        NS_TEST_EXPECT_MSG_EQ(
            p.cqp->PostSend(Wr(3, WrOpcode::Read, {src->GetStag(), 90000, 5000}, far->GetStag(), 3000)),
            true,
            "post Read");
        p.Run(MilliSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 3u, "three send-queue completions");
        for (uint64_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].id, i + 1, "completed in posting order");
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, WcStatus::Success, "request " << i + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[2].type, WrOpcode::Read, "the Read's completion says Read");
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 1u, "one receive completion");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].id, 5u, "the posted receive");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].IsRecv(), true, "a receive");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].byteLength, 1000u, "Send length");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].solicited, true, "Solicited Event delivered");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, dst, 0, 90000), true, "Write placed byte-exact");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(src, 0, rcv, 0, 1000), true, "Send delivered byte-exact");
        NS_TEST_EXPECT_MSG_EQ(SameOctets(far, 3000, src, 90000, 5000), true, "Read placed byte-exact");
        NS_TEST_EXPECT_MSG_EQ(placed[dst->GetStag()], 100000u, "the Write's placements, watched at the responder");
        NS_TEST_EXPECT_MSG_EQ(placed[src->GetStag()], 5000u, "the Read Response's, watched at the requester");
        NS_TEST_EXPECT_MSG_EQ(placed.size(), 2u, "and nothing else (a Send is not tagged)");
    }
};

class QpLocalChecksTest : public TransportCase
{
  public:
    explicit QpLocalChecksTest(TestTransport t)
        : TransportCase("QP verbs: unregistered or out-of-range local buffers are refused; a buffer "
                        "deregistered before transmit fails that request and the QP",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> src = p.client->RegisterMemory(p.cpd, 4096, kLocalRead | kLocalWrite);
        SendWr s = Wr(1, WrOpcode::Send, {0xDEAD0000, 0, 10});
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(s), false, "unknown lkey refused");
        s.local = LocalBuffer{src->GetStag(), 4000, 200};
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(s), false, "beyond the region refused");
        Ptr<MemoryRegion> ro = p.client->RegisterMemory(p.cpd, 4096, kLocalRead);
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(1, WrOpcode::Read, {ro->GetStag(), 0, 10}, 1, 0)), false,
                              "a Read into a buffer without local write refused");
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 4096, kLocalRead);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(1, LocalBuffer{rcv->GetStag(), 0, 4096}), false,
                              "a receive buffer without local write refused");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone.size() + p.serverDone.size(), 0u, "a refused request completes nothing");
        // Accepted at post time, gone at transmit time (RDMAP-083). When the payload is read
        // differs: iWARP's engine reads the first Send at once and builds the second while it is
        // busy, so only the third reads its buffer later; the loopback reads each as it runs.
        s.local = LocalBuffer{src->GetStag(), 0, 100};
        for (uint64_t id = 1; id <= 3; ++id)
        {
            s.id = id;
            NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(s), true, "valid post");
        }
        p.client->GetMemory()->Deregister(src->GetStag());
        p.Run(MilliSeconds(20));
        const std::vector<WcStatus> expected =
            m_transport == TestTransport::Iwarp
                ? std::vector<WcStatus>{WcStatus::Success, WcStatus::Success, WcStatus::LocalOperationError}
                : std::vector<WcStatus>{WcStatus::LocalOperationError, WcStatus::Flushed, WcStatus::Flushed};
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 3u, "three completions");
        for (std::size_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, expected[i], "Send " << i + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::ERROR, "the QP is in error");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(s), false, "and takes no more work");
    }
};

class QpRemoteProtectionTest : public TransportCase
{
  public:
    explicit QpRemoteProtectionTest(TestTransport t)
        : TransportCase("QP verbs: a Read of an STag the peer refuses completes RemoteError, both QPs go to "
                        "error and the peer's posted receives are flushed",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> sink = p.client->RegisterMemory(p.cpd, 1000, kLocalWrite);
        Ptr<MemoryRegion> wo = Filled(p.server, p.spd, 1000, kLocalWrite | kRemoteWrite, 3);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 1000, kLocalWrite);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(7, LocalBuffer{rcv->GetStag(), 0, 1000}), true, "post recv");
        // The source allows remote writes only.
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(1, WrOpcode::Read, {sink->GetStag(), 0, 1000}, wo->GetStag())),
                              true,
                              "post Read");
        p.Run(MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 1u, "the Read completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::RemoteError, "refused by the peer");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::ERROR, "requester in error");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetState(), QueuePair::ERROR, "responder in error");
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 1u, "the posted receive completed");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].id, 7u, "that receive");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].status, WcStatus::Flushed, "flushed");
        NS_TEST_EXPECT_MSG_EQ(AllZero(sink), true, "nothing placed in the Read's sink");
    }
};

class QpWriteRefusedTest : public TransportCase
{
  public:
    explicit QpWriteRefusedTest(TestTransport t)
        : TransportCase("QP verbs: a Write the peer refuses completes once sent (over RoCEv2: RemoteError, "
                        "its NAK), then the refusal puts both QPs in error and flushes what follows",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 1000, kLocalRead | kLocalWrite, 3);
        Ptr<MemoryRegion> ro = p.server->RegisterMemory(p.spd, 1000, kLocalWrite | kRemoteRead);
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(1, WrOpcode::Write, {src->GetStag(), 0, 1000}, ro->GetStag())),
                              true,
                              "post Write");
        // A Read after it waits for its Response, which never comes: flushed by the refusal.
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(2, WrOpcode::Read, {src->GetStag(), 0, 10}, ro->GetStag())),
                              true,
                              "post Read");
        p.Run(MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "both completed");
        // iWARP completes a Write once its data has left; InfiniBand at its ACK, so the NAK is its answer.
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status,
                              (m_transport == TestTransport::Roce ? WcStatus::RemoteError : WcStatus::Success),
                              "the Write");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::RemoteError, "the Read flushed by the refusal");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::ERROR, "requester in error");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetState(), QueuePair::ERROR, "responder in error");
        NS_TEST_EXPECT_MSG_EQ(AllZero(ro), true, "nothing placed in the refused region");
    }
};

class QpSendTooLongTest : public TransportCase
{
  public:
    explicit QpSendTooLongTest(TestTransport t)
        : TransportCase("QP verbs: a Send longer than the posted receive completes it LocalLengthError, "
                        "flushes the next and puts both QPs in error",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 2000, kLocalRead, 5);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 2000, kLocalWrite);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(1, LocalBuffer{rcv->GetStag(), 0, 500}), true, "short receive");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(2, LocalBuffer{rcv->GetStag(), 500, 1500}), true, "second receive");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(9, WrOpcode::Send, {src->GetStag(), 0, 1000})), true, "post Send");
        p.Run(MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 1u, "the Send completed");
        // iWARP: the Send left before the refusal came; InfiniBand completes it with the NAK that refuses it.
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status,
                              (m_transport == TestTransport::Roce ? WcStatus::RemoteError : WcStatus::Success),
                              "the Send");
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 2u, "both receives completed");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].id, 1u, "the short one first");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].status, WcStatus::LocalLengthError, "too short");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[1].status, WcStatus::Flushed, "the other flushed");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::ERROR, "requester in error");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetState(), QueuePair::ERROR, "responder in error");
    }
};

class QpSendInvalidateTest : public TransportCase
{
  public:
    explicit QpSendInvalidateTest(TestTransport t)
        : TransportCase("QP verbs: Send with Invalidate reports the invalidated STag, and a later Read of "
                        "it is refused",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> src = Filled(p.client, p.cpd, 1000, kLocalRead | kLocalWrite, 11);
        Ptr<MemoryRegion> sink = p.server->RegisterMemory(p.spd, 1000, kLocalWrite | kRemoteRead);
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 1000, kLocalWrite);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(1, LocalBuffer{rcv->GetStag(), 0, 1000}), true, "post recv");
        SendWr inv = Wr(1, WrOpcode::SendInv, {src->GetStag(), 0, 100});
        inv.invalidateStag = sink->GetStag();
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(inv), true, "post SendInv");
        p.Run(MilliSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 1u, "received");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].status, WcStatus::Success, "delivered");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].invalidated, true, "an STag was invalidated");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].invalidatedStag, sink->GetStag(), "the one named");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->PostSend(Wr(2, WrOpcode::Read, {src->GetStag(), 0, 100}, sink->GetStag())),
                              true,
                              "post Read");
        p.Run(MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), 2u, "both completed");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[0].status, WcStatus::Success, "SendInv");
        NS_TEST_EXPECT_MSG_EQ(p.clientDone[1].status, WcStatus::RemoteError, "Read of the invalidated STag");
    }
};

class QpDisconnectFlushTest : public TransportCase
{
  public:
    explicit QpDisconnectFlushTest(TestTransport t)
        : TransportCase("QP verbs: an abortive disconnect flushes the posted receives and the QP takes no "
                        "more work",
                        t)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p(m_transport);
        p.ConnectAndSettle();
        Ptr<MemoryRegion> rcv = p.server->RegisterMemory(p.spd, 1000, kLocalWrite);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(1, LocalBuffer{rcv->GetStag(), 0, 500}), true, "recv 1");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(2, LocalBuffer{rcv->GetStag(), 500, 500}), true, "recv 2");
        p.sqp->Disconnect(false);
        NS_TEST_EXPECT_MSG_EQ(p.sqp->GetState(), QueuePair::CLOSED, "closed");
        NS_TEST_EXPECT_MSG_EQ(p.sqp->PostRecv(3, LocalBuffer{rcv->GetStag(), 0, 500}), false, "no more receives");
        p.Run(MilliSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(p.serverDone.size(), 2u, "both receives completed");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].id, 1u, "in posting order");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[0].status, WcStatus::Flushed, "flushed");
        NS_TEST_EXPECT_MSG_EQ(p.serverDone[1].status, WcStatus::Flushed, "flushed");
    }
};

class TransportSelectionTest : public TestCase
{
  public:
    TransportSelectionTest()
        : TestCase("the connector's transport kind picks each QP's transport; a QP of another transport where "
                   "iWARP is needed and a connection of the wrong kind are fatal errors")
    {
    }

  private:
    void DoRun() override
    {
        {
            // One pair at a time: both take the same addresses.
            RnicPair loop(TestTransport::Loopback);
            NS_TEST_EXPECT_MSG_EQ(loop.cqp->GetTransport()->GetInstanceTypeId(), LoopbackRdmaTransport::GetTypeId(),
                                  "the loopback RNIC's QP");
            NS_TEST_EXPECT_MSG_EQ((loop.cqp->GetTransport() == loop.sqp->GetTransport()), false, "one transport per QP");
            NS_TEST_EXPECT_MSG_EQ(bool(IwarpTransport::Find(loop.cqp)), false, "Find: not an iWARP QP");
            const std::string notIwarp = AbortMessage([&loop]() { IwarpTransport::Of(loop.cqp, "the probe"); });
            NS_TEST_EXPECT_MSG_NE(notIwarp.find("the probe needs an iWARP queue pair, but QP 1 runs over "
                                                "ns3::LoopbackRdmaTransport"),
                                  std::string::npos,
                                  notIwarp);
            const std::string wrongPeer = AbortMessage([&loop]() { loop.cqp->Bind(loop.client); });
            NS_TEST_EXPECT_MSG_NE(wrongPeer.find("binds to its peer's LoopbackRdmaTransport"), std::string::npos, wrongPeer);
        }
        RnicPair iw(TestTransport::Iwarp);
        NS_TEST_EXPECT_MSG_EQ(iw.cqp->GetTransport()->GetInstanceTypeId(), IwarpTransport::GetTypeId(),
                              "IwarpTransport by default");
        NS_TEST_EXPECT_MSG_EQ((IwarpTransport::Find(iw.cqp) == iw.cqp->GetTransport()), true, "Find: the iWARP transport");
        const std::string notLlp = AbortMessage([&iw]() { iw.cqp->Bind(iw.sqp->GetTransport()); });
        NS_TEST_EXPECT_MSG_NE(notLlp.find("IwarpTransport binds to a DDP lower layer (MPA or SCTP), not a "
                                          "ns3::IwarpTransport"),
                              std::string::npos,
                              notLlp);
    }
};

class CqNotificationTest : public TestCase
{
  public:
    CqNotificationTest()
        : TestCase("CompletionQueue Notification: Poll raises no event, Event one per completion, Solicited only "
                   "for a solicited Send; a one-shot arm returns to the standing mode")
    {
    }

  private:
    /** The events `cq` raises for `completions`, pushed one by one. */
    static uint64_t Events(Ptr<CompletionQueue> cq, const std::vector<WorkCompletion>& completions)
    {
        uint64_t raised = 0;
        cq->TraceConnectWithoutContext("Notify", MakeBoundCallback(+[](uint64_t* n, const WorkCompletion&) { ++*n; },
                                                                   &raised));
        for (const WorkCompletion& c : completions)
        {
            cq->Push(c);
        }
        Simulator::Run();
        return raised;
    }

    void DoRun() override
    {
        WorkCompletion plain;
        WorkCompletion solicited;
        solicited.solicited = true;
        const std::vector<WorkCompletion> three{plain, solicited, plain};
        auto make = [](const std::string& mode) {
            Ptr<CompletionQueue> cq = CreateObject<CompletionQueue>();
            cq->SetAttribute("Notification", StringValue(mode));
            return cq;
        };
        NS_TEST_EXPECT_MSG_EQ(Events(make("Poll"), three), 0u, "busy-polling: no event");
        NS_TEST_EXPECT_MSG_EQ(Events(make("Event"), three), 3u, "armed for every completion");
        NS_TEST_EXPECT_MSG_EQ(Events(make("Solicited"), three), 1u, "the solicited Send only");
        Ptr<CompletionQueue> cq = make("Solicited");
        cq->RequestNotify(CompletionQueue::NEXT_COMPLETION); // one-shot, over the standing mode
        NS_TEST_EXPECT_MSG_EQ(Events(cq, {plain, plain, solicited, plain}), 2u,
                              "the first completion, then back to Solicited: the solicited Send");
        EnumValue mode;
        cq->GetAttribute("Notification", mode);
        NS_TEST_EXPECT_MSG_EQ(mode.Get(), int(CompletionQueue::SOLICITED_ONLY), "the standing mode reads back");
        Simulator::Destroy();
    }
};

class QpVerbsSuite : public TestSuite
{
  public:
    QpVerbsSuite()
        : TestSuite("iwarp-qp-verbs", UNIT)
    {
        AddTestCase(new TransportSelectionTest, TestCase::QUICK);
        AddTestCase(new CqNotificationTest, TestCase::QUICK);
        for (TestTransport t : {TestTransport::Iwarp, TestTransport::Loopback, TestTransport::Roce})
        {
            AddTestCase(new QpTransferTest(t), TestCase::QUICK);
            AddTestCase(new QpLocalChecksTest(t), TestCase::QUICK);
            AddTestCase(new QpRemoteProtectionTest(t), TestCase::QUICK);
            AddTestCase(new QpWriteRefusedTest(t), TestCase::QUICK);
            AddTestCase(new QpSendTooLongTest(t), TestCase::QUICK);
            AddTestCase(new QpSendInvalidateTest(t), TestCase::QUICK);
            AddTestCase(new QpDisconnectFlushTest(t), TestCase::QUICK);
        }
    }
};

QpVerbsSuite g_qpVerbsSuite;

} // namespace
