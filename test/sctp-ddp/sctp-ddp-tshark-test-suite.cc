/*
 * iwarp-sctp-ddp-tshark: independent check of DDP over SCTP (RFC 5043) on the wire. Two ns-3 hosts on a
 * point-to-point link run the mixed traffic of S-04: a session opened with Private Data both ways, RDMA Writes,
 * Sends (one of zero length) and a Read with real payload; then each side terminates the session (S-14(b)). The
 * client's device is captured with the point-to-point helper, and tshark 4.0 decodes the capture with
 *   -o 'sctp.checksum:CRC 32c'            every packet's CRC32c verified (spec/README.md; the spelling
 *                                          sctp.checksum:crc32c is silently ignored by 4.0)
 *   -X lua_script:ddp-over-sctp.lua       the project's DDP-over-SCTP dissector (tools/wireshark), which
 *                                          hands PPID 16 user data after the DDP-SSN to Wireshark's iwarp dissector
 *   --disable-heuristic rpcrdma_iwarp     or RPC-over-RDMA claims short Sends
 * It must find every checksum good (the CRC32c of doc/sctp.md's common header), every PPID 16 DATA chunk
 * decoded as a DDP segment and every PPID 17 chunk as a session control message, each with the DDP-SSN, RDMAP
 * opcode, function code and Private Data length the simulation sent (SCTP-015/016/017/018/019), and no
 * malformed packet or expert error. What was sent comes from each end's ChunkTx trace (first transmissions,
 * by TSN).
 *
 * CMake compiles the path of the in-tree Lua file in (IWARP_DDP_SCTP_LUA); a missing or empty file fails the case.
 */
#include "sctp-ddp/sctp-ddp-fixture.h"
#include "support/tshark-pdml.h"

#include "ns3/test.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

const char* const kLua = IWARP_DDP_SCTP_LUA;

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

RdmapWorkRequest
Wr(uint64_t id, RdmapWrType type, const std::vector<uint8_t>& data)
{
    RdmapWorkRequest w;
    w.id = id;
    w.type = type;
    w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), data.size()));
    return w;
}

class SctpDdpTsharkTestCase : public TestCase
{
  public:
    SctpDdpTsharkTestCase()
        : TestCase("tshark with the DDP-over-SCTP Lua dissector: good CRC32c, every PPID 16 a DDP segment and "
                   "every PPID 17 a session control message as sent")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(ReadFile(kLua).empty(), false, "the Lua dissector " << kLua << " is missing or empty");
        const bool haveTshark = std::system("command -v tshark >/dev/null 2>&1") == 0;
        NS_TEST_ASSERT_MSG_EQ(haveTshark, true, "tshark is not installed (Debian package tshark)");
        const std::string prefix = CreateTempDirFilename("sctp-ddp-tshark");
        const std::string pcap = prefix + "-0-0.pcap";
        const uint16_t kStream = 3;
        const auto initiatePd = DdpPattern(40, 1);
        std::map<std::pair<bool, uint32_t>, DdpDataRecord> sent; // (from the client, TSN) -> chunk
        uint16_t clientPort = 0;
        {
            SctpDdpFixture::Options o;
            o.acceptPd = DdpPattern(12, 2);
            SctpDdpFixture f(o);
            f.EnablePcap(prefix);
            f.Start();
            f.Run(Seconds(0.1));
            DdpStack* a = f.Open(kStream, initiatePd);
            NS_TEST_ASSERT_MSG_NE(a, nullptr, "open");
            f.Run(Seconds(0.3));
            NS_TEST_ASSERT_MSG_EQ(f.server.stacks.size(), 1u, "accepted");
            DdpStack& b = *f.server.stacks[0];
            using namespace MemAccess;
            const auto big = DdpPattern(20000, 3);
            const auto small = DdpPattern(700, 4);
            auto target = b.memory->Register(b.pd, big.size() + small.size(), kRemoteWrite | kRemoteRead);
            auto sink = a->memory->Register(a->pd, big.size(), kLocalWrite);
            std::vector<Ptr<ByteBuffer>> rbufs;
            for (uint64_t k = 0; k < 3; ++k)
            {
                rbufs.push_back(ByteBuffer::CreateReal(4096));
                b.rdmap->PostRecv(100 + k, BufferWindow{rbufs.back(), 0, 4096});
            }
            uint64_t to = target->GetBaseTo();
            for (auto w : {Wr(1, RdmapWrType::Write, big), Wr(2, RdmapWrType::Write, small)})
            {
                w.remoteStag = target->GetStag();
                w.remoteTo = to;
                to += w.source->GetLength();
                a->rdmap->PostSend(w);
            }
            a->rdmap->PostSend(Wr(3, RdmapWrType::Send, DdpPattern(3000, 5)));
            a->rdmap->PostSend(Wr(4, RdmapWrType::Send, DdpPattern(100, 6)));
            a->rdmap->PostSend(Wr(5, RdmapWrType::Send, {}));
            RdmapWorkRequest r;
            r.id = 6;
            r.type = RdmapWrType::Read;
            r.remoteStag = target->GetStag();
            r.remoteTo = target->GetBaseTo();
            r.readLength = uint32_t(big.size());
            r.localStag = sink->GetStag();
            r.localTo = sink->GetBaseTo();
            a->rdmap->PostSend(r);
            f.Run(Seconds(1.5));
            NS_TEST_ASSERT_MSG_EQ(a->completions.size(), 6u, "every work request completed");
            NS_TEST_ASSERT_MSG_EQ(b.completions.size(), 3u, "three Sends received");
            NS_TEST_ASSERT_MSG_EQ((std::equal(small.begin(), small.end(), target->GetBuffer()->Data() + big.size())),
                                  true, "the Writes placed their octets");
            NS_TEST_ASSERT_MSG_EQ((std::equal(big.begin(), big.end(), sink->GetBuffer()->Data())), true,
                                  "the Read returned the first Write's octets");
            // Both ends terminate the session (S-14(b)): the client's ULP first, then the server's.
            a->rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
            f.Run(Seconds(1.8));
            b.rdmap->Close(DdpLowerLayer::CloseMode::Graceful);
            f.Run(Seconds(2.5));
            NS_TEST_ASSERT_MSG_EQ(a->conn->GetState(), SctpDdpConnection::CLOSED, "session over");
            NS_TEST_ASSERT_MSG_EQ(f.client.rtx + f.server.rtx, 0u, "no loss: every chunk once on the wire");
            for (const DdpEndSide* side : {&f.client, &f.server})
            {
                for (const auto& rec : side->dataTx)
                {
                    sent[{side == &f.client, rec.tsn}] = rec;
                }
            }
            Address local;
            f.client.socket->GetSockName(local);
            clientPort = InetSocketAddress::ConvertFrom(local).GetPort();
            // Leaving the block destroys the simulation, which closes (flushes) the pcap file.
        }

        const std::string cmd = std::string("tshark -r '") + pcap + "' -X 'lua_script:" + kLua + "'" +
                                " --disable-heuristic rpcrdma_iwarp -o 'sctp.checksum:CRC 32c' -T pdml 2>'" +
                                prefix + "-tshark.stderr'";
        std::cout << "  command: " << cmd << std::endl;
        int status = 0;
        const std::string pdml = RunCommand(cmd, &status);
        const std::string err = ReadFile(prefix + "-tshark.stderr");
        NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark failed: " << err);
        NS_TEST_EXPECT_MSG_EQ((err.find("Lua") == std::string::npos && err.find("lua") == std::string::npos), true,
                              "the Lua dissector loaded without complaint: " << err);
        Capture cap;
        ParsePdml(pdml, &cap); // malformed packets and expert errors, whatever the protocol
        std::vector<int> checksums;
        const std::vector<DecodedDataChunk> chunks = ParseSctpDataChunks(pdml, &checksums);

        NS_TEST_EXPECT_MSG_GT(checksums.size(), 20u, "tshark read the SCTP packets of " << pcap);
        NS_TEST_EXPECT_MSG_EQ(size_t(std::count(checksums.begin(), checksums.end(), 1)), checksums.size(),
                              "every SCTP checksum verified good (sctp.checksum.status 1)");
        NS_TEST_EXPECT_MSG_EQ(cap.problems.size(), 0u,
                              "no malformed packet, no expert error: " << (cap.problems.empty() ? "" : cap.problems[0]));

        std::map<uint32_t, uint32_t> sentPerPpid;
        for (const auto& [key, rec] : sent)
        {
            ++sentPerPpid[rec.ppid];
        }
        std::map<uint32_t, uint32_t> decodedPerPpid;
        std::map<int, uint32_t> opcodes;
        std::map<int, uint32_t> functions;
        uint32_t matched = 0;
        for (const DecodedDataChunk& c : chunks)
        {
            const auto it = sent.find({c.srcport == clientPort, c.tsn});
            NS_TEST_ASSERT_MSG_EQ((it != sent.end()), true, "frame " << c.frame << ": TSN " << c.tsn << " was sent");
            const DdpDataRecord& rec = it->second;
            NS_TEST_EXPECT_MSG_EQ(c.ppid, rec.ppid, "frame " << c.frame << ": PPID");
            NS_TEST_EXPECT_MSG_EQ(c.ssn, int(rec.Ssn()), "frame " << c.frame << ": DDP-SSN decoded");
            if (rec.ppid == sctpddp::kPpidSegment)
            {
                NS_TEST_EXPECT_MSG_EQ(c.segment, true, "frame " << c.frame << ": PPID 16 is a DDP Segment chunk");
                NS_TEST_EXPECT_MSG_EQ(c.opcode, (rec.data[3] & 0x0F), "frame " << c.frame << ": RDMAP opcode");
                decodedPerPpid[c.ppid] += c.segment && c.opcode >= 0;
                ++opcodes[c.opcode];
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(c.control, true, "frame " << c.frame << ": PPID 17 is session control");
                NS_TEST_EXPECT_MSG_EQ(c.function, ((rec.data[2] << 8) | rec.data[3]),
                                      "frame " << c.frame << ": function code");
                NS_TEST_EXPECT_MSG_EQ(c.pdLen, int(rec.data.size()) - 4,
                                      "frame " << c.frame << ": Private Data length");
                decodedPerPpid[c.ppid] += c.control && c.function >= 0;
                ++functions[c.function];
            }
            ++matched;
        }
        NS_TEST_EXPECT_MSG_EQ(size_t(matched), sent.size(), "every DATA chunk sent is in the capture, once");
        NS_TEST_EXPECT_MSG_EQ(decodedPerPpid[16], sentPerPpid[16], "every PPID 16 chunk decoded as a DDP segment");
        NS_TEST_EXPECT_MSG_EQ(decodedPerPpid[17], sentPerPpid[17], "every PPID 17 chunk decoded as control");
        NS_TEST_EXPECT_MSG_EQ(sentPerPpid[17], 4u, "Initiate, Accept and two Terminates");
        for (int fn : {1, 2})
        {
            NS_TEST_EXPECT_MSG_EQ(functions[fn], 1u, "one " << sctpddp::ToString(sctpddp::Function(fn)));
        }
        NS_TEST_EXPECT_MSG_EQ(functions[4], 2u, "a Terminate from each side");
        for (int op : {0, 1, 2, 3})
        {
            NS_TEST_EXPECT_MSG_GT(opcodes[op], 0u, "RDMAP opcode " << op << " decoded");
        }
        std::cout << "  tshark: " << checksums.size() << " SCTP packets, all CRC32c good; DATA chunks: "
                  << decodedPerPpid[16] << " of " << sentPerPpid[16] << " PPID 16 decoded as DDP segments (Write "
                  << opcodes[0] << ", Read Request " << opcodes[1] << ", Read Response " << opcodes[2] << ", Send "
                  << opcodes[3] << "), " << decodedPerPpid[17] << " of " << sentPerPpid[17]
                  << " PPID 17 as session control" << std::endl;
        if (IsStatusSuccess())
        {
            std::remove(pcap.c_str());
            std::remove((prefix + "-tshark.stderr").c_str());
        }
        else
        {
            std::cout << "  kept " << pcap << " for a look" << std::endl;
        }
    }
};

class SctpDdpTsharkTestSuite : public TestSuite
{
  public:
    SctpDdpTsharkTestSuite()
        : TestSuite("iwarp-sctp-ddp-tshark", UNIT)
    {
        AddTestCase(new SctpDdpTsharkTestCase(), TestCase::QUICK);
    }
};

SctpDdpTsharkTestSuite g_sctpDdpTsharkTestSuite;

} // namespace
