/*
 * The seam between the protocol layers (DDP, RDMAP) and the RNIC's memory registry.
 *
 * DDP places tagged payload and RDMAP reads Read Response data and invalidates STags,
 * but protection domains and STags belong to the RNIC (model/rnic), which sits above
 * them. This interface lets the lower layers ask the questions of RFC 5041 §7.1 / §8 and
 * RFC 5040 §7.2 without depending on the layer above (doc/architecture.md: one-way dependencies).
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_MEMORY_ACCESS_H
#define IWARP_MEMORY_ACCESS_H

#include "common/byte-buffer.h"

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/** Access rights of a memory region (bit flags, DDP-077). */
namespace MemAccess
{
inline constexpr uint8_t kLocalRead = 0x01;
inline constexpr uint8_t kLocalWrite = 0x02;
inline constexpr uint8_t kRemoteRead = 0x04;
inline constexpr uint8_t kRemoteWrite = 0x08;
inline constexpr uint8_t kAll = 0x0F;
} // namespace MemAccess

/** Who is asking: the stream's protection domain and DDP stream id (DDP-069, DDP-070). */
struct StreamContext
{
    uint32_t pdId{0};
    uint32_t streamId{0};
};

/**
 * Outcome of validating (STag, TO, length) for a stream. Neutral names: DDP and RDMAP map
 * them to their own codes (doc/conformance.md §3, A3).
 */
enum class TagCheck
{
    Ok,
    InvalidStag,   ///< unknown or invalidated (T1/T2, RDMAP-089a)
    NotAssociated, ///< other PD, or scoped to another stream (T1, RDMAP-089b)
    AccessRights,  ///< lacks the access the operation needs (A3, RDMAP-089 rights)
    BaseBounds,    ///< TO or TO + length outside the region (T3/T4, RDMAP-089c/d)
    ToWrap,        ///< the 64-bit TO + length wraps (T5, RDMAP-089e)
};

const char* ToString(TagCheck c);

/** A validated window of a buffer: where `length` octets may be written or read. */
struct BufferWindow
{
    Ptr<ByteBuffer> buffer;
    uint64_t offset{0};
    uint64_t length{0};
};

/** Outcome of a remote invalidation (RDMAP-046, RDMAP-092, A8, A9). */
enum class InvalidateResult
{
    Invalidated,
    InvalidStag,   ///< no such STag, or already invalid (A8)
    NotAssociated, ///< not associated with this stream (RDMAP-046)
    Shared,        ///< shared across streams: refused (RDMAP-092, A9)
};

class MemoryAccess : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Check that `len` octets at tagged offset `to` of `stag` may be accessed with
     * every right in `accessNeeded` (MemAccess flags) from `ctx`; on success fill `out` with the window.
     * Nothing is read or written here: validation comes before placement (DDP-068).
     */
    virtual TagCheck Resolve(uint32_t stag,
                             uint64_t to,
                             uint64_t len,
                             uint8_t accessNeeded,
                             const StreamContext& ctx,
                             BufferWindow* out) = 0;

    /** Invalidate `stag` on behalf of the remote peer of stream `ctx`. */
    virtual InvalidateResult RemoteInvalidate(uint32_t stag, const StreamContext& ctx) = 0;

    /** What RemoteInvalidate would answer now, without invalidating anything. */
    virtual InvalidateResult CheckRemoteInvalidate(uint32_t stag, const StreamContext& ctx) const = 0;
};

} // namespace ns3

#endif // IWARP_MEMORY_ACCESS_H
