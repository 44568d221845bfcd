#include "helper/scenario/series-plan.h"

#include "helper/scenario/workloads/workload-kind.h"

#include <algorithm>
#include <map>

namespace ns3
{

const std::vector<std::pair<const char*, SeriesQuantity>>&
SeriesQuantityNames()
{
    static const std::vector<std::pair<const char*, SeriesQuantity>> names{{"goodput", SeriesQuantity::Goodput},
                                                                           {"cwnd", SeriesQuantity::Cwnd},
                                                                           {"rtt", SeriesQuantity::Rtt},
                                                                           {"queue", SeriesQuantity::Queue},
                                                                           {"paths", SeriesQuantity::Paths}};
    return names;
}

const char*
ToString(SeriesQuantity q)
{
    for (const auto& [word, quantity] : SeriesQuantityNames())
    {
        if (quantity == q)
        {
            return word;
        }
    }
    return "?";
}

bool
SeriesConfig::Has(SeriesQuantity q) const
{
    return std::find(what.begin(), what.end(), q) != what.end();
}

bool
HasGoodput(WorkloadKind k)
{
    const WorkloadKindInfo& kind = Describe(k);
    return !kind.pingPong && kind.family != WorkloadFamily::Inject;
}

std::vector<std::string>
FlowInitiators(const WorkloadConfig& w)
{
    const WorkloadKindInfo& kind = Describe(w.kind);
    if (kind.family == WorkloadFamily::Inject || kind.hostGroup)
    {
        return {};
    }
    return kind.manySenders ? w.senders : std::vector<std::string>{w.from};
}

uint64_t
SeriesPlan::Samples() const
{
    const int64_t stopSteps = stop.GetTimeStep();
    const int64_t step = interval.GetTimeStep();
    return uint64_t(stopSteps / step + (stopSteps % step != 0 ? 1 : 0));
}

uint64_t
SeriesPlan::SeriesCount() const
{
    uint64_t n = (pfc ? 3 : 2) * uint64_t(directions.size());
    for (const SeriesFlowPlan& f : flows)
    {
        n += uint64_t(f.goodput) + uint64_t(f.cwnd) + uint64_t(f.rtt) + 2 * uint64_t(f.paths); // paths: two columns
    }
    return n;
}

uint64_t
SeriesPlan::Rows() const
{
    const uint64_t samples = Samples();
    const uint64_t series = SeriesCount();
    return series != 0 && samples > UINT64_MAX / series ? UINT64_MAX : samples * series;
}

Time
SeriesPlan::SampleTime(uint64_t k) const
{
    const int64_t t = interval.GetTimeStep() * int64_t(k + 1);
    return std::min(TimeStep(uint64_t(t)), stop);
}

SeriesPlan
PlanSeries(const ScenarioConfig& cfg)
{
    const SeriesConfig& s = cfg.tracing.series.value();
    SeriesPlan plan;
    plan.interval = s.interval;
    plan.stop = cfg.stop;
    for (std::size_t i : s.workloads)
    {
        const WorkloadConfig& w = cfg.workloads[i];
        for (const std::string& initiator : FlowInitiators(w))
        {
            SeriesFlowPlan f;
            f.workload = i;
            f.initiator = initiator;
            f.subject = w.name + "/" + initiator;
            f.goodput = s.Has(SeriesQuantity::Goodput) && HasGoodput(w.kind);
            f.cwnd = s.Has(SeriesQuantity::Cwnd);
            f.rtt = s.Has(SeriesQuantity::Rtt);
            f.paths = s.Has(SeriesQuantity::Paths);
            plan.flows.push_back(f);
        }
    }
    if (s.Has(SeriesQuantity::Queue))
    {
        plan.pfc = cfg.topology.pfc.has_value();
        std::map<std::pair<std::string, std::string>, std::size_t> seen; // parallel links between a pair
        for (const auto& [a, b] : s.links)
        {
            const std::size_t k = seen[std::minmax(a, b)]++;
            const std::string suffix = k == 0 ? "" : "#" + std::to_string(k + 1);
            plan.directions.push_back(SeriesLinkPlan{a, b, k, a + "->" + b + suffix});
            plan.directions.push_back(SeriesLinkPlan{b, a, k, b + "->" + a + suffix});
        }
    }
    return plan;
}

} // namespace ns3
