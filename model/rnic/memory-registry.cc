#include "rnic/memory-registry.h"

#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MemoryRegistry");
NS_OBJECT_ENSURE_REGISTERED(MemoryRegistry);

TypeId
MemoryRegistry::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MemoryRegistry")
            .SetParent<MemoryAccess>()
            .SetGroupName("Iwarp")
            .AddConstructor<MemoryRegistry>()
            .AddAttribute("SharedPolicy",
                          "Which STags a remote Send with Invalidate may not invalidate because "
                          "they are shared across streams (RDMAP-092, doc/conformance.md A9)",
                          EnumValue(SharedPolicy::ExplicitStreams),
                          MakeEnumAccessor(&MemoryRegistry::m_sharedPolicy),
                          MakeEnumChecker(SharedPolicy::ExplicitStreams,
                                          "ExplicitStreams",
                                          SharedPolicy::PdWide,
                                          "PdWide"));
    return tid;
}

MemoryRegistry::MemoryRegistry()
    : m_sharedPolicy(SharedPolicy::ExplicitStreams),
      m_stagRng(CreateObject<UniformRandomVariable>())
{
}

void
MemoryRegistry::DoDispose()
{
    m_regions.clear();
    m_stagRng = nullptr;
    MemoryAccess::DoDispose();
}

int64_t
MemoryRegistry::AssignStreams(int64_t stream)
{
    m_stagRng->SetStream(stream);
    return 1;
}

Ptr<ProtectionDomain>
MemoryRegistry::AllocatePd()
{
    return CreateObject<ProtectionDomain>(m_nextPdId++);
}

Ptr<MemoryRegion>
MemoryRegistry::Register(Ptr<ProtectionDomain> pd,
                         uint64_t length,
                         uint8_t access,
                         Backing backing,
                         uint64_t baseTo)
{
    uint32_t stag = 0;
    do
    {
        const uint32_t index = m_stagRng->GetInteger(1, 0xFFFFFF);
        const uint32_t key = m_stagRng->GetInteger(0, 0xFF);
        stag = (index << 8) | key;
    } while (m_regions.count(stag) != 0);
    return RegisterWithStag(stag, pd, baseTo, length, access, backing);
}

Ptr<MemoryRegion>
MemoryRegistry::RegisterWithStag(uint32_t stag,
                                 Ptr<ProtectionDomain> pd,
                                 uint64_t baseTo,
                                 uint64_t length,
                                 uint8_t access,
                                 Backing backing)
{
    NS_ABORT_MSG_IF(m_regions.count(stag) != 0, "STag " << stag << " is already registered");
    NS_ABORT_MSG_IF(length > 0 && baseTo + (length - 1) < baseTo,
                    "region [" << baseTo << ", +" << length << ") wraps the 64-bit TO space");
    Ptr<ByteBuffer> buf =
        backing == Backing::Real ? ByteBuffer::CreateReal(length) : ByteBuffer::CreateVirtual(length);
    Ptr<MemoryRegion> mr = CreateObject<MemoryRegion>(stag, pd->GetId(), baseTo, buf, access);
    m_regions[stag] = mr;
    return mr;
}

void
MemoryRegistry::Deregister(uint32_t stag)
{
    m_regions.erase(stag);
}

Ptr<MemoryRegion>
MemoryRegistry::Lookup(uint32_t stag) const
{
    auto it = m_regions.find(stag);
    return it == m_regions.end() ? nullptr : it->second;
}

void
MemoryRegistry::AttachStream(uint32_t pdId, uint32_t streamId)
{
    m_pdStreams[pdId].insert(streamId);
}

void
MemoryRegistry::DetachStream(uint32_t pdId, uint32_t streamId)
{
    m_pdStreams[pdId].erase(streamId);
}

bool
MemoryRegistry::IsAssociated(const MemoryRegion& mr, const StreamContext& ctx) const
{
    // DDP-069: same PD; DDP-070: a stream-scoped STag only on its own stream(s).
    if (mr.GetPdId() != ctx.pdId)
    {
        return false;
    }
    return !mr.IsStreamScoped() || mr.GetStreams().count(ctx.streamId) != 0;
}

TagCheck
MemoryRegistry::Resolve(uint32_t stag,
                        uint64_t to,
                        uint64_t len,
                        uint8_t accessNeeded,
                        const StreamContext& ctx,
                        BufferWindow* out)
{
    Ptr<MemoryRegion> mr = Lookup(stag);
    if (!mr || !mr->IsValid())
    {
        return TagCheck::InvalidStag;
    }
    if (!IsAssociated(*mr, ctx))
    {
        return TagCheck::NotAssociated;
    }
    if ((mr->GetAccess() & accessNeeded) != accessNeeded)
    {
        return TagCheck::AccessRights;
    }
    const uint64_t base = mr->GetBaseTo();
    const uint64_t size = mr->GetLength();
    if (to < base || to - base >= size)
    {
        // The first octet is outside (T3); a zero-length access still needs a TO in range.
        if (!(len == 0 && to - base == size))
        {
            return TagCheck::BaseBounds;
        }
    }
    if (len > 0 && to + (len - 1) < to)
    {
        // T5: the last octet lies past 2^64 - 1 (an access ending exactly at 2^64 - 1 does
        // not wrap). Checked before T4 so that a wrapping access is named as such.
        return TagCheck::ToWrap;
    }
    if ((to - base) + len > size)
    {
        return TagCheck::BaseBounds; // T4
    }
    if (out)
    {
        *out = mr->Window(to, len);
    }
    return TagCheck::Ok;
}

InvalidateResult
MemoryRegistry::RemoteInvalidate(uint32_t stag, const StreamContext& ctx)
{
    const InvalidateResult r = CheckRemoteInvalidate(stag, ctx);
    if (r == InvalidateResult::Invalidated)
    {
        Lookup(stag)->SetValid(false);
        NS_LOG_INFO("STag 0x" << std::hex << stag << std::dec << " invalidated by the peer");
    }
    return r;
}

InvalidateResult
MemoryRegistry::CheckRemoteInvalidate(uint32_t stag, const StreamContext& ctx) const
{
    Ptr<MemoryRegion> mr = Lookup(stag);
    if (!mr || !mr->IsValid())
    {
        return InvalidateResult::InvalidStag; // A8
    }
    if (!IsAssociated(*mr, ctx))
    {
        return InvalidateResult::NotAssociated; // RDMAP-046
    }
    // RDMAP-092 with A9: never invalidate an STag shared across streams.
    if (mr->GetStreams().size() > 1)
    {
        return InvalidateResult::Shared;
    }
    if (m_sharedPolicy == SharedPolicy::PdWide && !mr->IsStreamScoped())
    {
        auto it = m_pdStreams.find(mr->GetPdId());
        if (it != m_pdStreams.end() && it->second.size() > 1)
        {
            return InvalidateResult::Shared;
        }
    }
    return InvalidateResult::Invalidated;
}

} // namespace ns3
