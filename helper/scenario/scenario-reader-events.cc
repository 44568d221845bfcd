/*
 * ScenarioReader::ReadEvents: the `events` list (doc/failures.md). Each entry's link must exist, its time
 * must fall before the stop, and each way of a link must go down before it comes up and come up before it
 * goes down again, in time order (file order at one time): a `link-up` of a link that is up is an error,
 * not a no-op, since it is almost always a typo in the other event.
 */
#include "helper/common/units.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/sections/scenario-sections.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ns3
{
namespace scenario
{
namespace
{
/** One way of a link: from `from` to `to`. */
using Way = std::pair<std::string, std::string>;

/** The ways an event acts on. */
std::vector<Way>
WaysOf(const LinkEventConfig& e)
{
    if (e.direction == LinkDirection::Forward)
    {
        return {{e.a, e.b}};
    }
    return {{e.a, e.b}, {e.b, e.a}};
}
} // namespace

void
ScenarioReader::ReadEvents(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const
{
    RequireList(n, path);
    std::vector<LinkEventConfig> events;
    for (std::size_t i = 0; i < n.size(); ++i)
    {
        const std::string p = Join(path, std::to_string(i));
        const YAML::Node e = n[i];
        RequireMap(e, p);
        CheckKeys(e, p, *EventsNode().element);
        LinkEventConfig ev;
        ReadSection(*this, EventKeys(), e, p, ev);
        std::tie(ev.a, ev.b) = ReadEndpoints(Required(e, p, "between"), Join(p, "between"));
        RequireLink(e["between"], Join(p, "between"), ev.a, ev.b);
        if (ev.at >= cfg.stop)
        {
            Fail(e["at"], Join(p, "at"), FormatTime(ev.at) + " is not before the stop time " + FormatTime(cfg.stop));
        }
        events.push_back(ev);
    }
    std::vector<std::size_t> order(events.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return events[x].at < events[y].at; });
    std::map<Way, Time> downSince;
    for (std::size_t i : order)
    {
        const LinkEventConfig& ev = events[i];
        const std::string p = Join(path, std::to_string(i));
        for (const Way& w : WaysOf(ev))
        {
            const bool down = downSince.count(w) != 0;
            const std::string way = w.first + " -> " + w.second;
            if (ev.action == LinkEventAction::Down && down)
            {
                Fail(n[i]["action"], Join(p, "action"),
                     "link-down at " + FormatTime(ev.at) + ": " + way + " is already down (since " +
                         FormatTime(downSince.at(w)) + ")");
            }
            if (ev.action == LinkEventAction::Up && !down)
            {
                Fail(n[i]["action"], Join(p, "action"),
                     "link-up at " + FormatTime(ev.at) + ": " + way + " is not down (no link-down before it)");
            }
            if (ev.action == LinkEventAction::Down)
            {
                downSince[w] = ev.at;
            }
            else
            {
                downSince.erase(w);
            }
        }
        cfg.events.push_back(ev);
    }
}

} // namespace scenario
} // namespace ns3
