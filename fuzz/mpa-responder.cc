/*
 * Fuzz target mpa-responder: an MPA responder (model/mpa/mpa-connection*) with its DDP/RDMAP stack, behind
 * real ns-3 TCP (test/mpa/mpa-two-node-fixture with no MPA initiator), whose peer is a plain TCP socket that sends
 * what the input says. The responder has a remote-writable region and receive buffers, so framed segments
 * can be placed and delivered.
 *
 * Input: a config octet, then records. Bit 0 of the config chooses the mode:
 *  - raw: every record goes onto the TCP stream as it is (the Request and the FPDUs, CRCs included, are the
 *    input's own), each after a gap of (record's first octet) microseconds;
 *  - framed: the first record is sent raw (the Request); once the responder's Reply is in, every further
 *    record is framed as a ULPDU by MpaFpduSender with the markers and CRC the Reply negotiated, so DDP and
 *    RDMAP behind a valid MPA stream see the input.
 * Bits 1-2 of the config: the responder wants markers, CRC (its MpaConnection attributes).
 *
 * Invariants beyond "no crash":
 *  - whatever the responder writes back starts with a well-formed Reply (never an error for TryParse);
 *  - the responder's ULP sees a Request only when the octets sent begin with a valid Request frame;
 *  - every set-up failure is an MPA cause (2/0/0x01-0x07), every Terminate a listed one, at most one;
 *  - receive completions are of posted buffers, once each, no longer than the buffer (CheckReceives).
 */
#include "fuzz-common.h"
#include "mpa/mpa-two-node-fixture.h"

#include "mpa/mpa-fpdu.h"
#include "mpa/mpa-setup-header.h"

using namespace ns3;
using namespace ns3::fuzz;
using namespace ns3::iwarptest;

namespace
{

constexpr uint32_t kStagW = 0xD101;

void
Collect(Bytes* got, Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        const size_t at = got->size();
        got->resize(at + p->GetSize());
        p->CopyData(got->data() + at, p->GetSize());
    }
}

void
Send(Ptr<Socket> s, const Bytes& b)
{
    if (!b.empty())
    {
        s->Send(b.data(), uint32_t(b.size()), 0);
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    Reader in(data, size);
    const uint8_t config = in.U8();
    const bool framed = config & 1;
    TerminateWatch terms(TermLlp::Mpa);
    MpaTwoNodeFixture::Options o;
    o.startInitiator = false;
    o.markers = (config & 2) != 0;
    o.crc = (config & 4) != 0;
    MpaTwoNodeFixture f(o);
    MpaEnd& dut = f.Responder();
    terms.Watch(dut.rdmap);
    dut.memory->RegisterWithStag(kStagW, dut.pd, 0x10000, 0x4000, MemAccess::kAll);
    dut.memory->AttachStream(dut.pd->GetId(), 1);
    std::map<uint64_t, uint32_t> posted;
    for (uint32_t i = 0; i < 4; ++i)
    {
        if (dut.rdmap->PostRecv(i, BufferWindow{ByteBuffer::CreateReal(1024), 0, 1024}))
        {
            posted[i] = 1024;
        }
    }

    Ptr<Socket> peer = f.InitiatorSocket();
    Bytes got;
    peer->SetRecvCallback(MakeBoundCallback(&Collect, &got));
    f.Run(MilliSeconds(1));
    peer->Connect(InetSocketAddress(f.ResponderAddress(), f.Port()));
    f.Run(MilliSeconds(2));

    Bytes sent; // every octet put on the stream, for the Request check
    const Bytes request = in.Record();
    Send(peer, request);
    sent = request;
    f.Run(MilliSeconds(2)); // the fixture runs for a time, not until one

    std::unique_ptr<MpaFpduSender> tx;
    if (framed)
    {
        MpaSetupFrame reply(MpaFrameKind::Reply);
        MpaSetupFrame req(MpaFrameKind::Request);
        size_t used = 0;
        iwarp::MpaError err{};
        if (MpaSetupFrame::TryParse(got.data(), got.size(), &reply, &used, &err) == MpaSetupFrame::ParseStatus::Ok &&
            MpaSetupFrame::TryParse(request.data(), request.size(), &req, &used, &err) ==
                MpaSetupFrame::ParseStatus::Ok &&
            !reply.GetReject())
        {
            tx = std::make_unique<MpaFpduSender>(reply.GetMarkers(), req.GetCrc() || reply.GetCrc());
        }
    }
    while (!in.Empty())
    {
        Bytes r = in.Record();
        const uint8_t gap = r.empty() ? 0 : r[0];
        if (tx)
        {
            r.resize(std::min<size_t>(r.size(), 4096));
            Ptr<Packet> fpdu = tx->Frame(Create<Packet>(r.data(), uint32_t(r.size())));
            r.resize(fpdu->GetSize());
            fpdu->CopyData(r.data(), r.size());
        }
        Send(peer, r);
        sent.insert(sent.end(), r.begin(), r.end());
        f.Run(MicroSeconds(1 + gap));
    }
    f.Run(Seconds(6)); // past the responder's set-up timeout (5 s)

    MpaSetupFrame back(MpaFrameKind::Reply);
    size_t used = 0;
    iwarp::MpaError err{};
    FUZZ_CHECK(MpaSetupFrame::TryParse(got.data(), got.size(), &back, &used, &err) !=
                   MpaSetupFrame::ParseStatus::Error,
               "the responder wrote something other than a Reply");
    MpaSetupFrame req(MpaFrameKind::Request);
    FUZZ_CHECK(!dut.gotPeerFrame || MpaSetupFrame::TryParse(sent.data(), sent.size(), &req, &used, &err) ==
                                        MpaSetupFrame::ParseStatus::Ok,
               "the ULP saw a Request that the stream does not begin with");
    for (const iwarp::ErrorCause& c : dut.setupFailures)
    {
        FUZZ_CHECK(IsListedTerminateCause(c, TermLlp::Mpa) && c.layer == 2, "set-up failed with " + c.ToString());
    }
    CheckReceives(dut.completions, posted);
    return 0;
}
