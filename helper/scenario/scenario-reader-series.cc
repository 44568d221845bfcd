/*
 * The scenario reader's `tracing.series` section: the interval, the quantities, the flows and the
 * links to sample, with their defaults resolved (every flow; every link when `queue` is sampled)
 * and the number of rows this makes checked against kMaxSeriesRows.  Nothing that would sample
 * nothing is accepted quietly: a list that chooses what `what` does not sample, or an empty one,
 * is an error.
 */
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/scenario/series-plan.h"
#include "helper/common/units.h"

#include <boost/range/iterator_range.hpp>

#include <set>

namespace ns3
{
namespace scenario
{
void
ScenarioReader::ReadSeries(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const
{
    CheckKeys(n, path, *TracingNode().fields.at("series"));
    SeriesConfig s;
    const YAML::Node interval = Required(n, path, "interval");
    const std::string ip = Join(path, "interval");
    s.interval = TimeOf(interval, ip, Quantity::RunTime);
    if (!s.interval.IsStrictlyPositive())
    {
        Fail(interval, ip, "the interval must be above zero");
    }
    if (s.interval > cfg.stop)
    {
        Fail(interval, ip,
             "the interval " + FormatTime(s.interval) + " is longer than the run (stop " + FormatTime(cfg.stop) + ")");
    }

    ReadSeriesQuantities(n, path, s);
    ReadSeriesFlows(n, path, cfg, s);
    ReadSeriesLinks(n, path, s);

    cfg.tracing.series = s;
    CheckSeriesRows(n, path, cfg);
}

void
ScenarioReader::ReadSeriesQuantities(const YAML::Node& n, const std::string& path, SeriesConfig& s) const
{
    const std::string wp = Join(path, "what");
    if (const YAML::Node what = n["what"])
    {
        RequireList(what, wp);
        if (what.size() == 0)
        {
            Fail(what, wp, "an empty list samples nothing (leave `what` out for goodput, cwnd, rtt and queue)");
        }
        for (std::size_t i = 0; i < what.size(); ++i)
        {
            const std::string p = Join(wp, std::to_string(i));
            const SeriesQuantity q = Pick(*this, what[i], p, SeriesQuantityNames(), "series quantity");
            if (s.Has(q))
            {
                Fail(what[i], p, std::string("'") + ToString(q) + "' is listed twice");
            }
            s.what.push_back(q);
        }
    }
    else
    {
        s.what = {SeriesQuantity::Goodput, SeriesQuantity::Cwnd, SeriesQuantity::Rtt, SeriesQuantity::Queue};
    }
}

void
ScenarioReader::ReadSeriesFlows(const YAML::Node& n,
                                const std::string& path,
                                const ScenarioConfig& cfg,
                                SeriesConfig& s) const
{
    const bool flowQuantities = s.Has(SeriesQuantity::Goodput) || s.Has(SeriesQuantity::Cwnd) ||
                                s.Has(SeriesQuantity::Rtt) || s.Has(SeriesQuantity::Paths);
    const std::string fp = Join(path, "flows");
    if (const YAML::Node flows = n["flows"])
    {
        if (!flowQuantities)
        {
            Fail(flows, fp, "flows are chosen, but `what` samples no flow quantity (goodput, cwnd, rtt, paths)");
        }
        RequireList(flows, fp);
        if (flows.size() == 0)
        {
            Fail(flows, fp, "an empty list samples no flow (leave `flows` out to sample every flow)");
        }
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const std::string p = Join(fp, std::to_string(i));
            const std::size_t w = WorkloadIndex(flows[i], p, cfg.workloads);
            const WorkloadConfig& wc = cfg.workloads[w];
            if (std::find(s.workloads.begin(), s.workloads.end(), w) != s.workloads.end())
            {
                Fail(flows[i], p, "workload '" + wc.name + "' is listed twice");
            }
            if (IsInject(wc.kind))
            {
                Fail(flows[i], p, "workload '" + wc.name + "' (inject) has no flow of its own to sample");
            }
            if (IsHostGroup(wc.kind))
            {
                Fail(flows[i], p,
                     "workload '" + wc.name + "' (" + ToString(wc.kind) +
                         ") is a load of many short flows, not sampled per flow; sample the queues of its links");
            }
            if (!HasGoodput(wc.kind) && !s.Has(SeriesQuantity::Cwnd) && !s.Has(SeriesQuantity::Rtt) &&
                !s.Has(SeriesQuantity::Paths))
            {
                Fail(flows[i], p,
                     "workload '" + wc.name + "' (" + ToString(wc.kind) +
                         ") has no goodput (doc/metrics.md: a round trip at a time is no throughput); sample its "
                         "cwnd or rtt");
            }
            s.workloads.push_back(w);
        }
    }
    else if (flowQuantities)
    {
        for (std::size_t w = 0; w < cfg.workloads.size(); ++w)
        {
            // Every flow of the workloads that have flows of their own to follow (doc/metrics.md).
            if (!IsInject(cfg.workloads[w].kind) && !IsHostGroup(cfg.workloads[w].kind))
            {
                s.workloads.push_back(w);
            }
        }
    }
}

void
ScenarioReader::ReadSeriesLinks(const YAML::Node& n, const std::string& path, SeriesConfig& s) const
{
    const std::string lp = Join(path, "links");
    if (const YAML::Node links = n["links"])
    {
        if (!s.Has(SeriesQuantity::Queue))
        {
            Fail(links, lp, "links are chosen, but `what` does not sample their queues (add queue)");
        }
        RequireList(links, lp);
        if (links.size() == 0)
        {
            Fail(links, lp, "an empty list samples no link (leave `links` out to sample every link)");
        }
        std::set<std::pair<std::string, std::string>> seen;
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            const std::string p = Join(lp, std::to_string(i));
            const auto [a, b] = ReadEndpoints(links[i], p);
            RequireLink(links[i], p, a, b);
            if (!seen.insert(std::minmax(a, b)).second)
            {
                Fail(links[i], p, "the link between " + a + " and " + b + " is listed twice (both directions are "
                                                                           "sampled)");
            }
            for (std::size_t k = LinksBetween(a, b); k > 0; --k)
            {
                s.links.emplace_back(a, b);
            }
        }
    }
    else if (s.Has(SeriesQuantity::Queue))
    {
        for (const auto e : boost::make_iterator_range(boost::edges(m_graph)))
        {
            s.links.emplace_back(m_graph[boost::source(e, m_graph)].name, m_graph[boost::target(e, m_graph)].name);
        }
    }
}

void
ScenarioReader::CheckSeriesRows(const YAML::Node& n, const std::string& path, const ScenarioConfig& cfg) const
{
    const SeriesPlan plan = PlanSeries(cfg);
    if (plan.SeriesCount() == 0)
    {
        // Only ping-pongs, and only their goodput, which they do not have.
        Fail(n["what"], Join(path, "what"),
             "nothing to sample: ping-pong workloads have no goodput (doc/metrics.md)");
    }
    if (plan.Rows() > kMaxSeriesRows)
    {
        const Time interval = cfg.tracing.series->interval;
        const std::string rows = plan.Rows() == UINT64_MAX ? "more than 2^64" : std::to_string(plan.Rows());
        Fail(n["interval"], Join(path, "interval"),
             "the interval " + FormatTime(interval) + " over the stop " + FormatTime(cfg.stop) + " makes " +
                 std::to_string(plan.Samples()) + " samples of " + std::to_string(plan.SeriesCount()) +
                 " series, " + rows + " rows, more than the " + std::to_string(kMaxSeriesRows) +
                 " a series.csv may hold (doc/scenario-format.md, Limits); lengthen the interval or choose fewer "
                 "flows, links or quantities");
    }
}

} // namespace scenario
} // namespace ns3
