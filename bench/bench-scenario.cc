#include "bench/bench-scenario.h"

#include "ns3/simulator.h"

#include <unistd.h>

#include <filesystem>

namespace ns3
{
namespace bench
{

RunResult
RunScenarioYaml(const std::string& yaml,
                const std::string& name,
                Time stop,
                const std::vector<std::string>& overrides,
                const ScenarioExtra& extra)
{
    const RunTimer timer;
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("iwarp-bench-" + std::to_string(getpid()));
    ScenarioConfig cfg = LoadScenarioString(yaml, overrides, name);
    double heap = 0;
    Simulator::Schedule(stop - NanoSeconds(1), [&heap]() { heap = HeapInUseMiB(); });
    ScenarioRunOptions o;
    o.outDir = dir.string();
    o.progress = false;
    const ns3::RunResult r = RunScenario(cfg, o).result;
    std::filesystem::remove_all(dir);
    RunResult m;
    m.simSeconds = stop.GetSeconds();
    m.events = r.events;
    for (const WorkloadResult& w : r.workloads)
    {
        m.bytes += w.octetsDelivered;
    }
    if (extra)
    {
        extra(r, m);
    }
    m = timer.Stop(m);
    m.heapMiB = heap;
    return m;
}

Side
ScenarioSide(const std::string& name,
             const std::string& yaml,
             Time stop,
             const std::vector<std::string>& overrides,
             const ScenarioExtra& extra)
{
    return Side{name, name, [=]() { return RunScenarioYaml(yaml, name, stop, overrides, extra); }};
}

} // namespace bench
} // namespace ns3
