/*
 * The top level of a scenario file: the run's own keys, read here, and the sections below it, whose facts
 * are declared here and which their own readers read (scenario-reader.cc).
 */
#include "helper/scenario/event-scheduler.h"
#include "helper/scenario/sections/scenario-sections.h"

namespace ns3
{
namespace scenario
{
namespace
{

using Key = SectionKey<ScenarioConfig>;

/** A section read by its own reader: its facts for the docs and the JSON Schema. */
Key
Section(const std::string& name, ValueKind kind, std::string type, std::string def, std::string meaning,
        const SchemaNode* shape)
{
    return DeclaredKey<ScenarioConfig>(name, Facts(kind, std::move(type), std::move(def), std::move(meaning)), shape);
}

Key
NameKey()
{
    Key k = TextKey("name", &ScenarioConfig::name,
                    "names the run in summary.json and the default results folder");
    k.info.type = "text, a file name (no `/`, not starting with `.`)";
    k.info.defaultText = "file name without extension (`\"scenario\"` for a string)";
    k.read = [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, ScenarioConfig& cfg) {
        cfg.name = r.Str(v, path);
        // The name becomes the default results folder results/<name>.
        if (cfg.name.empty() || cfg.name.find('/') != std::string::npos || cfg.name[0] == '.')
        {
            r.Fail(v, path, "a name is a non-empty file name: no '/', not starting with '.'");
        }
    };
    return k;
}

Key
SchedulerKey()
{
    // The names once: the docs quote them, the refusal lists them.
    std::string list;
    KeyInfo info;
    info.value = ValueKind::Text;
    for (const std::string& n : SchedulerNames())
    {
        list += (list.empty() ? "" : ", ") + n;
        info.type += (info.type.empty() ? "`" : ", `") + n + "`";
    }
    info.type += ", or the TypeId of an `ns3::Scheduler`";
    info.defaultText = "`priority-queue` (ns-3's own default is `map`; `iwarp-bench-fat-tree` measured "
                       "`priority-queue` 1.18x faster in CPU time on the k = 8 fat-tree, doc/performance.md)";
    info.meaning = "the simulator's event queue (`helper/scenario/event-scheduler.h`). Every ns-3 scheduler orders "
                   "events by time, then by insertion, so this changes the speed of a run, never its figures. "
                   "Suite `iwarp-scenario-scheduler` runs one scenario on each and compares the summaries.";
    return CustomKey<ScenarioConfig>(
        "scheduler", info,
        [list](const ScenarioReader& r, const YAML::Node& v, const std::string& path, ScenarioConfig& cfg) {
            cfg.scheduler = r.Str(v, path);
            if (!FindScheduler(cfg.scheduler))
            {
                r.Fail(v, path,
                       "unknown event scheduler '" + cfg.scheduler + "': one of " + list +
                           ", or the TypeId of an ns3::Scheduler");
            }
        });
}

std::vector<Key>
Declare()
{
    std::vector<Key> keys;
    keys.push_back(NameKey());
    keys.push_back(UIntKey("seed", &ScenarioConfig::seed, 1, UINT32_MAX, "ns-3 `RngSeedManager::SetSeed`"));
    keys.push_back(UIntKey("run", &ScenarioConfig::run, 0, UINT64_MAX,
                           "ns-3 `RngSeedManager::SetRun` (independent replications)"));
    keys.push_back(SchedulerKey());
    keys.push_back(TimeKey("stop", &ScenarioConfig::stop, Quantity::RunTime, true, "`Simulator::Stop`").Required());
    keys.push_back(TextKey("output", &ScenarioConfig::output, "results folder")
                       .Default("\"\" (the runner chooses, `results/<name>`)"));
    keys.push_back(Section("topology", ValueKind::Map, "mapping", "**required**", "below", &TopologyNode()));
    keys.back().info.required = true;
    keys.push_back(Section("links", ValueKind::Map, "link", "builder defaults",
                           "every link, impairments included (\"everywhere\")", &LinkNode()));
    keys.push_back(Section("per-link", ValueKind::List, "list of link + `between`", "none",
                           "links set apart from `links`", &PerLinkNode()));
    keys.push_back(Section("host", ValueKind::Dict, "attributes", "none", "ns-3 Attributes for every host",
                           &AttributesNode()));
    keys.push_back(Section("rnic", ValueKind::Dict, "attributes", "none", "ns-3 Attributes for every RNIC",
                           &AttributesNode()));
    keys.push_back(Section("host-nic", ValueKind::Map, "`{queue, device-queue, queue-disc}`",
                           "unlimited FIFO over a 2-packet ring", "every host's NIC queues (see Queues)", &NicNode()));
    keys.push_back(Section("per-host", ValueKind::Dict,
                           "mapping node -> `{host: attributes, rnic: attributes, nic: host-nic}`", "none",
                           "one host's attributes and NIC queues over the above", &PerHostNode()));
    keys.push_back(Section("workloads", ValueKind::List, "list, at least one", "**required**", "below", nullptr));
    keys.back().info.required = true;
    keys.push_back(Section("tracing", ValueKind::Map, "mapping", "no pcap", "below", &TracingNode()));
    keys.push_back(Section("transport", ValueKind::Map, "mapping", "the defaults below",
                           "TCP and SCTP settings of every host's sockets, RDMA's LLP and the sockets baseline "
                           "alike; below",
                           nullptr));
    keys.push_back(Section("measure", ValueKind::Map,
                           "`{from: time, to: time}`, both **required**, 0 <= from < to <= `stop`",
                           "none (no windowed goodput)",
                           "the window over which each workload's `goodput_window_bps` is measured: octets "
                           "delivered at the sink within [from, to), x 8 / (to - from), each message's octets "
                           "spread over its arrival; see doc/metrics.md",
                           &MeasureNode()));
    keys.push_back(Section("events", ValueKind::List, "list of `{at, action, between, direction}`", "none",
                           "timed actions on links: a link goes down or comes back up (below; doc/failures.md)",
                           &EventsNode()));
    return keys;
}

} // namespace

const std::vector<SectionKey<ScenarioConfig>>&
TopLevelKeys()
{
    static const std::vector<Key> keys = Declare();
    return keys;
}

const SchemaNode&
ScalarNode()
{
    static const SchemaNode n;
    return n;
}

const SchemaNode&
ScalarListNode()
{
    static const SchemaNode n = Of(SchemaNode::Kind::List, &ScalarNode());
    return n;
}

const SchemaNode&
AttributesNode()
{
    static const SchemaNode n = Of(SchemaNode::Kind::Dict, &ScalarNode());
    return n;
}

} // namespace scenario
} // namespace ns3
