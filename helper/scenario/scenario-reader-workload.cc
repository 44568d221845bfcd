/*
 * The workload, inject and tracing sections of the scenario reader, and the node-name checks.
 */
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/section-keys.h"
#include "helper/scenario/sections/scenario-sections.h"

#include "helper/scenario/workloads/workload-kind.h"

#include <algorithm>
#include <functional>
#include <cctype>
#include <set>

namespace ns3
{
namespace scenario
{
namespace
{

/** The registered kinds by name, in the registry's order (the unknown-kind error lists them). */
Names<WorkloadKind>
KindNames()
{
    Names<WorkloadKind> names;
    for (const WorkloadKindInfo* k : WorkloadKinds())
    {
        names.emplace_back(k->name.c_str(), WorkloadKind(k->name.c_str()));
    }
    return names;
}

bool
TakesKey(const WorkloadKindInfo& kind, const std::string& key)
{
    for (const WorkloadKey& k : kind.keys)
    {
        if (k.name == key)
        {
            return true;
        }
    }
    return false;
}

} // namespace

void
ScenarioReader::CheckNode(const YAML::Node& n, const std::string& path, const std::string& name, bool hostOnly) const
{
    const auto& known = hostOnly ? m_hosts : m_nodes;
    if (std::find(known.begin(), known.end(), name) != known.end())
    {
        return;
    }
    if (hostOnly && std::find(m_nodes.begin(), m_nodes.end(), name) != m_nodes.end())
    {
        Fail(n, path, "'" + name + "' is a switch, not a host");
    }
    std::string detail = "unknown " + std::string(hostOnly ? "host" : "node") + " '" + name + "'; " + m_topologyText;
    if (m_namesFromFile)
    {
        // Names from a file follow no pattern: list them (the first few).
        auto list = [](const std::vector<std::string>& names, std::size_t from) {
            std::string text;
            for (std::size_t i = from; i < names.size() && i < from + 8; ++i)
            {
                text += (text.empty() ? "" : ", ") + names[i];
            }
            return names.size() > from + 8 ? text + ", ..." : text;
        };
        detail += " has hosts " + list(m_hosts, 0);
        if (!hostOnly && m_nodes.size() > m_hosts.size())
        {
            detail += " and switches " + list(m_nodes, m_hosts.size());
        }
    }
    else
    {
        detail += " has hosts h0..h" + std::to_string(m_hosts.size() - 1);
        if (!hostOnly && m_nodes.size() > m_hosts.size())
        {
            detail += " and switches " + m_nodes[m_hosts.size()] + ".." + m_nodes.back();
        }
    }
    const std::string close = ClosestKey(name, known);
    if (!close.empty())
    {
        detail += "; did you mean '" + close + "'?";
    }
    Fail(n, path, detail);
}

std::pair<std::string, std::string>
ScenarioReader::ReadEndpoints(const YAML::Node& n, const std::string& path) const
{
    if (!n.IsSequence() || n.size() != 2)
    {
        Fail(n, path, "a link is given by its two endpoints, [a, b]");
    }
    const std::string a = Str(n[0], Join(path, "0"));
    const std::string b = Str(n[1], Join(path, "1"));
    CheckNode(n[0], Join(path, "0"), a, false);
    CheckNode(n[1], Join(path, "1"), b, false);
    if (a == b)
    {
        Fail(n, path, "a link joins two different nodes, got '" + a + "' twice");
    }
    return {a, b};
}

WorkloadConfig
ScenarioReader::ReadWorkload(const YAML::Node& n, const std::string& path, std::size_t index) const
{
    CheckKeys(n, path, *ScenarioSchema().fields.at("workloads")->element);
    WorkloadConfig w;
    w.kind = Pick(*this, Required(n, path, "kind"), Join(path, "kind"), KindNames(), "workload kind");
    const WorkloadKindInfo& kind = Describe(w.kind);
    RefuseOtherKindsKeys(n, path, kind);
    w.name = n["name"] ? Str(n["name"], Join(path, "name")) : kind.name + "-" + std::to_string(index);
    if (!kind.ops.empty())
    {
        w.op = kind.ops.front(); // the kind's first op is its default
    }
    if (!kind.replacesCommon)
    {
        ReadSection(*this, kind.keys, n, path, w); // each key's own reader, with its declared range
        CheckAlternatives(n, path, kind);
    }
    if (kind.read)
    {
        kind.read(*this, n, path, w);
    }
    if (kind.family == WorkloadFamily::Inject && !w.inject)
    {
        Fail(n, path, "workload kind '" + kind.name + "' read no inject (its reader must fill WorkloadConfig::inject)");
    }
    return w;
}

void
ScenarioReader::RefuseOtherKindsKeys(const YAML::Node& n, const std::string& path, const WorkloadKindInfo& kind) const
{
    // Keys each kind takes besides name and kind are its registry entry's: the sockets baseline
    // has no LLP (it is plain TCP), and an inject has `at`, not `start`; either would otherwise be
    // read and never used.
    for (const auto& kv : n)
    {
        const std::string key = kv.first.Scalar();
        if (key == "name" || key == "kind" || TakesKey(kind, key))
        {
            continue;
        }
        std::string users;
        for (const WorkloadKindInfo* other : WorkloadKinds())
        {
            if (TakesKey(*other, key))
            {
                users += (users.empty() ? "" : ", ") + other->name;
            }
        }
        Fail(kv.first, Join(path, key),
             "key '" + key + "' does not apply to workload kind '" + kind.name + "' (it applies to: " + users + ")");
    }
}

void
ScenarioReader::CheckAlternatives(const YAML::Node& n, const std::string& path, const WorkloadKindInfo& kind) const
{
    // As ReadSection reads them: a key written without a value (`count: ~`) is not given.
    auto given = [&n](const char* key) { return n[key].IsDefined() && !n[key].IsNull(); };
    if (given("size") && given("sizes"))
    {
        Fail(n["sizes"], Join(path, "sizes"), "give either size or sizes, not both");
    }
    if (given("count") && given("duration"))
    {
        Fail(n["duration"], Join(path, "duration"), "give either count or duration, not both");
    }
    if (TakesKey(kind, "count") && !given("count") && !given("duration"))
    {
        Fail(n, Join(path, "count"),
             TakesKey(kind, "duration") ? "missing required key 'count' (or 'duration')" : "missing required key 'count'");
    }
}

std::size_t
ScenarioReader::WorkloadIndex(const YAML::Node& n,
                              const std::string& path,
                              const std::vector<WorkloadConfig>& workloads) const
{
    const std::string text = Str(n, path);
    std::size_t index = workloads.size();
    const bool isIndex = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (isIndex)
    {
        index = text.size() > 18 ? workloads.size() : std::size_t(std::stoull(text)); // past the end
    }
    else
    {
        for (std::size_t j = 0; j < workloads.size(); ++j)
        {
            index = workloads[j].name == text ? j : index;
        }
    }
    if (index >= workloads.size())
    {
        Fail(n, path, "no workload '" + text + "' (give a workload name or index)");
    }
    return index;
}

void
ScenarioReader::ResolveInjects(const YAML::Node& list, const std::string& path, ScenarioConfig& cfg) const
{
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        WorkloadConfig& w = cfg.workloads[i];
        if (Describe(w.kind).family != WorkloadFamily::Inject)
        {
            continue;
        }
        const std::string p = Join(path, std::to_string(i));
        const YAML::Node t = list[i]["target"];
        const std::size_t target = WorkloadIndex(t, Join(p, "target"), cfg.workloads);
        const WorkloadConfig& tw = cfg.workloads[target];
        if (!IsRdma(tw.kind) || !tw.llp->ddp)
        {
            Fail(t, Join(p, "target"), "workload '" + tw.name + "' (" + ToString(tw.kind) +
                                           (IsRdma(tw.kind) ? " over " + std::string(tw.llp->label) : "") +
                                           ") has no DDP stream to inject into");
        }
        if (!tw.after.empty())
        {
            Fail(t, Join(p, "target"), "workload '" + tw.name + "' starts after other workloads (`after`): an "
                                       "injection at a fixed time cannot know its connection is up");
        }
        InjectConfig& in = *w.inject;
        in.targetIndex = target;
        // One end must be the target's responder, the other its initiator (or an incast sender).
        auto isSender = [&](const std::string& n) {
            return Describe(tw.kind).manySenders ? std::count(tw.senders.begin(), tw.senders.end(), n) > 0
                                                   : n == tw.from;
        };
        const bool ok = (isSender(in.from) && in.to == tw.to) || (in.from == tw.to && isSender(in.to));
        if (!ok)
        {
            Fail(list[i]["from"], Join(p, "from"),
                 "'" + in.from + "' -> '" + in.to + "' is not a direction of workload '" + tw.name + "'s connection");
        }
    }
}

void
ScenarioReader::ResolveAfter(const YAML::Node& list, const std::string& path, ScenarioConfig& cfg) const
{
    auto& all = cfg.workloads;
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        const YAML::Node after = list[i]["after"];
        if (!after)
        {
            continue;
        }
        const std::string p = Join(Join(path, std::to_string(i)), "after");
        for (std::size_t k = 0; k < after.size(); ++k)
        {
            const std::size_t j = WorkloadIndex(after[k], Join(p, std::to_string(k)), all);
            if (j == i)
            {
                Fail(after[k], Join(p, std::to_string(k)), "a workload cannot wait for itself");
            }
            if (std::count(all[i].after.begin(), all[i].after.end(), j))
            {
                Fail(after[k], Join(p, std::to_string(k)), "workload '" + all[j].name + "' is listed twice");
            }
            all[i].after.push_back(j);
        }
    }
    // A cycle would hold every workload on it back for ever: refused, naming it.
    std::vector<int> state(all.size(), 0); // 0 unvisited, 1 on the current path, 2 done
    std::vector<std::size_t> trail;
    std::function<void(std::size_t)> visit = [&](std::size_t i) {
        state[i] = 1;
        trail.push_back(i);
        for (std::size_t j : all[i].after)
        {
            if (state[j] == 1)
            {
                std::string cycle;
                for (auto it = std::find(trail.begin(), trail.end(), j); it != trail.end(); ++it)
                {
                    cycle += all[*it].name + " -> ";
                }
                Fail(list[i]["after"], Join(Join(path, std::to_string(i)), "after"),
                     "the workloads wait for each other in a cycle: " + cycle + all[j].name);
            }
            if (state[j] == 0)
            {
                visit(j);
            }
        }
        trail.pop_back();
        state[i] = 2;
    };
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        if (state[i] == 0)
        {
            visit(i);
        }
    }
}

void
ScenarioReader::ReadTracing(const YAML::Node& n, const std::string& path, TracingConfig& t) const
{
    CheckKeys(n, path, TracingNode());
    if (const YAML::Node p = n["pcap"])
    {
        const std::string pp = Join(path, "pcap");
        if (p.IsScalar())
        {
            const std::string s = p.Scalar();
            if (s == "all")
            {
                t.pcapAll = true;
            }
            else if (s != "none")
            {
                Fail(p, pp, "pcap is 'all', 'none' or a list of links [a, b], got \"" + s + "\"");
            }
        }
        else
        {
            RequireList(p, pp);
            for (std::size_t i = 0; i < p.size(); ++i)
            {
                t.pcapLinks.push_back(ReadEndpoints(p[i], Join(pp, std::to_string(i))));
            }
        }
    }
    if (n["directory"])
    {
        t.directory = Str(n["directory"], Join(path, "directory"));
        while (t.directory.size() > 1 && t.directory.back() == '/')
        {
            t.directory.pop_back(); // "traces/" is the folder "traces"
        }
        // Inside the results folder, which appears whole or not at all: a path out of it would be
        // written outside that promise (and left behind by a failed run).
        bool inside = !t.directory.empty() && t.directory[0] != '/';
        for (std::size_t b = 0; inside && b <= t.directory.size();)
        {
            const std::size_t e = std::min(t.directory.find('/', b), t.directory.size());
            const std::string part = t.directory.substr(b, e - b);
            inside = !part.empty() && part != "." && part != "..";
            b = e + 1;
        }
        if (!inside)
        {
            Fail(n["directory"], Join(path, "directory"),
                 "the pcap folder is a relative path inside the results folder, without empty, '.' or '..' parts; "
                 "got \"" + t.directory + "\"");
        }
    }
}

} // namespace scenario
} // namespace ns3
