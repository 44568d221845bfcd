/*
 * The Boost graph behind a topology: one vertex per node, one edge per point-to-point link.
 * MakeTopologyGraph turns a TopologySpec into it (generating the regular shapes or reading a
 * GraphML file) and checks the input; TopologyBuilder then creates ns-3 objects from it and
 * runs its shortest paths for the routes.
 */
/**
 * \file
 * \ingroup iwarp-helper-topology
 */
#ifndef IWARP_TOPOLOGY_GRAPH_H
#define IWARP_TOPOLOGY_GRAPH_H

#include "helper/topology/topology-spec.h"

#include "ns3/node.h"
#include "ns3/ptr.h"

#include <boost/graph/adjacency_list.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

struct TopoVertex
{
    std::string name;  ///< "h3", "edge1_0", or the GraphML node id
    std::string kind;  ///< "host" or "switch"
    Ptr<Node> node;    ///< set by TopologyBuilder
    uint32_t index{0}; ///< index among the hosts (or the switches)

    bool IsHost() const { return kind == "host"; }
};

struct TopoEdge
{
    LinkTier tier{LinkTier::Host};
    // Per-link overrides as written in a GraphML file (ns-3 attribute syntax); empty: default.
    std::string rate;
    std::string delay;
    std::string queue;
    uint32_t link{0}; ///< index into BuiltTopology::links, set by TopologyBuilder
};

/** vecS/vecS: vertex and edge order are creation (file) order, so builds are deterministic. */
using TopologyGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, TopoVertex, TopoEdge>;
using TopoVertexId = boost::graph_traits<TopologyGraph>::vertex_descriptor;
using TopoEdgeId = boost::graph_traits<TopologyGraph>::edge_descriptor;

/**
 * What the builder takes at most (doc/topology.md): nodes (a k = 64 fat-tree has 70656, a
 * dumbbell of 65535 hosts a side 131072), links (the 10.0.0.0/8 plan of /30s), the size of a
 * GraphML file and the length of its node ids.  Larger input is a TopologyError, before
 * anything of that size is allocated.
 */
constexpr uint64_t kMaxNodes = 1u << 17;
constexpr uint64_t kMaxLinks = 1u << 22;
constexpr uint64_t kMaxGraphMlOctets = 8u << 20;
constexpr std::size_t kMaxNodeNameLength = 100;
/** At most this many leaf-spine planes (TopologySpec::planes): NICs a host has, one per plane. */
constexpr uint32_t kMaxPlanes = 4;

/** Bad input (odd fat-tree arity, unreadable file, missing attribute, ...); what() says which. */
class TopologyError : public std::invalid_argument
{
  public:
    using std::invalid_argument::invalid_argument;
};

/** The graph `spec` describes: hosts first or in file order; throws TopologyError. */
TopologyGraph MakeTopologyGraph(const TopologySpec& spec);

/**
 * Read a GraphML file (node "kind" = host | switch; optional edge "rate", "delay", "queue" in a
 * scenario's units, helper/common/units.h, stored rewritten in ns-3's syntax).
 */
TopologyGraph ReadGraphMlTopology(const std::string& path);

/**
 * Hops from `from` to every vertex along links, never through a host other than `from` (hosts
 * do not forward): the distances the routes follow (doc/topology.md).  -1 where unreachable.
 */
std::vector<int32_t> HopDistances(const TopologyGraph& g, TopoVertexId from,
                                  const std::vector<bool>* linkDown = nullptr);

/** "two-hosts", "dumbbell", "leaf-spine", "fat-tree", "graphml" (as in a scenario file). */
const char* ToString(TopologyKind kind);
/** The inverse of ToString; throws TopologyError listing the valid names. */
TopologyKind ParseTopologyKind(const std::string& name);

} // namespace ns3

#endif // IWARP_TOPOLOGY_GRAPH_H
