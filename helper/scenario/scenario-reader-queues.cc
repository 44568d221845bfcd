/*
 * The scenario's queue keys: `queue`, `device-queue` and `queue-disc` on links, `host-nic` and
 * `per-host.<name>.nic` (doc/scenario-format.md, "Queues"), and the checks that need them all
 * together (a RED threshold against the limit it falls back to, queue keys with no switch port).
 */
#include "helper/scenario/scenario-queues.h"
#include "helper/scenario/scenario-reader.h"

#include "helper/topology/port-queues.h"
#include "helper/topology/topology-graph.h"


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
    const SchemaNode& schema = *ScenarioSchema().fields.at("links")->fields.at("queue-disc");
    CheckKeys(n, path, schema);
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
        const std::string p = Join(path, "red");
        CheckKeys(r, p, *schema.fields.at("red"));
        if (r["threshold"] && (r["min-th"] || r["max-th"]))
        {
            Fail(r["threshold"], Join(p, "threshold"), "threshold sets min-th and max-th both: give one or the others");
        }
        if (r["threshold"])
        {
            d.red.minTh = d.red.maxTh = QueueSize(QueueText(r["threshold"], Join(p, "threshold")));
        }
        if (static_cast<bool>(r["min-th"]) != static_cast<bool>(r["max-th"]))
        {
            const char* given = r["min-th"] ? "min-th" : "max-th";
            Fail(r[given], Join(p, given), "min-th and max-th go together (or one threshold for both)");
        }
        if (r["min-th"])
        {
            d.red.minTh = QueueSize(QueueText(r["min-th"], Join(p, "min-th")));
            d.red.maxTh = QueueSize(QueueText(r["max-th"], Join(p, "max-th")));
        }
        if (r["weight"])
        {
            d.red.weight = Probability(r["weight"], Join(p, "weight"));
        }
        if (r["max-p"])
        {
            d.red.maxP = Probability(r["max-p"], Join(p, "max-p"));
        }
        if (r["gentle"])
        {
            d.red.gentle = Bool(r["gentle"], Join(p, "gentle"));
        }
        if (r["ecn"])
        {
            d.red.ecn = Bool(r["ecn"], Join(p, "ecn"));
        }
        if (r["hard-drop"])
        {
            d.red.hardDrop = Bool(r["hard-drop"], Join(p, "hard-drop"));
        }
    }
    // Linux's fq_codel marks ECN-capable packets by default, its codel does not.
    d.codel.ecn = d.kind == QueueDiscKind::FqCoDel;
    const char* own = OwnSection(d.kind);
    const bool codel = d.kind == QueueDiscKind::CoDel || d.kind == QueueDiscKind::FqCoDel;
    if (const YAML::Node c = codel ? n[own] : YAML::Node(YAML::NodeType::Undefined); codel && c)
    {
        const std::string p = Join(path, own);
        CheckKeys(c, p, *schema.fields.at(own));
        if (c["target"])
        {
            d.codel.target = TimeOf(c["target"], Join(p, "target"), Quantity::ProtocolTimer);
        }
        if (c["interval"])
        {
            d.codel.interval = TimeOf(c["interval"], Join(p, "interval"), Quantity::ProtocolTimer);
        }
        if (c["ecn"])
        {
            d.codel.ecn = Bool(c["ecn"], Join(p, "ecn"));
        }
        if (c["flows"])
        {
            d.codel.flows = uint32_t(UInt(c["flows"], Join(p, "flows"), 65536));
        }
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
    CheckKeys(n, path, *ScenarioSchema().fields.at("host-nic"));
    NicConfig c;
    ReadQueueKeys(n, path, c.queue, c.deviceQueue, c.queueDisc);
    return c;
}

void
ScenarioReader::CheckQueues(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    // Each section's queues as they will be built (with their fallbacks), checked where written.
    auto check = [this](const PortQueueSpec& spec, const YAML::Node& section, const std::string& path) {
        try
        {
            CheckPortQueues(spec, path);
        }
        catch (const TopologyError& e)
        {
            const YAML::Node at = section["queue-disc"] ? section["queue-disc"] : section;
            Fail(at, path, std::string(e.what()).substr(path.size() + 2));
        }
    };
    const LinkParams links = OverlayQueues(LinkParams{}, cfg.links);
    if (root["links"])
    {
        check(links.Ports(), root["links"], "links");
    }
    if (cfg.topology.kind == TopologyKind::Dumbbell && root["topology"]["bottleneck"])
    {
        check(OverlayQueues(links, cfg.topology.bottleneck).Ports(), root["topology"]["bottleneck"],
              "topology.bottleneck");
    }
    const PortQueueSpec nic = OverlayNic(DefaultHostNic(), cfg.hostNic);
    if (root["host-nic"])
    {
        check(nic, root["host-nic"], "host-nic");
    }
    for (const auto& [name, node] : cfg.perHost)
    {
        if (!node.nic.Empty())
        {
            const std::string p = "per-host." + name + ".nic";
            check(OverlayNic(nic, node.nic), root["per-host"][name]["nic"], p);
        }
    }

    // Switch-port keys where no port is a switch's would change nothing: refused, not ignored.
    bool anySwitch = false;
    for (TopoVertexId v = 0; v < boost::num_vertices(m_graph); ++v)
    {
        anySwitch = anySwitch || !m_graph[v].IsHost();
    }
    const char* keys[] = {"queue", "device-queue", "queue-disc"};
    if (!anySwitch && root["links"])
    {
        for (const char* k : keys)
        {
            if (root["links"][k])
            {
                Fail(root["links"][k], Join("links", k),
                     std::string("'") + k + "' sets switch ports and " + m_topologyText +
                         " has no switch; a host's NIC queues are set under host-nic");
            }
        }
    }
    const YAML::Node pl = root["per-link"];
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        const PerLinkConfig& p = cfg.perLink[i];
        const std::string path = Join("per-link", std::to_string(i));
        if (!HasQueueKeys(p.link))
        {
            continue;
        }
        if (m_vertex.count(p.a) && m_vertex.count(p.b) && m_graph[m_vertex.at(p.a)].IsHost() &&
            m_graph[m_vertex.at(p.b)].IsHost())
        {
            for (const char* k : keys)
            {
                if (pl[i][k])
                {
                    Fail(pl[i][k], Join(path, k),
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
        check(OverlayQueues(base, p.link).Ports(), pl[i], path);
    }
}

} // namespace scenario
} // namespace ns3
