/*
 * Wire-format tests for the DDP and RDMAP control fields (doc/conformance.md §1): the octet values of
 * the §1.6 table, the reserved bits of DDP octet 0, the Terminate Control word, and
 * RdmapTerminateHeader::Parse() on untrusted (truncated or oddly flagged) input. Round trips
 * and the §1.12 vectors are in header-test-suite.cc.
 */
#include "support/conformance-data.h"
#include "support/test-bytes.h"

#include "common/iwarp-constants.h"
#include "ddp/ddp-header.h"
#include "rdmap/rdmap-header.h"

#include "ns3/packet.h"
#include "ns3/test.h"

#include <cstdint>
#include <string>
#include <utility>

using namespace ns3;
using namespace ns3::iwarp;
using namespace ns3::iwarptest;

namespace
{

// ------------------------------------------------------------------ control octets

class ControlOctetTable : public TestCase
{
  public:
    ControlOctetTable()
        : TestCase("conformance §1.6 octet 0 and octet 1 for every opcode with L=0 and L=1")
    {
    }

  private:
    void DoRun() override
    {
        struct Row
        {
            Opcode op;
            bool tagged;
            int oct0L0; ///< -1: the table has no L=0 segment for this message
            uint8_t oct0L1;
            uint8_t oct1;
        };
        const Row rows[] = {
            {Opcode::RdmaWrite, true, 0x81, 0xC1, 0x40},    {Opcode::ReadRequest, false, -1, 0x41, 0x41},
            {Opcode::ReadResponse, true, 0x81, 0xC1, 0x42}, {Opcode::Send, false, 0x01, 0x41, 0x43},
            {Opcode::SendInv, false, 0x01, 0x41, 0x44},     {Opcode::SendSE, false, 0x01, 0x41, 0x45},
            {Opcode::SendSEInv, false, 0x01, 0x41, 0x46},   {Opcode::Terminate, false, -1, 0x41, 0x47},
        };
        for (const Row& r : rows)
        {
            const unsigned op = unsigned(r.op);
            NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Make(r.op)), unsigned(r.oct1), "oct1 of opcode " << op);
            NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::OpcodeBits(r.oct1)), op, "opcode bits of " << op);
            NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Version(r.oct1)), 1u, "RV of " << op);
            for (bool last : {false, true})
            {
                const unsigned want = last ? r.oct0L1 : unsigned(r.oct0L0 < 0 ? 0x01 : r.oct0L0);
                NS_TEST_EXPECT_MSG_EQ(unsigned(DdpControl::Make(r.tagged, last)), want,
                                      "oct0 of opcode " << op << " L=" << last);
                // And as the header classes put them on the wire.
                Ptr<Packet> p = Create<Packet>();
                if (r.tagged)
                {
                    DdpTaggedHeader h;
                    h.SetLast(last);
                    h.SetRsvdUlp(RdmapControl::Make(r.op));
                    p->AddHeader(h);
                }
                else
                {
                    DdpUntaggedHeader h;
                    h.SetLast(last);
                    h.SetRsvdUlp0(RdmapControl::Make(r.op));
                    p->AddHeader(h);
                }
                const Bytes b = PacketBytes(p);
                NS_TEST_EXPECT_MSG_EQ(unsigned(b[0]), want, "wire oct0 of opcode " << op << " L=" << last);
                NS_TEST_EXPECT_MSG_EQ(unsigned(b[1]), unsigned(r.oct1), "wire oct1 of opcode " << op);
            }
        }
        // Reserved opcodes 0x8-0xF keep their value; RV 0 (RDMA Consortium) is encodable (A15).
        for (unsigned op = 8; op < 16; ++op)
        {
            const uint8_t c = RdmapControl::Make(Opcode(op));
            NS_TEST_EXPECT_MSG_EQ(unsigned(c), (0x40u | op), "reserved opcode " << op);
            NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::OpcodeBits(c)), op, "reserved opcode bits " << op);
        }
        NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Make(Opcode::Send, 0)), 0x03u, "RV=00b");
        NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Make(Opcode::Send, 3)), 0xC3u, "RV=11b");
        NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Make(Opcode(0x13), 1)), 0x43u, "opcode masked to 4 bits");
        // The receiver ignores Rsv (octet 1 & 0x30).
        NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::OpcodeBits(0x75)), 5u, "opcode with Rsv set");
        NS_TEST_EXPECT_MSG_EQ(unsigned(RdmapControl::Version(0x75)), 1u, "RV with Rsv set");
    }
};

class DdpControlReservedBits : public TestCase
{
  public:
    DdpControlReservedBits()
        : TestCase("DdpControl helpers and headers ignore the reserved bits of octet 0")
    {
    }

  private:
    void DoRun() override
    {
        for (unsigned v = 0; v < 256; ++v)
        {
            const uint8_t c = uint8_t(v);
            NS_TEST_EXPECT_MSG_EQ(DdpControl::IsTagged(c), ((v & 0x80) != 0), "T of 0x" << std::hex << v);
            NS_TEST_EXPECT_MSG_EQ(DdpControl::IsLast(c), ((v & 0x40) != 0), "L of 0x" << std::hex << v);
            NS_TEST_EXPECT_MSG_EQ(unsigned(DdpControl::Version(c)), (v & 0x03u), "DV of 0x" << std::hex << v);
        }
        NS_TEST_EXPECT_MSG_EQ(unsigned(DdpControl::Make(true, true)), 0xC1u, "Make sets Rsvd = 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(DdpControl::Make(false, false, 0xFF)), 0x03u, "DV masked to 2 bits");

        // A received header with every Rsvd bit set keeps its raw octet and decodes T/L/DV.
        Bytes raw = kV1;
        raw[0] |= kDdpRsvdMask; // 0xFD
        Ptr<Packet> p = PayloadPacket(raw);
        DdpTaggedHeader t;
        p->RemoveHeader(t);
        NS_TEST_EXPECT_MSG_EQ(unsigned(t.GetControl()), 0xFDu, "raw octet kept");
        NS_TEST_EXPECT_MSG_EQ(t.IsLast(), true, "L with Rsvd set");
        NS_TEST_EXPECT_MSG_EQ(unsigned(t.GetDdpVersion()), 1u, "DV with Rsvd set");
        NS_TEST_EXPECT_MSG_EQ(t.GetStag(), 0xDEADBE00u, "STag with Rsvd set");

        Bytes rawU = kV2;
        rawU[0] = 0x3D; // T=0, L=0, Rsvd=1111, DV=1
        Ptr<Packet> q = PayloadPacket(rawU);
        DdpUntaggedHeader u;
        q->RemoveHeader(u);
        NS_TEST_EXPECT_MSG_EQ(u.IsLast(), false, "untagged L with Rsvd set");
        NS_TEST_EXPECT_MSG_EQ(unsigned(u.GetDdpVersion()), 1u, "untagged DV with Rsvd set");
        NS_TEST_EXPECT_MSG_EQ(u.GetMsn(), 1u, "untagged MSN with Rsvd set");
    }
};

class TermCtrlValues : public TestCase
{
  public:
    TermCtrlValues()
        : TestCase("TermCtrl words and the Terminate octets 0-2 of the conformance §3 table")
    {
    }

  private:
    void DoRun() override
    {
        static_assert(TermCtrl(1, 1, 0x00, true, true, false) == 0x1100C000u, "DDP Invalid STag");
        static_assert(TermCtrl(0, 1, 0x00, true, true, true) == 0x0100E000u, "RDMAP Invalid STag");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(1, 1, 0x00, true, true, false), 0x1100C000u, "V5 control word");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(0, 1, 0x00, true, true, true), 0x0100E000u, "V6 control word");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(0, 0, 0x00, false, false, false), 0u, "Local Catastrophic");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(1, 2, 0x05, true, true, false), 0x1205C000u, "1/2/0x05 MDR=110");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(0, 2, 0xFF, true, false, false), 0x02FF8000u, "0/2/0xFF MDR=100");
        NS_TEST_EXPECT_MSG_EQ(TermCtrl(0x12, 0x34, 0x56, false, false, true), 0x24562000u, "nibbles masked");
        NS_TEST_EXPECT_MSG_EQ((TermCtrl(0xF, 0xF, 0xFF, true, true, true) & 0x1FFFu), 0u, "13 reserved bits 0");

        const std::pair<ErrorCause, const char*> rows[] = {
            {ErrorCause::Rdma(RdmapEType::RemoteProtection, RdmapCode::StagCannotInvalidate), "01 09"},
            {ErrorCause::Rdma(RdmapEType::RemoteOperation, RdmapCode::InvalidRdmapVersion), "02 05"},
            {ErrorCause::Rdma(RdmapEType::RemoteOperation, RdmapCode::CatastrophicGlobal), "02 08"},
            {ErrorCause::Ddp(DdpTaggedCode::ToWrap), "11 03"},
            {ErrorCause::Ddp(DdpTaggedCode::InvalidDdpVersion), "11 04"},
            {ErrorCause::Ddp(DdpUntaggedCode::InvalidQn), "12 01"},
            {ErrorCause::Ddp(DdpUntaggedCode::InvalidDdpVersion), "12 06"},
            {ErrorCause::Llp(0x1, 0x02), "21 02"},
        };
        for (const auto& [cause, oct01] : rows)
        {
            RdmapTerminateHeader t;
            t.cause = cause;
            t.m = t.d = true;
            t.ddpHeader = Bytes(kV1.begin(), kV1.begin() + 14);
            const Bytes b = t.ToBytes();
            NS_TEST_EXPECT_MSG_EQ(Hex(Bytes(b.begin(), b.begin() + 4)), Hex(Cat({Hx(oct01), Hx("C0 00")})),
                                  "octets 0-3 (M=D=1) of " << cause.ToString());
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorCause::Ddp(DdpUntaggedCode::MsnRange).ToString(), std::string("1/2/0x03"),
                              "ErrorCause notation");
    }
};

// ------------------------------------------------------------------ Parse on untrusted input

class TerminateParseUntrusted : public TestCase
{
  public:
    TerminateParseUntrusted()
        : TestCase("RdmapTerminateHeader Parse of truncated and oddly flagged input stays in bounds")
    {
    }

  private:
    /** Parse a heap copy of exactly `len` octets of `b`, so ASan catches any over-read. */
    static bool ParseFirst(const Bytes& b, size_t len, RdmapTerminateHeader* out)
    {
        const Bytes cut(b.begin(), b.begin() + len);
        return out->Parse(cut.data(), cut.size());
    }

    void DoRun() override
    {
        // Every truncation of the 70-octet V6 segment leaves a short Terminate header (0..51).
        const Bytes& v6 = kV6;
        const Bytes term(v6.begin() + 18, v6.end());
        NS_TEST_ASSERT_MSG_EQ(term.size(), 52u, "largest Terminate header");
        for (size_t segLen = 0; segLen < v6.size(); ++segLen)
        {
            const size_t len = segLen > 18 ? segLen - 18 : 0;
            RdmapTerminateHeader t;
            NS_TEST_EXPECT_MSG_EQ(ParseFirst(term, len, &t), false, "V6 truncated to " << segLen << " octets");
        }
        RdmapTerminateHeader full;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(term, term.size(), &full), true, "the whole V6 Terminate header");
        NS_TEST_EXPECT_MSG_EQ(full.ddpHeader.size(), 18u, "untagged copied header");
        NS_TEST_EXPECT_MSG_EQ(full.rdmaHeader.size(), 28u, "copied Read Request header");
        NS_TEST_EXPECT_MSG_EQ(full.ddpSegLen, 46u, "DDP Segment Length");
        NS_TEST_EXPECT_MSG_EQ(Hex(full.ToBytes()), Hex(term), "re-serializes to the same octets");

        // A12: a bare 4-octet Local Catastrophic header is accepted.
        const Bytes bare = Hx("00 00 00 00");
        RdmapTerminateHeader b;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(bare, 4, &b), true, "bare Local Catastrophic");
        NS_TEST_EXPECT_MSG_EQ((b.m || b.d || b.r), false, "MDR=000");
        NS_TEST_EXPECT_MSG_EQ((unsigned(b.cause.layer) + b.cause.etype), 0u, "0/0");
        for (size_t len = 0; len < 4; ++len)
        {
            RdmapTerminateHeader t;
            NS_TEST_EXPECT_MSG_EQ(ParseFirst(bare, len, &t), false, "control word cut to " << len);
        }
        // A12: trailing zero-filled fields beyond what M/D/R promise are ignored.
        RdmapTerminateHeader z;
        const Bytes padded(52, 0);
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(padded, 52, &z), true, "zero-filled 52 octets");
        NS_TEST_EXPECT_MSG_EQ((z.ddpHeader.empty() && z.rdmaHeader.empty()), true, "nothing copied when D=R=0");

        // M=1 promises the 2-octet DDP Segment Length: a 4-octet header with M=1 is short.
        const Bytes mOnly = Hx("02 FF 80 00");
        RdmapTerminateHeader m;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(mOnly, 4, &m), false, "M=1 without the DDP Segment Length");
        const Bytes mSix = Hx("02 FF 80 00 | 00 2A");
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(mSix, 6, &m), true, "M=1 with the DDP Segment Length");
        NS_TEST_EXPECT_MSG_EQ(m.ddpSegLen, 42u, "DDP Segment Length read");

        // D=1: the copied header's own T bit sizes it: tagged 14, untagged 18.
        const Bytes tagged = Cat({Hx("11 00 C0 00 | 00 12"), Bytes(kV1.begin(), kV1.begin() + 14)});
        RdmapTerminateHeader dt;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(tagged, 20, &dt), true, "D=1 with a tagged header");
        NS_TEST_EXPECT_MSG_EQ(dt.ddpHeader.size(), 14u, "tagged copied header is 14 octets");
        for (size_t len = 4; len < 20; ++len)
        {
            NS_TEST_EXPECT_MSG_EQ(ParseFirst(tagged, len, &dt), false, "tagged D=1 cut to " << len);
        }
        const Bytes untagged = Cat({Hx("12 02 C0 00 | 00 17"), Bytes(kV2.begin(), kV2.begin() + 18)});
        RdmapTerminateHeader du;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(untagged, 20, &du), false, "D=1 untagged with only 14 octets");
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(untagged, 23, &du), false, "D=1 untagged with 17 octets");
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(untagged, 24, &du), true, "D=1 untagged with 18 octets");
        NS_TEST_EXPECT_MSG_EQ(du.ddpHeader.size(), 18u, "untagged copied header is 18 octets");
        NS_TEST_EXPECT_MSG_EQ(Hex(du.ddpHeader), Hex(Bytes(kV2.begin(), kV2.begin() + 18)), "copied octets");

        // R=1 without D: the 28 RDMA octets follow the segment length directly.
        const Bytes rOnly = Cat({Hx("02 06 A0 00 | 00 2E"), Bytes(kV4.begin() + 18, kV4.end())});
        RdmapTerminateHeader ro;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(rOnly, 33, &ro), false, "R=1 with 27 RDMA octets");
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(rOnly, 34, &ro), true, "R=1 with 28 RDMA octets");
        NS_TEST_EXPECT_MSG_EQ((ro.r && !ro.d), true, "R without D");
        NS_TEST_EXPECT_MSG_EQ(Hex(ro.rdmaHeader), Hex(Bytes(kV4.begin() + 18, kV4.end())), "RDMA header");

        // The 13 reserved bits are ignored on receive (RDMAP-016).
        Bytes rsvd = tagged;
        rsvd[2] |= 0x1F;
        rsvd[3] = 0xFF;
        RdmapTerminateHeader rv;
        NS_TEST_EXPECT_MSG_EQ(ParseFirst(rsvd, rsvd.size(), &rv), true, "reserved bits set");
        NS_TEST_EXPECT_MSG_EQ(rv.GetControlWord(), 0x1100C000u, "control word without reserved bits");
    }
};

class HeaderControlSuite : public TestSuite
{
  public:
    HeaderControlSuite()
        : TestSuite("iwarp-headers-control", UNIT)
    {
        AddTestCase(new ControlOctetTable, TestCase::QUICK);
        AddTestCase(new DdpControlReservedBits, TestCase::QUICK);
        AddTestCase(new TermCtrlValues, TestCase::QUICK);
        AddTestCase(new TerminateParseUntrusted, TestCase::QUICK);
    }
};

HeaderControlSuite g_headerControlSuite;

} // namespace
