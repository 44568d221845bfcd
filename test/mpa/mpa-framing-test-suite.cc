/*
 * MPA framing (doc/conformance.md, MPA): FPDU layout with and without markers against octets and CRCs computed here
 * independently (a bit-by-bit CRC32c, not the library's), sender -> receiver round trips under every kind of
 * stream split, corruption (CRC, markers, lengths), the aligned-segment parser, the MULPDU formula and the MPA
 * error codes. The Request/Reply frame tests are in mpa-setup-frame-test-suite.cc.
 */
#include "mpa/mpa-test-util.h"

#include "common/crc32c.h"
#include "mpa/mpa-constants.h"
#include "mpa/mpa-fpdu.h"

#include "ns3/packet.h"
#include "ns3/test.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::iwarp;

namespace
{

using namespace ns3::mpatest;
using Rx = MpaFpduReceiver::RxResult;

/** Reference CRC32c, one bit at a time, straight from its definition (reflected Castagnoli polynomial 0x82F63B78). */
uint32_t
BitwiseCrc32c(const uint8_t* d, size_t n)
{
    uint32_t r = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i)
    {
        r ^= d[i];
        for (int b = 0; b < 8; ++b)
        {
            r = (r & 1) ? (r >> 1) ^ 0x82F63B78u : r >> 1;
        }
    }
    return ~r;
}

Bytes
LittleEndian(uint32_t v)
{
    return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
}

/** Drains Next() into *out; returns the result that stopped it. */
Rx
Drain(MpaFpduReceiver& rx, std::vector<Bytes>* out, MpaError* err)
{
    Ptr<Packet> p;
    Rx r;
    while ((r = rx.Next(&p, err)) == Rx::Done)
    {
        out->push_back(PacketBytes(p));
    }
    return r;
}

// --------------------------------------------------------------------------------- constants, MULPDU

class MpaErrorCodesAreLlpLayerEType0 : public TestCase
{
  public:
    MpaErrorCodesAreLlpLayerEType0()
        : TestCase("MPA error codes 0x01-0x07 are reported as Layer 2 (LLP), EType 0")
    {
    }

  private:
    void DoRun() override
    {
        const MpaError all[] = {MpaError::TcpClosed,         MpaError::CrcError,
                                MpaError::MarkerMismatch,    MpaError::InvalidRequestReply,
                                MpaError::LocalCatastrophic, MpaError::InsufficientIrd,
                                MpaError::NoMatchingRtr};
        for (unsigned i = 0; i < 7; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned(all[i]), i + 1, ToString(all[i]));
            ErrorCause c = MpaErrorCause(all[i]);
            NS_TEST_EXPECT_MSG_EQ((c == ErrorCause::Llp(0, uint8_t(i + 1))), true, c.ToString());
        }
        NS_TEST_EXPECT_MSG_EQ(MpaErrorCause(MpaError::CrcError).ToString(), "2/0/0x02", "notation");
    }
};

class MulpduFormulaWorkedValues : public TestCase
{
  public:
    MulpduFormulaWorkedValues()
        : TestCase("MULPDU = EMSS - (6 + 4 ceil(EMSS div 512) + EMSS mod 4), the ceil term only with markers")
    {
    }

  private:
    void DoRun() override
    {
        // EMSS 1460: ceil(1460/512) = 3, 1460 mod 4 = 0 -> 1460 - 18 = 1442 with markers, 1460 - 6 = 1454 without.
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1460, true), 1442u, "1460, markers");
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1460, false), 1454u, "1460, no markers");
        // EMSS 1448 (timestamps on): ceil = 3, mod 4 = 0 -> 1448 - 18 = 1430; 1448 - 6 = 1442.
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1448, true), 1430u, "1448, markers");
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1448, false), 1442u, "1448, no markers");
        // EMSS 1461: ceil = 3, mod 4 = 1 -> 1461 - 19 = 1442; 1461 - 7 = 1454.
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1461, true), 1442u, "1461, markers");
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(1461, false), 1454u, "1461, no markers");
        // EMSS 8960 (9000 MTU): ceil(17.5) = 18 -> 8960 - 78 = 8882; 8960 - 6 = 8954.
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(8960, true), 8882u, "8960, markers");
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(8960, false), 8954u, "8960, no markers");
        // EMSS 512: ceil = 1 -> 512 - 10 = 502. A tiny EMSS leaves no room.
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(512, true), 502u, "512, markers");
        NS_TEST_EXPECT_MSG_EQ(MpaMulpdu(6, false), 0u, "6: no room");
        // A MULPDU-sized FPDU fits EMSS whatever the marker phase of the stream.
        for (uint32_t emss : {536u, 1448u, 1460u, 1461u, 1462u, 1463u, 8960u})
        {
            MpaFpduSender s(true, true);
            for (uint32_t k = 0; k < 40; ++k)
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(s.FramedSize(MpaMulpdu(emss, true)), emss, "EMSS " << emss);
                s.Frame(Create<Packet>(k * 13 % 97)); // moves the marker phase on
            }
            NS_TEST_EXPECT_MSG_LT_OR_EQ(MpaFpduSender(false, true).FramedSize(MpaMulpdu(emss, false)), emss,
                                        "EMSS " << emss << " without markers");
        }
    }
};

// ------------------------------------------------------------------------------------------ FPDUs

Bytes
Pattern(size_t n, uint8_t seed)
{
    Bytes b(n);
    for (size_t i = 0; i < n; ++i)
    {
        b[i] = uint8_t(i * 31 + seed);
    }
    return b;
}

/**
 * Five FPDUs with markers whose layout is worked out by hand (stream offsets, FPDU = [start, end)):
 *  F1 ULPDU 5    [0, 16):      marker@0 (FPDUPTR 0), ULPDU_Length@4, pad 1, CRC@12 over [0, 12)
 *  F2 ULPDU 1000 [16, 1032):   ULPDU_Length@16, marker@512 inside the ULPDU (512-16 = 496 = 0x1F0),
 *                              pad 2 ends at 1024, marker@1024 between PAD and CRC (1008 = 0x3F0), CRC@1028
 *  F3 ULPDU 498  [1032, 1536): 2+498 = 500, no pad, CRC@1532, ends on a marker position: no marker written
 *  F4 ULPDU 0    [1536, 1548): marker@1536 leads it (FPDUPTR 0), ULPDU_Length@1540, pad 2, CRC@1544
 *  F5 ULPDU 498  [1548, 2056): body ends at 2048, marker@2048 before the CRC (500 = 0x1F4), CRC@2052
 */
struct Layout
{
    Bytes stream;
    std::vector<Bytes> ulpdus{Pattern(5, 1), Pattern(1000, 2), Pattern(498, 3), Bytes(), Pattern(498, 4)};
    std::vector<size_t> start{0, 16, 1032, 1536, 1548, 2056};
    std::vector<uint32_t> framedSize;

    explicit Layout(bool crc)
    {
        MpaFpduSender s(true, crc);
        for (const Bytes& u : ulpdus)
        {
            framedSize.push_back(s.FramedSize(uint32_t(u.size())));
            stream = Cat(stream, PacketBytes(s.Frame(Create<Packet>(u.data(), u.size()))));
        }
    }

    Bytes Range(size_t from, size_t to) const { return Bytes(stream.begin() + from, stream.begin() + to); }
};

class FpduLayoutWithoutMarkers : public TestCase
{
  public:
    FpduLayoutWithoutMarkers()
        : TestCase("5-octet ULPDU without markers is 0005 ULPDU 00 then CRC32c sent least significant octet first")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(BitwiseCrc32c((const uint8_t*)"123456789", 9), 0xE3069283u, "reference CRC");
        Bytes u = {'A', 'B', 'C', 'D', 'E'};
        Bytes body = {0x00, 0x05, 'A', 'B', 'C', 'D', 'E', 0x00}; // 2 + 5 + pad 1 = 8
        Bytes want = Cat(body, LittleEndian(BitwiseCrc32c(body.data(), body.size())));
        MpaFpduSender s(false, true);
        NS_TEST_EXPECT_MSG_EQ(s.FramedSize(5), 12u, "FramedSize");
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(s.Frame(Create<Packet>(u.data(), u.size())))), Hex(want), "FPDU");
        NS_TEST_EXPECT_MSG_EQ(s.GetStreamOffset(), 12u, "stream position");

        // Pads of 0..3 octets and an empty ULPDU: 2 + len + pad is a multiple of 4.
        const uint32_t pads[] = {2, 1, 0, 3};
        for (uint32_t n = 0; n < 4; ++n)
        {
            NS_TEST_EXPECT_MSG_EQ(MpaPadLength(n), pads[n], "pad for " << n);
            NS_TEST_EXPECT_MSG_EQ(s.FramedSize(n), 6 + n + pads[n], "size for " << n);
        }
        // A virtual (zero-filled) payload frames as its zero octets, CRC included.
        Bytes zeros = Cat({0x00, 0x07}, Bytes(7 + 3, 0));
        zeros = Cat(zeros, LittleEndian(BitwiseCrc32c(zeros.data(), zeros.size())));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(s.Frame(Create<Packet>(7)))), Hex(zeros), "virtual packet");
        // Without CRC the field is zero.
        MpaFpduSender noCrc(false, false);
        Bytes z = Cat(body, {0, 0, 0, 0});
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(noCrc.Frame(Create<Packet>(u.data(), u.size())))), Hex(z),
                              "CRC field without CRC");
    }
};

class FpduLayoutWithMarkers : public TestCase
{
  public:
    FpduLayoutWithMarkers()
        : TestCase("markers sit at every 512th stream octet with FPDUPTR back to ULPDU_Length, CRC covering them")
    {
    }

  private:
    void DoRun() override
    {
        Layout l(true);
        const uint32_t sizes[] = {16, 1016, 504, 12, 508};
        for (size_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(l.framedSize[i], sizes[i], "FramedSize of F" << i + 1);
            NS_TEST_EXPECT_MSG_EQ(l.start[i + 1] - l.start[i], sizes[i], "octets of F" << i + 1);
        }
        NS_TEST_ASSERT_MSG_EQ(l.stream.size(), 2056u, "stream length");
        const size_t markerAt[] = {0, 512, 1024, 1536, 2048};
        const Bytes markers[] = {{0, 0, 0, 0}, {0, 0, 0x01, 0xF0}, {0, 0, 0x03, 0xF0}, {0, 0, 0, 0}, {0, 0, 0x01, 0xF4}};
        for (size_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(markerAt[i], markerAt[i] + 4)), Hex(markers[i]),
                                  "marker at " << markerAt[i]);
        }
        const size_t lenAt[] = {4, 16, 1032, 1540, 1548};
        const size_t crcAt[] = {12, 1028, 1532, 1544, 2052};
        for (size_t i = 0; i < 5; ++i)
        {
            uint16_t n = uint16_t(l.ulpdus[i].size());
            NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(lenAt[i], lenAt[i] + 2)), Hex({uint8_t(n >> 8), uint8_t(n)}),
                                  "ULPDU_Length of F" << i + 1);
            // The CRC covers everything of the FPDU before it, leading and inner markers included.
            uint32_t crc = BitwiseCrc32c(l.stream.data() + l.start[i], crcAt[i] - l.start[i]);
            NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(crcAt[i], crcAt[i] + 4)), Hex(LittleEndian(crc)), "CRC of F" << i + 1);
        }
        // F2's ULPDU is split by the marker at 512: 494 octets before it, 506 after, then 2 pad octets.
        const Bytes& u2 = l.ulpdus[1];
        NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(18, 512)), Hex(Bytes(u2.begin(), u2.begin() + 494)), "F2 part 1");
        NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(516, 1022)), Hex(Bytes(u2.begin() + 494, u2.end())), "F2 part 2");
        NS_TEST_EXPECT_MSG_EQ(Hex(l.Range(1022, 1024)), Hex({0, 0}), "F2 pad");

        MpaFpduReceiver rx(true, true);
        rx.Push(l.stream.data(), l.stream.size());
        std::vector<Bytes> got;
        MpaError err;
        NS_TEST_EXPECT_MSG_EQ(int(Drain(rx, &got, &err)), int(Rx::NeedMore), "all consumed");
        NS_TEST_ASSERT_MSG_EQ(got.size(), 5u, "five ULPDUs");
        for (size_t i = 0; i < got.size() && i < 5; ++i) // the runner may continue after a failed assert
        {
            NS_TEST_EXPECT_MSG_EQ(Hex(got[i]), Hex(l.ulpdus[i]), "ULPDU " << i + 1);
        }
    }
};

class FpduRoundTripsUnderAnySplit : public TestCase
{
  public:
    FpduRoundTripsUnderAnySplit()
        : TestCase("ULPDUs of 0..9000 octets survive sender to receiver with markers and CRC on or off and any stream split")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(5044);
        for (int mode = 0; mode < 4; ++mode)
        {
            const bool markers = mode & 1;
            const bool crc = mode & 2;
            std::vector<Bytes> ulpdus;
            for (uint32_t n : {0u, 1u, 2u, 3u, 4u, 507u, 508u, 509u, 9000u})
            {
                ulpdus.push_back(Bytes(n));
            }
            for (int k = 0; k < 30; ++k)
            {
                ulpdus.push_back(Bytes(std::uniform_int_distribution<uint32_t>(0, 9000)(rng)));
            }
            MpaFpduSender tx(markers, crc);
            Bytes stream;
            for (Bytes& u : ulpdus)
            {
                for (uint8_t& o : u)
                {
                    o = uint8_t(rng());
                }
                uint32_t expect = tx.FramedSize(uint32_t(u.size()));
                Bytes f = PacketBytes(tx.Frame(Create<Packet>(u.data(), u.size())));
                NS_TEST_ASSERT_MSG_EQ(f.size(), expect, "FramedSize = Frame()->GetSize()");
                stream = Cat(stream, f);
            }
            for (int split = 0; split < 3; ++split) // whole stream, random chunks, one octet at a time
            {
                MpaFpduReceiver rx(markers, crc, 9000);
                std::vector<Bytes> got;
                MpaError err;
                Rx r = Rx::NeedMore;
                for (size_t at = 0; at < stream.size() && r == Rx::NeedMore;)
                {
                    size_t n = split == 0 ? stream.size()
                                          : split == 1 ? std::uniform_int_distribution<size_t>(1, 4000)(rng) : 1;
                    n = std::min(n, stream.size() - at);
                    if (split == 1)
                    {
                        rx.Push(Create<Packet>(stream.data() + at, n));
                    }
                    else
                    {
                        rx.Push(stream.data() + at, n);
                    }
                    at += n;
                    r = Drain(rx, &got, &err);
                }
                std::string what = "markers=" + std::to_string(markers) + " crc=" + std::to_string(crc) +
                                   " split=" + std::to_string(split);
                NS_TEST_ASSERT_MSG_EQ(int(r), int(Rx::NeedMore), what << ": no error");
                NS_TEST_ASSERT_MSG_EQ(got.size(), ulpdus.size(), what << ": ULPDU count");
                for (size_t i = 0; i < got.size() && i < ulpdus.size(); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ((got[i] == ulpdus[i]), true, what << ": ULPDU " << i);
                }
                NS_TEST_EXPECT_MSG_EQ(rx.GetStreamOffset(), stream.size(), what << ": stream consumed");
                NS_TEST_EXPECT_MSG_EQ(rx.GetBufferedSize(), 0u, what << ": nothing left over");
            }
        }
        // A virtual payload arrives as the zeros it stands for.
        MpaFpduSender tx(true, true);
        MpaFpduReceiver rx(true, true);
        rx.Push(tx.Frame(Create<Packet>(3000)));
        std::vector<Bytes> got;
        MpaError err;
        Drain(rx, &got, &err);
        NS_TEST_EXPECT_MSG_EQ((got.size() == 1 && got[0] == Bytes(3000, 0)), true, "virtual ULPDU");
    }
};

class FlippedBitInFpduGivesCrcError : public TestCase
{
  public:
    FlippedBitInFpduGivesCrcError()
        : TestCase("every single-bit flip in an FPDU is caught: CrcError, or MarkerMismatch in an FPDUPTR")
    {
    }

  private:
    void DoRun() override
    {
        for (bool markers : {false, true})
        {
            // A (100) delivered intact, B (900, with a marker inside when markers are on) corrupted, then
            // enough trailing FPDUs that a corrupted ULPDU_Length (<= 9000) cannot leave us waiting.
            MpaFpduSender tx(markers, true);
            Bytes stream = PacketBytes(tx.Frame(Create<Packet>(Pattern(100, 9).data(), 100)));
            const size_t bStart = stream.size();
            stream = Cat(stream, PacketBytes(tx.Frame(Create<Packet>(Pattern(900, 8).data(), 900))));
            const size_t bEnd = stream.size();
            for (int k = 0; k < 4; ++k)
            {
                stream = Cat(stream, PacketBytes(tx.Frame(Create<Packet>(3000))));
            }
            const size_t lenAt = (markers && bStart % 512 == 0) ? bStart + 4 : bStart;
            for (size_t j = bStart; j < bEnd; ++j)
            {
                for (int bit = 0; bit < 8; ++bit)
                {
                    Bytes bad = stream;
                    bad[j] ^= uint8_t(1 << bit);
                    MpaFpduReceiver rx(markers, true, 9000);
                    rx.Push(bad.data(), bad.size());
                    std::vector<Bytes> got;
                    MpaError err = MpaError::TcpClosed;
                    Rx r = Drain(rx, &got, &err);
                    bool inMarker = markers && j % 512 < 4;
                    bool ptrBit = inMarker && (j % 512 == 2 || (j % 512 == 3 && bit >= 2));
                    bool lenBit = (j == lenAt || j == lenAt + 1); // may also run into a marker
                    bool codeOk = ptrBit ? err == MpaError::MarkerMismatch
                                         : (lenBit || err == MpaError::CrcError);
                    bool ok = r == Rx::Error && got.size() == 1 && codeOk &&
                              rx.Next(nullptr, &err) == Rx::Error; // sticky
                    // One report, not thousands, if the receiver is broken.
                    NS_TEST_ASSERT_MSG_EQ(ok, true,
                                          "markers=" << markers << " octet " << j << " bit " << bit << ": result "
                                                     << int(r) << ", " << got.size() << " ULPDUs, error "
                                                     << ToString(err));
                    if (!ok)
                    {
                        return;
                    }
                }
            }
        }
    }
};

class CorruptedMarkerGivesMarkerMismatch : public TestCase
{
  public:
    CorruptedMarkerGivesMarkerMismatch()
        : TestCase("a marker whose FPDUPTR misses ULPDU_Length is MarkerMismatch; reserved and low bits are ignored")
    {
    }

  private:
    /** Receives the layout stream after `edit`; returns the result and the ULPDU count. */
    std::pair<Rx, size_t> Run(bool crc, size_t at, uint8_t value, MpaError* err)
    {
        Layout l(crc);
        l.stream[at] = value;
        MpaFpduReceiver rx(true, crc);
        rx.Push(l.stream.data(), l.stream.size());
        std::vector<Bytes> got;
        Rx r = Drain(rx, &got, err);
        return {r, got.size()};
    }

    void DoRun() override
    {
        MpaError err;
        for (bool crc : {false, true})
        {
            auto r = Run(crc, 515, 0xF4, &err); // marker@512 points 4 octets too far back
            NS_TEST_EXPECT_MSG_EQ(int(r.first), int(Rx::Error), "inner marker, crc=" << crc);
            NS_TEST_EXPECT_MSG_EQ(unsigned(err), unsigned(MpaError::MarkerMismatch), "code 0x03");
            NS_TEST_EXPECT_MSG_EQ(r.second, 1u, "F1 delivered before it");
            r = Run(crc, 3, 0x04, &err); // the first marker must say 0
            NS_TEST_EXPECT_MSG_EQ((r.first == Rx::Error && err == MpaError::MarkerMismatch && r.second == 0),
                                  true, "leading marker, crc=" << crc);
            r = Run(crc, 2051, 0xF0, &err); // the pre-CRC marker of F5
            NS_TEST_EXPECT_MSG_EQ((r.first == Rx::Error && err == MpaError::MarkerMismatch && r.second == 4),
                                  true, "marker before the CRC, crc=" << crc);
        }
        // Without CRC, what the receiver ignores in a marker really is ignored.
        auto r = Run(false, 515, 0xF3, &err);
        NS_TEST_EXPECT_MSG_EQ((r.first == Rx::NeedMore && r.second == 5), true, "FPDUPTR low bits ignored");
        r = Run(false, 512, 0xFF, &err);
        NS_TEST_EXPECT_MSG_EQ((r.first == Rx::NeedMore && r.second == 5), true, "reserved bits ignored");
        // ...but with CRC they are still covered by it.
        r = Run(true, 512, 0xFF, &err);
        NS_TEST_EXPECT_MSG_EQ((r.first == Rx::Error && err == MpaError::CrcError), true, "marker under the CRC");
    }
};

class UlpduLengthAboveMaximumIsStickyError : public TestCase
{
  public:
    UlpduLengthAboveMaximumIsStickyError()
        : TestCase("a ULPDU_Length above the receiver's maximum is error 0x03, and every later Next is Error")
    {
    }

  private:
    void DoRun() override
    {
        MpaFpduSender tx(false, true);
        Bytes ok = PacketBytes(tx.Frame(Create<Packet>(1000)));
        Bytes big = PacketBytes(tx.Frame(Create<Packet>(1001)));
        MpaFpduReceiver rx(false, true, 1000);
        rx.Push(ok.data(), ok.size());
        rx.Push(big.data(), 2); // the length alone is enough to know
        std::vector<Bytes> got;
        MpaError err;
        NS_TEST_EXPECT_MSG_EQ(int(Drain(rx, &got, &err)), int(Rx::Error), "1001 > 1000");
        NS_TEST_EXPECT_MSG_EQ(unsigned(err), unsigned(MpaError::MarkerMismatch), "code 0x03");
        NS_TEST_EXPECT_MSG_EQ(got.size(), 1u, "the 1000-octet ULPDU came first");
        Bytes more = PacketBytes(MpaFpduSender(false, true).Frame(Create<Packet>(10)));
        rx.Push(more.data(), more.size());
        err = MpaError::TcpClosed;
        NS_TEST_EXPECT_MSG_EQ(int(Drain(rx, &got, &err)), int(Rx::Error), "still failed");
        NS_TEST_EXPECT_MSG_EQ(unsigned(err), unsigned(MpaError::MarkerMismatch), "same code");
    }
};

class ParseAlignedFpdusFindsWholeCheckedUlpdus : public TestCase
{
  public:
    ParseAlignedFpdusFindsWholeCheckedUlpdus()
        : TestCase("ParseAlignedFpdus gives the ULPDUs of whole, CRC-clean FPDUs at a segment's start, markers "
                   "taken out")
    {
    }

  private:
    using Ulpdus = std::vector<Bytes>;

    bool Parse(const Bytes& seg, size_t len, uint64_t off, bool markers, bool crc, Ulpdus* r)
    {
        r->clear();
        return MpaFpduReceiver::ParseAlignedFpdus(seg.data(), len, off, markers, crc, r);
    }

    void DoRun() override
    {
        MpaFpduSender tx(false, true);
        std::vector<Bytes> u = {Pattern(10, 1), Bytes(), Pattern(333, 2)};
        Bytes seg;
        for (const Bytes& x : u)
        {
            seg = Cat(seg, PacketBytes(tx.Frame(Create<Packet>(x.data(), x.size()))));
        }
        Ulpdus r;
        NS_TEST_EXPECT_MSG_EQ(Parse(seg, seg.size(), 0, false, true, &r), true, "three whole FPDUs");
        NS_TEST_EXPECT_MSG_EQ((r == u), true, "their ULPDUs' octets");
        NS_TEST_EXPECT_MSG_EQ(Parse(seg, seg.size() - 1, 0, false, true, &r), false, "last FPDU cut short");
        NS_TEST_EXPECT_MSG_EQ((r == Ulpdus{u[0], u[1]}), true, "the two whole ones");
        Bytes bad = seg;
        bad[20] ^= 0x01; // F2's CRC
        NS_TEST_EXPECT_MSG_EQ(Parse(bad, bad.size(), 0, false, true, &r), false, "F2 CRC bad");
        NS_TEST_EXPECT_MSG_EQ((r == Ulpdus{u[0]}), true, "F1 only");
        NS_TEST_EXPECT_MSG_EQ(Parse(bad, bad.size(), 0, false, false, &r), true, "CRC off: not checked");

        // With markers (the hand-worked layout): leading, inner and pre-CRC markers are checked and taken out.
        Layout l(true);
        const Ulpdus& lu = l.ulpdus;
        auto seg5 = [&](size_t i) { return l.Range(l.start[i], l.start[i + 1]); };
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(0), 16, 0, true, true, &r) && r == Ulpdus{lu[0]}), true, "F1");
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(1), 1016, 16, true, true, &r) && r == Ulpdus{lu[1]}), true,
                              "F2: a marker inside the ULPDU is taken out");
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(1), 1016, 16, true, false, &r) && r == Ulpdus{lu[1]}), true,
                              "F2, CRC off");
        Bytes f2 = seg5(1);
        f2[512 - 16 + 3] ^= 0x04; // F2's inner marker (stream offset 512) points elsewhere
        NS_TEST_EXPECT_MSG_EQ((!Parse(f2, f2.size(), 16, true, false, &r) && r.empty()), true,
                              "F2 with a wrong inner FPDUPTR, CRC off: refused");
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(2), 504, 1032, true, true, &r) && r == Ulpdus{lu[2]}), true, "F3");
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(3), 12, 1536, true, true, &r) && r == Ulpdus{lu[3]}), true, "F4");
        NS_TEST_EXPECT_MSG_EQ((Parse(seg5(4), 508, 1548, true, true, &r) && r == Ulpdus{lu[4]}), true, "F5");
        Bytes all = l.Range(0, 2056);
        NS_TEST_EXPECT_MSG_EQ((Parse(all, all.size(), 0, true, true, &r) && r == lu), true,
                              "all five FPDUs in one segment");
        Bytes tail = l.Range(1032, 2056);
        NS_TEST_EXPECT_MSG_EQ((Parse(tail, tail.size(), 1032, true, true, &r) &&
                               r == Ulpdus{lu[2], lu[3], lu[4]}),
                              true, "F3+F4+F5 in one segment");
        tail[2051 - 1032] ^= 0x04; // F5's pre-CRC marker
        NS_TEST_EXPECT_MSG_EQ((!Parse(tail, tail.size(), 1032, true, true, &r) && r.size() == 2), true,
                              "bad marker before F5's CRC");
    }
};

class MpaFramingSuite : public TestSuite
{
  public:
    MpaFramingSuite()
        : TestSuite("iwarp-mpa-framing", UNIT)
    {
        AddTestCase(new MpaErrorCodesAreLlpLayerEType0, TestCase::QUICK);
        AddTestCase(new MulpduFormulaWorkedValues, TestCase::QUICK);
        AddTestCase(new FpduLayoutWithoutMarkers, TestCase::QUICK);
        AddTestCase(new FpduLayoutWithMarkers, TestCase::QUICK);
        AddTestCase(new FpduRoundTripsUnderAnySplit, TestCase::QUICK);
        AddTestCase(new FlippedBitInFpduGivesCrcError, TestCase::QUICK);
        AddTestCase(new CorruptedMarkerGivesMarkerMismatch, TestCase::QUICK);
        AddTestCase(new UlpduLengthAboveMaximumIsStickyError, TestCase::QUICK);
        AddTestCase(new ParseAlignedFpdusFindsWholeCheckedUlpdus, TestCase::QUICK);
    }
};

MpaFramingSuite g_mpaFramingSuite;

} // namespace
