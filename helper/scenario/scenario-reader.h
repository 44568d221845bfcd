/*
 * Internal to the scenario loader: the YAML tree -> ScenarioConfig reader, with the checks and
 * the error locations, and the --set overrides applied to the tree before it.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_READER_H
#define IWARP_SCENARIO_READER_H

#include "helper/scenario/scenario-config.h"
#include "helper/common/plausibility.h"
#include "helper/scenario/scenario-schema.h"
#include "helper/common/units.h"
#include "helper/scenario/workloads/workload-kind.h"
#include "helper/topology/topology-graph.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace scenario
{

class ScenarioReader
{
  public:
    /** `source` names the text in messages; `baseDir` resolves relative paths (graphml file). */
    ScenarioReader(std::string source, std::string baseDir);

    /** Values under `path` came from "--set path=text": their errors point there, not at a line. */
    void NoteOverride(const std::string& path, const std::string& text);

    ScenarioConfig Read(const YAML::Node& root);

    [[noreturn]] void Fail(const YAML::Node& at, const std::string& path, const std::string& detail) const;

    // Typed accessors: each checks the node's shape and range and fails with its path.
    std::string Str(const YAML::Node& n, const std::string& path) const;
    bool Bool(const YAML::Node& n, const std::string& path) const;
    uint64_t UInt(const YAML::Node& n, const std::string& path, uint64_t max) const;
    double Probability(const YAML::Node& n, const std::string& path) const;
    /** A number in [min, max]. */
    double Number(const YAML::Node& n, const std::string& path, double min, double max) const;
    /** A number, in range or not: for values whose range a shared check decides (CheckImpairment). */
    double ProbabilityNumber(const YAML::Node& n, const std::string& path) const;
    /** The error of a probability outside [0, 1], one text wherever the range was checked. */
    [[noreturn]] void FailNotProbability(const YAML::Node& n, const std::string& path) const;
    /** A time of family `q` (plausibility.h), refused outside its range. */
    Time TimeOf(const YAML::Node& n, const std::string& path, Quantity q) const;
    /** TimeOf a time that must be above zero: "<key> must be above zero" first, then q's range. */
    Time PositiveTimeOf(const YAML::Node& n, const std::string& path, Quantity q) const;
    uint64_t SizeOf(const YAML::Node& n, const std::string& path) const;
    /** "<n>p", a size (-> "<octets>B") or "unlimited", as QueueSize text; at least one packet. */
    std::string QueueText(const YAML::Node& n, const std::string& path) const;
    /** A rate of family `q`, refused outside its range. */
    uint64_t RateOf(const YAML::Node& n, const std::string& path, Quantity q) const;
    /** A failure at `n` when `value` (q's base unit) lies outside q's plausible range. */
    void RequirePlausible(const YAML::Node& n, const std::string& path, Quantity q, double value) const;
    /** parse(the scalar), its UnitError a failure at `n` (units.h: the one parser of each quantity). */
    template <typename F>
    auto Parsed(const YAML::Node& n, const std::string& path, F parse) const -> decltype(parse(std::string()))
    {
        const std::string s = Str(n, path);
        try
        {
            return parse(s);
        }
        catch (const UnitError& e)
        {
            Fail(n, path, e.what());
        }
    }

    // Shape checks, public for the workload kinds' readers (helper/scenario/workloads/).
    void CheckKeys(const YAML::Node& map, const std::string& path, const SchemaNode& schema) const;
    void RequireMap(const YAML::Node& n, const std::string& path) const;
    /** A list of at most `max` entries (kMaxListLength, kMaxSizes: scenario-config.h). */
    void RequireList(const YAML::Node& n, const std::string& path, std::size_t max = kMaxListLength) const;
    YAML::Node Required(const YAML::Node& map, const std::string& path, const std::string& key) const;
    void CheckNode(const YAML::Node& n, const std::string& path, const std::string& name, bool hostOnly) const;
    /** The topology's hosts, in host order (empty when the reader was made without a topology to check). */
    const std::vector<std::string>& HostNames() const { return m_hosts; }
    /** A file the scenario names: relative to the scenario file's folder unless absolute. */
    std::string ScenarioRelative(const std::string& file) const;

  private:
    // The pieces of Read, in the order it reads the sections.
    /** name, seed, run, scheduler, stop and output. */
    void ReadRunKeys(const YAML::Node& root, ScenarioConfig& cfg) const;
    /** topology, links, per-link, host, rnic, host-nic and per-host. */
    void ReadNetworkSections(const YAML::Node& root, ScenarioConfig& cfg);
    void ReadPerLink(const YAML::Node& pl, const std::string& path, ScenarioConfig& cfg) const;
    void ReadPerHost(const YAML::Node& ph, const std::string& path, ScenarioConfig& cfg) const;
    /** Each workload, with unique names and starts before the stop; then the injects' targets. */
    void ReadWorkloads(const YAML::Node& wl, const std::string& path, ScenarioConfig& cfg) const;
    void ReadTopology(const YAML::Node& n, const std::string& path, TopologyConfig& t);
    /** `perLink`: the entry may (must) have `between`; elsewhere that key is an error. */
    LinkConfig ReadLink(const YAML::Node& n, const std::string& path, bool perLink = false) const;
    /** A link entry's loss, gilbert-elliott and reorder keys (scenario-reader-impairments.cc). */
    ImpairmentSpec ReadImpairment(const YAML::Node& n, const std::string& path) const;
    /** `reaches`: the types the map is applied to; an attribute of no such type is an error. */
    /**
     * The host profile a `host` section `n` names (`profile: NAME`), else `fallback`; its attributes added
     * to `attributes` where the section sets none itself. "" (none named, no fallback) and "none" (the
     * parts' own defaults) add nothing. An unknown name is an error. `n` may be null (no section).
     */
    std::string ApplyHostProfile(const YAML::Node& n,
                                 const std::string& path,
                                 AttributeMap& attributes,
                                 const std::string& fallback = "") const;
    /**
     * The RNIC profile an `rnic` section `n` names (`profile: NAME`), "" without one. A host's section names a
     * built-in profile, whose attributes are added to `attributes` where the section sets none itself. The
     * scenario's section may also name "auto" (each host's link class) or "none" (the engine's own defaults);
     * its profile is applied by the runner under every explicit setting, so nothing is added here. An
     * unknown name is an error.
     */
    std::string ApplyRnicProfile(const YAML::Node& n, const std::string& path, AttributeMap& attributes) const;
    AttributeMap ReadAttributes(const YAML::Node& n,
                                const std::string& path,
                                const std::vector<std::string>* reaches = nullptr) const;
    // Queue keys (scenario-reader-queues.cc).
    QueueDiscSpec ReadQueueDisc(const YAML::Node& n, const std::string& path) const;
    /** `queue`, `device-queue` and `queue-disc` of a link or NIC map `n`, where present. */
    void ReadQueueKeys(const YAML::Node& n,
                       const std::string& path,
                       std::optional<std::string>& queue,
                       std::optional<std::string>& deviceQueue,
                       std::optional<QueueDiscSpec>& disc) const;
    NicConfig ReadNic(const YAML::Node& n, const std::string& path) const;
    /** Every section's queues with their fallbacks, and switch-port keys where there is no switch. */
    void CheckQueues(const YAML::Node& root, const ScenarioConfig& cfg) const;
    void CheckAttribute(const YAML::Node& key,
                        const YAML::Node& value,
                        const std::string& path,
                        const std::string& full,
                        const std::string& text) const;
    WorkloadConfig ReadWorkload(const YAML::Node& n, const std::string& path, std::size_t index) const;
    /** Keys `kind`'s registry entry does not take are errors naming the kinds that do take them. */
    void RefuseOtherKindsKeys(const YAML::Node& n, const std::string& path, const WorkloadKindInfo& kind) const;
    /** The keys each kind takes instead of the other (`size`/`sizes`, `count`/`duration`). */
    void CheckAlternatives(const YAML::Node& n, const std::string& path, const WorkloadKindInfo& kind) const;
    void ResolveInjects(const YAML::Node& list, const std::string& path, ScenarioConfig& cfg) const;
    /** Each workload's `after` names as indices: existing, not itself, listed once, no cycle. */
    void ResolveAfter(const YAML::Node& list, const std::string& path, ScenarioConfig& cfg) const;
    void ReadTracing(const YAML::Node& n, const std::string& path, TracingConfig& t) const;
    /** `tracing.series` (scenario-reader-series.cc): the defaults resolved, the row limit checked. */
    void ReadSeries(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const;
    /** `what`, every quantity when left out. */
    void ReadSeriesQuantities(const YAML::Node& n, const std::string& path, SeriesConfig& s) const;
    /** `flows`, every flow (injects have none) when left out and a flow quantity is sampled. */
    void ReadSeriesFlows(const YAML::Node& n,
                         const std::string& path,
                         const ScenarioConfig& cfg,
                         SeriesConfig& s) const;
    /** `links`, every link when left out and `queue` is sampled. */
    void ReadSeriesLinks(const YAML::Node& n, const std::string& path, SeriesConfig& s) const;
    /** cfg.tracing.series samples something, in no more than kMaxSeriesRows rows. */
    void CheckSeriesRows(const YAML::Node& n, const std::string& path, const ScenarioConfig& cfg) const;
    /** The workload `n` names (its name or its index), or a failure. */
    std::size_t WorkloadIndex(const YAML::Node& n,
                              const std::string& path,
                              const std::vector<WorkloadConfig>& workloads) const;
    std::pair<std::string, std::string> ReadEndpoints(const YAML::Node& n, const std::string& path) const;

    // Checks across sections, once everything is read (scenario-reader-checks.cc): what the
    // runner and the TopologyBuilder would otherwise find only during the run.
    /** m_graph, m_vertex and the node names from `t` (a graphml file is read here). */
    void ReadGraph(const YAML::Node& n, const std::string& path, const TopologyConfig& t);
    void ReadMeasure(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const;
    /** `events` (scenario-reader-events.cc): after the topology and the stop time. */
    void ReadEvents(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const;
    /** An event entry's `between` (link events) or `node` (node events), checked against the topology. */
    void ReadEventSubject(const YAML::Node& e, const std::string& path, LinkEventConfig& ev) const;
    /** A link-change sets something (and a delay both ways); no other action sets what it changes. */
    void CheckChange(const YAML::Node& e, const std::string& path, const LinkEventConfig& ev) const;
    /** `key` (a way of a link, or a node; `what` in messages) goes down (`down`) or up at `ev`: in turn only. */
    template <typename K>
    void CheckDownUp(const YAML::Node& at,
                     const std::string& path,
                     const LinkEventConfig& ev,
                     bool down,
                     const std::string& what,
                     std::map<K, Time>& downSince,
                     const K& key) const;
    /** Loss models meeting on one link once `links` is overlaid (scenario-reader-impairments.cc). */
    void CheckImpairments(const YAML::Node& root, const ScenarioConfig& cfg) const;
    void CheckAdjacency(const YAML::Node& root, const ScenarioConfig& cfg) const;
    /** a and b share a link, or a failure at `at` naming a's neighbours. */
    void RequireLink(const YAML::Node& at, const std::string& path, const std::string& a, const std::string& b) const;
    /** How many links join a and b (parallel links of a GraphML file count each). */
    std::size_t LinksBetween(const std::string& a, const std::string& b) const;
    void CheckReachability(const YAML::Node& list, const ScenarioConfig& cfg) const;
    void CheckLlps(const YAML::Node& list, const ScenarioConfig& cfg) const;
    /** Every node has a listening port for each workload it serves (listening-ports.h). */
    void CheckListeningPorts(const YAML::Node& list, const ScenarioConfig& cfg) const;
    void CheckWithBuilder(const YAML::Node& root, const ScenarioConfig& cfg) const;
    // Along each workload's paths (scenario-reader-paths.cc): MTUs, segment sizes and hops; each
    // workload's pathMtu is filled in here.
    void CheckPaths(const YAML::Node& root, ScenarioConfig& cfg) const;
    void CheckInjectSizes(const YAML::Node& root, const ScenarioConfig& cfg) const;
    /** The value node and key path of attribute `full` in the `rnic` or `host` map (the one in force). */
    std::pair<YAML::Node, std::string> AttributeKey(const YAML::Node& root, const std::string& full) const;
    /** The graph vertex named `name` (the name is known: CheckNode passed). */
    TopoVertexId VertexOf(const std::string& name) const;

    // The transport section (scenario-reader-transport.cc).
    void ReadTransport(const YAML::Node& n, const std::string& path, TransportConfig& t);
    TransportLevelConfig ReadTransportLevel(const YAML::Node& n, const std::string& path);
    /** A transport key's value: remembered by its path, for the checks across keys to point at. */
    YAML::Node NoteTransportKey(const YAML::Node& map, const std::string& path, const std::string& key);
    /** Attributes that `transport` sets on every socket are refused in `host`/`rnic` maps, with the key to use. */
    void RefuseTransportAttribute(const YAML::Node& key, const std::string& path, const std::string& full) const;
    /** Per host: contradictions between keys; per workload: delayed ACKs that outlast the peer's RTO. */
    void CheckTransport(const YAML::Node& root, const ScenarioConfig& cfg) const;
    [[noreturn]] void FailTransport(const YAML::Node& root,
                                    const std::vector<std::string>& origins,
                                    const std::string& detail) const;

    std::string m_source;
    std::string m_baseDir;
    std::map<std::string, std::string> m_overrides; ///< path -> "--set path=text"
    std::vector<std::string> m_nodes;               ///< expected node names (empty: not checked)
    std::vector<std::string> m_hosts;
    std::string m_topologyText;                     ///< "topology dumbbell" for messages
    /** The graph the TopologyBuilder will build (generated, or read from the graphml file). */
    TopologyGraph m_graph;
    std::map<std::string, TopoVertexId> m_vertex;   ///< name -> vertex of m_graph
    bool m_namesFromFile{false};                    ///< graphml: names are the file's, not h0..hN
    std::map<std::string, YAML::Node> m_transportKeys; ///< transport key path -> its value (for messages)
};

/** "a.b" and "c" -> "a.b.c" (a key path for messages). */
inline std::string
Join(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

/** The names a scalar may take and the value each stands for. */
template <typename E>
using Names = std::vector<std::pair<const char*, E>>;

/** The name of `value` in `names` ("" if it has none): the words are declared once, with the key. */
template <typename E>
const char*
NameOf(const Names<E>& names, E value)
{
    for (const auto& [name, v] : names)
    {
        if (v == value)
        {
            return name;
        }
    }
    return "";
}

/** The value `n` names, or a failure listing the names allowed ("unknown <what> ..."). */
template <typename E>
E
Pick(const ScenarioReader& r, const YAML::Node& n, const std::string& path, const Names<E>& names, const char* what)
{
    const std::string s = r.Str(n, path);
    std::string list;
    for (const auto& [name, value] : names)
    {
        if (s == name)
        {
            return value;
        }
        list += (list.empty() ? "" : ", ") + std::string(name);
    }
    r.Fail(n, path, "unknown " + std::string(what) + " '" + s + "' (expected one of " + list + ")");
}

/**
 * The LLP `n` names (`llp:`): a short name or a connector TypeId from LlpDescriptors(); anything else,
 * including a TypeId that is no LlpConnector or one the table lacks, fails listing the known names.
 */
const LlpDescriptor* PickLlp(const ScenarioReader& r, const YAML::Node& n, const std::string& path);

/**
 * Apply one "dot.path=value" to `root`.  The value is parsed as YAML (a scalar or a flow
 * collection such as "[64, 4KiB]" or "{p: 0.1, r: 0.5}").  A path that does not exist is created
 * when every key on it is known to the schema; list indices must exist.  Returns the path.
 */
std::string ApplyOverride(YAML::Node& root, const std::string& assignment);

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_READER_H
