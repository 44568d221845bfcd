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
#include "helper/scenario/scenario-reader.h"

#include "mpa/mpa-fpdu.h"
#include "sctp-ddp/sctp-ddp-connection.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

#include <boost/range/iterator_range.hpp>

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
    YAML::Node at;
    std::string path;
};

std::string
LlpName(const WorkloadConfig& w)
{
    if (!IsRdma(w.kind))
    {
        return "TCP";
    }
    return w.llp == Llp::Tcp ? "MPA over TCP" : "DDP over SCTP";
}

uint64_t
UintOf(const Ptr<AttributeValue>& v)
{
    return DynamicCast<UintegerValue>(v)->Get();
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
    // Every link's MTU, and the key that set it: links, then the bottleneck, then per-link in order.
    std::map<EdgeKey, LinkMtu> mtus;
    for (TopoEdgeId e : boost::make_iterator_range(boost::edges(m_graph)))
    {
        LinkMtu l;
        if (cfg.links.mtu)
        {
            l = LinkMtu{*cfg.links.mtu, root["links"]["mtu"], "links.mtu"};
        }
        mtus[KeyOf(boost::source(e, m_graph), boost::target(e, m_graph))] = l;
    }
    auto setOn = [&](const std::string& a, const std::string& b, const LinkMtu& l) {
        mtus[KeyOf(VertexOf(a), VertexOf(b))] = l;
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
    bool uniform = true;
    for (const auto& [key, l] : mtus)
    {
        uniform = uniform && l.mtu == mtus.begin()->second.mtu;
    }
    // Generated kinds have short paths (at most 6 links, a fat-tree's); a graphml file's may be long.
    const bool countHops = cfg.topology.kind == TopologyKind::GraphMl;
    const uint64_t ttl = UintOf(EffectiveDefault(cfg, "ns3::Ipv4L3Protocol::DefaultTtl"));
    const std::optional<std::string> segmentSize = ScenarioDefault(cfg, "ns3::TcpSocket::SegmentSize");
    const std::optional<std::string> pmtu = ScenarioDefault(cfg, "ns3::SctpSocket::Pmtu");

    std::map<TopoVertexId, std::vector<int32_t>> hops; // breadth-first distances, by source
    auto distances = [&](TopoVertexId v) -> const std::vector<int32_t>& {
        auto it = hops.find(v);
        return it != hops.end() ? it->second : hops.emplace(v, HopDistances(m_graph, v)).first->second;
    };
    const YAML::Node list = root["workloads"];
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        WorkloadConfig& w = cfg.workloads[i];
        if (IsInject(w.kind))
        {
            continue;
        }
        const std::string p = Join("workloads", std::to_string(i));
        std::vector<Pair> pairs;
        if (HasManySenders(w.kind))
        {
            for (std::size_t s = 0; s < w.senders.size(); ++s)
            {
                pairs.push_back(Pair{w.senders[s], list[i]["senders"][s], Join(Join(p, "senders"), std::to_string(s))});
            }
        }
        else
        {
            pairs.push_back(Pair{w.from, list[i]["to"], Join(p, "to")});
        }
        for (const Pair& pair : pairs)
        {
            const TopoVertexId s = VertexOf(pair.from);
            const TopoVertexId t = VertexOf(w.to);
            const LinkMtu* smallest = &mtus.begin()->second;
            if (!uniform || countHops)
            {
                // An edge is on a shortest path when the hops to one end and from the other add up.
                const std::vector<int32_t>& ds = distances(s);
                const std::vector<int32_t>& dt = distances(t);
                const int32_t length = ds[t];
                if (uint64_t(length) > ttl)
                {
                    Fail(pair.at, pair.path,
                         "the path from " + pair.from + " to " + w.to + " crosses " + std::to_string(length) +
                             " links, more than IPv4's TTL of " + std::to_string(ttl) +
                             " lets a packet cross (ns3::Ipv4L3Protocol::DefaultTtl, Linux's default too); set "
                             "host: {Ipv4L3Protocol::DefaultTtl: \"255\"} for paths of up to 255 links");
                }
                for (TopoEdgeId e : boost::make_iterator_range(boost::edges(m_graph)))
                {
                    const TopoVertexId u = boost::source(e, m_graph);
                    const TopoVertexId v = boost::target(e, m_graph);
                    for (auto [a, b] : {std::make_pair(u, v), std::make_pair(v, u)})
                    {
                        const bool forwards = (a == s || !m_graph[a].IsHost()) && (b == t || !m_graph[b].IsHost());
                        if (forwards && ds[a] >= 0 && dt[b] >= 0 && ds[a] + 1 + dt[b] == length &&
                            mtus.at(KeyOf(u, v)).mtu < smallest->mtu)
                        {
                            smallest = &mtus.at(KeyOf(u, v));
                        }
                    }
                }
            }
            w.pathMtu[pair.from] = smallest->mtu;
            const std::string where = " on the path of workload '" + w.name + "' (" + pair.from + " to " + w.to + ")";
            const uint32_t need = !IsRdma(w.kind) ? 68 : w.llp == Llp::Tcp ? MinMpaMtu() : MinSctpMtu();
            if (smallest->mtu < need)
            {
                Fail(smallest->at, smallest->path,
                     "MTU " + std::to_string(smallest->mtu) + where + " is below the " + std::to_string(need) +
                         " octets " + LlpName(w) + " needs" +
                         (w.llp == Llp::Tcp ? " (IPv4 20 + TCP 20 + timestamps 12 + a segment of " +
                                                  std::to_string(MinMpaSegmentSize()) +
                                                  " that holds a 70-octet DDP Terminate in one FPDU)"
                                            : " (IPv4 20 + SCTP 12 + DATA 16 + DDP-SSN 2 + the 516-octet "
                                              "DDP segment RFC 5043 requires, and the SCTP model's smallest Pmtu)"));
            }
            const bool tcp = !IsRdma(w.kind) || w.llp == Llp::Tcp;
            if (tcp && segmentSize)
            {
                const auto [at, path] = AttributeKey(root, "ns3::TcpSocket::SegmentSize");
                const uint64_t seg = std::stoull(*segmentSize);
                const uint64_t least = IsRdma(w.kind) ? MinMpaSegmentSize() : 1;
                if (seg + kTcpIpOverhead > smallest->mtu)
                {
                    Fail(at, path, "a segment of " + *segmentSize + " octets does not fit one packet" + where +
                                       ": its smallest MTU, " + std::to_string(smallest->mtu) +
                                       (smallest->path.empty() ? "" : " (" + smallest->path + ")") + ", carries " +
                                       std::to_string(smallest->mtu - kTcpIpOverhead) +
                                       " (IPv4 20, TCP 20, timestamps 12)");
                }
                if (seg < least)
                {
                    Fail(at, path, "a segment of " + *segmentSize + " octets is below the " + std::to_string(least) +
                                       " " + LlpName(w) + " needs (workload '" + w.name + "')");
                }
            }
            if (!tcp && pmtu && std::stoull(*pmtu) > smallest->mtu)
            {
                const auto [at, path] = AttributeKey(root, "ns3::SctpSocket::Pmtu");
                Fail(at, path, "a path MTU of " + *pmtu + " is above the smallest MTU" + where + ", " +
                                   std::to_string(smallest->mtu) +
                                   (smallest->path.empty() ? "" : " (" + smallest->path + ")"));
            }
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
        uint32_t mulpdu = 0;
        std::string how;
        if (target.llp == Llp::Tcp)
        {
            const std::optional<std::string> seg = ScenarioDefault(cfg, "ns3::TcpSocket::SegmentSize");
            const uint32_t segment = seg ? uint32_t(std::stoull(*seg)) : TcpSegmentSizeFor(mtu);
            const bool markers = DynamicCast<BooleanValue>(EffectiveDefault(cfg, "ns3::MpaConnection::Markers"))->Get();
            mulpdu = MpaMulpdu(segment, markers);
            how = "MPA over TCP segments of " + std::to_string(segment) + (markers ? ", with markers" : "");
        }
        else
        {
            const std::optional<std::string> pmtu = ScenarioDefault(cfg, "ns3::SctpSocket::Pmtu");
            const uint32_t path = pmtu ? uint32_t(std::stoull(*pmtu)) : mtu;
            const uint64_t reserve = UintOf(EffectiveDefault(cfg, "ns3::SctpDdpAssociation::BundlingReserve"));
            mulpdu = sctpddp::MulpduFor(path, uint32_t(reserve));
            how = "DDP over SCTP with a path MTU of " + std::to_string(path);
        }
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
