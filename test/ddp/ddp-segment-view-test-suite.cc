/*
 * The one decoder of a received segment's header (PeekDdpSegment, ddp-header.h) and what the
 * layers outside DDP build or read through it: the MPA RTR (RFC 6581 §3), the opcode names a
 * scenario's inject takes (iwarp::kOpcodeNames) and the octets of an injected segment. Expected
 * values are written as hex octets, not built by the classes under test.
 */
#include "support/test-bytes.h"
#include "support/thrown-message.h"

#include "common/iwarp-constants.h"
#include "ddp/ddp-header.h"
#include "helper/scenario/scenario-config.h"
#include "mpa/mpa-rtr.h"

#include "ns3/test.h"

#include <set>
#include <string>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

std::optional<DdpSegmentView>
Peek(const Bytes& b)
{
    return PeekDdpSegment(PayloadPacket(b));
}

/** The view of `b`, which the case has already required to exist (a default view otherwise). */
DdpSegmentView
Must(const Bytes& b)
{
    return Peek(b).value_or(DdpSegmentView{});
}

class PeekTaggedTestCase : public TestCase
{
  public:
    PeekTaggedTestCase()
        : TestCase("a tagged segment: T, L, DV, STag, TO, opcode and lengths from its octets")
    {
    }

  private:
    void DoRun() override
    {
        // T=1 L=0 DV=1, RsvdULP 0x42 (RV 1, Read Response), STag, TO, then 5 payload octets.
        const Bytes b = Hx("81 42 | DEADBEEF | 0000000100000200 | 0102030405");
        const auto v = Peek(b);
        NS_TEST_ASSERT_MSG_EQ(v.has_value(), true, "a whole tagged header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(v->control), 0x81u, "control octet as received");
        NS_TEST_EXPECT_MSG_EQ(v->tagged, true, "T");
        NS_TEST_EXPECT_MSG_EQ(v->last, false, "L=0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(DdpControl::Version(v->control)), 1u, "DV");
        NS_TEST_EXPECT_MSG_EQ(unsigned(v->rsvdUlp0), 0x42u, "RsvdULP");
        NS_TEST_EXPECT_MSG_EQ(unsigned(v->RdmapOpcode()), unsigned(iwarp::Opcode::ReadResponse), "opcode");
        NS_TEST_EXPECT_MSG_EQ(v->stag, 0xDEADBEEFu, "STag");
        NS_TEST_EXPECT_MSG_EQ(v->to, 0x100000200ull, "TO");
        NS_TEST_EXPECT_MSG_EQ(v->headerLength, 14u, "tagged header length");
        NS_TEST_EXPECT_MSG_EQ(v->payloadLength, 5u, "payload after the header");
        NS_TEST_EXPECT_MSG_EQ(v->qn + v->msn + v->mo + v->rsvdUlp1, 0u, "untagged fields stay zero");

        Bytes lastOne = b;
        lastOne[0] = 0xC1;
        NS_TEST_EXPECT_MSG_EQ(Must(lastOne).last, true, "L=1");
        // The reserved bits do not change what the segment is (DDP-017), but are kept.
        lastOne[0] = 0xFD;
        const DdpSegmentView r = Must(lastOne);
        NS_TEST_EXPECT_MSG_EQ(r.tagged && r.last && r.headerLength == 14, true, "reserved bits set");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.control), 0xFDu, "raw control octet kept");

        // The control-octet peek (the RNIC's per-segment accounting) agrees on what it fills.
        const auto c = PeekDdpControl(PayloadPacket(lastOne));
        NS_TEST_ASSERT_MSG_EQ(c.has_value(), true, "control peek of a whole tagged header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(c->control), 0xFDu, "control peek: control octet");
        NS_TEST_EXPECT_MSG_EQ(c->tagged && c->last, true, "control peek: T and L");
        NS_TEST_EXPECT_MSG_EQ(c->headerLength, 14u, "control peek: header length");
        NS_TEST_EXPECT_MSG_EQ(c->payloadLength, 5u, "control peek: payload length");
    }
};

class PeekUntaggedTestCase : public TestCase
{
  public:
    PeekUntaggedTestCase()
        : TestCase("an untagged segment: QN, MSN, MO, RsvdULP and lengths from its octets")
    {
    }

  private:
    void DoRun() override
    {
        // T=0 L=1 DV=1, RsvdULP0 0x44 (Send with Invalidate), Invalidate STag, QN 0, MSN 7, MO 64.
        const Bytes b = Hx("41 44 | 0000C101 | 00000000 | 00000007 | 00000040 | AABBCC");
        const auto v = Peek(b);
        NS_TEST_ASSERT_MSG_EQ(v.has_value(), true, "a whole untagged header");
        NS_TEST_EXPECT_MSG_EQ(v->tagged, false, "T=0");
        NS_TEST_EXPECT_MSG_EQ(v->last, true, "L=1");
        NS_TEST_EXPECT_MSG_EQ(unsigned(v->RdmapOpcode()), unsigned(iwarp::Opcode::SendInv), "opcode");
        NS_TEST_EXPECT_MSG_EQ(v->rsvdUlp1, 0xC101u, "RsvdULP1 (the STag to invalidate)");
        NS_TEST_EXPECT_MSG_EQ(v->qn, 0u, "QN");
        NS_TEST_EXPECT_MSG_EQ(v->msn, 7u, "MSN");
        NS_TEST_EXPECT_MSG_EQ(v->mo, 64u, "MO");
        NS_TEST_EXPECT_MSG_EQ(v->headerLength, 18u, "untagged header length");
        NS_TEST_EXPECT_MSG_EQ(v->payloadLength, 3u, "payload after the header");
        NS_TEST_EXPECT_MSG_EQ(v->stag + v->to, 0u, "tagged fields stay zero");

        // A Read Request on QN 1 with L=0 (the view reports; judging is DDP's and RDMAP's job).
        const auto q = Peek(Hx("01 41 | 00000000 | 00000001 | 00000001 | 00000000"));
        NS_TEST_ASSERT_MSG_EQ(q.has_value(), true, "a header and nothing else");
        NS_TEST_EXPECT_MSG_EQ(q->last, false, "L=0");
        NS_TEST_EXPECT_MSG_EQ(q->qn, 1u, "QN 1");
        NS_TEST_EXPECT_MSG_EQ(unsigned(q->RdmapOpcode()), unsigned(iwarp::Opcode::ReadRequest), "opcode");
        NS_TEST_EXPECT_MSG_EQ(q->payloadLength, 0u, "no payload");
    }
};

class PeekShortTestCase : public TestCase
{
  public:
    PeekShortTestCase()
        : TestCase("a segment shorter than the header its T bit announces has no view")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(PeekDdpSegment(Create<Packet>()).has_value(), false, "empty packet");
        for (std::size_t size = 1; size < 14; ++size)
        {
            Bytes b(size, 0);
            b[0] = 0xC1;
            NS_TEST_EXPECT_MSG_EQ(Peek(b).has_value(), false, "tagged, " << size << " octets");
            NS_TEST_EXPECT_MSG_EQ(PeekDdpControl(PayloadPacket(b)).has_value(), false, "control peek, " << size);
        }
        Bytes tagged(14, 0);
        tagged[0] = 0xC1;
        NS_TEST_ASSERT_MSG_EQ(Peek(tagged).has_value(), true, "14 octets: a zero-length tagged segment");
        NS_TEST_EXPECT_MSG_EQ(Must(tagged).payloadLength, 0u, "14 octets: no payload");
        for (std::size_t size = 1; size < 18; ++size)
        {
            Bytes b(size, 0);
            b[0] = 0x41;
            if (size > 1)
            {
                b[1] = 0x47; // a Terminate's opcode: still not a segment
            }
            NS_TEST_EXPECT_MSG_EQ(Peek(b).has_value(), false, "untagged, " << size << " octets");
        }
        Bytes untagged(18, 0);
        untagged[0] = 0x41;
        NS_TEST_ASSERT_MSG_EQ(Peek(untagged).has_value(), true, "18 octets: a whole untagged header");
        NS_TEST_EXPECT_MSG_EQ(Must(untagged).payloadLength, 0u, "18 octets: no payload");
        // The T bit decides: 17 octets are a tagged header and 3 payload octets.
        Bytes t17(17, 0);
        t17[0] = 0x81;
        NS_TEST_ASSERT_MSG_EQ(Peek(t17).has_value(), true, "tagged, 17 octets");
        NS_TEST_EXPECT_MSG_EQ(Must(t17).payloadLength, 3u, "tagged, 17 octets: 3 payload octets");
    }
};

class OpcodeTestCase : public TestCase
{
  public:
    OpcodeTestCase()
        : TestCase("opcodes: RV and Rsv bits ignored, reserved values kept, one table of names")
    {
    }

  private:
    static std::string InjectScenario(const std::string& opcode)
    {
        return "stop: 10ms\n"
               "topology: {kind: two-hosts}\n"
               "workloads:\n"
               "  - {kind: stream, name: s, from: h0, to: h1, size: 4KiB, count: 1}\n"
               "  - {kind: inject, target: s, from: h0, to: h1, at: 1ms, fields: {tagged: false, opcode: " +
               opcode + "}}\n";
    }

    void DoRun() override
    {
        Bytes b = Hx("41 C7 | 00000000 | 00000002 | 00000001 | 00000000");
        NS_TEST_ASSERT_MSG_EQ(Peek(b).has_value(), true, "a whole untagged header");
        NS_TEST_EXPECT_MSG_EQ(unsigned(Must(b).RdmapOpcode()), 7u, "RV=3: still Terminate");
        b[1] = 0x3B; // RV 0, Rsv 11b, opcode 0xB
        NS_TEST_EXPECT_MSG_EQ(unsigned(Must(b).RdmapOpcode()), 0xBu, "a reserved opcode kept");

        // The names, in value order, as doc/scenario-format.md lists them for an inject's opcode.
        const char* names[] = {"write", "read-request", "read-response", "send",
                               "send-inv", "send-se", "send-se-inv", "terminate"};
        NS_TEST_ASSERT_MSG_EQ(std::size(iwarp::kOpcodeNames), std::size(names), "eight defined opcodes");
        for (unsigned i = 0; i < std::size(names); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned(iwarp::kOpcodeNames[i].opcode), i, "value order at " << i);
            NS_TEST_EXPECT_MSG_EQ(std::string(iwarp::kOpcodeNames[i].name), names[i], "name of " << i);
            // The scenario reader takes exactly these names, for these values.
            unsigned value = 99;
            const std::string err = ThrownMessage<ScenarioError>([&value, &names, i] {
                const ScenarioConfig c = LoadScenarioString(InjectScenario(names[i]));
                value = c.workloads[1].inject->fields->opcode.value_or(99);
            });
            NS_TEST_EXPECT_MSG_EQ(err, "", "scenario opcode " << names[i] << " is read");
            NS_TEST_EXPECT_MSG_EQ(value, i, "scenario opcode " << names[i]);
        }
        const std::string err =
            ThrownMessage<ScenarioError>([] { LoadScenarioString(InjectScenario("read")); });
        NS_TEST_EXPECT_MSG_NE(err.find("unknown RDMAP opcode 'read' (expected one of write, read-request, "
                                       "read-response, send, send-inv, send-se, send-se-inv, terminate)"),
                              std::string::npos,
                              "an unknown name lists the table: " << err);
    }
};

class RtrTestCase : public TestCase
{
  public:
    RtrTestCase()
        : TestCase("the MPA RTR: a zero-length RDMA Write, and what the responder takes for one")
    {
    }

  private:
    void DoRun() override
    {
        // RFC 6581 §3: DDP tagged, L=1, DV=1 (0xC1); RDMAP RV=1, RDMA Write (0x40); STag 0, TO 0.
        const Bytes rtr = Hx("C1 40 | 00000000 | 0000000000000000");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(MakeMpaRtr())), Hex(rtr), "the RTR's octets");
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(MakeMpaRtr())), int(MpaFirstUlpdu::Rtr), "our RTR");

        auto classify = [&rtr](std::size_t at, uint8_t value) {
            Bytes b = rtr;
            b[at] = value;
            return ClassifyFirstUlpdu(PayloadPacket(b));
        };
        // DDP-037: the STag and TO of a zero-length tagged segment are not checked; nor is the RV.
        NS_TEST_EXPECT_MSG_EQ(int(classify(2, 0x12)), int(MpaFirstUlpdu::Rtr), "any STag");
        NS_TEST_EXPECT_MSG_EQ(int(classify(13, 0x01)), int(MpaFirstUlpdu::Rtr), "any TO");
        NS_TEST_EXPECT_MSG_EQ(int(classify(1, 0x00)), int(MpaFirstUlpdu::Rtr), "RV 0");
        // The control octet must be exactly 0xC1 and the opcode RDMA Write.
        NS_TEST_EXPECT_MSG_EQ(int(classify(0, 0x81)), int(MpaFirstUlpdu::Other), "L=0");
        NS_TEST_EXPECT_MSG_EQ(int(classify(0, 0xC5)), int(MpaFirstUlpdu::Other), "a reserved bit set");
        NS_TEST_EXPECT_MSG_EQ(int(classify(0, 0xC2)), int(MpaFirstUlpdu::Other), "DV 2");
        NS_TEST_EXPECT_MSG_EQ(int(classify(1, 0x42)), int(MpaFirstUlpdu::Other), "a Read Response");
        NS_TEST_EXPECT_MSG_EQ(int(classify(1, 0x47)), int(MpaFirstUlpdu::Other), "tagged opcode 7");
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(PayloadPacket(Cat({rtr, Hx("00")})))),
                              int(MpaFirstUlpdu::Other),
                              "one payload octet: not zero-length");
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(PayloadPacket(Sub(rtr, 0, 13)))),
                              int(MpaFirstUlpdu::Other),
                              "13 octets");
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(Create<Packet>())), int(MpaFirstUlpdu::Other), "empty");

        // A Terminate in its place (an initiator that cannot go on): any whole untagged opcode 7.
        const Bytes term = Hx("41 47 | 00000000 | 00000002 | 00000001 | 00000000 | 02060000");
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(PayloadPacket(term))), int(MpaFirstUlpdu::Terminate),
                              "a Terminate");
        // Shorter than its header it is no segment at all: MPA's No Matching RTR, not DDP's to judge.
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(PayloadPacket(Sub(term, 0, 6)))),
                              int(MpaFirstUlpdu::Other),
                              "6 octets with a Terminate's opcode");
        Bytes send = term;
        send[1] = 0x43;
        NS_TEST_EXPECT_MSG_EQ(int(ClassifyFirstUlpdu(PayloadPacket(send))), int(MpaFirstUlpdu::Other), "a Send");
    }
};

class InjectOctetsTestCase : public TestCase
{
  public:
    InjectOctetsTestCase()
        : TestCase("an injected segment's octets, field by field, from the DDP and RDMAP header classes")
    {
    }

  private:
    static std::string Built(const InjectFields& f)
    {
        InjectConfig in;
        in.fields = f;
        return Hex(BuildInjectedSegment(in));
    }

    void DoRun() override
    {
        InjectFields f;
        NS_TEST_EXPECT_MSG_EQ(Built(f), Hex(Hx("C1 40 | 00000000 | 0000000000000000")),
                              "default: a tagged, last RDMA Write to STag 0, TO 0");
        f.tagged = false;
        NS_TEST_EXPECT_MSG_EQ(Built(f), Hex(Hx("41 43 | 00000000 | 00000000 | 00000001 | 00000000")),
                              "untagged default: a Send on QN 0, MSN 1, MO 0");

        InjectFields t;
        t.last = false;
        t.dv = 2;
        t.rv = 0;
        t.opcode = 0xB; // reserved: kept
        t.stag = 0xDEADBEEF;
        t.to = 0x0102030405060708ull;
        t.payload = 3;
        NS_TEST_EXPECT_MSG_EQ(Built(t), Hex(Hx("82 0B | DEADBEEF | 0102030405060708 | 000000")),
                              "every tagged field");
        t.rsvdUlp = 0xA5;
        NS_TEST_EXPECT_MSG_EQ(Built(t), Hex(Hx("82 A5 | DEADBEEF | 0102030405060708 | 000000")),
                              "tagged RsvdULP given whole");

        InjectFields u;
        u.tagged = false;
        u.rv = 3;
        u.opcode = 7;
        u.qn = 2;
        u.msn = 0x11223344;
        u.mo = 0x55667788;
        NS_TEST_EXPECT_MSG_EQ(Built(u), Hex(Hx("41 C7 | 00000000 | 00000002 | 11223344 | 55667788")),
                              "every untagged field");
        u.rsvdUlp = 0x12345678ABull;
        NS_TEST_EXPECT_MSG_EQ(Built(u), Hex(Hx("41 12 | 345678AB | 00000002 | 11223344 | 55667788")),
                              "untagged RsvdULP: 40 bits given whole");

        InjectConfig raw;
        raw.raw = Hx("DE AD");
        NS_TEST_EXPECT_MSG_EQ(Hex(BuildInjectedSegment(raw)), "DE AD ", "hex: as given");
    }
};

class DdpSegmentViewTestSuite : public TestSuite
{
  public:
    DdpSegmentViewTestSuite()
        : TestSuite("iwarp-ddp-segment-view", UNIT)
    {
        AddTestCase(new PeekTaggedTestCase, TestCase::QUICK);
        AddTestCase(new PeekUntaggedTestCase, TestCase::QUICK);
        AddTestCase(new PeekShortTestCase, TestCase::QUICK);
        AddTestCase(new OpcodeTestCase, TestCase::QUICK);
        AddTestCase(new RtrTestCase, TestCase::QUICK);
        AddTestCase(new InjectOctetsTestCase, TestCase::QUICK);
    }
};

DdpSegmentViewTestSuite g_ddpSegmentViewTestSuite;

} // namespace
