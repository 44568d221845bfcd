/*
 * Fuzz target mpa-stream: MPA FPDU framing (model/mpa/mpa-fpdu.*) with the TCP byte stream cut anywhere.
 *
 * Input: flags (bit 0 markers, bit 1 CRC), a record of raw stream octets, a count and (length, seed) pairs of
 * ULPDUs to frame, then split sizes (one octet each: 1..256 stream octets per Push) for the rest.
 *
 * Invariants beyond "no crash":
 *  - round trip: ULPDUs framed by MpaFpduSender and pushed into MpaFpduReceiver in the input's splits come
 *    out identical, in order, with no error and nothing left over, at the same stream offset;
 *  - split invariance: the raw octets deframed in one Push and in the input's splits give the same ULPDUs, the
 *    same final result (NeedMore or the same error) and the same stream offset;
 *  - the two parsers agree: when MpaFpduReceiver::ParseAlignedFpdus says the raw octets are exactly a run of
 *    FPDUs, the streaming receiver finds the same ULPDUs and consumes every octet;
 *  - no ULPDU is longer than the receiver's maximum, and errors are sticky.
 */
#include "fuzz-common.h"

#include "mpa/mpa-fpdu.h"

#include "ns3/packet.h"

using namespace ns3;
using namespace ns3::fuzz;
using Rx = MpaFpduReceiver::RxResult;

namespace
{

struct Deframed
{
    std::vector<Bytes> ulpdus;
    Rx last{Rx::NeedMore};
    iwarp::MpaError error{iwarp::MpaError::CrcError};
    uint64_t offset{0};
};

/** Drains every ULPDU the receiver has; keeps the last result. */
void
Drain(MpaFpduReceiver& rx, Deframed& out, uint32_t maxUlpdu)
{
    Ptr<Packet> p;
    Rx r;
    while ((r = rx.Next(&p, &out.error)) == Rx::Done)
    {
        FUZZ_CHECK(p->GetSize() <= maxUlpdu, "ULPDU longer than the receiver's maximum");
        out.ulpdus.push_back(PacketOctets(p));
    }
    if (r == Rx::Error)
    {
        iwarp::MpaError again;
        FUZZ_CHECK(rx.Next(&p, &again) == Rx::Error && again == out.error, "an MPA error is sticky");
    }
    out.last = r;
    out.offset = rx.GetStreamOffset();
}

/** Pushes `stream` into a new receiver in pieces whose sizes come from `splits` (cycled), draining after each. */
Deframed
Deframe(const Bytes& stream, const Bytes& splits, bool markers, bool crc, uint32_t maxUlpdu)
{
    MpaFpduReceiver rx(markers, crc, maxUlpdu);
    Deframed out;
    size_t at = 0;
    for (size_t k = 0; at < stream.size(); ++k)
    {
        const size_t n = splits.empty() ? stream.size() : std::min<size_t>(1 + splits[k % splits.size()],
                                                                            stream.size() - at);
        rx.Push(stream.data() + at, n);
        at += n;
        Drain(rx, out, maxUlpdu);
    }
    Drain(rx, out, maxUlpdu);
    return out;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    Reader in(data, size);
    const uint8_t flags = in.U8();
    const bool markers = flags & 1;
    const bool crc = flags & 2;
    const Bytes raw = in.Record();
    // ULPDUs to frame: at most 16, each at most 4096 octets (Frame() requires FPDUPTR to fit 16 bits).
    std::vector<Bytes> ulpdus(in.U8() % 17);
    for (Bytes& u : ulpdus)
    {
        u.resize(in.U16() % 4097);
        const uint8_t seed = in.U8();
        for (size_t i = 0; i < u.size(); ++i)
        {
            u[i] = uint8_t(seed + i * 13);
        }
    }
    const Bytes splits = in.Rest();

    // Round trip through the sender.
    MpaFpduSender tx(markers, crc);
    Bytes stream;
    for (const Bytes& u : ulpdus)
    {
        const Bytes fpdu = PacketOctets(tx.Frame(Create<Packet>(u.data(), u.size())));
        stream.insert(stream.end(), fpdu.begin(), fpdu.end());
    }
    FUZZ_CHECK(tx.GetStreamOffset() == stream.size(), "the sender's offset counts every framed octet");
    const Deframed back = Deframe(stream, splits, markers, crc, iwarp::kMpaMaxUlpduLength);
    FUZZ_CHECK(back.last == Rx::NeedMore, "a framed stream deframes without error");
    FUZZ_CHECK(back.ulpdus == ulpdus, "the ULPDUs come back as framed");
    FUZZ_CHECK(back.offset == stream.size(), "every framed octet is consumed");

    // The raw octets: split invariance, and agreement with the aligned-segment parser.
    const uint32_t maxUlpdu = 1 + (flags >> 2) * 1024u;
    const Deframed whole = Deframe(raw, {}, markers, crc, maxUlpdu);
    const Deframed cut = Deframe(raw, splits, markers, crc, maxUlpdu);
    FUZZ_CHECK(whole.ulpdus == cut.ulpdus, "the same ULPDUs whatever the splits");
    FUZZ_CHECK(whole.last == cut.last && (whole.last != Rx::Error || whole.error == cut.error),
               "the same outcome whatever the splits");
    FUZZ_CHECK(whole.offset == cut.offset, "the same octets consumed whatever the splits");

    std::vector<Bytes> aligned;
    const bool exact = MpaFpduReceiver::ParseAlignedFpdus(raw.data(), raw.size(), 0, markers, crc, &aligned);
    size_t alignedOctets = 0;
    for (const Bytes& u : aligned)
    {
        alignedOctets += u.size();
    }
    FUZZ_CHECK(alignedOctets <= raw.size(), "aligned ULPDUs are taken from the segment");
    if (exact)
    {
        const Deframed all = Deframe(raw, {}, markers, crc, iwarp::kMpaMaxUlpduLength);
        FUZZ_CHECK(all.ulpdus == aligned, "the aligned parser and the stream receiver agree");
        FUZZ_CHECK(all.last == Rx::NeedMore && all.offset == raw.size(), "an exact run is consumed whole");
    }
    return 0;
}
