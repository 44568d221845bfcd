/*
 * MPA Request/Reply frames (doc/conformance.md, MPA): MpaSetupFrame serialization against hand-built octets and the
 * untrusted-input parser (truncation at every length, malformed frames). Split from the MPA framing suite.
 */
#include "mpa/mpa-test-util.h"

#include "mpa/mpa-constants.h"
#include "mpa/mpa-setup-header.h"

#include "ns3/packet.h"
#include "ns3/test.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::iwarp;

namespace
{

using namespace ns3::mpatest;
using Status = MpaSetupFrame::ParseStatus;

const Bytes kReqKey = {0x4D, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52,
                       0x65, 0x71, 0x20, 0x46, 0x72, 0x61, 0x6D, 0x65};
const Bytes kRepKey = {0x4D, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52,
                       0x65, 0x70, 0x20, 0x46, 0x72, 0x61, 0x6D, 0x65};

Bytes
Serialized(const MpaSetupFrame& f)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(f);
    return PacketBytes(p);
}

Status
Parse(MpaFrameKind kind, const Bytes& b, size_t len, MpaSetupFrame* out, size_t* consumed, MpaError* err)
{
    return MpaSetupFrame::TryParse(kind, b.data(), len, out, consumed, err);
}

// ----------------------------------------------------------------------------- Request/Reply frames

class SetupRequestRev1MatchesHandBuiltOctets : public TestCase
{
  public:
    SetupRequestRev1MatchesHandBuiltOctets()
        : TestCase("Rev 1 Request with M, C and 5 octets of private data is key C0 01 0005 PD and parses back")
    {
    }

  private:
    void DoRun() override
    {
        MpaSetupFrame f(MpaFrameKind::Request);
        f.SetMarkers(true);
        f.SetCrc(true);
        f.SetRev(1);
        f.SetPrivateData({'h', 'e', 'l', 'l', 'o'});
        Bytes want = Cat(kReqKey, {0xC0, 0x01, 0x00, 0x05, 'h', 'e', 'l', 'l', 'o'});
        NS_TEST_ASSERT_MSG_EQ(f.GetSerializedSize(), 25u, "20 + PD_Length");
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialized(f)), Hex(want), "wire octets");

        MpaSetupFrame r(MpaFrameKind::Request);
        size_t used = 99;
        MpaError err;
        NS_TEST_ASSERT_MSG_EQ(int(MpaSetupFrame::TryParse(want.data(), want.size(), &r, &used, &err)),
                              int(Status::Ok), "TryParse");
        NS_TEST_EXPECT_MSG_EQ(used, 25u, "consumed");
        NS_TEST_EXPECT_MSG_EQ((r.GetMarkers() && r.GetCrc() && !r.GetReject() && !r.IsEnhanced()), true, "flags");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetRev()), 1u, "Rev");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.GetPrivateData()), Hex({'h', 'e', 'l', 'l', 'o'}), "private data");

        // Through an ns-3 Packet, with a trailing octet that must stay in the packet.
        Bytes plus = Cat(want, {0x77});
        Ptr<Packet> p = Create<Packet>(plus.data(), plus.size());
        MpaSetupFrame d;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(d), 25u, "Deserialize");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 1u, "the next octet is left");
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialized(d)), Hex(want), "re-serialized");
        std::ostringstream os;
        d.Print(os);
        NS_TEST_EXPECT_MSG_EQ((os.str().find("PD_Length=5") != std::string::npos), true, os.str());
    }
};

class SetupReplyRev2CarriesIrdOrdWords : public TestCase
{
  public:
    SetupReplyRev2CarriesIrdOrdWords()
        : TestCase("Rev 2 enhanced Reply puts IRD 0xC010 and ORD 0x4008 ahead of the private data")
    {
    }

  private:
    void DoRun() override
    {
        MpaSetupFrame f(MpaFrameKind::Reply);
        f.SetCrc(true);
        f.SetRev(2);
        f.SetEnhanced(true);
        f.SetIrd(16);
        f.SetPeerToPeer(true);
        f.SetRtrSend(true);
        f.SetOrd(8);
        f.SetRtrRead(true);
        f.SetPrivateData({0xAB});
        // flags = C 0x40 | Enhanced 0x10; IRD = 0x8000 P2P | 0x4000 Send RTR | 16; ORD = 0x4000 Read RTR | 8.
        Bytes want = Cat(kRepKey, {0x50, 0x02, 0x00, 0x05, 0xC0, 0x10, 0x40, 0x08, 0xAB});
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialized(f)), Hex(want), "wire octets");

        MpaSetupFrame r(MpaFrameKind::Reply);
        size_t used;
        MpaError err;
        NS_TEST_ASSERT_MSG_EQ(int(MpaSetupFrame::TryParse(want.data(), want.size(), &r, &used, &err)),
                              int(Status::Ok), "TryParse");
        NS_TEST_EXPECT_MSG_EQ(r.IsEnhanced(), true, "Enhanced");
        NS_TEST_EXPECT_MSG_EQ(r.GetIrd(), 16u, "IRD");
        NS_TEST_EXPECT_MSG_EQ(r.GetOrd(), 8u, "ORD");
        NS_TEST_EXPECT_MSG_EQ((r.IsPeerToPeer() && r.GetRtrSend() && !r.GetRtrWrite() && r.GetRtrRead()), true,
                              "control flags");
        NS_TEST_EXPECT_MSG_EQ(r.GetPdLength(), 5u, "PD_Length counts the words");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.GetPrivateData()), Hex({0xAB}), "ULP private data without the words");

        // Write RTR only; and a Rev 2 frame without the Enhanced bit carries no words.
        f.SetRtrRead(false);
        f.SetRtrWrite(true);
        NS_TEST_EXPECT_MSG_EQ(f.GetOrdWord(), 0x8008u, "ORD word with Write RTR");
        f.SetEnhanced(false);
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialized(f)), Hex(Cat(kRepKey, {0x40, 0x02, 0x00, 0x01, 0xAB})),
                              "Rev 2 without Enhanced");
    }
};

class SetupPrivateDataOfZeroAnd512Octets : public TestCase
{
  public:
    SetupPrivateDataOfZeroAnd512Octets()
        : TestCase("private data of 0 and 512 octets round-trip; enhanced frames fit 508 ULP octets")
    {
    }

  private:
    void DoRun() override
    {
        MpaSetupFrame empty(MpaFrameKind::Request);
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialized(empty)), Hex(Cat(kReqKey, {0x00, 0x01, 0x00, 0x00})), "PD 0");

        Bytes pd(512);
        for (size_t i = 0; i < pd.size(); ++i)
        {
            pd[i] = uint8_t(i * 7 + 1);
        }
        MpaSetupFrame big(MpaFrameKind::Reply);
        big.SetPrivateData(pd);
        Bytes want = Cat(Cat(kRepKey, {0x00, 0x01, 0x02, 0x00}), pd);
        Bytes wire = Serialized(big);
        NS_TEST_EXPECT_MSG_EQ(Hex(wire), Hex(want), "PD 512");
        MpaSetupFrame r(MpaFrameKind::Reply);
        size_t used;
        MpaError err;
        NS_TEST_EXPECT_MSG_EQ(int(Parse(MpaFrameKind::Reply, wire, wire.size(), &r, &used, &err)),
                              int(Status::Ok), "512 octets accepted");
        NS_TEST_EXPECT_MSG_EQ(used, 532u, "consumed");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.GetPrivateData()), Hex(pd), "private data");

        MpaSetupFrame enh(MpaFrameKind::Request);
        enh.SetRev(2);
        enh.SetEnhanced(true);
        enh.SetPrivateData(Bytes(508, 0x5A));
        NS_TEST_EXPECT_MSG_EQ(enh.GetPdLength(), 512u, "4 + 508");
        wire = Serialized(enh);
        NS_TEST_EXPECT_MSG_EQ(int(Parse(MpaFrameKind::Request, wire, wire.size(), &r, &used, &err)),
                              int(Status::Ok), "enhanced, 512 in all");
    }
};

class SetupTryParseNeedsMoreAtEveryTruncation : public TestCase
{
  public:
    SetupTryParseNeedsMoreAtEveryTruncation()
        : TestCase("TryParse says NeedMore for every prefix of a valid frame and Ok with octets to spare")
    {
    }

  private:
    void DoRun() override
    {
        MpaSetupFrame a(MpaFrameKind::Request);
        a.SetCrc(true);
        MpaSetupFrame b(MpaFrameKind::Reply);
        b.SetRev(2);
        b.SetEnhanced(true);
        b.SetIrd(3);
        b.SetPrivateData(Bytes(40, 0x11));
        MpaSetupFrame c(MpaFrameKind::Reply);
        c.SetPrivateData(Bytes(512, 0xEE));
        for (const MpaSetupFrame* f : {&a, &b, &c})
        {
            Bytes wire = Serialized(*f);
            for (size_t len = 0; len < wire.size(); ++len)
            {
                MpaSetupFrame out(f->GetKind());
                size_t used = 7;
                MpaError err;
                Status s = Parse(f->GetKind(), wire, len, &out, &used, &err);
                NS_TEST_ASSERT_MSG_EQ(int(s), int(Status::NeedMore), "prefix of " << len << " octets");
                NS_TEST_ASSERT_MSG_EQ(used, 0u, "nothing consumed");
            }
            Bytes more = Cat(wire, {1, 2, 3});
            MpaSetupFrame out(f->GetKind());
            size_t used;
            MpaError err;
            NS_TEST_EXPECT_MSG_EQ(int(Parse(f->GetKind(), more, more.size(), &out, &used, &err)),
                                  int(Status::Ok), "whole frame");
            NS_TEST_EXPECT_MSG_EQ(used, wire.size(), "consumes only the frame");
        }
    }
};

class SetupTryParseRejectsMalformedFrames : public TestCase
{
  public:
    SetupTryParseRejectsMalformedFrames()
        : TestCase("wrong key, Rev 0 or 3, PD_Length 513, reserved bits, R in a Request are InvalidRequestReply")
    {
    }

  private:
    void Expect(MpaFrameKind kind, const Bytes& b, size_t len, const std::string& what)
    {
        MpaSetupFrame out(kind);
        size_t used = 5;
        MpaError err = MpaError::TcpClosed;
        NS_TEST_EXPECT_MSG_EQ(int(Parse(kind, b, len, &out, &used, &err)), int(Status::Error), what);
        NS_TEST_EXPECT_MSG_EQ(unsigned(err), unsigned(MpaError::InvalidRequestReply), what << ": code 0x04");
        NS_TEST_EXPECT_MSG_EQ(used, 0u, what << ": nothing consumed");
    }

    void DoRun() override
    {
        const Bytes req = Cat(kReqKey, {0x40, 0x01, 0x00, 0x00});
        const Bytes rep = Cat(kRepKey, {0x40, 0x01, 0x00, 0x00});
        Expect(MpaFrameKind::Request, rep, rep.size(), "Reply key where a Request is expected");
        Expect(MpaFrameKind::Reply, req, req.size(), "Request key where a Reply is expected");
        Expect(MpaFrameKind::Reply, req, 10, "keys differ at octet 9: caught before the frame is whole");
        Expect(MpaFrameKind::Request, Bytes{'X'}, 1, "garbage caught after one octet");

        auto with = [](Bytes b, size_t at, uint8_t v) {
            b[at] = v;
            return b;
        };
        Expect(MpaFrameKind::Request, with(req, 17, 3), 18, "Rev 3");
        Expect(MpaFrameKind::Request, with(req, 17, 0), 18, "Rev 0");
        Bytes pd513 = with(with(req, 18, 0x02), 19, 0x01);
        pd513.resize(20 + 513);
        Expect(MpaFrameKind::Request, pd513, pd513.size(), "PD_Length 513");
        Expect(MpaFrameKind::Request, pd513, 20, "PD_Length 513 caught from the header alone");
        for (uint8_t bit : {0x01, 0x02, 0x04, 0x08})
        {
            Expect(MpaFrameKind::Reply, with(rep, 16, uint8_t(0x40 | bit)), 20, "reserved flag bit");
        }
        Expect(MpaFrameKind::Request, with(req, 16, 0x60), 20, "R in a Request");
        Expect(MpaFrameKind::Reply, with(rep, 16, 0x50), 20, "Enhanced in a Rev 1 frame");
        Bytes shortEnh = Cat(kRepKey, {0x10, 0x02, 0x00, 0x02, 0x00, 0x00});
        Expect(MpaFrameKind::Reply, shortEnh, shortEnh.size(), "Enhanced with PD_Length 2");

        // Not errors: R in a Reply (a reject).
        MpaSetupFrame out(MpaFrameKind::Reply);
        size_t used;
        MpaError err;
        NS_TEST_EXPECT_MSG_EQ(int(Parse(MpaFrameKind::Reply, with(rep, 16, 0x20), 20, &out, &used, &err)),
                              int(Status::Ok), "Reply with R");
        NS_TEST_EXPECT_MSG_EQ(out.GetReject(), true, "R read");
        // Deserialize removes nothing from a malformed packet.
        Bytes bad = with(req, 17, 3);
        Ptr<Packet> p = Create<Packet>(bad.data(), bad.size());
        MpaSetupFrame d;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(d), 0u, "Deserialize of Rev 3");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 20u, "packet untouched");
    }
};

class MpaSetupFrameSuite : public TestSuite
{
  public:
    MpaSetupFrameSuite()
        : TestSuite("iwarp-mpa-setup-frame", UNIT)
    {
        AddTestCase(new SetupRequestRev1MatchesHandBuiltOctets, TestCase::QUICK);
        AddTestCase(new SetupReplyRev2CarriesIrdOrdWords, TestCase::QUICK);
        AddTestCase(new SetupPrivateDataOfZeroAnd512Octets, TestCase::QUICK);
        AddTestCase(new SetupTryParseNeedsMoreAtEveryTruncation, TestCase::QUICK);
        AddTestCase(new SetupTryParseRejectsMalformedFrames, TestCase::QUICK);
    }
};

MpaSetupFrameSuite g_mpaSetupFrameSuite;

} // namespace
