/*
 * Protection domains and registered memory regions (RFC 5041 §8, RFC 5040 §8.1;
 * DDP-069..078). A region is a window [BaseTO, BaseTO + Length) of tagged offsets onto a
 * buffer with real or virtual backing, with access rights, a protection domain, an optional
 * stream scope, and a validity flag that invalidation clears.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_MEMORY_REGION_H
#define IWARP_MEMORY_REGION_H

#include "common/byte-buffer.h"
#include "common/memory-access.h"

#include "ns3/object.h"

#include <set>

namespace ns3
{

class ProtectionDomain : public Object
{
  public:
    static TypeId GetTypeId();
    ProtectionDomain() = default;
    explicit ProtectionDomain(uint32_t id)
        : m_id(id)
    {
    }
    uint32_t GetId() const { return m_id; }

  private:
    uint32_t m_id{0};
};

class MemoryRegion : public Object
{
  public:
    static TypeId GetTypeId();
    MemoryRegion() = default;
    MemoryRegion(uint32_t stag, uint32_t pdId, uint64_t baseTo, Ptr<ByteBuffer> backing, uint8_t access);

    uint32_t GetStag() const { return m_stag; }
    uint32_t GetPdId() const { return m_pdId; }
    uint64_t GetBaseTo() const { return m_baseTo; }
    uint64_t GetLength() const { return m_backing ? m_backing->GetSize() : 0; }
    Ptr<ByteBuffer> GetBuffer() const { return m_backing; }

    uint8_t GetAccess() const { return m_access; }
    /** Grant or revoke rights (DDP-077); revoking stops the NIC at once (DDP-078). */
    void SetAccess(uint8_t access) { m_access = access; }

    bool IsValid() const { return m_valid; }
    void SetValid(bool valid) { m_valid = valid; }

    /** Scope the region to a DDP stream (DDP-070). With no stream it is PD-wide. */
    void AssociateStream(uint32_t streamId) { m_streams.insert(streamId); }
    void DissociateStream(uint32_t streamId) { m_streams.erase(streamId); }
    const std::set<uint32_t>& GetStreams() const { return m_streams; }
    bool IsStreamScoped() const { return !m_streams.empty(); }

    /** A window of `len` octets at tagged offset `to` (the caller has checked bounds). */
    BufferWindow Window(uint64_t to, uint64_t len) const;

  private:
    uint32_t m_stag{0};
    uint32_t m_pdId{0};
    uint64_t m_baseTo{0};
    Ptr<ByteBuffer> m_backing;
    uint8_t m_access{0};
    bool m_valid{true};
    std::set<uint32_t> m_streams;
};

} // namespace ns3

#endif // IWARP_MEMORY_REGION_H
