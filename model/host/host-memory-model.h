/*
 * HostMemoryModel: a host's memory bus as one FIFO server (doc/host-model.md).
 *
 * Every transaction, whoever issues it (the NIC's DMA engine or a CPU copy), occupies the bus
 * for
 *     T_bus(n) = TransactionOverhead + ceil(n * 8 / Bandwidth)
 * one after another in submission order, so a busy bus delays the completion of everything
 * queued behind it. That serialization is the point of the model: RDMA places received data
 * with one crossing of the bus, the sockets path needs three (DMA into a kernel buffer, then
 * the copy's read and write), and when the bus is the bottleneck the difference shows up as
 * delivery time.
 *
 * Aggregate it to a Node (HostHelper does). Completion callbacks always run from a scheduled
 * event, never from inside Transfer(), so callers need not guard against re-entry.
 */
/**
 * \file
 * \ingroup iwarp-host
 */
#ifndef IWARP_HOST_MEMORY_MODEL_H
#define IWARP_HOST_MEMORY_MODEL_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <cstdint>

namespace ns3
{

/** Who moves the octets of a bus transaction, and in which direction. */
enum class MemoryTransaction : uint8_t
{
    NicDmaWrite,  ///< the NIC writes received data into host memory
    NicDmaRead,   ///< the NIC reads data to transmit from host memory
    CpuCopyRead,  ///< the read half of a CPU copy (memcpy source)
    CpuCopyWrite, ///< the write half of a CPU copy (memcpy destination)
    CpuRead,      ///< any other CPU read that misses the caches (a software CRC pass, ...)
    CpuWrite,     ///< any other CPU write that reaches memory
};

/** Number of MemoryTransaction kinds (array sizes). */
constexpr std::size_t kMemoryTransactionKinds = 6;

/** "NicDmaWrite", ...: stable names for CSV columns and logs. */
const char* ToString(MemoryTransaction kind);

class HostMemoryModel : public Object
{
  public:
    static TypeId GetTypeId();
    HostMemoryModel();

    /**
     * Queue a transaction of `bytes` behind everything already submitted; `done` (may be
     * null) runs when it has crossed the bus. Returns the absolute completion time. A transaction
     * nobody waits for (`done` null) or listens to (no sink on either trace) schedules no events
     * of its own: it occupies the bus all the same, the counters take it in once the clock has
     * passed its end, and one wake-up event at a time keeps a run going until the last such end
     * (a sink connected later hears only of transactions submitted after it).
     */
    Time Transfer(uint64_t bytes, MemoryTransaction kind, Callback<void> done);

    /** Bus occupancy of one transaction of `bytes`: overhead + bytes / Bandwidth (rounded up to 1 ns). */
    Time Duration(uint64_t bytes) const;
    /** When a transaction of `bytes` submitted now would complete (nothing is queued). */
    Time WouldFinishAt(uint64_t bytes) const;
    /** When the bus has worked off everything submitted so far (now when idle). */
    Time GetFreeAt() const;
    /** Transactions submitted that have not completed yet. */
    uint32_t GetQueued() const
    {
        Settle();
        return m_queued;
    }

    /** Counters, updated when a transaction completes. */
    uint64_t GetBytes(MemoryTransaction kind) const
    {
        Settle();
        return m_bytes[Index(kind)];
    }
    uint64_t GetTransactions(MemoryTransaction kind) const
    {
        Settle();
        return m_transactions[Index(kind)];
    }
    uint64_t GetTotalBytes() const;
    uint64_t GetTotalTransactions() const;
    /** Sum of the occupancy of completed transactions. */
    Time GetBusyTime() const
    {
        Settle();
        return m_busy;
    }

    DataRate GetBandwidth() const { return m_bandwidth; }
    /** Rejects (returns false for) a zero rate: the bus would never finish anything. */
    bool SetBandwidth(DataRate rate);
    Time GetTransactionOverhead() const { return m_overhead; }
    /** Rejects a negative overhead. */
    bool SetTransactionOverhead(Time overhead);

    /** (kind, bytes): a transaction got the bus (start) or left it (end). */
    typedef void (*TransactionTracedCallback)(MemoryTransaction kind, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    static std::size_t Index(MemoryTransaction k) { return static_cast<std::size_t>(k); }
    void Start(MemoryTransaction kind, uint64_t bytes);
    void Finish(MemoryTransaction kind, uint64_t bytes, Time occupancy, Callback<void> done);
    /** Count a completed transaction. */
    void Count(MemoryTransaction kind, uint64_t bytes, Time occupancy) const;
    /** Count the quiet transactions that have completed by now. */
    void Settle() const;
    /** Settle, and wake up again at the last quiet transaction's end while any is left. */
    void WakeUp();

    /** A transaction without events (see Transfer), counted once the clock passes `end`. */
    struct Quiet
    {
        Time end;
        MemoryTransaction kind;
        uint64_t bytes;
        Time occupancy;
    };

    DataRate m_bandwidth;
    Time m_overhead;

    Time m_freeAt;     ///< when the last submitted transaction leaves the bus
    // The counters are brought up to date from const getters (Settle), hence mutable.
    mutable uint32_t m_queued{0};
    mutable std::array<uint64_t, kMemoryTransactionKinds> m_bytes{};
    mutable std::array<uint64_t, kMemoryTransactionKinds> m_transactions{};
    mutable Time m_busy;
    mutable std::deque<Quiet> m_quiet; ///< in order of their ends (the bus is FIFO)
    EventId m_wakeUp;

    TracedCallback<MemoryTransaction, uint64_t> m_startTrace;
    TracedCallback<MemoryTransaction, uint64_t> m_endTrace;
};

/** ceil(bytes * 8 / rate) in nanoseconds, exact (no floating point), as a Time. */
Time BytesOverRate(uint64_t bytes, DataRate rate);

} // namespace ns3

#endif // IWARP_HOST_MEMORY_MODEL_H
