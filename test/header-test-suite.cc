/*
 * Wire-format tests for the DDP and RDMAP headers (CHECKLIST §1): round trips through ns-3
 * Packets and Buffers, the test vectors V1-V7 of §1.12 built from the header classes, the
 * octet values of the §1.6 table, the Terminate Control word, and Parse() on untrusted
 * (truncated or oddly flagged) input.
 */
#include "common/iwarp-constants.h"
#include "ddp/ddp-header.h"
#include "rdmap/rdmap-header.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <cctype>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::iwarp;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes
PacketBytes(Ptr<const Packet> p)
{
    Bytes b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

std::string
Hex(const Bytes& b)
{
    std::ostringstream os;
    for (uint8_t v : b)
    {
        os << std::hex << std::setw(2) << std::setfill('0') << unsigned(v) << ' ';
    }
    return os.str();
}

Bytes
Ascii(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

Ptr<Packet>
PayloadPacket(const Bytes& b)
{
    return Create<Packet>(b.data(), b.size());
}

template <typename H>
std::string
Printed(const H& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

bool
Contains(const std::string& s, const std::string& what)
{
    return s.find(what) != std::string::npos;
}

// ------------------------------------------------------------------ the §1.12 vectors

/** Octets from hex text as the CHECKLIST writes it ("41 47 | 00000002"): spaces and bars ignored. */
Bytes
Hx(const std::string& text)
{
    Bytes b;
    std::string digits;
    for (char c : text)
    {
        if (std::isxdigit(static_cast<unsigned char>(c)))
        {
            digits += c;
        }
    }
    for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    {
        b.push_back(uint8_t(std::stoul(digits.substr(i, 2), nullptr, 16)));
    }
    return b;
}

/** `n` octets of `v`, big-endian. */
Bytes
Be(uint64_t v, int n)
{
    Bytes b;
    for (int i = n - 1; i >= 0; --i)
    {
        b.push_back(uint8_t(v >> (8 * i)));
    }
    return b;
}

Bytes
Cat(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const Bytes& p : parts)
    {
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

// Verbatim from CHECKLIST §1.12 (V3's payload is ours: "inv").
const Bytes kV1 = Hx("C1 40 DE AD BE 00 00 00 00 00 00 01 00 00 41 42 43 44");
const Bytes kV2 = Hx("41 43 00 00 00 00 | 00 00 00 00 | 00 00 00 01 | 00 00 00 00 | 68 65 6C 6C 6F");
const Bytes kV3 = Hx("41 44 00 00 A1 01 | 00 00 00 00 | 00 00 00 02 | 00 00 00 00 | 69 6E 76");
const Bytes kV4 = Hx("41 41 00 00 00 00 | 00 00 00 01 | 00 00 00 01 | 00 00 00 00 | 00 00 F0 0D | "
                     "00 00 00 00 00 00 50 00 | 00 00 0B B8 | 00 00 A1 01 | 00 00 00 00 00 01 00 00");
const Bytes kV5 = Hx("41 47 00 00 00 00 | 00 00 00 02 | 00 00 00 01 | 00 00 00 00 | 11 00 C0 00 | 00 12 | "
                     "C1 40 DE AD BE 00 00 00 00 00 00 01 00 00");
// V6: the 18 header octets and 28 Read Request octets of V4 follow the Terminate control.
const Bytes kV6 = Hx("41 47 00000000 00000002 00000001 00000000 | 01 00 E0 00 | 00 2E | "
                     "41 41 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00 | 00 00 F0 0D 00 00 00 00 00 00 50 00 "
                     "00 00 0B B8 00 00 A1 01 00 00 00 00 00 01 00 00");

DdpUntaggedHeader
Untagged(Opcode op, uint32_t qn, uint32_t msn, uint32_t mo, uint32_t invStag = 0)
{
    DdpUntaggedHeader h;
    h.SetLast(true);
    h.SetRsvdUlp0(RdmapControl::Make(op));
    h.SetRsvdUlp1(invStag);
    h.SetQn(qn);
    h.SetMsn(msn);
    h.SetMo(mo);
    return h;
}

/** V4's Read Request header. */
RdmapReadRequestHeader
V4ReadRequest()
{
    RdmapReadRequestHeader rr;
    rr.sinkStag = 0x0000F00D;
    rr.sinkTo = 0x5000;
    rr.readSize = 3000;
    rr.srcStag = 0x0000A101;
    rr.srcTo = 0x10000;
    return rr;
}

/** The Terminate header of V6: TERM 0/1/0x00 MDR=111 answering V4. */
RdmapTerminateHeader
V6Terminate()
{
    RdmapTerminateHeader t;
    t.cause = ErrorCause::Rdma(RdmapEType::RemoteProtection, RdmapCode::InvalidStag);
    t.m = t.d = t.r = true;
    t.ddpSegLen = 46;
    t.ddpHeader.assign(kV4.begin(), kV4.begin() + 18);
    t.rdmaHeader.assign(kV4.begin() + 18, kV4.end());
    return t;
}

// ------------------------------------------------------------------ round trips

class TaggedHeaderRoundTrip : public TestCase
{
  public:
    TaggedHeaderRoundTrip()
        : TestCase("DdpTaggedHeader serializes 14 big-endian octets and reads them back")
    {
    }

  private:
    void DoRun() override
    {
        DdpTaggedHeader h;
        h.SetLast(true);
        h.SetRsvdUlp(0x42);
        h.SetStag(0x0A0B0C0D);
        h.SetTo(0x0102030405060708ull);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 14u, "tagged header size (DDP-019)");
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        const Bytes want = Hx("C1 42 0A0B0C0D 0102030405060708");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(p)), Hex(want), "wire octets");

        // The same octets through a bare Buffer.
        Buffer b;
        b.AddAtStart(14);
        h.Serialize(b.Begin());
        Bytes viaBuffer(14);
        b.CopyData(viaBuffer.data(), 14);
        NS_TEST_EXPECT_MSG_EQ(Hex(viaBuffer), Hex(want), "Buffer serialization");

        DdpTaggedHeader r;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(r), 14u, "deserialized size");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetControl()), 0xC1u, "control octet");
        NS_TEST_EXPECT_MSG_EQ(r.IsLast(), true, "L");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetDdpVersion()), 1u, "DV");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetRsvdUlp()), 0x42u, "RsvdULP");
        NS_TEST_EXPECT_MSG_EQ(r.GetStag(), 0x0A0B0C0Du, "STag");
        NS_TEST_EXPECT_MSG_EQ(r.GetTo(), 0x0102030405060708ull, "TO");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 0u, "nothing left");

        const std::string s = Printed(r);
        NS_TEST_EXPECT_MSG_EQ(Contains(s, "STag"), true, "Print names STag: " << s);
        NS_TEST_EXPECT_MSG_EQ(Contains(s, "TO"), true, "Print names TO: " << s);
        NS_TEST_EXPECT_MSG_EQ(Contains(s, "a0b0c0d"), true, "Print shows the STag value: " << s);

        // SetControl keeps T=1 whatever it is given (the header's type is its class).
        DdpTaggedHeader c;
        c.SetControl(0x02);
        NS_TEST_EXPECT_MSG_EQ(unsigned(c.GetControl()), 0x82u, "T forced to 1");
        NS_TEST_EXPECT_MSG_EQ(c.IsLast(), false, "L=0");
        c.SetLast(true);
        c.SetLast(false);
        NS_TEST_EXPECT_MSG_EQ(unsigned(c.GetControl()), 0x82u, "SetLast(false) clears only L");
    }
};

class UntaggedHeaderRoundTrip : public TestCase
{
  public:
    UntaggedHeaderRoundTrip()
        : TestCase("DdpUntaggedHeader serializes 18 big-endian octets and reads them back")
    {
    }

  private:
    void DoRun() override
    {
        DdpUntaggedHeader h;
        h.SetRsvdUlp0(0x44);
        h.SetRsvdUlp1(0xCAFEF00D);
        h.SetQn(0x01020304);
        h.SetMsn(0xFFFFFFFF);
        h.SetMo(0x12345678);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 18u, "untagged header size (DDP-023)");
        Ptr<Packet> p = PayloadPacket(Bytes{0xEE});
        p->AddHeader(h);
        const Bytes want = Hx("01 44 CAFEF00D 01020304 FFFFFFFF 12345678 | EE");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(p)), Hex(want), "wire octets (L=0: octet 0 = 0x01)");

        DdpUntaggedHeader r;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(r), 18u, "deserialized size");
        NS_TEST_EXPECT_MSG_EQ(r.IsLast(), false, "L");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetDdpVersion()), 1u, "DV");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetRsvdUlp0()), 0x44u, "RsvdULP[0:7]");
        NS_TEST_EXPECT_MSG_EQ(r.GetRsvdUlp1(), 0xCAFEF00Du, "RsvdULP[8:39]");
        NS_TEST_EXPECT_MSG_EQ(r.GetQn(), 0x01020304u, "QN");
        NS_TEST_EXPECT_MSG_EQ(r.GetMsn(), 0xFFFFFFFFu, "MSN");
        NS_TEST_EXPECT_MSG_EQ(r.GetMo(), 0x12345678u, "MO");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 1u, "payload left");

        const std::string s = Printed(r);
        for (const char* name : {"QN", "MSN", "MO"})
        {
            NS_TEST_EXPECT_MSG_EQ(Contains(s, name), true, "Print names " << name << ": " << s);
        }
        DdpUntaggedHeader c;
        c.SetControl(0xC1);
        NS_TEST_EXPECT_MSG_EQ(unsigned(c.GetControl()), 0x41u, "T forced to 0");
    }
};

class ReadRequestHeaderRoundTrip : public TestCase
{
  public:
    ReadRequestHeaderRoundTrip()
        : TestCase("RdmapReadRequestHeader round trip, ToBytes and Parse rejecting short input")
    {
    }

  private:
    void DoRun() override
    {
        const RdmapReadRequestHeader h = V4ReadRequest();
        const Bytes want(kV4.begin() + 18, kV4.end());
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 28u, "Read Request header size (RDMAP-014)");
        NS_TEST_EXPECT_MSG_EQ(Hex(h.ToBytes()), Hex(want), "ToBytes = V4's last 28 octets");
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(p)), Hex(want), "Packet serialization");

        RdmapReadRequestHeader r;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(r), 28u, "deserialized size");
        NS_TEST_EXPECT_MSG_EQ(r.sinkStag, 0x0000F00Du, "SinkSTag");
        NS_TEST_EXPECT_MSG_EQ(r.sinkTo, 0x5000u, "SinkTO");
        NS_TEST_EXPECT_MSG_EQ(r.readSize, 3000u, "RDMARDSZ");
        NS_TEST_EXPECT_MSG_EQ(r.srcStag, 0x0000A101u, "SrcSTag");
        NS_TEST_EXPECT_MSG_EQ(r.srcTo, 0x10000u, "SrcTO");
        const std::string s = Printed(r);
        for (const char* name : {"SinkSTag", "SinkTO", "RDMARDSZ", "SrcSTag", "SrcTO"})
        {
            NS_TEST_EXPECT_MSG_EQ(Contains(s, name), true, "Print names " << name << ": " << s);
        }

        // Parse: exactly-sized heap copies so that the sanitizer build sees any over-read.
        for (size_t len = 0; len < 28; ++len)
        {
            const Bytes cut(want.begin(), want.begin() + len);
            RdmapReadRequestHeader q;
            NS_TEST_EXPECT_MSG_EQ(q.Parse(cut.data(), cut.size()), false, "Parse of " << len << " octets");
        }
        RdmapReadRequestHeader q;
        const Bytes longer = Cat({want, Hx("99")});
        NS_TEST_EXPECT_MSG_EQ(q.Parse(longer.data(), longer.size()), true, "Parse of 29 octets");
        NS_TEST_EXPECT_MSG_EQ(Hex(q.ToBytes()), Hex(want), "Parse reads the first 28 octets");
    }
};

class TerminateHeaderRoundTrip : public TestCase
{
  public:
    TerminateHeaderRoundTrip()
        : TestCase("RdmapTerminateHeader round trip for MDR 000, 110 (tagged) and 111 (untagged)")
    {
    }

  private:
    void Check(const RdmapTerminateHeader& t, const Bytes& want, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(t.GetSerializedSize(), want.size(), what << ": size");
        NS_TEST_EXPECT_MSG_EQ(Hex(t.ToBytes()), Hex(want), what << ": ToBytes");
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(t);
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(p)), Hex(want), what << ": Packet");
        RdmapTerminateHeader r;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(r), want.size(), what << ": deserialized size");
        NS_TEST_EXPECT_MSG_EQ((r.cause == t.cause), true, what << ": cause " << r.cause.ToString());
        NS_TEST_EXPECT_MSG_EQ(r.m, t.m, what << ": M");
        NS_TEST_EXPECT_MSG_EQ(r.d, t.d, what << ": D");
        NS_TEST_EXPECT_MSG_EQ(r.r, t.r, what << ": R");
        NS_TEST_EXPECT_MSG_EQ(r.ddpSegLen, t.ddpSegLen, what << ": DDP Segment Length");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.ddpHeader), Hex(t.d ? t.ddpHeader : Bytes{}), what << ": DDP hdr");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.rdmaHeader), Hex(t.r ? t.rdmaHeader : Bytes{}), what << ": RDMA hdr");
        NS_TEST_EXPECT_MSG_EQ(r.GetControlWord(), t.GetControlWord(), what << ": control word");
    }

    void DoRun() override
    {
        RdmapTerminateHeader cat;
        cat.cause = ErrorCause::Rdma(RdmapEType::LocalCatastrophic, RdmapCode::InvalidStag);
        Check(cat, Bytes{0, 0, 0, 0, 0, 0}, "Local Catastrophic MDR=000");

        RdmapTerminateHeader v5;
        v5.cause = ErrorCause::Ddp(DdpTaggedCode::InvalidStag);
        v5.m = v5.d = true;
        v5.ddpSegLen = 18;
        v5.ddpHeader.assign(kV1.begin(), kV1.begin() + 14);
        Check(v5, Bytes(kV5.begin() + 18, kV5.end()), "V5 MDR=110");
        const Bytes& v6 = kV6;
        Check(V6Terminate(), Bytes(v6.begin() + 18, v6.end()), "V6 MDR=111");

        const std::string s = Printed(v5);
        for (const char* part : {"Terminate", "1/1/0x00", "M=1", "D=1", "R=0", "18"})
        {
            NS_TEST_EXPECT_MSG_EQ(Contains(s, part), true, "Print shows " << part << ": " << s);
        }
    }
};

// ------------------------------------------------------------------ §1.12 vectors

class TestVectorsV1ToV6 : public TestCase
{
  public:
    TestVectorsV1ToV6()
        : TestCase("Vectors V1-V6 of CHECKLIST 1.12 built from the header classes, octet for octet")
    {
    }

  private:
    void DoRun() override
    {
        // V1: RDMA Write, single segment.
        DdpTaggedHeader w;
        w.SetLast(true);
        w.SetRsvdUlp(RdmapControl::Make(Opcode::RdmaWrite));
        w.SetStag(0xDEADBE00);
        w.SetTo(0x10000);
        Ptr<Packet> v1 = PayloadPacket(Ascii("ABCD"));
        v1->AddHeader(w);
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v1)), Hex(kV1), "V1");

        // V2: Send, MSN 1.
        Ptr<Packet> v2 = PayloadPacket(Ascii("hello"));
        v2->AddHeader(Untagged(Opcode::Send, kQnSend, 1, 0));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v2)), Hex(kV2), "V2");

        // V3: Send with Invalidate of 0x0000A101, MSN 2.
        Ptr<Packet> v3 = PayloadPacket(Ascii("inv"));
        v3->AddHeader(Untagged(Opcode::SendInv, kQnSend, 2, 0, 0x0000A101));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v3)), Hex(kV3), "V3");

        // V4: RDMA Read Request.
        Ptr<Packet> v4 = Create<Packet>();
        v4->AddHeader(V4ReadRequest());
        v4->AddHeader(Untagged(Opcode::ReadRequest, kQnReadRequest, 1, 0));
        NS_TEST_EXPECT_MSG_EQ(v4->GetSize(), 46u, "V4 is 46 octets");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v4)), Hex(kV4), "V4");

        // V5: Terminate answering V1 (TERM 1/1/0x00 MDR=110), copied header from the packet.
        const Bytes v1Bytes = PacketBytes(v1);
        RdmapTerminateHeader t5;
        t5.cause = ErrorCause::Ddp(DdpTaggedCode::InvalidStag);
        t5.m = t5.d = true;
        t5.ddpSegLen = uint16_t(v1Bytes.size());
        t5.ddpHeader.assign(v1Bytes.begin(), v1Bytes.begin() + kDdpTaggedHdrLen);
        Ptr<Packet> v5 = Create<Packet>();
        v5->AddHeader(t5);
        v5->AddHeader(Untagged(Opcode::Terminate, kQnTerminate, 1, 0));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v5)), Hex(kV5), "V5");

        // V6: Terminate answering V4 (TERM 0/1/0x00 MDR=111), 70 octets.
        const Bytes v4Bytes = PacketBytes(v4);
        RdmapTerminateHeader t6;
        t6.cause = ErrorCause::Rdma(RdmapEType::RemoteProtection, RdmapCode::InvalidStag);
        t6.m = t6.d = t6.r = true;
        t6.ddpSegLen = uint16_t(v4Bytes.size());
        t6.ddpHeader.assign(v4Bytes.begin(), v4Bytes.begin() + kDdpUntaggedHdrLen);
        t6.rdmaHeader.assign(v4Bytes.begin() + kDdpUntaggedHdrLen, v4Bytes.end());
        Ptr<Packet> v6 = Create<Packet>();
        v6->AddHeader(t6);
        v6->AddHeader(Untagged(Opcode::Terminate, kQnTerminate, 1, 0));
        NS_TEST_EXPECT_MSG_EQ(v6->GetSize(), 70u, "V6 is the largest Terminate segment");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(v6)), Hex(kV6), "V6");
    }
};

class TestVectorV7 : public TestCase
{
  public:
    TestVectorV7()
        : TestCase("Vector V7 - SCTP adaptation constants encoded big-endian")
    {
    }

  private:
    void DoRun() override
    {
        // There is no SCTP code yet: the values come from iwarp-constants.h, except the
        // DDP-SSN start (0) and the Initiate function code (0x0001), which it does not hold.
        constexpr uint16_t kDdpSsnInitial = 0;
        constexpr uint16_t kFnInitiate = 0x0001;
        const Bytes param = Cat({Be(kAdaptIndParamType, 2), Be(8, 2) /* A24 */, Be(kAdaptIndDdp, 4)});
        NS_TEST_EXPECT_MSG_EQ(Hex(param), Hex(Hx("C0 06 00 08 00 00 00 01")), "Adaptation Indication");
        NS_TEST_EXPECT_MSG_EQ(Hex(Be(kPpidDdpSessionCtl, 4)), Hex(Hx("00 00 00 11")), "PPID 17");
        const Bytes initiate = Cat({Be(kDdpSsnInitial, 2), Be(kFnInitiate, 2), Ascii("abc")});
        NS_TEST_EXPECT_MSG_EQ(Hex(initiate), Hex(Hx("00 00 00 01 61 62 63")), "Initiate user data");
        NS_TEST_EXPECT_MSG_EQ(Hex(Be(kPpidDdpSegment, 4)), Hex(Hx("00 00 00 10")), "PPID 16");
        const Bytes segChunk = Cat({Be(kDdpSsnInitial + 1, 2), kV2});
        NS_TEST_EXPECT_MSG_EQ(Hex(segChunk), Hex(Cat({Hx("00 01"), kV2})), "segment chunk: DDP-SSN 1, segment");
        NS_TEST_EXPECT_MSG_EQ(kMinMaxDdpSegment, kMaxPrivateData + 4, "516 = 512 + DDP-SSN + Function Code");
    }
};

// ------------------------------------------------------------------ control octets

class ControlOctetTable : public TestCase
{
  public:
    ControlOctetTable()
        : TestCase("CHECKLIST 1.6 octet 0 and octet 1 for every opcode with L=0 and L=1")
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
        : TestCase("TermCtrl words and the Terminate octets 0-2 of the CHECKLIST 3 table")
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

class HeaderSuite : public TestSuite
{
  public:
    HeaderSuite()
        : TestSuite("iwarp-headers", UNIT)
    {
        AddTestCase(new TaggedHeaderRoundTrip, TestCase::QUICK);
        AddTestCase(new UntaggedHeaderRoundTrip, TestCase::QUICK);
        AddTestCase(new ReadRequestHeaderRoundTrip, TestCase::QUICK);
        AddTestCase(new TerminateHeaderRoundTrip, TestCase::QUICK);
        AddTestCase(new TestVectorsV1ToV6, TestCase::QUICK);
        AddTestCase(new TestVectorV7, TestCase::QUICK);
        AddTestCase(new ControlOctetTable, TestCase::QUICK);
        AddTestCase(new DdpControlReservedBits, TestCase::QUICK);
        AddTestCase(new TermCtrlValues, TestCase::QUICK);
        AddTestCase(new TerminateParseUntrusted, TestCase::QUICK);
    }
};

HeaderSuite g_headerSuite;

} // namespace
