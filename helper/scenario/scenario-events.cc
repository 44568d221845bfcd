#include "helper/scenario/scenario-events.h"

#include "helper/common/units.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/topology/port-queues.h"

#include <algorithm>
#include <stdexcept>

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/double.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioEvents");

ScenarioEvents::ScenarioEvents(const ScenarioConfig& cfg, BuiltTopology& topo)
    : m_topo(topo),
      m_source(cfg.sourceFile.empty() ? "<string>" : cfg.sourceFile)
{
    NS_ABORT_MSG_UNLESS(std::is_sorted(cfg.events.begin(), cfg.events.end(),
                                       [](const LinkEventConfig& x, const LinkEventConfig& y) { return x.at < y.at; }),
                        "ScenarioEvents: the events must be in time order (as the loader leaves them)");
    for (std::size_t i = 0; i < cfg.events.size(); ++i)
    {
        const LinkEventConfig& e = cfg.events[i];
        m_events.push_back(e);
        EventRecord record;
        record.at = e.at;
        record.action = scenario::NameOf(scenario::LinkEventActionNames(), e.action);
        record.a = e.a;
        record.b = e.b;
        record.direction = scenario::NameOf(scenario::LinkDirectionNames(), e.direction);
        record.node = e.node;
        record.rateBps = e.rateBps;
        record.delay = e.delay;
        record.loss = e.loss;
        const bool unlimited = e.queue && IsUnlimited(QueueSize(*e.queue)); // as the loader reads it
        record.queue = unlimited ? std::optional<std::string>("unlimited") : e.queue;
        m_records.push_back(record);
        m_eventWays.push_back(WaysOf(e));
    }
    // Every change is checked before anything is scheduled: a refused one leaves no event behind.
    for (std::size_t i = 0; i < m_events.size(); ++i)
    {
        if (m_events[i].action == LinkEventAction::Change)
        {
            PrepareChange(i);
        }
    }
    for (std::size_t i = 0; i < m_events.size(); ++i)
    {
        if (m_events[i].action == LinkEventAction::Change)
        {
            Simulator::Schedule(m_events[i].at, &ScenarioEvents::ApplyChange, this, i);
            continue;
        }
        Simulator::Schedule(m_events[i].at, &ScenarioEvents::Apply, this, i);
    }
    // After every event's own: a reroute due at the instant of an event sees that event's link state. A
    // change leaves the routes as they are (they follow which links are up, not their rates).
    for (std::size_t i = 0; cfg.topology.rerouteAfter && i < cfg.events.size(); ++i)
    {
        if (cfg.events[i].action != LinkEventAction::Change)
        {
            Simulator::Schedule(cfg.events[i].at + *cfg.topology.rerouteAfter, &ScenarioEvents::Reroute, this, i);
        }
    }
}

std::vector<std::size_t>
ScenarioEvents::WaysOf(const LinkEventConfig& e)
{
    std::vector<std::size_t> ways;
    if (IsNodeEvent(e.action))
    {
        for (uint32_t link = 0; link < m_topo.links.size(); ++link)
        {
            if (m_topo.links[link].a == e.node || m_topo.links[link].b == e.node)
            {
                ways.push_back(WayInto(link, true));
                ways.push_back(WayInto(link, false));
            }
        }
        return ways;
    }
    for (uint32_t link : m_topo.FindLinks(e.a, e.b))
    {
        const bool aFirst = m_topo.links[link].a == e.a; // `between` names the link's a end first
        ways.push_back(WayInto(link, aFirst));          // first -> second: received at the second
        if (e.direction == LinkDirection::Both)
        {
            ways.push_back(WayInto(link, !aFirst));
        }
    }
    return ways;
}

std::size_t
ScenarioEvents::WayInto(uint32_t link, bool intoB)
{
    const auto key = std::make_pair(link, intoB);
    if (auto it = m_wayIndex.find(key); it != m_wayIndex.end())
    {
        return it->second;
    }
    Ptr<PointToPointNetDevice> dev = intoB ? m_topo.links[link].devB : m_topo.links[link].devA;
    PointerValue inner;
    dev->GetAttribute("ReceiveErrorModel", inner);
    Ptr<LinkGate> gate = CreateObject<LinkGate>();
    gate->SetInner(inner.Get<ErrorModel>());
    dev->SetReceiveErrorModel(gate);
    const std::size_t w = m_ways.size();
    gate->TraceConnectWithoutContext("Drop", MakeBoundCallback(&ScenarioEvents::Dropped, this, w));
    m_ways.push_back(Way{gate, link, intoB, {}, nullptr});
    m_wayIndex[key] = w;
    return w;
}

void
ScenarioEvents::Dropped(ScenarioEvents* self, std::size_t way, Ptr<const Packet> /*p*/)
{
    const std::vector<std::size_t>& by = self->m_ways[way].heldBy;
    if (!by.empty())
    {
        ++self->m_records[by.front()].dropped; // the first of the events holding the way down
    }
}

void
ScenarioEvents::Apply(std::size_t event)
{
    const LinkEventConfig& e = m_events[event];
    const bool down = e.action == LinkEventAction::Down || e.action == LinkEventAction::NodeDown;
    // An up releases the hold of the down of its own kind on the same subject (the loader saw it there).
    const LinkEventAction releases = e.action == LinkEventAction::Up ? LinkEventAction::Down : LinkEventAction::NodeDown;
    for (std::size_t w : m_eventWays[event])
    {
        std::vector<std::size_t>& held = m_ways[w].heldBy;
        if (down)
        {
            held.push_back(event);
        }
        else
        {
            held.erase(std::remove_if(held.begin(), held.end(),
                                      [&](std::size_t d) {
                                          const LinkEventConfig& by = m_events[d];
                                          return by.action == releases && by.node == e.node;
                                      }),
                       held.end());
        }
        m_ways[w].gate->SetDown(!held.empty());
    }
    NS_LOG_INFO(m_records[event].action << " " << (IsNodeEvent(e.action) ? e.node : e.a + " " + e.b));
}

Ptr<PointToPointNetDevice>
ScenarioEvents::Sender(const Way& way) const
{
    const BuiltLink& link = m_topo.links[way.link];
    return way.intoB ? link.devA : link.devB;
}

void
ScenarioEvents::PrepareChange(std::size_t event)
{
    const LinkEventConfig& e = m_events[event];
    for (std::size_t w : m_eventWays[event])
    {
        Way& way = m_ways[w];
        BuiltLink& link = m_topo.links[way.link];
        if (e.loss && !way.gate->GetInner())
        {
            // A link without loss gets a model that drops nothing until the change: one draw per packet,
            // from a stream of its own.
            Ptr<GilbertElliottErrorModel>& model = way.intoB ? link.lossAtB : link.lossAtA;
            model = CreateObject<GilbertElliottErrorModel>();
            model->SetAttribute("LossBad", DoubleValue(0.0));
            m_nextStream += model->AssignStreams(m_nextStream);
            way.gate->SetInner(model);
        }
        if (e.queue)
        {
            CheckLimit(event, way);
        }
    }
}

void
ScenarioEvents::CheckLimit(std::size_t event, Way& way)
{
    const LinkEventConfig& e = m_events[event];
    const BuiltLink& link = m_topo.links[way.link];
    const std::string port = (way.intoB ? link.a : link.b) + "'s port towards " + (way.intoB ? link.b : link.a);
    const std::string what = "the link-change at " + scenario::FormatTime(e.at) + " sets queue " +
                             m_records[event].queue.value_or("");
    auto fail = [&](const std::string& why) {
        throw ScenarioError(m_source, 0, 0, "events", what + " on " + port + ", but " + why);
    };
    PortQueueSpec spec = way.intoB ? link.queuesA : link.queuesB; // the sending end's queues, as built
    if (spec.disc.kind == QueueDiscKind::FqCoDel)
    {
        // Its flow queues take their limit from the root once, when it starts: a change would not reach them.
        fail("an fq-codel queue disc's flow queues keep the limit they were built with");
    }
    if (!way.limit)
    {
        way.limit = Create<PortLimit>(Sender(way));
    }
    const QueueSize limit = NewLimit(way, *e.queue);
    if (limit.GetUnit() != way.limit->Limit().GetUnit())
    {
        fail(std::string("the port counts its buffer in ") +
             (way.limit->Limit().GetUnit() == QueueSizeUnit::PACKETS ? "packets" : "octets") + ": give the limit in that unit");
    }
    spec.queue = limit; // the builder's rules (a RED threshold under the limit, ...) hold for the new one too
    try
    {
        CheckPortQueues(spec, port);
    }
    catch (const TopologyError& err)
    {
        throw ScenarioError(m_source, 0, 0, "events", what + ", but " + err.what()); // it names the port
    }
}

QueueSize
ScenarioEvents::NewLimit(const Way& way, const std::string& text) const
{
    // `unlimited` is read as the most packets a queue counts; a port that counts octets takes the most octets.
    const QueueSize limit(text);
    const QueueSizeUnit unit = way.limit->Limit().GetUnit();
    return IsUnlimited(limit) && unit == QueueSizeUnit::BYTES ? QueueSize(unit, UINT32_MAX) : limit;
}

void
ScenarioEvents::ApplyChange(std::size_t event)
{
    const LinkEventConfig& e = m_events[event];
    for (std::size_t w : m_eventWays[event])
    {
        Way& way = m_ways[w];
        BuiltLink& link = m_topo.links[way.link];
        if (e.rateBps)
        {
            Sender(way)->SetDataRate(DataRate(*e.rateBps));
        }
        if (e.loss)
        {
            // Both states lose alike: the chain's state no longer matters.
            Ptr<ErrorModel> model = way.gate->GetInner();
            model->SetAttribute("LossGood", DoubleValue(*e.loss));
            model->SetAttribute("LossBad", DoubleValue(*e.loss));
        }
        if (e.queue)
        {
            way.limit->Set(NewLimit(way, *e.queue));
        }
        if (e.delay)
        {
            link.channel->SetAttribute("Delay", TimeValue(*e.delay));
        }
    }
    NS_LOG_INFO("link-change " << e.a << " " << e.b);
}

void
ScenarioEvents::Reroute(std::size_t event)
{
    // A link with either way down is out of the routes: a routing protocol's hellos (or BFD) need both.
    std::vector<bool> linkDown(m_topo.links.size(), false);
    for (const Way& w : m_ways)
    {
        linkDown[w.link] = linkDown[w.link] || w.gate->IsDown();
    }
    m_topo.Reroute(linkDown);
    m_records[event].reroutedAt = Simulator::Now();
}

} // namespace ns3
