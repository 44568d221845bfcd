/*
 * Fuzz target sctp-ddp-control: the RFC 5043 adaptation (model/sctp-ddp: SctpDdpAssociation, SctpDdpConnection)
 * on a DUT server whose peer is a raw SCTP socket (test/sctp-ddp/sctp-ddp-fixture, RawClient) that sends whatever the
 * input says: session control (PPID 17: Initiate, Accept, Reject, Terminate, or anything else), DDP segments
 * (PPID 16) and other PPIDs, on any stream, with any DDP-SSN, ordered or not. Each Initiate that reaches the
 * DUT's ULP is accepted or rejected as the input says; an accepted session gets a DDP/RDMAP stack with a
 * remote-writable region and a few receive buffers, so segments can be placed and delivered.
 *
 * Input: a config octet (bit 0..3: receive buffers per session, bit 4: reject Initiates with odd streams),
 * then messages: a control octet (bits 0-3 stream, bit 4 unordered, bits 5-6 PPID 16 / 17 / 0 / a 32-bit one
 * from the input), the DDP-SSN (16 bits), a record of the body after the DDP-SSN, a gap (1/10 ms units).
 *
 * Invariants beyond "no crash":
 *  - every Terminate a session's RDMAP sends has a cause listed for the SCTP adaptation (no Layer 2: RFC 5043
 *    defines no LLP codes) and there is at most one per session (TerminateWatch);
 *  - receive completions are of posted buffers, once each, no longer than the buffer (CheckReceives);
 *  - no session reaches the ULP without an Initiate: Initiates seen <= PPID 17 messages sent.
 */
#include "fuzz-common.h"
#include "sctp-ddp/sctp-ddp-fixture.h"

using namespace ns3;
using namespace ns3::fuzz;
using namespace ns3::iwarptest;

namespace
{

constexpr uint32_t kStagW = 0xC101; ///< the remote-writable region of each accepted session

/** Answers the Initiates the DUT reported since `seen`: a stack (watched) with memory, then Accept or Reject. */
/** Posted receive buffers (id -> size) of each accepted session, by its index in the Initiates. */
using Posted = std::map<size_t, std::map<uint64_t, uint32_t>>;

void
Answer(SctpDdpFixture& f, size_t& seen, uint8_t config, TerminateWatch& terms, Posted& posted)
{
    for (; seen < f.server.initiates.size(); ++seen)
    {
        Ptr<SctpDdpConnection> c = f.server.initiates[seen].first;
        if ((config & 0x10) && (c->GetStream() & 1))
        {
            c->Reject({});
            continue;
        }
        DdpStack& st = f.Stack(f.server, c);
        terms.Watch(st.rdmap);
        st.memory->RegisterWithStag(kStagW, st.pd, 0x10000, 0x4000, MemAccess::kAll);
        st.memory->AttachStream(st.pd->GetId(), c->GetStream());
        for (uint32_t i = 0; i < (config & 0x0F); ++i)
        {
            const uint32_t n = 256u << (i % 5);
            if (st.rdmap->PostRecv(i, BufferWindow{ByteBuffer::CreateReal(n), 0, n}))
            {
                posted[seen][i] = n;
            }
        }
        c->Accept({});
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    Reader in(data, size);
    const uint8_t config = in.U8();
    TerminateWatch terms(TermLlp::Sctp);
    SctpDdpFixture f(SctpDdpFixture::RawClient());
    f.Start();
    f.Run(Seconds(0.1));

    size_t seen = 0;
    Posted posted;
    uint32_t controls = 0;
    while (!in.Empty() && f.client.socket)
    {
        const uint8_t ctl = in.U8();
        const uint16_t ssn = in.U16();
        uint32_t ppid = 0;
        switch ((ctl >> 5) & 3)
        {
        case 0:
            ppid = iwarp::kPpidDdpSegment;
            break;
        case 1:
            ppid = iwarp::kPpidDdpSessionCtl;
            break;
        case 2:
            ppid = 0;
            break;
        default:
            ppid = in.U32();
        }
        const Bytes body = in.Record();
        controls += ppid == iwarp::kPpidDdpSessionCtl;
        f.RawSend(f.client, ctl & 0x0F, ppid, ssn, body, (ctl & 0x10) != 0);
        f.Run(Simulator::Now() + MicroSeconds(100 * (1 + in.U8())));
        Answer(f, seen, config, terms, posted);
    }
    f.Run(Simulator::Now() + Seconds(1));
    Answer(f, seen, config, terms, posted);
    f.Run(Simulator::Now() + Seconds(1));

    FUZZ_CHECK(f.server.initiates.size() <= controls, "a session reached the ULP without an Initiate");
    for (size_t k = 0; k < f.server.initiates.size(); ++k)
    {
        for (const auto& st : f.server.stacks)
        {
            if (st->conn == f.server.initiates[k].first)
            {
                CheckReceives(st->completions, posted[k]);
            }
        }
    }
    return 0;
}
