/*
 * MpaConnection over ns-3's TCP: set-up (Rev 1 and 2, private data, reject), transfers
 * verified byte for byte with and without loss, markers and CRC, early placement, and MPA
 * errors becoming Layer 2 Terminates (RFC 5044, RFC 6581; doc/conformance.md, MPA).
 */
#include "mpa/mpa-transfer.h"
#include "mpa/mpa-two-node-fixture.h"

#include "ns3/test.h"

#include <set>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

class MpaHandshakeTest : public TestCase
{
  public:
    MpaHandshakeTest(uint8_t rev)
        : TestCase(std::string("Rev ") + char('0' + rev) +
                   " Request and Reply carry private data both ways and reach ESTABLISHED"),
          m_rev(rev)
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.revision = m_rev;
        o.requestPd = Pattern(100, 1);
        o.replyPd = Pattern(10, 2);
        MpaTwoNodeFixture f(o);
        f.Run(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(f.Responder().gotPeerFrame, true, "the responder's ULP saw the Request");
        NS_TEST_EXPECT_MSG_EQ((f.Responder().peerFrame.GetPrivateData() == o.requestPd), true,
                              "Request private data");
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().gotPeerFrame, true, "the initiator saw the Reply");
        NS_TEST_EXPECT_MSG_EQ((f.Initiator().peerFrame.GetPrivateData() == o.replyPd), true,
                              "Reply private data");
        NS_TEST_EXPECT_MSG_EQ(unsigned(f.Initiator().peerFrame.GetRev()), unsigned(m_rev), "Rev");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::ESTABLISHED, "initiator");
        if (m_rev == 2)
        {
            // The RTR arrived and was consumed: the responder may send.
            NS_TEST_EXPECT_MSG_EQ(f.Responder().mpa->GetState(), MpaConnection::ESTABLISHED, "responder");
        }
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->UsesCrc(), true, "CRC negotiated");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetMulpdu(), MpaMulpdu(f.Initiator().mpa->GetEffectiveMss(), false),
                              "MULPDU from EMSS");
    }

    uint8_t m_rev;
};

class MpaTransferTest : public TestCase
{
  public:
    MpaTransferTest(double loss, bool markers)
        : TestCase("Write, Send and Read of 2 MB are byte-exact over TCP, loss " +
                   std::to_string(int(loss * 100)) + " percent, markers " + (markers ? "on" : "off")),
          m_loss(loss),
          m_markers(markers)
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.lossRate = m_loss;
        o.markers = m_markers;
        MpaTwoNodeFixture f(o);
        f.Run(MilliSeconds(1));
        Transfer t(f, 2000000);
        // FPDU alignment: every full data segment is exactly one FPDU of MULPDU.
        std::map<uint32_t, uint32_t> sizes;
        f.InitiatorSocket()->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(+[](std::map<uint32_t, uint32_t>* m, Ptr<const Packet> p, const TcpHeader&,
                                  Ptr<const TcpSocketBase>) { (*m)[p->GetSize()]++; },
                              &sizes));
        f.Run(Seconds(20));
        NS_TEST_EXPECT_MSG_GT(sizes[1448], 1000u, "full segments");
        NS_TEST_EXPECT_MSG_EQ(MpaFpduSender(m_markers, true).FramedSize(f.Initiator().mpa->GetMulpdu()) % 1448,
                              0u, "an FPDU of MULPDU fills whole segments");
        NS_TEST_EXPECT_MSG_EQ(CountSuccess(f.Initiator().completions), 3u, "Write, Send, Read complete");
        NS_TEST_EXPECT_MSG_EQ(CountSuccess(f.Responder().completions), 1u, "the Send is received");
        NS_TEST_EXPECT_MSG_EQ(t.WriteExact(), true, "the Write placed every octet");
        NS_TEST_EXPECT_MSG_EQ(t.SendExact(), true, "the Send delivered every octet");
        NS_TEST_EXPECT_MSG_EQ(t.ReadExact(), true, "the Read returned every octet");
        // Early-placed FPDUs come up again in order; their octets are not placed a second time.
        NS_TEST_EXPECT_MSG_EQ(t.target->GetBuffer()->GetBytesWritten(), t.data.size(), "Write octets placed once");
        NS_TEST_EXPECT_MSG_EQ(t.recv->GetBytesWritten(), t.note.size(), "Send octets placed once");
        NS_TEST_EXPECT_MSG_EQ(t.sink->GetBuffer()->GetBytesWritten(), t.data.size(), "Read octets placed once");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->SendsMarkers(), m_markers, "markers towards responder");
        if (m_loss > 0 && !m_markers)
        {
            // With markers inside ULPDUs, early placement is left to the in-order path (see
            // MpaFpduReceiver::ParseAlignedFpdus).
            NS_TEST_EXPECT_MSG_GT(f.Responder().earlyPlacements, 0u,
                                  "FPDUs of out-of-order segments were placed early");
        }
    }

    double m_loss;
    bool m_markers;
};

/**
 * AlignFpdus lets MPA queue an FPDU in TCP behind unsent octets when those are whole FPDUs that each fill
 * one segment (TCP cuts there anyway), and makes it wait behind a short one. Observed from outside: FPDUs
 * written while TCP still held unsent octets, and every data segment TCP sent starting an FPDU.
 */
class MpaQueuedFpdusAlignTest : public TestCase
{
  public:
    MpaQueuedFpdusAlignTest()
        : TestCase("AlignFpdus: FPDUs of one segment queue in TCP behind each other, and every data segment still "
                   "starts an FPDU")
    {
    }

  private:
    struct Seen
    {
        Ptr<TcpSocketBase> tcp;
        SequenceNumber32 highest; ///< one past the highest octet TCP has sent (its Tx trace comes first)
        std::set<uint32_t> fpduStarts;
        uint32_t queuedBehindUnsent{0};
        uint32_t fpdus{0};
        uint32_t segments{0};
        uint32_t segmentsNotAtFpdu{0};
    };

    void DoRun() override
    {
        MpaTwoNodeFixture f(MpaTwoNodeFixture::Options{});
        f.Run(MilliSeconds(1));
        Seen seen;
        seen.tcp = DynamicCast<TcpSocketBase>(f.InitiatorSocket());
        NS_TEST_ASSERT_MSG_NE(seen.tcp, nullptr, "ns-3 TCP");
        f.Initiator().mpa->TraceConnectWithoutContext(
            "FpduTx", MakeBoundCallback(+[](Seen* s, Ptr<const Packet> fpdu) {
                const SequenceNumber32 start = s->tcp->GetTxBuffer()->TailSequence() - fpdu->GetSize();
                s->fpduStarts.insert(start.GetValue());
                s->fpdus++;
                s->queuedBehindUnsent += start > s->highest;
            },
                                        &seen));
        seen.tcp->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(+[](Seen* s, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>) {
                if (p->GetSize() > 0)
                {
                    s->segments++;
                    s->segmentsNotAtFpdu += s->fpduStarts.count(h.GetSequenceNumber().GetValue()) == 0;
                    s->highest = std::max(s->highest, h.GetSequenceNumber() + p->GetSize());
                }
            },
                                  &seen));
        Transfer t(f, 2000000);
        f.Run(Seconds(5));
        NS_TEST_EXPECT_MSG_EQ(t.WriteExact() && t.SendExact() && t.ReadExact(), true, "byte-exact");
        NS_TEST_EXPECT_MSG_GT(seen.fpdus, 1000u, "the Write's FPDUs");
        NS_TEST_EXPECT_MSG_GT(seen.queuedBehindUnsent, seen.fpdus / 2, "most FPDUs queued behind unsent ones");
        NS_TEST_EXPECT_MSG_GT(seen.segments, 1000u, "data segments");
        NS_TEST_EXPECT_MSG_EQ(seen.segmentsNotAtFpdu, 0u, "every data segment starts an FPDU");
    }
};

class MpaPlacementRecordTest : public TestCase
{
  public:
    MpaPlacementRecordTest(double loss, bool markers = false)
        : TestCase("Per-message records: 2000 one-segment Writes, loss " + std::to_string(int(loss * 100)) +
                   " percent" + (markers ? ", markers on" : "") + ": placement " +
                   (loss > 0 ? "precedes delivery for some" : "and delivery coincide")),
          m_loss(loss),
          m_markers(markers)
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.lossRate = m_loss;
        o.markers = m_markers;
        MpaTwoNodeFixture f(o);
        f.Run(MilliSeconds(1));
        using namespace MemAccess;
        const uint32_t n = 2000;
        // One FPDU of MULPDU each (1442 without markers, 1430 with): one TCP segment each. With markers,
        // early placement takes the markers out of FPDUs that TCP holds out of order.
        const uint32_t size = MpaMulpdu(f.Initiator().mpa->GetEffectiveMss(), m_markers) - 14;
        Ptr<MemoryRegion> target = f.Responder().memory->Register(f.Responder().pd, n * size, kRemoteWrite);
        const std::vector<uint8_t> data = Pattern(n * size, 5);
        for (uint32_t i = 0; i < n; ++i)
        {
            RdmapWorkRequest w;
            w.id = i;
            w.type = RdmapWrType::Write;
            w.source = Create<PacketPayloadSource>(Create<Packet>(data.data() + i * size, size));
            w.remoteStag = target->GetStag();
            w.remoteTo = target->GetBaseTo() + i * size;
            f.Initiator().rdmap->PostSend(w);
        }
        std::vector<std::pair<Time, Time>> records;
        f.Responder().ddp->TraceConnectWithoutContext(
            "Delivered",
            MakeBoundCallback(+[](std::vector<std::pair<Time, Time>>* r, const DdpDelivery& d) {
                r->emplace_back(d.firstPlaced, d.delivered);
            },
                              &records));
        f.Run(Seconds(20));
        NS_TEST_EXPECT_MSG_EQ(records.size(), n, "one record per message");
        uint32_t early = 0;
        for (const auto& [placed, delivered] : records)
        {
            NS_TEST_EXPECT_MSG_EQ((placed <= delivered && !placed.IsZero()), true, "placed no later than delivered");
            early += placed < delivered;
        }
        std::cout << "messages placed before delivery: " << early << " of " << records.size() << std::endl;
        if (m_loss > 0)
        {
            NS_TEST_EXPECT_MSG_GT(early, 0u, "FPDUs held out of order by TCP were placed on arrival");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(early, 0u, "in order, placement and delivery happen together");
        }
        NS_TEST_EXPECT_MSG_EQ(std::equal(data.begin(), data.end(), target->GetBuffer()->Data()), true,
                              "every Write placed byte-exact");
        // Regression: the in-order copy of an FPDU placed early used to be placed (and counted) again.
        NS_TEST_EXPECT_MSG_EQ(target->GetBuffer()->GetBytesWritten(), uint64_t(n) * size,
                              "each octet placed once, early or in order");
        if (m_loss > 0)
        {
            NS_TEST_EXPECT_MSG_GT(f.Responder().earlyPlacements, 0u, "FPDUs were handed up early");
        }
    }

    double m_loss;
    bool m_markers;
};

class MpaGarbageStreamTest : public TestCase
{
  public:
    MpaGarbageStreamTest()
        : TestCase("Random octets after set-up end in an MPA error and a close, never a crash or a placement")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t seed = 1; seed <= 20; ++seed)
        {
            MpaTwoNodeFixture::Options o;
            MpaTwoNodeFixture f(o);
            f.Run(MilliSeconds(5));
            using namespace MemAccess;
            Ptr<MemoryRegion> target =
                f.Responder().memory->Register(f.Responder().pd, 65536, kRemoteWrite | kRemoteRead);
            const uint64_t before = target->GetBuffer()->GetBytesWritten();
            Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
            rng->SetStream(seed);
            std::vector<uint8_t> junk(1 + rng->GetInteger(0, 20000));
            for (auto& b : junk)
            {
                b = uint8_t(rng->GetInteger(0, 255));
            }
            f.InitiatorSocket()->Send(Create<Packet>(junk.data(), junk.size()));
            f.Run(Seconds(2));
            NS_TEST_EXPECT_MSG_EQ(target->GetBuffer()->GetBytesWritten(), before, "nothing placed");
            const auto st = f.Responder().mpa->GetState();
            NS_TEST_EXPECT_MSG_EQ((st == MpaConnection::CLOSED || st == MpaConnection::FAILED ||
                                   st == MpaConnection::ESTABLISHED),
                                  true,
                                  "a defined state");
            bool errorSeen = false;
            for (const auto& e : f.Responder().events)
            {
                errorSeen = errorSeen || e.type == RdmapEvent::TerminateSent || e.type == RdmapEvent::FatalError;
            }
            // A random ULPDU_Length may leave the deframer waiting for more octets; only then is
            // there no error yet.
            NS_TEST_EXPECT_MSG_EQ((errorSeen || st == MpaConnection::ESTABLISHED), true,
                                  "an error was reported, or the deframer still waits, seed " << seed);
        }
    }
};

class MpaRejectTest : public TestCase
{
  public:
    MpaRejectTest()
        : TestCase("A Reply with R=1 carries the reason and no FPDU is ever sent")
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.rejectRequest = true;
        o.replyPd = {'b', 'u', 's', 'y'};
        MpaTwoNodeFixture f(o);
        f.Run(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().gotPeerFrame, true, "the Reply arrived");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().peerFrame.GetReject(), true, "R=1");
        NS_TEST_EXPECT_MSG_EQ((f.Initiator().peerFrame.GetPrivateData() == o.replyPd), true, "reason");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::CLOSED, "initiator closed");
        NS_TEST_EXPECT_MSG_EQ(f.Responder().mpa->GetState(), MpaConnection::CLOSED, "responder closed");
    }
};

class MpaCrcErrorTest : public TestCase
{
  public:
    MpaCrcErrorTest()
        : TestCase("A corrupted FPDU gives a Layer 2 Terminate with code 0x02, then the connection closes")
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        MpaTwoNodeFixture f(o);
        f.Run(MilliSeconds(5));
        // An FPDU framed correctly but with one octet of its ULPDU flipped afterwards, written
        // straight into the initiator's TCP socket as if its MPA layer had corrupted it.
        MpaFpduSender tx(false, true);
        tx.Frame(Create<Packet>(14)); // the RTR already took stream offset 0..19
        const uint8_t write[18] = {0xC1, 0x40, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
        Ptr<Packet> fpdu = tx.Frame(Create<Packet>(write, sizeof(write)));
        std::vector<uint8_t> bytes(fpdu->GetSize());
        fpdu->CopyData(bytes.data(), bytes.size());
        bytes[5] ^= 0x01;
        f.InitiatorSocket()->Send(Create<Packet>(bytes.data(), bytes.size()));
        f.Run(Seconds(2));
        bool sent = false;
        for (const auto& e : f.Responder().events)
        {
            if (e.type == RdmapEvent::TerminateSent)
            {
                sent = true;
                NS_TEST_EXPECT_MSG_EQ(e.cause.ToString(), "2/0/0x02", "LLP (MPA) CRC error");
                NS_TEST_EXPECT_MSG_EQ((e.terminate.m || e.terminate.d || e.terminate.r), false, "MDR=000");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(sent, true, "the responder sent a Terminate");
        bool received = false;
        for (const auto& e : f.Initiator().events)
        {
            received = received || (e.type == RdmapEvent::TerminateReceived &&
                                    e.cause.ToString() == "2/0/0x02");
        }
        NS_TEST_EXPECT_MSG_EQ(received, true, "the initiator received it");
        NS_TEST_EXPECT_MSG_EQ(f.Responder().mpa->GetState(), MpaConnection::CLOSED, "then closed");
    }
};

class MpaSetupTimeoutTest : public TestCase
{
  public:
    MpaSetupTimeoutTest()
        : TestCase("A responder that never gets a Request gives up after ResponderTimeout")
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.startInitiator = false;
        MpaTwoNodeFixture f(o);
        // Plain TCP connect, no MPA Request.
        f.Run(MilliSeconds(1));
        f.InitiatorSocket()->Connect(InetSocketAddress(f.ResponderAddress(), f.Port()));
        f.Run(Seconds(4));
        NS_TEST_EXPECT_MSG_EQ(f.Responder().setupFailures.size(), 0u, "still waiting at 4 s");
        f.Run(Seconds(6));
        NS_TEST_EXPECT_MSG_EQ(f.Responder().setupFailures.size(), 1u, "gave up after 5 s");
        NS_TEST_EXPECT_MSG_EQ(f.Responder().mpa->GetState(), MpaConnection::CLOSED, "closed");
    }
};

class MpaBadRequestTest : public TestCase
{
  public:
    MpaBadRequestTest()
        : TestCase("A Request with a wrong key fails set-up with code 0x04")
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.startInitiator = false;
        MpaTwoNodeFixture f(o);
        Ptr<Socket> s = f.InitiatorSocket();
        s->SetConnectCallback(MakeCallback(+[](Ptr<Socket> sock) {
                                  const char junk[] = "MPA ID Req Frxme\x40\x02\x00\x00";
                                  sock->Send(reinterpret_cast<const uint8_t*>(junk), 20, 0);
                              }),
                              MakeNullCallback<void, Ptr<Socket>>());
        f.Run(MilliSeconds(1));
        s->Connect(InetSocketAddress(f.ResponderAddress(), f.Port()));
        f.Run(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(f.Responder().setupFailures.size(), 1u, "set-up failed");
        NS_TEST_EXPECT_MSG_EQ(f.Responder().setupFailures[0].ToString(), "2/0/0x04", "invalid Request");
    }
};

class MpaInsufficientIrdTest : public TestCase
{
  public:
    MpaInsufficientIrdTest(bool lower)
        : TestCase(lower ? "Reply IRD 2 below the initiator's ORD 8: the ORD is lowered to 2 and set-up completes"
                         : "Reply IRD 2 below the initiator's ORD 8, lowering refused: Terminate 2-0-0x06 in "
                           "place of the RTR, then close"),
          m_lower(lower)
    {
    }

  private:
    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.initiatorOrd = 8;
        o.responderIrd = 2;
        o.lowerOrdToPeerIrd = m_lower;
        MpaTwoNodeFixture f(o);
        f.Run(Seconds(1));
        if (m_lower)
        {
            NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::ESTABLISHED, "initiator");
            NS_TEST_EXPECT_MSG_EQ(f.Responder().mpa->GetState(), MpaConnection::ESTABLISHED, "responder");
            NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetOrd(), 2u, "ORD lowered to the responder's IRD");
            return;
        }
        bool sent = false;
        for (const auto& e : f.Initiator().events)
        {
            sent = sent || (e.type == RdmapEvent::TerminateSent && e.cause.ToString() == "2/0/0x06");
        }
        NS_TEST_EXPECT_MSG_EQ(sent, true, "the initiator sent an LLP Terminate: insufficient IRD (RFC 6581)");
        bool received = false;
        for (const auto& e : f.Responder().events)
        {
            received = received || (e.type == RdmapEvent::TerminateReceived && e.cause.ToString() == "2/0/0x06");
        }
        NS_TEST_EXPECT_MSG_EQ(received, true, "the responder took it in place of the RTR and learnt the reason");
        NS_TEST_EXPECT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::CLOSED, "the initiator closed");
    }

    bool m_lower;
};

class MpaConnectionSuite : public TestSuite
{
  public:
    MpaConnectionSuite()
        : TestSuite("iwarp-mpa-connection", UNIT)
    {
        AddTestCase(new MpaHandshakeTest(1), TestCase::QUICK);
        AddTestCase(new MpaHandshakeTest(2), TestCase::QUICK);
        AddTestCase(new MpaTransferTest(0.0, false), TestCase::QUICK);
        AddTestCase(new MpaTransferTest(0.01, false), TestCase::QUICK);
        AddTestCase(new MpaTransferTest(0.01, true), TestCase::QUICK);
        AddTestCase(new MpaQueuedFpdusAlignTest, TestCase::QUICK);
        AddTestCase(new MpaPlacementRecordTest(0.0), TestCase::QUICK);
        AddTestCase(new MpaPlacementRecordTest(0.01), TestCase::QUICK);
        AddTestCase(new MpaPlacementRecordTest(0.01, true), TestCase::QUICK);
        AddTestCase(new MpaGarbageStreamTest, TestCase::QUICK);
        AddTestCase(new MpaRejectTest, TestCase::QUICK);
        AddTestCase(new MpaCrcErrorTest, TestCase::QUICK);
        AddTestCase(new MpaSetupTimeoutTest, TestCase::QUICK);
        AddTestCase(new MpaBadRequestTest, TestCase::QUICK);
        AddTestCase(new MpaInsufficientIrdTest(true), TestCase::QUICK);
        AddTestCase(new MpaInsufficientIrdTest(false), TestCase::QUICK);
    }
};

MpaConnectionSuite g_mpaConnectionSuite;

} // namespace
