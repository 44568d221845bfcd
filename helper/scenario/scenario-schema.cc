#include "helper/scenario/scenario-schema.h"

#include "helper/scenario/section-keys.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/scenario/transport-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include <algorithm>
#include <deque>
#include <utility>

namespace ns3
{
namespace scenario
{
namespace
{

using Kind = SchemaNode::Kind;

/**
 * The root and the two sections whose keys come from elsewhere: the workload kinds' (their registry) and the
 * transport keys' (transport-keys.cc). Every other section is its own list (sections/scenario-sections.h).
 * Built once; the nodes point at each other, so they live in one function-static struct.
 */
struct Schema
{
    /** A workload's keys: name, kind and every registered kind's (built in ScenarioSchema). */
    SchemaNode workload;
    std::deque<SchemaNode> workloadMaps; ///< the Map-shaped keys' nodes (inject's `fields`)
    uint64_t workloadVersion{0};
    SchemaNode workloads = Of(Kind::List, &workload);

    // transport: (doc/scenario-format.md, "transport"); a `hosts` entry has the same keys but `hosts`. The
    // sections and their keys are those transport-keys.cc declares.
    std::deque<SchemaNode> transportSections = TransportSectionNodes();
    SchemaNode transportHost = [this] {
        SchemaNode n;
        n.kind = Kind::Map;
        for (std::size_t i = 0; i < TransportSections().size(); ++i)
        {
            const std::string& section = TransportSections()[i];
            n.fields[section] = &transportSections[i];
            n.docs.emplace_back(section, Facts(ValueKind::Map, "mapping", "", "the `" + section + "` keys below"));
        }
        return n;
    }();
    SchemaNode transportHosts = Of(Kind::Dict, &transportHost);
    SchemaNode transport = [this] {
        SchemaNode n = transportHost;
        n.fields["hosts"] = &transportHosts;
        n.docs.emplace_back("hosts", Facts(ValueKind::Dict, "mapping host -> the keys above", "",
                                           "one host's settings over the scenario-wide ones"));
        return n;
    }();

    /** One map per TransportSections() entry, in that order, of the keys declared in it. */
    static std::deque<SchemaNode> TransportSectionNodes()
    {
        std::deque<SchemaNode> out;
        for (const std::string& section : TransportSections())
        {
            SchemaNode& n = out.emplace_back();
            n.kind = Kind::Map;
            for (const TransportKey& k : TransportKeys())
            {
                if (k.Section() == section)
                {
                    n.fields[k.Name()] = &ScalarNode();
                    n.docs.emplace_back(k.Name(), Facts(ValueKind::Any, k.value, "", k.source));
                }
            }
        }
        return out;
    }

    SchemaNode root = [this] {
        SchemaNode n = SectionNode(TopLevelKeys(), &ScalarNode());
        n.fields["workloads"] = &workloads;
        n.fields["transport"] = &transport;
        return n;
    }();
};

std::size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> prev(b.size() + 1);
    std::vector<std::size_t> cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        prev[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

/**
 * One text for the kinds that declare a key: theirs when they agree, else each variant followed by the kinds
 * that say it ("write, send (ping-pong, incast); read (read)"). `text` picks the field of a declaration.
 */
std::string
Merged(const std::vector<std::pair<std::string, const WorkloadKey*>>& declarations,
       std::string (*text)(const WorkloadKey&))
{
    std::vector<std::pair<std::string, std::string>> variants; // text, kinds
    for (const auto& [kind, key] : declarations)
    {
        const std::string t = text(*key);
        auto it = std::find_if(variants.begin(), variants.end(), [&t](const auto& v) { return v.first == t; });
        if (it == variants.end())
        {
            variants.emplace_back(t, kind);
        }
        else
        {
            it->second += ", " + kind;
        }
    }
    if (variants.size() == 1)
    {
        return variants.front().first;
    }
    std::string out;
    for (const auto& [t, kinds] : variants)
    {
        out += (out.empty() ? "" : "; ") + (t.empty() ? std::string("none") : t) + " (" + kinds + ")";
    }
    return out;
}

/** The facts of workload key `name` over every kind that declares it; `only` the kinds, "" when all do. */
KeyInfo
WorkloadKeyFacts(const std::string& name)
{
    std::vector<std::pair<std::string, const WorkloadKey*>> declarations;
    for (const WorkloadKindInfo* kind : WorkloadKinds())
    {
        for (const WorkloadKey& k : kind->keys)
        {
            if (k.name == name)
            {
                declarations.emplace_back(kind->name, &k);
            }
        }
    }
    std::string kinds;
    for (const auto& d : declarations)
    {
        kinds += (kinds.empty() ? "" : ", ") + d.first;
    }
    KeyInfo info = declarations.front().second->info;
    info.only = declarations.size() == WorkloadKinds().size() ? "" : kinds;
    info.required = false; // required by some kinds only: the JSON Schema says which (key-docs.cc)
    for (const auto& d : declarations)
    {
        // The loosest of the kinds' ranges: a value any kind takes passes the shared node.
        const KeyInfo& theirs = d.second->info;
        info.value = theirs.value == info.value ? info.value : ValueKind::Any;
        info.minimum = info.minimum && theirs.minimum ? std::min(*info.minimum, *theirs.minimum) : std::optional<double>();
        info.maximum = info.maximum && theirs.maximum ? std::max(*info.maximum, *theirs.maximum) : std::optional<double>();
        for (const std::string& c : theirs.choices)
        {
            if (std::find(info.choices.begin(), info.choices.end(), c) == info.choices.end())
            {
                info.choices.push_back(c);
            }
        }
    }
    info.type = Merged(declarations, [](const WorkloadKey& k) { return k.info.type; });
    info.defaultText = Merged(declarations, [](const WorkloadKey& k) { return k.info.defaultText; });
    info.meaning = Merged(declarations, [](const WorkloadKey& k) { return k.info.meaning; });
    return info;
}

/** The schema node of a workload's Map-shaped key (inject's `fields`). */
const SchemaNode*
WorkloadMapNode(Schema& s, const WorkloadKey& key)
{
    SchemaNode& n = s.workloadMaps.emplace_back();
    n.kind = Kind::Map;
    for (const WorkloadKey& f : key.fields)
    {
        n.fields[f.name] = &ScalarNode();
        n.docs.emplace_back(f.name, f.info);
    }
    return &n;
}

/** A workload's keys: `name`, `kind` and the union of every registered kind's keys. */
void
BuildWorkloadKeys(Schema& s)
{
    s.workload = SchemaNode();
    s.workload.kind = Kind::Map;
    s.workloadMaps.clear();
    KeyInfo name;
    name.type = "text, unique";
    name.defaultText = "`<kind>-<index>` (`stream-1`)";
    name.value = ValueKind::Text;
    name.meaning = "names the workload in the results and in `target`, `flows` and messages";
    KeyInfo kindInfo;
    kindInfo.value = ValueKind::Choice;
    kindInfo.required = true;
    kindInfo.defaultText = "**required**";
    kindInfo.meaning = "what the workload does; `iwarp-sim workloads` lists the kinds with their keys";
    for (const WorkloadKindInfo* kind : WorkloadKinds())
    {
        kindInfo.choices.push_back(kind->name);
        kindInfo.type += (kindInfo.type.empty() ? "`" : ", `") + kind->name + "`";
    }
    for (const auto& [key, info] : {std::make_pair("name", name), std::make_pair("kind", kindInfo)})
    {
        s.workload.fields[key] = &ScalarNode();
        s.workload.docs.emplace_back(key, info);
    }
    for (const WorkloadKindInfo* kind : WorkloadKinds())
    {
        for (const WorkloadKey& key : kind->keys)
        {
            if (s.workload.fields.count(key.name))
            {
                continue; // a shared key has one shape (RegisterWorkloadKind)
            }
            s.workload.fields[key.name] = key.shape == WorkloadKey::Shape::List  ? &ScalarListNode()
                                          : key.shape == WorkloadKey::Shape::Map ? WorkloadMapNode(s, key)
                                                                                 : &ScalarNode();
            s.workload.docs.emplace_back(key.name, WorkloadKeyFacts(key.name));
        }
    }
    s.workloadVersion = WorkloadRegistryVersion();
}

} // namespace

const SchemaNode&
ScenarioSchema()
{
    // Not const: a kind registered after the first load brings its keys (RegisterWorkloadKind,
    // which is not for threads).  The first build is part of the thread-safe static initialisation.
    static Schema s;
    static const bool built = (BuildWorkloadKeys(s), true);
    (void)built;
    if (s.workloadVersion != WorkloadRegistryVersion())
    {
        BuildWorkloadKeys(s);
    }
    return s.root;
}

std::string
ClosestKey(const std::string& key, const std::vector<std::string>& known)
{
    auto commonPrefix = [&key](const std::string& k) {
        std::size_t i = 0;
        while (i < key.size() && i < k.size() && key[i] == k[i])
        {
            ++i;
        }
        return i;
    };
    std::string best;
    std::size_t bestDistance = SIZE_MAX;
    for (const auto& k : known)
    {
        const std::size_t d = EditDistance(key, k);
        // On a tie the one sharing the longer prefix: "r2" is closer to "r0" than to "h2".
        if (d < bestDistance || (d == bestDistance && commonPrefix(k) > commonPrefix(best)))
        {
            best = k;
            bestDistance = d;
        }
    }
    // A third of the word, at least one edit, and never the whole word: catches typos and
    // hyphen slips ("hosts_per_leaf"), not unrelated short names ("r7" is not "h0").
    const std::size_t tolerance = std::max<std::size_t>(1, key.size() / 3);
    return bestDistance <= tolerance && bestDistance < key.size() ? best : std::string();
}

std::string
UnknownKeyMessage(const std::string& key, const std::vector<std::string>& known)
{
    const std::string close = ClosestKey(key, known);
    if (!close.empty())
    {
        return "unknown key '" + key + "'; did you mean '" + close + "'?";
    }
    std::string list;
    for (const auto& k : known)
    {
        list += (list.empty() ? "" : ", ") + k;
    }
    return "unknown key '" + key + "' (known keys: " + list + ")";
}

std::vector<std::string>
KeysOf(const SchemaNode& map)
{
    std::vector<std::string> keys;
    for (const auto& [k, v] : map.fields)
    {
        keys.push_back(k);
    }
    return keys;
}

} // namespace scenario
} // namespace ns3
