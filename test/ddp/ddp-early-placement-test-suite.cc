/*
 * iwarp-ddp-early-placement: DDP's side of the LLP's early-placement hints (DDP-005, DDP-041,
 * DDP-042). An LLP (MPA) may hand a segment up twice: as a placement hint (order
 * kOrderUnknown) from a TCP segment held out of order, then in order. Both copies carry the
 * same DdpLlpPositionTag; DDP places the octets once, delivers the message once, and still
 * places the in-order copy when the hint could not be placed (no buffer posted yet).
 * Also, on the same receiver: a ULP attached through DdpEndpoint::Ulp (as RdmapEndpoint attaches)
 * is told checks, deliveries and errors, and the callbacks nothing.
 */
#include "ddp/ddp-endpoint.h"
#include "ddp/ddp-header.h"
#include "ddp/ddp-lower-layer.h"

#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <vector>

using namespace ns3;

namespace
{

/** An LLP the test drives by hand: it hands up whatever segment, with whatever order. */
class HandLlp : public DdpLowerLayer
{
  public:
    uint32_t GetMulpdu() const override { return 1000; }
    bool SendSegment(Ptr<Packet>) override { return true; }
    void Close(CloseMode) override {}

    void Up(Ptr<Packet> segment, uint64_t order) { NotifyReceive(segment, order); }
};

constexpr uint32_t kQn = 0;

/** One untagged segment of message `msn` at offset `mo`, `len` octets of a pattern. */
Ptr<Packet>
Segment(uint32_t msn, uint32_t mo, uint32_t len, bool last)
{
    std::vector<uint8_t> payload(len);
    for (uint32_t i = 0; i < len; ++i)
    {
        payload[i] = uint8_t(msn * 7 + mo + i);
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), len);
    DdpUntaggedHeader h;
    h.SetLast(last);
    h.SetQn(kQn);
    h.SetMsn(msn);
    h.SetMo(mo);
    p->AddHeader(h);
    return p;
}

/** A copy of `seg` as the LLP hands it up: with the LLP position `pos`. */
Ptr<Packet>
At(Ptr<Packet> seg, uint64_t pos)
{
    Ptr<Packet> c = seg->Copy();
    DdpLlpPositionTag tag{pos};
    c->ReplacePacketTag(tag);
    return c;
}

struct Receiver
{
    Ptr<HandLlp> llp = CreateObject<HandLlp>();
    Ptr<DdpEndpoint> ddp = CreateObject<DdpEndpoint>();
    std::vector<DdpDelivery> delivered;
    uint32_t errors{0};

    Receiver()
    {
        ddp->SetLowerLayer(llp);
        ddp->EnableQueue(kQn);
        ddp->SetDeliveryCallback(MakeCallback(&Receiver::OnDelivery, this));
        ddp->SetErrorCallback(MakeCallback(&Receiver::OnError, this));
    }

    ~Receiver()
    {
        ddp->Dispose();
        llp->Dispose();
        Simulator::Destroy();
    }

    Ptr<ByteBuffer> Post(uint64_t cookie, uint64_t len)
    {
        Ptr<ByteBuffer> b = ByteBuffer::CreateReal(len);
        ddp->PostBuffer(kQn, DdpUntaggedBuffer{BufferWindow{b, 0, len}, cookie});
        return b;
    }

    void OnDelivery(const DdpDelivery& d) { delivered.push_back(d); }
    void OnError(const DdpReceiveError&) { ++errors; }
};

bool
Holds(Ptr<ByteBuffer> b, uint32_t msn, uint32_t mo, uint32_t len)
{
    for (uint32_t i = 0; i < len; ++i)
    {
        if (b->Data()[mo + i] != uint8_t(msn * 7 + mo + i))
        {
            return false;
        }
    }
    return true;
}

class HintThenInOrder : public TestCase
{
  public:
    HintThenInOrder()
        : TestCase("A hinted segment's in-order copy is validated but not placed again; the message "
                   "is delivered once; a repeated hint is ignored")
    {
    }

  private:
    void DoRun() override
    {
        Receiver r;
        Ptr<ByteBuffer> b = r.Post(11, 100);
        Ptr<Packet> s0 = Segment(1, 0, 60, false);
        Ptr<Packet> s1 = Segment(1, 60, 40, true);
        r.llp->Up(At(s1, 200), DdpLowerLayer::kOrderUnknown); // its TCP segment came early
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 40u, "the hint placed its octets");
        NS_TEST_EXPECT_MSG_EQ(Holds(b, 1, 60, 40), true, "at its MO");
        NS_TEST_EXPECT_MSG_EQ(r.delivered.size(), 0u, "a hint is never delivered");
        r.llp->Up(At(s1, 200), DdpLowerLayer::kOrderUnknown); // a retransmission, still out of order
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 40u, "a second hint of the same FPDU places nothing");
        r.llp->Up(At(s0, 100), 0);
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 100u, "the first segment placed in order");
        NS_TEST_EXPECT_MSG_EQ(r.delivered.size(), 0u, "not delivered before its last segment");
        r.llp->Up(At(s1, 200), 1);
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 100u, "the in-order copy of the hint is not placed again");
        NS_TEST_ASSERT_MSG_EQ(r.delivered.size(), 1u, "delivered once, at its turn");
        NS_TEST_EXPECT_MSG_EQ(r.delivered[0].length, 100u, "the message's length");
        NS_TEST_EXPECT_MSG_EQ(r.delivered[0].cookie, 11u, "in the posted buffer");
        NS_TEST_EXPECT_MSG_EQ((Holds(b, 1, 0, 60) && Holds(b, 1, 60, 40)), true, "byte-exact");
        r.llp->Up(At(s1, 200), 1);
        NS_TEST_EXPECT_MSG_EQ(r.delivered.size(), 1u, "a duplicate in order is not delivered again (DDP-042)");
        NS_TEST_EXPECT_MSG_EQ(r.errors, 0u, "no error");
    }
};

class HintNotPlaceable : public TestCase
{
  public:
    HintNotPlaceable()
        : TestCase("A hint that fails validation (no buffer yet) is dropped silently; its in-order "
                   "copy is placed and delivered")
    {
    }

  private:
    void DoRun() override
    {
        Receiver r;
        Ptr<Packet> s = Segment(1, 0, 50, true);
        r.llp->Up(At(s, 100), DdpLowerLayer::kOrderUnknown);
        NS_TEST_EXPECT_MSG_EQ(r.errors, 0u, "a hint reports no error");
        Ptr<ByteBuffer> b = r.Post(5, 64);
        r.llp->Up(At(s, 100), 0);
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 50u, "placed once, in order");
        NS_TEST_ASSERT_MSG_EQ(r.delivered.size(), 1u, "delivered");
        NS_TEST_EXPECT_MSG_EQ(Holds(b, 1, 0, 50), true, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(r.errors, 0u, "no error");
    }
};

class HintWithoutPosition : public TestCase
{
  public:
    HintWithoutPosition()
        : TestCase("Without an LLP position the in-order copy of a hint is placed again (same "
                   "octets) and the message still delivered once")
    {
    }

  private:
    void DoRun() override
    {
        Receiver r;
        Ptr<ByteBuffer> b = r.Post(5, 64);
        Ptr<Packet> s = Segment(1, 0, 50, true);
        r.llp->Up(s->Copy(), DdpLowerLayer::kOrderUnknown);
        r.llp->Up(s->Copy(), 0);
        NS_TEST_EXPECT_MSG_EQ(b->GetBytesWritten(), 100u, "placed twice: nothing tells the copies apart");
        NS_TEST_ASSERT_MSG_EQ(r.delivered.size(), 1u, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(r.delivered[0].length, 50u, "the message's length");
        NS_TEST_EXPECT_MSG_EQ(Holds(b, 1, 0, 50), true, "byte-exact");
    }
};

/** A DdpEndpoint::Ulp that counts what it is told and refuses segments while `refuse` is set. */
struct CountingUlp : public DdpEndpoint::Ulp
{
    uint32_t checks{0};
    uint32_t delivered{0};
    uint32_t errors{0};
    bool refuse{false};
    iwarp::ErrorCause lastError;

    DdpUlpCheck CheckSegment(const DdpSegmentView&) override
    {
        ++checks;
        DdpUlpCheck c;
        c.ok = !refuse;
        c.cause = iwarp::ErrorCause::Ddp(iwarp::DdpUntaggedCode::InvalidQn);
        return c;
    }
    void OnDelivery(const DdpDelivery&) override { ++delivered; }
    void OnDdpError(const DdpReceiveError& e) override
    {
        ++errors;
        lastError = e.cause;
    }
    void OnMessageSent(uint64_t) override {}
    void OnMessageFailed(uint64_t, uint64_t) override {}
    void OnStreamEvent(DdpEndpoint::StreamEvent, iwarp::ErrorCause) override {}
};

class UlpInterface : public TestCase
{
  public:
    UlpInterface()
        : TestCase("DdpEndpoint::Ulp: an attached ULP is told checks, deliveries and errors, the callbacks "
                   "nothing; detached, the callbacks again")
    {
    }

  private:
    void DoRun() override
    {
        {
            Receiver r;
            CountingUlp u;
            r.ddp->SetUlp(&u);
            r.Post(1, 100);
            r.Post(2, 100);
            r.llp->Up(At(Segment(1, 0, 50, true), 100), 0);
            NS_TEST_EXPECT_MSG_EQ(u.checks, 1u, "the ULP vetted the segment");
            NS_TEST_EXPECT_MSG_EQ(u.delivered, 1u, "and was given the message");
            NS_TEST_EXPECT_MSG_EQ(r.delivered.size(), 0u, "the delivery callback was not called");
            u.refuse = true;
            r.llp->Up(At(Segment(2, 0, 50, true), 200), 1);
            NS_TEST_EXPECT_MSG_EQ(u.errors, 1u, "the ULP's refusal came back to it as an error");
            NS_TEST_EXPECT_MSG_EQ(u.lastError.ToString(),
                                  iwarp::ErrorCause::Ddp(iwarp::DdpUntaggedCode::InvalidQn).ToString(),
                                  "with the ULP's cause");
            NS_TEST_EXPECT_MSG_EQ(u.delivered, 1u, "nothing delivered after it");
            NS_TEST_EXPECT_MSG_EQ(r.errors, 0u, "the error callback was not called");
        }
        {
            Receiver r;
            CountingUlp u;
            r.ddp->SetUlp(&u);
            r.ddp->SetUlp(nullptr);
            r.Post(1, 100);
            r.llp->Up(At(Segment(1, 0, 50, true), 100), 0);
            NS_TEST_EXPECT_MSG_EQ(u.checks + u.delivered, 0u, "a detached ULP is told nothing");
            NS_TEST_EXPECT_MSG_EQ(r.delivered.size(), 1u, "the callback has the delivery");
        }
    }
};

class DdpEarlyPlacementTestSuite : public TestSuite
{
  public:
    DdpEarlyPlacementTestSuite()
        : TestSuite("iwarp-ddp-early-placement", UNIT)
    {
        AddTestCase(new HintThenInOrder, TestCase::QUICK);
        AddTestCase(new HintNotPlaceable, TestCase::QUICK);
        AddTestCase(new HintWithoutPosition, TestCase::QUICK);
        AddTestCase(new UlpInterface, TestCase::QUICK);
    }
};

DdpEarlyPlacementTestSuite g_ddpEarlyPlacementTestSuite;

} // namespace
