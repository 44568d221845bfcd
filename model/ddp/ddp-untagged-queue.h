/*
 * One untagged buffer queue of a DDP stream (RFC 5041 §5.2-§5.4, doc/conformance.md DDP-060).
 *
 * Buffers are matched to messages by MSN: the i-th posted buffer that is still waiting
 * holds the message whose MSN is base + i, where base is the MSN of the oldest message
 * not yet delivered. The legal MSN range is therefore [base, base + posted - 1].
 *
 * The buffers are a vector read from a head index, not a deque: libstdc++'s deque takes a 512-octet
 * node and a map on its first element, and every connected QP posts a few buffers of its own on two
 * queues (RDMAP's Read Requests and Terminate, RDMAP-035, RDMAP-050), 1.1 KiB of nodes per QP for
 * five 32-octet entries (iwarp-bench-scaling --profile-idle, doc/performance.md). Pointers a Match
 * or Find returns stay valid until the next Post or ConsumeFront.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_DDP_UNTAGGED_QUEUE_H
#define IWARP_DDP_UNTAGGED_QUEUE_H

#include "common/iwarp-constants.h"
#include "common/memory-access.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct DdpUntaggedBuffer
{
    BufferWindow window;
    uint64_t cookie{0};
};

class DdpUntaggedQueue
{
  public:
    /** Result of matching (MSN, MO, length) against the posted buffers. */
    struct Match
    {
        bool ok{false};
        iwarp::DdpUntaggedCode code{iwarp::DdpUntaggedCode::MsnNoBuffer};
        const DdpUntaggedBuffer* buffer{nullptr}; ///< set whenever the MSN has a buffer
    };

    /**
     * @param msnLookahead how far past the last posted buffer an MSN is still "the receiver
     *        is short of buffers" (0x02) rather than "implausible" (0x03) (A4).
     */
    explicit DdpUntaggedQueue(uint32_t msnLookahead = 1024)
        : m_lookahead(msnLookahead)
    {
    }

    void Post(const DdpUntaggedBuffer& b);

    /**
     * Checks U2-U5 of DDP-060 for a segment. Zero-length segments still need a buffer
     * (A6: U2 and U5 run, U3 and U4 do not), and their MO may not pass the buffer's end, which
     * would make the message (MO + 0 octets, DDP-046) longer than its buffer (0x04).
     */
    Match Check(uint32_t msn, uint32_t mo, uint32_t payloadLength) const;

    /** The buffer for the message with MSN `msn` (which Check accepted). */
    const DdpUntaggedBuffer* Find(uint32_t msn) const;

    /** The oldest message was delivered: its buffer is consumed, base advances. */
    DdpUntaggedBuffer ConsumeFront();

    /** Remove every posted buffer (flush on error); returns them oldest first. */
    std::vector<DdpUntaggedBuffer> TakeAll();

    uint32_t GetBaseMsn() const { return m_base; }
    void SetBaseMsn(uint32_t msn) { m_base = msn; }
    std::size_t GetPostedCount() const { return m_buffers.size() - m_head; }

  private:
    uint32_t m_base{iwarp::kMsnInitial};
    uint32_t m_lookahead;
    std::vector<DdpUntaggedBuffer> m_buffers; ///< [m_head, end) are posted, oldest first
    std::size_t m_head{0};                    ///< entries before it were consumed
};

} // namespace ns3

#endif // IWARP_DDP_UNTAGGED_QUEUE_H
