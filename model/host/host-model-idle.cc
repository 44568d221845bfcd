/*
 * HostModel's idle-host durations: what its socket operations take when nothing else runs on the core or
 * the bus, from the same cost equations the operations charge (host-model.cc), stage by stage as they run
 * there. The sockets baseline's ideal FCT adds them to the network's (doc/traffic.md); the suite
 * iwarp-host-model checks them against the operations themselves.
 */
#include "host/host-model.h"

#include <algorithm>

namespace ns3
{

Time
HostModel::IdleSendTime(uint64_t bytes, uint32_t packets, bool zeroCopy) const
{
    Ptr<HostCpuModel> cpu = GetCpu();
    Ptr<HostMemoryModel> bus = GetMemory();
    const uint64_t checksum = m_checksumOffload ? 0 : cpu->ChecksumCycles(bytes);
    const uint64_t protocol = uint64_t(packets) * cpu->GetTxCyclesPerPacket();
    if (zeroCopy && m_checksumOffload)
    {
        return cpu->CyclesToTime(protocol + m_zeroCopyCycles) + bus->Duration(bytes);
    }
    // The copy (its cycles beside the bus's read and write of every octet), then the protocol, then the DMA.
    const Time copy = std::max(cpu->CyclesToTime(cpu->CopyCycles(bytes) + checksum), bus->Duration(bytes) * 2);
    return copy + cpu->CyclesToTime(protocol) + bus->Duration(bytes);
}

Time
HostModel::IdleReadTime(uint64_t bytes, uint32_t packets, uint64_t cached) const
{
    Ptr<HostCpuModel> cpu = GetCpu();
    Ptr<HostMemoryModel> bus = GetMemory();
    cached = std::min(cached, bytes);
    // The octets not in the cache cross the bus twice: the NIC's DMA before the stack, the copy's read after.
    const Time uncached = cached < bytes ? bus->Duration(bytes - cached) : Time(0);
    const uint64_t protocol = uint64_t(packets) * cpu->GetRxCyclesPerPacket();
    const uint64_t copy = cpu->CopyCycles(bytes) + (m_checksumOffload ? 0 : cpu->ChecksumCycles(bytes));
    // The copy's bus part: its read of what is not cached, its write of everything, from the protocol's end.
    const Time copyBus = uncached + bus->Duration(bytes);
    // The stack and the copy on one core in one stretch (aRFS), or the copy after the stack on another core.
    const Time fused = std::max(cpu->CyclesToTime(protocol + copy), cpu->CyclesToTime(protocol) + copyBus);
    const Time split = cpu->CyclesToTime(protocol) + std::max(cpu->CyclesToTime(copy), copyBus);
    return uncached + std::min(fused, split);
}

} // namespace ns3
