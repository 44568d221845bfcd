#include "helper/scenario/workloads/traffic-pattern-keys.h"

#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/workloads/common-keys.h"

#include <algorithm>
#include <set>

namespace ns3
{
namespace
{

using scenario::KeyInfo;
using scenario::ScenarioReader;
using scenario::ValueKind;
using Shape = WorkloadKey::Shape;

/** A function's static: the registry may be built during another file's static initialisation. */
const scenario::Names<TrafficPattern>&
Patterns()
{
    static const scenario::Names<TrafficPattern> names = {
        {ToString(TrafficPattern::AllToAll), TrafficPattern::AllToAll},
        {ToString(TrafficPattern::Permutation), TrafficPattern::Permutation},
        {ToString(TrafficPattern::ManyToOne), TrafficPattern::ManyToOne},
        {ToString(TrafficPattern::Pairs), TrafficPattern::Pairs},
    };
    return names;
}

/** "h0>h1" as its two host names, spaces around them dropped; empty names when there is no single '>'. */
std::pair<std::string, std::string>
SplitPair(const std::string& text)
{
    auto trim = [](std::string s) {
        s.erase(0, s.find_first_not_of(' '));
        s.erase(s.find_last_not_of(' ') + 1);
        return s;
    };
    const std::size_t at = text.find('>');
    if (at == std::string::npos || text.find('>', at + 1) != std::string::npos)
    {
        return {};
    }
    return {trim(text.substr(0, at)), trim(text.substr(at + 1))};
}

WorkloadKey
Pairs()
{
    KeyInfo info = scenario::Facts(ValueKind::List, "list of `sender>receiver`, not empty",
                                   "with `pattern: pairs` **required**",
                                   "pattern pairs: who sends to whom; each host that sends draws each flow's "
                                   "receiver uniformly from its own pairs, a host that sends in none starts no flow");
    return WorkloadKey{
        "pairs", Shape::List, info, {},
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
            r.RequireList(v, path);
            if (v.size() == 0)
            {
                r.Fail(v, path, "`pairs` lists no pair");
            }
            std::set<std::pair<std::string, std::string>> listed;
            for (std::size_t i = 0; i < v.size(); ++i)
            {
                const std::string p = scenario::Join(path, std::to_string(i));
                const auto [from, to] = SplitPair(r.Str(v[i], p));
                if (from.empty() || to.empty())
                {
                    r.Fail(v[i], p, "a pair is `sender>receiver`, two hosts with one '>' between them");
                }
                r.CheckNode(v[i], p, from, true);
                r.CheckNode(v[i], p, to, true);
                if (from == to)
                {
                    r.Fail(v[i], p, "host '" + from + "' cannot send to itself");
                }
                if (!listed.emplace(from, to).second)
                {
                    r.Fail(v[i], p, "the pair " + from + ">" + to + " is listed twice");
                }
                w.pairs.emplace_back(from, to);
            }
        }};
}

WorkloadKey
IncastFraction()
{
    KeyInfo info = scenario::Facts(ValueKind::Number, "number in [0, 1]", "with `pattern: many-to-one` **required**",
                                   "pattern many-to-one: the share of each other host's flows that go to "
                                   "`target`; the rest go to a uniformly drawn other host");
    info.minimum = 0;
    info.maximum = 1;
    return WorkloadKey{"incast-fraction", Shape::Scalar, info, {},
                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                           w.incastFraction = r.ProbabilityNumber(v, path);
                           if (!(w.incastFraction >= 0 && w.incastFraction <= 1))
                           {
                               r.Fail(v, path, "incast-fraction " + r.Str(v, path) + " is not in [0, 1]");
                           }
                       }};
}

WorkloadKey
Target()
{
    KeyInfo info = scenario::Facts(ValueKind::Node, "host of `hosts`", "with `pattern: many-to-one` **required**",
                                   "pattern many-to-one: the host the incast goes to");
    return WorkloadKey{"target", Shape::Scalar, info, {},
                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                           w.target = r.Str(v, path);
                           r.CheckNode(v, path, w.target, true);
                       }};
}

/** `key` of `entry` is there exactly when `pattern` is the one that takes it. */
void
RequireWith(const ScenarioReader& r,
            const YAML::Node& entry,
            const std::string& path,
            const WorkloadConfig& w,
            const char* key,
            TrafficPattern takesIt)
{
    const YAML::Node v = entry[key];
    const std::string with = std::string("`pattern: ") + ToString(takesIt) + "`";
    if (w.pattern == takesIt && !v.IsDefined())
    {
        r.Fail(entry, path, with + " needs `" + key + "`");
    }
    if (w.pattern != takesIt && v.IsDefined())
    {
        r.Fail(v, scenario::Join(path, key), "`" + std::string(key) + "` is for " + with + " only");
    }
}

/** `host` (named at `v`, `at`) is one of the load's hosts. */
void
RequireMember(const ScenarioReader& r, const YAML::Node& v, const std::string& at, const WorkloadConfig& w,
              const std::string& host)
{
    if (std::find(w.hosts.begin(), w.hosts.end(), host) == w.hosts.end())
    {
        r.Fail(v, at, "host '" + host + "' is not one of the load's `hosts`");
    }
}

uint32_t
IndexOf(const WorkloadConfig& w, const std::string& host)
{
    return uint32_t(std::find(w.hosts.begin(), w.hosts.end(), host) - w.hosts.begin());
}

} // namespace

std::vector<WorkloadKey>
TrafficPatternKeys()
{
    return {workloadkeys::Scalar(scenario::ChoiceKey(
                "pattern", &WorkloadConfig::pattern, Patterns(), "traffic pattern",
                "whom each flow goes to: a uniformly drawn other host; each host's one peer of a random "
                "permutation with no fixed point; `target` for `incast-fraction` of the other hosts' flows "
                "(many-to-one); or a receiver drawn from the sender's `pairs`")),
            Target(),
            IncastFraction(),
            Pairs()};
}

void
CheckTrafficPattern(const ScenarioReader& r, const YAML::Node& entry, const std::string& path, const WorkloadConfig& w)
{
    RequireWith(r, entry, path, w, "target", TrafficPattern::ManyToOne);
    RequireWith(r, entry, path, w, "incast-fraction", TrafficPattern::ManyToOne);
    RequireWith(r, entry, path, w, "pairs", TrafficPattern::Pairs);
    if (w.pattern == TrafficPattern::ManyToOne)
    {
        RequireMember(r, entry["target"], scenario::Join(path, "target"), w, w.target);
    }
    for (std::size_t i = 0; i < w.pairs.size(); ++i)
    {
        const std::string at = scenario::Join(scenario::Join(path, "pairs"), std::to_string(i));
        RequireMember(r, entry["pairs"][i], at, w, w.pairs[i].first);
        RequireMember(r, entry["pairs"][i], at, w, w.pairs[i].second);
    }
}

TrafficPatternSpec
TrafficPatternOf(const WorkloadConfig& w)
{
    TrafficPatternSpec s;
    s.kind = w.pattern;
    if (w.pattern == TrafficPattern::ManyToOne)
    {
        s.target = IndexOf(w, w.target);
        s.incastFraction = w.incastFraction;
    }
    if (w.pattern == TrafficPattern::Pairs)
    {
        s.destinations.resize(w.hosts.size());
        for (const auto& [from, to] : w.pairs)
        {
            s.destinations[IndexOf(w, from)].push_back(IndexOf(w, to));
        }
    }
    return s;
}

} // namespace ns3
