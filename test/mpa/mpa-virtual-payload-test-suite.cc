/*
 * The virtual-payload fast path of MPA framing (doc/architecture.md "Payload modes"): a ULPDU whose payload DDP
 * marked virtual (VirtualPayloadTag) is framed without copying the payload, yet produces exactly the
 * octets, CRC included, that the copying path produces for the same zero-filled ULPDU.
 */
#include "mpa/mpa-test-util.h"

#include "common/crc32c.h"
#include "common/virtual-payload-tag.h"
#include "mpa/mpa-fpdu.h"

#include "ns3/packet.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::iwarp;

namespace
{

using namespace ns3::mpatest;

/** A DDP-like ULPDU: `hdr` literal octets, then `virtualLen` zero octets as a zero area. */
Ptr<Packet>
Ulpdu(const Bytes& hdr, uint32_t virtualLen, bool tagged)
{
    Ptr<Packet> p = Create<Packet>(virtualLen);
    Ptr<Packet> h = Create<Packet>(hdr.data(), hdr.size());
    h->AddAtEnd(p); // a buffer that starts with real octets and ends in a zero area
    if (tagged)
    {
        h->AddPacketTag(VirtualPayloadTag(virtualLen));
    }
    return h;
}

class VirtualFramingMatchesCopyingFraming : public TestCase
{
  public:
    VirtualFramingMatchesCopyingFraming()
        : TestCase("FPDU of a tagged virtual payload: same octets and CRC as the copying path, payload not stored")
    {
    }

  private:
    void DoRun() override
    {
        const Bytes hdr = {0xC1, 0x01, 0x00, 0x00, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0x40};
        // Payload lengths covering every pad (0..3) and one MULPDU-sized segment.
        for (uint32_t virt : {0u, 1u, 2u, 3u, 4u, 1000u, 1428u})
        {
            for (bool crc : {true, false})
            {
                MpaFpduSender fast(false, crc);
                MpaFpduSender copy(false, crc);
                Ptr<Packet> a = fast.Frame(Ulpdu(hdr, virt, true));
                Ptr<Packet> b = copy.Frame(Ulpdu(hdr, virt, false));
                NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(a)), Hex(PacketBytes(b)),
                                      "same FPDU octets for " << virt << " virtual octets, crc=" << crc);
                NS_TEST_EXPECT_MSG_EQ(fast.GetStreamOffset(), copy.GetStreamOffset(), "same stream position");
                VirtualPayloadTag t;
                NS_TEST_EXPECT_MSG_EQ(a->PeekPacketTag(t), false, "the tag does not leave with the FPDU");
                if (virt >= 1000)
                {
                    // ns-3 serialises a zero area as its size: the fast FPDU stores only its real octets.
                    NS_TEST_EXPECT_MSG_LT(a->GetSerializedSize(), 200u, "payload kept virtual (" << virt << ")");
                    NS_TEST_EXPECT_MSG_GT(b->GetSerializedSize(), virt, "the copying path stores the payload");
                }
            }
        }
        // A second FPDU continues the stream exactly as the copying path does.
        MpaFpduSender fast(false, true);
        MpaFpduSender copy(false, true);
        fast.Frame(Ulpdu(hdr, 7, true));
        copy.Frame(Ulpdu(hdr, 7, false));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(fast.Frame(Ulpdu(hdr, 9, true)))),
                              Hex(PacketBytes(copy.Frame(Ulpdu(hdr, 9, false)))), "second FPDU");
    }
};

class VirtualFpduDeframesWithGoodCrc : public TestCase
{
  public:
    VirtualFpduDeframesWithGoodCrc()
        : TestCase("FPDUs framed around virtual payloads deframe with a good CRC into the original ULPDUs")
    {
    }

  private:
    void DoRun() override
    {
        const Bytes hdr = {0xC1, 0x01, 0xAB, 0xCD};
        MpaFpduSender tx(false, true);
        MpaFpduReceiver rx(false, true, 65535);
        for (uint32_t virt : {5u, 512u, 1400u})
        {
            rx.Push(tx.Frame(Ulpdu(hdr, virt, true)));
            Ptr<Packet> u;
            MpaError err = MpaError::CrcError;
            NS_TEST_ASSERT_MSG_EQ((rx.Next(&u, &err) == MpaFpduReceiver::RxResult::Done), true,
                                  "one ULPDU for " << virt);
            NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(u)), Hex(Cat(hdr, Bytes(virt, 0))), "the ULPDU's octets");
            if (virt >= 512)
            {
                NS_TEST_EXPECT_MSG_LT(u->GetSerializedSize(), 200u, "the receiver keeps the payload virtual");
            }
        }
    }
};

class PacketFromOctetsKeepsTrailingZerosVirtual : public TestCase
{
  public:
    PacketFromOctetsKeepsTrailingZerosVirtual()
        : TestCase("MpaPacketFromOctets: the same octets, a long run of trailing zeros kept as ns-3's zero area")
    {
    }

  private:
    void Check(const Bytes& octets, bool virtualTail, const std::string& what)
    {
        Ptr<Packet> p = MpaPacketFromOctets(octets.data(), uint32_t(octets.size()));
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(p)), Hex(octets), what << ": same octets");
        if (virtualTail)
        {
            NS_TEST_EXPECT_MSG_LT(p->GetSerializedSize(), 200u, what << ": zeros not stored");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(p->GetSerializedSize(), uint32_t(octets.size()), what << ": stored as octets");
        }
    }

    void DoRun() override
    {
        const Bytes hdr = {0xC1, 0x01, 0xAB, 0xCD, 0, 0, 7};
        Bytes mixed(1000, 0x5A);
        Check(Bytes(1428, 0), true, "all zeros");
        Check(Cat(hdr, Bytes(1421, 0)), true, "a header and a virtual payload");
        Check(Cat(mixed, Bytes(100, 0)), false, "a short zero run");
        Check(Cat(Bytes(65, 0x11), Bytes(1000, 0)), false, "a prefix too long for the header");
        Check(Cat(Bytes(64, 0x11), Bytes(1000, 0)), true, "the longest prefix kept in front");
        Check(Bytes{}, false, "nothing");
        // The last non-zero octet at every place in an eight-octet word, before exactly the shortest
        // zero run kept virtual (256) and one shorter: the word-wise scan must stop at that octet.
        for (uint8_t n = 1; n <= 17; ++n)
        {
            Bytes front(n, 0);
            front[0] = 0x33;
            front[n - 1] = 0x44;
            const std::string at = "last non-zero octet at " + std::to_string(n - 1);
            Check(Cat(front, Bytes(256, 0)), true, at + ", 256 zeros");
            Check(Cat(front, Bytes(255, 0)), false, at + ", 255 zeros");
        }
    }
};

class CrcOverZerosMatchesCrcOverZeroBuffer : public TestCase
{
  public:
    CrcOverZerosMatchesCrcOverZeroBuffer()
        : TestCase("Crc32cUpdateZeros, both ways, equals the table CRC over a buffer of zeros, below and "
                   "above its direct threshold (64), and composes for counts no buffer could hold")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint8_t> zeros((1u << 20) + 2000, 0);
        const uint32_t fromAb = Crc32cUpdate(kCrc32cInit, (const uint8_t*)"ab", 2);
        for (uint32_t start : {kCrc32cInit, fromAb, 0u, 1u, 0x80000000u, 0x12345678u})
        {
            for (uint64_t n : {0ull, 1ull, 3ull, 63ull, 64ull, 65ull, 1428ull, 4095ull, 4096ull, 4097ull,
                               10000ull, 1ull << 20, (1ull << 20) + 1435ull})
            {
                // The slicing-by-8 table walks every octet: an implementation independent of the tables
                // Crc32cUpdateZeros builds.
                const uint32_t walked = Crc32cUpdateTable(start, zeros.data(), n);
                NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZeros(start, n), walked,
                                      "zeros: " << n << " from 0x" << std::hex << start);
                NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZerosTable(start, n), walked,
                                      "the tables' way, zeros: " << n << " from 0x" << std::hex << start);
            }
        }
        // Every length from 64 to 1,600 twice, from two registers: the per-length constants of the
        // carry-less way are kept in 64 slots, so lengths take each other's slot and come back.
        for (int round = 0; round < 2; ++round)
        {
            for (uint64_t n = 64; n <= 1600; ++n)
            {
                const uint32_t start = round == 0 ? fromAb : 0xDEADBEEFu;
                NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZeros(start, n), Crc32cUpdateTable(start, zeros.data(), n),
                                      "zeros: " << n << ", round " << round);
            }
        }
        // 2^40 + 5 zeros then 2^33 + 3 more are the same as all of them at once (every bit's operator).
        const uint64_t a = (1ull << 40) + 5;
        const uint64_t b = (1ull << 33) + 3;
        NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZeros(Crc32cUpdateZeros(fromAb, a), b), Crc32cUpdateZeros(fromAb, a + b),
                              "runs compose");
        NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZeros(Crc32cUpdateZeros(fromAb, ~0ull - 7), 7),
                              Crc32cUpdateZeros(fromAb, ~0ull), "the largest count");
    }
};

class TrailingZerosCountedFromAnyLastOctet : public TestCase
{
  public:
    TrailingZerosCountedFromAnyLastOctet()
        : TestCase("MpaTrailingZeros: the zeros after the last non-zero octet, wherever it sits in the "
                   "64-, 8- and 1-octet steps")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t len = 0; len <= 200; ++len)
        {
            NS_TEST_EXPECT_MSG_EQ(MpaTrailingZeros(Bytes(len, 0).data(), len), len, "all zeros, " << len);
            for (uint32_t last = 0; last < len; ++last)
            {
                Bytes b(len, 0);
                for (uint32_t i = 0; i <= last; i += 3)
                {
                    b[i] = 0x80; // some octets before the last non-zero one are non-zero too
                }
                b[last] = 0x01;
                NS_TEST_EXPECT_MSG_EQ(MpaTrailingZeros(b.data(), len), len - 1 - last,
                                      "last non-zero octet at " << last << " of " << len);
            }
        }
    }
};

class ChunkedStreamDeframesZeroTails : public TestCase
{
  public:
    ChunkedStreamDeframesZeroTails()
        : TestCase("FPDUs cut into pieces of 1 to 1,500 octets, markers or not: the same ULPDUs, zero tails "
                   "counted across pieces, a flipped octet among the zeros a CRC error")
    {
    }

  private:
    void DoRun() override
    {
        const Bytes hdr = {0xC1, 0x01, 0xAB, 0xCD};
        Bytes broken = Cat(Cat(hdr, Bytes(300, 0)), Bytes{0x01}); // zeros, then a non-zero octet...
        broken = Cat(broken, Bytes(300, 0));                      // ...then zeros again
        Bytes shortFront = Cat(Cat(hdr, Bytes(40, 0)), Bytes{0x01});
        shortFront = Cat(shortFront, Bytes(300, 0));
        const std::vector<Bytes> ulpdus = {Cat(hdr, Bytes(1400, 0)), broken, shortFront, Cat(hdr, Bytes(300, 7)),
                                           Bytes(700, 0)};
        // Expected to stay a zero area at the receiver: 256 or more zeros behind at most 64 octets.
        const std::vector<bool> virtualTail = {true, false, true, false, true};
        for (bool markers : {false, true})
        {
            MpaFpduSender tx(markers, true);
            Bytes stream;
            for (const Bytes& u : ulpdus)
            {
                stream = Cat(stream, PacketBytes(tx.Frame(Create<Packet>(u.data(), u.size()))));
            }
            for (size_t piece : {size_t(1), size_t(7), size_t(32), size_t(33), size_t(100), size_t(1500)})
            {
                const std::string what = std::string(markers ? "markers" : "no markers") + ", pieces of " +
                                         std::to_string(piece);
                MpaFpduReceiver rx(markers, true);
                std::vector<Ptr<Packet>> got;
                for (size_t at = 0; at < stream.size(); at += piece)
                {
                    rx.Push(stream.data() + at, std::min(piece, stream.size() - at));
                    Ptr<Packet> u;
                    MpaError err;
                    while (rx.Next(&u, &err) == MpaFpduReceiver::RxResult::Done)
                    {
                        got.push_back(u);
                    }
                }
                NS_TEST_ASSERT_MSG_EQ(got.size(), ulpdus.size(), what << ": every ULPDU");
                for (size_t i = 0; i < ulpdus.size(); ++i)
                {
                    NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(got[i])), Hex(ulpdus[i]), what << ": ULPDU " << i);
                    NS_TEST_EXPECT_MSG_EQ((got[i]->GetSerializedSize() < 200), virtualTail[i],
                                          what << ": ULPDU " << i << " zero tail kept virtual or stored");
                }
            }
            // One octet among the first FPDU's zeros flipped: the CRC must still see it.
            Bytes bad = stream;
            bad[700] ^= 0x10;
            MpaFpduReceiver rx(markers, true);
            rx.Push(bad.data(), bad.size());
            Ptr<Packet> u;
            MpaError err = MpaError::MarkerMismatch;
            NS_TEST_EXPECT_MSG_EQ((rx.Next(&u, &err) == MpaFpduReceiver::RxResult::Error), true,
                                  "a flipped zero is refused");
            NS_TEST_EXPECT_MSG_EQ((err == MpaError::CrcError), true, "as a CRC error");
        }
    }
};

class MpaVirtualPayloadSuite : public TestSuite
{
  public:
    MpaVirtualPayloadSuite()
        : TestSuite("iwarp-mpa-virtual-payload", UNIT)
    {
        AddTestCase(new VirtualFramingMatchesCopyingFraming, TestCase::QUICK);
        AddTestCase(new VirtualFpduDeframesWithGoodCrc, TestCase::QUICK);
        AddTestCase(new PacketFromOctetsKeepsTrailingZerosVirtual, TestCase::QUICK);
        AddTestCase(new CrcOverZerosMatchesCrcOverZeroBuffer, TestCase::QUICK);
        AddTestCase(new TrailingZerosCountedFromAnyLastOctet, TestCase::QUICK);
        AddTestCase(new ChunkedStreamDeframesZeroTails, TestCase::QUICK);
    }
};

MpaVirtualPayloadSuite g_mpaVirtualPayloadSuite;

} // namespace
