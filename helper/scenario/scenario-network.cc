#include "helper/scenario/scenario-network.h"

#include "helper/scenario/host-attributes.h"
#include "helper/scenario/random-streams.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/scenario-queues.h"

#include "host/host-model.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic-profile.h"
#include "rnic/rnic.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioNetwork");

namespace
{

/** `over` on top of `base`: the fields `over` sets. */
LinkParams
Overlay(LinkParams base, const LinkConfig& over)
{
    if (over.rateBps)
    {
        base.rate = DataRate(*over.rateBps);
    }
    if (over.delay)
    {
        base.delay = *over.delay;
    }
    return OverlayQueues(base, over);
}

[[noreturn]] void
Fail(const ScenarioConfig& cfg, const std::string& path, const std::string& detail)
{
    throw ScenarioError(cfg.sourceFile.empty() ? "<string>" : cfg.sourceFile, 0, 0, path, detail);
}

} // namespace

const std::vector<std::string>&
PerHostHostTypes()
{
    static const std::vector<std::string> types = {HostMemoryModel::GetTypeId().GetName(),
                                                   HostCpuModel::GetTypeId().GetName(),
                                                   HostModel::GetTypeId().GetName()};
    return types;
}

const std::vector<std::string>&
PerHostRnicTypes()
{
    static const std::vector<std::string> types = {Rnic::GetTypeId().GetName(), RdmapEndpoint::GetTypeId().GetName(),
                                                   DdpEndpoint::GetTypeId().GetName(),
                                                   RnicPipeline::GetTypeId().GetName()};
    return types;
}

ImpairmentSpec
Overlay(ImpairmentSpec base, const ImpairmentSpec& over)
{
    if (over.loss)
    {
        base.loss = over.loss;
    }
    if (over.gilbertElliott)
    {
        base.gilbertElliott = over.gilbertElliott;
    }
    if (over.reorder)
    {
        base.reorder = over.reorder;
    }
    return base;
}

/** The largest MTU the scenario gives any link (0: none given, ns-3's default), for PFC's headroom. */
uint32_t
LargestMtu(const ScenarioConfig& cfg)
{
    uint32_t mtu = std::max(cfg.links.mtu.value_or(0), cfg.topology.bottleneck.mtu.value_or(0));
    for (const PerLinkConfig& p : cfg.perLink)
    {
        mtu = std::max(mtu, p.link.mtu.value_or(0));
    }
    return mtu;
}

TopologySpec
MakeTopologySpec(const ScenarioConfig& cfg)
{
    const TopologyConfig& t = cfg.topology;
    TopologySpec spec = ShapeOf(t);
    spec.link = Overlay(spec.link, cfg.links);
    if (t.kind == TopologyKind::Dumbbell &&
        (t.bottleneck.rateBps || t.bottleneck.delay || HasQueueKeys(t.bottleneck)))
    {
        spec.bottleneck = Overlay(spec.link, t.bottleneck);
    }
    ApplyScenarioQueues(cfg, spec);
    spec.ecmp = t.ecmp;
    spec.switchFastPath = t.switchFastPath;
    if (t.pfc)
    {
        spec.pfc = PfcSpec{uint8_t(t.pfc->priority), QueueSize(QueueSizeUnit::BYTES, uint32_t(t.pfc->xoff)),
                           QueueSize(QueueSizeUnit::BYTES, uint32_t(t.pfc->xon)), LargestMtu(cfg), std::nullopt};
        if (t.pfc->buffer > 0)
        {
            spec.pfc->shared = PfcSpec::Shared{t.pfc->buffer, t.pfc->alpha, uint32_t(t.pfc->resumeOffset)};
        }
    }
    // Hashed host routes build in constant time per route; ns-3's static routing grows with the
    // table and takes minutes past a few hundred hosts (doc/topology.md).
    spec.routeTable = RouteTable::Hashed;
    if (!cfg.links.impairment.Empty())
    {
        spec.impairAll = cfg.links.impairment;
    }
    // A named link's impairment replaces the everywhere one in the builder, so the fields it
    // leaves unset are filled in from `links` here (doc: "a per-link entry falls back to links").
    // The dumbbell's bottleneck is such a named link (left-right); per-link entries come after it
    // and win over it.
    if (t.kind == TopologyKind::Dumbbell && !t.bottleneck.impairment.Empty())
    {
        spec.impairLinks.push_back(
            LinkImpairment{"left", "right", Overlay(cfg.links.impairment, t.bottleneck.impairment)});
    }
    for (const PerLinkConfig& p : cfg.perLink)
    {
        if (!p.link.impairment.Empty())
        {
            spec.impairLinks.push_back(
                LinkImpairment{p.a, p.b, Overlay(cfg.links.impairment, p.link.impairment)});
        }
    }
    // The seed and run pick the RNG substreams; the impairments use their own streams so that
    // adding a workload does not change which packets a link drops.
    spec.firstStream = 1000;
    return spec;
}

std::unique_ptr<BuiltTopology>
BuildScenarioNetwork(const ScenarioConfig& cfg)
{
    // The scenario's `host:`/`rnic:` defaults are in force already (RunScenario scopes them).
    std::unique_ptr<BuiltTopology> topo;
    try
    {
        topo = std::make_unique<BuiltTopology>(TopologyBuilder::Build(MakeTopologySpec(cfg)));
    }
    catch (const TopologyError& e)
    {
        Fail(cfg, "topology", e.what());
    }

    // MTU everywhere first, then the bottleneck's and the per-link entries' over it (the
    // builder's LinkParams have no MTU, so all MTUs are set on the devices here).
    if (cfg.links.mtu)
    {
        for (BuiltLink& l : topo->links)
        {
            l.devA->SetMtu(uint16_t(*cfg.links.mtu));
            l.devB->SetMtu(uint16_t(*cfg.links.mtu));
        }
    }
    if (cfg.topology.kind == TopologyKind::Dumbbell && cfg.topology.bottleneck.mtu)
    {
        for (uint32_t li : topo->FindLinks("left", "right"))
        {
            topo->links[li].devA->SetMtu(uint16_t(*cfg.topology.bottleneck.mtu));
            topo->links[li].devB->SetMtu(uint16_t(*cfg.topology.bottleneck.mtu));
        }
    }
    // Per-link rate, delay and MTU on top of the defaults (their queues are the builder's).
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        const PerLinkConfig& p = cfg.perLink[i];
        const std::vector<uint32_t> found = topo->FindLinks(p.a, p.b);
        if (found.empty())
        {
            Fail(cfg, "per-link." + std::to_string(i) + ".between",
                 "no link between '" + p.a + "' and '" + p.b + "' in this topology");
        }
        for (uint32_t li : found)
        {
            BuiltLink& l = topo->links[li];
            for (Ptr<PointToPointNetDevice> d : {l.devA, l.devB})
            {
                if (p.link.rateBps)
                {
                    d->SetAttribute("DataRate", DataRateValue(DataRate(*p.link.rateBps)));
                }
                if (p.link.mtu)
                {
                    d->SetMtu(uint16_t(*p.link.mtu));
                }
            }
            if (p.link.delay)
            {
                l.channel->SetAttribute("Delay", TimeValue(*p.link.delay));
            }
        }
    }
    topo->AssignStreams(scenario::kTopologyFirstStream);

    // A host model and an RNIC on every host, each made with that host's attributes (scenario-wide
    // maps, its per-host maps over them); the parts an RNIC makes later get them as they are made.
    for (uint32_t i = 0; i < topo->hosts.GetN(); ++i)
    {
        // The engine profile under everything the scenario sets: its own, or the host's link class's.
        AttributeMap attributes = HostAttributes(cfg, topo->hostNames[i]);
        const std::string rnic =
            RnicProfileOf(cfg, topo->hostNames[i], FastestLink(topo->hosts.Get(i)).bps);
        if (const AttributeProfile* profile = FindRnicProfile(rnic))
        {
            profile->AddTo(attributes);
        }
        InstallHostObjects(topo->hosts.Get(i), attributes);
    }
    return topo;
}

} // namespace ns3
