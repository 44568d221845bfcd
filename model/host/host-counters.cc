#include "host/host-counters.h"

#include "host/host-cpu-model.h"
#include "host/host-model.h"

#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

namespace
{
std::string
Seconds9(Time t)
{
    std::ostringstream os;
    os.precision(9);
    os << std::fixed << t.GetSeconds();
    return os.str();
}
} // namespace

const char*
ToString(HostCycleUse use)
{
    switch (use)
    {
    case HostCycleUse::Stack:
        return "stack";
    case HostCycleUse::Copy:
        return "copy";
    case HostCycleUse::Crc:
        return "crc";
    case HostCycleUse::Verbs:
        return "verbs";
    case HostCycleUse::Registration:
        return "registration";
    case HostCycleUse::Checksum:
        return "checksum";
    }
    return "unknown";
}

HostCounters
HostCounters::FromNode(Ptr<Node> node)
{
    return From(node->GetObject<HostMemoryModel>(), node->GetObject<HostCpuModel>(), node->GetObject<HostModel>());
}

HostCounters
HostCounters::From(Ptr<const HostMemoryModel> mem, Ptr<const HostCpuModel> cpu, Ptr<const HostModel> host)
{
    HostCounters c;
    c.at = Simulator::Now();
    if (!mem || !cpu)
    {
        return c;
    }
    c.valid = true;
    for (uint32_t i = 0; i < cpu->GetCores(); ++i)
    {
        c.coreBusy.push_back(cpu->GetBusyTime(i));
    }
    c.cpuCycles = cpu->GetCycles();
    c.cpuJobs = cpu->GetJobs();
    if (host)
    {
        c.cyclesByUse = host->GetCyclesByUse();
        c.ddioBytes = host->GetDdioBytes();
    }
    c.busBytes = mem->GetTotalBytes();
    c.busTransactions = mem->GetTotalTransactions();
    c.busBusy = mem->GetBusyTime();
    for (std::size_t k = 0; k < kMemoryTransactionKinds; ++k)
    {
        c.busBytesByKind[k] = mem->GetBytes(static_cast<MemoryTransaction>(k));
        c.transactionsByKind[k] = mem->GetTransactions(static_cast<MemoryTransaction>(k));
    }
    c.copies = mem->GetTransactions(MemoryTransaction::CpuCopyWrite);
    c.dmas = mem->GetTransactions(MemoryTransaction::NicDmaWrite) +
             mem->GetTransactions(MemoryTransaction::NicDmaRead);
    return c;
}

Time
HostCounters::CpuBusy() const
{
    Time s;
    for (const Time& t : coreBusy)
    {
        s += t;
    }
    return s;
}

std::vector<std::pair<std::string, std::string>>
HostCounters::Fields() const
{
    std::vector<std::pair<std::string, std::string>> f;
    f.emplace_back("time_s", Seconds9(at));
    for (std::size_t i = 0; i < coreBusy.size(); ++i)
    {
        f.emplace_back("cpu_busy_s_core" + std::to_string(i), Seconds9(coreBusy[i]));
    }
    f.emplace_back("cpu_cycles", std::to_string(cpuCycles));
    for (std::size_t u = 0; u < kHostCycleUses; ++u)
    {
        f.emplace_back(std::string("cpu_cycles_") + ToString(static_cast<HostCycleUse>(u)),
                       std::to_string(cyclesByUse[u]));
    }
    f.emplace_back("cpu_jobs", std::to_string(cpuJobs));
    f.emplace_back("bus_bytes", std::to_string(busBytes));
    f.emplace_back("bus_transactions", std::to_string(busTransactions));
    f.emplace_back("bus_busy_s", Seconds9(busBusy));
    for (std::size_t k = 0; k < kMemoryTransactionKinds; ++k)
    {
        f.emplace_back(std::string("bus_bytes_") + ToString(static_cast<MemoryTransaction>(k)),
                       std::to_string(busBytesByKind[k]));
    }
    f.emplace_back("copies", std::to_string(copies));
    f.emplace_back("dmas", std::to_string(dmas));
    f.emplace_back("ddio_bytes", std::to_string(ddioBytes));
    return f;
}

std::string
HostCounters::CsvHeader(std::size_t cores)
{
    HostCounters shape;
    shape.coreBusy.resize(cores);
    std::string h;
    for (const auto& [name, value] : shape.Fields())
    {
        h += (h.empty() ? "" : ",") + name;
    }
    return h;
}

std::string
HostCounters::CsvRow() const
{
    std::string r;
    bool first = true;
    for (const auto& [name, value] : Fields())
    {
        r += (first ? "" : ",") + value;
        first = false;
    }
    return r;
}

} // namespace ns3
