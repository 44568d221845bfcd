/*
 * Wire-format tests for the DDP and RDMAP headers (doc/conformance.md §1): round trips through ns-3
 * Packets and Buffers, and the test vectors V1-V7 of §1.12 built from the header classes.
 * The §1.6 octet table, the Terminate Control word and Parse() on untrusted input are in
 * header-control-test-suite.cc.
 */
#include "support/conformance-data.h"
#include "support/test-bytes.h"

#include "common/iwarp-constants.h"
#include "ddp/ddp-header.h"
#include "rdmap/rdmap-header.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::iwarp;
using namespace ns3::iwarptest;

namespace
{

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

// ------------------------------------------------------------------ header builders

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
        : TestCase("Vectors V1-V6 of conformance §1.12 built from the header classes, octet for octet")
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
    }
};

HeaderSuite g_headerSuite;

} // namespace
