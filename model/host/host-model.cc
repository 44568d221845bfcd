#include "host/host-model.h"

#include "host/host-profile.h"

#include "common/class-log-component.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(HostModel);
NS_OBJECT_ENSURE_REGISTERED(HostModel);

namespace
{
// The verbs' costs at HostCpuModel's default clock (host-profile.h; host-profile.cc has their sources).
constexpr double kDefaultHz = HostCpuModel::kDefaultFrequency;
constexpr uint64_t RDMA_POST_DEFAULT = CyclesAt(VerbsCostNs::kPost, kDefaultHz);
constexpr uint64_t RDMA_POLL_DEFAULT = CyclesAt(VerbsCostNs::kPoll, kDefaultHz);
constexpr uint64_t RDMA_EVENT_DEFAULT = CyclesAt(VerbsCostNs::kEvent, kDefaultHz);
constexpr uint64_t RDMA_REGISTER_DEFAULT = CyclesAt(VerbsCostNs::kRegister, kDefaultHz);
constexpr uint64_t RDMA_REGISTER_PAGE_DEFAULT = CyclesAt(VerbsCostNs::kRegisterPage, kDefaultHz);
} // namespace

const char*
ToString(HostOperation op)
{
    switch (op)
    {
    case HostOperation::RdmaReceive:
        return "RdmaReceive";
    case HostOperation::RdmaSend:
        return "RdmaSend";
    case HostOperation::SocketReceive:
        return "SocketReceive";
    case HostOperation::SocketSend:
        return "SocketSend";
    case HostOperation::SocketDuplicate:
        return "SocketDuplicate";
    case HostOperation::Copy:
        return "Copy";
    case HostOperation::SoftwareCrc:
        return "SoftwareCrc";
    case HostOperation::RdmaPost:
        return "RdmaPost";
    case HostOperation::RdmaPoll:
        return "RdmaPoll";
    case HostOperation::RdmaEvent:
        return "RdmaEvent";
    case HostOperation::RdmaRegister:
        return "RdmaRegister";
    }
    return "Unknown";
}

TypeId
HostModel::GetTypeId()
{
    static TypeId tid =
        AddOffloadAttributes(TypeId("ns3::HostModel")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<HostModel>()
            .AddAttribute("TsoOctets",
                          "Segmentation offload (TSO/GSO): a send's per-packet protocol cost is paid per "
                          "super-packet of up to this many octets, the NIC cutting it into segments (0: off, "
                          "one cost per segment; Linux builds super-packets of up to 64 KiB)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostModel::m_tsoOctets),
                          MakeUintegerChecker<uint32_t>(0, 262144))
            .AddAttribute("GroOctets",
                          "Receive aggregation (GRO/LRO): consecutive segments of a connection are processed "
                          "as one aggregate of up to this many octets, each paying the per-packet cost once "
                          "(0: off, one cost per segment; Linux aggregates up to 64 KiB)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostModel::m_groOctets),
                          MakeUintegerChecker<uint32_t>(0, 262144))
            .AddAttribute("ZeroCopyCyclesPerSend",
                          "Core cycles a zero-copy send (MSG_ZEROCOPY-like) costs instead of its copy: pinning "
                          "the user's pages and notifying the completion. Default 10240: the copy of 10 KB at "
                          "one cycle per octet, since Linux's msg_zerocopy documentation finds zero-copy worth "
                          "it from about 10 KB a send",
                          UintegerValue(10240),
                          MakeUintegerAccessor(&HostModel::m_zeroCopyCycles),
                          MakeUintegerChecker<uint64_t>(0, 10000000)))
            .AddAttribute("PostCyclesPerRequest",
                          "Core cycles an application spends posting one RDMA work request (building the work "
                          "queue entry and writing the doorbell)",
                          UintegerValue(RDMA_POST_DEFAULT),
                          MakeUintegerAccessor(&HostModel::m_postCycles),
                          MakeUintegerChecker<uint64_t>(0, 10000000))
            .AddAttribute("PollCyclesPerCompletion",
                          "Core cycles an application spends reaping one RDMA completion from its completion queue",
                          UintegerValue(RDMA_POLL_DEFAULT),
                          MakeUintegerAccessor(&HostModel::m_pollCycles),
                          MakeUintegerChecker<uint64_t>(0, 10000000))
            .AddAttribute("EventCyclesPerCompletion",
                          "Core cycles of one completion event of a completion queue armed for events: the "
                          "interrupt, the event channel and the waiting thread's wake-up (on top of the poll)",
                          UintegerValue(RDMA_EVENT_DEFAULT),
                          MakeUintegerAccessor(&HostModel::m_eventCycles),
                          MakeUintegerChecker<uint64_t>(0, 100000000))
            .AddAttribute("RegisterCycles",
                          "Core cycles of one memory registration besides its pages (the system call, the "
                          "RNIC's translation table update)",
                          UintegerValue(RDMA_REGISTER_DEFAULT),
                          MakeUintegerAccessor(&HostModel::m_registerCycles),
                          MakeUintegerChecker<uint64_t>(0, 1000000000))
            .AddAttribute("RegisterCyclesPerPage",
                          "Core cycles of a memory registration per 4 KiB page it pins and translates",
                          UintegerValue(RDMA_REGISTER_PAGE_DEFAULT),
                          MakeUintegerAccessor(&HostModel::m_registerPageCycles),
                          MakeUintegerChecker<uint64_t>(0, 100000000))
            .AddTraceSource("OperationStart",
                            "An operation was submitted (operation, bytes)",
                            MakeTraceSourceAccessor(&HostModel::m_opStartTrace),
                            "ns3::HostModel::OperationStartTracedCallback")
            .AddTraceSource("OperationEnd",
                            "An operation completed (operation, bytes, latency)",
                            MakeTraceSourceAccessor(&HostModel::m_opEndTrace),
                            "ns3::HostModel::OperationEndTracedCallback");
    return tid;
}

HostModel::HostModel() = default;

uint32_t
HostModel::SendPackets(uint64_t bytes, uint32_t segmentSize) const
{
    const uint64_t unit = std::max<uint64_t>(segmentSize, m_tsoOctets);
    return uint32_t(std::max<uint64_t>(1, (bytes + unit - 1) / unit));
}

uint32_t
HostModel::ReceiveAggregates(uint32_t segments, uint32_t segmentSize) const
{
    if (m_groOctets == 0 || segments == 0)
    {
        return segments;
    }
    const uint32_t perAggregate = std::max<uint32_t>(1, m_groOctets / std::max<uint32_t>(1, segmentSize));
    return (segments + perAggregate - 1) / perAggregate;
}

void
HostModel::DoDispose()
{
    m_memory = nullptr;
    m_cpu = nullptr;
    Object::DoDispose();
}

Ptr<HostMemoryModel>
HostModel::GetMemory() const
{
    if (!m_memory)
    {
        m_memory = GetObject<HostMemoryModel>();
        NS_ABORT_MSG_IF(!m_memory, "HostModel: no HostMemoryModel aggregated (use HostHelper::Install)");
    }
    return m_memory;
}

Ptr<HostCpuModel>
HostModel::GetCpu() const
{
    if (!m_cpu)
    {
        m_cpu = GetObject<HostCpuModel>();
        NS_ABORT_MSG_IF(!m_cpu, "HostModel: no HostCpuModel aggregated (use HostHelper::Install)");
    }
    return m_cpu;
}

HostCounters
HostModel::GetCounters() const
{
    return HostCounters::From(GetMemory(), GetCpu(), this);
}

Ptr<HostModel::Op>
HostModel::NewOp(HostOperation kind, uint64_t bytes, Callback<void> done)
{
    Ptr<Op> op = Create<Op>();
    op->kind = kind;
    op->bytes = bytes;
    op->submitted = Simulator::Now();
    op->done = done;
    ++m_inFlight;
    m_opStartTrace(kind, bytes);
    return op;
}

uint32_t
HostModel::AssignFlowCore()
{
    return m_nextFlowCore++ % GetCpu()->GetCores();
}

uint32_t
HostModel::PickCore(int32_t core) const
{
    Ptr<HostCpuModel> cpu = GetCpu();
    if (core == kAnyCore)
    {
        return cpu->EarliestFreeCore();
    }
    NS_ABORT_MSG_IF(core < 0 || uint32_t(core) >= cpu->GetCores(), "HostModel: no core " << core);
    return uint32_t(core);
}

void
HostModel::PartDone(Ptr<Op> op)
{
    NS_ASSERT(op->pending > 0);
    if (--op->pending == 0)
    {
        void (HostModel::*next)(Ptr<Op>) = op->next;
        op->next = nullptr;
        (this->*next)(op);
    }
}

uint64_t
HostModel::Book(const Ptr<Op>& op, HostCycleUse use, uint64_t cycles)
{
    op->cycles[static_cast<std::size_t>(use)] += cycles;
    return cycles;
}

void
HostModel::Complete(Ptr<Op> op)
{
    --m_inFlight;
    for (std::size_t u = 0; u < kHostCycleUses; ++u)
    {
        m_cyclesByUse[u] += op->cycles[u];
    }
    m_ddioBytes += op->cached;
    m_opEndTrace(op->kind, op->bytes, Simulator::Now() - op->submitted);
    if (!op->done.IsNull())
    {
        op->done();
    }
}

void
HostModel::StartCopy(Ptr<Op> op, void (HostModel::*then)(Ptr<Op>))
{
    // The core and the bus work on the copy at once (the core stalls on memory while the
    // bus moves lines), so the copy lasts as long as the slower of the two.
    // Its memory traffic starts when its cycles do: a copy queued behind other work on the core
    // moves no octets before the core reaches it.
    op->pending = 3;
    op->next = then;
    const Time start = std::max(Simulator::Now(), GetCpu()->GetFreeAt(op->core));
    // A socket's copy sums the octets as it moves them where the NIC does not (csum-and-copy).
    const bool sums = op->kind == HostOperation::SocketSend || op->kind == HostOperation::SocketReceive;
    GetCpu()->ExecuteOn(op->core,
                        Book(op, HostCycleUse::Copy, GetCpu()->CopyCycles(op->bytes)) +
                            (sums ? SoftwareChecksum(op) : 0),
                        MakeCallback(&HostModel::PartDone, this, op));
    Simulator::Schedule(start - Simulator::Now(), &HostModel::CopyOnBus, this, op);
}

void
HostModel::CopyOnBus(Ptr<Op> op)
{
    Callback<void> part = MakeCallback(&HostModel::PartDone, this, op);
    if (op->cached < op->bytes)
    {
        GetMemory()->Transfer(op->bytes - op->cached, MemoryTransaction::CpuCopyRead, part);
    }
    else
    {
        PartDone(op); // read from the cache; the core's part and the write are still pending
    }
    GetMemory()->Transfer(op->bytes, MemoryTransaction::CpuCopyWrite, part);
}

void
HostModel::Copy(uint64_t bytes, Callback<void> done, int32_t core)
{
    Ptr<Op> op = NewOp(HostOperation::Copy, bytes, done);
    op->core = PickCore(core);
    StartCopy(op, &HostModel::Complete);
}

void
HostModel::SoftwareCrc(uint64_t bytes, Callback<void> done, int32_t core)
{
    Ptr<Op> op = NewOp(HostOperation::SoftwareCrc, bytes, done);
    op->core = PickCore(core);
    op->pending = 2;
    op->next = &HostModel::Complete;
    Callback<void> part = MakeCallback(&HostModel::PartDone, this, op);
    const Time start = std::max(Simulator::Now(), GetCpu()->GetFreeAt(op->core));
    GetCpu()->ExecuteOn(op->core, Book(op, HostCycleUse::Crc, GetCpu()->CrcCycles(bytes)), part);
    // As a copy's: the read happens when the core reaches the CRC.
    Ptr<HostMemoryModel> bus = GetMemory();
    Simulator::Schedule(start - Simulator::Now(),
                        [bus, bytes, part]() { bus->Transfer(bytes, MemoryTransaction::CpuRead, part); });
}

void
HostModel::SocketReceive(uint64_t bytes,
                         uint32_t packets,
                         Callback<void> done,
                         int32_t core,
                         uint64_t cached,
                         int32_t stackCore)
{
    Ptr<Op> op = NewOp(HostOperation::SocketReceive, bytes, done);
    op->packets = packets;
    if (stackCore != kAnyCore && stackCore != core)
    {
        op->stackCore = PickCore(stackCore);
    }
    op->cached = std::min(cached, bytes); // counted in ddio_bytes when the read is delivered
    // The core is chosen when the protocol stage starts (after the DMA) unless pinned.
    op->core = core == kAnyCore ? UINT32_MAX : PickCore(core);
    if (op->cached == bytes)
    {
        SocketRxProtocol(op); // all of it was written into the cache
        return;
    }
    GetMemory()->Transfer(bytes - op->cached,
                          MemoryTransaction::NicDmaWrite,
                          MakeCallback(&HostModel::SocketRxProtocol, this, op));
}

void
HostModel::SocketDuplicate(uint64_t bytes, Callback<void> done, int32_t core)
{
    Ptr<Op> op = NewOp(HostOperation::SocketDuplicate, bytes, done);
    op->packets = 1;
    op->core = core == kAnyCore ? UINT32_MAX : PickCore(core);
    GetMemory()->Transfer(bytes,
                          MemoryTransaction::NicDmaWrite,
                          MakeCallback(&HostModel::SocketRxProtocol, this, op));
}

void
HostModel::SocketRxProtocol(Ptr<Op> op)
{
    if (op->core == UINT32_MAX)
    {
        op->core = PickCore(kAnyCore);
    }
    Ptr<HostCpuModel> cpu = GetCpu();
    const uint64_t protocol = Book(op, HostCycleUse::Stack, uint64_t(op->packets) * cpu->GetRxCyclesPerPacket());
    if (op->kind == HostOperation::SocketDuplicate)
    {
        // Dropped, not copied: its checksum (without offload) is a pass of its own.
        cpu->ExecuteOn(op->core, protocol + SoftwareChecksum(op), MakeCallback(&HostModel::Complete, this, op));
        return;
    }
    if (op->stackCore != UINT32_MAX)
    {
        // RSS without aRFS: the receive queue's core runs the stack, then the application's core copies.
        cpu->ExecuteOn(op->stackCore, protocol, MakeCallback(&HostModel::CopyToUser, this, op));
        return;
    }
    // The protocol cycles and the copy to user are one stretch of the core: another connection's work
    // does not slip in between them, so a read is delivered as soon as its own work is done. The copy's
    // memory traffic starts when its cycles do.
    op->pending = 3;
    op->next = &HostModel::Complete;
    const Time now = Simulator::Now();
    const Time start = std::max(now, cpu->GetFreeAt(op->core));
    cpu->ExecuteOn(op->core,
                   protocol + Book(op, HostCycleUse::Copy, cpu->CopyCycles(op->bytes)) + SoftwareChecksum(op),
                   MakeCallback(&HostModel::PartDone, this, op));
    Simulator::Schedule(start + cpu->CyclesToTime(protocol) - now, &HostModel::CopyOnBus, this, op);
}

void
HostModel::CopyToUser(Ptr<Op> op)
{
    StartCopy(op, &HostModel::Complete);
}

uint64_t
HostModel::SoftwareChecksum(const Ptr<Op>& op) const
{
    // Without offload every octet sent or received is summed, a duplicate's too; Linux folds the sum
    // into the copy (csum-and-copy), so it adds cycles to the copy and no memory traffic.
    return m_checksumOffload ? 0 : Book(op, HostCycleUse::Checksum, GetCpu()->ChecksumCycles(op->bytes));
}

void
HostModel::SocketSend(uint64_t bytes, uint32_t packets, Callback<void> done, int32_t core, bool zeroCopy)
{
    Ptr<Op> op = NewOp(HostOperation::SocketSend, bytes, done);
    op->packets = packets;
    op->core = PickCore(core);
    if (zeroCopy && m_checksumOffload)
    {
        op->zeroCopy = true;
        SocketTxProtocol(op); // nothing copied: the NIC reads the user's pages
        return;
    }
    StartCopy(op, &HostModel::SocketTxProtocol);
}

void
HostModel::SocketTxProtocol(Ptr<Op> op)
{
    Ptr<HostCpuModel> cpu = GetCpu();
    const uint64_t protocol =
        uint64_t(op->packets) * cpu->GetTxCyclesPerPacket() + (op->zeroCopy ? m_zeroCopyCycles : 0);
    cpu->ExecuteOn(op->core,
                   Book(op, HostCycleUse::Stack, protocol),
                   MakeCallback(&HostModel::SocketTxDma, this, op));
}

void
HostModel::SocketTxDma(Ptr<Op> op)
{
    GetMemory()->Transfer(op->bytes,
                          MemoryTransaction::NicDmaRead,
                          MakeCallback(&HostModel::Complete, this, op));
}

} // namespace ns3
