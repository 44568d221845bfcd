/*
 * The scenario reader's checks along each workload's paths, made once the topology and every
 * workload are read:
 *
 *  - the smallest MTU on the shortest paths between a workload's ends, which the runner sizes its
 *    connections by (helper/scenario/path-sizes.h), against what its LLP needs: a smaller MTU
 *    would make IP fragment every segment, which crashed ns-3's reassembly or corrupted FPDUs;
 *  - a TCP SegmentSize or SCTP Pmtu the scenario sets itself, against those paths;
 *  - the hops of each path against IPv4's TTL (a longer path delivers nothing, silently);
 *  - an injected segment against the MULPDU of the connection it rides on (a longer one is never
 *    taken by the LLP).
 */
#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/data-flows.h"
#include "helper/scenario/scenario-reader.h"


#include "ns3/uinteger.h"

#include <boost/range/iterator_range.hpp>

#include <functional>

namespace ns3
{
namespace scenario
{
namespace
{

/** ns-3's PointToPointNetDevice MTU, which a link keeps unless the scenario sets one. */
constexpr uint32_t kDefaultMtu = 1500;

/** A link's MTU and the key that set it (none for the default). */
struct LinkMtu
{
    uint32_t mtu{kDefaultMtu};
    YAML::Node at;
    std::string path;
};

using EdgeKey = std::pair<TopoVertexId, TopoVertexId>;

EdgeKey
KeyOf(TopoVertexId a, TopoVertexId b)
{
    return {std::min(a, b), std::max(a, b)};
}

/** One sender-receiver pair of a workload: where the pair is written in the file. */
struct Pair
{
    std::string from;
    std::string to;
    YAML::Node at;
    std::string path;
};

uint64_t
UintOf(const Ptr<AttributeValue>& v)
{
    return DynamicCast<UintegerValue>(v)->Get();
}

/**
 * What the checks along paths need of the reader: its Fail, and (through CheckPaths, as they are
 * private to it) its graph, the vertex of a node name and the key that sets an attribute.
 */
struct PathCheck
{
    const ScenarioReader& reader;
    const ScenarioConfig& cfg;
    const TopologyGraph& graph;
    std::function<TopoVertexId(const std::string&)> vertexOf;
    std::function<std::pair<YAML::Node, std::string>(const std::string&)> attributeKey;
};

/** Every link's MTU, and the key that set it: links, then the bottleneck, then per-link in order. */
std::map<EdgeKey, LinkMtu>
LinkMtus(const PathCheck& pc, const YAML::Node& root, const ScenarioConfig& cfg)
{
    std::map<EdgeKey, LinkMtu> mtus;
    for (TopoEdgeId e : boost::make_iterator_range(boost::edges(pc.graph)))
    {
        LinkMtu l;
        if (cfg.links.mtu)
        {
            l = LinkMtu{*cfg.links.mtu, root["links"]["mtu"], "links.mtu"};
        }
        mtus[KeyOf(boost::source(e, pc.graph), boost::target(e, pc.graph))] = l;
    }
    auto setOn = [&](const std::string& a, const std::string& b, const LinkMtu& l) {
        mtus[KeyOf(pc.vertexOf(a), pc.vertexOf(b))] = l;
    };
    if (cfg.topology.kind == TopologyKind::Dumbbell && cfg.topology.bottleneck.mtu)
    {
        setOn("left", "right",
              LinkMtu{*cfg.topology.bottleneck.mtu, root["topology"]["bottleneck"]["mtu"], "topology.bottleneck.mtu"});
    }
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        if (cfg.perLink[i].link.mtu)
        {
            const std::string p = Join(Join("per-link", std::to_string(i)), "mtu");
            setOn(cfg.perLink[i].a, cfg.perLink[i].b, LinkMtu{*cfg.perLink[i].link.mtu, root["per-link"][i]["mtu"], p});
        }
    }
    return mtus;
}

/** Whether every link has the same MTU (then every path's smallest is that one). */
bool
AllSame(const std::map<EdgeKey, LinkMtu>& mtus)
{
    bool uniform = true;
    for (const auto& [key, l] : mtus)
    {
        uniform = uniform && l.mtu == mtus.begin()->second.mtu;
    }
    return uniform;
}

/** The sender-receiver pairs of workload `w`, whose entry in the file is `entry` at path `p`. */
std::vector<Pair>
PairsOf(const WorkloadConfig& w, const YAML::Node& entry, const std::string& p)
{
    std::vector<Pair> pairs;
    for (const WorkloadConnection& c : ConnectionsOf(w))
    {
        const WorkloadKeyAt at = KeyOfConnection(entry, p, c);
        pairs.push_back(Pair{c.initiator, c.responder, at.node, at.path});
    }
    return pairs;
}

/** Breadth-first distances from `v`, computed once per source into `hops`. */
const std::vector<int32_t>&
Distances(const TopologyGraph& graph, std::map<TopoVertexId, std::vector<int32_t>>& hops, TopoVertexId v)
{
    auto it = hops.find(v);
    return it != hops.end() ? it->second : hops.emplace(v, HopDistances(graph, v)).first->second;
}

/**
 * The link of smallest MTU on the shortest paths of `pair` to `to`, after refusing a path longer
 * than the TTL lets a packet cross.
 */
const LinkMtu*
SmallestMtuOnPaths(const PathCheck& pc,
                   const std::map<EdgeKey, LinkMtu>& mtus,
                   const Pair& pair,
                   uint64_t ttl,
                   std::map<TopoVertexId, std::vector<int32_t>>& hops)
{
    const TopologyGraph& g = pc.graph;
    const TopoVertexId s = pc.vertexOf(pair.from);
    const std::string& to = pair.to;
    const TopoVertexId t = pc.vertexOf(to);
    const LinkMtu* smallest = &mtus.begin()->second;
    // An edge is on a shortest path when the hops to one end and from the other add up.
    const std::vector<int32_t>& ds = Distances(g, hops, s);
    const std::vector<int32_t>& dt = Distances(g, hops, t);
    const int32_t length = ds[t];
    if (uint64_t(length) > ttl)
    {
        pc.reader.Fail(pair.at, pair.path,
                       "the path from " + pair.from + " to " + to + " crosses " + std::to_string(length) +
                           " links, more than IPv4's TTL of " + std::to_string(ttl) +
                           " lets a packet cross (ns3::Ipv4L3Protocol::DefaultTtl, Linux's default too); set "
                           "host: {Ipv4L3Protocol::DefaultTtl: \"255\"} for paths of up to 255 links");
    }
    for (TopoEdgeId e : boost::make_iterator_range(boost::edges(g)))
    {
        const TopoVertexId u = boost::source(e, g);
        const TopoVertexId v = boost::target(e, g);
        for (auto [a, b] : {std::make_pair(u, v), std::make_pair(v, u)})
        {
            const bool forwards = (a == s || !g[a].IsHost()) && (b == t || !g[b].IsHost());
            if (forwards && ds[a] >= 0 && dt[b] >= 0 && ds[a] + 1 + dt[b] == length &&
                mtus.at(KeyOf(u, v)).mtu < smallest->mtu)
            {
                smallest = &mtus.at(KeyOf(u, v));
            }
        }
    }
    return smallest;
}

/**
 * The sizes on one pair's paths: the smallest MTU against what the LLP needs, and a SegmentSize or
 * Pmtu the scenario sets against that MTU.
 */
void
CheckPairSizes(const PathCheck& pc,
               const WorkloadConfig& w,
               const Pair& pair,
               const LinkMtu& smallest,
               const std::optional<std::string>& segmentSize,
               const std::optional<std::string>& pmtu)
{
    const std::string where = " on the path of workload '" + w.name + "' (" + pair.from + " to " + pair.to + ")";
    const LlpDescriptor& carrier = CarrierOf(w);
    const uint32_t need = carrier.minMtu(pc.cfg);
    if (smallest.mtu < need)
    {
        pc.reader.Fail(smallest.at, smallest.path,
                       "MTU " + std::to_string(smallest.mtu) + where + " is below the " + std::to_string(need) +
                           " octets " + carrier.label + " needs" + carrier.minMtuWhy(pc.cfg));
    }
    const bool tcp = carrier.carrier == LlpCarrier::Tcp;
    if (tcp && segmentSize)
    {
        const auto [at, path] = pc.attributeKey("ns3::TcpSocket::SegmentSize");
        const uint64_t seg = std::stoull(*segmentSize);
        const uint64_t least = IsRdma(w.kind) ? MinMpaSegmentSize() : 1;
        if (seg + kTcpIpOverhead > smallest.mtu)
        {
            pc.reader.Fail(at, path, "a segment of " + *segmentSize + " octets does not fit one packet" + where +
                                         ": its smallest MTU, " + std::to_string(smallest.mtu) +
                                         (smallest.path.empty() ? "" : " (" + smallest.path + ")") + ", carries " +
                                         std::to_string(smallest.mtu - kTcpIpOverhead) +
                                         " (IPv4 20, TCP 20, timestamps 12)");
        }
        if (seg < least)
        {
            pc.reader.Fail(at, path, "a segment of " + *segmentSize + " octets is below the " + std::to_string(least) +
                                         " " + carrier.label + " needs (workload '" + w.name + "')");
        }
    }
    if (!tcp && pmtu && std::stoull(*pmtu) > smallest.mtu)
    {
        const auto [at, path] = pc.attributeKey("ns3::SctpSocket::Pmtu");
        pc.reader.Fail(at, path, "a path MTU of " + *pmtu + " is above the smallest MTU" + where + ", " +
                                     std::to_string(smallest.mtu) +
                                     (smallest.path.empty() ? "" : " (" + smallest.path + ")"));
    }
}

} // namespace

std::pair<YAML::Node, std::string>
ScenarioReader::AttributeKey(const YAML::Node& root, const std::string& full) const
{
    // rnic first: of two defaults the runner applies rnic's last (ScenarioDefault).
    for (const char* section : {"rnic", "host"})
    {
        for (const auto& kv : root[section] ? root[section] : YAML::Node())
        {
            const std::string key = kv.first.Scalar();
            if ((key.rfind("ns3::", 0) == 0 ? key : "ns3::" + key) == full)
            {
                return {kv.second, Join(section, key)};
            }
        }
    }
    return {root, ""};
}

void
ScenarioReader::CheckPaths(const YAML::Node& root, ScenarioConfig& cfg) const
{
    const PathCheck pc{*this,
                       cfg,
                       m_graph,
                       [this](const std::string& name) { return VertexOf(name); },
                       [this, &root](const std::string& full) { return AttributeKey(root, full); }};
    const std::map<EdgeKey, LinkMtu> mtus = LinkMtus(pc, root, cfg);
    const bool uniform = AllSame(mtus);
    // Generated kinds have short paths (at most 6 links, a fat-tree's); a graphml file's may be long.
    const bool countHops = cfg.topology.kind == TopologyKind::GraphMl;
    const uint64_t ttl = UintOf(EffectiveDefault(cfg, "ns3::Ipv4L3Protocol::DefaultTtl"));
    const std::optional<std::string> segmentSize = ScenarioDefault(cfg, "ns3::TcpSocket::SegmentSize");
    const std::optional<std::string> pmtu = ScenarioDefault(cfg, "ns3::SctpSocket::Pmtu");

    std::map<TopoVertexId, std::vector<int32_t>> hops; // breadth-first distances, by source
    const YAML::Node list = root["workloads"];
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        WorkloadConfig& w = cfg.workloads[i];
        if (IsInject(w.kind))
        {
            continue;
        }
        for (const Pair& pair : PairsOf(w, list[i], Join("workloads", std::to_string(i))))
        {
            const LinkMtu* smallest = &mtus.begin()->second;
            if (!uniform || countHops)
            {
                smallest = SmallestMtuOnPaths(pc, mtus, pair, ttl, hops);
            }
            // A host group's host starts connections to several peers: its sockets fit the smallest.
            auto [at, fresh] = w.pathMtu.emplace(pair.from, smallest->mtu);
            at->second = std::min(at->second, smallest->mtu);
            CheckPairSizes(pc, w, pair, *smallest, segmentSize, pmtu);
        }
    }
}

void
ScenarioReader::CheckInjectSizes(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    const YAML::Node list = root["workloads"];
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        const WorkloadConfig& w = cfg.workloads[i];
        if (!IsInject(w.kind))
        {
            continue;
        }
        const InjectConfig& in = *w.inject;
        const WorkloadConfig& target = cfg.workloads[in.targetIndex];
        // The sending end's connection, sized as the runner sizes it (path-sizes.h).
        const uint32_t mtu = PathMtuAt(target, in.from);
        const auto [mulpdu, how] = target.llp->mulpdu(cfg, mtu);
        const std::size_t size = BuildInjectedSegment(in).size();
        if (size <= mulpdu)
        {
            continue;
        }
        const std::string p = Join("workloads", std::to_string(i));
        const YAML::Node fields = list[i]["fields"];
        const bool byPayload = fields && fields["payload"];
        Fail(byPayload ? fields["payload"] : fields ? fields : list[i]["hex"],
             byPayload ? Join(p, "fields.payload") : Join(p, fields ? "fields" : "hex"),
             "the segment is " + std::to_string(size) + " octets, more than the " + std::to_string(mulpdu) +
                 " (MULPDU) that workload '" + target.name + "'s connection carries from " + in.from + " to " +
                 in.to + " (" + how + "); the LLP would never take it");
    }
}

} // namespace scenario
} // namespace ns3
