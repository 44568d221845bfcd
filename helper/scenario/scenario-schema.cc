#include "helper/scenario/scenario-schema.h"

#include "helper/scenario/transport-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include <algorithm>
#include <deque>
#include <initializer_list>
#include <utility>

namespace ns3
{
namespace scenario
{
namespace
{

using Kind = SchemaNode::Kind;

SchemaNode
Map(std::initializer_list<std::pair<const std::string, const SchemaNode*>> fields)
{
    SchemaNode n;
    n.kind = Kind::Map;
    n.fields = fields;
    return n;
}

SchemaNode
Of(Kind kind, const SchemaNode* element)
{
    SchemaNode n;
    n.kind = kind;
    n.element = element;
    return n;
}

/** Built once; the nodes point at each other, so they live in one function-static struct. */
struct Schema
{
    SchemaNode value;
    SchemaNode valueList = Of(Kind::List, &value);
    SchemaNode attributes = Of(Kind::Dict, &value);

    SchemaNode gilbert = Map({{"p", &value}, {"r", &value}, {"loss-good", &value}, {"loss-bad", &value}});
    SchemaNode reorder = Map({{"fraction", &value}, {"delay", &value}});
    SchemaNode red = Map({{"threshold", &value},
                          {"min-th", &value},
                          {"max-th", &value},
                          {"weight", &value},
                          {"max-p", &value},
                          {"gentle", &value},
                          {"ecn", &value},
                          {"hard-drop", &value}});
    SchemaNode codel = Map({{"target", &value}, {"interval", &value}, {"ecn", &value}});
    SchemaNode fqCodel = Map({{"target", &value}, {"interval", &value}, {"ecn", &value}, {"flows", &value}});
    SchemaNode queueDisc = Map({{"kind", &value}, {"red", &red}, {"codel", &codel}, {"fq-codel", &fqCodel}});
    SchemaNode nic = Map({{"queue", &value}, {"device-queue", &value}, {"queue-disc", &queueDisc}});
    SchemaNode link = Map({{"rate", &value},
                           {"delay", &value},
                           {"queue", &value},
                           {"device-queue", &value},
                           {"queue-disc", &queueDisc},
                           {"mtu", &value},
                           {"loss", &value},
                           {"gilbert-elliott", &gilbert},
                           {"reorder", &reorder}});
    SchemaNode perLinkEntry = [this] {
        SchemaNode n = link;
        n.fields["between"] = &valueList;
        return n;
    }();
    SchemaNode perLink = Of(Kind::List, &perLinkEntry);

    SchemaNode topology = Map({{"kind", &value},
                               {"hosts-per-side", &value},
                               {"leaves", &value},
                               {"spines", &value},
                               {"hosts-per-leaf", &value},
                               {"k", &value},
                               {"file", &value},
                               {"ecmp", &value},
                               {"switch-fast-path", &value},
                               {"bottleneck", &link}});

    SchemaNode nodeAttributes = Map({{"host", &attributes}, {"rnic", &attributes}, {"nic", &nic}});
    SchemaNode perHost = Of(Kind::Dict, &nodeAttributes);

    /** A workload's keys: name, kind and every registered kind's (built in ScenarioSchema). */
    SchemaNode workload;
    std::deque<SchemaNode> workloadMaps; ///< the Map-shaped keys' nodes (inject's `fields`)
    uint64_t workloadVersion{0};
    SchemaNode workloads = Of(Kind::List, &workload);

    SchemaNode linkList = Of(Kind::List, &valueList);
    SchemaNode series = Map({{"interval", &value}, {"what", &valueList}, {"flows", &valueList}, {"links", &linkList}});
    SchemaNode tracing = Map({{"pcap", &value}, {"directory", &value}, {"series", &series}});

    // transport: (doc/scenario-format.md, "transport"); a `hosts` entry has the same keys but `hosts`. The
    // sections and their keys are those transport-keys.cc declares.
    std::deque<SchemaNode> transportSections = TransportSectionNodes();
    SchemaNode transportHost = [this] {
        SchemaNode n;
        n.kind = Kind::Map;
        for (std::size_t i = 0; i < TransportSections().size(); ++i)
        {
            n.fields[TransportSections()[i]] = &transportSections[i];
        }
        return n;
    }();
    SchemaNode transportHosts = Of(Kind::Dict, &transportHost);
    SchemaNode transport = [this] {
        SchemaNode n = transportHost;
        n.fields["hosts"] = &transportHosts;
        return n;
    }();
    SchemaNode measure = Map({{"from", &value}, {"to", &value}});

    /** One map per TransportSections() entry, in that order, of the keys declared in it. */
    std::deque<SchemaNode> TransportSectionNodes() const
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
                    n.fields[k.Name()] = &value;
                }
            }
        }
        return out;
    }

    SchemaNode root = Map({{"name", &value},
                           {"seed", &value},
                           {"run", &value},
                           {"scheduler", &value},
                           {"stop", &value},
                           {"output", &value},
                           {"topology", &topology},
                           {"links", &link},
                           {"per-link", &perLink},
                           {"host", &attributes},
                           {"rnic", &attributes},
                           {"host-nic", &nic},
                           {"per-host", &perHost},
                           {"workloads", &workloads},
                           {"tracing", &tracing},
                           {"transport", &transport},
                           {"measure", &measure}});
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

/** A workload's keys: `name`, `kind` and the union of every registered kind's keys. */
void
BuildWorkloadKeys(Schema& s)
{
    s.workload = Map({{"name", &s.value}, {"kind", &s.value}});
    s.workloadMaps.clear();
    for (const WorkloadKindInfo* kind : WorkloadKinds())
    {
        for (const WorkloadKey& key : kind->keys)
        {
            const SchemaNode* node = &s.value;
            if (key.shape == WorkloadKey::Shape::List)
            {
                node = &s.valueList;
            }
            else if (key.shape == WorkloadKey::Shape::Map)
            {
                s.workloadMaps.emplace_back();
                s.workloadMaps.back().kind = Kind::Map;
                for (const std::string& f : key.fields)
                {
                    s.workloadMaps.back().fields[f] = &s.value;
                }
                node = &s.workloadMaps.back();
            }
            s.workload.fields.emplace(key.name, node); // a shared key has one shape (RegisterWorkloadKind)
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
