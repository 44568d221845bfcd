/*
 * ScenarioReader::ReadEvents: the `events` list (doc/failures.md). Each entry's link (or node) must exist,
 * its time must fall before the stop, and each way of a link (each node) must go down before it comes up and
 * come up before it goes down again, in time order (file order at one time): a `link-up` of a link that is up
 * is an error, not a no-op, since it is almost always a typo in the other event. Link and node events are
 * held apart: a node-down over a link that is down, or a link-down over a node that is down, is accepted.
 * A link-change sets at least one of `rate`, `delay`, `loss` and `queue`, and no other action sets any; it
 * may act on a link that is down (the change holds when the link comes back). A delay is the channel's, so a
 * change of it is for both ways.
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
        ReadEventSubject(e, p, ev);
        CheckChange(e, p, ev);
        if (ev.at >= cfg.stop)
        {
            Fail(e["at"], Join(p, "at"), FormatTime(ev.at) + " is not before the stop time " + FormatTime(cfg.stop));
        }
        events.push_back(ev);
    }
    std::vector<std::size_t> order(events.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return events[x].at < events[y].at; });
    // Each way of a link, and each node, goes down before it comes up: the two are held apart (a node's links
    // stay down while either holds them).
    std::map<Way, Time> downSince;
    std::map<std::string, Time> nodeDownSince;
    for (std::size_t i : order)
    {
        const LinkEventConfig& ev = events[i];
        const std::string p = Join(Join(path, std::to_string(i)), "action");
        if (IsNodeEvent(ev.action))
        {
            CheckDownUp(n[i]["action"], p, ev, ev.action == LinkEventAction::NodeDown, "node " + ev.node,
                        nodeDownSince, ev.node);
        }
        const bool upDown = !IsNodeEvent(ev.action) && ev.action != LinkEventAction::Change;
        for (const Way& w : upDown ? WaysOf(ev) : std::vector<Way>{})
        {
            CheckDownUp(n[i]["action"], p, ev, ev.action == LinkEventAction::Down, w.first + " -> " + w.second,
                        downSince, w);
        }
        cfg.events.push_back(ev);
    }
}

void
ScenarioReader::ReadEventSubject(const YAML::Node& e, const std::string& p, LinkEventConfig& ev) const
{
    const char* const wanted = IsNodeEvent(ev.action) ? "node" : "between";
    const char* const other = IsNodeEvent(ev.action) ? "between" : "node";
    if (e[other].IsDefined())
    {
        Fail(e[other], Join(p, other),
             std::string("`") + other + "` is for " + (IsNodeEvent(ev.action) ? "link" : "node") +
                 " events; a " + std::string(NameOf(LinkEventActionNames(), ev.action)) + " names `" + wanted + "`");
    }
    if (IsNodeEvent(ev.action))
    {
        ev.node = Str(Required(e, p, "node"), Join(p, "node"));
        CheckNode(e["node"], Join(p, "node"), ev.node, false);
        if (e["direction"].IsDefined())
        {
            Fail(e["direction"], Join(p, "direction"), "a node event acts on every link of the node, both ways");
        }
        return;
    }
    std::tie(ev.a, ev.b) = ReadEndpoints(Required(e, p, "between"), Join(p, "between"));
    RequireLink(e["between"], Join(p, "between"), ev.a, ev.b);
}

void
ScenarioReader::CheckChange(const YAML::Node& e, const std::string& p, const LinkEventConfig& ev) const
{
    static const char* const kChanged[] = {"rate", "delay", "loss", "queue"};
    if (ev.action != LinkEventAction::Change)
    {
        for (const char* key : kChanged)
        {
            if (e[key].IsDefined())
            {
                Fail(e[key], Join(p, key),
                     std::string("`") + key + "` is for link-change events, not a " +
                         std::string(NameOf(LinkEventActionNames(), ev.action)));
            }
        }
        return;
    }
    if (!ev.ChangesAnything())
    {
        Fail(e["action"], Join(p, "action"), "a link-change sets at least one of rate, delay, loss and queue");
    }
    if (ev.delay && ev.direction == LinkDirection::Forward)
    {
        Fail(e["delay"], Join(p, "delay"),
             "a link's delay is its channel's, the same both ways: a delay change is for `direction: both`");
    }
}

template <typename K>
void
ScenarioReader::CheckDownUp(const YAML::Node& at,
                            const std::string& path,
                            const LinkEventConfig& ev,
                            bool down,
                            const std::string& what,
                            std::map<K, Time>& downSince,
                            const K& key) const
{
    const std::string action = std::string(NameOf(LinkEventActionNames(), ev.action)) + " at " + FormatTime(ev.at) + ": ";
    auto it = downSince.find(key);
    if (down && it != downSince.end())
    {
        Fail(at, path, action + what + " is already down (since " + FormatTime(it->second) + ")");
    }
    if (!down && it == downSince.end())
    {
        Fail(at, path, action + what + " is not down (no " + (IsNodeEvent(ev.action) ? "node" : "link") +
                           "-down before it)");
    }
    if (down)
    {
        downSince[key] = ev.at;
    }
    else
    {
        downSince.erase(it);
    }
}

} // namespace scenario
} // namespace ns3
