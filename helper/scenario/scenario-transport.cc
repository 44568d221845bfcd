#include "helper/scenario/scenario-transport.h"

#include "helper/scenario/host-attributes.h"

#include "helper/scenario/transport-keys.h"

#include "transport/transport-profile.h"

#include <algorithm>

namespace ns3
{

uint64_t
AutoBufferSize(const Paths& paths, const std::string& host)
{
    // Linux grows a connection's buffers to what its window needs (autotuning); a run cannot, so each
    // host gets room for four of its longest path's bandwidth-delay products: the window plus
    // recovery and the receiver's backlog (doc/transports.md, "Buffers").
    double bytes = 0;
    for (const auto& [other, p] : paths.LimitsToHosts(host, 0))
    {
        const double rtt = (p.propagation * 2 + p.serialisation).GetSeconds();
        bytes = std::max(bytes, 4.0 * p.bottleneckBps * rtt / 8.0);
    }
    return std::clamp<uint64_t>(uint64_t(bytes), kAutoBufferMin, kAutoBufferMax);
}

namespace
{

Ptr<TransportProfile>
ProfileOf(const TransportSettings& s)
{
    // Each key sets what it declares (transport-keys.cc), in the table's order: the congestion control
    // before its HyStart attributes.
    Ptr<TransportProfile> p = CreateObject<TransportProfile>();
    for (const TransportKey& k : TransportKeys())
    {
        if (k.apply)
        {
            k.apply(s, *p);
        }
    }
    return p;
}

} // namespace

std::vector<HostTransport>
InstallTransport(const ScenarioConfig& cfg, const BuiltTopology& topo)
{
    const Paths paths(topo);
    std::vector<HostTransport> out;
    for (uint32_t i = 0; i < topo.hosts.GetN(); ++i)
    {
        const std::string& host = topo.hostNames[i];
        TransportSettings s = ResolveTransport(cfg.transport, host);
        const uint64_t automatic = AutoBufferSize(paths, host);
        for (BufferSize* b : {&s.tcp.sendBuffer, &s.tcp.receiveBuffer, &s.sctp.sendBuffer, &s.sctp.receiveBuffer})
        {
            if (b->automatic)
            {
                b->octets = automatic;
            }
        }
        Ptr<TransportProfile> profile = ProfileOf(s);
        // The socket attributes of the host's `host:`/`rnic:`/`per-host` maps (the loader refuses
        // those this section sets).
        ConfigureSockets(profile, HostAttributes(cfg, host));
        topo.hosts.Get(i)->AggregateObject(profile);
        out.push_back(HostTransport{host, s});
    }
    return out;
}

} // namespace ns3
