#include "helper/scenario/path-limits.h"

#include "ns3/data-rate.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace ns3
{

double
PayloadRate(const EdgeFacts& e, PacketShape shape)
{
    if (e.mtu <= shape.overhead)
    {
        return 0.0;
    }
    const double payload = std::min(e.mtu - shape.overhead, shape.maxPayload);
    return e.rateBps * payload / (payload + shape.overhead + kPppOctets);
}

Paths::Paths(const BuiltTopology& topo)
    : m_topo(topo)
{
    for (const BuiltLink& l : topo.links)
    {
        DataRateValue rate;
        l.devA->GetAttribute("DataRate", rate);
        TimeValue delay;
        l.channel->GetAttribute("Delay", delay);
        m_links.push_back(
            EdgeFacts{double(rate.Get().GetBitRate()), delay.Get(), std::min(l.devA->GetMtu(), l.devB->GetMtu())});
    }
    for (std::size_t v = 0; v < boost::num_vertices(topo.graph); ++v)
    {
        m_vertex[topo.graph[v].name] = v;
    }
}

std::vector<std::pair<int, PathLimits>>
Paths::FromVertex(const std::string& src, PacketShape shape) const
{
    // Breadth-first from src: routes follow shortest paths by hops (doc/topology.md). Over the DAG of
    // shortest paths keep, per vertex, the best bottleneck rate and payload rate and the least
    // propagation and serialisation: with ECMP a flow may take any of them, so the bounds take the most
    // permissive.
    const TopologyGraph& g = m_topo.graph;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::pair<int, PathLimits>> at(boost::num_vertices(g),
                                               {-1, PathLimits{0.0, 0.0, Time::Max(), Time::Max()}});
    const std::size_t s = m_vertex.at(src);
    at[s] = {0, PathLimits{inf, inf, Time(0), Time(0)}};
    std::deque<std::size_t> queue{s};
    while (!queue.empty())
    {
        const std::size_t u = queue.front();
        queue.pop_front();
        for (auto [e, end] = boost::out_edges(u, g); e != end; ++e)
        {
            const std::size_t v = boost::target(*e, g);
            auto& [hops, limits] = at[v];
            if (hops >= 0 && hops != at[u].first + 1)
            {
                continue;
            }
            if (hops < 0)
            {
                hops = at[u].first + 1;
                queue.push_back(v);
            }
            const PathLimits& from = at[u].second;
            const EdgeFacts& f = m_links[g[*e].link];
            limits.bottleneckBps = std::max(limits.bottleneckBps, std::min(from.bottleneckBps, f.rateBps));
            limits.payloadLimitBps =
                std::max(limits.payloadLimitBps, std::min(from.payloadLimitBps, PayloadRate(f, shape)));
            limits.propagation = std::min(limits.propagation, from.propagation + f.delay);
            limits.serialisation = std::min(limits.serialisation,
                                            from.serialisation + Seconds(double(f.mtu + kPppOctets) * 8.0 / f.rateBps));
        }
    }
    return at;
}

PathLimits
Paths::Limits(const std::string& src, const std::string& dst, PacketShape shape) const
{
    const auto at = FromVertex(src, shape);
    const auto& [hops, limits] = at.at(m_vertex.at(dst));
    if (hops < 0)
    {
        // The loader refuses unreachable pairs; a topology built otherwise must not get here.
        throw std::invalid_argument(src + " and " + dst + " are not connected");
    }
    return limits;
}

std::map<std::string, PathLimits>
Paths::LimitsToHosts(const std::string& src, PacketShape shape) const
{
    const auto at = FromVertex(src, shape);
    std::map<std::string, PathLimits> out;
    for (const std::string& h : m_topo.hostNames)
    {
        const auto& [hops, limits] = at[m_vertex.at(h)];
        if (h != src && hops >= 0)
        {
            out[h] = limits;
        }
    }
    return out;
}

std::vector<EdgeFacts>
Paths::Hops(const std::string& src, const std::string& dst) const
{
    const TopologyGraph& g = m_topo.graph;
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> viaLink(boost::num_vertices(g), kNone); // the link each vertex was reached by
    std::vector<std::size_t> from(boost::num_vertices(g), kNone);
    const std::size_t s = m_vertex.at(src);
    const std::size_t t = m_vertex.at(dst);
    from[s] = s;
    std::deque<std::size_t> queue{s};
    while (!queue.empty() && from[t] == kNone)
    {
        const std::size_t u = queue.front();
        queue.pop_front();
        for (auto [e, end] = boost::out_edges(u, g); e != end; ++e)
        {
            const std::size_t v = boost::target(*e, g);
            if (from[v] == kNone)
            {
                from[v] = u;
                viaLink[v] = g[*e].link;
                queue.push_back(v);
            }
        }
    }
    if (from[t] == kNone)
    {
        throw std::invalid_argument(src + " and " + dst + " are not connected");
    }
    std::vector<EdgeFacts> hops;
    for (std::size_t v = t; v != s; v = from[v])
    {
        hops.push_back(m_links[viaLink[v]]);
    }
    std::reverse(hops.begin(), hops.end());
    return hops;
}

void
Paths::Widen(uint32_t link, double rateBps, Time delay)
{
    EdgeFacts& f = m_links.at(link);
    f.rateBps = std::max(f.rateBps, rateBps);
    f.delay = std::min(f.delay, delay);
}

double
Paths::HostLimit(const std::string& host, PacketShape shape) const
{
    double sum = 0;
    for (std::size_t i = 0; i < m_links.size(); ++i)
    {
        const BuiltLink& l = m_topo.links[i];
        sum += l.a == host || l.b == host ? PayloadRate(m_links[i], shape) : 0.0;
    }
    return sum;
}

} // namespace ns3
