/*
 * A verified transfer over the two-node MPA fixture: a Write, a Send and a Read from the
 * initiator to the responder with real octets, and helpers to check the result. Shared by
 * the iwarp-mpa-connection and iwarp-mpa-tshark suites.
 */
#ifndef IWARP_MPA_TRANSFER_H
#define IWARP_MPA_TRANSFER_H

#include "mpa/mpa-two-node-fixture.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** `n` octets of a deterministic pattern that differs with `seed`. */
inline std::vector<uint8_t>
Pattern(std::size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        v[i] = uint8_t(seed + i * 13 + (i >> 10));
    }
    return v;
}

/** Post an RDMA Write of `data` (real octets) from `from` to the start of `target`. */
inline void
PostWrite(MpaEnd& from, Ptr<MemoryRegion> target, const std::vector<uint8_t>& data, uint64_t id)
{
    RdmapWorkRequest w;
    w.id = id;
    w.type = RdmapWrType::Write;
    w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), data.size()));
    w.remoteStag = target->GetStag();
    w.remoteTo = target->GetBaseTo();
    from.rdmap->PostSend(w);
}

/** A Write, a Send and a Read from the initiator to the responder, all real octets. */
struct Transfer
{
    std::vector<uint8_t> data;
    Ptr<MemoryRegion> target; // at the responder
    Ptr<MemoryRegion> sink;   // at the initiator, for the Read
    Ptr<ByteBuffer> recv;     // the responder's receive buffer for the Send
    std::vector<uint8_t> note;

    Transfer(MpaTwoNodeFixture& f, std::size_t size)
        : data(Pattern(size, 3)),
          note(Pattern(300, 9))
    {
        using namespace MemAccess;
        target = f.Responder().memory->Register(f.Responder().pd, size, kRemoteWrite | kRemoteRead);
        sink = f.Initiator().memory->Register(f.Initiator().pd, size, kLocalWrite);
        recv = ByteBuffer::CreateReal(4096);
        f.Responder().rdmap->PostRecv(77, BufferWindow{recv, 0, 4096});
        PostWrite(f.Initiator(), target, data, 1);
        RdmapWorkRequest s;
        s.id = 2;
        s.type = RdmapWrType::Send;
        s.source = Create<PacketPayloadSource>(Create<Packet>(note.data(), note.size()));
        f.Initiator().rdmap->PostSend(s);
        RdmapWorkRequest r;
        r.id = 3;
        r.type = RdmapWrType::Read;
        r.remoteStag = target->GetStag();
        r.remoteTo = target->GetBaseTo();
        r.readLength = uint32_t(size);
        r.localStag = sink->GetStag();
        r.localTo = sink->GetBaseTo();
        f.Initiator().rdmap->PostSend(r);
    }

    bool WriteExact() const { return std::equal(data.begin(), data.end(), target->GetBuffer()->Data()); }
    bool ReadExact() const { return std::equal(data.begin(), data.end(), sink->GetBuffer()->Data()); }
    bool SendExact() const { return std::equal(note.begin(), note.end(), recv->Data()); }
};

inline std::size_t
CountSuccess(const std::vector<RdmapCompletion>& cs)
{
    std::size_t n = 0;
    for (const auto& c : cs)
    {
        n += c.status == WcStatus::Success;
    }
    return n;
}

} // namespace iwarptest
} // namespace ns3

#endif
