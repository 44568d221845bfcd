/*
 * ScenarioEvents: a scenario's `events` (doc/failures.md) on the built network. Each way of a link an
 * event names (a node event: every link of the node, both ways) gets a LinkGate on its receiving device
 * (wrapping the link's own loss model), opened and closed at the events' times; with
 * `topology.reroute-after` every node's routes are recomputed around the links then down that long after
 * each down or up (BuiltTopology::Reroute). A link-change sets, on each way it names, the sending device's
 * rate, the receiving end's loss (the link's own model set to independent loss; one is made, with its own
 * random stream, where the link had none) and the sending port's limit (PortLimit), and the channel's delay.
 * What each event did is collected for summary.json: the packets lost while it held a way down, when the
 * routes followed, what it changed.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_EVENTS_H
#define IWARP_SCENARIO_EVENTS_H

#include "helper/scenario/random-streams.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
#include "helper/topology/port-limit.h"
#include "helper/topology/topology-builder.h"
#include "net/link-gate.h"

#include <map>
#include <optional>
#include <vector>

namespace ns3
{

class ScenarioEvents
{
  public:
    /**
     * Install the gates and schedule every event of `cfg` on `topo` (which must outlive this). Throws
     * ScenarioError for a `queue` change in a unit the port does not count in.
     */
    ScenarioEvents(const ScenarioConfig& cfg, BuiltTopology& topo);

    /** What each event did, for summary.json. */
    const std::vector<EventRecord>& Collect() const { return m_records; }

  private:
    /**
     * One way of one link: the gate at its receiving end, and the down events holding it down (a link-down
     * of its own and a node-down of either end may hold it at once; it carries again when none does).
     */
    struct Way
    {
        Ptr<LinkGate> gate;
        uint32_t link{0};
        bool intoB{true}; ///< received at the link's b end (sent from its a end)
        std::vector<std::size_t> heldBy;
        Ptr<PortLimit> limit; ///< the sending port's limit, made by the first queue change
    };

    /** The ways (indices into m_ways) event `e` acts on, their gates made on first use. */
    std::vector<std::size_t> WaysOf(const LinkEventConfig& e);
    std::size_t WayInto(uint32_t link, bool intoB);
    void Apply(std::size_t event);
    /** Make what `event`'s changes need before the run: loss models with their streams, port limits. */
    void PrepareChange(std::size_t event);
    void ApplyChange(std::size_t event);
    /** Throws ScenarioError when `event`'s queue cannot be `way`'s sending port's (unit, queue disc, RED). */
    void CheckLimit(std::size_t event, Way& way);
    /** `text` as a limit of `way`'s sending port (`unlimited` in the port's unit). */
    QueueSize NewLimit(const Way& way, const std::string& text) const;
    /** The device that sends on `way` (the one at the link's other end from the gate's). */
    Ptr<PointToPointNetDevice> Sender(const Way& way) const;
    void Reroute(std::size_t event);
    static void Dropped(ScenarioEvents* self, std::size_t way, Ptr<const Packet> p);

    BuiltTopology& m_topo;
    std::string m_source; ///< the scenario file, for errors
    std::vector<Way> m_ways;
    std::map<std::pair<uint32_t, bool>, std::size_t> m_wayIndex;
    std::vector<std::vector<std::size_t>> m_eventWays;
    std::vector<LinkEventConfig> m_events;
    std::vector<EventRecord> m_records; ///< per event, filled in as the run goes
    int64_t m_nextStream{scenario::kLinkChangeFirstStream};
};

} // namespace ns3

#endif // IWARP_SCENARIO_EVENTS_H
