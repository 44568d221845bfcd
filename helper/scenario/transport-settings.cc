#include "helper/scenario/transport-settings.h"

#include "tcp/tcp-linux-cubic.h"

#include "ns3/object-factory.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-dctcp.h"

#include <algorithm>

namespace ns3
{

TransportSettings
DefaultTransport()
{
    // Each value with its source in doc/transports.md ("Defaults").
    TransportSettings s;
    TcpTransportSettings& t = s.tcp;
    t.congestion = TypeId::LookupByName(kDefaultTcpCongestion);
    t.hyStart = HyStartModes().front();     // Linux tcp_cubic.c: hystart = 1, ACK train and delay
    t.minRto = MilliSeconds(5);             // DC tuning; Linux 200 ms, RFC 6298 1 s
    t.initialRto = Seconds(1);              // RFC 6298 (2.1), Linux TCP_TIMEOUT_INIT
    t.delayedAckTimeout = MilliSeconds(1);  // below the minimum RTO; Linux 40 ms at least
    t.delayedAckCount = 2;                  // RFC 1122 4.2.3.2, RFC 5681 4.2
    t.initialCwnd = 10;                     // RFC 6928, Linux
    t.sack = true;                          // RFC 2018, Linux tcp_sack
    t.timestamps = true;                    // RFC 7323, Linux tcp_timestamps
    t.ecn = false;                          // Linux tcp_ecn=2 asks for none (DCTCP turns it on)
    SctpTransportSettings& c = s.sctp;
    c.rtoMin = t.minRto;                    // as TCP's; RFC 9260 §16 says 1 s
    c.rtoInitial = t.initialRto;            // RFC 9260 §16
    c.rtoMax = Seconds(60);                 // RFC 9260 §16
    c.sackDelay = t.delayedAckTimeout;      // as TCP's; RFC 9260 §6.2 allows up to 500 ms
    c.sackFrequency = t.delayedAckCount;    // RFC 9260 §6.2: every second packet
    c.initialCwnd = 0;                      // RFC 9260 §7.2.1, Linux SCTP
    c.maxBurst = 4;                         // RFC 9260 §16 Max.Burst
    return s;
}

namespace
{

/**
 * `out` = the first set candidate (most specific first), recording the key path it came from under
 * `field` in `origin`; `out` keeps its default when none is set.
 */
template <typename T>
void
Take(T& out,
     std::map<std::string, std::string>& origin,
     const std::string& field,
     std::initializer_list<std::pair<const std::optional<T>*, std::string>> candidates)
{
    for (const auto& [value, path] : candidates)
    {
        if (*value)
        {
            out = **value;
            origin[field] = path;
            return;
        }
    }
}

} // namespace

TransportSettings
ResolveTransport(const TransportConfig& config, const std::string& host)
{
    TransportSettings s = DefaultTransport();
    static const TransportLevelConfig kNone;
    auto it = config.hosts.find(host);
    const TransportLevelConfig& h = it == config.hosts.end() ? kNone : it->second;
    const TransportLevelConfig& a = config.all;
    const std::string hp = "transport.hosts." + host + ".";
    const std::string ap = "transport.";
    auto& o = s.origin;

    // A host's own level wins over the scenario-wide one; within a level a protocol's own key wins
    // over the shared `buffers`.
    auto tcp = [&](auto& out, const std::string& key, auto member) {
        Take(out, o, "tcp." + key, {{&(h.tcp.*member), hp + "tcp." + key}, {&(a.tcp.*member), ap + "tcp." + key}});
    };
    auto sctp = [&](auto& out, const std::string& key, auto member) {
        Take(out, o, "sctp." + key,
             {{&(h.sctp.*member), hp + "sctp." + key}, {&(a.sctp.*member), ap + "sctp." + key}});
    };
    auto buffer = [&](BufferSize& out, const std::string& proto, const std::string& key, const char* shared,
                      const std::optional<BufferSize>& hostOwn, const std::optional<BufferSize>& allOwn,
                      std::optional<BufferSize> TransportLevelConfig::*common) {
        Take(out, o, proto + "." + key,
             {{&hostOwn, hp + proto + "." + key},
              {&(h.*common), hp + "buffers." + shared},
              {&allOwn, ap + proto + "." + key},
              {&(a.*common), ap + "buffers." + shared}});
    };

    TcpTransportSettings& t = s.tcp;
    tcp(t.congestion, "congestion", &TcpTransportConfig::congestion);
    tcp(t.hyStart, "hystart", &TcpTransportConfig::hyStart);
    tcp(t.minRto, "min-rto", &TcpTransportConfig::minRto);
    tcp(t.initialRto, "initial-rto", &TcpTransportConfig::initialRto);
    tcp(t.delayedAckTimeout, "delayed-ack-timeout", &TcpTransportConfig::delayedAckTimeout);
    tcp(t.delayedAckCount, "delayed-ack-count", &TcpTransportConfig::delayedAckCount);
    tcp(t.initialCwnd, "initial-cwnd", &TcpTransportConfig::initialCwnd);
    tcp(t.sack, "sack", &TcpTransportConfig::sack);
    tcp(t.timestamps, "timestamps", &TcpTransportConfig::timestamps);
    tcp(t.ecn, "ecn", &TcpTransportConfig::ecn);
    if (!o.count("tcp.ecn"))
    {
        t.ecn = NeedsEcn(t.congestion); // DCTCP runs with ECN unless told otherwise (the loader refuses off)
    }
    buffer(t.sendBuffer, "tcp", "send-buffer", "send", h.tcp.sendBuffer, a.tcp.sendBuffer,
           &TransportLevelConfig::sendBuffer);
    buffer(t.receiveBuffer, "tcp", "receive-buffer", "receive", h.tcp.receiveBuffer, a.tcp.receiveBuffer,
           &TransportLevelConfig::receiveBuffer);

    SctpTransportSettings& c = s.sctp;
    sctp(c.rtoMin, "rto-min", &SctpTransportConfig::rtoMin);
    sctp(c.rtoInitial, "rto-initial", &SctpTransportConfig::rtoInitial);
    sctp(c.rtoMax, "rto-max", &SctpTransportConfig::rtoMax);
    sctp(c.sackDelay, "sack-delay", &SctpTransportConfig::sackDelay);
    sctp(c.sackFrequency, "sack-frequency", &SctpTransportConfig::sackFrequency);
    sctp(c.initialCwnd, "initial-cwnd", &SctpTransportConfig::initialCwnd);
    sctp(c.maxBurst, "max-burst", &SctpTransportConfig::maxBurst);
    buffer(c.sendBuffer, "sctp", "send-buffer", "send", h.sctp.sendBuffer, a.sctp.sendBuffer,
           &TransportLevelConfig::sendBuffer);
    buffer(c.receiveBuffer, "sctp", "receive-buffer", "receive", h.sctp.receiveBuffer, a.sctp.receiveBuffer,
           &TransportLevelConfig::receiveBuffer);
    return s;
}

std::vector<std::pair<std::string, TypeId>>
TcpCongestionNames()
{
    std::vector<std::pair<std::string, TypeId>> names;
    const TypeId base = TcpCongestionOps::GetTypeId();
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId t = TypeId::GetRegistered(i);
        // ns-3 3.37's TcpCubic names TcpSocketBase as its TypeId's parent: listed by name.
        const bool congestion = (t != base && t.IsChildOf(base)) || t == TcpCubic::GetTypeId();
        if (congestion && t.HasConstructor())
        {
            names.emplace_back(TcpCongestionName(t), t);
        }
    }
    std::sort(names.begin(), names.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    return names;
}

const std::vector<std::string>&
HyStartModes()
{
    static const std::vector<std::string> modes = {"linux", "rfc9406", "off"};
    return modes;
}

bool
HasHyStart(TypeId congestion)
{
    return congestion == TcpLinuxCubic::GetTypeId();
}

std::string
TcpCongestionName(TypeId congestion)
{
    if (congestion == TcpLinuxCubic::GetTypeId())
    {
        return "Cubic";
    }
    if (congestion == TcpCubic::GetTypeId())
    {
        return "Ns3Cubic";
    }
    const std::string name = congestion.GetName();
    for (const char* prefix : {"ns3::Tcp", "ns3::"})
    {
        if (name.rfind(prefix, 0) == 0 && name.size() > std::char_traits<char>::length(prefix))
        {
            return name.substr(std::char_traits<char>::length(prefix));
        }
    }
    return name;
}

bool
NeedsEcn(TypeId congestion)
{
    return congestion == TcpDctcp::GetTypeId() || congestion.IsChildOf(TcpDctcp::GetTypeId());
}

} // namespace ns3
