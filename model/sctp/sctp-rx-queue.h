/*
 * Receiver side of an association's data (RFC 9260 §6.2, §6.5, §6.6, §6.9): which TSNs arrived (the
 * cumulative TSN and the islands above it that become gap ack blocks), duplicates to report, reassembly of
 * fragmented messages and per-stream ordering. Unordered messages are handed up as soon as they are whole.
 *
 * TSNs are unwrapped into 64 bits against the cumulative TSN, so the maps below order them correctly across
 * the 32-bit wrap without serial arithmetic in every comparison.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_RX_QUEUE_H
#define IWARP_SCTP_RX_QUEUE_H

#include "sctp/sctp-chunk.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{

/** A whole user message as delivered to the socket. */
struct SctpMessage
{
    uint16_t stream{0};
    uint16_t ssn{0};
    uint32_t ppid{0};
    bool unordered{false};
    uint32_t firstTsn{0};
    std::vector<uint8_t> data;
};

class SctpRxQueue
{
  public:
    enum class Verdict
    {
        New,       ///< stored
        Duplicate, ///< already had it (reported in the next SACK)
        NoRoom,    ///< dropped: the receive buffer is full and it does not fill the next hole
    };

    void Reset(uint32_t peerInitialTsn, uint16_t inboundStreams, uint32_t rcvBuf);

    Verdict Receive(const SctpDataChunk& c);

    /** Whole messages ready for the user, in delivery order; the caller takes them. */
    std::deque<SctpMessage>& Ready() { return m_ready; }

    uint32_t GetCumTsn() const { return uint32_t(m_cum); }
    bool HasGaps() const { return !m_above.empty(); }
    /** a_rwnd to advertise: the buffer minus what is held (fragments, out-of-order, unread messages). */
    uint32_t GetArwnd() const;
    /** Fills a SACK from the current state and forgets the duplicates reported. */
    void FillSack(SctpSackChunk& s);
    /** The user read `n` octets of delivered messages: they no longer count against the window. */
    void OnUserRead(uint32_t n) { m_unread -= std::min<uint64_t>(n, m_unread); }

  private:
    uint64_t Unwrap(uint32_t tsn) const;
    void TryReassemble(uint64_t tsn);
    void DeliverOrdered(uint16_t stream);

    uint64_t m_cum{0};              ///< highest TSN with all below received (unwrapped)
    std::set<uint64_t> m_above;     ///< received TSNs above m_cum
    std::map<uint64_t, std::shared_ptr<SctpDataChunk>> m_frags; ///< fragments of incomplete messages
    std::map<uint16_t, std::map<uint16_t, SctpMessage>> m_ordered; ///< complete, waiting for their SSN
    std::vector<uint16_t> m_nextSsn;
    std::deque<SctpMessage> m_ready;
    std::vector<uint32_t> m_dups;
    uint64_t m_held{0};   ///< octets in m_frags and m_ordered
    uint64_t m_unread{0}; ///< octets delivered but not read
    uint32_t m_rcvBuf{65536};
};

} // namespace ns3

#endif // IWARP_SCTP_RX_QUEUE_H
