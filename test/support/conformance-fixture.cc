#include "support/conformance-fixture.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>

namespace ns3
{
namespace iwarptest
{

// ------------------------------------------------------------------ segment builders

namespace seg
{
uint8_t
DdpCtrl(bool tagged, bool last, uint8_t dv, uint8_t rsvd)
{
    return uint8_t((tagged ? 0x80 : 0) | (last ? 0x40 : 0) | ((rsvd & 0xF) << 2) | (dv & 0x3));
}

uint8_t
RdmapCtrl(uint8_t opcode, uint8_t rv, uint8_t rsv)
{
    return uint8_t(((rv & 0x3) << 6) | ((rsv & 0x3) << 4) | (opcode & 0xF));
}

Bytes
Tagged(uint8_t ctrl0, uint8_t ctrl1, uint32_t stag, uint64_t to, const Bytes& payload)
{
    return Cat({Bytes{ctrl0, ctrl1}, Be(stag, 4), Be(to, 8), payload});
}

Bytes
Untagged(uint8_t ctrl0, uint8_t ctrl1, uint32_t invStag, uint32_t qn, uint32_t msn, uint32_t mo,
         const Bytes& payload)
{
    return Cat({Bytes{ctrl0, ctrl1}, Be(invStag, 4), Be(qn, 4), Be(msn, 4), Be(mo, 4), payload});
}

Bytes
Write(uint32_t stag, uint64_t to, const Bytes& payload, bool last)
{
    return Tagged(DdpCtrl(true, last), RdmapCtrl(0x0), stag, to, payload);
}

Bytes
Send(uint32_t msn, uint32_t mo, const Bytes& payload, bool last, uint8_t opcode, uint32_t invStag)
{
    return Untagged(DdpCtrl(false, last), RdmapCtrl(opcode), invStag, 0, msn, mo, payload);
}

Bytes
ReadRequest(uint32_t msn, uint32_t sinkStag, uint64_t sinkTo, uint32_t size, uint32_t srcStag,
            uint64_t srcTo)
{
    const Bytes rr = Cat({Be(sinkStag, 4), Be(sinkTo, 8), Be(size, 4), Be(srcStag, 4), Be(srcTo, 8)});
    return Untagged(DdpCtrl(false, true), RdmapCtrl(0x1), 0, 1, msn, 0, rr);
}

Bytes
ReadResponse(uint32_t stag, uint64_t to, const Bytes& payload, bool last)
{
    return Tagged(DdpCtrl(true, last), RdmapCtrl(0x2), stag, to, payload);
}

Bytes
Pattern(std::size_t n, uint8_t seed)
{
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        b[i] = uint8_t(seed + i * 7 + (i >> 8));
    }
    return b;
}

uint32_t
Be32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

uint64_t
Be64(const uint8_t* p)
{
    return (uint64_t(Be32(p)) << 32) | Be32(p + 4);
}
} // namespace seg

Bytes
Captured::Payload() const
{
    const std::size_t hdr = tagged ? 14 : 18;
    return bytes.size() > hdr ? Bytes(bytes.begin() + hdr, bytes.end()) : Bytes{};
}

// ------------------------------------------------------------------ fixture

namespace
{
/** The elements of `all` for which `keep` holds, in order. */
template <typename T, typename Pred>
std::vector<T>
Select(const std::vector<T>& all, Pred keep)
{
    std::vector<T> out;
    for (const T& x : all)
    {
        if (keep(x))
        {
            out.push_back(x);
        }
    }
    return out;
}
} // namespace

ConformanceFixture::ConformanceFixture(const std::string& name)
    : TestCase(name)
{
}

void
ConformanceFixture::SetUpFixture(const Options& o)
{
    m_dutLlp = CreateObject<TestLowerLayer>();
    m_inj = CreateObject<TestLowerLayer>();
    m_dutLlp->SetAttribute("Mulpdu", UintegerValue(o.mulpdu));
    m_inj->SetAttribute("Mulpdu", UintegerValue(o.mulpdu));
    m_inj->SetReceiveCallback(MakeCallback(&ConformanceFixture::OnCapture, this));

    m_registry = CreateObject<MemoryRegistry>();
    m_p1 = m_registry->AllocatePd();
    m_p2 = m_registry->AllocatePd();
    m_registry->AttachStream(m_p1->GetId(), kStreamS1);
    m_registry->AttachStream(m_p1->GetId(), kStreamS2);
    using namespace MemAccess;
    const uint8_t rw = kLocalRead | kLocalWrite | kRemoteRead | kRemoteWrite;
    Ptr<MemoryRegion> a = m_registry->RegisterWithStag(kStagA, m_p1, 0x10000, 0x10000, rw);
    if (o.shareAAcrossStreams)
    {
        a->AssociateStream(kStreamS1);
        a->AssociateStream(kStreamS2);
    }
    m_registry->RegisterWithStag(kStagRO, m_p1, 0x20000, 0x1000, kLocalRead | kLocalWrite | kRemoteRead);
    m_registry->RegisterWithStag(kStagWO, m_p1, 0x30000, 0x1000, kLocalRead | kLocalWrite | kRemoteWrite);
    m_registry->RegisterWithStag(kStagX, m_p2, 0x40000, 0x1000, rw);
    m_registry->RegisterWithStag(kStagTOP, m_p1, 0xFFFFFFFFFFFFF000ull, 0x1000, rw);
    m_registry->RegisterWithStag(kStagZ, m_p1, 0x60000, 0x1000, rw)->AssociateStream(kStreamS1);
    m_registry->RegisterWithStag(kStagY, m_p1, 0x70000, 0x1000, rw)->AssociateStream(kStreamS2);
    m_registry->RegisterWithStag(kStagL1, m_p1, 0x0, 0x10000, kLocalRead | kLocalWrite);

    m_ddp = CreateObject<DdpEndpoint>();
    m_rdmap = CreateObject<RdmapEndpoint>();
    m_rdmap->SetAttribute("Ird", UintegerValue(o.ird));
    m_rdmap->SetAttribute("Ord", UintegerValue(o.ord));
    m_ddp->SetLowerLayer(m_dutLlp);
    m_rdmap->Attach(m_ddp, m_registry, StreamContext{m_p1->GetId(), kStreamS1});
    m_cq = CreateObject<CompletionQueue>();
    m_rdmap->SetCompletionCallback(MakeCallback(&ConformanceFixture::OnCompletion, this));
    m_rdmap->SetEventCallback(MakeCallback(&ConformanceFixture::OnEvent, this));

    for (uint32_t i = 0; i < o.recvBuffers; ++i)
    {
        Ptr<ByteBuffer> b = ByteBuffer::CreateReal(o.recvBufferSize);
        m_recvBuffers.push_back(b);
        m_rdmap->PostRecv(i, BufferWindow{b, 0, o.recvBufferSize});
    }
    TestLowerLayer::Connect(m_dutLlp, m_inj);
    RunFor(MicroSeconds(1));
}

void
ConformanceFixture::DoTeardown()
{
    if (m_rdmap)
    {
        m_rdmap->Dispose();
    }
    if (m_dutLlp)
    {
        m_dutLlp->Dispose();
        m_inj->Dispose();
    }
    m_rdmap = nullptr;
    m_ddp = nullptr;
    m_dutLlp = nullptr;
    m_inj = nullptr;
    m_registry = nullptr;
    m_cq = nullptr;
    m_recvBuffers.clear();
    m_sent.clear();
    m_completions.clear();
    m_events.clear();
    Simulator::Destroy();
}

void
ConformanceFixture::RunFor(Time t)
{
    Simulator::Stop(t);
    Simulator::Run();
}

void
ConformanceFixture::OnCapture(Ptr<Packet> p, uint64_t)
{
    Captured c;
    c.bytes.resize(p->GetSize());
    p->CopyData(c.bytes.data(), c.bytes.size());
    const Bytes& b = c.bytes;
    if (b.size() < 2)
    {
        m_sent.push_back(c);
        return;
    }
    c.ctrl0 = b[0];
    c.ctrl1 = b[1];
    c.tagged = b[0] & 0x80;
    c.last = b[0] & 0x40;
    c.opcode = b[1] & 0x0F;
    if (c.tagged && b.size() >= 14)
    {
        c.stag = seg::Be32(&b[2]);
        c.to = seg::Be64(&b[6]);
        c.payloadLength = uint32_t(b.size() - 14);
    }
    else if (!c.tagged && b.size() >= 18)
    {
        c.invStag = seg::Be32(&b[2]);
        c.qn = seg::Be32(&b[6]);
        c.msn = seg::Be32(&b[10]);
        c.mo = seg::Be32(&b[14]);
        c.payloadLength = uint32_t(b.size() - 18);
    }
    m_sent.push_back(c);
}

void
ConformanceFixture::OnCompletion(const RdmapCompletion& c)
{
    m_completions.push_back(c);
    m_cq->Push(c);
}

void
ConformanceFixture::OnEvent(const RdmapEventInfo& e)
{
    m_events.push_back(e);
}

std::vector<Captured>
ConformanceFixture::SentTerminates() const
{
    return Select(m_sent, [](const Captured& c) { return c.IsTerminate(); });
}

std::vector<Captured>
ConformanceFixture::SentNonTerminates() const
{
    return Select(m_sent, [](const Captured& c) { return !c.IsTerminate(); });
}

void
ConformanceFixture::InjectOffending(const Bytes& offending)
{
    Arm();
    Inject(offending);
    RunFor();
}

bool
ConformanceFixture::PostSource(uint64_t id, RdmapWrType type, Ptr<DdpPayloadSource> src, uint32_t stag,
                               uint64_t to, uint32_t invStag)
{
    RdmapWorkRequest wr;
    wr.id = id;
    wr.type = type;
    wr.source = src;
    wr.remoteStag = stag;
    wr.remoteTo = to;
    wr.invalidateStag = invStag;
    return m_rdmap->PostSend(wr);
}

bool
ConformanceFixture::PostSendBytes(uint64_t id, RdmapWrType type, const Bytes& data, uint32_t stag,
                                  uint64_t to, uint32_t invStag)
{
    return PostSource(id, type, Create<PacketPayloadSource>(PayloadPacket(data)), stag, to, invStag);
}

bool
ConformanceFixture::PostRead(uint64_t id, uint32_t srcStag, uint64_t srcTo, uint32_t len,
                             uint32_t sinkStag, uint64_t sinkTo)
{
    RdmapWorkRequest wr;
    wr.id = id;
    wr.type = RdmapWrType::Read;
    wr.remoteStag = srcStag;
    wr.remoteTo = srcTo;
    wr.readLength = len;
    wr.localStag = sinkStag;
    wr.localTo = sinkTo;
    return m_rdmap->PostSend(wr);
}

std::vector<RdmapCompletion>
ConformanceFixture::RecvCompletions() const
{
    return Select(m_completions, [](const RdmapCompletion& c) { return c.IsRecv(); });
}

std::vector<RdmapCompletion>
ConformanceFixture::SendCompletions() const
{
    return Select(m_completions, [](const RdmapCompletion& c) { return !c.IsRecv(); });
}

const RdmapCompletion*
ConformanceFixture::RecvCompletion(uint64_t id) const
{
    for (const auto& c : m_completions)
    {
        if (c.IsRecv() && c.id == id)
        {
            return &c;
        }
    }
    return nullptr;
}

std::size_t
ConformanceFixture::RecvOk() const
{
    return std::count_if(m_completions.begin(), m_completions.end(), [](const RdmapCompletion& c) {
        return c.IsRecv() && c.status == WcStatus::Success;
    });
}

bool
ConformanceFixture::HasEvent(RdmapEvent type) const
{
    return std::any_of(m_events.begin(), m_events.end(), [type](const RdmapEventInfo& e) { return e.type == type; });
}

std::size_t
ConformanceFixture::UlpEvents() const
{
    return std::count_if(m_events.begin(), m_events.end(),
                         [](const RdmapEventInfo& e) { return e.type != RdmapEvent::Established; });
}

bool
ConformanceFixture::FirstErrorEvent(iwarp::ErrorCause* cause) const
{
    for (const auto& e : m_events)
    {
        if (e.type == RdmapEvent::TerminateSent)
        {
            *cause = e.cause;
            return true;
        }
    }
    return false;
}

Bytes
ConformanceFixture::ReadRegion(uint32_t stag, uint64_t to, std::size_t len) const
{
    Ptr<MemoryRegion> mr = m_registry->Lookup(stag);
    NS_ABORT_MSG_IF(!mr, "no region " << stag);
    const uint8_t* base = mr->GetBuffer()->Data() + (to - mr->GetBaseTo());
    return Bytes(base, base + len);
}

void
ConformanceFixture::Fill(uint32_t stag, uint64_t to, const Bytes& data)
{
    Ptr<MemoryRegion> mr = Region(stag);
    mr->GetBuffer()->Write(to - mr->GetBaseTo(), data.data(), data.size());
}

Bytes
ConformanceFixture::RecvBytes(std::size_t i, std::size_t off, std::size_t len) const
{
    const uint8_t* d = RecvBuffer(i)->Data();
    return Bytes(d + off, d + off + len);
}

std::vector<Bytes>
ConformanceFixture::SnapshotMemory() const
{
    std::vector<Bytes> snap;
    for (uint32_t stag : {kStagA, kStagRO, kStagWO, kStagX, kStagTOP, kStagZ, kStagY, kStagL1})
    {
        Ptr<MemoryRegion> mr = m_registry->Lookup(stag);
        if (mr)
        {
            const uint8_t* d = mr->GetBuffer()->Data();
            snap.emplace_back(d, d + mr->GetLength());
        }
    }
    for (const auto& b : m_recvBuffers)
    {
        snap.emplace_back(b->Data(), b->Data() + b->GetSize());
    }
    return snap;
}

void
ConformanceFixture::ExpectDelivered(const RdmapCompletion& c, uint64_t buffer, const Bytes& data,
                                    const std::string& what)
{
    NS_TEST_EXPECT_MSG_EQ(c.id, buffer, what << ": into receive buffer " << buffer);
    NS_TEST_EXPECT_MSG_EQ(St(c.status), St(WcStatus::Success), what << ": Success");
    NS_TEST_EXPECT_MSG_EQ(c.byteLength, uint64_t(data.size()), what << ": length " << data.size());
    NS_TEST_EXPECT_MSG_EQ((RecvBytes(buffer, 0, data.size()) == data), true, what << ": content");
}

void
ConformanceFixture::ExpectNoError()
{
    NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), 0u, Id() << ": no Terminate");
    iwarp::ErrorCause c;
    NS_TEST_EXPECT_MSG_EQ(FirstErrorEvent(&c), false, Id() << ": no error event");
}

void
ConformanceFixture::ExpectTerminateSegment(const Captured& t, const std::string& what)
{
    NS_TEST_EXPECT_MSG_EQ(unsigned(t.ctrl0), 0x41u, what << "Terminate octet 0");
    NS_TEST_EXPECT_MSG_EQ(unsigned(t.ctrl1), 0x47u, what << "Terminate octet 1");
    NS_TEST_EXPECT_MSG_EQ(t.invStag, 0u, what << "Terminate octets 2-5 zero");
    NS_TEST_EXPECT_MSG_EQ(t.qn, 2u, what << "Terminate QN 2");
    NS_TEST_EXPECT_MSG_EQ(t.msn, 1u, what << "Terminate MSN 1");
    NS_TEST_EXPECT_MSG_EQ(t.mo, 0u, what << "Terminate MO 0");
}

void
ConformanceFixture::ExpectTerminate(uint8_t layer, uint8_t etype, uint8_t code, bool m, bool d,
                                    bool r, const Bytes* offending, const Bytes* rdmaHeader,
                                    const std::vector<Bytes>* before)
{
    const std::vector<Captured> terms = SentTerminates();
    NS_TEST_ASSERT_MSG_EQ(terms.size(), 1, "P3: exactly one Terminate");
    const Captured& t = terms[0];
    // P3: untagged, L=1, 0x41 0x47, octets 2-5 zero, QN 2, MSN 1, MO 0, and nothing after it.
    ExpectTerminateSegment(t, "P3: ");
    NS_TEST_EXPECT_MSG_EQ(m_sent.back().IsTerminate(), true,
                          "P3: no RDMA message after the Terminate");
    const Bytes p = t.Payload();
    NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6u, "Terminate header has octets 0-5 (A12)");
    const uint32_t ctrl = seg::Be32(p.data());
    NS_TEST_EXPECT_MSG_EQ(ctrl, iwarp::TermCtrl(layer, etype, code, m, d, r),
                          "Terminate Control (L/ET/EC and M/D/R, reserved 13 bits zero)");
    std::size_t expectLen = 6;
    if (m && offending)
    {
        NS_TEST_EXPECT_MSG_EQ(uint32_t(p[4] << 8 | p[5]), offending->size(),
                              "P4: DDP Segment Length = the offending segment's length");
    }
    if (d && offending)
    {
        const std::size_t hdr = ((*offending)[0] & 0x80) ? 14 : 18;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(p.size(), 6 + hdr, "copied DDP header present");
        NS_TEST_EXPECT_MSG_EQ((Bytes(p.begin() + 6, p.begin() + 6 + hdr) ==
                               Bytes(offending->begin(), offending->begin() + hdr)),
                              true,
                              "P4: copied DDP header byte-identical to the offending one");
        expectLen += hdr;
    }
    if (r && rdmaHeader)
    {
        NS_TEST_ASSERT_MSG_EQ(p.size(), expectLen + 28, "copied RDMA header present");
        NS_TEST_EXPECT_MSG_EQ((Bytes(p.begin() + expectLen, p.end()) == *rdmaHeader), true,
                              "P4: copied RDMA header");
        expectLen += 28;
    }
    if (offending || !(m || d || r))
    {
        NS_TEST_EXPECT_MSG_EQ(p.size(), expectLen, "Terminate header length (A12)");
    }
    // P2: the DUT's ULP got an error indication with the same cause.
    iwarp::ErrorCause seen;
    NS_TEST_EXPECT_MSG_EQ(FirstErrorEvent(&seen), true, "P2: the ULP was told");
    NS_TEST_EXPECT_MSG_EQ(seen.ToString(), (iwarp::ErrorCause{layer, etype, code}.ToString()),
                          "P2: the ULP's error carries the same L/ET/EC");
    // P1: nothing placed, nothing written outside the target.
    if (before)
    {
        NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == *before), true, "P1: no octet placed");
    }
}

iwarp::ErrorCause
ConformanceFixture::ExpectTerminateOneOf(const std::vector<iwarp::ErrorCause>& accepted,
                                         const std::string& ambig)
{
    const std::vector<Captured> terms = SentTerminates();
    NS_TEST_EXPECT_MSG_EQ(terms.size(), 1, "exactly one Terminate");
    if (terms.size() != 1 || terms[0].Payload().size() < 4)
    {
        NS_TEST_EXPECT_MSG_EQ(true, false, "no well-formed Terminate to check");
        return iwarp::ErrorCause{};
    }
    const Bytes p = terms[0].Payload();
    const iwarp::ErrorCause got{uint8_t(p[0] >> 4), uint8_t(p[0] & 0xF), p[1]};
    bool ok = false;
    for (const auto& a : accepted)
    {
        ok = ok || a == got;
    }
    NS_TEST_EXPECT_MSG_EQ(ok, true, "Terminate cause " << got.ToString() << " is an accepted one");
    std::cout << Id() << (ambig.empty() ? "" : " [" + ambig + "]") << ": the DUT sent TERM " << got.ToString()
              << (!accepted.empty() && got == accepted.front() ? " (preferred)" : " (accepted alternative)")
              << std::endl;
    return got;
}

void
ConformanceFixture::ExpectSilentAfterError()
{
    const std::size_t termsBefore = SentTerminates().size();
    const std::vector<Bytes> before = SnapshotMemory();
    Inject(seg::Write(kStagA, 0x10000, seg::Pattern(64, 0x55)));
    RunFor(MilliSeconds(5));
    NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == before), true, "P5: nothing placed after the error");
    NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), termsBefore, "P5: no second Terminate");
}

void
ConformanceFixture::Arm()
{
    m_before = SnapshotMemory();
    m_okBefore = RecvOk();
}

void
ConformanceFixture::ExpectDdpError(uint8_t layer, uint8_t etype, uint8_t code, const Bytes& offending)
{
    ExpectTerminate(layer, etype, code, true, true, false, &offending, nullptr, &m_before);
    ExpectAfterError();
}

void
ConformanceFixture::ExpectAfterError()
{
    NS_TEST_EXPECT_MSG_EQ(RecvOk(), m_okBefore, "P2: the offending message is not completed successfully");
    const std::size_t sent = Sent().size();
    const std::size_t terms = SentTerminates().size();
    const std::vector<Bytes> snap = SnapshotMemory();
    Inject(seg::Send(1, 0, seg::Pattern(64, 0x66)));
    Inject(seg::Send(2, 0, seg::Pattern(64, 0x67)));
    RunFor(MilliSeconds(5));
    NS_TEST_EXPECT_MSG_EQ((SnapshotMemory() == snap), true, "P5: a later Send is not placed");
    NS_TEST_EXPECT_MSG_EQ(SentTerminates().size(), terms, "P5: no second Terminate");
    NS_TEST_EXPECT_MSG_EQ(RecvOk(), m_okBefore, "P5: a later Send is not delivered");
    ExpectSilentAfterError();
    NS_TEST_EXPECT_MSG_EQ(Sent().size(), sent, "P3: the DUT sends nothing after the Terminate");
    NS_TEST_EXPECT_MSG_EQ(m_dutLlp->WasClosedAbortively(), false,
                          "P6: no abortive teardown before the ULP asks for it");
}

void
ConformanceFixture::InjectV1ExpectV5()
{
    const Bytes v1 = seg::Write(kStagBAD, 0x10000, Ascii("ABCD"));
    InjectOffending(v1);
    ExpectTerminate(1, 1, 0x00, true, true, false, &v1, nullptr, &m_before);
    NS_TEST_ASSERT_MSG_EQ(SentTerminates().size(), 1u, "one Terminate");
    NS_TEST_EXPECT_MSG_EQ((SentTerminates()[0].bytes == kV5), true, "byte-identical to V5");
}

} // namespace iwarptest
} // namespace ns3
