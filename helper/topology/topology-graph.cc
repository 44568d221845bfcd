#include "helper/topology/topology-graph.h"

#include "helper/common/plausibility.h"
#include "helper/common/text-file.h"
#include "helper/common/units.h"

#include "ns3/log.h"

#include <boost/graph/graphml.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <deque>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyGraph");

namespace
{

/** A node id from a GraphML file names pcap files and rows: no '/', no control characters. */
void
CheckNodeId(const std::string& where, const std::string& id)
{
    if (id.empty() || id.size() > kMaxNodeNameLength)
    {
        throw TopologyError(where + ": node id '" + id.substr(0, 40) + (id.size() > 40 ? "..." : "") +
                            "' must have 1 to " + std::to_string(kMaxNodeNameLength) + " characters");
    }
    for (char c : id)
    {
        if (c == '/' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        {
            throw TopologyError(where + ": node id '" + id +
                                "' has a '/' or a control character (it names pcap files)");
        }
    }
}

/**
 * An edge's rate, delay and queue checked with the scenario's own parsers (units.h) and ranges
 * (plausibility.h), and rewritten in the form ns-3 parses: ns-3's own parsers abort the process on
 * text they cannot read.
 */
void
NormaliseEdge(const std::string& where, const TopologyGraph& g, TopoEdgeId e, TopoEdge& edge)
{
    const std::string link = "<edge source=\"" + g[boost::source(e, g)].name + "\" target=\"" +
                             g[boost::target(e, g)].name + "\">";
    auto plausible = [&](const char* key, const std::string& why) {
        if (!why.empty())
        {
            throw TopologyError(where + ": " + link + ": " + key + ": " + why);
        }
    };
    try
    {
        if (!edge.rate.empty())
        {
            const uint64_t bps = scenario::ParseRate(edge.rate);
            plausible("rate", scenario::Implausible(scenario::Quantity::LinkRate, double(bps)));
            edge.rate = std::to_string(bps) + "bps";
        }
        if (!edge.delay.empty())
        {
            const int64_t ns = scenario::ParseTime(edge.delay).GetNanoSeconds();
            plausible("delay", scenario::Implausible(scenario::Quantity::Propagation, double(ns)));
            edge.delay = std::to_string(ns) + "ns";
        }
        if (!edge.queue.empty())
        {
            edge.queue = scenario::ParseQueue(edge.queue);
            plausible("queue", scenario::ImplausibleQueue(edge.queue));
        }
    }
    catch (const scenario::UnitError& err)
    {
        throw TopologyError(where + ": " + link + ": " + err.what());
    }
}

/** Nodes and links of a generated shape, counted before anything is allocated. */
void
CheckSize(TopologyKind kind, uint64_t hosts, uint64_t nodes, uint64_t links)
{
    if (nodes > kMaxNodes || links > kMaxLinks)
    {
        throw TopologyError(std::string(ToString(kind)) + ": " + std::to_string(hosts) + " hosts, " +
                            std::to_string(nodes) + " nodes and " + std::to_string(links) +
                            " links are more than this builder supports (" + std::to_string(kMaxNodes) +
                            " nodes, " + std::to_string(kMaxLinks) + " links)");
    }
}

TopoVertexId
AddNode(TopologyGraph& g, const std::string& name, const std::string& kind)
{
    TopoVertexId v = boost::add_vertex(g);
    g[v].name = name;
    g[v].kind = kind;
    return v;
}

void
AddLink(TopologyGraph& g, TopoVertexId a, TopoVertexId b, LinkTier tier)
{
    TopoEdgeId e = boost::add_edge(a, b, g).first;
    g[e].tier = tier;
}

std::vector<TopoVertexId>
AddHosts(TopologyGraph& g, uint32_t n)
{
    std::vector<TopoVertexId> hosts;
    for (uint32_t i = 0; i < n; ++i)
    {
        hosts.push_back(AddNode(g, "h" + std::to_string(i), "host"));
    }
    return hosts;
}

void
RequirePositive(uint32_t value, const char* what, TopologyKind kind)
{
    if (value == 0)
    {
        throw TopologyError(std::string(ToString(kind)) + ": " + what + " must be at least 1 (got 0)");
    }
}

TopologyGraph
MakeDumbbell(uint32_t n)
{
    TopologyGraph g;
    std::vector<TopoVertexId> h = AddHosts(g, 2 * n);
    TopoVertexId left = AddNode(g, "left", "switch");
    TopoVertexId right = AddNode(g, "right", "switch");
    for (uint32_t i = 0; i < n; ++i)
    {
        AddLink(g, h[i], left, LinkTier::Host);
        AddLink(g, h[n + i], right, LinkTier::Host);
    }
    AddLink(g, left, right, LinkTier::Bottleneck);
    return g;
}

/** A leaf-spine switch's name in plane p: plane 0 keeps the single-plane names, plane p > 0 adds "_p<p>". */
std::string
PlaneName(const std::string& name, uint32_t plane)
{
    return plane == 0 ? name : name + "_p" + std::to_string(plane);
}

/*
 * `planes` copies of the fabric sharing the hosts. Links are made in the order host links plane by
 * plane, then fabric links plane by plane: each host's first link (its primary address) is on plane 0,
 * one plane gives exactly the single-plane graph (same vertices, links and so addresses), and the host
 * links' /30s stay one block, which keeps Ipv4EcmpRouting's array lookup (addresses packed) in use.
 */
TopologyGraph
MakeLeafSpine(uint32_t leaves, uint32_t spines, uint32_t perLeaf, uint32_t planes)
{
    TopologyGraph g;
    std::vector<TopoVertexId> h = AddHosts(g, leaves * perLeaf);
    std::vector<std::vector<TopoVertexId>> leaf(planes);
    std::vector<std::vector<TopoVertexId>> spine(planes);
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t l = 0; l < leaves; ++l)
        {
            leaf[p].push_back(AddNode(g, PlaneName("leaf" + std::to_string(l), p), "switch"));
        }
        for (uint32_t s = 0; s < spines; ++s)
        {
            spine[p].push_back(AddNode(g, PlaneName("spine" + std::to_string(s), p), "switch"));
        }
    }
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t i = 0; i < perLeaf; ++i)
            {
                AddLink(g, h[l * perLeaf + i], leaf[p][l], LinkTier::Host);
            }
        }
    }
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t s = 0; s < spines; ++s)
            {
                AddLink(g, leaf[p][l], spine[p][s], LinkTier::Fabric);
            }
        }
    }
    return g;
}

/*
 * The k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008): k pods, each with k/2 edge and k/2
 * aggregation switches; edge switch e of a pod serves k/2 hosts and links to every aggregation
 * switch of its pod; aggregation switch a links to the core switches a*k/2 ... a*k/2 + k/2 - 1.
 */
TopologyGraph
MakeFatTree(uint32_t k)
{
    const uint32_t half = k / 2;
    TopologyGraph g;
    std::vector<TopoVertexId> h = AddHosts(g, k * half * half);
    std::vector<TopoVertexId> core;
    for (uint32_t c = 0; c < half * half; ++c)
    {
        core.push_back(AddNode(g, "core" + std::to_string(c), "switch"));
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        std::vector<TopoVertexId> agg;
        std::vector<TopoVertexId> edge;
        const std::string pod = std::to_string(p) + "_";
        for (uint32_t i = 0; i < half; ++i)
        {
            agg.push_back(AddNode(g, "agg" + pod + std::to_string(i), "switch"));
        }
        for (uint32_t i = 0; i < half; ++i)
        {
            edge.push_back(AddNode(g, "edge" + pod + std::to_string(i), "switch"));
        }
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t i = 0; i < half; ++i)
            {
                AddLink(g, h[(p * half + e) * half + i], edge[e], LinkTier::Host);
            }
            for (uint32_t a = 0; a < half; ++a)
            {
                AddLink(g, edge[e], agg[a], LinkTier::Fabric);
            }
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                AddLink(g, agg[a], core[a * half + c], LinkTier::Fabric);
            }
        }
    }
    return g;
}

/** The graph and the kind, rate, delay and queue attributes of a GraphML text (Boost's reader). */
TopologyGraph
ParseGraphMl(const std::string& where, const std::string& text)
{
    TopologyGraph g;
    boost::dynamic_properties dp(boost::ignore_other_properties);
    dp.property("kind", boost::get(&TopoVertex::kind, g));
    dp.property("rate", boost::get(&TopoEdge::rate, g));
    dp.property("delay", boost::get(&TopoEdge::delay, g));
    dp.property("queue", boost::get(&TopoEdge::queue, g));
    try
    {
        std::istringstream is(text);
        boost::read_graphml(is, g, dp);
    }
    catch (const std::exception& e)
    {
        throw TopologyError(where + ": not valid GraphML (" + e.what() + ")");
    }
    return g;
}

/**
 * The ids of the <node> elements, in their order. Boost's reader keeps no node ids; it creates
 * the vertices in the order of the <node> elements, so a second pass over the XML names them.
 */
std::vector<std::string>
GraphMlNodeIds(const std::string& where, const std::string& text)
{
    std::vector<std::string> ids;
    try
    {
        std::istringstream is(text);
        boost::property_tree::ptree tree;
        boost::property_tree::read_xml(is, tree);
        for (const auto& child : tree.get_child("graphml.graph"))
        {
            if (child.first == "node")
            {
                ids.push_back(child.second.get<std::string>("<xmlattr>.id"));
            }
        }
    }
    catch (const std::exception& e)
    {
        throw TopologyError(where + ": cannot read the node ids (" + e.what() + ")");
    }
    return ids;
}

/** One id per vertex, and no more nodes and links than the builder supports. */
void
CheckGraphMlSize(const std::string& where, const std::vector<std::string>& ids, const TopologyGraph& g)
{
    if (ids.size() != boost::num_vertices(g))
    {
        throw TopologyError(where + ": " + std::to_string(boost::num_vertices(g)) +
                            " vertices but " + std::to_string(ids.size()) +
                            " <node> elements (an edge names an undeclared node?)");
    }
    if (ids.size() > kMaxNodes || boost::num_edges(g) > kMaxLinks)
    {
        throw TopologyError(where + ": " + std::to_string(ids.size()) + " nodes and " +
                            std::to_string(boost::num_edges(g)) + " links are more than this builder supports (" +
                            std::to_string(kMaxNodes) + " nodes, " + std::to_string(kMaxLinks) + " links)");
    }
}

/** Each vertex named by its id, checked to be unique and of kind host or switch; at least one host. */
void
NameGraphMlNodes(const std::string& where, const std::vector<std::string>& ids, TopologyGraph& g)
{
    std::set<std::string> seen;
    uint32_t hosts = 0;
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        CheckNodeId(where, ids[v]);
        g[v].name = ids[v];
        if (!seen.insert(ids[v]).second)
        {
            throw TopologyError(where + ": node id '" + ids[v] + "' appears twice");
        }
        if (g[v].kind.empty())
        {
            throw TopologyError(where + ": node '" + ids[v] +
                                "' has no 'kind' attribute (expected host or switch)");
        }
        if (g[v].kind != "host" && g[v].kind != "switch")
        {
            throw TopologyError(where + ": node '" + ids[v] + "' has kind '" + g[v].kind +
                                "' (expected host or switch)");
        }
        hosts += g[v].IsHost();
    }
    if (hosts == 0)
    {
        throw TopologyError(where + ": no node of kind host");
    }
}

/** Each edge's tier (host links touch a host) and normalised parameters; no self-loops. */
void
CheckGraphMlEdges(const std::string& where, TopologyGraph& g)
{
    for (TopoEdgeId e : boost::make_iterator_range(boost::edges(g)))
    {
        TopoVertexId a = boost::source(e, g);
        TopoVertexId b = boost::target(e, g);
        if (a == b)
        {
            throw TopologyError(where + ": edge from '" + g[a].name + "' to itself");
        }
        g[e].tier = (g[a].IsHost() || g[b].IsHost()) ? LinkTier::Host : LinkTier::Fabric;
        NormaliseEdge(where, g, e, g[e]);
    }
}

} // namespace

const char*
ToString(TopologyKind kind)
{
    switch (kind)
    {
    case TopologyKind::TwoHosts:
        return "two-hosts";
    case TopologyKind::Dumbbell:
        return "dumbbell";
    case TopologyKind::LeafSpine:
        return "leaf-spine";
    case TopologyKind::FatTree:
        return "fat-tree";
    case TopologyKind::GraphMl:
        return "graphml";
    }
    return "?";
}

TopologyKind
ParseTopologyKind(const std::string& name)
{
    std::string valid;
    for (TopologyKind k : {TopologyKind::TwoHosts,
                           TopologyKind::Dumbbell,
                           TopologyKind::LeafSpine,
                           TopologyKind::FatTree,
                           TopologyKind::GraphMl})
    {
        if (name == ToString(k))
        {
            return k;
        }
        valid += valid.empty() ? "" : ", ";
        valid += ToString(k);
    }
    throw TopologyError("unknown topology kind '" + name + "' (expected one of " + valid + ")");
}

TopologyGraph
ReadGraphMlTopology(const std::string& path)
{
    const std::string where = "GraphML file '" + path + "'";
    std::stringstream text;
    try
    {
        text << ReadTextFile(path, kMaxGraphMlOctets);
    }
    catch (const TextFileError& e)
    {
        throw TopologyError(where + ": " + e.what());
    }
    TopologyGraph g = ParseGraphMl(where, text.str());
    const std::vector<std::string> ids = GraphMlNodeIds(where, text.str());
    CheckGraphMlSize(where, ids, g);
    NameGraphMlNodes(where, ids, g);
    CheckGraphMlEdges(where, g);
    return g;
}

std::vector<int32_t>
HopDistances(const TopologyGraph& g, TopoVertexId from, const std::vector<bool>* linkDown)
{
    std::vector<int32_t> dist(boost::num_vertices(g), -1);
    dist[from] = 0;
    std::deque<TopoVertexId> queue{from};
    while (!queue.empty())
    {
        const TopoVertexId u = queue.front();
        queue.pop_front();
        if (u != from && g[u].IsHost())
        {
            continue; // reached, but no path goes through it
        }
        for (TopoEdgeId e : boost::make_iterator_range(boost::out_edges(u, g)))
        {
            const TopoVertexId v = boost::target(e, g);
            if (dist[v] < 0 && !(linkDown && (*linkDown)[g[e].link]))
            {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    return dist;
}

namespace
{

/** `planes` is leaf-spine's only, from 1 to kMaxPlanes: refused elsewhere rather than ignored. */
void
CheckPlanes(const TopologySpec& spec)
{
    if (spec.planes < 1 || spec.planes > kMaxPlanes)
    {
        throw TopologyError(std::string(ToString(spec.kind)) + ": planes must be 1 to " +
                            std::to_string(kMaxPlanes) + " (got " + std::to_string(spec.planes) + ")");
    }
    if (spec.planes != 1 && spec.kind != TopologyKind::LeafSpine)
    {
        throw TopologyError(std::string(ToString(spec.kind)) + ": planes applies to leaf-spine only (got " +
                            std::to_string(spec.planes) + ")");
    }
}

} // namespace

TopologyGraph
MakeTopologyGraph(const TopologySpec& spec)
{
    CheckPlanes(spec);
    switch (spec.kind)
    {
    case TopologyKind::TwoHosts: {
        TopologyGraph g;
        std::vector<TopoVertexId> h = AddHosts(g, 2);
        AddLink(g, h[0], h[1], LinkTier::Host);
        return g;
    }
    case TopologyKind::Dumbbell:
        RequirePositive(spec.hostsPerSide, "hostsPerSide", spec.kind);
        CheckSize(spec.kind, 2 * uint64_t(spec.hostsPerSide), 2 * uint64_t(spec.hostsPerSide) + 2,
                  2 * uint64_t(spec.hostsPerSide) + 1);
        return MakeDumbbell(spec.hostsPerSide);
    case TopologyKind::LeafSpine: {
        RequirePositive(spec.leaves, "leaves", spec.kind);
        RequirePositive(spec.spines, "spines", spec.kind);
        RequirePositive(spec.hostsPerLeaf, "hostsPerLeaf", spec.kind);
        const uint64_t hosts = uint64_t(spec.leaves) * spec.hostsPerLeaf;
        CheckSize(spec.kind, hosts, hosts + uint64_t(spec.planes) * (uint64_t(spec.leaves) + spec.spines),
                  uint64_t(spec.planes) * (hosts + uint64_t(spec.leaves) * spec.spines));
        return MakeLeafSpine(spec.leaves, spec.spines, spec.hostsPerLeaf, spec.planes);
    }
    case TopologyKind::FatTree:
        if (spec.k < 2 || spec.k % 2 != 0)
        {
            throw TopologyError("fat-tree: arity k must be even and at least 2 (got " +
                                std::to_string(spec.k) + ")");
        }
        if (spec.k > 64)
        {
            throw TopologyError("fat-tree: arity k = " + std::to_string(spec.k) +
                                " is more than the 64 this builder supports");
        }
        return MakeFatTree(spec.k);
    case TopologyKind::GraphMl:
        if (spec.graphmlPath.empty())
        {
            throw TopologyError("graphml: graphmlPath is empty");
        }
        return ReadGraphMlTopology(spec.graphmlPath);
    }
    throw TopologyError("unknown topology kind");
}

} // namespace ns3
