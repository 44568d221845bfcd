#include "helper/scenario/event-scheduler.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"

#include <map>

namespace ns3
{
namespace scenario
{
namespace
{

const std::map<std::string, std::string>&
ShortNames()
{
    static const std::map<std::string, std::string> names{{"calendar", "ns3::CalendarScheduler"},
                                                          {"heap", "ns3::HeapScheduler"},
                                                          {"list", "ns3::ListScheduler"},
                                                          {"map", "ns3::MapScheduler"},
                                                          {"priority-queue", "ns3::PriorityQueueScheduler"}};
    return names;
}

} // namespace

const char* const kDefaultScheduler = "priority-queue";

std::vector<std::string>
SchedulerNames()
{
    std::vector<std::string> out;
    for (const auto& [name, type] : ShortNames())
    {
        out.push_back(name);
    }
    return out;
}

std::optional<TypeId>
FindScheduler(const std::string& name)
{
    auto it = ShortNames().find(name);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(it == ShortNames().end() ? name : it->second, &tid))
    {
        return std::nullopt;
    }
    if (!tid.IsChildOf(Scheduler::GetTypeId()) || !tid.HasConstructor())
    {
        return std::nullopt;
    }
    return tid;
}

void
UseScheduler(const std::string& name)
{
    const std::optional<TypeId> tid = FindScheduler(name);
    NS_ABORT_MSG_UNLESS(tid, "unknown scheduler " << name << " (the loader checks scenarios)");
    ObjectFactory factory;
    factory.SetTypeId(*tid);
    Simulator::SetScheduler(factory);
}

} // namespace scenario
} // namespace ns3
