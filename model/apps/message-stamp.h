/*
 * MessageStamp: how the sockets baseline finds messages in TCP's byte stream. A socket carries octets, not
 * messages, so every message the baseline sends starts with a 16-octet stamp (big-endian):
 *
 *     message number (4) | message size in octets, the stamp included (4) | post time in ns (8)
 *
 * and the receiver cuts the stream back into messages with a StampedStreamReader, one per connection. The
 * stamp is the application's own framing, as any message protocol over a byte stream needs one (an RPC's
 * length prefix); RDMA carries the same facts in its DDP and RDMAP headers.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_MESSAGE_STAMP_H
#define IWARP_MESSAGE_STAMP_H

#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <functional>

namespace ns3
{

struct MessageStamp
{
    /** Octets of the stamp: the smallest message. */
    static constexpr uint32_t kOctets = 16;

    uint32_t number{0};
    uint32_t size{0}; ///< the whole message's octets, the stamp included
    Time posted;

    /** A message of `size` octets (at least kOctets) that starts with this stamp; the rest are zero octets. */
    static Ptr<Packet> MakeMessage(uint32_t number, uint32_t size, Time posted);
};

/** Cuts one connection's in-order octets back into stamped messages. */
class StampedStreamReader
{
  public:
    using Seen = std::function<void(const MessageStamp&)>;
    /**
     * Take the next `chunk` of the stream; `whole` is called, in order, with the stamp of each message whose
     * last octet the chunk holds, and `first` (if set) with the stamp of each whose stamp the chunk completes
     * (its first octets have reached the user: a message shorter than a chunk gets both). Aborts on a stamp
     * whose size is below kOctets (the stream is not stamped).
     */
    void Consume(Ptr<const Packet> chunk, const Seen& whole, const Seen& first = nullptr);

  private:
    /** The current message's stamp (complete). */
    MessageStamp Stamp() const;

    uint64_t m_offset{0}; ///< octets of the current message taken so far
    uint8_t m_stamp[MessageStamp::kOctets]{};
    uint32_t m_size{0}; ///< the current message's size, once its stamp is complete
};

} // namespace ns3

#endif // IWARP_MESSAGE_STAMP_H
