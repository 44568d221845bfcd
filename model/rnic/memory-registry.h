/*
 * MemoryRegistry: one RNIC's STag table and protection domains. It implements the
 * MemoryAccess questions DDP and RDMAP ask (validation before placement, remote reads,
 * remote invalidation), so those layers never see the table itself.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_MEMORY_REGISTRY_H
#define IWARP_MEMORY_REGISTRY_H

#include "common/memory-access.h"
#include "rnic/memory-region.h"

#include "ns3/random-variable-stream.h"

#include <map>

namespace ns3
{

class MemoryRegistry : public MemoryAccess
{
  public:
    static TypeId GetTypeId();
    MemoryRegistry();

    /** A9: what counts as an STag "shared on multiple streams" for remote invalidation. */
    enum SharedPolicy
    {
        ExplicitStreams, ///< shared = explicitly associated with more than one stream (A9)
        PdWide,          ///< also refuse a PD-wide STag whose PD holds more than one stream
    };

    enum class Backing
    {
        Real,
        Virtual,
    };

    Ptr<ProtectionDomain> AllocatePd();

    /**
     * Register `length` octets at tagged offsets [baseTo, baseTo + length) with a fresh,
     * hard-to-predict STag (RDMAP-093): a random 24-bit index and an 8-bit key.
     */
    Ptr<MemoryRegion> Register(Ptr<ProtectionDomain> pd,
                               uint64_t length,
                               uint8_t access,
                               Backing backing = Backing::Real,
                               uint64_t baseTo = 0);
    /** Register under a chosen STag (test fixtures need the doc/conformance.md §4.0 values). */
    Ptr<MemoryRegion> RegisterWithStag(uint32_t stag,
                                       Ptr<ProtectionDomain> pd,
                                       uint64_t baseTo,
                                       uint64_t length,
                                       uint8_t access,
                                       Backing backing = Backing::Real);
    void Deregister(uint32_t stag);
    Ptr<MemoryRegion> Lookup(uint32_t stag) const;

    /** Streams of a PD, for the PdWide sharing policy. */
    void AttachStream(uint32_t pdId, uint32_t streamId);
    void DetachStream(uint32_t pdId, uint32_t streamId);

    // MemoryAccess
    TagCheck Resolve(uint32_t stag,
                     uint64_t to,
                     uint64_t len,
                     uint8_t accessNeeded,
                     const StreamContext& ctx,
                     BufferWindow* out) override;
    InvalidateResult RemoteInvalidate(uint32_t stag, const StreamContext& ctx) override;
    InvalidateResult CheckRemoteInvalidate(uint32_t stag, const StreamContext& ctx) const override;

    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    bool IsAssociated(const MemoryRegion& mr, const StreamContext& ctx) const;

    std::map<uint32_t, Ptr<MemoryRegion>> m_regions;
    std::map<uint32_t, std::set<uint32_t>> m_pdStreams;
    uint32_t m_nextPdId{1};
    SharedPolicy m_sharedPolicy;
    Ptr<UniformRandomVariable> m_stagRng;
};

} // namespace ns3

#endif // IWARP_MEMORY_REGISTRY_H
