/*
 * HostModel's RDMA operations: the RNIC's DMA of placed and fetched data (bus only) and the verbs'
 * cycles on the application's core (posting, reaping completions, completion events, registration).
 */
#include "host/host-model.h"

#include "common/class-log-component.h"

#include <algorithm>

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(HostModel);

bool
HostModel::Unobserved(const Callback<void>& done) const
{
    return done.IsNull() && m_opStartTrace.IsEmpty() && m_opEndTrace.IsEmpty();
}

void
HostModel::RdmaDma(HostOperation op, MemoryTransaction kind, uint64_t bytes, Callback<void> done)
{
    if (Unobserved(done))
    {
        // The RNIC's DMA of a segment, which nothing waits for: the bus alone counts it, without events.
        GetMemory()->Transfer(bytes, kind, MakeNullCallback<void>());
        return;
    }
    GetMemory()->Transfer(bytes, kind, MakeCallback(&HostModel::Complete, this, NewOp(op, bytes, done)));
}

void
HostModel::RdmaReceive(uint64_t bytes, Callback<void> done)
{
    // Placed data takes its share of the cache DDIO writes into (it is the application's, which reads
    // it later or never; its write-back is the bus crossing counted here), pushing received socket
    // data out of it.
    NoteNicWrite(bytes);
    RdmaDma(HostOperation::RdmaReceive, MemoryTransaction::NicDmaWrite, bytes, done);
}

void
HostModel::RdmaSend(uint64_t bytes, Callback<void> done)
{
    RdmaDma(HostOperation::RdmaSend, MemoryTransaction::NicDmaRead, bytes, done);
}

uint64_t
HostModel::Pages(uint64_t bytes)
{
    return std::max<uint64_t>(1, (bytes + kPageOctets - 1) / kPageOctets);
}

void
HostModel::RunCycles(HostOperation kind,
                     uint64_t bytes,
                     HostCycleUse use,
                     uint64_t cycles,
                     Callback<void> done,
                     int32_t core)
{
    Ptr<Op> op = NewOp(kind, bytes, done);
    op->core = PickCore(core);
    NS_LOG_FUNCTION(this << ToString(kind) << bytes << cycles << op->core);
    GetCpu()->ExecuteOn(op->core, Book(op, use, cycles), MakeCallback(&HostModel::Complete, this, op));
}

void
HostModel::RdmaPost(uint32_t requests, Callback<void> done, int32_t core)
{
    RunCycles(HostOperation::RdmaPost, 0, HostCycleUse::Verbs, uint64_t(requests) * m_postCycles, done, core);
}

void
HostModel::RdmaPoll(Callback<void> done, int32_t core)
{
    RunCycles(HostOperation::RdmaPoll, 0, HostCycleUse::Verbs, m_pollCycles, done, core);
}

void
HostModel::RdmaEvent(Callback<void> done, int32_t core)
{
    RunCycles(HostOperation::RdmaEvent, 0, HostCycleUse::Verbs, m_eventCycles, done, core);
}

void
HostModel::RdmaRegister(uint64_t bytes, Callback<void> done, int32_t core)
{
    const uint64_t cycles = m_registerCycles + Pages(bytes) * m_registerPageCycles;
    RunCycles(HostOperation::RdmaRegister, bytes, HostCycleUse::Registration, cycles, done, core);
}

} // namespace ns3
