/*
 * Writes the seed corpora of the protocol fuzz targets (fuzz/corpus/<target>/): small valid inputs made by the
 * project's own serializers (MpaFpduSender, MpaSetupFrame, the DDP and RDMAP headers) and packets the SCTP
 * model really sends (captured from a two-node run), laid out in each target's input format (see the comment
 * at the top of each target). The scenario-loader and graphml seeds are scenario and GraphML files, kept as
 * they are in fuzz/corpus/.
 *
 *   build-fuzz/fuzz/make-seeds fuzz/corpus       (scripts/fuzz.sh seeds does this)
 */
#include "common/time-resolution.h"
#include "fuzz-common.h"
#include "sctp/sctp-two-node-fixture.h"

#include "ddp/ddp-header.h"
#include "mpa/mpa-fpdu.h"
#include "mpa/mpa-setup-header.h"
#include "rdmap/rdmap-header.h"
#include "sctp/sctp-packet.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;
using namespace ns3::fuzz;
using namespace ns3::iwarptest;

namespace
{

std::string g_out;

void
Write(const std::string& target, const std::string& name, const Bytes& b)
{
    const std::string dir = g_out + "/" + target;
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/" + name, std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                            std::streamsize(b.size()));
}

Bytes
Cat(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Bytes
Pattern(size_t n, uint8_t seed)
{
    Bytes b(n);
    for (size_t i = 0; i < n; ++i)
    {
        b[i] = uint8_t(seed + i * 7);
    }
    return b;
}

// ---------------------------------------------------------------- DDP / RDMAP segments

/** `payload` behind `header` (any of the project's Header classes). */
Bytes
Behind(const Header& header, const Bytes& payload)
{
    Ptr<Packet> p = Create<Packet>(payload.data(), uint32_t(payload.size()));
    p->AddHeader(header);
    return PacketOctets(p);
}

Bytes
Tagged(iwarp::Opcode op, uint32_t stag, uint64_t to, const Bytes& payload, bool last = true)
{
    DdpTaggedHeader h;
    h.SetLast(last);
    h.SetRsvdUlp(RdmapControl::Make(op));
    h.SetStag(stag);
    h.SetTo(to);
    return Behind(h, payload);
}

Bytes
Untagged(iwarp::Opcode op, uint32_t qn, uint32_t msn, uint32_t mo, const Bytes& payload, bool last = true)
{
    DdpUntaggedHeader h;
    h.SetLast(last);
    h.SetRsvdUlp0(RdmapControl::Make(op));
    h.SetQn(qn);
    h.SetMsn(msn);
    h.SetMo(mo);
    return Behind(h, payload);
}

Bytes
ReadRequest(uint32_t msn, uint32_t srcStag, uint64_t srcTo, uint32_t size)
{
    RdmapReadRequestHeader rr;
    rr.sinkStag = 0xF00D;
    rr.sinkTo = 0x5000;
    rr.readSize = size;
    rr.srcStag = srcStag;
    rr.srcTo = srcTo;
    return Untagged(iwarp::Opcode::ReadRequest, iwarp::kQnReadRequest, msn, 0, rr.ToBytes());
}

/** ddp-rdmap-endpoint: config (IRD/ORD 4, 4 receive buffers), MULPDU 1500, then operations. */
void
DdpSeeds()
{
    const std::string t = "ddp-rdmap-endpoint";
    auto start = []() {
        Bytes b{uint8_t(3 | (4 << 3))};
        PutU16(b, 1500);
        return b;
    };
    auto op = [](Bytes& b, uint8_t code, const Bytes& segment) {
        b.push_back(code);
        PutRecord(b, segment);
    };
    constexpr uint32_t kA = 0xA101;
    Bytes b = start();
    op(b, 0, Tagged(iwarp::Opcode::RdmaWrite, kA, 0x10000, Pattern(100, 1)));
    op(b, 0, Untagged(iwarp::Opcode::Send, 0, 1, 0, Pattern(64, 2)));
    Write(t, "write-send", b);

    b = start(); // a two-segment Send whose segments arrive swapped
    op(b, 1, Untagged(iwarp::Opcode::Send, 0, 1, 0, Pattern(40, 3), false));
    op(b, 1, Untagged(iwarp::Opcode::Send, 0, 1, 40, Pattern(24, 4)));
    b.insert(b.end(), {2, 1, 2, 0});
    Write(t, "send-reordered", b);

    b = start(); // a Write handed up early as a placement hint, then in order
    op(b, 3, Tagged(iwarp::Opcode::RdmaWrite, kA, 0x10100, Pattern(200, 5)));
    op(b, 0, Untagged(iwarp::Opcode::SendSE, 0, 1, 0, Pattern(8, 6)));
    b.insert(b.end(), {2, 0});
    Write(t, "write-hint", b);

    b = start(); // the peer reads region A; then sends a Terminate
    op(b, 0, ReadRequest(1, kA, 0x10000, 3000));
    b.insert(b.end(), {7, 200});
    RdmapTerminateHeader term;
    term.cause = iwarp::ErrorCause::Rdma(iwarp::RdmapEType::RemoteOperation, iwarp::RdmapCode::UnexpectedOpcode);
    op(b, 0, Untagged(iwarp::Opcode::Terminate, iwarp::kQnTerminate, 1, 0, Behind(term, {})));
    Write(t, "read-request-terminate", b);

    b = start(); // the DUT reads 100 octets of the peer's STag 0x77; the Response comes back
    b.push_back(5);
    PutU32(b, 0x77);
    PutU32(b, 0x2000);
    PutU16(b, 100);
    b.insert(b.end(), {7, 10});
    op(b, 0, Tagged(iwarp::Opcode::ReadResponse, 0xB001, 0, Pattern(100, 7)));
    Write(t, "read-response", b);
}

// ---------------------------------------------------------------- MPA

Bytes
Frame(const MpaSetupFrame& f)
{
    return Behind(f, {});
}

MpaSetupFrame
Request(bool enhanced, bool crc, bool markers, const Bytes& pd)
{
    MpaSetupFrame f(MpaFrameKind::Request);
    f.SetRev(enhanced ? iwarp::kMpaRev2 : iwarp::kMpaRev1);
    f.SetCrc(crc);
    f.SetMarkers(markers);
    if (enhanced)
    {
        f.SetEnhanced(true);
        f.SetIrd(4);
        f.SetOrd(4);
    }
    f.SetPrivateData(pd);
    return f;
}

void
MpaSeeds()
{
    Write("mpa-setup", "request-rev1", Frame(Request(false, true, false, {})));
    Write("mpa-setup", "request-rev2-pd", Frame(Request(true, true, true, Pattern(5, 'h'))));
    MpaSetupFrame reply(MpaFrameKind::Reply);
    reply.SetRev(iwarp::kMpaRev2);
    reply.SetCrc(true);
    reply.SetEnhanced(true);
    reply.SetIrd(2);
    reply.SetOrd(2);
    reply.SetPeerToPeer(true);
    reply.SetRtrWrite(true);
    Write("mpa-setup", "reply-p2p", Frame(reply));
    MpaSetupFrame reject(MpaFrameKind::Reply);
    reject.SetReject(true);
    reject.SetPrivateData(Pattern(16, 'r'));
    Write("mpa-setup", "reply-reject", Frame(reject));

    // mpa-stream: flags, raw = three FPDUs framed with those flags, the same three ULPDUs, split sizes.
    const std::vector<uint16_t> lens{5, 1000, 100};
    for (uint8_t flags = 0; flags < 4; ++flags)
    {
        MpaFpduSender tx(flags & 1, flags & 2);
        Bytes raw;
        for (uint16_t n : lens)
        {
            raw = Cat(raw, PacketOctets(tx.Frame(Create<Packet>(Pattern(n, uint8_t(n)).data(), n))));
        }
        Bytes b{uint8_t(flags | (2 << 2))};
        PutRecord(b, raw);
        b.push_back(uint8_t(lens.size()));
        for (uint16_t n : lens)
        {
            PutU16(b, n);
            b.push_back(uint8_t(n));
        }
        b.insert(b.end(), {0, 7, 255, 16, 3});
        Write("mpa-stream", "three-fpdus-flags" + std::to_string(flags), b);
    }

    // mpa-responder: raw (a Request, then nothing) and framed (a Request, then segments).
    Bytes raw{0};
    PutRecord(raw, Frame(Request(true, true, false, {})));
    Write("mpa-responder", "raw-request", raw);
    for (uint8_t config : {1, 1 | 2, 1 | 4})
    {
        Bytes b{config};
        PutRecord(b, Frame(Request(true, config != 1, false, Pattern(3, 'p'))));
        PutRecord(b, Tagged(iwarp::Opcode::RdmaWrite, 0, 0, {})); // the RTR the Rev 2 responder waits for
        PutRecord(b, Untagged(iwarp::Opcode::Send, 0, 1, 0, Pattern(300, 9)));
        PutRecord(b, Tagged(iwarp::Opcode::RdmaWrite, 0xD101, 0x10000, Pattern(500, 10)));
        PutRecord(b, ReadRequest(1, 0xD101, 0x10000, 64));
        Write("mpa-responder", "framed-config" + std::to_string(config), b);
    }
}

// ---------------------------------------------------------------- SCTP

/** Every packet the two SCTP nodes send in a short exchange that ends with `abort` or a shutdown. */
std::vector<std::pair<uint32_t, Bytes>>
CapturedSctp(bool abort)
{
    using Captured = std::vector<std::pair<uint32_t, Bytes>>; // (receiving node, octets)
    struct Tap
    {
        Captured* out;
        uint32_t to;
    };
    Captured out;
    Tap taps[2] = {{&out, 1}, {&out, 0}};
    SctpTwoNodeFixture f({});
    for (uint32_t i = 0; i < 2; ++i)
    {
        f.L4(i)->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(+[](Tap* t, Ptr<const Packet> p, Ipv4Address, Ipv4Address) {
                t->out->emplace_back(t->to, PacketOctets(p));
            }, &taps[i]));
    }
    f.Start();
    Simulator::Schedule(MilliSeconds(50), [&f]() { f.QueueMessages(true, 3, 300, 2, 1); });
    Simulator::Schedule(MilliSeconds(200), [&f, abort]() {
        if (abort)
        {
            f.client->Abort();
        }
        else
        {
            f.client->Close();
        }
    });
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    return out;
}

void
SctpSeeds()
{
    for (bool abort : {false, true})
    {
        const auto packets = CapturedSctp(abort);
        Bytes assoc{0};
        for (size_t k = 0; k < packets.size(); ++k)
        {
            Write("sctp-packet", std::string(abort ? "abort-run-" : "shutdown-run-") + std::to_string(k),
                  packets[k].second);
            // To the node it was sent to, ports, tag and checksum put right; 0.1 ms later the next.
            assoc.push_back(uint8_t((packets[k].first == 1 ? 1 : 0) | 2 | 4 | 8));
            PutRecord(assoc, packets[k].second);
            assoc.push_back(0);
        }
        Write("sctp-association", abort ? "replay-abort-run" : "replay-shutdown-run", assoc);
    }

    // sctp-ddp-control: an Initiate on stream 1, a Send and a Write on it, then a session Terminate.
    auto msg = [](Bytes& b, uint8_t ctl, uint16_t ssn, const Bytes& body) {
        b.push_back(ctl);
        PutU16(b, ssn);
        PutRecord(b, body);
        b.push_back(10);
    };
    const uint8_t ctlPpid17 = (1 << 5) | 0x10; // PPID 17, unordered (as RFC 5043 sends everything)
    Bytes b{4};
    msg(b, ctlPpid17 | 1, 0, {0, 1});
    msg(b, 0x10 | 1, 1, Untagged(iwarp::Opcode::Send, 0, 1, 0, Pattern(200, 11)));
    msg(b, 0x10 | 1, 2, Tagged(iwarp::Opcode::RdmaWrite, 0xC101, 0x10000, Pattern(100, 12)));
    msg(b, ctlPpid17 | 1, 3, {0, 4});
    Write("sctp-ddp-control", "initiate-send-write-terminate", b);
    b = Bytes{0x10 | 2};
    msg(b, ctlPpid17 | 2, 0, {0, 1, 'p', 'd'});
    msg(b, ctlPpid17 | 3, 0, {0, 1});
    Write("sctp-ddp-control", "initiate-rejected-and-accepted", b);
}

} // namespace

int
main(int argc, char** argv)
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    if (argc != 2)
    {
        std::cerr << "usage: make-seeds CORPUS_DIR\n";
        return 2;
    }
    Init();
    g_out = argv[1];
    DdpSeeds();
    MpaSeeds();
    SctpSeeds();
    return 0;
}
