/*
 * The scenario's queue keys: `queue`, `device-queue` and `queue-disc` on links, `host-nic` and
 * `per-host.<name>.nic` (doc/scenario-format.md, "Queues"), and the checks that need them all
 * together (a RED threshold against the limit it falls back to, queue keys with no switch port).
 */
#include "helper/scenario/scenario-queues.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/sections/scenario-sections.h"

#include "helper/topology/port-queues.h"
#include "helper/topology/topology-graph.h"

#include <functional>

namespace ns3
{
namespace scenario
{
namespace
{

/** The kinds by the names ToString gives them (one spelling for files and results). */
Names<QueueDiscKind>
QueueDiscKinds()
{
    Names<QueueDiscKind> names;
    for (QueueDiscKind k :
         {QueueDiscKind::None, QueueDiscKind::Fifo, QueueDiscKind::Red, QueueDiscKind::CoDel, QueueDiscKind::FqCoDel})
    {
        names.emplace_back(ToString(k), k);
    }
    return names;
}

/** The sub-map of `queue-disc` each kind may have: named as the kind; none for none and fifo. */
const char*
OwnSection(QueueDiscKind k)
{
    return k == QueueDiscKind::None || k == QueueDiscKind::Fifo ? "" : ToString(k);
}

/** The queue keys of a switch port, refused where no port is a switch's. */
const char* const kSwitchPortKeys[] = {"queue", "device-queue", "queue-disc"};

/** Reads a queue size key (ScenarioReader::QueueText, private to the reader). */
using QueueTextFn = std::function<std::string(const YAML::Node&, const std::string&)>;

/** The `red` map `r` of a queue disc, at `p`: one threshold or min-th and max-th, and the optional knobs. */
void
ReadRed(const ScenarioReader& reader, const YAML::Node& r, const std::string& p, const QueueTextFn& queueText, RedSpec& red)
{
    reader.CheckKeys(r, p, RedNode());
    if (r["threshold"] && (r["min-th"] || r["max-th"]))
    {
        reader.Fail(r["threshold"], Join(p, "threshold"),
                    "threshold sets min-th and max-th both: give one or the others");
    }
    if (r["threshold"])
    {
        red.minTh = red.maxTh = QueueSize(queueText(r["threshold"], Join(p, "threshold")));
    }
    if (static_cast<bool>(r["min-th"]) != static_cast<bool>(r["max-th"]))
    {
        const char* given = r["min-th"] ? "min-th" : "max-th";
        reader.Fail(r[given], Join(p, given), "min-th and max-th go together (or one threshold for both)");
    }
    if (r["min-th"])
    {
        red.minTh = QueueSize(queueText(r["min-th"], Join(p, "min-th")));
        red.maxTh = QueueSize(queueText(r["max-th"], Join(p, "max-th")));
    }
    ReadSection(reader, RedKeys(), r, p, red); // weight, max-p, gentle, ecn, hard-drop
}

/** One section's queues as they will be built (`spec`, with its fallbacks), checked where written. */
void
CheckSectionQueues(const ScenarioReader& reader,
                   const PortQueueSpec& spec,
                   const YAML::Node& section,
                   const std::string& path)
{
    try
    {
        CheckPortQueues(spec, path);
    }
    catch (const TopologyError& e)
    {
        const YAML::Node at = section["queue-disc"] ? section["queue-disc"] : section;
        reader.Fail(at, path, std::string(e.what()).substr(path.size() + 2));
    }
}

/** The queues of `links`, the bottleneck, `host-nic` and each `per-host` nic, where written. */
void
CheckSharedQueues(const ScenarioReader& reader,
                  const YAML::Node& root,
                  const ScenarioConfig& cfg,
                  const LinkParams& links)
{
    if (root["links"])
    {
        CheckSectionQueues(reader, links.Ports(), root["links"], "links");
    }
    if (cfg.topology.kind == TopologyKind::Dumbbell && root["topology"]["bottleneck"])
    {
        CheckSectionQueues(reader, OverlayQueues(links, cfg.topology.bottleneck).Ports(),
                           root["topology"]["bottleneck"], "topology.bottleneck");
    }
    const PortQueueSpec nic = OverlayNic(DefaultHostNic(), cfg.hostNic);
    if (root["host-nic"])
    {
        CheckSectionQueues(reader, nic, root["host-nic"], "host-nic");
    }
    for (const auto& [name, node] : cfg.perHost)
    {
        if (!node.nic.Empty())
        {
            const std::string p = "per-host." + name + ".nic";
            CheckSectionQueues(reader, OverlayNic(nic, node.nic), root["per-host"][name]["nic"], p);
        }
    }
}

/** Whether any node of `g` is a switch. */
bool
HasSwitch(const TopologyGraph& g)
{
    bool anySwitch = false;
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        anySwitch = anySwitch || !g[v].IsHost();
    }
    return anySwitch;
}

/**
 * Each per-link entry's queues over `links` (the bottleneck's too, for the bottleneck), refusing
 * switch-port keys on a link between two hosts.
 */
void
CheckPerLinkQueues(const ScenarioReader& reader,
                   const YAML::Node& root,
                   const ScenarioConfig& cfg,
                   const LinkParams& links,
                   const TopologyGraph& graph,
                   const std::map<std::string, TopoVertexId>& vertex)
{
    const YAML::Node pl = root["per-link"];
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        const PerLinkConfig& p = cfg.perLink[i];
        const std::string path = Join("per-link", std::to_string(i));
        if (!HasQueueKeys(p.link))
        {
            continue;
        }
        if (vertex.count(p.a) && vertex.count(p.b) && graph[vertex.at(p.a)].IsHost() && graph[vertex.at(p.b)].IsHost())
        {
            for (const char* k : kSwitchPortKeys)
            {
                if (pl[i][k])
                {
                    reader.Fail(pl[i][k], Join(path, k),
                                std::string("'") + k + "' sets switch ports and " + p.a + " -- " + p.b +
                                    " joins two hosts; their NIC queues are set under host-nic or per-host.<name>.nic");
                }
            }
        }
        LinkParams base = links;
        if (cfg.topology.kind == TopologyKind::Dumbbell &&
            ((p.a == "left" && p.b == "right") || (p.a == "right" && p.b == "left")))
        {
            base = OverlayQueues(links, cfg.topology.bottleneck);
        }
        CheckSectionQueues(reader, OverlayQueues(base, p.link).Ports(), pl[i], path);
    }
}

} // namespace

std::string
ScenarioReader::QueueText(const YAML::Node& n, const std::string& path) const
{
    if (n.IsScalar() && n.Scalar() == "unlimited")
    {
        return std::to_string(UINT32_MAX) + "p";
    }
    const std::string text = Parsed(n, path, ParseQueue);
    const std::string why = ImplausibleQueue(text);
    if (!why.empty())
    {
        Fail(n, path, why);
    }
    return text;
}

QueueDiscSpec
ScenarioReader::ReadQueueDisc(const YAML::Node& n, const std::string& path) const
{
    CheckKeys(n, path, QueueDiscNode());
    QueueDiscSpec d;
    d.kind = Pick(*this, Required(n, path, "kind"), Join(path, "kind"), QueueDiscKinds(), "queue-disc kind");
    for (const char* section : {"red", "codel", "fq-codel"})
    {
        if (n[section] && OwnSection(d.kind) != std::string(section))
        {
            Fail(n[section], Join(path, section),
                 std::string("key '") + section + "' does not apply to queue-disc kind '" + ToString(d.kind) + "'");
        }
    }
    if (const YAML::Node r = n["red"])
    {
        const QueueTextFn queueText = [this](const YAML::Node& q, const std::string& p) { return QueueText(q, p); };
        ReadRed(*this, r, Join(path, "red"), queueText, d.red);
    }
    // Linux's fq_codel marks ECN-capable packets by default, its codel does not (CoDelKeys).
    const bool fq = d.kind == QueueDiscKind::FqCoDel;
    d.codel.ecn = fq;
    const char* own = OwnSection(d.kind);
    const bool codel = d.kind == QueueDiscKind::CoDel || fq;
    if (const YAML::Node c = codel ? n[own] : YAML::Node(YAML::NodeType::Undefined); codel && c)
    {
        CheckKeys(c, Join(path, own), CoDelNode(fq));
        ReadSection(*this, CoDelKeys(fq), c, Join(path, own), d.codel);
    }
    return d;
}

void
ScenarioReader::ReadQueueKeys(const YAML::Node& n,
                              const std::string& path,
                              std::optional<std::string>& queue,
                              std::optional<std::string>& deviceQueue,
                              std::optional<QueueDiscSpec>& disc) const
{
    if (n["queue"])
    {
        queue = QueueText(n["queue"], Join(path, "queue"));
    }
    if (n["device-queue"])
    {
        deviceQueue = QueueText(n["device-queue"], Join(path, "device-queue"));
    }
    if (n["queue-disc"])
    {
        disc = ReadQueueDisc(n["queue-disc"], Join(path, "queue-disc"));
    }
}

NicConfig
ScenarioReader::ReadNic(const YAML::Node& n, const std::string& path) const
{
    CheckKeys(n, path, NicNode());
    NicConfig c;
    ReadQueueKeys(n, path, c.queue, c.deviceQueue, c.queueDisc);
    return c;
}

void
ScenarioReader::CheckQueues(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    // Each section's queues as they will be built (with their fallbacks), checked where written.
    const LinkParams links = OverlayQueues(LinkParams{}, cfg.links);
    CheckSharedQueues(*this, root, cfg, links);

    // Switch-port keys where no port is a switch's would change nothing: refused, not ignored.
    if (!HasSwitch(m_graph) && root["links"])
    {
        for (const char* k : kSwitchPortKeys)
        {
            if (root["links"][k])
            {
                Fail(root["links"][k], Join("links", k),
                     std::string("'") + k + "' sets switch ports and " + m_topologyText +
                         " has no switch; a host's NIC queues are set under host-nic");
            }
        }
    }
    CheckPerLinkQueues(*this, root, cfg, links, m_graph, m_vertex);
}

} // namespace scenario
} // namespace ns3
