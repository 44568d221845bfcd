/*
 * End-to-end runs of two RdmapEndpoints (each with its own DdpEndpoint and MemoryRegistry) over
 * two connected TestLowerLayers: an RDMA Write, a Send and an RDMA Read, byte-exact, clean, with
 * segments held and released out of order, and with duplicated segments.
 */
#include "support/test-bytes.h"

#include "ddp/ddp-endpoint.h"
#include "ddp/test-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
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
using ns3::iwarptest::Bytes;

namespace
{

/** `n` pseudo-random octets, different for each `seed`. */
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

class TwoStackSuite : public TestSuite
{
  public:
    TwoStackSuite()
        : TestSuite("iwarp-two-stack", UNIT)
    {
        AddTestCase(new EndToEnd(Impairment::None), TestCase::QUICK);
        AddTestCase(new EndToEnd(Impairment::Reorder), TestCase::QUICK);
        AddTestCase(new EndToEnd(Impairment::Duplicate), TestCase::QUICK);
    }
};

TwoStackSuite g_twoStackSuite;

} // namespace
