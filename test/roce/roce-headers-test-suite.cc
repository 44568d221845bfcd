/*
 * iwarp-roce-headers: RoCEv2's wire format (model/roce, issue 31's first layer). The BTH, RETH, AETH, IETH and
 * DETH put each field where the InfiniBand specification puts it (octets compared with hand-written layouts)
 * and read back what they wrote, reserved bits included; the AETH's syndromes are ACK, RNR NAK and NAK as
 * §9.7.5.2.8 codes them; each opcode says which extended headers follow (RETH, AETH, ImmDt, IETH for a Send
 * with Invalidate, DETH for a UD SEND_ONLY, a CNP's padding). The ICRC is
 * zlib's CRC-32 over the packet with the variant fields as ones: it equals a bitwise CRC-32 written here over a
 * copy masked here, it does not move when a router's fields (TOS, TTL, IP and UDP checksums, BTH Resv8a) change
 * and it does when any other octet does, and recomputed over a CNP a ConnectX-4 Lx sent it equals the ICRC the
 * NIC put on the wire. tshark's InfiniBand dissector decodes hand-built packets of each kind on UDP 4791 with
 * nothing malformed, reading the fields as written (tshark shows the ICRC but does not check it).
 */
#include "roce/roce-headers.h"
#include "roce/roce-icrc.h"

#include "support/roce-pcap.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <filesystem>

namespace ns3
{
namespace
{

using iwarptest::Octets;
using iwarptest::Parsed;

class BthTestCase : public TestCase
{
  public:
    BthTestCase()
        : TestCase("BTH: every field at its place, 24-bit QP and PSN, FECN and BECN in Resv8a, reserved bits kept")
    {
    }

  private:
    void DoRun() override
    {
        RoceBth b;
        b.SetOpcode(IbOpcode::WriteFirst);
        b.SetSolicitedEvent(true);
        b.SetPadCount(3);
        b.SetPKey(0xFFFF);
        b.SetFecn(true);
        b.SetDestQp(0x123456);
        b.SetAckRequest(true);
        b.SetPsn(0xABCDEF);
        const std::vector<uint8_t> expect = {0x06, 0xB0, 0xFF, 0xFF, 0x80, 0x12, 0x34, 0x56, 0x80, 0xAB, 0xCD, 0xEF};
        NS_TEST_EXPECT_MSG_EQ((Octets(b) == expect), true, "opcode | SE M Pad TVer | P_Key | FECN BECN | QP | A | PSN");
        // Reserved bits as received are written back (a test can put any on the wire, and see them).
        std::vector<uint8_t> odd = {0x11, 0x4F, 0x80, 0x00, 0x7F, 0x00, 0x00, 0x01, 0x7F, 0x00, 0x00, 0x02};
        const RoceBth r = Parsed<RoceBth>(odd);
        NS_TEST_EXPECT_MSG_EQ((r.GetOpcode() == IbOpcode::Acknowledge), true, "opcode");
        NS_TEST_EXPECT_MSG_EQ((r.GetMigReq() && !r.GetSolicitedEvent()), true, "M set, SE clear");
        NS_TEST_EXPECT_MSG_EQ(unsigned(r.GetTransportVersion()), 0xFu, "TVer");
        NS_TEST_EXPECT_MSG_EQ(r.GetPKey(), 0x8000u, "P_Key");
        NS_TEST_EXPECT_MSG_EQ((!r.GetFecn() && r.GetBecn()), true, "BECN only");
        NS_TEST_EXPECT_MSG_EQ((r.GetDestQp() == 1 && r.GetPsn() == 2 && !r.GetAckRequest()), true, "QP, PSN, A");
        NS_TEST_EXPECT_MSG_EQ((Octets(r) == odd), true, "reserved bits written back as read");
        NS_TEST_EXPECT_MSG_EQ(RoceBth().GetPKey(), roce::kDefaultPKey, "the default partition's key by default");
    }
};

class RethAethTestCase : public TestCase
{
  public:
    RethAethTestCase()
        : TestCase("RETH and AETH at their places; ACK, RNR NAK and NAK syndromes; each opcode's extended headers")
    {
    }

  private:
    void DoRun() override
    {
        RoceReth r;
        r.SetVirtualAddress(0x0102030405060708ULL);
        r.SetRKey(0xA1B2C3D4);
        r.SetDmaLength(65536);
        const std::vector<uint8_t> reth = {1, 2, 3, 4, 5, 6, 7, 8, 0xA1, 0xB2, 0xC3, 0xD4, 0, 1, 0, 0};
        NS_TEST_EXPECT_MSG_EQ((Octets(r) == reth), true, "VA | R_Key | DMA Length, big-endian");
        const RoceReth back = Parsed<RoceReth>(reth);
        NS_TEST_EXPECT_MSG_EQ((back.GetVirtualAddress() == r.GetVirtualAddress() && back.GetRKey() == r.GetRKey() &&
                               back.GetDmaLength() == 65536u),
                              true, "read back");

        const std::vector<uint8_t> ack = {0x1F, 0x00, 0x01, 0x02};
        NS_TEST_EXPECT_MSG_EQ((Octets(RoceAeth::Ack(31, 0x102)) == ack), true, "ACK, credit code 31, MSN");
        const RoceAeth nak = Parsed<RoceAeth>(Octets(RoceAeth::Nak(IbNakCode::PsnSequenceError, 7)));
        NS_TEST_EXPECT_MSG_EQ((nak.IsNak() && !nak.IsAck() && nak.GetValue() == 0 && nak.GetMsn() == 7), true,
                              "PSN sequence error NAK");
        NS_TEST_EXPECT_MSG_EQ(unsigned(RoceAeth::Nak(IbNakCode::RemoteAccessError, 0).GetSyndrome()), 0x62u,
                              "NAK syndrome 011 + code");
        const RoceAeth rnr = RoceAeth::RnrNak(14, 3);
        NS_TEST_EXPECT_MSG_EQ((rnr.IsRnrNak() && rnr.GetSyndrome() == 0x2E), true, "RNR NAK syndrome 001 + timer");

        for (IbOpcode op : {IbOpcode::SendLastImm, IbOpcode::SendOnlyImm, IbOpcode::WriteLastImm, IbOpcode::WriteOnlyImm})
        {
            NS_TEST_EXPECT_MSG_EQ((LayoutOf(op).immDt && LayoutOf(op).payload), true, ToString(op) << ": ImmDt");
        }
        NS_TEST_EXPECT_MSG_EQ((LayoutOf(IbOpcode::WriteOnlyImm).reth && !LayoutOf(IbOpcode::WriteLast).immDt), true,
                              "RETH and ImmDt together in a Write Only with immediate; none in a plain Write Last");
        NS_TEST_EXPECT_MSG_EQ((LayoutOf(IbOpcode::ReadResponseLast).aeth && LayoutOf(IbOpcode::ReadResponseOnly).aeth),
                              true, "Read Response last and only carry an AETH");
        NS_TEST_EXPECT_MSG_EQ(LayoutOf(IbOpcode::Cnp).reserved, roce::kCnpPaddingLen, "a CNP's 16 reserved octets");
        NS_TEST_EXPECT_MSG_EQ(LayoutOf(IbOpcode(0x13)).known, false, "an atomic: not an opcode of this model");
        NS_TEST_EXPECT_MSG_EQ(LayoutOf(IbOpcode::WriteFirst).reth, true, "a Write's first packet has a RETH");
        NS_TEST_EXPECT_MSG_EQ(LayoutOf(IbOpcode::WriteMiddle).reth, false, "its middle ones none");
        NS_TEST_EXPECT_MSG_EQ((LayoutOf(IbOpcode::ReadRequest).reth && !LayoutOf(IbOpcode::ReadRequest).payload),
                              true, "a Read Request: RETH, no payload");
        NS_TEST_EXPECT_MSG_EQ((LayoutOf(IbOpcode::ReadResponseFirst).aeth && !LayoutOf(IbOpcode::ReadResponseMiddle).aeth),
                              true, "Read Response first has an AETH, middle none");
        NS_TEST_EXPECT_MSG_EQ((LayoutOf(IbOpcode::Acknowledge).aeth && !LayoutOf(IbOpcode::Acknowledge).payload), true,
                              "an ACK: AETH only");
        NS_TEST_EXPECT_MSG_EQ(ToString(IbOpcode::ReadResponseOnly), "RDMA_READ_RESPONSE_ONLY", "names");
        NS_TEST_EXPECT_MSG_EQ(ToString(IbOpcode(0x55)), "UNKNOWN(0x55)", "unknown opcode");
    }
};

class IethDethTestCase : public TestCase
{
  public:
    IethDethTestCase()
        : TestCase("IETH and DETH at their places, reserved octet kept; Send with Invalidate and UD SEND_ONLY layouts")
    {
    }

  private:
    void DoRun() override
    {
        RoceIeth ieth;
        ieth.SetRKey(0xDEADBEEF);
        const std::vector<uint8_t> i = {0xDE, 0xAD, 0xBE, 0xEF};
        NS_TEST_EXPECT_MSG_EQ((Octets(ieth) == i), true, "IETH: the R_Key, big-endian");
        NS_TEST_EXPECT_MSG_EQ(Parsed<RoceIeth>(i).GetRKey(), 0xDEADBEEFu, "read back");

        RoceDeth deth;
        deth.SetQKey(roce::kGsiQKey);
        deth.SetSrcQp(0xABCDEF);
        const std::vector<uint8_t> d = {0x80, 0x01, 0x00, 0x00, 0x00, 0xAB, 0xCD, 0xEF};
        NS_TEST_EXPECT_MSG_EQ((Octets(deth) == d), true, "DETH: Q_Key | reserved | SrcQP");
        const std::vector<uint8_t> odd = {0x11, 0x22, 0x33, 0x44, 0x5A, 0x00, 0x00, 0x01};
        const RoceDeth r = Parsed<RoceDeth>(odd);
        NS_TEST_EXPECT_MSG_EQ((r.GetQKey() == 0x11223344u && r.GetSrcQp() == roce::kGsiQp), true, "Q_Key, SrcQP");
        NS_TEST_EXPECT_MSG_EQ((Octets(r) == odd), true, "the reserved octet written back as read");
        NS_TEST_EXPECT_MSG_EQ((RoceIeth().GetSerializedSize() == roce::kIethLen &&
                               RoceDeth().GetSerializedSize() == roce::kDethLen),
                              true, "4 and 8 octets");

        for (IbOpcode op : {IbOpcode::SendLastInv, IbOpcode::SendOnlyInv})
        {
            const IbOpcodeLayout l = LayoutOf(op);
            NS_TEST_EXPECT_MSG_EQ((l.known && l.ieth && l.payload && !l.deth && !l.reth && !l.immDt), true,
                                  ToString(op) << ": IETH and payload");
        }
        const IbOpcodeLayout ud = LayoutOf(IbOpcode::UdSendOnly);
        NS_TEST_EXPECT_MSG_EQ((ud.known && ud.deth && ud.payload && !ud.ieth && !ud.aeth), true, "UD: DETH, payload");
        NS_TEST_EXPECT_MSG_EQ(unsigned(IbOpcode::SendLastInv), 0x16u, "SEND_LAST_WITH_INVALIDATE");
        NS_TEST_EXPECT_MSG_EQ(unsigned(IbOpcode::SendOnlyInv), 0x17u, "SEND_ONLY_WITH_INVALIDATE");
        NS_TEST_EXPECT_MSG_EQ(unsigned(IbOpcode::UdSendOnly), 0x64u, "UD SEND_ONLY");
        NS_TEST_EXPECT_MSG_EQ(ToString(IbOpcode::SendOnlyInv), "SEND_ONLY_WITH_INVALIDATE", "name");
        NS_TEST_EXPECT_MSG_EQ(ToString(IbOpcode::SendLastInv), "SEND_LAST_WITH_INVALIDATE", "name");
        NS_TEST_EXPECT_MSG_EQ(ToString(IbOpcode::UdSendOnly), "UD_SEND_ONLY", "name");
        NS_TEST_EXPECT_MSG_EQ((!LayoutOf(IbOpcode::SendOnly).ieth && !LayoutOf(IbOpcode::SendOnly).deth), true,
                              "a plain Send has neither");
        NS_TEST_EXPECT_MSG_EQ(LayoutOf(IbOpcode(0x15)).known, false, "0x15 (an atomic ACK): not of this model");
    }
};

/** Bitwise CRC-32 (reflected 0xEDB88320, initial and final complement): the reference the test trusts. */
uint32_t
ReferenceCrc32(const std::vector<uint8_t>& data)
{
    uint32_t crc = 0xFFFFFFFF;
    for (uint8_t octet : data)
    {
        crc ^= octet;
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

/** An IPv4 | UDP 4791 | BTH | (RETH | AETH) | payload RoCEv2 packet, without its ICRC. */
std::vector<uint8_t>
RocePacket(const RoceBth& bth, const std::vector<uint8_t>& extended, size_t payload)
{
    std::vector<uint8_t> t = Octets(bth);
    t.insert(t.end(), extended.begin(), extended.end());
    for (size_t k = 0; k < payload; ++k)
    {
        t.push_back(uint8_t(k * 7 + 3));
    }
    return iwarptest::RoceIpv4Packet(t);
}

class IcrcTestCase : public TestCase
{
  public:
    IcrcTestCase()
        : TestCase("ICRC: CRC-32 over eight ones and the packet with its variant fields as ones, sent least "
                   "significant octet first; unmoved by a router's fields, moved by any other octet")
    {
    }

  private:
    void DoRun() override
    {
        const std::string check = "123456789";
        NS_TEST_EXPECT_MSG_EQ(ReferenceCrc32(std::vector<uint8_t>(check.begin(), check.end())), 0xCBF43926u,
                              "the reference CRC-32's check value");
        RoceBth bth;
        bth.SetOpcode(IbOpcode::WriteOnly);
        bth.SetDestQp(17);
        bth.SetPsn(1000);
        RoceReth reth;
        reth.SetDmaLength(64);
        std::vector<uint8_t> pkt = RocePacket(bth, Octets(reth), 64);
        // The reference: its own masked copy, with the eight octets of ones in front.
        std::vector<uint8_t> masked(8, 0xFF);
        masked.insert(masked.end(), pkt.begin(), pkt.end());
        for (size_t at : {8 + 1, 8 + 8, 8 + 10, 8 + 11, 8 + 20 + 6, 8 + 20 + 7, 8 + 28 + 4})
        {
            masked[at] = 0xFF; // TOS, TTL, IP checksum, UDP checksum, BTH Resv8a
        }
        const uint32_t icrc = RoceIcrcIpv4(pkt.data(), pkt.size());
        NS_TEST_EXPECT_MSG_EQ(icrc, ReferenceCrc32(masked), "zlib's CRC over the masked packet");
        for (size_t at : {1, 8, 10, 11, 26, 27, 32})
        {
            std::vector<uint8_t> changed = pkt;
            changed[at] ^= 0x5A;
            NS_TEST_EXPECT_MSG_EQ(RoceIcrcIpv4(changed.data(), changed.size()), icrc, "variant octet " << at);
        }
        size_t moved = 0;
        for (size_t at = 1; at < pkt.size(); ++at) // octet 0 is the version and header length: not a packet without it
        {
            std::vector<uint8_t> changed = pkt;
            changed[at] ^= 0x01;
            moved += RoceIcrcIpv4(changed.data(), changed.size()) != icrc ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(moved, pkt.size() - 1 - 7, "every other octet is covered");
        AppendRoceIcrc(pkt);
        NS_TEST_EXPECT_MSG_EQ((pkt[pkt.size() - 4] == uint8_t(icrc) && pkt.back() == uint8_t(icrc >> 24)), true,
                              "least significant octet first");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(pkt.data(), pkt.size()), true, "good");
        pkt[40] ^= 0x10;
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(pkt.data(), pkt.size()), false, "a flipped payload bit");
        pkt[40] ^= 0x10;
        pkt.insert(pkt.end(), 6, 0x00); // a link layer's padding after the packet
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(pkt.data(), pkt.size()), true, "the IPv4 Total Length says where it ends");
        const std::vector<uint8_t> shortPacket(30, 0x45);
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([&] {
                                  RoceIcrcIpv4(shortPacket.data(), shortPacket.size());
                              }).empty(),
                              false, "too short for a BTH: refused");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(shortPacket.data(), shortPacket.size()), false, "not good, no exception");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(pkt.data(), 30), false, "a truncated buffer: not good");
    }
};

class IcrcCaptureTestCase : public TestCase
{
  public:
    IcrcCaptureTestCase()
        : TestCase("ICRC of a CNP a ConnectX-4 Lx sent: recomputed from the captured octets, equal to the captured one")
    {
    }

  private:
    void DoRun() override
    {
        // The IPv4 packet of a RoCEv2 CNP captured on an NVIDIA ConnectX-4 Lx, as published with scapy's RoCE layer
        // tests (test/contrib/roce.uts, "RoCE CNP captured on ConnectX-4 Lx"): TOS 0xC2 (ECN CE), TTL 64,
        // UDP checksum 0, BTH opcode 0x81 with BECN set, QP 0x118, 16 reserved octets, then the ICRC.
        const std::vector<uint8_t> cnp = {
            0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, 0x11, 0x01, 0x0a,
            0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff, 0x40, 0x00,
            0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x82, 0xfd, 0x00, 0x2a};
        NS_TEST_ASSERT_MSG_EQ(cnp.size(), 60u, "Total Length 60");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIpv4(cnp.data(), cnp.size() - 4), 0x2a00fd82u, "sent 82 fd 00 2a: low octet first");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcIsGood(cnp.data(), cnp.size()), true, "good");
        const RoceBth bth = Parsed<RoceBth>(std::vector<uint8_t>(cnp.begin() + 28, cnp.begin() + 40));
        NS_TEST_EXPECT_MSG_EQ((bth.GetOpcode() == IbOpcode::Cnp && bth.GetBecn() && !bth.GetFecn() &&
                               bth.GetDestQp() == 0x118 && !bth.GetMigReq() && bth.GetPKey() == 0xFFFF),
                              true, "the BTH as the NIC wrote it");
    }
};

class TsharkTestCase : public TestCase
{
  public:
    TsharkTestCase()
        : TestCase("tshark decodes a Write, a Read Request and Response, an ACK, a NAK and a CNP on UDP 4791, "
                   "nothing malformed, the fields as written")
    {
    }

  private:
    void DoRun() override
    {
        struct Sent
        {
            IbOpcode op;
            std::vector<uint8_t> extended;
            size_t payload;
        };
        RoceReth reth;
        reth.SetVirtualAddress(0x1000);
        reth.SetRKey(0x42);
        reth.SetDmaLength(4096);
        const std::vector<Sent> sent = {
            {IbOpcode::WriteFirst, Octets(reth), 1024},
            {IbOpcode::WriteLast, {}, 1024},
            {IbOpcode::ReadRequest, Octets(reth), 0},
            {IbOpcode::ReadResponseFirst, Octets(RoceAeth::Ack(31, 5)), 1024},
            {IbOpcode::Acknowledge, Octets(RoceAeth::Ack(31, 6)), 0},
            {IbOpcode::Acknowledge, Octets(RoceAeth::Nak(IbNakCode::PsnSequenceError, 6)), 0},
            {IbOpcode::Cnp, std::vector<uint8_t>(roce::kCnpPaddingLen, 0), 0},
        };
        const std::string file = iwarptest::TempPcapName("iwarp-roce");
        std::vector<uint32_t> icrcs;
        std::vector<std::vector<uint8_t>> packets;
        for (size_t k = 0; k < sent.size(); ++k)
        {
            RoceBth bth;
            bth.SetOpcode(sent[k].op);
            bth.SetDestQp(0x11);
            bth.SetPsn(uint32_t(100 + k));
            bth.SetAckRequest(sent[k].op == IbOpcode::WriteLast);
            bth.SetBecn(sent[k].op == IbOpcode::Cnp); // as a NIC sends a CNP
            std::vector<uint8_t> pkt = RocePacket(bth, sent[k].extended, sent[k].payload);
            icrcs.push_back(RoceIcrcIpv4(pkt.data(), pkt.size()));
            AppendRoceIcrc(pkt);
            packets.push_back(pkt);
        }
        iwarptest::WriteRawIpv4Pcap(file, packets);
        int status = 0;
        std::string out;
        const auto rows = iwarptest::TsharkFields(file,
                                                  {"infiniband.bth.opcode", "infiniband.bth.psn",
                                                   "infiniband.reth.dmalen", "infiniband.aeth.syndrome",
                                                   "infiniband.invariant.crc", "_ws.malformed",
                                                   "_ws.expert.severity"},
                                                  &status, &out);
        std::filesystem::remove(file);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        size_t k = 0;
        for (const std::vector<std::string>& f : rows)
        {
            if (k == sent.size())
            {
                break;
            }
            NS_TEST_EXPECT_MSG_EQ(f[0], std::to_string(unsigned(sent[k].op)), "opcode of packet " << k << ": " << out);
            NS_TEST_EXPECT_MSG_EQ(f[1], std::to_string(100 + k), "PSN of packet " << k);
            const bool hasReth = sent[k].op == IbOpcode::WriteFirst || sent[k].op == IbOpcode::ReadRequest;
            NS_TEST_EXPECT_MSG_EQ(f[2], std::string(hasReth ? "4096" : ""), "RETH of packet " << k);
            NS_TEST_EXPECT_MSG_EQ(f[3].empty(), !LayoutOf(sent[k].op).aeth, "AETH of packet " << k);
            NS_TEST_EXPECT_MSG_EQ((f[5].empty() && f[6].empty()), true, "nothing malformed in packet " << k << ": " << out);
            if (!f[4].empty())
            {
                // tshark shows the ICRC's four octets as a big-endian number: ours, sent low octet first.
                const uint32_t shown = uint32_t(std::stoul(f[4], nullptr, 0));
                NS_TEST_EXPECT_MSG_EQ(shown, __builtin_bswap32(icrcs[k]), "ICRC of packet " << k);
            }
            ++k;
        }
        NS_TEST_EXPECT_MSG_EQ(k, sent.size(), "every packet decoded: " << out);
    }
};

class RoceHeadersTestSuite : public TestSuite
{
  public:
    RoceHeadersTestSuite()
        : TestSuite("iwarp-roce-headers", UNIT)
    {
        AddTestCase(new BthTestCase, TestCase::QUICK);
        AddTestCase(new RethAethTestCase, TestCase::QUICK);
        AddTestCase(new IethDethTestCase, TestCase::QUICK);
        AddTestCase(new IcrcTestCase, TestCase::QUICK);
        AddTestCase(new IcrcCaptureTestCase, TestCase::QUICK);
        AddTestCase(new TsharkTestCase, TestCase::QUICK);
    }
};

RoceHeadersTestSuite g_roceHeadersTestSuite;

} // namespace
} // namespace ns3
