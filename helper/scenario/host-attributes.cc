/*
 * A scenario's attribute maps, applied object by object; see host-attributes.h.
 */
#include "helper/scenario/host-attributes.h"

#include "helper/host-helper.h"
#include "helper/iwarp-helper.h"
#include "helper/scenario/scenario-attributes.h"

#include "rnic/rnic-profile.h"

#include "ns3/boolean.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

namespace
{

/** The parts an RNIC makes and configures itself (Rnic::SetPartAttribute). */
const std::vector<std::string> kRnicParts = {
    "ns3::RnicPipeline",  "ns3::DdpEndpoint",        "ns3::RdmapEndpoint",      "ns3::QueuePair",
    "ns3::CompletionQueue", "ns3::MpaConnection",    "ns3::SctpDdpAssociation", "ns3::SctpDdpConnection",
    "ns3::ConnectionManager", "ns3::MemoryRegistry",  "ns3::RoceTransport",     "ns3::DcqcnRateControl",
};

/** What InternetStackHelper aggregates to a node: set on the objects themselves. */
const std::vector<std::string> kIpv4Stack = {
    "ns3::Ipv4L3Protocol", "ns3::ArpL3Protocol", "ns3::Icmpv4L4Protocol", "ns3::UdpL4Protocol", "ns3::TcpL4Protocol",
};

/** The socket types a TransportProfile configures. */
const std::vector<std::string> kSockets = {"ns3::TcpSocketBase", "ns3::SctpSocket"};

/** The TCP state's attributes a TransportProfile sets through the socket (SetTcpPacing, ...). */
const char* const kPacing = "ns3::TcpSocketState::EnablePacing";
const char* const kPaceInitialWindow = "ns3::TcpSocketState::PaceInitialWindow";

/** Whether an attribute of `type` applies to objects of type `object` (the type itself or a child). */
bool
Reaches(const std::string& object, TypeId type)
{
    const TypeId o = TypeId::LookupByName(object);
    return o == type || o.IsChildOf(type);
}

bool
ReachesAny(const std::vector<std::string>& objects, TypeId type)
{
    return std::any_of(objects.begin(), objects.end(), [type](const std::string& o) { return Reaches(o, type); });
}

/** "ns3::T::A" as (T's TypeId, A); the loader has checked both. */
std::pair<TypeId, std::string>
Split(const std::string& full)
{
    const auto sep = full.rfind("::");
    return {TypeId::LookupByName(full.substr(0, sep)), full.substr(sep + 2)};
}

} // namespace

const std::vector<std::string>&
ScenarioWideTypes()
{
    static const std::vector<std::string> types = [] {
        std::vector<std::string> t = {"ns3::HostMemoryModel", "ns3::HostCpuModel", "ns3::HostModel", "ns3::Rnic"};
        for (const auto* list : {&kRnicParts, &kSockets, &kIpv4Stack})
        {
            t.insert(t.end(), list->begin(), list->end());
        }
        t.insert(t.end(), {kPacing, kPaceInitialWindow});
        return t;
    }();
    return types;
}

AttributeMap
HostAttributes(const ScenarioConfig& cfg, const std::string& host)
{
    AttributeMap m = cfg.host;
    for (const auto& [name, value] : cfg.rnic)
    {
        m[name] = value; // rnic over host, as ScenarioDefault reads them
    }
    auto it = cfg.perHost.find(host);
    if (it != cfg.perHost.end())
    {
        for (const AttributeMap* over : {&it->second.host, &it->second.rnic})
        {
            for (const auto& [name, value] : *over)
            {
                m[name] = value;
            }
        }
    }
    return m;
}

std::string
RnicProfileOf(const ScenarioConfig& cfg, const std::string& host, double linkBps)
{
    auto it = cfg.perHost.find(host);
    if (it != cfg.perHost.end() && !it->second.rnicProfile.empty())
    {
        return it->second.rnicProfile;
    }
    if (!cfg.rnicProfile.empty() && cfg.rnicProfile != kAutoRnicProfile)
    {
        return cfg.rnicProfile;
    }
    return RnicProfileForLink(linkBps).name;
}

std::vector<HostLink>
HostLinks(Ptr<Node> node)
{
    std::vector<HostLink> links;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (Ptr<PointToPointNetDevice> d = DynamicCast<PointToPointNetDevice>(node->GetDevice(i)))
        {
            DataRateValue rate;
            d->GetAttribute("DataRate", rate);
            links.push_back({double(rate.Get().GetBitRate()), d->GetMtu()});
        }
    }
    return links;
}

HostLink
FastestLink(Ptr<Node> node)
{
    HostLink fastest{0, 0};
    for (const HostLink& l : HostLinks(node))
    {
        if (l.bps > fastest.bps)
        {
            fastest = l;
        }
    }
    return fastest;
}

void
InstallHostObjects(Ptr<Node> node, const AttributeMap& attributes)
{
    HostHelper host;
    IwarpHelper iwarp;
    for (const auto& [full, text] : attributes)
    {
        const auto [type, name] = Split(full);
        const StringValue value(text);
        if (Reaches("ns3::HostMemoryModel", type))
        {
            host.SetMemoryAttribute(name, value);
        }
        if (Reaches("ns3::HostCpuModel", type))
        {
            host.SetCpuAttribute(name, value);
        }
        if (Reaches("ns3::HostModel", type))
        {
            host.SetHostAttribute(name, value);
        }
        if (Reaches("ns3::Rnic", type))
        {
            iwarp.SetRnicAttribute(name, value);
        }
        if (ReachesAny(kRnicParts, type))
        {
            iwarp.SetPartAttribute(type, name, value);
        }
    }
    host.Install(node);
    iwarp.Install(node);
    for (const std::string& protocol : kIpv4Stack)
    {
        if (Ptr<Object> o = node->GetObject<Object>(TypeId::LookupByName(protocol)))
        {
            ApplyAttributes(o, attributes);
        }
    }
}

void
ConfigureSockets(Ptr<TransportProfile> profile, const AttributeMap& attributes)
{
    AttributeSet sockets;
    for (const auto& [full, text] : attributes)
    {
        const auto [type, name] = Split(full);
        if (ReachesAny(kSockets, type))
        {
            sockets.Set(type, name, StringValue(text));
        }
        else if (full == kPacing || full == kPaceInitialWindow)
        {
            BooleanValue on; // the loader has checked the text against this checker
            on.DeserializeFromString(text, MakeBooleanChecker());
            full == kPacing ? profile->SetTcpPacing(on.Get()) : profile->SetTcpPaceInitialWindow(on.Get());
        }
    }
    profile->AddSocketAttributes(sockets);
}

} // namespace ns3
