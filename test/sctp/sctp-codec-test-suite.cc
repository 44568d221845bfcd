/*
 * SCTP wire formats (model/sctp/sctp-chunk.h, sctp-init-chunk.h, sctp-error-chunk.h, sctp-packet.h):
 * byte-exact encodings worked out by hand from RFC 9260 §3, round trips, the checksum's value and octet order
 * (a packet whose checksum tshark 4.0 accepted with -o 'sctp.checksum:CRC 32c'), and untrusted input:
 * short or overlong lengths, a bad checksum and random mutations must be reported, never crash.
 */
#include "support/test-bytes.h"

#include "common/crc32c.h"
#include "sctp/sctp-chunk.h"
#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-packet.h"

#include "ns3/test.h"

#include <random>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** COOKIE ACK, 5000 -> 5001, tag 0xDEADBEEF; text2pcap -i 132 + tshark 4.0 printed
 *  "Checksum (CRC32C): 0xf6c3fa58 [correct]" for exactly these octets. */
#define SCTP_KNOWN_VECTOR "1388 1389 DEADBEEF F6C3FA58 0B 00 0004"

Bytes
ChunkBytes(const SctpChunk& c)
{
    return SctpChunkBytes(c);
}

template <typename C>
std::shared_ptr<C>
Reparse(const SctpChunk& c)
{
    Bytes b = ChunkBytes(c);
    auto out = SctpMakeChunk(b[0], b[1]);
    uint16_t len = uint16_t((b[2] << 8) | b[3]);
    if (!out->DecodeFrom(b.data(), len))
    {
        return nullptr;
    }
    return std::dynamic_pointer_cast<C>(out);
}

class SctpChunkBytesTestCase : public TestCase
{
  public:
    SctpChunkBytesTestCase()
        : TestCase("chunks encode to hand-computed octets and decode back")
    {
    }

  private:
    void DoRun() override
    {
        // DATA: U+B+E, TSN 1, SID 2, SSN 3, PPID 42, "abc"; length 19, one octet of padding.
        SctpDataChunk d;
        d.SetTsn(1);
        d.SetStreamId(2);
        d.SetSsn(3);
        d.SetPpid(42);
        d.SetUnordered(true);
        d.SetUserData(Ascii("abc"));
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(d)),
                              Hex(Hx("00 07 0013 00000001 0002 0003 0000002A 616263 00")),
                              "DATA");
        auto d2 = Reparse<SctpDataChunk>(d);
        NS_TEST_ASSERT_MSG_NE(d2, nullptr, "DATA decodes");
        NS_TEST_EXPECT_MSG_EQ(d2->GetTsn(), 1u, "TSN");
        NS_TEST_EXPECT_MSG_EQ(bool(d2->IsUnordered() && d2->IsBeginning() && d2->IsEnding()), true, "U B E");
        NS_TEST_EXPECT_MSG_EQ(Hex(d2->GetUserData()), Hex(Ascii("abc")), "user data");

        // SACK: cum 16, a_rwnd 4096, one gap block 2..3, one duplicate TSN 14.
        SctpSackChunk s;
        s.SetCumTsnAck(16);
        s.SetArwnd(4096);
        s.AddGapBlock(2, 3);
        s.AddDupTsn(14);
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(s)),
                              Hex(Hx("03 00 0018 00000010 00001000 0001 0001 0002 0003 0000000E")),
                              "SACK");
        auto s2 = Reparse<SctpSackChunk>(s);
        NS_TEST_ASSERT_MSG_NE(s2, nullptr, "SACK decodes");
        NS_TEST_EXPECT_MSG_EQ(s2->GetGapBlocks().size(), 1u, "one gap");
        NS_TEST_EXPECT_MSG_EQ(s2->GetGapBlocks()[0].end, 3, "gap end");
        NS_TEST_EXPECT_MSG_EQ(s2->GetDupTsns().at(0), 14u, "dup");

        // INIT with IPv4 10.1.1.1, Supported Address Types {IPv4} (padded: not last), Adaptation 0xC006 = 1.
        SctpInitChunk init;
        init.SetInitiateTag(0x01020304);
        init.SetArwnd(0x10000);
        init.SetOutboundStreams(10);
        init.SetInboundStreams(0xFFFF);
        init.SetInitialTsn(0x11223344);
        init.AddIpv4Address(Ipv4Address("10.1.1.1"));
        init.SetSupportedAddressTypes({5});
        init.SetAdaptationIndication(kSctpAdaptationDdp);
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(init)),
                              Hex(Hx("01 00 002C 01020304 00010000 000A FFFF 11223344"
                                     "0005 0008 0A010101  000C 0006 0005 0000  C006 0008 00000001")),
                              "INIT");
        auto i2 = Reparse<SctpInitChunk>(init);
        NS_TEST_ASSERT_MSG_NE(i2, nullptr, "INIT decodes");
        NS_TEST_EXPECT_MSG_EQ(i2->GetIpv4Addresses().at(0), Ipv4Address("10.1.1.1"), "address");
        NS_TEST_EXPECT_MSG_EQ(i2->GetSupportedAddressTypes().at(0), 5, "address type");
        NS_TEST_EXPECT_MSG_EQ(i2->GetAdaptationIndication().value_or(0), 1u, "adaptation");
        NS_TEST_EXPECT_MSG_EQ(i2->GetInboundStreams(), 0xFFFF, "MIS");

        // The last parameter's padding is not counted in the chunk length (RFC 9260 §3.2).
        SctpInitChunk ack(true);
        ack.SetInitiateTag(7);
        ack.SetStateCookie(Ascii("cookie"));
        ack.SetCookiePreservative(1000);
        ack.SetSupportedAddressTypes({5});
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(ack)),
                              Hex(Hx("02 00 002E 00000007 00000000 0000 0000 00000000"
                                     "0007 000A 636F6F6B6965 0000  0009 0008 000003E8  000C 0006 0005 0000")),
                              "INIT ACK");
        auto a2 = Reparse<SctpInitChunk>(ack);
        NS_TEST_ASSERT_MSG_NE(a2, nullptr, "INIT ACK decodes");
        NS_TEST_EXPECT_MSG_EQ(Hex(a2->GetStateCookie().value_or(Bytes{})), Hex(Ascii("cookie")), "cookie");
        NS_TEST_EXPECT_MSG_EQ(a2->GetCookiePreservative().value_or(0), 1000u, "preservative");

        // ABORT with T and a User-Initiated Abort cause "x".
        SctpErrorChunk abort(SctpChunkType::Abort);
        abort.SetTBit(true);
        abort.AddCause(SctpCauseCode::UserInitiatedAbort, Ascii("x"));
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(abort)), Hex(Hx("06 01 0009 000C 0005 78 000000")), "ABORT");
        auto ab2 = Reparse<SctpErrorChunk>(abort);
        NS_TEST_ASSERT_MSG_NE(ab2, nullptr, "ABORT decodes");
        NS_TEST_EXPECT_MSG_EQ(bool(ab2->GetTBit() && ab2->IsAbort()), true, "T bit");
        NS_TEST_EXPECT_MSG_EQ(ab2->HasCause(SctpCauseCode::UserInitiatedAbort), true, "cause");

        // ERROR with Stale Cookie (staleness 1000 us).
        SctpErrorChunk err(SctpChunkType::Error);
        err.AddStaleCookie(1000);
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(err)), Hex(Hx("09 00 000C 0003 0008 000003E8")), "ERROR");

        // HEARTBEAT / ACK with a 5-octet info: info TLV length 9, chunk length 13, 3 octets padding.
        SctpHeartbeatChunk hb;
        hb.SetInfo(Ascii("hello"));
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(hb)), Hex(Hx("04 00 000D 0001 0009 68656C6C6F 000000")), "HB");
        auto hb2 = Reparse<SctpHeartbeatChunk>(SctpHeartbeatChunk(true));
        NS_TEST_EXPECT_MSG_EQ(bool(hb2 != nullptr && hb2->IsAck()), true, "HEARTBEAT ACK");

        SctpShutdownChunk sd;
        sd.SetCumTsnAck(0x01020304);
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(sd)), Hex(Hx("07 00 0008 01020304")), "SHUTDOWN");
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(SctpEmptyChunk(SctpChunkType::ShutdownAck))),
                              Hex(Hx("08 00 0004")),
                              "SHUTDOWN ACK");
        SctpEmptyChunk sc(SctpChunkType::ShutdownComplete);
        sc.SetFlags(SctpEmptyChunk::kFlagT);
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(sc)), Hex(Hx("0E 01 0004")), "SHUTDOWN COMPLETE T");
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(SctpEmptyChunk(SctpChunkType::CookieAck))),
                              Hex(Hx("0B 00 0004")),
                              "COOKIE ACK");
        SctpCookieEchoChunk ce;
        ce.SetCookie(Ascii("abcde"));
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(ce)), Hex(Hx("0A 00 0009 6162636465 000000")), "COOKIE ECHO");
    }
};

class SctpUnknownTestCase : public TestCase
{
  public:
    SctpUnknownTestCase()
        : TestCase("unknown chunk types and parameters are judged by their two high bits")
    {
    }

  private:
    void DoRun() override
    {
        auto a = SctpUnknownChunkAction(0x3F);
        NS_TEST_EXPECT_MSG_EQ(bool(a.skip || a.report), false, "00: stop, silently");
        a = SctpUnknownChunkAction(0x40);
        NS_TEST_EXPECT_MSG_EQ(bool(!a.skip && a.report), true, "01: stop, report");
        a = SctpUnknownChunkAction(0x80);
        NS_TEST_EXPECT_MSG_EQ(bool(a.skip && !a.report), true, "10: skip");
        a = SctpUnknownChunkAction(0xC1);
        NS_TEST_EXPECT_MSG_EQ(bool(a.skip && a.report), true, "11: skip, report");

        // An unknown chunk survives a round trip through the codec untouched.
        SctpUnknownChunk u(0xC1, 0x5A);
        u.SetValue(Hx("010203"));
        Bytes b = ChunkBytes(u);
        NS_TEST_EXPECT_MSG_EQ(Hex(b), Hex(Hx("C1 5A 0007 010203 00")), "unknown chunk octets");

        SctpInitChunk init;
        init.AddParameter(SctpTlv{0x8123, Hx("AA")}); // skip, no report
        init.AddParameter(SctpTlv{0xC123, Hx("BB")}); // skip, report
        std::vector<SctpTlv> report;
        NS_TEST_EXPECT_MSG_EQ(init.CheckUnknownParameters(&report), true, "10/11 params: go on");
        NS_TEST_EXPECT_MSG_EQ(report.size(), 1u, "one to report");
        init.AddParameter(SctpTlv{0x4123, {}}); // stop, report
        report.clear();
        NS_TEST_EXPECT_MSG_EQ(init.CheckUnknownParameters(&report), false, "01 param: stop");
        NS_TEST_EXPECT_MSG_EQ(report.size(), 2u, "two to report");
        SctpInitChunk ack(true);
        ack.AddUnrecognizedParameter(SctpTlv{0xC123, Hx("BB")});
        NS_TEST_EXPECT_MSG_EQ(Hex(ChunkBytes(ack)).substr(60),
                              Hex(Hx("0008 000C C123 0005 BB000000")),
                              "Unrecognized Parameter wraps the TLV");
    }
};

class SctpPacketTestCase : public TestCase
{
  public:
    SctpPacketTestCase()
        : TestCase("packet codec: checksum value and octet order, bundling, round trip")
    {
    }

  private:
    void DoRun() override
    {
        SctpPacket p;
        p.header.SetSourcePort(5000);
        p.header.SetDestinationPort(5001);
        p.header.SetVerificationTag(0xDEADBEEF);
        p.Add(std::make_shared<SctpEmptyChunk>(SctpChunkType::CookieAck));
        Bytes b = p.ToBytes();
        NS_TEST_EXPECT_MSG_EQ(Hex(Sub(b, 0, 8)), Hex(Hx("1388 1389 DEADBEEF")), "ports and tag");
        NS_TEST_EXPECT_MSG_EQ(Hex(Sub(b, 12, 4)), Hex(Hx("0B 00 0004")), "COOKIE ACK");
        // CRC32c of the packet with zeros at 8..11, stored least significant octet first.
        Bytes zeroed = b;
        zeroed[8] = zeroed[9] = zeroed[10] = zeroed[11] = 0;
        uint32_t crc = Crc32c(zeroed.data(), zeroed.size());
        NS_TEST_EXPECT_MSG_EQ(Hex(Sub(b, 8, 4)), Hex(Bytes{uint8_t(crc), uint8_t(crc >> 8), uint8_t(crc >> 16),
                                                          uint8_t(crc >> 24)}),
                              "checksum octet order");
        // Known vector: tshark 4.0 (sctp.checksum:CRC 32c) reports this checksum as correct.
        NS_TEST_EXPECT_MSG_EQ(Hex(b), Hex(Hx(SCTP_KNOWN_VECTOR)), "known packet");

        // Bundling: SACK then DATA; parse returns both in order.
        SctpPacket q;
        q.header = p.header;
        auto s = std::make_shared<SctpSackChunk>();
        s->SetCumTsnAck(9);
        q.Add(s);
        auto d = std::make_shared<SctpDataChunk>();
        d->SetTsn(10);
        d->SetUserData(Bytes(1001, 0x5A));
        q.Add(d);
        Bytes qb = q.ToBytes();
        NS_TEST_EXPECT_MSG_EQ(qb.size(), 12u + 16 + 16 + 1004, "sizes with padding");
        SctpPacket r;
        NS_TEST_ASSERT_MSG_EQ(int(SctpPacket::Parse(qb.data(), qb.size(), &r)), int(SctpParseError::None), "ok");
        NS_TEST_ASSERT_MSG_EQ(r.chunks.size(), 2u, "two chunks");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.chunks[0]->GetType()), 3u, "SACK first");
        auto rd = std::dynamic_pointer_cast<SctpDataChunk>(r.chunks[1]);
        NS_TEST_ASSERT_MSG_NE(rd, nullptr, "then DATA");
        NS_TEST_EXPECT_MSG_EQ(rd->GetUserData().size(), 1001u, "payload");
        NS_TEST_EXPECT_MSG_EQ(r.header.GetVerificationTag(), 0xDEADBEEFu, "tag");
        NS_TEST_EXPECT_MSG_EQ(Hex(r.ToBytes()), Hex(qb), "re-encoding is identical");
    }
};

class SctpMalformedTestCase : public TestCase
{
  public:
    SctpMalformedTestCase()
        : TestCase("malformed packets are reported, never crash")
    {
    }

  private:
    static Bytes Stamped(Bytes b)
    {
        SctpPacket::StampChecksum(b.data(), b.size());
        return b;
    }

    SctpParseError ParseOf(const Bytes& b)
    {
        SctpPacket out;
        return SctpPacket::Parse(b.data(), b.size(), &out);
    }

    void DoRun() override
    {
        Bytes hdr = Hx("1388 1389 00000001 00000000");
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Sub(hdr, 0, 11))), int(SctpParseError::TooShort), "short header");
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(hdr))), int(SctpParseError::TooShort), "no chunk");
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(Cat({hdr, Hx("0B 00 0003")})))),
                              int(SctpParseError::ChunkTooShort),
                              "length 3");
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(Cat({hdr, Hx("0B 00 0008")})))),
                              int(SctpParseError::ChunkBeyondPacket),
                              "length beyond packet");
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(Cat({hdr, Hx("0B 00 0004 08")})))),
                              int(SctpParseError::ChunkTooShort),
                              "trailing octet");
        // SACK claiming 2 gap blocks but carrying none.
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(Cat({hdr, Hx("03 00 0010 00000001 00001000 0002 0000")})))),
                              int(SctpParseError::MalformedChunk),
                              "SACK blocks missing");
        // DATA shorter than its fixed part; INIT whose parameter overruns the chunk.
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(Stamped(Cat({hdr, Hx("00 03 0008 00000001")})))),
                              int(SctpParseError::MalformedChunk),
                              "short DATA");
        NS_TEST_EXPECT_MSG_EQ(
            int(ParseOf(Stamped(Cat({hdr, Hx("01 00 0018 00000001 00001000 0001 0001 00000001 0005 0010")})))),
            int(SctpParseError::MalformedChunk),
            "INIT parameter beyond chunk");
        Bytes good = Stamped(Cat({hdr, Hx("0B 00 0004")}));
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(good)), int(SctpParseError::None), "good one");
        good[13] ^= 0x01;
        NS_TEST_EXPECT_MSG_EQ(int(ParseOf(good)), int(SctpParseError::BadChecksum), "one bit flipped");

        // Random mutations of a bundled packet with fixed-up checksums: any outcome but a crash.
        SctpPacket p;
        auto init = std::make_shared<SctpInitChunk>(true);
        init->SetStateCookie(Bytes(40, 1));
        init->SetAdaptationIndication(1);
        p.Add(init);
        auto sack = std::make_shared<SctpSackChunk>();
        sack->AddGapBlock(1, 2);
        p.Add(sack);
        Bytes base = p.ToBytes();
        std::mt19937 rng(7);
        int ok = 0;
        for (int n = 0; n < 5000; ++n)
        {
            Bytes m = base;
            int flips = 1 + int(rng() % 4);
            for (int k = 0; k < flips; ++k)
            {
                m[12 + rng() % (m.size() - 12)] = uint8_t(rng());
            }
            m.resize(12 + rng() % (m.size() - 11));
            if (m.size() >= 12)
            {
                SctpPacket::StampChecksum(m.data(), m.size());
            }
            SctpPacket out;
            ok += SctpPacket::Parse(m.data(), m.size(), &out) == SctpParseError::None;
        }
        NS_TEST_EXPECT_MSG_GT(ok, 0, "some mutations still parse");
    }
};

class SctpCodecTestSuite : public TestSuite
{
  public:
    SctpCodecTestSuite()
        : TestSuite("iwarp-sctp-codec", UNIT)
    {
        AddTestCase(new SctpChunkBytesTestCase(), TestCase::QUICK);
        AddTestCase(new SctpUnknownTestCase(), TestCase::QUICK);
        AddTestCase(new SctpPacketTestCase(), TestCase::QUICK);
        AddTestCase(new SctpMalformedTestCase(), TestCase::QUICK);
    }
};

SctpCodecTestSuite g_sctpCodecTestSuite;

} // namespace
