/*
 * The scenario reader's topology graph (the one the TopologyBuilder will build, read when
 * loading) and its checks across sections, made once every section is read: the measure
 * window against the stop time, links and paths in the topology graph, the LLP each RNIC runs, and finally the TopologyBuilder's own input checks.
 * Each of these used to surface only during the run (exit 1, or a message without a place);
 * here they are ScenarioErrors with the file, line and key, before anything runs.
 */
#include "helper/scenario/listening-ports.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/data-flows.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/common/units.h"

#include <boost/graph/connected_components.hpp>
#include <boost/range/iterator_range.hpp>

#include <map>
#include <set>

namespace ns3
{
namespace scenario
{
namespace
{

} // namespace

void
ScenarioReader::ReadGraph(const YAML::Node& n, const std::string& path, const TopologyConfig& t)
{
    const bool fromFile = t.kind == TopologyKind::GraphMl;
    const YAML::Node where = fromFile ? n["file"] : n;
    const std::string wherePath = fromFile ? Join(path, "file") : path;
    try
    {
        m_graph = MakeTopologyGraph(ShapeOf(t));
    }
    catch (const TopologyError& e)
    {
        Fail(where, wherePath, e.what());
    }
    m_nodes.clear();
    m_hosts.clear();
    m_vertex.clear();
    for (TopoVertexId v = 0; v < boost::num_vertices(m_graph); ++v)
    {
        const std::string& name = m_graph[v].name;
        if (!m_vertex.emplace(name, v).second)
        {
            Fail(where, wherePath, "two nodes are named '" + name + "'");
        }
        if (boost::out_degree(v, m_graph) == 0)
        {
            Fail(where, wherePath, "node '" + name + "' has no link");
        }
        (m_graph[v].IsHost() ? m_hosts : m_nodes).push_back(name);
    }
    // Hosts first, as ExpectedNodeNames lists them (a graphml file may interleave them).
    m_nodes.insert(m_nodes.begin(), m_hosts.begin(), m_hosts.end());
    m_topologyText = std::string("topology ") + ToString(t.kind);
    m_namesFromFile = fromFile;
}

void
ScenarioReader::ReadMeasure(const YAML::Node& n, const std::string& path, ScenarioConfig& cfg) const
{
    CheckKeys(n, path, MeasureNode());
    MeasureWindow m;
    ReadSection(*this, MeasureKeys(), n, path, m);
    if (m.to <= m.from)
    {
        Fail(n["to"], Join(path, "to"),
             "the window is empty: to " + FormatTime(m.to) + " is not after from " + FormatTime(m.from));
    }
    if (m.to > cfg.stop)
    {
        Fail(n["to"], Join(path, "to"), FormatTime(m.to) + " is after the stop time " + FormatTime(cfg.stop));
    }
    cfg.measure = m;
}

TopoVertexId
ScenarioReader::VertexOf(const std::string& name) const
{
    return m_vertex.at(name);
}

void
ScenarioReader::RequireLink(const YAML::Node& at, const std::string& path, const std::string& a, const std::string& b)
    const
{
    const TopoVertexId va = VertexOf(a);
    if (boost::edge(va, VertexOf(b), m_graph).second)
    {
        return;
    }
    std::string neighbours;
    std::size_t shown = 0;
    for (TopoVertexId v : boost::make_iterator_range(boost::adjacent_vertices(va, m_graph)))
    {
        if (++shown > 8)
        {
            neighbours += ", ...";
            break;
        }
        neighbours += (neighbours.empty() ? "" : ", ") + m_graph[v].name;
    }
    Fail(at, path, a + " and " + b + " share no link (" + a + "'s neighbours: " + neighbours + ")");
}

std::size_t
ScenarioReader::LinksBetween(const std::string& a, const std::string& b) const
{
    const TopoVertexId vb = VertexOf(b);
    std::size_t n = 0;
    for (const auto e : boost::make_iterator_range(boost::out_edges(VertexOf(a), m_graph)))
    {
        n += boost::target(e, m_graph) == vb ? 1 : 0;
    }
    return n;
}

void
ScenarioReader::CheckAdjacency(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    // tracing.series links are checked as they are read (ReadSeries): each needs its count of links.
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        const std::string p = Join(Join("per-link", std::to_string(i)), "between");
        RequireLink(root["per-link"][i]["between"], p, cfg.perLink[i].a, cfg.perLink[i].b);
    }
    for (std::size_t i = 0; i < cfg.tracing.pcapLinks.size(); ++i)
    {
        const auto& [a, b] = cfg.tracing.pcapLinks[i];
        RequireLink(root["tracing"]["pcap"][i], Join("tracing.pcap", std::to_string(i)), a, b);
    }
}

void
ScenarioReader::CheckReachability(const YAML::Node& list, const ScenarioConfig& cfg) const
{
    // Generated kinds are connected by construction; a graphml file need not be, and a route
    // that does not exist would show only as a workload that never completes.
    std::vector<int> component(boost::num_vertices(m_graph));
    if (boost::connected_components(m_graph, component.data()) <= 1)
    {
        return;
    }
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        const WorkloadConfig& w = cfg.workloads[i];
        if (IsInject(w.kind))
        {
            continue; // rides on its target's connection
        }
        const std::string p = Join("workloads", std::to_string(i));
        for (const WorkloadConnection& c : ConnectionsOf(w))
        {
            if (component[VertexOf(c.initiator)] == component[VertexOf(c.responder)])
            {
                continue;
            }
            const WorkloadKeyAt at = KeyOfConnection(list[i], p, c);
            Fail(at.node, at.path,
                 "no path between " + c.initiator + " and " + c.responder + " in the " + m_topologyText +
                     " (they are in parts of the graph that no link joins)");
        }
    }
}

void
ScenarioReader::CheckLlps(const YAML::Node& list, const ScenarioConfig& cfg) const
{
    // The runner sets a node's ConnectionManager `LlpConnector` attribute as each workload starts, so two
    // workloads on one node with different LLPs would both run over whichever was set last (and
    // a ping-pong sweep's later sizes, installed during the run, would pick up another's).
    auto llpText = [&](std::size_t i, const char* defaultNote) {
        const std::string text = std::string("llp '") + cfg.workloads[i].llp->name + "'";
        return list[i]["llp"] ? text : text + defaultNote;
    };
    // Every RDMA workload on a node before j has the LLP of the first one there (or j would not be
    // reached), so the first workload of each node is all a later one is compared with: linear in
    // the workloads, and the earliest conflicting workload is the one named.
    std::map<std::string, std::size_t> first; // node -> the first RDMA workload on it
    for (std::size_t j = 0; j < cfg.workloads.size(); ++j)
    {
        const WorkloadConfig& later = cfg.workloads[j];
        if (!IsRdma(later.kind))
        {
            continue;
        }
        const std::vector<std::string> nodes = HostsOf(later);
        std::size_t i = j;
        for (const std::string& node : nodes)
        {
            auto it = first.find(node);
            if (it != first.end() && cfg.workloads[it->second].llp != later.llp)
            {
                i = std::min(i, it->second);
            }
        }
        if (i == j)
        {
            for (const std::string& node : nodes)
            {
                first.emplace(node, j);
            }
            continue;
        }
        const WorkloadConfig& earlier = cfg.workloads[i];
        for (const std::string& node : HostsOf(earlier))
        {
            if (std::find(nodes.begin(), nodes.end(), node) == nodes.end())
            {
                continue;
            }
            const std::string p = Join(Join("workloads", std::to_string(j)), "llp");
            Fail(list[j]["llp"] ? list[j]["llp"] : list[j], p,
                 llpText(j, " (the default)") + " conflicts with workload '" + earlier.name + "' (" +
                     llpText(i, ", the default") + ") on host " + node +
                     "; an RNIC runs one LLP at a time in this model");
        }
    }
}

void
ScenarioReader::CheckWithBuilder(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    // The checks above say where; this one makes sure that nothing the builder would refuse is
    // left for the run, whatever its cause (a graphml link parameter it cannot parse, ...).
    try
    {
        TopologyBuilder::Check(MakeTopologySpec(cfg));
    }
    catch (const TopologyError& e)
    {
        const YAML::Node t = root["topology"];
        const bool file = cfg.topology.kind == TopologyKind::GraphMl;
        Fail(file ? t["file"] : t, file ? "topology.file" : "topology", e.what());
    }
}

void
ScenarioReader::CheckListeningPorts(const YAML::Node& list, const ScenarioConfig& cfg) const
{
    const ListeningPortPlan plan = PlanListeningPorts(cfg.workloads);
    if (plan.overflowAt)
    {
        const std::size_t i = *plan.overflowAt;
        Fail(list[i], Join("workloads", std::to_string(i)), ListeningPortsExhausted(plan));
    }
}

} // namespace scenario
} // namespace ns3
