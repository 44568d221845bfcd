/*
 * Tests for the RNIC's memory side: MemoryRegistry::Resolve for every TagCheck outcome
 * (RFC 5041 §7.1 T1-T5, §8), RemoteInvalidate (RFC 5040 §5.3, §8.1.1(7), doc/conformance.md A8/A9),
 * STag allocation (RDMAP-093), and ByteBuffer in its real and virtual modes.
 *
 * ByteBuffer aborts the process on an out-of-range access, so that is not triggered here;
 * the in-range boundaries (offset + len == size) are checked instead.
 */
#include "support/conformance-data.h"
#include "support/test-bytes.h"

#include "common/byte-buffer.h"
#include "common/memory-access.h"
#include "rnic/memory-registry.h"

#include "ns3/enum.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace MemAccess;
using namespace ns3::iwarptest;

constexpr uint8_t kRw = kLocalRead | kLocalWrite | kRemoteRead | kRemoteWrite;
constexpr uint64_t kTopBase = 0xFFFFFFFFFFFFF000ull;

/** Fixture F's STags (doc/conformance.md §4.0) in a fresh registry; the stream is (P1, 1). */
struct Registry
{
    Ptr<MemoryRegistry> reg = CreateObject<MemoryRegistry>();
    Ptr<ProtectionDomain> p1 = reg->AllocatePd();
    Ptr<ProtectionDomain> p2 = reg->AllocatePd();
    StreamContext s1{p1->GetId(), 1};
    StreamContext s2{p1->GetId(), 2};

    Registry()
    {
        reg->RegisterWithStag(kStagA, p1, 0x10000, 0x10000, kRw);
        reg->RegisterWithStag(kStagRO, p1, 0x20000, 0x1000, kLocalRead | kLocalWrite | kRemoteRead);
        reg->RegisterWithStag(kStagX, p2, 0x40000, 0x1000, kRw);
        reg->RegisterWithStag(kStagTOP, p1, kTopBase, 0x1000, kRw);
        reg->RegisterWithStag(kStagZ, p1, 0x60000, 0x1000, kRw)->AssociateStream(1);
        reg->RegisterWithStag(kStagY, p1, 0x70000, 0x1000, kRw)->AssociateStream(2);
    }

    TagCheck Resolve(uint32_t stag, uint64_t to, uint64_t len, uint8_t access = kRemoteWrite,
                     BufferWindow* w = nullptr)
    {
        return reg->Resolve(stag, to, len, access, s1, w);
    }
};

#define EXPECT_CHECK(got, want, msg)                                                               \
    NS_TEST_EXPECT_MSG_EQ(std::string(ToString(got)), std::string(ToString(want)), msg)

class ResolveIdentity : public TestCase
{
  public:
    ResolveIdentity()
        : TestCase("Resolve - unknown, invalidated, other-PD and other-stream STags")
    {
    }

  private:
    void DoRun() override
    {
        Registry f;
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100), TagCheck::Ok, "valid STag A");
        EXPECT_CHECK(f.Resolve(kStagBAD, 0x10000, 100), TagCheck::InvalidStag, "unknown STag (T1)");
        EXPECT_CHECK(f.Resolve(0, 0, 1), TagCheck::InvalidStag, "STag 0 is never registered");
        EXPECT_CHECK(f.Resolve(kStagX, 0x40000, 100), TagCheck::NotAssociated, "STag of another PD (DDP-069)");
        EXPECT_CHECK(f.Resolve(kStagY, 0x70000, 100), TagCheck::NotAssociated,
                     "STag scoped to another stream (DDP-070)");
        EXPECT_CHECK(f.Resolve(kStagZ, 0x60000, 100), TagCheck::Ok, "STag scoped to this stream");
        EXPECT_CHECK(f.reg->Resolve(kStagZ, 0x60000, 100, kRemoteWrite, f.s2, nullptr), TagCheck::NotAssociated,
                     "Z from stream 2");
        EXPECT_CHECK(f.reg->Resolve(kStagX, 0x40000, 100, kRemoteWrite, StreamContext{f.p2->GetId(), 7}, nullptr),
                     TagCheck::Ok, "X from its own PD");

        f.reg->Lookup(kStagA)->SetValid(false);
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100), TagCheck::InvalidStag, "invalidated STag (T1)");
        f.reg->Lookup(kStagA)->SetValid(true);
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100), TagCheck::Ok, "re-validated STag");
        f.reg->Deregister(kStagA);
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100), TagCheck::InvalidStag, "deregistered STag");
        NS_TEST_EXPECT_MSG_EQ((f.reg->Lookup(kStagA) == nullptr), true, "Lookup after Deregister");
    }
};

class ResolveAccessRights : public TestCase
{
  public:
    ResolveAccessRights()
        : TestCase("Resolve - missing access rights, granting and revoking them")
    {
    }

  private:
    void DoRun() override
    {
        Registry f;
        EXPECT_CHECK(f.Resolve(kStagRO, 0x20000, 100, kRemoteWrite), TagCheck::AccessRights,
                     "write to a read-only STag (A3)");
        EXPECT_CHECK(f.Resolve(kStagRO, 0x20000, 100, kRemoteRead), TagCheck::Ok, "read of a read-only STag");
        EXPECT_CHECK(f.Resolve(kStagRO, 0x20000, 100, kRemoteRead | kRemoteWrite), TagCheck::AccessRights,
                     "read+write needs both rights");
        EXPECT_CHECK(f.Resolve(kStagRO, 0x20000, 100, kLocalWrite), TagCheck::Ok, "local write allowed");

        Ptr<MemoryRegion> a = f.reg->Lookup(kStagA);
        a->SetAccess(kLocalRead | kLocalWrite); // DDP-078: revoke remote access
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100, kRemoteWrite), TagCheck::AccessRights, "revoked write");
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100, kRemoteRead), TagCheck::AccessRights, "revoked read");
        a->SetAccess(kRw);
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 100, kRemoteWrite), TagCheck::Ok, "granted again");
    }
};

class ResolveBounds : public TestCase
{
  public:
    ResolveBounds()
        : TestCase("Resolve - base, bounds and the returned window")
    {
    }

  private:
    void DoRun() override
    {
        Registry f;
        EXPECT_CHECK(f.Resolve(kStagA, 0x0FFFF, 100), TagCheck::BaseBounds, "TO one below base (T3, D-14a)");
        EXPECT_CHECK(f.Resolve(kStagA, 0, 1), TagCheck::BaseBounds, "TO 0");
        EXPECT_CHECK(f.Resolve(kStagA, 0x1FF9C, 100), TagCheck::Ok, "last 100 octets fit exactly");
        EXPECT_CHECK(f.Resolve(kStagA, 0x1FF9C, 101), TagCheck::BaseBounds, "one octet past the end (T4, D-14b)");
        EXPECT_CHECK(f.Resolve(kStagA, 0x1FFFF, 1), TagCheck::Ok, "the last octet");
        EXPECT_CHECK(f.Resolve(kStagA, 0x1FFFF, 2), TagCheck::BaseBounds, "the last octet and one more");
        EXPECT_CHECK(f.Resolve(kStagA, 0x20000, 1), TagCheck::BaseBounds, "TO one past the end");
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 0x10000), TagCheck::Ok, "the whole region");
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 0x10001), TagCheck::BaseBounds, "whole region + 1");
        EXPECT_CHECK(f.Resolve(kStagA, 0x10000, 0x100000), TagCheck::BaseBounds, "1 MiB from base");
        // A zero-length access at the end of the region is in bounds; one past it is not.
        EXPECT_CHECK(f.Resolve(kStagA, 0x20000, 0), TagCheck::Ok, "zero-length at the end");
        EXPECT_CHECK(f.Resolve(kStagA, 0x20001, 0), TagCheck::BaseBounds, "zero-length past the end");
        EXPECT_CHECK(f.Resolve(kStagA, 0x0FFFF, 0), TagCheck::BaseBounds, "zero-length below base");

        BufferWindow w;
        EXPECT_CHECK(f.Resolve(kStagA, 0x10400, 300, kRemoteWrite, &w), TagCheck::Ok, "window");
        NS_TEST_EXPECT_MSG_EQ(w.buffer, f.reg->Lookup(kStagA)->GetBuffer(), "window's buffer");
        NS_TEST_EXPECT_MSG_EQ(w.offset, 0x400u, "window offset = TO - base");
        NS_TEST_EXPECT_MSG_EQ(w.length, 300u, "window length");
        BufferWindow untouched{nullptr, 77, 77};
        f.Resolve(kStagA, 0x0FFFF, 10, kRemoteWrite, &untouched);
        NS_TEST_EXPECT_MSG_EQ(untouched.offset, 77u, "a failed check leaves the window alone");
    }
};

class ResolveToWrap : public TestCase
{
  public:
    ResolveToWrap()
        : TestCase("Resolve - TO + length wrapping 2^64 on a region at the top of the TO space")
    {
    }

  private:
    void DoRun() override
    {
        Registry f;
        // D-15: in range at the start, but TO + length wraps: ToWrap (T5), not BaseBounds.
        EXPECT_CHECK(f.Resolve(kStagTOP, 0xFFFFFFFFFFFFFF00ull, 512), TagCheck::ToWrap, "D-15");
        EXPECT_CHECK(f.Resolve(kStagTOP, 0xFFFFFFFFFFFFFFFFull, 2), TagCheck::ToWrap, "last octet + 1");
        EXPECT_CHECK(f.Resolve(kStagTOP, kTopBase, ~uint64_t(0)), TagCheck::ToWrap, "huge length");
        EXPECT_CHECK(f.Resolve(kStagTOP, kTopBase, 0x100), TagCheck::Ok, "start of TOP");
        EXPECT_CHECK(f.Resolve(kStagTOP, 0xFFFFFFFFFFFFFF00ull, 0xFF), TagCheck::Ok, "ends one below 2^64-1");
        EXPECT_CHECK(f.Resolve(kStagTOP, kTopBase - 1, 16), TagCheck::BaseBounds, "one below TOP's base");
    }
};

class ResolveLastOctetOfToSpace : public TestCase
{
  public:
    ResolveLastOctetOfToSpace()
        : TestCase("Resolve - an access ending on the octet at TO 2^64-1 is in range, not a wrap")
    {
    }

  private:
    void DoRun() override
    {
        // TOP holds the octet at 2^64-1 (registration allows it), so an access ending on it
        // is in range even though the exclusive end TO + length equals 2^64: no octet past
        // 2^64-1 is addressed, so nothing wraps (T5 is about the octets reached).
        Registry f;
        EXPECT_CHECK(f.Resolve(kStagTOP, 0xFFFFFFFFFFFFFF00ull, 0x100), TagCheck::Ok,
                     "the last 256 octets, ending at 2^64-1");
        EXPECT_CHECK(f.Resolve(kStagTOP, 0xFFFFFFFFFFFFFFFFull, 1), TagCheck::Ok, "the octet at 2^64-1");
        EXPECT_CHECK(f.Resolve(kStagTOP, kTopBase, 0x1000), TagCheck::Ok, "the whole TOP region");
    }
};

class RemoteInvalidateOutcomes : public TestCase
{
  public:
    RemoteInvalidateOutcomes()
        : TestCase("RemoteInvalidate - invalidated, invalid, not associated and shared STags")
    {
    }

  private:
    void DoRun() override
    {
        Registry f;
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagBAD, f.s1)), int(InvalidateResult::InvalidStag),
                              "unknown STag (A8)");
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagX, f.s1)), int(InvalidateResult::NotAssociated),
                              "STag of another PD");
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagY, f.s1)), int(InvalidateResult::NotAssociated),
                              "STag scoped to another stream (RDMAP-046)");
        NS_TEST_EXPECT_MSG_EQ(f.reg->Lookup(kStagY)->IsValid(), true, "Y untouched");

        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagZ, f.s1)), int(InvalidateResult::Invalidated),
                              "stream-scoped STag of this stream");
        NS_TEST_EXPECT_MSG_EQ(f.reg->Lookup(kStagZ)->IsValid(), false, "Z invalid");
        EXPECT_CHECK(f.Resolve(kStagZ, 0x60000, 10), TagCheck::InvalidStag, "Z no longer resolves");
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagZ, f.s1)), int(InvalidateResult::InvalidStag),
                              "already invalid (A8)");

        // Explicitly associated with two streams: shared, refused (RDMAP-092, A9).
        Ptr<MemoryRegion> a = f.reg->Lookup(kStagA);
        a->AssociateStream(1);
        a->AssociateStream(2);
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagA, f.s1)), int(InvalidateResult::Shared),
                              "explicitly shared by streams 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(a->IsValid(), true, "a refused invalidation changes nothing");
        a->DissociateStream(2);
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagA, f.s1)), int(InvalidateResult::Invalidated),
                              "after dissociating stream 2");
    }
};

class SharedPolicyAttribute : public TestCase
{
  public:
    SharedPolicyAttribute()
        : TestCase("SharedPolicy PdWide refuses a PD-wide STag of a PD with two streams")
    {
    }

  private:
    InvalidateResult Try(const std::string& policy, bool twoStreams, bool scoped)
    {
        Registry f;
        f.reg->SetAttribute("SharedPolicy", StringValue(policy));
        f.reg->AttachStream(f.p1->GetId(), 1);
        if (twoStreams)
        {
            f.reg->AttachStream(f.p1->GetId(), 2);
        }
        return f.reg->RemoteInvalidate(scoped ? kStagZ : kStagA, f.s1);
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(int(Try("ExplicitStreams", true, false)), int(InvalidateResult::Invalidated),
                              "ExplicitStreams: PD-wide STag, two streams in the PD");
        NS_TEST_EXPECT_MSG_EQ(int(Try("PdWide", true, false)), int(InvalidateResult::Shared),
                              "PdWide: PD-wide STag, two streams in the PD");
        NS_TEST_EXPECT_MSG_EQ(int(Try("PdWide", false, false)), int(InvalidateResult::Invalidated),
                              "PdWide: PD-wide STag, one stream in the PD");
        NS_TEST_EXPECT_MSG_EQ(int(Try("PdWide", true, true)), int(InvalidateResult::Invalidated),
                              "PdWide: STag scoped to this one stream");

        Registry f;
        EnumValue v;
        f.reg->GetAttribute("SharedPolicy", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), int(MemoryRegistry::ExplicitStreams), "default is ExplicitStreams (A9)");
        f.reg->SetAttribute("SharedPolicy", EnumValue(MemoryRegistry::PdWide));
        f.reg->AttachStream(f.p1->GetId(), 1);
        f.reg->AttachStream(f.p1->GetId(), 2);
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagA, f.s1)), int(InvalidateResult::Shared),
                              "PdWide set as an EnumValue");
        f.reg->DetachStream(f.p1->GetId(), 2);
        NS_TEST_EXPECT_MSG_EQ(int(f.reg->RemoteInvalidate(kStagA, f.s1)), int(InvalidateResult::Invalidated),
                              "PdWide after stream 2 detached");
    }
};

class StagAllocation : public TestCase
{
  public:
    StagAllocation()
        : TestCase("Register gives distinct non-zero STags spread over the 32-bit space")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MemoryRegistry> reg = CreateObject<MemoryRegistry>();
        reg->AssignStreams(17);
        Ptr<ProtectionDomain> pd = reg->AllocatePd();
        Ptr<ProtectionDomain> pd2 = reg->AllocatePd();
        NS_TEST_EXPECT_MSG_NE(pd->GetId(), pd2->GetId(), "distinct PD ids");
        std::set<uint32_t> stags;
        std::set<uint32_t> highBytes;
        uint32_t lo = ~uint32_t(0);
        uint32_t hi = 0;
        for (int i = 0; i < 1000; ++i)
        {
            Ptr<MemoryRegion> mr = reg->Register(pd, 64, kRw, MemoryRegistry::Backing::Virtual, 0x1000 * i);
            const uint32_t s = mr->GetStag();
            NS_TEST_EXPECT_MSG_NE(s, 0u, "STag 0");
            stags.insert(s);
            highBytes.insert(s >> 24);
            lo = std::min(lo, s);
            hi = std::max(hi, s);
            NS_TEST_EXPECT_MSG_EQ(reg->Lookup(s), mr, "Lookup finds the region");
            NS_TEST_EXPECT_MSG_EQ(mr->GetBaseTo(), 0x1000u * i, "base TO");
            NS_TEST_EXPECT_MSG_EQ(mr->GetLength(), 64u, "length");
            NS_TEST_EXPECT_MSG_EQ(mr->GetPdId(), pd->GetId(), "PD");
        }
        NS_TEST_EXPECT_MSG_EQ(stags.size(), 1000u, "all distinct");
        NS_TEST_EXPECT_MSG_GT(highBytes.size(), 100u, "high octets vary (hard to predict, RDMAP-093)");
        NS_TEST_EXPECT_MSG_GT(uint64_t(hi) - lo, uint64_t(0xC0000000u), "spread over the 32-bit space");
    }
};

class ByteBufferModes : public TestCase
{
  public:
    ByteBufferModes()
        : TestCase("ByteBuffer real and virtual modes, boundary writes and the write counter")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ByteBuffer> real = ByteBuffer::CreateReal(64);
        NS_TEST_EXPECT_MSG_EQ(real->IsReal(), true, "real");
        NS_TEST_EXPECT_MSG_EQ(real->GetSize(), 64u, "size");
        NS_TEST_ASSERT_MSG_EQ((real->Data() != nullptr), true, "real buffer has octets");
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(real->Read(0, 64)) == Bytes(64, 0)), true, "zero-initialised");

        const Bytes head = {1, 2, 3, 4};
        const Bytes tail = {9, 8, 7};
        real->Write(0, head.data(), head.size());
        real->Write(61, Create<Packet>(tail.data(), tail.size())); // offset + len == size
        real->Write(64, nullptr, 0);                                // zero octets at the end
        real->Write(64, Create<Packet>());
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(real->Read(0, 4)) == head), true, "first octets");
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(real->Read(61, 3)) == tail), true, "last octets (boundary write)");
        NS_TEST_EXPECT_MSG_EQ(unsigned(real->Data()[63]), 7u, "Data() sees the write");
        NS_TEST_EXPECT_MSG_EQ(real->Read(64, 0)->GetSize(), 0u, "zero-length read at the end");
        NS_TEST_EXPECT_MSG_EQ(real->Read(0, 64)->GetSize(), 64u, "whole-buffer read");
        NS_TEST_EXPECT_MSG_EQ(real->GetBytesWritten(), 7u, "octets written");
        // Part of a packet (how DDP places a segment's payload behind its header).
        const Bytes segment = {0xD0, 0xD1, 0x11, 0x22, 0x33, 0xE0};
        real->Write(10, Create<Packet>(segment.data(), segment.size()), 2, 3);
        NS_TEST_EXPECT_MSG_EQ(Hex(PacketBytes(real->Read(9, 5))), Hex(Bytes{0, 0x11, 0x22, 0x33, 0}),
                              "the part, and nothing around it");
        real->Write(20, Create<Packet>(segment.data(), segment.size()), 6, 0); // nothing, from the end
        NS_TEST_EXPECT_MSG_EQ(real->GetBytesWritten(), 10u, "octets of a part written");

        Ptr<ByteBuffer> virt = ByteBuffer::CreateVirtual(1 << 30);
        NS_TEST_EXPECT_MSG_EQ(virt->IsReal(), false, "virtual");
        NS_TEST_EXPECT_MSG_EQ(virt->GetSize(), uint64_t(1) << 30, "a 1 GiB virtual buffer costs nothing");
        NS_TEST_EXPECT_MSG_EQ((virt->Data() == nullptr), true, "virtual buffer has no octets");
        const Bytes data(100, 0xAB);
        virt->Write(0, data.data(), data.size());
        virt->Write((uint64_t(1) << 30) - 100, Create<Packet>(data.data(), data.size()));
        virt->Write((uint64_t(1) << 30) - 5, Create<Packet>(5)); // a virtual packet
        virt->Write(0, Create<Packet>(data.data(), data.size()), 40, 60); // a part: counted, not copied
        NS_TEST_EXPECT_MSG_EQ(virt->GetBytesWritten(), 265u, "octets written to a virtual buffer");
        Ptr<Packet> r = virt->Read((uint64_t(1) << 30) - 1000, 1000);
        NS_TEST_EXPECT_MSG_EQ(r->GetSize(), 1000u, "virtual read size");
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(r) == Bytes(1000, 0)), true, "virtual reads are zero-filled");

        Ptr<ByteBuffer> empty = ByteBuffer::CreateReal(0);
        empty->Write(0, nullptr, 0);
        NS_TEST_EXPECT_MSG_EQ(empty->Read(0, 0)->GetSize(), 0u, "empty buffer");
        NS_TEST_EXPECT_MSG_EQ(empty->GetBytesWritten(), 0u, "nothing written");

        // Registered regions get the backing their registration asked for.
        Ptr<MemoryRegistry> reg = CreateObject<MemoryRegistry>();
        Ptr<ProtectionDomain> pd = reg->AllocatePd();
        Ptr<MemoryRegion> rr = reg->RegisterWithStag(1, pd, 0, 32, kRw, MemoryRegistry::Backing::Real);
        Ptr<MemoryRegion> vr = reg->RegisterWithStag(2, pd, 0, 32, kRw, MemoryRegistry::Backing::Virtual);
        NS_TEST_EXPECT_MSG_EQ(rr->GetBuffer()->IsReal(), true, "real region");
        NS_TEST_EXPECT_MSG_EQ(vr->GetBuffer()->IsReal(), false, "virtual region");
        BufferWindow w;
        NS_TEST_ASSERT_MSG_EQ(int(reg->Resolve(1, 16, 16, kRemoteWrite, StreamContext{pd->GetId(), 0}, &w)),
                              int(TagCheck::Ok), "resolve the last 16 octets");
        w.buffer->Write(w.offset, data.data(), w.length); // the window's end is the buffer's end
        NS_TEST_EXPECT_MSG_EQ(unsigned(rr->GetBuffer()->Data()[31]), 0xABu, "written through the window");
        NS_TEST_EXPECT_MSG_EQ(unsigned(rr->GetBuffer()->Data()[15]), 0u, "nothing before the window");
    }
};

class MemorySuite : public TestSuite
{
  public:
    MemorySuite()
        : TestSuite("iwarp-memory", UNIT)
    {
        AddTestCase(new ResolveIdentity, TestCase::QUICK);
        AddTestCase(new ResolveBounds, TestCase::QUICK);
        AddTestCase(new ResolveToWrap, TestCase::QUICK);
        AddTestCase(new RemoteInvalidateOutcomes, TestCase::QUICK);
        AddTestCase(new SharedPolicyAttribute, TestCase::QUICK);
        AddTestCase(new StagAllocation, TestCase::QUICK);
        AddTestCase(new ByteBufferModes, TestCase::QUICK);
        AddTestCase(new ResolveAccessRights, TestCase::QUICK);
        AddTestCase(new ResolveLastOctetOfToSpace, TestCase::QUICK);
    }
};

MemorySuite g_memorySuite;

} // namespace
