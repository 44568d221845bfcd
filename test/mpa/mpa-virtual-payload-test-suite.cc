/*
 * The virtual-payload fast path of MPA framing (DESIGN.md "Payload modes"): a ULPDU whose payload DDP
 * marked virtual (VirtualPayloadTag) is framed without copying the payload, yet produces exactly the
 * octets, CRC included, that the copying path produces for the same zero-filled ULPDU.
 */
#include "mpa/mpa-test-util.h"

#include "common/crc32c.h"
#include "common/virtual-payload-tag.h"
#include "mpa/mpa-fpdu.h"

#include "ns3/packet.h"
#include "ns3/test.h"

#include <cstdint>
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
        : TestCase("Crc32cUpdateZeros equals Crc32cUpdate over a buffer of zeros, across its 4096-octet blocks")
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t n : {0ull, 1ull, 3ull, 4095ull, 4096ull, 4097ull, 10000ull})
        {
            const std::vector<uint8_t> zeros(n, 0);
            const uint32_t start = Crc32cUpdate(kCrc32cInit, (const uint8_t*)"ab", 2);
            NS_TEST_EXPECT_MSG_EQ(Crc32cUpdateZeros(start, n), Crc32cUpdate(start, zeros.data(), n),
                                  "zeros: " << n);
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
    }
};

MpaVirtualPayloadSuite g_mpaVirtualPayloadSuite;

} // namespace
