/*
 * Fuzz target mpa-setup: MPA Request/Reply frames (model/mpa/mpa-setup-header.*) from an untrusted peer.
 *
 * The input is read twice: as the octets a peer sent (parsed as a Request and as a Reply), and as fields
 * (flags, Rev, IRD word, ORD word, a private-data record) for a frame built with the setters.
 *
 * Invariants beyond "no crash":
 *  - a frame TryParse accepts re-serializes to exactly the octets it consumed (20 + PD_Length), and
 *    Deserialize (which picks the kind from the key) consumes the same;
 *  - incremental parsing: every shorter prefix of an accepted frame is NeedMore; for a rejected input there
 *    is one length from which on every prefix is an Error and below which every prefix is NeedMore (a field
 *    is judged as soon as its octets are there, and more octets never turn an error into a frame);
 *  - a frame built with the setters either parses back with the same fields or is refused as a whole (raw
 *    flags may hold reserved bits); it is never accepted with different contents.
 */
#include "fuzz-common.h"

#include "mpa/mpa-setup-header.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"

using namespace ns3;
using namespace ns3::fuzz;
using Status = MpaSetupFrame::ParseStatus;

namespace
{

Bytes
Serialized(const MpaSetupFrame& f)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(f);
    return PacketOctets(p);
}

/** Parses `data` as a frame of `kind` and checks the invariants; returns the status. */
Status
CheckParse(MpaFrameKind kind, const uint8_t* data, size_t size)
{
    MpaSetupFrame f;
    size_t consumed = 0;
    iwarp::MpaError err{};
    const Status s = MpaSetupFrame::TryParse(kind, data, size, &f, &consumed, &err);
    if (s == Status::Ok)
    {
        FUZZ_CHECK(consumed == iwarp::kMpaSetupHdrLen + f.GetPdLength() && consumed <= size,
                   "a frame consumes its header and PD_Length octets");
        FUZZ_CHECK(f.GetKind() == kind, "the frame has the kind asked for");
        const Bytes again = Serialized(f);
        FUZZ_CHECK(again == Bytes(data, data + consumed), "an accepted frame re-serializes identically");
        FUZZ_CHECK(f.GetSerializedSize() == consumed, "GetSerializedSize is what was consumed");
    }
    else
    {
        FUZZ_CHECK(consumed == 0, "nothing consumed unless Ok");
        FUZZ_CHECK(s != Status::Error || err == iwarp::MpaError::InvalidRequestReply,
                   "a bad frame is InvalidRequestReply (0x04)");
    }
    // Prefixes: NeedMore below the judging length, Error from it on (a frame: NeedMore below its length).
    const size_t upto = s == Status::Ok ? consumed : std::min<size_t>(size, 600);
    bool seenError = false;
    for (size_t len = 0; len < upto; ++len)
    {
        MpaSetupFrame g;
        size_t c = 0;
        iwarp::MpaError e{};
        const Status ps = MpaSetupFrame::TryParse(kind, data, len, &g, &c, &e);
        FUZZ_CHECK(ps != Status::Ok, "no shorter prefix is a whole frame");
        FUZZ_CHECK(!seenError || ps == Status::Error, "more octets never undo an error");
        seenError = ps == Status::Error;
    }
    FUZZ_CHECK(!seenError || s == Status::Error, "an error in a prefix stays an error");
    return s;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    const Status asRequest = CheckParse(MpaFrameKind::Request, data, size);
    const Status asReply = CheckParse(MpaFrameKind::Reply, data, size);
    FUZZ_CHECK(asRequest != Status::Ok || asReply != Status::Ok, "one key cannot be both a Request and a Reply");

    // Deserialize takes the kind from the key.
    Buffer buf;
    buf.AddAtStart(uint32_t(size));
    buf.Begin().Write(data, uint32_t(size));
    MpaSetupFrame d;
    const uint32_t took = d.Deserialize(buf.Begin());
    if (asRequest == Status::Ok || asReply == Status::Ok)
    {
        FUZZ_CHECK(took == iwarp::kMpaSetupHdrLen + d.GetPdLength(), "Deserialize consumes the frame");
        FUZZ_CHECK(Serialized(d) == Bytes(data, data + took), "Deserialize reads what TryParse reads");
    }
    else
    {
        FUZZ_CHECK(took == 0, "Deserialize refuses what TryParse refuses");
    }

    // A frame from the setters (within their documented preconditions).
    Reader in(data, size);
    MpaSetupFrame f(in.U8() & 1 ? MpaFrameKind::Reply : MpaFrameKind::Request);
    f.SetFlags(in.U8());
    f.SetRev(in.U8());
    f.SetIrdWord(in.U16());
    f.SetOrdWord(in.U16());
    Bytes pd = in.Record();
    pd.resize(std::min<size_t>(pd.size(), iwarp::kMpaMaxPrivateData - (f.IsEnhanced() ? iwarp::kMpaIrdOrdLen : 0)));
    f.SetPrivateData(pd);
    const Bytes wire = Serialized(f);
    MpaSetupFrame back;
    size_t consumed = 0;
    iwarp::MpaError err{};
    if (MpaSetupFrame::TryParse(f.GetKind(), wire.data(), wire.size(), &back, &consumed, &err) == Status::Ok)
    {
        FUZZ_CHECK(consumed == wire.size(), "the whole frame is consumed");
        FUZZ_CHECK(back.GetFlags() == f.GetFlags() && back.GetRev() == f.GetRev(), "flags and Rev survive");
        FUZZ_CHECK(back.GetPrivateData() == f.GetPrivateData(), "private data survives");
        FUZZ_CHECK(!f.IsEnhanced() || (back.GetIrdWord() == f.GetIrdWord() && back.GetOrdWord() == f.GetOrdWord()),
                   "IRD and ORD words survive");
    }
    return 0;
}
