/*
 * Bulk traffic for long SCTP transfers between two independent stacks, where neither side can keep a copy
 * of what the other sent: a plan of messages (sizes, streams, ordered or not) and their octets, all derived
 * from a seed, so that the receiver regenerates what it should get and compares octet for octet as
 * messages arrive. Ordered streams must deliver the plan's messages of that stream in plan order; an
 * unordered message may come at any time, so it names itself in its first four octets (little-endian
 * index into the plan) and must arrive exactly once.
 *
 * Streams: 0 and 2 ordered, 1 unordered. Sizes mix tiny messages, single-chunk ones and multi-chunk ones
 * up to 64 KiB, so both SCTP ends fragment and reassemble.
 */
#ifndef IWARP_SCTP_BULK_TRAFFIC_H
#define IWARP_SCTP_BULK_TRAFFIC_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

class BulkPlan
{
  public:
    static constexpr uint16_t kStreams = 3;
    static constexpr uint16_t kUnorderedStream = 1;
    static constexpr uint32_t kMaxMessage = 65536;

    struct Message
    {
        uint16_t stream{0};
        bool unordered{false};
        uint32_t size{0};
    };

    /** Messages until their sizes add up to at least `totalOctets`. */
    BulkPlan(uint64_t seed, uint64_t totalOctets);

    size_t Count() const { return m_msgs.size(); }
    const Message& Get(size_t i) const { return m_msgs[i]; }
    uint64_t TotalOctets() const { return m_total; }
    /** Messages of the plan larger than `octets` (to show that a path MTU forces fragmentation). */
    size_t CountLargerThan(uint32_t octets) const;
    /** Writes message i's Get(i).size octets to `out`. */
    void Fill(size_t i, uint8_t* out) const;

  private:
    uint64_t m_seed;
    uint64_t m_total{0};
    std::vector<Message> m_msgs;
};

/** Checks, message by message, what a receiver got against a BulkPlan. */
class BulkChecker
{
  public:
    explicit BulkChecker(const BulkPlan& plan);

    /** One whole message as the receiving user got it on `stream`. */
    void OnMessage(uint16_t stream, const uint8_t* data, size_t len);

    /** Every message of the plan arrived, intact and in order, and nothing else did. */
    bool Complete() const { return m_error.empty() && m_messages == m_plan.Count(); }
    /** The first thing that went wrong (empty while all is well). */
    const std::string& Error() const { return m_error; }
    uint64_t Octets() const { return m_octets; }
    uint64_t Messages() const { return m_messages; }
    /** Unordered messages that arrived before one sent earlier on their stream (out-of-order delivery). */
    uint64_t UnorderedOvertakes() const { return m_overtakes; }

  private:
    void Fail(const std::string& what);

    const BulkPlan& m_plan;
    std::vector<std::vector<uint32_t>> m_ordered; ///< per ordered stream: plan indices in order
    std::vector<size_t> m_next;                   ///< per ordered stream: position of the next expected
    std::vector<bool> m_seen;                     ///< per plan index (unordered ones)
    uint32_t m_highestUnordered{0};
    uint64_t m_octets{0};
    uint64_t m_messages{0};
    uint64_t m_overtakes{0};
    std::string m_error;
    std::vector<uint8_t> m_expect;
};

/** Hands a plan's messages, in plan order, to whatever sends them, for as long as it takes them. */
class BulkSender
{
  public:
    /** Tries to send one message; false if there is no room now (the same message is offered again later). */
    using TrySend = std::function<bool(const BulkPlan::Message& m, const uint8_t* data)>;

    explicit BulkSender(const BulkPlan& plan);
    /** Offers messages until one is refused or all are sent; returns how many were taken. */
    uint32_t Pump(const TrySend& send);
    bool Done() const { return m_next == m_plan.Count(); }

  private:
    const BulkPlan& m_plan;
    size_t m_next{0};
    std::vector<uint8_t> m_buf;
    bool m_filled{false}; ///< m_buf holds message m_next already
};

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_SCTP_BULK_TRAFFIC_H
