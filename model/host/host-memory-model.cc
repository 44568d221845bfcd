#include "host/host-memory-model.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostMemoryModel");
NS_OBJECT_ENSURE_REGISTERED(HostMemoryModel);

const char*
ToString(MemoryTransaction kind)
{
    switch (kind)
    {
    case MemoryTransaction::NicDmaWrite:
        return "NicDmaWrite";
    case MemoryTransaction::NicDmaRead:
        return "NicDmaRead";
    case MemoryTransaction::CpuCopyRead:
        return "CpuCopyRead";
    case MemoryTransaction::CpuCopyWrite:
        return "CpuCopyWrite";
    case MemoryTransaction::CpuRead:
        return "CpuRead";
    case MemoryTransaction::CpuWrite:
        return "CpuWrite";
    }
    return "Unknown";
}

Time
BytesOverRate(uint64_t bytes, DataRate rate)
{
    // Integer arithmetic so that tests (and users comparing runs) get the same nanosecond
    // every time; DataRate::CalculateBytesTxTime goes through a double.
    const unsigned __int128 bits = static_cast<unsigned __int128>(bytes) * 8u * 1000000000u;
    const uint64_t bps = rate.GetBitRate();
    NS_ASSERT(bps > 0);
    const unsigned __int128 ns = (bits + bps - 1) / bps;
    return NanoSeconds(static_cast<int64_t>(ns));
}

TypeId
HostMemoryModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostMemoryModel")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<HostMemoryModel>()
            .AddAttribute("Bandwidth",
                          "Sustained rate of the memory bus, shared by NIC DMA and CPU copies. "
                          "Default: the peak of one DDR4-3200 channel (3200 MT/s x 8 octets). A scenario "
                          "takes 1 Gb/s to 100 Tb/s (eight stacks of HBM3E move about 78 Tb/s)",
                          DataRateValue(DataRate("204800Mbps")),
                          MakeDataRateAccessor(&HostMemoryModel::GetBandwidth,
                                               &HostMemoryModel::SetBandwidth),
                          MakeDataRateChecker())
            .AddAttribute("TransactionOverhead",
                          "Bus time every transaction costs on top of its octets (row activation "
                          "+ CAS latency of DDR4-3200 22-22-22 is about 27.5 ns); 0 to 10 us",
                          TimeValue(NanoSeconds(30)),
                          MakeTimeAccessor(&HostMemoryModel::GetTransactionOverhead,
                                           &HostMemoryModel::SetTransactionOverhead),
                          MakeTimeChecker(Time(0), MicroSeconds(10)))
            .AddTraceSource("TransactionStart",
                            "A transaction got the bus (kind, bytes)",
                            MakeTraceSourceAccessor(&HostMemoryModel::m_startTrace),
                            "ns3::HostMemoryModel::TransactionTracedCallback")
            .AddTraceSource("TransactionEnd",
                            "A transaction left the bus (kind, bytes)",
                            MakeTraceSourceAccessor(&HostMemoryModel::m_endTrace),
                            "ns3::HostMemoryModel::TransactionTracedCallback");
    return tid;
}

HostMemoryModel::HostMemoryModel()
    : m_bandwidth("204800Mbps"),
      m_overhead(NanoSeconds(30))
{
}

void
HostMemoryModel::DoDispose()
{
    m_quiet.clear();
    m_wakeUp.Cancel();
    Object::DoDispose();
}

bool
HostMemoryModel::SetBandwidth(DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        return false;
    }
    m_bandwidth = rate;
    return true;
}

bool
HostMemoryModel::SetTransactionOverhead(Time overhead)
{
    if (overhead.IsStrictlyNegative())
    {
        return false;
    }
    m_overhead = overhead;
    return true;
}

Time
HostMemoryModel::Duration(uint64_t bytes) const
{
    return m_overhead + BytesOverRate(bytes, m_bandwidth);
}

Time
HostMemoryModel::GetFreeAt() const
{
    return std::max(m_freeAt, Simulator::Now());
}

Time
HostMemoryModel::WouldFinishAt(uint64_t bytes) const
{
    return GetFreeAt() + Duration(bytes);
}

uint64_t
HostMemoryModel::GetTotalBytes() const
{
    Settle();
    uint64_t s = 0;
    for (uint64_t b : m_bytes)
    {
        s += b;
    }
    return s;
}

uint64_t
HostMemoryModel::GetTotalTransactions() const
{
    Settle();
    uint64_t s = 0;
    for (uint64_t t : m_transactions)
    {
        s += t;
    }
    return s;
}

Time
HostMemoryModel::Transfer(uint64_t bytes, MemoryTransaction kind, Callback<void> done)
{
    // FIFO with deterministic service times: a transaction's start is known at submission
    // (the bus's free time), so no queue object is needed, only two events.
    const Time now = Simulator::Now();
    const Time start = GetFreeAt();
    const Time occupancy = Duration(bytes);
    m_freeAt = start + occupancy;
    ++m_queued;
    NS_LOG_DEBUG(ToString(kind) << " " << bytes << " B: start " << start.As(Time::NS) << " end "
                                << m_freeAt.As(Time::NS));
    if (done.IsNull() && m_startTrace.IsEmpty() && m_endTrace.IsEmpty())
    {
        // Nothing to run at its start or end (an RNIC's DMA of each segment is one): no events of its own.
        // One wake-up at a time keeps the run going until the last of them has ended, as their ends would.
        Settle();
        m_quiet.push_back({m_freeAt, kind, bytes, occupancy});
        if (!m_wakeUp.IsRunning())
        {
            m_wakeUp = Simulator::Schedule(m_freeAt - now, &HostMemoryModel::WakeUp, this);
        }
        return m_freeAt;
    }
    Simulator::Schedule(start - now, &HostMemoryModel::Start, this, kind, bytes);
    Simulator::Schedule(m_freeAt - now, &HostMemoryModel::Finish, this, kind, bytes, occupancy, done);
    return m_freeAt;
}

void
HostMemoryModel::Start(MemoryTransaction kind, uint64_t bytes)
{
    m_startTrace(kind, bytes);
}

void
HostMemoryModel::Count(MemoryTransaction kind, uint64_t bytes, Time occupancy) const
{
    --m_queued;
    m_bytes[Index(kind)] += bytes;
    ++m_transactions[Index(kind)];
    m_busy += occupancy;
}

void
HostMemoryModel::Settle() const
{
    const Time now = Simulator::Now();
    while (!m_quiet.empty() && m_quiet.front().end <= now)
    {
        const Quiet& q = m_quiet.front();
        Count(q.kind, q.bytes, q.occupancy);
        m_quiet.pop_front();
    }
}

void
HostMemoryModel::WakeUp()
{
    Settle();
    if (!m_quiet.empty())
    {
        m_wakeUp = Simulator::Schedule(m_quiet.back().end - Simulator::Now(), &HostMemoryModel::WakeUp, this);
    }
}

void
HostMemoryModel::Finish(MemoryTransaction kind, uint64_t bytes, Time occupancy, Callback<void> done)
{
    Count(kind, bytes, occupancy);
    m_endTrace(kind, bytes);
    if (!done.IsNull())
    {
        done();
    }
}

} // namespace ns3
