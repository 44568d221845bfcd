/*
 * Independent check of our MPA/DDP/RDMAP octets with Wireshark's dissectors (tshark 4.0, Debian
 * package `tshark`, installed by scripts/install-deps.sh): a two-node transfer (Write of 200 KB, a
 * Send, a Read of 200 KB) with CRC on is captured on the initiator's device, and tshark must decode
 * the MPA Request and Reply (RFC 5044 §7.1, RFC 6581), every FPDU with a good CRC32c (RFC 5044 §4.4),
 * the RDMAP opcodes of every DDP segment (RFC 5040 §4.2), with no malformed packet and no expert
 * error. spec/README.md describes the tshark options used.
 *
 * The FPDUs the sender framed are taken from the MpaConnection "FpduTx" trace of both ends (stream
 * offset, framed size, ULPDU length, opcode, L bit) and compared one by one, in order, with what
 * tshark decoded in each direction.
 *
 * With markers, Wireshark's iwarp_mpa dissector only decodes an FPDU that is alone in its TCP
 * segment and starts at the segment start (it places markers and the CRC from the segment's own
 * sequence numbers), so FPDU alignment (RFC 5044 §8) becomes visible: the marker cases check that
 * every segment-aligned FPDU decodes, with its FPDUPTRs as RFC 5044 §4.3 defines them, and, in a
 * case of its own, that every FPDU is aligned.
 */
#include "mpa/mpa-transfer.h"
#include "mpa/mpa-two-node-fixture.h"
#include "support/tshark-pdml.h"

#include "ns3/test.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

/** The options every tshark run here uses (spec/README.md). */
const char* const kTsharkOptions = "-o tcp.try_heuristic_first:TRUE --disable-heuristic rpcrdma_iwarp";

const char*
OpcodeName(int op)
{
    switch (op)
    {
    case 0:
        return "Write";
    case 1:
        return "Read Request";
    case 2:
        return "Read Response";
    case 3:
        return "Send";
    case 4:
        return "Send with Invalidate";
    case 5:
        return "Send with SE";
    case 6:
        return "Send with SE and Invalidate";
    case 7:
        return "Terminate";
    default:
        return "?";
    }
}

// ---------------------------------------------------------------------------------------------
// What our sender framed (FpduTx trace)
// ---------------------------------------------------------------------------------------------

struct SentFpdu
{
    uint64_t offset{0};   ///< stream offset (0 = first octet after the Request/Reply)
    uint32_t framed{0};   ///< octets on the stream, markers included
    uint32_t ulpduLen{0}; ///< ULPDU_Length
    int opcode{-1};       ///< RDMAP opcode (low 4 bits of the ULPDU's second octet)
    bool last{false};     ///< DDP L bit
};

/** One direction's FPDUs, deframed again to read their DDP/RDMAP control octets. */
struct SenderLog
{
    SenderLog(bool markers, bool crc)
        : rx(markers, crc)
    {
    }

    MpaFpduReceiver rx;
    std::vector<SentFpdu> fpdus;
    uint64_t pos{0};
    uint32_t undecodable{0};
};

void OnFpduTx(SenderLog* log, Ptr<const Packet> p);

void
OnFpduTx(SenderLog* log, Ptr<const Packet> p)
{
    SentFpdu s;
    s.offset = log->pos;
    s.framed = p->GetSize();
    log->pos += s.framed;
    log->rx.Push(p);
    Ptr<Packet> u;
    iwarp::MpaError err;
    if (log->rx.Next(&u, &err) == MpaFpduReceiver::RxResult::Done && u->GetSize() >= 2)
    {
        uint8_t b[2];
        u->CopyData(b, 2);
        s.ulpduLen = u->GetSize();
        s.opcode = b[1] & 0x0F;
        s.last = (b[0] & 0x40) != 0;
    }
    else
    {
        ++log->undecodable;
    }
    log->fpdus.push_back(s);
}

std::string
ToHex(const std::vector<uint8_t>& v)
{
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t b : v)
    {
        s += d[b >> 4];
        s += d[b & 15];
    }
    return s;
}

/** FPDUPTRs RFC 5044 §4.3 gives the markers of an FPDU at stream offset `s` of `framed` octets. */
std::vector<uint32_t>
ExpectedFpduptrs(uint64_t s, uint32_t framed)
{
    std::vector<uint32_t> v;
    // A marker at the FPDU's first octet is followed by ULPDU_Length: FPDUPTR 0, and the others
    // count from the ULPDU_Length field, 4 octets later.
    const uint64_t lengthField = (s % 512 == 0) ? s + 4 : s;
    for (uint64_t m = (s + 511) / 512 * 512; m < s + framed; m += 512)
    {
        v.push_back(uint32_t(m == s ? 0 : m - lengthField));
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

class MpaTsharkTest : public TestCase
{
  public:
    enum class Expect
    {
        AllFpdus,     ///< every FPDU the senders framed decodes
        AlignedFpdus, ///< every FPDU that is alone in its segment, starting at its start, decodes
        EveryFpduAligned, ///< the capture shows every FPDU starting a TCP segment (tshark decode not checked)
    };

    MpaTsharkTest(bool markers, bool alignFpdus, Expect expect, const std::string& name)
        : TestCase(name),
          m_markers(markers),
          m_align(alignFpdus),
          m_expect(expect)
    {
    }

  private:
    void DoRun() override;

    bool m_markers;
    bool m_align;
    Expect m_expect;
};

void
MpaTsharkTest::DoRun()
{
    // tshark is a dependency (scripts/install-deps.sh); its absence is a failure, not a skip.
    const bool haveTshark = std::system("command -v tshark >/dev/null 2>&1") == 0;
    if (!haveTshark)
    {
        NS_TEST_ASSERT_MSG_EQ(haveTshark,
                              true,
                              "tshark is not installed (not on PATH): this suite needs it; install the "
                              "dependencies with scripts/install-deps.sh (Debian package tshark)");
        return; // NS_TEST_ASSERT only returns under --stop-on-failure
    }

    const std::string prefix = CreateTempDirFilename(m_markers ? "tshark-markers" : "tshark-plain");
    const std::string pcap = prefix + "-0-0.pcap"; // the initiator's device: both directions
    std::remove(pcap.c_str());
    std::remove((prefix + "-1-0.pcap").c_str());

    MpaTwoNodeFixture::Options o;
    o.markers = m_markers;
    o.alignFpdus = m_align;
    o.crc = true;
    o.requestPd = Pattern(100, 1);
    o.replyPd = Pattern(10, 2);
    SenderLog ini(m_markers, true); // what the initiator framed (the responder asked for markers)
    SenderLog rsp(m_markers, true);
    // Rev 2 (the fixture's default) in peer-to-peer mode (MpaConnection's default): the initiator's
    // first FPDU is the RTR, which "FpduTx" reports like any other.
    NS_TEST_ASSERT_MSG_EQ(unsigned(o.revision), 2u, "Rev 2: the initiator sends an RTR first");
    {
        MpaTwoNodeFixture f(o);
        f.EnablePcap(prefix);
        f.Initiator().mpa->TraceConnectWithoutContext("FpduTx", MakeBoundCallback(&OnFpduTx, &ini));
        f.Responder().mpa->TraceConnectWithoutContext("FpduTx", MakeBoundCallback(&OnFpduTx, &rsp));
        f.Run(MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::ESTABLISHED, "set-up done");
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().mpa->SendsMarkers(), m_markers, "markers negotiated");
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().mpa->UsesCrc(), true, "CRC negotiated");
        Transfer t(f, 200000);
        f.Run(Seconds(2));
        NS_TEST_EXPECT_MSG_EQ(CountSuccess(f.Initiator().completions), 3u, "Write, Send, Read complete");
        NS_TEST_EXPECT_MSG_EQ(CountSuccess(f.Responder().completions), 1u, "the Send is received");
        NS_TEST_EXPECT_MSG_EQ(t.WriteExact(), true, "the Write placed every octet");
        NS_TEST_EXPECT_MSG_EQ(t.SendExact(), true, "the Send delivered every octet");
        NS_TEST_EXPECT_MSG_EQ(t.ReadExact(), true, "the Read returned every octet");
        NS_TEST_EXPECT_MSG_EQ(ini.undecodable + rsp.undecodable, 0u, "our own deframer reads every traced FPDU");
        // Leaving the block destroys the simulation, which closes (flushes) the pcap files.
    }

    const std::string cmd = std::string("tshark -r '") + pcap + "' " + kTsharkOptions +
                            " -T pdml -z expert,warn 2>'" + prefix + "-tshark.stderr'";
    std::cout << "  " << GetName() << "\n  command: " << cmd << std::endl;
    int status = 0;
    const std::string pdml = RunCommand(cmd, &status);
    if (status != 0)
    {
        NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark failed (see " << prefix << "-tshark.stderr): " << cmd);
        return;
    }
    Capture cap;
    ParsePdml(pdml, &cap);
    NS_TEST_ASSERT_MSG_GT(cap.packets, 100u, "tshark read the capture " << pcap);

    // --- MPA Request and Reply (RFC 5044 §7.1; RFC 6581 Rev 2 with IRD/ORD in the private data)
    NS_TEST_EXPECT_MSG_EQ(cap.requests, 1u, "one MPA Request decoded");
    NS_TEST_EXPECT_MSG_EQ(cap.replies, 1u, "one MPA Reply decoded");
    NS_TEST_ASSERT_MSG_EQ(cap.req.present && cap.rep.present, true, "Request and Reply decoded");
    for (const DecodedSetup* s : {&cap.req, &cap.rep})
    {
        const bool isReq = s == &cap.req;
        const std::vector<uint8_t>& pd = isReq ? o.requestPd : o.replyPd;
        const char* what = isReq ? "Request" : "Reply";
        NS_TEST_EXPECT_MSG_EQ(s->m, (m_markers ? 1 : 0), what << " M flag");
        NS_TEST_EXPECT_MSG_EQ(s->c, 1, what << " C flag");
        NS_TEST_EXPECT_MSG_EQ(s->r, 0, what << " R flag");
        NS_TEST_EXPECT_MSG_EQ(s->rev, 2u, what << " Rev");
        // tshark 4.0 knows RFC 5044 only: it shows RFC 6581's Enhanced bit as reserved (0x10).
        NS_TEST_EXPECT_MSG_EQ(s->res, 0x10u, what << " Enhanced bit (RFC 6581)");
        NS_TEST_EXPECT_MSG_EQ(s->pdLength, pd.size() + 4, what << " PD_Length = IRD/ORD + private data");
        const std::string pdHex = ToHex(pd);
        const bool pdMatches =
            s->pdHex.size() == 8 + pdHex.size() && s->pdHex.compare(8, pdHex.size(), pdHex) == 0;
        NS_TEST_EXPECT_MSG_EQ(pdMatches, true, what << " private data after IRD/ORD: " << s->pdHex);
        NS_TEST_EXPECT_MSG_EQ(s->seq, 1u, what << " is the first octet of its direction");
    }
    const uint32_t iniPort = cap.req.srcport;
    const uint32_t rspPort = cap.rep.srcport;
    const uint32_t iniBase = cap.req.seq + cap.req.len; // TCP seq of stream offset 0
    const uint32_t rspBase = cap.rep.seq + cap.rep.len;

    // --- FPDUs, direction by direction
    uint32_t framedTotal = 0;
    uint32_t alignedTotal = 0;
    uint32_t decodedTotal = 0;
    uint32_t goodCrc = 0;
    std::map<int, uint32_t> sentOps;
    std::map<int, uint32_t> decodedOps;
    std::string firstMisaligned;
    struct Dir
    {
        const char* name;
        const SenderLog* log;
        uint32_t port;
        uint32_t base;
    };
    for (const Dir& d : {Dir{"initiator->responder", &ini, iniPort, iniBase},
                         Dir{"responder->initiator", &rsp, rspPort, rspBase}})
    {
        const auto& segs = cap.segments[d.port];
        std::vector<const SentFpdu*> expected;
        uint32_t aligned = 0;
        for (const SentFpdu& s : d.log->fpdus)
        {
            ++sentOps[s.opcode];
            const bool isAligned = segs.count({uint32_t(d.base + s.offset), s.framed}) > 0;
            aligned += isAligned;
            if (!isAligned && firstMisaligned.empty())
            {
                // Which segment holds its first octet?
                std::ostringstream os;
                os << d.name << " FPDU #" << (&s - d.log->fpdus.data()) << " (" << OpcodeName(s.opcode)
                   << ", ULPDU " << s.ulpduLen << ") at stream offset " << s.offset << " (seq "
                   << d.base + s.offset << "), " << s.framed << " octets framed";
                for (const auto& g : segs)
                {
                    if (g.first <= d.base + s.offset && d.base + s.offset < g.first + g.second)
                    {
                        os << ", inside the segment seq " << g.first << " len " << g.second;
                    }
                }
                firstMisaligned = os.str();
            }
            if (m_expect == Expect::AllFpdus || isAligned)
            {
                expected.push_back(&s);
            }
        }
        if (m_expect == Expect::EveryFpduAligned)
        {
            // TCP segment boundaries as tshark read them from the pcap: every FPDU starts one and fills it.
            NS_TEST_EXPECT_MSG_EQ(aligned, d.log->fpdus.size(),
                                  d.name << ": FPDUs alone in a TCP segment (first that is not: " << firstMisaligned
                                         << ")");
            framedTotal += d.log->fpdus.size();
            alignedTotal += aligned;
            continue;
        }
        std::vector<const DecodedFpdu*> decoded;
        for (const DecodedFpdu& x : cap.fpdus)
        {
            if (x.srcport == d.port)
            {
                decoded.push_back(&x);
                ++decodedOps[x.opcode];
                goodCrc += x.crcGood;
            }
        }
        framedTotal += d.log->fpdus.size();
        alignedTotal += aligned;
        decodedTotal += decoded.size();
        std::cout << "  " << d.name << ": framed " << d.log->fpdus.size()
                  << (d.log == &ini ? " FPDUs (the RTR included)" : " FPDUs")
                  << ", segment-aligned "
                  << aligned << ", expected to decode " << expected.size() << ", tshark decoded "
                  << decoded.size() << std::endl;
        NS_TEST_EXPECT_MSG_EQ(decoded.size(), expected.size(), d.name << ": FPDUs tshark decoded");
        const std::size_t n = std::min(decoded.size(), expected.size());
        uint32_t mismatches = 0;
        for (std::size_t i = 0; i < n && mismatches < 5; ++i)
        {
            const DecodedFpdu& x = *decoded[i];
            const SentFpdu& s = *expected[i];
            const bool same = x.ulpduLen == s.ulpduLen && x.opcode == s.opcode && x.last == int(s.last) &&
                              x.crcGood && !x.crcUnchecked;
            NS_TEST_EXPECT_MSG_EQ(same,
                                  true,
                                  d.name << " decoded FPDU " << i << " (frame " << x.frame << "): ULPDU "
                                         << x.ulpduLen << " op " << x.opcode << " L " << x.last << " "
                                         << x.crcText << (x.crcUnchecked ? " CRC not checked" : "")
                                         << "; framed: ULPDU " << s.ulpduLen << " op " << s.opcode << " L "
                                         << s.last << " at stream offset " << s.offset);
            mismatches += !same;
            if (m_markers)
            {
                // Decoded alone in its segment: at the expected sequence number, with the
                // FPDUPTRs of RFC 5044 §4.3.
                NS_TEST_EXPECT_MSG_EQ(x.seq, d.base + s.offset, d.name << " FPDU " << i << " segment");
                const std::vector<uint32_t> ptrs = ExpectedFpduptrs(s.offset, s.framed);
                std::ostringstream got;
                for (uint32_t p : x.fpduptrs)
                {
                    got << p << " ";
                }
                NS_TEST_EXPECT_MSG_EQ((x.fpduptrs == ptrs),
                                      true,
                                      d.name << " FPDU " << i << " (frame " << x.frame
                                             << ") FPDUPTRs: " << got.str());
            }
        }
    }

    if (m_expect == Expect::EveryFpduAligned)
    {
        std::cout << "  every FPDU aligned: " << alignedTotal << " of " << framedTotal << std::endl;
        return;
    }
    // --- Opcodes: what tshark decoded against what was framed.
    std::cout << "  opcodes (framed / decoded):";
    for (int op : {0, 3, 1, 2})
    {
        std::cout << " " << OpcodeName(op) << " " << sentOps[op] << "/" << decodedOps[op] << ";";
    }
    std::cout << "\n  total: framed " << framedTotal << ", segment-aligned " << alignedTotal << ", decoded "
              << decodedTotal << ", good CRC " << goodCrc << std::endl;
    if (!firstMisaligned.empty())
    {
        std::cout << "  first FPDU not aligned to a TCP segment: " << firstMisaligned << std::endl;
    }
    NS_TEST_EXPECT_MSG_EQ(goodCrc, decodedTotal, "every decoded FPDU has iwarp_mpa.crc_check Good CRC32");
    for (int op : {0, 3, 1, 2})
    {
        NS_TEST_EXPECT_MSG_GT(sentOps[op], 0u, "the transfer framed a " << OpcodeName(op));
        if (m_expect == Expect::AllFpdus)
        {
            NS_TEST_EXPECT_MSG_EQ(decodedOps[op], sentOps[op], "tshark decoded every " << OpcodeName(op));
        }
    }
    if (m_expect == Expect::AllFpdus)
    {
        NS_TEST_EXPECT_MSG_EQ(decodedTotal, framedTotal, "tshark decoded every FPDU the senders framed");
    }
    else
    {
        NS_TEST_EXPECT_MSG_GT(alignedTotal, 1u, "some FPDUs are segment-aligned");
    }

    // --- Malformed packets, expert errors, and expert warnings other than RFC 6581's Rev 2 ones.
    for (const std::string& p : cap.problems)
    {
        std::cout << "  tshark: " << p << std::endl;
    }
    for (const auto& h : cap.payloadHex)
    {
        std::cout << "  frame " << h.first << " TCP payload: " << h.second << std::endl;
    }
    NS_TEST_EXPECT_MSG_EQ(cap.problems.size(), 0u, "no malformed packet, expert error or bad CRC");
    uint32_t unexpectedExpert = 0;
    for (const std::string& l : cap.expertSummary)
    {
        const bool heading = l.find("=====") != std::string::npos || l.find("Frequency") != std::string::npos ||
                             l.rfind("Warns (", 0) == 0;
        // tshark 4.0 predates RFC 6581: a Rev 2 Request with the Enhanced bit draws these two.
        const bool rev2 = l.find("Res field is NOT set to zero as required by RFC 5044") != std::string::npos ||
                          l.find("Rev field is NOT set to one as required by RFC 5044") != std::string::npos;
        if (!heading && !rev2)
        {
            std::cout << "  tshark expert: " << l << std::endl;
            ++unexpectedExpert;
        }
    }
    NS_TEST_EXPECT_MSG_EQ(unexpectedExpert, 0u, "no expert warning or error beyond the Rev 2 ones");

    if (!IsStatusFailure())
    {
        std::remove(pcap.c_str());
        std::remove((prefix + "-1-0.pcap").c_str());
        std::remove((prefix + "-tshark.stderr").c_str());
    }
    else
    {
        std::cout << "  capture kept: " << pcap << std::endl;
    }
}

class MpaTsharkSuite : public TestSuite
{
  public:
    MpaTsharkSuite()
        : TestSuite("iwarp-mpa-tshark", UNIT)
    {
        AddTestCase(new MpaTsharkTest(false,
                                      true,
                                      MpaTsharkTest::Expect::AllFpdus,
                                      "markers off: tshark decodes the Request, the Reply and every FPDU "
                                      "with a good CRC and the framed opcodes"),
                    TestCase::QUICK);
        // Wireshark 4.0 counts the markers of a segment as (length - first marker offset) / 512 + 1,
        // which includes a marker sitting exactly at the segment's end (the next FPDU's leading
        // marker): an aligned FPDU that ends on the 512-octet grid is then taken for a longer one and
        // its reassembly never realigns. With AlignFpdus=false (TCP packs FPDUs back to back) the
        // segment-aligned FPDUs are ones Wireshark can count, so tshark is checked there, and the
        // alignment itself is checked from the capture's segment boundaries.
        AddTestCase(new MpaTsharkTest(true,
                                      false,
                                      MpaTsharkTest::Expect::AlignedFpdus,
                                      "markers on, FPDUs packed: tshark decodes the Request, the Reply and every "
                                      "segment-aligned FPDU with a good CRC and RFC 5044 FPDUPTRs"),
                    TestCase::QUICK);
        AddTestCase(new MpaTsharkTest(true,
                                      true,
                                      MpaTsharkTest::Expect::EveryFpduAligned,
                                      "markers on, AlignFpdus: every FPDU starts and fills a TCP segment of the "
                                      "capture (RFC 5044 FPDU alignment)"),
                    TestCase::QUICK);
    }
};

MpaTsharkSuite g_mpaTsharkSuite;

} // namespace
