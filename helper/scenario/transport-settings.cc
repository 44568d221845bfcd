#include "helper/scenario/transport-settings.h"

#include "helper/scenario/transport-keys.h"

#include "tcp/tcp-linux-cubic.h"
#include "tcp/tcp-linux-dctcp.h"

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
    // Each key's default, with its source, is declared with the key (transport-keys.cc).
    TransportSettings s;
    for (const TransportKey& k : TransportKeys())
    {
        if (k.setDefault)
        {
            k.setDefault(s);
        }
    }
    return s;
}

TransportSettings
ResolveTransport(const TransportConfig& config, const std::string& host)
{
    TransportSettings s = DefaultTransport();
    // The scenario-wide level, then the host's own over it; within a level a protocol's own key wins over
    // the shared `buffers` (TransportKey::take).
    std::vector<std::pair<const TransportLevelConfig*, std::string>> levels = {{&config.all, "transport."}};
    if (auto it = config.hosts.find(host); it != config.hosts.end())
    {
        levels.emplace_back(&it->second, "transport.hosts." + host + ".");
    }
    for (const auto& [level, prefix] : levels)
    {
        for (const TransportKey& k : TransportKeys())
        {
            if (!k.take)
            {
                continue;
            }
            if (const std::string from = k.take(*level, s); !from.empty())
            {
                s.origin[k.key] = prefix + from;
            }
        }
    }
    if (!s.origin.count("tcp.ecn"))
    {
        s.tcp.ecn = NeedsEcn(s.tcp.congestion); // DCTCP runs with ECN unless told otherwise (the loader refuses off)
    }
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
    if (congestion == TcpLinuxDctcp::GetTypeId())
    {
        return "Dctcp";
    }
    if (congestion == TcpDctcp::GetTypeId())
    {
        return "Ns3Dctcp";
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
