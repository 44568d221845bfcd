/*
 * HostCpuModel: a host's cores as N FIFO servers, and the cycle costs of the sockets path
 * (doc/host-model.md).
 *
 * A job of c cycles occupies one core for
 *     T_cpu(c) = ceil(c * 1e9 / Frequency) ns
 * after the jobs already queued on that core. Execute() picks the core that frees up first
 * (lowest index on a tie), ExecuteOn() a given one (a flow steered to one core, as RSS does).
 *
 * The cost Attributes (CopyCyclesPerByte, CrcCyclesPerByte, RxCyclesPerPacket,
 * TxCyclesPerPacket) are only read by whoever composes operations (HostModel); the CPU
 * itself just runs cycles. Keeping them here puts every CPU tunable in one TypeId.
 */
/**
 * \file
 * \ingroup iwarp-host
 */
#ifndef IWARP_HOST_CPU_MODEL_H
#define IWARP_HOST_CPU_MODEL_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class HostCpuModel : public Object
{
  public:
    static TypeId GetTypeId();
    HostCpuModel();

    /** The Frequency attribute's default, Hz. */
    static constexpr double kDefaultFrequency = 2.5e9;

    /**
     * Run `cycles` on the core that is free first; `done` (may be null) runs when they have
     * been executed, always from a scheduled event. Returns the core chosen.
     */
    uint32_t Execute(uint64_t cycles, Callback<void> done);
    /** Run `cycles` on `core` (< GetCores()), behind what is queued there. Returns the completion time. */
    Time ExecuteOn(uint32_t core, uint64_t cycles, Callback<void> done);

    /** Core time of `cycles` at Frequency, rounded up to a nanosecond. */
    Time CyclesToTime(uint64_t cycles) const;
    /** The core Execute() would choose now. */
    uint32_t EarliestFreeCore() const;
    /** When `core` has worked off its queue (now when idle). */
    Time GetFreeAt(uint32_t core) const;

    uint32_t GetCores() const { return static_cast<uint32_t>(m_cores.size()); }
    /** Sum of completed jobs' time on `core`. */
    Time GetBusyTime(uint32_t core) const { return m_cores.at(core).busy; }
    /** Cycles of completed jobs, all cores. */
    uint64_t GetCycles() const { return m_cycles; }
    /** Completed jobs, all cores. */
    uint64_t GetJobs() const { return m_jobs; }

    // Cost parameters (Attributes); see doc/host-model.md for their sources.
    double GetFrequency() const { return m_frequency; }
    double GetCopyCyclesPerByte() const { return m_copyCyclesPerByte; }
    double GetCrcCyclesPerByte() const { return m_crcCyclesPerByte; }
    double GetChecksumCyclesPerByte() const { return m_checksumCyclesPerByte; }
    uint64_t GetRxCyclesPerPacket() const { return m_rxCyclesPerPacket; }
    uint64_t GetTxCyclesPerPacket() const { return m_txCyclesPerPacket; }

    /** Cycles to copy `bytes` (rounded up): CopyCyclesPerByte * bytes. */
    uint64_t CopyCycles(uint64_t bytes) const;
    /** Cycles to CRC `bytes` in software (rounded up): CrcCyclesPerByte * bytes. */
    uint64_t CrcCycles(uint64_t bytes) const;
    /** Cycles of the TCP checksum over `bytes` in software (rounded up): ChecksumCyclesPerByte * bytes. */
    uint64_t ChecksumCycles(uint64_t bytes) const;

    /** (core, cycles): a job started or finished on a core. */
    typedef void (*JobTracedCallback)(uint32_t core, uint64_t cycles);

  protected:
    void DoDispose() override;

  private:
    struct Core
    {
        Time freeAt;
        Time busy;
    };

    bool SetCores(uint32_t n);
    uint32_t GetCoresAttr() const { return GetCores(); }
    void Start(uint32_t core, uint64_t cycles);
    void Finish(uint32_t core, uint64_t cycles, Time occupancy, Callback<void> done);

    std::vector<Core> m_cores;
    double m_frequency;
    double m_copyCyclesPerByte;
    double m_crcCyclesPerByte;
    double m_checksumCyclesPerByte;
    uint64_t m_rxCyclesPerPacket;
    uint64_t m_txCyclesPerPacket;

    uint64_t m_cycles{0};
    uint64_t m_jobs{0};
    uint32_t m_running{0}; ///< jobs submitted and not finished (SetCores refuses while > 0)

    TracedCallback<uint32_t, uint64_t> m_startTrace;
    TracedCallback<uint32_t, uint64_t> m_endTrace;
};

} // namespace ns3

#endif // IWARP_HOST_CPU_MODEL_H
