/*
 * iwarp-sctp-ddp-transfer: doc/conformance.md §4.3 S-09 .. S-17 (illegal sequences, out-of-order delivery, MULPDU,
 * termination) and end-to-end RDMA Write / Send / Read, byte for byte, over SCTP with 0 % and 1 % loss.
 */
#include "sctp-ddp/sctp-ddp-fixture.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::iwarptest;
using sctpddp::Function;

namespace
{

void
Put32(std::vector<uint8_t>& b, uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8)
    {
        b.push_back(uint8_t(v >> s));
    }
}

/** A single-segment tagged RDMA Write (doc/conformance.md V1 layout). */
std::vector<uint8_t>
WriteSegment(uint32_t stag, uint64_t to, const std::vector<uint8_t>& payload)
{
    std::vector<uint8_t> b{0xC1, 0x40};
    Put32(b, stag);
    Put32(b, uint32_t(to >> 32));
    Put32(b, uint32_t(to));
    b.insert(b.end(), payload.begin(), payload.end());
    return b;
}

/** An untagged Send segment on QN 0 (doc/conformance.md V2 layout). */
std::vector<uint8_t>
SendSegment(uint32_t msn, uint32_t mo, bool last, const std::vector<uint8_t>& payload)
{
    std::vector<uint8_t> b{uint8_t(last ? 0x41 : 0x01), 0x43, 0, 0, 0, 0};
    Put32(b, 0);
    Put32(b, msn);
    Put32(b, mo);
    b.insert(b.end(), payload.begin(), payload.end());
    return b;
}

bool
AllZero(Ptr<MemoryRegion> r, size_t n)
{
    const uint8_t* d = r->GetBuffer()->Data();
    return std::all_of(d, d + n, [](uint8_t x) { return x == 0; });
}

bool
HasEvent(const DdpStack& s, RdmapEvent e)
{
    return std::any_of(s.events.begin(), s.events.end(), [e](const RdmapEventInfo& i) { return i.type == e; });
}

/** Raw client + DDP server with an accepted session on `stream`; the session's stack at the server. */
struct PassiveSession
{
    SctpDdpFixture f;
    DdpStack* srv{nullptr};
    explicit PassiveSession(SctpDdpFixture::Options o, uint16_t stream)
        : f((o.clientRaw = true, o))
    {
        f.Start();
        f.Run(Seconds(0.1));
        f.RawSend(f.client, stream, 17, 0, SctpDdpFixture::Control(Function::Initiate, {}));
        f.Run(Seconds(0.3));
        srv = f.server.stacks.empty() ? nullptr : f.server.stacks.back().get();
    }
    /** The server's messages on `stream` as the raw client received them. */
    std::vector<DdpDataRecord> Rx(uint16_t stream) const
    {
        std::vector<DdpDataRecord> v;
        for (const auto& r : f.client.rawRx)
        {
            if (r.stream == stream)
            {
                v.push_back(r);
            }
        }
        return v;
    }
};

class S09NoSession : public TestCase
{
  public:
    S09NoSession() : TestCase("S-09 a DDP segment on a stream without a session: Terminate 00 00 00 04, nothing Placed") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        PassiveSession p(o, 1); // session on stream 1 holds memory a stray Write could hit
        Ptr<MemoryRegion> a = p.srv->memory->Register(p.srv->pd, 64, MemAccess::kRemoteWrite);
        p.f.RawSend(p.f.client, 3, 16, 0, WriteSegment(a->GetStag(), a->GetBaseTo(), DdpPattern(64, 1)));
        p.f.Run(Seconds(0.6));
        auto rx = p.Rx(3);
        NS_TEST_ASSERT_MSG_EQ((rx.size()), 1u, "one answer on stream 3");
        NS_TEST_ASSERT_MSG_EQ((rx[0].ppid == 17 && rx[0].data == std::vector<uint8_t>{0, 0, 0, 4}), true,
                              "Terminate 00 00 00 04");
        NS_TEST_ASSERT_MSG_EQ((AllZero(a, 64)), true, "nothing Placed");
        for (const auto& r : p.f.server.dataTx)
        {
            NS_TEST_ASSERT_MSG_EQ((r.stream == 3 && r.ppid == 16), false, "no RDMAP Terminate on stream 3");
        }
    }
};

class S10SegmentFirst : public TestCase
{
  public:
    S10SegmentFirst() : TestCase("S-10 active DUT: a DDP segment at DDP-SSN 0 instead of the Accept terminates at SSN 1") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.serverRaw = true;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* s = f.Open(4, {});
        Ptr<MemoryRegion> a = s->memory->Register(s->pd, 64, MemAccess::kRemoteWrite);
        f.Run(Seconds(0.3));
        f.RawSend(f.server, 4, 16, 0, WriteSegment(a->GetStag(), a->GetBaseTo(), DdpPattern(64, 1)));
        f.Run(Seconds(0.6));
        auto v = f.DataTxOn(f.client, 4);
        NS_TEST_ASSERT_MSG_EQ((v.size()), 2u, "Initiate, then Terminate");
        NS_TEST_ASSERT_MSG_EQ((v[1].ppid == 17 && v[1].data == std::vector<uint8_t>{0, 1, 0, 4}), true,
                              "Terminate at DDP-SSN 1");
        NS_TEST_ASSERT_MSG_EQ((AllZero(a, 64)), true, "nothing Placed");
        NS_TEST_ASSERT_MSG_EQ((HasEvent(*s, RdmapEvent::FatalError)), true, "the connect failed");
        // The connect's outcome reaches the ULP's control callback too (a Terminate, no Private Data),
        // so a connection manager waiting on it is answered.
        NS_TEST_ASSERT_MSG_EQ((s->controls.size()), 1u, "the ULP was told the connect ended");
        NS_TEST_EXPECT_MSG_EQ((int(s->controls[0].first)), int(Function::Terminate), "as a Terminate");
        NS_TEST_EXPECT_MSG_EQ((s->controls[0].second.empty()), true, "with no Private Data");
    }
};

class S11Reordered : public TestCase
{
  public:
    S11Reordered() : TestCase("S-11 chunks arriving 4, 3, 1, 2: Send 1 delivered before Send 2, by DDP-SSN") {}

  private:
    void DoRun() override
    {
        PassiveSession p({}, 1);
        NS_TEST_ASSERT_MSG_NE((p.srv), nullptr, "session");
        auto r1 = ByteBuffer::CreateReal(4096);
        auto r2 = ByteBuffer::CreateReal(4096);
        p.srv->rdmap->PostRecv(1, BufferWindow{r1, 0, 4096});
        p.srv->rdmap->PostRecv(2, BufferWindow{r2, 0, 4096});
        auto d1 = DdpPattern(3000, 1);
        auto d2 = DdpPattern(500, 2);
        auto part = [&](int i) { return std::vector<uint8_t>(d1.begin() + i * 1000, d1.begin() + (i + 1) * 1000); };
        p.f.RawSend(p.f.client, 1, 16, 4, SendSegment(2, 0, true, d2));
        p.f.RawSend(p.f.client, 1, 16, 3, SendSegment(1, 2000, true, part(2)));
        p.f.RawSend(p.f.client, 1, 16, 1, SendSegment(1, 0, false, part(0)));
        p.f.RawSend(p.f.client, 1, 16, 2, SendSegment(1, 1000, false, part(1)));
        p.f.Run(Seconds(1));
        const auto& c = p.srv->completions;
        NS_TEST_ASSERT_MSG_EQ((c.size()), 2u, "two receive completions");
        NS_TEST_ASSERT_MSG_EQ((c[0].id), 1u, "Send 1 first");
        NS_TEST_ASSERT_MSG_EQ((c[0].byteLength), 3000u, "3000 octets");
        NS_TEST_ASSERT_MSG_EQ((c[1].id), 2u, "then Send 2");
        NS_TEST_ASSERT_MSG_EQ((std::equal(d1.begin(), d1.end(), r1->Data())), true, "Send 1 byte-exact");
        NS_TEST_ASSERT_MSG_EQ((std::equal(d2.begin(), d2.end(), r2->Data())), true, "Send 2 byte-exact");
    }
};

class S12EarlySegment : public TestCase
{
  public:
    S12EarlySegment(bool accept)
        : TestCase(accept ? "S-12(a) a Write sent before the Accept is Placed only after the Accept"
                          : "S-12(b) a Write sent before a Reject is never Placed"),
          m_accept(accept)
    {
    }

  private:
    void DoRun() override
    {
        SctpDdpFixture f(SctpDdpFixture::RawClient());
        f.RawInitiate(2);
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 1u, "pending");
        DdpStack& s = f.Stack(f.server, f.server.initiates[0].first);
        Ptr<MemoryRegion> a = s.memory->Register(s.pd, 64, MemAccess::kRemoteWrite);
        f.RawSend(f.client, 2, 16, 1, WriteSegment(a->GetStag(), a->GetBaseTo(), DdpPattern(64, 9)));
        f.Run(Seconds(0.9));
        NS_TEST_ASSERT_MSG_EQ((AllZero(a, 64)), true, "nothing Placed before the decision");
        if (m_accept)
        {
            s.conn->Accept({});
        }
        else
        {
            s.conn->Reject({});
        }
        f.Run(Seconds(1.5));
        auto d = DdpPattern(64, 9);
        const bool placed = std::equal(d.begin(), d.end(), a->GetBuffer()->Data());
        NS_TEST_ASSERT_MSG_EQ((placed), m_accept, (m_accept ? "Placed after the Accept" : "never Placed"));
    }
    bool m_accept;
};

class S13Illegal : public TestCase
{
  public:
    S13Illegal() : TestCase("S-13 second Initiate, Accept from the active side, code 5, PD 513, Terminate with PD, PPID 0") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.clientRaw = true;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        for (uint16_t st : {1, 2, 3, 5, 6})
        {
            f.RawSend(f.client, st, 17, 0, SctpDdpFixture::Control(Function::Initiate, {}));
        }
        f.Run(Seconds(0.3));
        NS_TEST_ASSERT_MSG_EQ((f.server.stacks.size()), 5u, "five sessions");
        f.RawSend(f.client, 1, 17, 1, SctpDdpFixture::Control(Function::Initiate, {}));  // (a)
        f.RawSend(f.client, 2, 17, 1, SctpDdpFixture::Control(Function::Accept, {}));    // (b)
        f.RawSend(f.client, 3, 17, 1, SctpDdpFixture::Control(Function(5), {}));         // (c)
        f.RawSend(f.client, 4, 17, 0, SctpDdpFixture::Control(Function::Initiate, DdpPattern(513, 1))); // (d)
        f.RawSend(f.client, 6, 17, 1, SctpDdpFixture::Control(Function::Terminate, {1, 2, 3, 4}));       // (e)
        f.RawSend(f.client, 5, 0, 1, {0, 0, 0, 0});                                                     // (f)
        f.Run(Seconds(0.8));
        auto termOn = [&](uint16_t st, uint16_t ssn) {
            for (const auto& r : f.client.rawRx)
            {
                if (r.stream == st && r.ppid == 17 &&
                    r.data == std::vector<uint8_t>{uint8_t(ssn >> 8), uint8_t(ssn), 0, 4})
                {
                    return true;
                }
            }
            return false;
        };
        const size_t idx[] = {0, 1, 2, 3}; // stacks for streams 1, 2, 3, 5
        const uint16_t streams[] = {1, 2, 3, 5};
        for (size_t i : idx)
        {
            NS_TEST_ASSERT_MSG_EQ((termOn(streams[i], 1)), true, "session terminated with a Terminate at SSN 1");
            NS_TEST_ASSERT_MSG_EQ((HasEvent(*f.server.stacks[i], RdmapEvent::FatalError)), true, "consumer told");
        }
        NS_TEST_ASSERT_MSG_EQ((termOn(4, 0)), true, "(d) answered with a Terminate");
        NS_TEST_ASSERT_MSG_EQ((f.server.initiates.size()), 5u, "(d) never reported nor Accepted");
        NS_TEST_ASSERT_MSG_EQ((HasEvent(*f.server.stacks[4], RdmapEvent::HalfClosed)), true, "(e) closes the session");
    }
};

class S14Teardown : public TestCase
{
  public:
    S14Teardown() : TestCase("S-14 RDMAP Terminate then session Terminate; graceful close; a new session on the stream") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture f({});
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* c1 = f.Open(1, {});
        DdpStack* c2 = f.Open(2, {});
        f.Run(Seconds(0.3));
        NS_TEST_ASSERT_MSG_EQ((f.server.stacks.size()), 2u, "two sessions");
        DdpStack& s1 = *f.server.stacks[0];
        // (a) a Write to an STag that does not exist: the server's RDMAP sends a Terminate; its ULP closes.
        RdmapWorkRequest w;
        w.id = 1;
        w.type = RdmapWrType::Write;
        w.source = Create<PacketPayloadSource>(Create<Packet>(100));
        w.remoteStag = 0xDEAD00;
        c1->rdmap->PostSend(w);
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ((HasEvent(s1, RdmapEvent::TerminateSent)), true, "RDMAP Terminate sent");
        s1.rdmap->Close(DdpLowerLayer::CloseMode::Abortive);
        f.Run(Seconds(0.8));
        auto v = f.DataTxOn(f.server, s1.conn->GetStream());
        NS_TEST_ASSERT_MSG_GT((v.size()), 2u, "Accept, RDMAP Terminate, session Terminate");
        NS_TEST_ASSERT_MSG_EQ((v[v.size() - 2].ppid), 16u, "the RDMAP Terminate (PPID 16) ...");
        NS_TEST_ASSERT_MSG_EQ((v.back().ppid), 17u, "... then the session Terminate");
        NS_TEST_ASSERT_MSG_EQ((v.back().data[2] == 0 && v.back().data[3] == 4 && v.back().data.size() == 4), true,
                              "xx xx 00 04");
        NS_TEST_ASSERT_MSG_EQ((v.back().Ssn()), uint16_t(v.size() - 1), "at the next DDP-SSN");
        // (b) graceful close of stream 2 by the client's ULP.
        c2->rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
        f.Run(Seconds(1.0));
        auto v2 = f.DataTxOn(f.client, 2);
        NS_TEST_ASSERT_MSG_EQ((v2.back().ppid == 17 && v2.back().data.size() == 4 && v2.back().data[3] == 4), true,
                              "the session's last chunk is a Terminate");
        NS_TEST_ASSERT_MSG_EQ((HasEvent(*f.server.stacks[1], RdmapEvent::HalfClosed)), true, "DDP told (DDP-009)");
        // (c) a new session on stream 2 once the peer has terminated too: its Initiate is DDP-SSN 0.
        NS_TEST_ASSERT_MSG_EQ((f.client.assoc->Connect(2, {})), nullptr, "not while the old session is open");
        f.server.stacks[1]->rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
        f.Run(Seconds(1.2));
        DdpStack* c3 = f.Open(2, {});
        NS_TEST_ASSERT_MSG_NE((c3), nullptr, "new session");
        f.Run(Seconds(1.5));
        v2 = f.DataTxOn(f.client, 2);
        NS_TEST_ASSERT_MSG_EQ((v2.back().data == std::vector<uint8_t>{0, 0, 0, 1}), true, "Initiate at SSN 0");
        NS_TEST_ASSERT_MSG_EQ((c3->conn->GetState()), SctpDdpConnection::ESTABLISHED, "established again");
    }
};

class S15Mulpdu : public TestCase
{
  public:
    S15Mulpdu() : TestCase("S-15 MULPDU from the Pmtu: 516..1450, oversize refused locally, oversize received terminates") {}

  private:
    void DoRun() override
    {
        PassiveSession p({}, 1);
        Ptr<SctpDdpConnection> c = p.srv->conn;
        const uint32_t m = c->GetMulpdu();
        NS_TEST_ASSERT_MSG_EQ((m >= 516 && m <= 1450), true, "516 <= MULPDU <= 1450");
        NS_TEST_ASSERT_MSG_EQ((m), 1500u - 20 - 12 - 16 - 2 - 16, "1500 - IPv4 - SCTP - DATA - SSN - reserve");
        const size_t before = p.f.server.dataTx.size();
        NS_TEST_ASSERT_MSG_EQ((c->SendSegment(Create<Packet>(m + 1))), false, "MULPDU + 1 refused");
        NS_TEST_ASSERT_MSG_EQ((c->GetOversizeRefused()), 1u, "counted");
        p.f.Run(Seconds(0.4));
        NS_TEST_ASSERT_MSG_EQ((p.f.server.dataTx.size()), before, "not sent");
        p.f.server.socket->SetAttribute("Pmtu", UintegerValue(576));
        NS_TEST_ASSERT_MSG_EQ((c->GetMulpdu()), 516u, "never below 516");
        p.f.server.socket->SetAttribute("Pmtu", UintegerValue(1500));
        Ptr<MemoryRegion> a = p.srv->memory->Register(p.srv->pd, 2000, MemAccess::kRemoteWrite);
        p.f.RawSend(p.f.client, 1, 16, 1, WriteSegment(a->GetStag(), a->GetBaseTo(), DdpPattern(m + 1 - 14, 3)));
        p.f.Run(Seconds(0.8));
        NS_TEST_ASSERT_MSG_EQ((AllZero(a, 2000)), true, "(c) not Placed");
        NS_TEST_ASSERT_MSG_EQ((c->GetState()), SctpDdpConnection::TERMINATED, "(c) session terminated");
    }
};

class S16Gap : public TestCase
{
  public:
    S16Gap() : TestCase("S-16(b) a segment at the expected DDP-SSN + 40000 is not Delivered") {}

  private:
    void DoRun() override
    {
        PassiveSession p({}, 1);
        auto r1 = ByteBuffer::CreateReal(4096);
        p.srv->rdmap->PostRecv(1, BufferWindow{r1, 0, 4096});
        p.f.RawSend(p.f.client, 1, 16, uint16_t(1 + 40000), SendSegment(1, 0, true, DdpPattern(100, 1)));
        p.f.Run(Seconds(0.6));
        NS_TEST_ASSERT_MSG_EQ(p.srv->completions.size(), 0u, "+40000: nothing Delivered");
        NS_TEST_ASSERT_MSG_EQ((r1->Data()[0] == 0 && r1->Data()[99] == 0), true, "+40000: nothing Placed");
        // A gap of 20000 could be explained by chunks in flight: it may be Placed, but not Delivered.
        p.f.RawSend(p.f.client, 1, 16, uint16_t(1 + 20000), SendSegment(1, 0, true, DdpPattern(100, 1)));
        p.f.Run(Seconds(0.8));
        NS_TEST_ASSERT_MSG_EQ(p.srv->completions.size(), 0u, "+20000: not Delivered before the gap fills");
    }
};

class S17Abort : public TestCase
{
  public:
    S17Abort() : TestCase("S-17 an ABORT tells every stream's consumer, no RDMAP Terminate; one stream's end spares the others") {}

  private:
    void DoRun() override
    {
        SctpDdpFixture f({});
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* c[3] = {f.Open(1, {}), f.Open(2, {}), f.Open(3, {})};
        f.Run(Seconds(0.3));
        // (b) stream 1 ends (RDMAP Terminate + session Terminate); a Write on stream 2 still works.
        c[0]->rdmap->Close(DdpLowerLayer::CloseMode::Abortive);
        DdpStack& s2 = *f.server.stacks[1];
        Ptr<MemoryRegion> a = s2.memory->Register(s2.pd, 1000, MemAccess::kRemoteWrite);
        auto d = DdpPattern(1000, 4);
        RdmapWorkRequest w;
        w.id = 7;
        w.type = RdmapWrType::Write;
        w.source = Create<PacketPayloadSource>(Create<Packet>(d.data(), d.size()));
        w.remoteStag = a->GetStag();
        w.remoteTo = a->GetBaseTo();
        c[1]->rdmap->PostSend(w);
        f.Run(Seconds(0.6));
        NS_TEST_ASSERT_MSG_EQ((std::equal(d.begin(), d.end(), a->GetBuffer()->Data())), true, "stream 2 Write");
        NS_TEST_ASSERT_MSG_EQ((f.server.socket->GetState()), SctpState::Established, "association kept");
        // (a) the peer aborts the association.
        const size_t sent = f.client.dataTx.size();
        f.server.socket->Abort();
        f.Run(Seconds(1.0));
        for (int i = 1; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((HasEvent(*c[i], RdmapEvent::FatalError)), true, "consumer told (SCTP-048)");
        }
        NS_TEST_ASSERT_MSG_EQ((f.client.dataTx.size()), sent, "no RDMAP Terminate per stream (SCTP-047)");
    }
};

class EndToEnd : public TestCase
{
  public:
    EndToEnd(double loss)
        : TestCase(loss > 0 ? "End-to-end RDMA Write, Send, Read byte-exact over SCTP with 1 percent loss"
                            : "End-to-end RDMA Write, Send, Read byte-exact over SCTP without loss"),
          m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        SctpDdpFixture::Options o;
        o.lossRate = m_loss;
        SctpDdpFixture f(o);
        f.Start();
        f.Run(Seconds(0.1));
        DdpStack* a = f.Open(1, {});
        f.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ((f.server.stacks.size()), 1u, "session");
        DdpStack& b = *f.server.stacks[0];
        using namespace MemAccess;
        const size_t n = 300000;
        auto data = DdpPattern(n, 3);
        auto note = DdpPattern(3000, 9);
        auto target = b.memory->Register(b.pd, n, kRemoteWrite | kRemoteRead);
        auto sink = a->memory->Register(a->pd, n, kLocalWrite);
        auto rbuf = ByteBuffer::CreateReal(4096);
        b.rdmap->PostRecv(77, BufferWindow{rbuf, 0, 4096});
        RdmapWorkRequest w;
        w.id = 1;
        w.type = RdmapWrType::Write;
        w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), n));
        w.remoteStag = target->GetStag();
        w.remoteTo = target->GetBaseTo();
        a->rdmap->PostSend(w);
        RdmapWorkRequest s;
        s.id = 2;
        s.type = RdmapWrType::Send;
        s.source = Create<PacketPayloadSource>(Create<Packet>(note.data(), note.size()));
        a->rdmap->PostSend(s);
        RdmapWorkRequest r;
        r.id = 3;
        r.type = RdmapWrType::Read;
        r.remoteStag = target->GetStag();
        r.remoteTo = target->GetBaseTo();
        r.readLength = uint32_t(n);
        r.localStag = sink->GetStag();
        r.localTo = sink->GetBaseTo();
        a->rdmap->PostSend(r);
        f.Run(Seconds(30));
        NS_TEST_ASSERT_MSG_EQ((std::equal(data.begin(), data.end(), target->GetBuffer()->Data())), true, "Write");
        NS_TEST_ASSERT_MSG_EQ((std::equal(note.begin(), note.end(), rbuf->Data())), true, "Send");
        NS_TEST_ASSERT_MSG_EQ((std::equal(data.begin(), data.end(), sink->GetBuffer()->Data())), true, "Read");
        size_t ok = 0;
        for (const auto& c : a->completions)
        {
            ok += c.status == WcStatus::Success;
        }
        NS_TEST_ASSERT_MSG_EQ((ok), 3u, "three successful completions at the initiator");
        NS_TEST_ASSERT_MSG_EQ((b.completions.size()), 1u, "the Send completed at the responder");
        Time done = Seconds(0);
        for (const auto& c : a->completions)
        {
            done = std::max(done, c.delivered);
        }
        std::cout << "  sctp-ddp e2e loss=" << m_loss << ": done at " << done.As(Time::MS) << ", DATA chunks "
                  << f.client.dataTx.size() << "+" << f.server.dataTx.size() << ", retransmissions "
                  << f.client.rtx << "+" << f.server.rtx << std::endl;
        if (m_loss > 0)
        {
            NS_TEST_ASSERT_MSG_GT((f.client.rtx + f.server.rtx), 0u, "the loss was real: SCTP retransmitted");
        }
    }
    double m_loss;
};

class SctpDdpTransferSuite : public TestSuite
{
  public:
    SctpDdpTransferSuite() : TestSuite("iwarp-sctp-ddp-transfer", UNIT)
    {
        AddTestCase(new S09NoSession, TestCase::QUICK);
        AddTestCase(new S10SegmentFirst, TestCase::QUICK);
        AddTestCase(new S11Reordered, TestCase::QUICK);
        AddTestCase(new S12EarlySegment(true), TestCase::QUICK);
        AddTestCase(new S12EarlySegment(false), TestCase::QUICK);
        AddTestCase(new S13Illegal, TestCase::QUICK);
        AddTestCase(new S14Teardown, TestCase::QUICK);
        AddTestCase(new S15Mulpdu, TestCase::QUICK);
        AddTestCase(new S16Gap, TestCase::QUICK);
        AddTestCase(new S17Abort, TestCase::QUICK);
        AddTestCase(new EndToEnd(0.0), TestCase::QUICK);
        AddTestCase(new EndToEnd(0.01), TestCase::QUICK);
    }
};

static SctpDdpTransferSuite g_sctpDdpTransferSuite;

} // namespace
