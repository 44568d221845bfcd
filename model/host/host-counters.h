/*
 * HostCounters: a plain snapshot of a node's host-model counters, for results writers.
 *
 *   HostCounters c = HostCounters::FromNode(node);   // valid == false without a host model
 *   out << HostCounters::CsvHeader(c.coreBusy.size()) << "\n" << c.CsvRow() << "\n";
 *
 * Counters only include work that has completed at the time of the snapshot.
 */
/**
 * \file
 * \ingroup iwarp-host
 */
#ifndef IWARP_HOST_COUNTERS_H
#define IWARP_HOST_COUNTERS_H

#include "host/host-memory-model.h"

#include "ns3/node.h"
#include "ns3/nstime.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class HostCpuModel;
class HostModel;

/**
 * What a host's cycles were spent on (HostModel counts them per completed operation): the kernel's
 * network stack per packet (and a zero-copy send's notification), copies, software CRCs, the RDMA
 * verbs (posting work requests with their doorbells, reaping completions, completion events) and
 * memory registration (pinning pages), and the TCP checksum where the NIC does not offload it.
 */
enum class HostCycleUse : uint8_t
{
    Stack,
    Copy,
    Crc,
    Verbs,
    Registration,
    Checksum,
};
inline constexpr std::size_t kHostCycleUses = static_cast<std::size_t>(HostCycleUse::Checksum) + 1;

/**
 * "stack", "copy", "crc", "verbs", "registration", "checksum": the suffix of its counter
 * (cpu_cycles_<use>).
 */
const char* ToString(HostCycleUse use);

struct HostCounters
{
    bool valid{false};        ///< false: the node has no HostMemoryModel/HostCpuModel
    Time at;                  ///< simulation time of the snapshot
    std::vector<Time> coreBusy; ///< busy time per core
    uint64_t cpuCycles{0};    ///< cycles executed, all cores
    uint64_t cpuJobs{0};      ///< jobs executed, all cores
    /** Cycles of the HostModel's completed operations by what they were spent on (zero without one). */
    std::array<uint64_t, kHostCycleUses> cyclesByUse{};
    uint64_t busBytes{0};     ///< octets over the memory bus, all kinds
    uint64_t busTransactions{0};
    Time busBusy;             ///< time the bus was occupied
    std::array<uint64_t, kMemoryTransactionKinds> busBytesByKind{};
    std::array<uint64_t, kMemoryTransactionKinds> transactionsByKind{};
    uint64_t copies{0};       ///< CPU copies (one CpuCopyWrite transaction each)
    uint64_t dmas{0};         ///< NIC DMA transactions (NicDmaWrite + NicDmaRead)
    /**
     * Received octets the NIC wrote into the last-level cache (DDIO) that the copy then read from
     * there: neither the DMA nor the copy's read of them crossed the bus (zero without a HostModel).
     */
    uint64_t ddioBytes{0};

    /** Snapshot of the models aggregated to `node`. */
    static HostCounters FromNode(Ptr<Node> node);
    /**
     * Snapshot of a given bus and CPU (either may be null: valid is then false), with the cycles by
     * use of `host` when given.
     */
    static HostCounters From(Ptr<const HostMemoryModel> mem,
                             Ptr<const HostCpuModel> cpu,
                             Ptr<const HostModel> host = nullptr);

    uint64_t Cycles(HostCycleUse use) const { return cyclesByUse[static_cast<std::size_t>(use)]; }

    uint64_t BusBytes(MemoryTransaction kind) const
    {
        return busBytesByKind[static_cast<std::size_t>(kind)];
    }

    /** Total core busy time over all cores. */
    Time CpuBusy() const;

    /**
     * (column, value) pairs in a fixed order: time_s, cpu_busy_s_core<i>..., cpu_cycles,
     * cpu_cycles_<use>..., bus_bytes_<Kind>..., copies, dmas, ddio_bytes
     */
    std::vector<std::pair<std::string, std::string>> Fields() const;
    /** Comma-separated column names for a host with `cores` cores. */
    static std::string CsvHeader(std::size_t cores);
    /** Comma-separated values, in CsvHeader's order. */
    std::string CsvRow() const;
};

} // namespace ns3

#endif // IWARP_HOST_COUNTERS_H
