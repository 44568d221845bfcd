/*
 * Sender side of an association's data: user messages cut into DATA chunks, TSNs, what is outstanding,
 * gap-acknowledged or marked for retransmission, and what a SACK means for each (RFC 9260 §6.1, §6.2.1,
 * §6.3.3, §7.2.4). It decides nothing about timers or congestion: it reports facts (bytes newly acked, an
 * RTT sample per Karn's rule, chunks with three miss indications) and the association acts on them.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_TX_QUEUE_H
#define IWARP_SCTP_TX_QUEUE_H

#include "sctp/sctp-chunk.h"

#include "ns3/nstime.h"

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

class SctpTxQueue
{
  public:
    /** Destinations of one association the queue keeps counts for (SctpSocket uses at most this many). */
    static constexpr size_t kMaxPaths = 8;

    /** One DATA chunk from the moment its message is queued until it is cumulatively acknowledged. */
    struct Entry
    {
        std::shared_ptr<SctpDataChunk> chunk;
        bool sent{false};         ///< transmitted at least once
        bool gapAcked{false};     ///< covered by a gap ack block of the latest SACK
        bool markedForRtx{false}; ///< to be sent again (T3 or fast retransmit); not in flight meanwhile
        bool fastRtxDone{false};  ///< already fast-retransmitted once (§7.2.4: only once)
        bool markedByFastRtx{false}; ///< markedForRtx by fast retransmit, not by a T3-rtx expiry
        uint32_t txCount{0};
        uint32_t missCount{0};
        Time lastSent{0};
        uint32_t bytes{0}; ///< chunk->GetSerializedSize(), fixed once queued (flight is counted in it)
        uint8_t path{0};   ///< the destination (association path index) it was last sent to

        uint32_t Bytes() const { return bytes; }
        bool InFlight() const { return sent && !gapAcked && !markedForRtx; }
    };

    struct SackResult
    {
        bool stale{false};          ///< Cumulative TSN Ack below ours: ignore the SACK
        bool cumAdvanced{false};
        uint32_t bytesAcked{0};     ///< newly acknowledged (cum or gap), chunk sizes as booked
        std::optional<Time> rtt;    ///< sample of a chunk sent exactly once (Karn)
        std::vector<uint32_t> fastRtx; ///< TSNs that reached three miss indications now
        uint32_t highestNewlyAcked{0};
        /** bytesAcked split by the destination each chunk was last sent to. */
        std::array<uint32_t, kMaxPaths> bytesAckedByPath{};
        uint32_t pathsAcked{0};  ///< bit p: a chunk last sent to path p was newly acknowledged
        /** bit p: the earliest outstanding chunk last sent to path p was acknowledged, cumulatively or by a
         *  gap block (§6.3.2 R3: restart p's T3-rtx). Single-homed, the same as cumAdvanced: the chunk
         *  after the Cumulative TSN Ack cannot be in a gap block. */
        uint32_t pathsEarliestAcked{0};
        uint8_t rttPath{0};      ///< the destination `rtt` was measured on
        uint8_t fastRtxPath{0};  ///< the destination fastRtx.front() was last sent to
        uint32_t fastRtxPaths{0}; ///< bit p: a chunk of fastRtx was last sent to p (§7.2.4: p's window adjusts)
    };

    void Reset(uint32_t initialTsn);

    /** Cuts one message into chunks of at most `maxFragment` user octets; returns the number of chunks. */
    uint32_t Enqueue(const std::vector<uint8_t>& msg,
                     uint16_t stream,
                     uint16_t ssn,
                     uint32_t ppid,
                     bool unordered,
                     uint32_t maxFragment);

    SackResult ProcessSack(uint32_t cumTsnAck, const std::vector<std::pair<uint16_t, uint16_t>>& gaps, Time now);

    /** T3-rtx of `path` expired: its chunks in flight (sent to it, not gap-acknowledged) are marked for
     *  retransmission (RFC 9260 §6.3.3 E3: the destination whose timer expired). */
    uint32_t MarkAllForRetransmission(uint8_t path = 0);
    /** Marks chunks `tsns` for fast retransmission. */
    void MarkFastRetransmit(const std::vector<uint32_t>& tsns);

    /** Next chunk to (re)transmit, retransmissions first; null if none. `rtxOnly` limits to retransmissions. */
    Entry* NextToSend(bool rtxOnly);
    bool HasMarked() const;
    bool HasUnsent() const;
    /** Call after putting the chunk on the wire, to destination `path`. */
    void OnSent(Entry& e, Time now, uint8_t path = 0);

    uint32_t GetFlightSize() const { return m_flight; }
    /** Octets in flight to destination `path`. */
    uint32_t GetFlightSize(uint8_t path) const { return m_flightByPath[path]; }
    /** Octets of user data queued or outstanding (the send buffer in use). */
    uint64_t GetBufferedBytes() const { return m_bufferedUserBytes; }
    bool Empty() const { return m_q.empty(); }
    bool HasOutstanding() const { return m_sent > 0; }
    /** Chunks last sent to `path` and not acknowledged (in flight, or marked for retransmission). */
    bool HasOutstanding(uint8_t path) const { return m_unackedByPath[path] > 0; }
    uint32_t GetCumAckPoint() const { return m_cumAck; }
    uint32_t GetNextTsn() const { return m_nextTsn; }
    uint32_t GetHighestSentTsn() const;
    /** DATA chunks of `stream` queued or outstanding, i.e. not yet cumulatively acknowledged. */
    uint32_t GetUnackedChunks(uint16_t stream) const;

  private:
    /**
     * Changes one entry's flags through `change` and keeps the counts below in step. Every flag
     * change goes through here: the counts spare a walk over the whole queue (thousands of chunks
     * with a 4 MiB send buffer) for every chunk sent and every SACK.
     */
    template <typename Change>
    void Update(Entry& e, Change change);
    void Count(const Entry& e, int sign);
    /** TSN of each path's earliest chunk sent and not acknowledged, from the front of the queue. */
    std::array<std::optional<uint32_t>, kMaxPaths> EarliestOutstanding() const;
    /** ProcessSack's: sets r.pathsEarliestAcked for each path whose `earliest` chunk is now acknowledged. */
    void NoteEarliestAcked(const std::array<std::optional<uint32_t>, kMaxPaths>& earliest, SackResult& r) const;
    /** ProcessSack's, with gap blocks: one more miss indication below r.highestNewlyAcked (§7.2.4). */
    void CountMissIndications(SackResult& r);

    std::deque<Entry> m_q; ///< TSN order; front is m_cumAck + 1
    /** How many entries at the front of m_q have been sent. New chunks leave in TSN order, so the sent ones
     *  are a prefix, and everything that looks for outstanding chunks (SACK processing, the flight, marked
     *  retransmissions) stops there instead of walking the whole send buffer. With a large buffer full of
     *  unsent data that walk, once per SACK and twice per chunk sent, was most of a bulk transfer's cost. */
    size_t m_sent{0};
    uint32_t m_nextTsn{0};
    uint32_t m_cumAck{0};
    uint64_t m_bufferedUserBytes{0};
    /** Entries of m_q per stream id, kept as chunks come and go so the count is not a scan of m_q. */
    std::map<uint16_t, uint32_t> m_unackedPerStream;
    std::optional<uint32_t> m_timedTsn; ///< the one chunk being timed (one RTT sample per round trip)
    uint32_t m_flight{0};  ///< sum of Bytes() of the entries InFlight()
    std::array<uint32_t, kMaxPaths> m_flightByPath{}; ///< m_flight split by Entry::path
    std::array<uint32_t, kMaxPaths> m_unackedByPath{}; ///< entries sent and not gap-acked, by Entry::path
    size_t m_marked{0};    ///< entries markedForRtx
    size_t m_gapAcked{0};  ///< entries gapAcked
};

/** Serial-number comparison of TSNs (RFC 1982 with 32 bits): a < b. */
inline bool
TsnLt(uint32_t a, uint32_t b)
{
    return a != b && uint32_t(b - a) < 0x80000000u;
}

inline bool
TsnLe(uint32_t a, uint32_t b)
{
    return a == b || TsnLt(a, b);
}

} // namespace ns3

#endif // IWARP_SCTP_TX_QUEUE_H
