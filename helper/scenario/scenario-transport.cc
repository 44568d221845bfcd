#include "helper/scenario/scenario-transport.h"

#include "helper/scenario/host-attributes.h"

#include "tcp/tcp-linux-cubic.h"
#include "transport/transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

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
    Ptr<TransportProfile> p = CreateObject<TransportProfile>();
    const TcpTransportSettings& t = s.tcp;
    p->SetTcpCongestionOps(t.congestion);
    if (HasHyStart(t.congestion))
    {
        // tcp.hystart (the loader refuses it for any other congestion control).
        p->SetTcpCongestionAttribute("HyStart", BooleanValue(t.hyStart != "off"));
        p->SetTcpCongestionAttribute("HyStartVariant",
                                     EnumValue(t.hyStart == "rfc9406" ? TcpLinuxCubic::HYSTART_RFC9406
                                                                      : TcpLinuxCubic::HYSTART_LINUX));
    }
    p->SetTcpAttribute("MinRto", TimeValue(t.minRto));
    p->SetTcpInitialRto(t.initialRto);
    p->SetTcpAttribute("DelAckTimeout", TimeValue(t.delayedAckTimeout));
    p->SetTcpAttribute("DelAckCount", UintegerValue(t.delayedAckCount));
    p->SetTcpAttribute("InitialCwnd", UintegerValue(t.initialCwnd));
    p->SetTcpAttribute("Sack", BooleanValue(t.sack));
    p->SetTcpAttribute("Timestamp", BooleanValue(t.timestamps));
    p->SetTcpAttribute("UseEcn", EnumValue(t.ecn ? TcpSocketState::On : TcpSocketState::Off));
    p->SetTcpAttribute("SndBufSize", UintegerValue(t.sendBuffer.octets));
    p->SetTcpAttribute("RcvBufSize", UintegerValue(t.receiveBuffer.octets));
    const SctpTransportSettings& c = s.sctp;
    p->SetSctpAttribute("RtoMin", TimeValue(c.rtoMin));
    p->SetSctpAttribute("RtoInitial", TimeValue(c.rtoInitial));
    p->SetSctpAttribute("RtoMax", TimeValue(c.rtoMax));
    p->SetSctpAttribute("SackDelay", TimeValue(c.sackDelay));
    p->SetSctpAttribute("SackFrequency", UintegerValue(c.sackFrequency));
    p->SetSctpAttribute("InitialCwnd", UintegerValue(c.initialCwnd));
    p->SetSctpAttribute("MaxBurst", UintegerValue(c.maxBurst));
    p->SetSctpAttribute("SndBufSize", UintegerValue(c.sendBuffer.octets));
    p->SetSctpAttribute("RcvBufSize", UintegerValue(c.receiveBuffer.octets));
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
