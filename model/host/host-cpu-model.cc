#include "host/host-cpu-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpuModel");
NS_OBJECT_ENSURE_REGISTERED(HostCpuModel);

namespace
{
/**
 * ChecksumCyclesPerByte's default: Linux's csum_partial on x86-64 before its 2023 rewrite, 117 cycles
 * for 1552 octets on Icelake (N. Goldstein's commit "x86/csum: Improve performance of csum_partial"
 * measured the old code beside the new, 72).
 */
constexpr double CHECKSUM_DEFAULT = 0.075;
} // namespace

TypeId
HostCpuModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostCpuModel")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<HostCpuModel>()
            .AddAttribute("Cores",
                          "Cores that run protocol processing and copies (at least 1; cannot "
                          "change while jobs are running)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&HostCpuModel::GetCoresAttr, &HostCpuModel::SetCores),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Frequency",
                          "Core clock in Hz, 1 MHz to 10 GHz (no core has shipped faster than about 6.2 GHz)",
                          DoubleValue(kDefaultFrequency),
                          MakeDoubleAccessor(&HostCpuModel::m_frequency),
                          MakeDoubleChecker<double>(1e6, 1e10))
            .AddAttribute("CopyCyclesPerByte",
                          "Core cycles per octet copied between kernel and user buffers (the "
                          "memory traffic of the copy is charged to the bus separately); 0 to 100: a copy "
                          "that misses the cache on every 64-octet line costs about 5",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostCpuModel::m_copyCyclesPerByte),
                          MakeDoubleChecker<double>(0.0, 100.0))
            .AddAttribute("CrcCyclesPerByte",
                          "Core cycles per octet of a software CRC32c (between the CRC32 "
                          "instruction's ~0.1 and table-driven code's few cycles per octet); 0 to 100: "
                          "a bit-at-a-time loop costs a few tens",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostCpuModel::m_crcCyclesPerByte),
                          MakeDoubleChecker<double>(0.0, 100.0))
            .AddAttribute("ChecksumCyclesPerByte",
                          "Core cycles per octet of the TCP/IP (ones' complement) checksum computed in "
                          "software, charged where HostModel::ChecksumOffload is off; 0 to 100",
                          DoubleValue(CHECKSUM_DEFAULT),
                          MakeDoubleAccessor(&HostCpuModel::m_checksumCyclesPerByte),
                          MakeDoubleChecker<double>(0.0, 100.0))
            .AddAttribute("RxCyclesPerPacket",
                          "Core cycles per received packet for the protocol stack (interrupt, "
                          "driver, IP, TCP, socket wake-up); with the copy, ~1 Hz per bit/s at "
                          "1448-octet segments; at most 10^7 (4 ms at 2.5 GHz, a thousand times the "
                          "default)",
                          UintegerValue(10000),
                          MakeUintegerAccessor(&HostCpuModel::m_rxCyclesPerPacket),
                          MakeUintegerChecker<uint64_t>(0, 10000000))
            .AddAttribute("TxCyclesPerPacket",
                          "Core cycles per sent packet for the protocol stack (half the "
                          "receive cost: transmit is the cheaper direction); at most 10^7",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&HostCpuModel::m_txCyclesPerPacket),
                          MakeUintegerChecker<uint64_t>(0, 10000000))
            .AddTraceSource("JobStart",
                            "A job started on a core (core, cycles)",
                            MakeTraceSourceAccessor(&HostCpuModel::m_startTrace),
                            "ns3::HostCpuModel::JobTracedCallback")
            .AddTraceSource("JobEnd",
                            "A job finished on a core (core, cycles)",
                            MakeTraceSourceAccessor(&HostCpuModel::m_endTrace),
                            "ns3::HostCpuModel::JobTracedCallback");
    return tid;
}

HostCpuModel::HostCpuModel()
    : m_cores(4),
      m_frequency(kDefaultFrequency),
      m_copyCyclesPerByte(1.0),
      m_crcCyclesPerByte(1.0),
      m_checksumCyclesPerByte(CHECKSUM_DEFAULT),
      m_rxCyclesPerPacket(10000),
      m_txCyclesPerPacket(5000)
{
}

void
HostCpuModel::DoDispose()
{
    Object::DoDispose();
}

bool
HostCpuModel::SetCores(uint32_t n)
{
    // Resizing under running jobs would strand their Finish events on a core that no longer
    // exists; a scenario sets the core count before the simulation starts.
    if (n == 0 || m_running > 0)
    {
        return false;
    }
    m_cores.assign(n, Core{});
    return true;
}

Time
HostCpuModel::CyclesToTime(uint64_t cycles) const
{
    // ceil(cycles / f) in ns; long double keeps integral cycle counts at integral-GHz
    // clocks exact, so the equations in the tests hold to the nanosecond.
    const long double ns = std::ceil(static_cast<long double>(cycles) * 1e9L /
                                         static_cast<long double>(m_frequency) -
                                     1e-9L);
    return NanoSeconds(static_cast<int64_t>(std::max(ns, 0.0L)));
}

uint64_t
HostCpuModel::CopyCycles(uint64_t bytes) const
{
    return static_cast<uint64_t>(std::ceil(m_copyCyclesPerByte * static_cast<double>(bytes)));
}

uint64_t
HostCpuModel::CrcCycles(uint64_t bytes) const
{
    return static_cast<uint64_t>(std::ceil(m_crcCyclesPerByte * static_cast<double>(bytes)));
}

uint64_t
HostCpuModel::ChecksumCycles(uint64_t bytes) const
{
    return static_cast<uint64_t>(std::ceil(m_checksumCyclesPerByte * static_cast<double>(bytes)));
}

Time
HostCpuModel::GetFreeAt(uint32_t core) const
{
    return std::max(m_cores.at(core).freeAt, Simulator::Now());
}

uint32_t
HostCpuModel::EarliestFreeCore() const
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < m_cores.size(); ++i)
    {
        if (GetFreeAt(i) < GetFreeAt(best))
        {
            best = i;
        }
    }
    return best;
}

uint32_t
HostCpuModel::Execute(uint64_t cycles, Callback<void> done)
{
    const uint32_t core = EarliestFreeCore();
    ExecuteOn(core, cycles, done);
    return core;
}

Time
HostCpuModel::ExecuteOn(uint32_t core, uint64_t cycles, Callback<void> done)
{
    NS_ABORT_MSG_IF(core >= m_cores.size(), "HostCpuModel: no core " << core);
    const Time now = Simulator::Now();
    const Time start = GetFreeAt(core);
    const Time occupancy = CyclesToTime(cycles);
    m_cores[core].freeAt = start + occupancy;
    ++m_running;
    NS_LOG_DEBUG("core " << core << " " << cycles << " cycles: start " << start.As(Time::NS)
                         << " end " << m_cores[core].freeAt.As(Time::NS));
    Simulator::Schedule(start - now, &HostCpuModel::Start, this, core, cycles);
    Simulator::Schedule(m_cores[core].freeAt - now,
                        &HostCpuModel::Finish,
                        this,
                        core,
                        cycles,
                        occupancy,
                        done);
    return m_cores[core].freeAt;
}

void
HostCpuModel::Start(uint32_t core, uint64_t cycles)
{
    m_startTrace(core, cycles);
}

void
HostCpuModel::Finish(uint32_t core, uint64_t cycles, Time occupancy, Callback<void> done)
{
    --m_running;
    m_cores[core].busy += occupancy;
    m_cycles += cycles;
    ++m_jobs;
    m_endTrace(core, cycles);
    if (!done.IsNull())
    {
        done();
    }
}

} // namespace ns3
