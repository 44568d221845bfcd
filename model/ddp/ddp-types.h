/*
 * Value types that cross the DDP/ULP boundary: outbound messages and their payload
 * sources, deliveries (RFC 5041 §5.4) and receive errors (§7).
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_DDP_TYPES_H
#define IWARP_DDP_TYPES_H

#include "common/iwarp-constants.h"
#include "common/memory-access.h"
#include "ddp/ddp-header.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * Where an outbound message's payload comes from. DDP reads it one segment at a time, as
 * the LLP has room, so the data is fetched (and, for a Read Response, re-validated) at the
 * moment it is segmented, as an RNIC's DMA engine would.
 */
class DdpPayloadSource : public SimpleRefCount<DdpPayloadSource>
{
  public:
    virtual ~DdpPayloadSource() = default;
    virtual uint64_t GetLength() const = 0;
    /** `len` octets at `offset`, or nullptr on a local failure (RDMAP-083). */
    virtual Ptr<Packet> Read(uint64_t offset, uint32_t len) = 0;
    /** True if the octets of the last Read() are virtual (zeros that stand for data not stored). */
    virtual bool LastReadVirtual() const { return false; }
};

/** A payload held in one packet (real bytes or a virtual, sizes-only packet). */
class PacketPayloadSource : public DdpPayloadSource
{
  public:
    explicit PacketPayloadSource(Ptr<const Packet> p)
        : m_packet(p)
    {
    }
    uint64_t GetLength() const override { return m_packet->GetSize(); }
    Ptr<Packet> Read(uint64_t offset, uint32_t len) override
    {
        return m_packet->CreateFragment(uint32_t(offset), len);
    }

  private:
    Ptr<const Packet> m_packet;
};

/** A payload read from a window of a buffer (real or virtual). */
class BufferPayloadSource : public DdpPayloadSource
{
  public:
    explicit BufferPayloadSource(BufferWindow w)
        : m_window(w)
    {
    }
    uint64_t GetLength() const override { return m_window.length; }
    Ptr<Packet> Read(uint64_t offset, uint32_t len) override
    {
        return m_window.buffer->Read(m_window.offset + offset, len);
    }

  private:
    BufferWindow m_window;
};

/**
 * A payload read from registered memory by (STag, TO), re-validated segment by segment as it is
 * segmented: a region revoked or deregistered meanwhile makes Read() fail (RDMAP-083, R-29),
 * and GetFailure() tells why.
 */
class RegionPayloadSource : public DdpPayloadSource
{
  public:
    RegionPayloadSource(Ptr<MemoryAccess> mem, StreamContext ctx, uint32_t stag, uint64_t to,
                        uint64_t length, uint8_t access)
        : m_mem(mem),
          m_ctx(ctx),
          m_stag(stag),
          m_to(to),
          m_length(length),
          m_access(access)
    {
    }

    uint64_t GetLength() const override { return m_length; }

    Ptr<Packet> Read(uint64_t offset, uint32_t len) override
    {
        BufferWindow w;
        m_failure = m_mem->Resolve(m_stag, m_to + offset, len, m_access, m_ctx, &w);
        m_lastVirtual = m_failure == TagCheck::Ok && !w.buffer->IsReal();
        return m_failure == TagCheck::Ok ? w.buffer->Read(w.offset, len) : nullptr;
    }

    bool LastReadVirtual() const override { return m_lastVirtual; }

    /** The outcome of the last Read(). */
    TagCheck GetFailure() const { return m_failure; }

  private:
    Ptr<MemoryAccess> m_mem;
    StreamContext m_ctx;
    uint32_t m_stag;
    uint64_t m_to;
    uint64_t m_length;
    uint8_t m_access;
    TagCheck m_failure{TagCheck::Ok};
    bool m_lastVirtual{false};
};

/** One ULP message for DDP to send (DDP-034: tagged ones carry STag and initial TO). */
struct DdpOutboundMessage
{
    bool tagged{false};
    uint8_t rsvdUlp0{0};  ///< octet 1: RDMAP Control Field
    uint32_t rsvdUlp1{0}; ///< untagged octets 2-5: RDMAP Invalidate STag
    uint32_t qn{0};       ///< untagged only
    uint32_t stag{0};     ///< tagged only
    uint64_t to{0};       ///< tagged only: initial TO
    Ptr<DdpPayloadSource> payload;
    uint64_t cookie{0}; ///< the ULP's handle, echoed in MessageSent / MessageFailed
};

/** The segment behind a delivery or an error, as the Terminate needs it (doc/conformance.md §1.8). */
struct DdpSegmentRecord
{
    std::vector<uint8_t> header; ///< the raw 14- or 18-octet DDP header
    uint32_t length{0};          ///< whole DDP segment length, header + payload (A13)
};

/** A message delivered to the ULP (DDP-045..047). */
struct DdpDelivery
{
    bool tagged{false};
    uint8_t rsvdUlp0{0};
    uint32_t rsvdUlp1{0};
    uint32_t qn{0};
    uint32_t msn{0};
    uint32_t stag{0};
    uint64_t length{0};    ///< ULP message length (DDP-046)
    uint64_t cookie{0};    ///< the untagged buffer's cookie
    BufferWindow buffer;   ///< the untagged buffer the message was placed in
    DdpSegmentRecord last; ///< the L=1 segment
    Time firstPlaced;      ///< when the first octet of the message was placed (DDP-041)
    Time delivered;        ///< when it was delivered (DDP-045)
};

/** What the ULP is told when a received segment fails a check (DDP-063, DDP-064). */
struct DdpReceiveError
{
    iwarp::ErrorCause cause;
    bool segLenValid{false};       ///< Terminate M bit
    DdpSegmentRecord segment;      ///< header present when the D bit may be set
    std::vector<uint8_t> rdmaHeader; ///< non-empty: the Terminate carries it (R bit)
    bool bufferKnown{false};       ///< the untagged buffer the segment was aimed at
    uint32_t qn{0};
    uint64_t bufferCookie{0};
};

/**
 * The ULP's verdict on a segment's RsvdULP octet before anything is placed (A16: an
 * integrated receive path checks the RDMAP control octet before Placement).
 */
struct DdpUlpCheck
{
    bool ok{true};
    iwarp::ErrorCause cause;
    bool includeRdmaHeader{false}; ///< report the payload's first 28 octets (R bit)
    uint8_t taggedAccess{MemAccess::kRemoteWrite}; ///< access a tagged placement needs
};

} // namespace ns3

#endif // IWARP_DDP_TYPES_H
