#include "helper/scenario/scenario-queues.h"

namespace ns3
{

namespace
{

/** The queue keys `over` sets (LinkConfig and NicConfig name them alike) onto the three fields. */
template <class Config>
void
OverlayFields(const Config& over, QueueSize& queue, QueueSize& deviceQueue, QueueDiscSpec& disc)
{
    if (over.queue)
    {
        queue = QueueSize(*over.queue);
    }
    if (over.deviceQueue)
    {
        deviceQueue = QueueSize(*over.deviceQueue);
    }
    if (over.queueDisc)
    {
        disc = *over.queueDisc;
    }
}

} // namespace

LinkParams
OverlayQueues(LinkParams base, const LinkConfig& over)
{
    OverlayFields(over, base.queue, base.deviceQueue, base.queueDisc);
    return base;
}

PortQueueSpec
OverlayNic(PortQueueSpec base, const NicConfig& over)
{
    OverlayFields(over, base.queue, base.deviceQueue, base.disc);
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
            // Only what the entry sets: the builder keeps the tier's value for the rest.
            const LinkParams set = OverlayQueues(LinkParams{}, p.link);
            LinkQueues lq{p.a, p.b, std::nullopt, std::nullopt, p.link.queueDisc};
            lq.queue = p.link.queue ? std::optional<QueueSize>(set.queue) : std::nullopt;
            lq.deviceQueue = p.link.deviceQueue ? std::optional<QueueSize>(set.deviceQueue) : std::nullopt;
            spec.queueLinks.push_back(lq);
        }
    }
}

} // namespace ns3
