/*
 * One untagged buffer queue of a DDP stream (RFC 5041 §5.2-§5.4, CHECKLIST DDP-060).
 *
 * Buffers are matched to messages by MSN: the i-th posted buffer that is still waiting
 * holds the message whose MSN is base + i, where base is the MSN of the oldest message
 * not yet delivered. The legal MSN range is therefore [base, base + posted - 1].
 */
#ifndef IWARP_DDP_UNTAGGED_QUEUE_H
#define IWARP_DDP_UNTAGGED_QUEUE_H

#include "common/iwarp-constants.h"
#include "common/memory-access.h"

#include <cstdint>
#include "common/lazy-deque.h"

#include <deque>
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

    void Post(const DdpUntaggedBuffer& b) { m_buffers.push_back(b); }

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
    std::size_t GetPostedCount() const { return m_buffers.size(); }

  private:
    uint32_t m_base{iwarp::kMsnInitial};
    uint32_t m_lookahead;
    LazyDeque<DdpUntaggedBuffer> m_buffers;
};

} // namespace ns3

#endif // IWARP_DDP_UNTAGGED_QUEUE_H
