/*
 * The RNIC's engine (RnicPipeline) and its batching in each direction (TxBatchWindow, RxBatchWindow).
 *
 * A driver plays DDP: it offers segments back to back (a message's segments with the L bit on the
 * last) and retries on SendReady. Below the pipeline a TestLowerLayer records when each segment is
 * handed down. Each segment's serial finish is recomputed here from RnicPipeline::Cost:
 *   finish(i) = max(accepted(i), finish(i-1)) + Cost(i)
 * and the hand-down times are checked against it: never before it, at most the window after it,
 * exactly at it for a message's last segment and for the first segment after an idle engine.
 */
#include "ddp/test-lower-layer.h"
#include "rnic/rnic-pipeline.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/** Offers `messages` × `perMessage` segments of `size` octets; records acceptance times. */
class SegmentDriver
{
  public:
    SegmentDriver(Ptr<RnicPipeline> pipeline, uint32_t messages, uint32_t perMessage, uint32_t size)
        : m_pipeline(pipeline),
          m_total(messages * perMessage),
          m_perMessage(perMessage),
          m_size(size)
    {
        pipeline->SetSendReadyCallback(MakeCallback(&SegmentDriver::Pump, this));
    }

    void Pump()
    {
        while (m_accepted.size() < m_total)
        {
            const bool last = (m_accepted.size() + 1) % m_perMessage == 0;
            std::vector<uint8_t> bytes(m_size, 0);
            bytes[0] = last ? iwarp::kDdpL : 0; // the control octet RnicPipeline reads
            if (!m_pipeline->SendSegment(Create<Packet>(bytes.data(), m_size)))
            {
                return; // SendReady calls again
            }
            m_accepted.push_back(Simulator::Now());
        }
    }

    bool IsLast(std::size_t i) const { return (i + 1) % m_perMessage == 0; }

    Ptr<RnicPipeline> m_pipeline;
    uint32_t m_total;
    uint32_t m_perMessage;
    uint32_t m_size;
    std::vector<Time> m_accepted;
};

void
RecordHandDown(std::vector<Time>* out, Ptr<const Packet>, uint64_t)
{
    out->push_back(Simulator::Now());
}

/**
 * A pipeline over one of two connected TestLowerLayers, recording when each segment is handed
 * down; it disposes all three (the lower layers reference each other) and the simulator.
 */
struct TxRig
{
    TxRig()
    {
        TestLowerLayer::Connect(llp, peer);
        pipeline->SetInner(llp);
        llp->TraceConnectWithoutContext("Tx", MakeBoundCallback(&RecordHandDown, &handed));
    }

    ~TxRig()
    {
        pipeline->Dispose();
        llp->Dispose();
        peer->Dispose();
        Simulator::Destroy();
    }

    Ptr<TestLowerLayer> llp = CreateObject<TestLowerLayer>();
    Ptr<TestLowerLayer> peer = CreateObject<TestLowerLayer>();
    Ptr<RnicPipeline> pipeline = CreateObject<RnicPipeline>();
    std::vector<Time> handed;
};

/** What both directions' cases check last: with a window, segments move in batches; without, one by one. */
class BatchingTestCase : public TestCase
{
  protected:
    BatchingTestCase(const std::string& name, Time window)
        : TestCase(name),
          m_window(window)
    {
    }

    void ExpectBatches(const std::vector<Time>& times)
    {
        std::set<int64_t> distinct;
        for (const Time& t : times)
        {
            distinct.insert(t.GetTimeStep());
        }
        if (m_window.IsZero())
        {
            NS_TEST_EXPECT_MSG_EQ(distinct.size(), times.size(), "no window: one event per segment");
        }
        else
        {
            // 1000-octet segments cost 180 ns at the defaults: the window holds several.
            NS_TEST_EXPECT_MSG_LT(distinct.size() * 2, times.size(), "segments move in batches");
        }
    }

    Time m_window;
};

class TxBatchingTest : public BatchingTestCase
{
  public:
    TxBatchingTest(Time window)
        : BatchingTestCase("transmit engine with TxBatchWindow " + std::to_string(window.GetNanoSeconds()) +
                               " ns: each segment leaves no earlier than its serial finish and at most the window "
                               "later; last segments and the first after idle leave exactly",
                           window)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t messages = 4;
        const uint32_t perMessage = 12;
        const uint32_t size = 1000;
        TxRig rig;
        Ptr<RnicPipeline> pipeline = rig.pipeline;
        Ptr<TestLowerLayer> llp = rig.llp;
        std::vector<Time>& handed = rig.handed;
        pipeline->SetAttribute("TxBatchWindow", TimeValue(m_window));
        SegmentDriver driver(pipeline, messages, perMessage, size);
        Simulator::Schedule(MicroSeconds(1), &SegmentDriver::Pump, &driver);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(handed.size(), std::size_t(messages * perMessage), "every segment handed down");
        Time previousFinish;
        for (std::size_t i = 0; i < handed.size(); ++i)
        {
            const bool last = driver.IsLast(i);
            const Time start = std::max(driver.m_accepted[i], previousFinish);
            const Time finish = start + pipeline->Cost(size, last, true);
            const bool afterIdle = i == 0 || driver.m_accepted[i] >= previousFinish;
            NS_TEST_EXPECT_MSG_EQ((handed[i] >= finish), true, "segment " << i << " left before the engine was done");
            NS_TEST_EXPECT_MSG_EQ((handed[i] <= finish + m_window), true,
                                  "segment " << i << " held longer than the window");
            if (last || afterIdle)
            {
                NS_TEST_EXPECT_MSG_EQ(handed[i], finish, "segment " << i << " (last or after idle) leaves exactly");
            }
            if (last)
            {
                // Accepted only by an idle engine: the completion DDP reports on acceptance keeps its time.
                NS_TEST_EXPECT_MSG_EQ(driver.m_accepted[i], handed[i - 1], "a last segment waits for an idle engine");
            }
            previousFinish = finish;
        }
        ExpectBatches(handed);
    }
};

class TxBlockedLlpTest : public TestCase
{
  public:
    TxBlockedLlpTest()
        : TestCase("transmit engine: segments an LLP refuses wait in order and leave on its SendReady")
    {
    }

  private:
    void DoRun() override
    {
        TxRig rig;
        Ptr<RnicPipeline> pipeline = rig.pipeline;
        Ptr<TestLowerLayer> llp = rig.llp;
        std::vector<Time>& handed = rig.handed;
        SegmentDriver driver(pipeline, 2, 8, 1000);
        llp->SetTxCredit(3); // takes three, then refuses until unblocked
        Simulator::Schedule(MicroSeconds(1), &SegmentDriver::Pump, &driver);
        Simulator::Schedule(MicroSeconds(20), &TestLowerLayer::SetTxCredit, llp, std::numeric_limits<uint64_t>::max());
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(handed.size(), 16u, "nothing lost while the LLP refused");
        NS_TEST_EXPECT_MSG_EQ((handed[2] < MicroSeconds(20)), true, "three left before the block");
        NS_TEST_EXPECT_MSG_EQ(handed[3], MicroSeconds(20), "the rest left on SendReady");
    }
};

/**
 * TxWorkAhead: while the LLP refuses, the engine keeps preparing what DDP offers (not a message's
 * last segment) up to TxWorkAhead octets, and all of it goes down at the LLP's SendReady, at that
 * one instant. Without it, the engine stops at one TxBatchWindow's worth and the rest trickles down
 * in timed batches after the SendReady.
 */
class TxWorkAheadTest : public TestCase
{
  public:
    TxWorkAheadTest(uint32_t workAhead, const std::string& engineRate = "100Gbps")
        : TestCase("transmit engine with TxWorkAhead " + std::to_string(workAhead) + ", EngineRate " + engineRate +
                   ": while the LLP is full the engine prepares up to that many octets, which go down on its "
                   "SendReady or, if not yet done, at most TxBatchWindow after their finish"),
          m_workAhead(workAhead),
          m_engineRate(engineRate)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 1000;
        const Time unblock = MicroSeconds(50);
        TxRig rig;
        Ptr<RnicPipeline> pipeline = rig.pipeline;
        Ptr<TestLowerLayer> llp = rig.llp;
        std::vector<Time>& handed = rig.handed;
        pipeline->SetAttribute("TxWorkAhead", UintegerValue(m_workAhead));
        pipeline->SetAttribute("EngineRate", DataRateValue(DataRate(m_engineRate)));
        // At 1 Gb/s a 1000-octet segment takes 8.1 us: the LLP opens while prepared ones are in the engine.
        const bool slow = DataRate(m_engineRate) < DataRate("10Gbps");
        SegmentDriver driver(pipeline, 2, 40, size);
        llp->SetTxCredit(3); // takes three, then refuses until unblocked
        Simulator::Schedule(MicroSeconds(1), &SegmentDriver::Pump, &driver);
        Simulator::Schedule(unblock, &TestLowerLayer::SetTxCredit, llp, std::numeric_limits<uint64_t>::max());
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(handed.size(), 80u, "nothing lost while the LLP refused");
        const auto before = std::count_if(driver.m_accepted.begin(), driver.m_accepted.end(),
                                          [&](Time t) { return t < unblock; });
        const auto atUnblock = std::count(handed.begin(), handed.end(), unblock);
        if (m_workAhead > 0 && !slow)
        {
            NS_TEST_EXPECT_MSG_EQ(before, 3 + m_workAhead / size, "three handed down, TxWorkAhead prepared");
            NS_TEST_EXPECT_MSG_EQ(atUnblock, m_workAhead / size, "all prepared segments left on SendReady");
        }
        else if (m_workAhead == 0)
        {
            // The engine stopped at what fits in one TxBatchWindow (1 us, 180 ns a segment).
            NS_TEST_EXPECT_MSG_LT(before, 3 + 20, "the engine stopped while the LLP was full");
        }
        // The rules that keep completions and timing exact still hold.
        Time previousFinish;
        for (std::size_t i = 0; i < handed.size(); ++i)
        {
            const bool last = driver.IsLast(i);
            const Time finish = std::max(driver.m_accepted[i], previousFinish) + pipeline->Cost(size, last, true);
            NS_TEST_EXPECT_MSG_EQ((handed[i] >= finish), true, "segment " << i << " left before the engine was done");
            if (handed[i] >= unblock)
            {
                // Once the LLP takes them, prepared segments are held no longer than the window.
                NS_TEST_EXPECT_MSG_EQ((handed[i] <= std::max(finish, unblock) + MicroSeconds(1)), true,
                                      "segment " << i << " held after the LLP opened");
            }
            if (last)
            {
                NS_TEST_EXPECT_MSG_EQ(driver.m_accepted[i], handed[i - 1], "a last segment waits for an idle engine");
                NS_TEST_EXPECT_MSG_EQ(handed[i], finish, "a last segment leaves at its finish");
            }
            previousFinish = finish;
        }
    }

    uint32_t m_workAhead;
    std::string m_engineRate;
};

class RxBatchingTest : public BatchingTestCase
{
  public:
    RxBatchingTest(Time window)
        : BatchingTestCase("receive engine with RxBatchWindow " + std::to_string(window.GetNanoSeconds()) +
                               " ns: each segment goes up no earlier than its serial finish and at most the window "
                               "later; a message's first and last go up exactly",
                           window)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t messages = 4;
        const uint32_t perMessage = 12;
        const uint32_t size = 1000;
        Ptr<TestLowerLayer> sender = CreateObject<TestLowerLayer>();
        Ptr<TestLowerLayer> receiver = CreateObject<TestLowerLayer>();
        TestLowerLayer::Connect(sender, receiver);
        Ptr<RnicPipeline> pipeline = CreateObject<RnicPipeline>();
        pipeline->SetAttribute("RxBatchWindow", TimeValue(m_window));
        pipeline->SetInner(receiver);
        std::vector<Time> arrived;
        std::vector<Time> up;
        std::vector<bool> last;
        receiver->TraceConnectWithoutContext("Rx", MakeBoundCallback(&RecordHandDown, &arrived));
        pipeline->SetReceiveCallback(MakeBoundCallback(
            +[](std::vector<Time>* out, Ptr<Packet>, uint64_t) { out->push_back(Simulator::Now()); }, &up));
        for (uint32_t i = 0; i < messages * perMessage; ++i)
        {
            std::vector<uint8_t> bytes(size, 0);
            last.push_back((i + 1) % perMessage == 0);
            bytes[0] = last.back() ? iwarp::kDdpL : 0;
            // 1000 octets every 0.8 us: a 10 Gb/s link's pace, slower than the engine (180 ns each).
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(800) * i, &TestLowerLayer::SendRaw, sender, bytes);
        }
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(up.size(), last.size(), "every segment handed up");
        NS_TEST_ASSERT_MSG_EQ((arrived[1] > arrived[0]), true, "arrivals spread out");
        Time previousFinish;
        for (std::size_t i = 0; i < up.size(); ++i)
        {
            const Time finish = std::max(arrived[i], previousFinish) + pipeline->Cost(size, last[i], false);
            const bool first = i == 0 || last[i - 1];
            NS_TEST_EXPECT_MSG_EQ((up[i] >= finish), true, "segment " << i << " went up before the engine was done");
            NS_TEST_EXPECT_MSG_EQ((up[i] <= finish + m_window), true, "segment " << i << " held longer than the window");
            if (first || last[i])
            {
                NS_TEST_EXPECT_MSG_EQ(up[i], finish, "segment " << i << " (a message's first or last) goes up exactly");
            }
            previousFinish = finish;
        }
        ExpectBatches(up);
        pipeline->Dispose();
        sender->Dispose(); // Connect() links the two ends to each other
        receiver->Dispose();
        Simulator::Destroy();
    }
};

/**
 * Close: DDP closes once it has handed its last segment to the engine, so a graceful close must wait for the
 * engine to hand every segment still in it to the LLP, and close the LLP behind them; an abortive one drops
 * them and closes at once. (Before, the close went straight down and the segments still in the engine went
 * to a closed LLP: a per-flow connection's Write never arrived.)
 */
class CloseTest : public TestCase
{
  public:
    explicit CloseTest(bool graceful)
        : TestCase(graceful ? "graceful close: every segment in the engine goes down first, then the LLP closes"
                            : "abortive close: the segments in the engine are dropped, the LLP closes at once"),
          m_graceful(graceful)
    {
    }

  private:
    void DoRun() override
    {
        TxRig rig;
        SegmentDriver driver(rig.pipeline, 1, 8, 1000);
        std::vector<bool> closedAtHandDown;
        // The layer bound by plain pointer: a Ptr in its own trace would keep it alive (a cycle).
        rig.llp->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(+[](std::vector<bool>* out, TestLowerLayer* llp, Ptr<const Packet>,
                                         uint64_t) { out->push_back(llp->IsClosed()); },
                                     &closedAtHandDown, PeekPointer(rig.llp)));
        // DDP closes as soon as the engine has taken its last segment, as DdpEndpoint does.
        std::size_t downAtClose = 0;
        std::function<void()> pump = [&]() {
            driver.Pump();
            if (driver.m_accepted.size() == 8 && downAtClose == 0)
            {
                downAtClose = rig.handed.size() + 1; // + 1: zero means not closed yet
                rig.pipeline->Close(m_graceful ? DdpLowerLayer::CloseMode::Graceful
                                               : DdpLowerLayer::CloseMode::Abortive);
            }
        };
        rig.pipeline->SetSendReadyCallback(MakeCallback(&std::function<void()>::operator(), &pump));
        Simulator::Schedule(MicroSeconds(1), [&pump]() { pump(); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(driver.m_accepted.size(), 8u, "DDP handed all eight to the engine");
        NS_TEST_ASSERT_MSG_LT(downAtClose - 1, 8u, "some were still in the engine at the close");
        const bool anyAfterClose =
            std::find(closedAtHandDown.begin(), closedAtHandDown.end(), true) != closedAtHandDown.end();
        NS_TEST_EXPECT_MSG_EQ(anyAfterClose, false, "no segment handed to a closed LLP");
        if (m_graceful)
        {
            NS_TEST_EXPECT_MSG_EQ(rig.handed.size(), 8u, "all eight went down");
            NS_TEST_EXPECT_MSG_EQ(rig.llp->WasClosedGracefully(), true, "then the LLP closed, gracefully");
        }
        else
        {
            NS_TEST_EXPECT_MSG_LT(rig.handed.size(), 8u, "those still in the engine were dropped");
            NS_TEST_EXPECT_MSG_EQ(rig.llp->WasClosedAbortively(), true, "the LLP closed abortively");
        }
    }

    bool m_graceful;
};

class EngineCostTest : public TestCase
{
  public:
    EngineCostTest()
        : TestCase("engine cost: per segment + octets at EngineRate (+ per message on the last), following "
                   "attribute changes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RnicPipeline> p = CreateObject<RnicPipeline>();
        // Defaults: 100 ns a segment, 550 ns more for a message's last, 100 Gb/s (0.08 ns an octet).
        NS_TEST_EXPECT_MSG_EQ(p->Cost(1000, false, true), NanoSeconds(180), "1000 octets");
        NS_TEST_EXPECT_MSG_EQ(p->Cost(1000, true, true), NanoSeconds(730), "1000 octets, last");
        NS_TEST_EXPECT_MSG_EQ(p->Cost(2000, false, false), NanoSeconds(260), "2000 octets");
        p->SetAttribute("EngineRate", DataRateValue(DataRate("1Gbps")));
        NS_TEST_EXPECT_MSG_EQ(p->Cost(2000, false, false), NanoSeconds(16100), "a new EngineRate applies at once");
        NS_TEST_EXPECT_MSG_EQ(p->Cost(1000, false, true), NanoSeconds(8100), "and to every size");
        p->SetAttribute("EngineRate", DataRateValue(DataRate(0)));
        NS_TEST_EXPECT_MSG_EQ(p->Cost(1000, false, true), NanoSeconds(100), "rate 0: no per-octet cost");
        p->Dispose();
    }
};

class RnicPipelineSuite : public TestSuite
{
  public:
    RnicPipelineSuite()
        : TestSuite("iwarp-rnic-pipeline", UNIT)
    {
        AddTestCase(new TxBatchingTest(NanoSeconds(1000)), TestCase::QUICK);
        AddTestCase(new TxBatchingTest(Time(0)), TestCase::QUICK);
        AddTestCase(new TxBlockedLlpTest, TestCase::QUICK);
        AddTestCase(new TxWorkAheadTest(20000), TestCase::QUICK);
        AddTestCase(new TxWorkAheadTest(0), TestCase::QUICK);
        AddTestCase(new TxWorkAheadTest(20000, "1Gbps"), TestCase::QUICK);
        AddTestCase(new EngineCostTest, TestCase::QUICK);
        AddTestCase(new CloseTest(true), TestCase::QUICK);
        AddTestCase(new CloseTest(false), TestCase::QUICK);
        AddTestCase(new RxBatchingTest(MicroSeconds(4)), TestCase::QUICK);
        AddTestCase(new RxBatchingTest(Time(0)), TestCase::QUICK);
    }
};

RnicPipelineSuite g_rnicPipelineSuite;

} // namespace
