/*
 * Backing store of a registered memory region or an internal receive buffer.
 *
 * Two payload modes (doc/architecture.md "Payload modes"): a real buffer owns its bytes, so that
 * transfers can be verified octet for octet; a virtual buffer only has a size, so that
 * large topologies and benchmarks do not pay for memory they never look at.
 * Every write is bounds-checked here as a last line of defence: the protocol layers
 * validate first (DDP-068, DDP-076), and a bug above must never turn into a write
 * outside the buffer.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_BYTE_BUFFER_H
#define IWARP_BYTE_BUFFER_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class ByteBuffer : public SimpleRefCount<ByteBuffer>
{
  public:
    /** A buffer that owns `size` octets, zero-initialised. */
    static Ptr<ByteBuffer> CreateReal(uint64_t size);
    /** A buffer of `size` octets that stores nothing (sizes only). */
    static Ptr<ByteBuffer> CreateVirtual(uint64_t size);

    uint64_t GetSize() const { return m_size; }
    bool IsReal() const { return m_real; }

    /** Copy the whole of `payload` to `offset`. Aborts if it would run past the end. */
    void Write(uint64_t offset, Ptr<const Packet> payload);
    /**
     * Copy the `len` octets of `packet` that start at `from` to `offset`. A virtual buffer counts
     * them without cutting them out of the packet, which placing a virtual payload would
     * otherwise do once per segment for nothing.
     */
    void Write(uint64_t offset, Ptr<const Packet> packet, uint32_t from, uint32_t len);
    void Write(uint64_t offset, const uint8_t* data, uint64_t len);

    /**
     * Read `len` octets at `offset` as a packet: the octets themselves in a real buffer,
     * a zero-filled (virtual) packet of the same size in a virtual one.
     */
    Ptr<Packet> Read(uint64_t offset, uint32_t len) const;

    /** Direct access to the octets of a real buffer (nullptr for a virtual one). */
    uint8_t* Data() { return m_real ? m_bytes.data() : nullptr; }
    const uint8_t* Data() const { return m_real ? m_bytes.data() : nullptr; }

    /** Octets written since creation (both modes): what the placement engine moved. */
    uint64_t GetBytesWritten() const { return m_bytesWritten; }

  private:
    ByteBuffer(uint64_t size, bool real);
    void CheckRange(uint64_t offset, uint64_t len) const;

    uint64_t m_size;
    bool m_real;
    std::vector<uint8_t> m_bytes;
    uint64_t m_bytesWritten{0};
};

} // namespace ns3

#endif // IWARP_BYTE_BUFFER_H
