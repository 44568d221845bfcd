/*
 * TopologyBuilder: TopologySpec in, BuiltTopology out. Every node gets ns-3's Internet stack;
 * switches are IPv4 routers (store-and-forward, one device queue per port), which is what TCP
 * needs and keeps every packet visible to ns-3's IP traces. Each link is its own /30 out of
 * 10.0.0.0/8; a host has the address of each of its links, the first one its primary; routes
 * are host routes to every host address, from breadth-first shortest paths on the Boost graph
 * that end over the address's own link (doc/topology.md).
 *
 *   TopologySpec spec;
 *   spec.kind = TopologyKind::FatTree;
 *   spec.k = 4;
 *   spec.ecmp = true;
 *   BuiltTopology topo = TopologyBuilder::Build(spec);
 *   Ipv4Address dst = topo.GetHostAddress("h15");
 */
/**
 * \file
 * \ingroup iwarp-helper-topology
 */
#ifndef IWARP_TOPOLOGY_BUILDER_H
#define IWARP_TOPOLOGY_BUILDER_H

#include "net/ipv4-ecmp-routing.h"
#include "helper/topology/topology-graph.h"
#include "helper/topology/topology-spec.h"
#include "net/gilbert-elliott-error-model.h"
#include "net/pfc-port.h"
#include "net/reordering-channel.h"

#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** One point-to-point link as built: end a is the graph edge's source, b its target. */
struct BuiltLink
{
    std::string a;
    std::string b;
    LinkTier tier{LinkTier::Host};
    LinkParams params;
    PortQueueSpec queuesA; ///< the queues of end a: its host's NIC, or params.Ports() at a switch
    PortQueueSpec queuesB;
    Ptr<PointToPointNetDevice> devA;
    Ptr<PointToPointNetDevice> devB;
    Ptr<PointToPointChannel> channel;
    Ipv4Address addrA;
    Ipv4Address addrB;
    uint32_t ifA{0}; ///< Ipv4 interface index of devA on its node
    uint32_t ifB{0};
    TopoVertexId vertexA{0}; ///< graph vertex of end a
    TopoVertexId vertexB{0};
    Ptr<GilbertElliottErrorModel> lossAtA; ///< receive-side loss at a (null: none)
    Ptr<GilbertElliottErrorModel> lossAtB;
    Ptr<ReorderingChannel> reorder; ///< the channel again when it reorders (null: it does not)
    Ptr<PfcPort> pfcA; ///< end a's PFC port (null without PFC)
    Ptr<PfcPort> pfcB;
};

/** Sums of the impairment counters over links (both directions). */
struct ImpairmentCounters
{
    uint64_t seen{0};    ///< packets that met a loss model
    uint64_t dropped{0}; ///< packets it dropped
    uint64_t delayed{0}; ///< packets a reordering channel held back
};

class BuiltTopology
{
  public:
    NodeContainer hosts;    ///< in host order: hosts.Get(i) is hostNames[i]
    NodeContainer switches; ///< in graph order
    NodeContainer nodes;    ///< hosts then switches
    std::vector<std::string> hostNames;
    std::vector<std::string> switchNames;
    /** hostAddresses[i] reaches hostNames[i]: its primary address, on its first link (GetHostAddresses for all). */
    std::vector<Ipv4Address> hostAddresses;
    std::vector<BuiltLink> links;           ///< in graph edge order
    TopologyGraph graph;                    ///< vertices carry their Ptr<Node>, edges their link index
    double buildSeconds{0};                 ///< wall time of Build(), for information only

    uint32_t NodeCount() const { return nodes.GetN(); }
    uint32_t LinkCount() const { return static_cast<uint32_t>(links.size()); }

    bool HasNode(const std::string& name) const { return m_vertex.count(name) != 0; }
    /** The node called `name` (host or switch); throws TopologyError if there is none. */
    Ptr<Node> GetNode(const std::string& name) const;
    /** The address other hosts reach host `name` at; throws TopologyError for a non-host. */
    Ipv4Address GetHostAddress(const std::string& name) const;
    /**
     * Every address of host `name`, one per link in link order (the first is GetHostAddress's); each is
     * routed over its own link only, so a multi-homed host is reached at each NIC by its own paths.
     * Throws TopologyError for a non-host.
     */
    std::vector<Ipv4Address> GetHostAddresses(const std::string& name) const;
    /** How many addresses the hosts have together (a host has one per link). */
    uint32_t HostAddressCount() const;
    /** Indices into links of the links between two named nodes (either order). */
    std::vector<uint32_t> FindLinks(const std::string& a, const std::string& b) const;

    /** Pcap on both ends of the link(s) between a and b: "<prefix>-<a>-<b>.pcap" (and b-a). */
    void EnablePcap(const std::string& prefix, const std::string& a, const std::string& b) const;
    /** Pcap on every link end. */
    void EnablePcapAll(const std::string& prefix) const;

    /** Streams for every impairment RNG in link order; returns how many it used. */
    int64_t AssignStreams(int64_t stream);
    ImpairmentCounters Counters() const;

    /**
     * Recompute every node's host routes around the links marked in `linkDown` (by link index), as a
     * routing protocol converged on the new graph would: equal-cost groups shrink to the hops that
     * remain, and a destination cut off has no route (a host address whose own link is down is cut
     * off; the host's other addresses keep theirs). All up: the routes Build installed. Needs the
     * hashed route table (routeTable Hashed or ecmp); throws TopologyError otherwise.
     */
    void Reroute(const std::vector<bool>& linkDown);
    /** Node `name`'s hashed host routes (null under static routing); throws TopologyError for no such node. */
    Ptr<Ipv4EcmpRouting> HostRoutes(const std::string& name) const;

  private:
    friend class TopologyBuilder;
    /** Host vertex v's address on the link of edge e (v is one end of it). */
    Ipv4Address AddressAt(TopoVertexId v, TopoEdgeId e) const;
    void EnablePcapOn(const std::string& prefix, const BuiltLink& link) const;
    TopoVertexId Vertex(const std::string& name) const;
    std::map<std::string, TopoVertexId> m_vertex;
    /** Each vertex's hashed host routes (null: static routing), and whether they keep every equal-cost hop. */
    std::vector<Ptr<Ipv4EcmpRouting>> m_ecmp;
    bool m_ecmpGroups{false};
};

class TopologyBuilder
{
  public:
    /** Build the network `spec` describes; throws TopologyError on bad input. */
    static BuiltTopology Build(const TopologySpec& spec);
    /**
     * Every input check Build makes, without creating any ns-3 object: a scenario loader calls it
     * so that a topology the builder would refuse is refused before the run.  Throws TopologyError.
     */
    static void Check(const TopologySpec& spec);

    /** The parameters a link of this tier gets from `spec` (before GraphML overrides). */
    static LinkParams ParamsFor(const TopologySpec& spec, LinkTier tier);

  private:
    /** The graph, impairments and link descriptions into `topo`: every input error is thrown here. */
    static void CheckInput(const TopologySpec& spec, BuiltTopology& topo);
    /** Names, link descriptions and parameters, all checked before any ns-3 object exists. */
    static void Describe(const TopologySpec& spec, BuiltTopology& topo);
    static void CreateNodes(BuiltTopology& topo);
    static void CreateLinks(const TopologySpec& spec, BuiltTopology& topo);
    static void AddImpairments(const TopologySpec& spec, BuiltTopology& topo);
    /** PFC ports on every device (topology-pfc.cc), after the impairments: they wrap the loss models. */
    static void AddPfc(const TopologySpec& spec, BuiltTopology& topo);
    /** TopologyError for PFC settings that cannot be built (thresholds, a port without a queue disc). */
    static void CheckPfc(const TopologySpec& spec, const BuiltTopology& topo);
    static void InstallRoutes(const TopologySpec& spec, BuiltTopology& topo);
};

} // namespace ns3

#endif // IWARP_TOPOLOGY_BUILDER_H
