/*
 * HostModel: the data-path operations of a host, composed from its HostMemoryModel (bus) and
 * HostCpuModel (cores and cycle costs), all three aggregated to one Node (HostHelper::Install).
 * RDMA and the sockets baseline charge the same two resources, so a scenario can put them side
 * by side (doc/host-model.md "Cost equations").
 *
 *  RdmaReceive(n)      bus: NicDmaWrite(n)                          (data placed, no CPU)
 *  RdmaSend(n)         bus: NicDmaRead(n)
 *  SocketReceive(n, p, c) bus: NicDmaWrite(n - c) into a kernel buffer (c octets went to the LLC: DDIO)
 *                      -> core: p * RxCyclesPerPacket
 *                      -> Copy(n) kernel -> user on the same core (aRFS; without, the stack runs on
 *                         its receive queue's core, then the copy on the application's), its read of
 *                         the c cached octets off the bus (+ n * ChecksumCyclesPerByte without offload)
 *  SocketDuplicate(n)  bus: NicDmaWrite(n) -> core: RxCyclesPerPacket (+ checksum without offload; no copy)
 *  SocketSend(n, p, zero-copy) core: p * TxCyclesPerPacket + ZeroCopyCyclesPerSend -> bus: NicDmaRead(n)
 *                      (with checksum offload; without, a copy as below)
 *  SocketSend(n, p)    Copy(n) user -> kernel (+ n * ChecksumCyclesPerByte without checksum offload)
 *                      -> core: p * TxCyclesPerPacket on the same core -> bus: NicDmaRead(n)
 *  Copy(n)             core: CopyCycles(n) || bus: CpuCopyRead(n), CpuCopyWrite(n);
 *                      complete when the core and both bus transactions are
 *  SoftwareCrc(n)      core: CrcCycles(n) || bus: CpuRead(n)  (a software iWARP's MPA CRC)
 *  RdmaPost(w)         core: w * PostCyclesPerRequest            (verbs post with its doorbell)
 *  RdmaPoll()          core: PollCyclesPerCompletion             (one completion reaped)
 *  RdmaEvent()         core: EventCyclesPerCompletion            (interrupt and completion-event wake-up)
 *  RdmaRegister(n)     core: RegisterCycles + pages(n) * RegisterCyclesPerPage (pinning, 4 KiB pages)
 *
 * The RDMA verbs' cycles are charged beside the RNIC's work, never ahead of it: the engine's latency
 * is calibrated to application-to-application figures that include them (doc/host-model.md).
 *
 * Each `done` runs from a scheduled event once the whole operation has completed. `core`
 * pins an operation's CPU stages to one core (a flow steered by RSS); kAnyCore picks the
 * earliest free core for the first CPU stage and keeps the operation there (a receive whose stack core
 * differs, RSS without aRFS, runs its stack there and its copy on `core`).
 */
/**
 * \file
 * \ingroup iwarp-host
 */
#ifndef IWARP_HOST_MODEL_H
#define IWARP_HOST_MODEL_H

#include "host/host-counters.h"
#include "host/host-cpu-model.h"
#include "host/host-memory-model.h"

#include "ns3/simple-ref-count.h"

namespace ns3
{

/** The operations HostModel composes (trace argument). */
enum class HostOperation : uint8_t
{
    RdmaReceive,
    RdmaSend,
    SocketReceive,
    SocketSend,
    SocketDuplicate,
    Copy,
    SoftwareCrc,
    RdmaPost,
    RdmaPoll,
    RdmaEvent,
    RdmaRegister,
};

const char* ToString(HostOperation op);

class HostModel : public Object
{
  public:
    static TypeId GetTypeId();
    HostModel();

    static constexpr int32_t kAnyCore = -1;
    /** The page memory registration pins, in octets (x86-64's base page). */
    static constexpr uint64_t kPageOctets = 4096;

    /** The bus and CPU aggregated with this object (aborts when one is missing). */
    Ptr<HostMemoryModel> GetMemory() const;
    Ptr<HostCpuModel> GetCpu() const;

    /** The RNIC placed `bytes` in host memory: one NIC DMA write, no CPU. */
    void RdmaReceive(uint64_t bytes, Callback<void> done);
    /** The RNIC fetched `bytes` to transmit: one NIC DMA read, no CPU. */
    void RdmaSend(uint64_t bytes, Callback<void> done);
    /**
     * `bytes` in `packets` packets reached a socket: DMA, protocol cycles, copy to user. `cached` of
     * them are still in the last-level cache (DDIO, CachedOctets): their DMA and the copy's read of
     * them stay off the bus.
     */
    void SocketReceive(uint64_t bytes,
                       uint32_t packets,
                       Callback<void> done,
                       int32_t core = kAnyCore,
                       uint64_t cached = 0,
                       int32_t stackCore = kAnyCore);
    /**
     * A segment of `bytes` already received reached a socket again (a retransmission of data that
     * had arrived, or a late original): DMA and one packet's protocol cycles, nothing copied.
     */
    void SocketDuplicate(uint64_t bytes, Callback<void> done, int32_t core = kAnyCore);

    /**
     * The core that runs a connection's receive stack: with Arfs its application's `appCore` (the flow
     * steered to it); without, the core of the receive queue RSS puts it in, `flowHash` (of its
     * addresses and ports) modulo ReceiveQueues, queue i on core i mod Cores.
     */
    uint32_t StackCore(uint32_t appCore, uint32_t flowHash) const;
    /**
     * send() of `bytes` leaving in `packets` packets: copy to kernel, protocol cycles, DMA. With `zeroCopy`
     * (MSG_ZEROCOPY-like) no copy: the pages are pinned and a completion notified instead,
     * ZeroCopyCyclesPerSend cycles with the protocol's, then the DMA (with ChecksumOffload; without, a copy).
     */
    void SocketSend(uint64_t bytes,
                    uint32_t packets,
                    Callback<void> done,
                    int32_t core = kAnyCore,
                    bool zeroCopy = false);
    /** An application posted `requests` work requests to its RNIC, each with its doorbell write. */
    void RdmaPost(uint32_t requests, Callback<void> done, int32_t core = kAnyCore);
    /** An application reaped one completion from a completion queue (a poll that found it). */
    void RdmaPoll(Callback<void> done, int32_t core = kAnyCore);
    /** A completion queue armed for events raised one: the interrupt and the waiting thread's wake-up. */
    void RdmaEvent(Callback<void> done, int32_t core = kAnyCore);
    /** `bytes` of memory were registered: a fixed cost and one per page pinned. */
    void RdmaRegister(uint64_t bytes, Callback<void> done, int32_t core = kAnyCore);
    /** Pages of kPageOctets that `bytes` span (at least 1). */
    static uint64_t Pages(uint64_t bytes);

    /** A CPU copy of `bytes`: copy cycles on a core in parallel with a bus read and a bus write. */
    void Copy(uint64_t bytes, Callback<void> done, int32_t core = kAnyCore);

    /** A CRC computed in software over `bytes`: CRC cycles on a core in parallel with a bus read. */
    void SoftwareCrc(uint64_t bytes, Callback<void> done, int32_t core = kAnyCore);

    /**
     * The protocol packets a send() of `bytes` costs with segments of `segmentSize` octets: one per
     * segment, or per super-packet of up to TsoOctets with segmentation offload (at least 1).
     */
    uint32_t SendPackets(uint64_t bytes, uint32_t segmentSize) const;
    /**
     * The protocol packets `segments` received data segments of `segmentSize` octets cost: one each, or
     * one per aggregate of up to GroOctets with receive aggregation.
     */
    uint32_t ReceiveAggregates(uint32_t segments, uint32_t segmentSize) const;

    /**
     * A core for a new flow: round-robin over the cores, as RSS spreads connections over
     * receive queues. Pass it as `core` to keep one connection's processing on one core.
     */
    uint32_t AssignFlowCore();

    /** InterruptDelay: how long an idle connection's first arriving packet waits for its interrupt. */
    Time GetInterruptDelay() const { return m_interruptDelay; }
    /** InterruptFrames: packets that raise the interrupt before InterruptDelay has passed. */
    uint32_t GetInterruptFrames() const { return m_interruptFrames; }

    /**
     * The NIC wrote `octets` of received data into host memory. Returns the host's running count of
     * such octets after them: the mark to give CachedOctets when the data is read.
     */
    uint64_t NoteNicWrite(uint64_t octets);
    /**
     * Of `octets` written by the NIC up to `mark` (NoteNicWrite), those still in the last-level
     * cache now: all of them if fewer than DdioOctets octets of NIC writes have followed, none
     * otherwise (or without DDIO).
     */
    uint64_t CachedOctets(uint64_t mark, uint64_t octets) const;
    /** Received octets whose DMA and copy read stayed in the last-level cache, of reads completed so far. */
    uint64_t GetDdioBytes() const { return m_ddioBytes; }

    /**
     * Operations started and not yet done. An RdmaReceive or RdmaSend that nothing waits for (null `done`)
     * or listens to (no OperationStart or OperationEnd sink) is the bus's alone: HostMemoryModel::GetQueued
     * counts it, not this, and it schedules no event of its own.
     */
    uint32_t GetInFlight() const { return m_inFlight; }

    /**
     * How long SocketSend(bytes, packets, zeroCopy) takes on an idle host (no other work on its core or the
     * bus): the least it can take, the sockets baseline's fixed send cost in its ideal FCT (doc/traffic.md).
     */
    Time IdleSendTime(uint64_t bytes, uint32_t packets, bool zeroCopy = false) const;
    /**
     * How long SocketReceive(bytes, packets, cached) takes on an idle host, whether or not its stack runs on
     * another core than its copy: the least a read of so many octets takes.
     */
    Time IdleReadTime(uint64_t bytes, uint32_t packets, uint64_t cached) const;
    /** DdioOctets: NIC writes the last-level cache holds before received data leaks to memory (0: no DDIO). */
    uint64_t GetDdioOctets() const { return m_ddioOctets; }

    /** Snapshot of the node's counters (HostCounters::FromNode on this object). */
    HostCounters GetCounters() const;
    /** Cycles of the completed operations, by what they were spent on. */
    const std::array<uint64_t, kHostCycleUses>& GetCyclesByUse() const { return m_cyclesByUse; }

    /** (operation, bytes): an operation was submitted. */
    typedef void (*OperationStartTracedCallback)(HostOperation op, uint64_t bytes);
    /** (operation, bytes, time from submission to completion). */
    typedef void (*OperationEndTracedCallback)(HostOperation op, uint64_t bytes, Time latency);

  protected:
    void DoDispose() override;

  private:
    /** One operation in progress: parts still pending and what to run when none are. */
    struct Op : public SimpleRefCount<Op>
    {
        HostOperation kind;
        uint64_t bytes{0};
        uint64_t cached{0}; ///< SocketReceive: octets the copy reads from the last-level cache
        uint32_t packets{0};
        uint32_t core{0};
        uint32_t stackCore{UINT32_MAX}; ///< SocketReceive: the stack's core when not `core` (RSS without aRFS)
        bool zeroCopy{false}; ///< SocketSend: no copy to the kernel
        std::array<uint64_t, kHostCycleUses> cycles{}; ///< what its CPU stages cost, counted when it completes
        Time submitted;
        uint32_t pending{0};     ///< parts of the current stage not yet done
        /**
         * Run with this op when pending reaches zero: a member function, not a Callback bound to
         * the op, which would make the op hold itself and leak when a run stops mid-stage.
         */
        void (HostModel::*next)(Ptr<Op>){nullptr};
        Callback<void> done;
    };

    /** `tid` with the offloads' attributes (host-model-offloads.cc). */
    static TypeId AddOffloadAttributes(TypeId tid);
    Ptr<Op> NewOp(HostOperation kind, uint64_t bytes, Callback<void> done);
    /** Whether an operation with `done` would be waited for by nothing and heard by no trace sink. */
    bool Unobserved(const Callback<void>& done) const;
    /** RdmaReceive and RdmaSend: operation `op`, one bus transaction of `kind`. */
    void RdmaDma(HostOperation op, MemoryTransaction kind, uint64_t bytes, Callback<void> done);
    uint32_t PickCore(int32_t core) const;
    /** Start a copy for `op` on op->core; `then` runs when its three parts are done. */
    void StartCopy(Ptr<Op> op, void (HostModel::*then)(Ptr<Op>));
    /** The bus half of op's copy: its read and its write, submitted together. */
    void CopyOnBus(Ptr<Op> op);
    void PartDone(Ptr<Op> op);
    void Complete(Ptr<Op> op);
    void SocketRxProtocol(Ptr<Op> op);
    /** The copy of a read whose stack ran on another core (StartCopy, then Complete). */
    void CopyToUser(Ptr<Op> op);
    /** The software checksum's cycles for `op`'s octets, booked (0 with ChecksumOffload). */
    uint64_t SoftwareChecksum(const Ptr<Op>& op) const;
    void SocketTxProtocol(Ptr<Op> op);
    void SocketTxDma(Ptr<Op> op);
    /** Charge `cycles` for `use` to a new operation `kind` on `core`, done when the core has run them. */
    void RunCycles(HostOperation kind, uint64_t bytes, HostCycleUse use, uint64_t cycles, Callback<void> done,
                   int32_t core);
    /** Book `cycles` of op's as `use` (counted when op completes) and return them. */
    static uint64_t Book(const Ptr<Op>& op, HostCycleUse use, uint64_t cycles);

    uint32_t m_inFlight{0};
    uint32_t m_tsoOctets{0};
    uint32_t m_groOctets{0};
    uint64_t m_zeroCopyCycles{10240};
    uint64_t m_postCycles{0};
    uint64_t m_pollCycles{0};
    uint64_t m_eventCycles{0};
    uint64_t m_registerCycles{0};
    uint64_t m_registerPageCycles{0};
    bool m_checksumOffload{true};
    Time m_interruptDelay;
    uint32_t m_interruptFrames{64};
    uint64_t m_ddioOctets{0};
    uint32_t m_receiveQueues{0};
    bool m_arfs{true};
    uint64_t m_nicWritten{0}; ///< received octets the NIC has written, all connections and RDMA
    uint64_t m_ddioBytes{0};
    std::array<uint64_t, kHostCycleUses> m_cyclesByUse{};
    uint32_t m_nextFlowCore{0};
    /** Found in the aggregate on first use (a lookup per operation would walk the aggregate). */
    mutable Ptr<HostMemoryModel> m_memory;
    mutable Ptr<HostCpuModel> m_cpu;
    TracedCallback<HostOperation, uint64_t> m_opStartTrace;
    TracedCallback<HostOperation, uint64_t, Time> m_opEndTrace;
};

} // namespace ns3

#endif // IWARP_HOST_MODEL_H
