/*
 * Fuzz target ddp-rdmap-endpoint: raw DDP/RDMAP segments into a DdpEndpoint + RdmapEndpoint (model/ddp,
 * model/rdmap) through an LLP that keeps the DdpLowerLayer contract while the input chooses the arrival:
 * in order, held back and released later in any order, or handed up early as a placement hint (order
 * unknown, with a DdpLlpPositionTag) and again in order. The DUT has the memory of the conformance fixture F
 * (a remote read/write region, a read-only and a write-only one, one in another protection domain) and its
 * ULP posts receive buffers, Sends and RDMA Reads as the input says, so Read Responses have a Read to match.
 *
 * Input: a config octet (IRD/ORD 1..8, receive buffers 0..7 of 64..4096 octets), the MULPDU (16 bits,
 * at least 64), then operations, each an octet followed by its arguments (see Op below); segments are
 * records (16-bit length, octets).
 *
 * Invariants beyond "no crash" (ASan watches every placement into the registered buffers):
 *  - every Terminate the DUT sends has a cause listed in the checklist's error table, and it sends at most
 *    one (TerminateWatch);
 *  - the DUT never places more octets than it was given: the payload octets of the segments it reports
 *    Placed are at most those injected (a placement hint and its in-order copy move the octets once);
 *  - it delivers each message at most once, and only on an L=1 segment: successful receive completions are
 *    at most the untagged QN 0 segments with L=1 injected, each posted buffer completes at most once, and no
 *    completion exceeds its buffer. (A message's length is MO + length of its last segment, DDP-046, and the
 *    sink need not check that every octet arrived, DDP-038: so delivered lengths are not bounded by the
 *    octets injected.)
 */
#include "fuzz-common.h"

#include "ddp/ddp-endpoint.h"
#include "ddp/ddp-header.h"
#include "ddp/ddp-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/memory-registry.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <deque>
#include <map>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/** An LLP whose arrivals the fuzz input drives; what the DUT sends is counted and dropped. */
class FuzzLowerLayer : public DdpLowerLayer
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FuzzLowerLayer").SetParent<DdpLowerLayer>().SetGroupName("Iwarp");
        return tid;
    }

    uint32_t mulpdu{1500};
    uint64_t sent{0};

    uint32_t GetMulpdu() const override { return mulpdu; }
    bool SendSegment(Ptr<Packet>) override
    {
        ++sent;
        return true;
    }
    void Close(CloseMode) override {}
    void Establish() { NotifyEvent(Event::Established); }
    void Signal(Event e) { NotifyEvent(e); }
    /** Hands `segment` up at position `order` (or as a hint), tagged with `position`. */
    void Arrive(const Bytes& segment, uint64_t order, uint64_t position)
    {
        Ptr<Packet> p = Create<Packet>(segment.data(), uint32_t(segment.size()));
        p->AddPacketTag(DdpLlpPositionTag(position));
        NotifyReceive(p, order);
    }
};

/** The DUT's registered memory (as fixture F of the conformance suites). */
enum Stag : uint32_t
{
    kStagA = 0xA101,  ///< [0x10000, +0x10000) remote read and write
    kStagRO = 0xA202, ///< [0x20000, +0x1000) remote read only
    kStagWO = 0xA303, ///< [0x30000, +0x1000) remote write only
    kStagX = 0xA404,  ///< in another protection domain
    kStagL = 0xB001,  ///< local only: the sink of the DUT's own Reads
};

enum class Op : uint8_t
{
    InOrder,   ///< record: arrives now, next in the sender's order
    Hold,      ///< record: next in the sender's order, held back
    Release,   ///< octet: index of a held segment to hand up now
    Hint,      ///< record: next in order, handed up now as a placement hint, held for the in-order copy
    PostRecv,  ///< 16 bits: size of one more receive buffer
    PostRead,  ///< STag (32), TO (32), length (16): the DUT reads from the peer into its local region
    PostSend,  ///< 16 bits: a Send of that many octets
    Run,       ///< octet: advance simulated time by that many microseconds
    LlpEvent,  ///< octet: the LLP reports graceful close or connection loss
    Count,
};

struct Held
{
    Bytes segment;
    uint64_t order;
};

/**
 * What was injected: payload octets, and untagged QN 0 segments with L=1 (each may complete one
 * receive), as DDP decodes them (a segment shorter than its header carries nothing).
 */
struct Injected
{
    uint64_t octets{0};
    uint64_t lastSends{0};

    void Add(const Bytes& s)
    {
        const std::optional<DdpSegmentView> v = PeekDdpSegment(Create<Packet>(s.data(), s.size()));
        if (v)
        {
            octets += v->payloadLength;
            lastSends += !v->tagged && v->last && v->qn == iwarp::kQnSend;
        }
    }
};

void
CountPlaced(uint64_t* placed, Ptr<const Packet> segment)
{
    const std::optional<DdpSegmentView> v = PeekDdpSegment(segment);
    *placed += v ? v->payloadLength : 0;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    Reader in(data, size);
    const uint8_t config = in.U8();
    TerminateWatch terms(TermLlp::None);
    std::vector<RdmapCompletion> completions;
    std::map<uint64_t, uint32_t> recvSize; // posted receive buffers: id -> size
    {
        Ptr<FuzzLowerLayer> llp = CreateObject<FuzzLowerLayer>();
        llp->mulpdu = std::max<uint32_t>(64, in.U16());
        Ptr<MemoryRegistry> mem = CreateObject<MemoryRegistry>();
        Ptr<ProtectionDomain> pd = mem->AllocatePd();
        Ptr<ProtectionDomain> other = mem->AllocatePd();
        mem->AttachStream(pd->GetId(), 1);
        using namespace MemAccess;
        mem->RegisterWithStag(kStagA, pd, 0x10000, 0x10000, kAll);
        mem->RegisterWithStag(kStagRO, pd, 0x20000, 0x1000, kLocalRead | kLocalWrite | kRemoteRead);
        mem->RegisterWithStag(kStagWO, pd, 0x30000, 0x1000, kLocalRead | kLocalWrite | kRemoteWrite);
        mem->RegisterWithStag(kStagX, other, 0x40000, 0x1000, kAll);
        mem->RegisterWithStag(kStagL, pd, 0x0, 0x10000, kLocalRead | kLocalWrite);

        Ptr<DdpEndpoint> ddp = CreateObject<DdpEndpoint>();
        Ptr<RdmapEndpoint> rdmap = CreateObject<RdmapEndpoint>();
        const uint32_t irdOrd = 1 + (config & 7);
        rdmap->SetAttribute("Ird", UintegerValue(irdOrd));
        rdmap->SetAttribute("Ord", UintegerValue(irdOrd));
        ddp->SetLowerLayer(llp);
        rdmap->Attach(ddp, mem, StreamContext{pd->GetId(), 1});
        terms.Watch(rdmap);
        uint64_t placed = 0;
        ddp->TraceConnectWithoutContext("Placed", MakeBoundCallback(&CountPlaced, &placed));
        rdmap->SetCompletionCallback(MakeBoundCallback(
            +[](std::vector<RdmapCompletion>* v, const RdmapCompletion& c) { v->push_back(c); }, &completions));
        uint64_t nextId = 0;
        auto postRecv = [&](uint32_t bytes) {
            Ptr<ByteBuffer> b = ByteBuffer::CreateReal(bytes);
            if (rdmap->PostRecv(nextId, BufferWindow{b, 0, bytes}))
            {
                recvSize[nextId] = bytes;
            }
            ++nextId;
        };
        for (uint32_t i = 0; i < ((config >> 3) & 7); ++i)
        {
            postRecv(64u << (i % 7));
        }
        llp->Establish();
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();

        uint64_t order = 0;
        Injected injected;
        std::deque<Held> held;
        while (!in.Empty())
        {
            switch (Op(in.U8() % uint8_t(Op::Count)))
            {
            case Op::InOrder: {
                const Bytes s = in.Record();
                injected.Add(s);
                llp->Arrive(s, order, order);
                ++order;
                break;
            }
            case Op::Hold: {
                const Bytes s = in.Record();
                injected.Add(s);
                held.push_back({s, order++});
                break;
            }
            case Op::Release: {
                const uint8_t k = in.U8();
                if (!held.empty())
                {
                    const size_t i = k % held.size();
                    llp->Arrive(held[i].segment, held[i].order, held[i].order);
                    held.erase(held.begin() + long(i));
                }
                break;
            }
            case Op::Hint: {
                const Bytes s = in.Record();
                injected.Add(s);
                llp->Arrive(s, DdpLowerLayer::kOrderUnknown, order);
                held.push_back({s, order++});
                break;
            }
            case Op::PostRecv:
                postRecv(1 + in.U16() % 8192);
                break;
            case Op::PostRead: {
                RdmapWorkRequest wr;
                wr.id = nextId++;
                wr.type = RdmapWrType::Read;
                wr.remoteStag = in.U32();
                wr.remoteTo = in.U32();
                wr.localStag = kStagL;
                wr.localTo = 0;
                wr.readLength = in.U16();
                rdmap->PostSend(wr);
                break;
            }
            case Op::PostSend: {
                RdmapWorkRequest wr;
                wr.id = nextId++;
                wr.type = RdmapWrType::Send;
                wr.source = Create<PacketPayloadSource>(Create<Packet>(in.U16()));
                rdmap->PostSend(wr);
                break;
            }
            case Op::Run:
                Simulator::Stop(MicroSeconds(in.U8()));
                Simulator::Run();
                break;
            case Op::LlpEvent:
                llp->Signal(in.U8() & 1 ? DdpLowerLayer::Event::PeerGracefulClose
                                        : DdpLowerLayer::Event::ConnectionLost);
                break;
            case Op::Count:
                break;
            }
        }
        // The LLP is reliable: every held segment arrives in the end, in the sender's order.
        for (const Held& h : held)
        {
            llp->Arrive(h.segment, h.order, h.order);
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        FUZZ_CHECK(placed <= injected.octets, "placed more octets than were injected");
        const uint64_t delivered = CheckReceives(completions, recvSize);
        FUZZ_CHECK(delivered <= injected.lastSends, "more messages delivered than L=1 Send segments injected");
        rdmap->Dispose();
        ddp->Dispose();
        llp->Dispose();
    }
    Simulator::Destroy();
    return 0;
}
