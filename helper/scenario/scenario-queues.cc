#include "helper/scenario/scenario-queues.h"

namespace ns3
{

LinkParams
OverlayQueues(LinkParams base, const LinkConfig& over)
{
    if (over.queue)
    {
        base.queue = QueueSize(*over.queue);
    }
    if (over.deviceQueue)
    {
        base.deviceQueue = QueueSize(*over.deviceQueue);
    }
    if (over.queueDisc)
    {
        base.queueDisc = *over.queueDisc;
    }
    return base;
}

PortQueueSpec
OverlayNic(PortQueueSpec base, const NicConfig& over)
{
    if (over.queue)
    {
        base.queue = QueueSize(*over.queue);
    }
    if (over.deviceQueue)
    {
        base.deviceQueue = QueueSize(*over.deviceQueue);
    }
    if (over.queueDisc)
    {
        base.disc = *over.queueDisc;
    }
    return base;
}

bool
HasQueueKeys(const LinkConfig& c)
{
    return c.queue || c.deviceQueue || c.queueDisc;
}

void
ApplyScenarioQueues(const ScenarioConfig& cfg, TopologySpec& spec)
{
    spec.hostNic = OverlayNic(DefaultHostNic(), cfg.hostNic);
    for (const auto& [name, node] : cfg.perHost)
    {
        if (!node.nic.Empty())
        {
            spec.hostNicByName[name] = OverlayNic(spec.hostNic, node.nic);
        }
    }
    // A per-link entry's queue keys replace, one by one, what its link has from its tier (as its
    // rate and delay do); the keys it leaves out stay the tier's.
    for (const PerLinkConfig& p : cfg.perLink)
    {
        if (HasQueueKeys(p.link))
        {
            LinkQueues lq{p.a, p.b, std::nullopt, std::nullopt, p.link.queueDisc};
            if (p.link.queue)
            {
                lq.queue = QueueSize(*p.link.queue);
            }
            if (p.link.deviceQueue)
            {
                lq.deviceQueue = QueueSize(*p.link.deviceQueue);
            }
            spec.queueLinks.push_back(lq);
        }
    }
}

} // namespace ns3
