/*
 * ScenarioEvents: a scenario's `events` (doc/failures.md) on the built network. Each way of a link an
 * event names (a node event: every link of the node, both ways) gets a LinkGate on its receiving device
 * (wrapping the link's own loss model), opened and closed at the events' times; with `topology.reroute-after` every node's routes are recomputed around the
 * links then down that long after each event (BuiltTopology::Reroute). What each event did is collected for
 * summary.json: the packets lost while it held a way down, when the routes followed.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_EVENTS_H
#define IWARP_SCENARIO_EVENTS_H

#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
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
    /** Install the gates and schedule every event of `cfg` on `topo` (which must outlive this). */
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
        std::vector<std::size_t> heldBy;
    };

    /** The ways (indices into m_ways) event `e` acts on, their gates made on first use. */
    std::vector<std::size_t> WaysOf(const LinkEventConfig& e);
    std::size_t WayInto(uint32_t link, bool intoB);
    void Apply(std::size_t event);
    void Reroute(std::size_t event);
    static void Dropped(ScenarioEvents* self, std::size_t way, Ptr<const Packet> p);

    BuiltTopology& m_topo;
    std::vector<Way> m_ways;
    std::map<std::pair<uint32_t, bool>, std::size_t> m_wayIndex;
    std::vector<std::vector<std::size_t>> m_eventWays;
    std::vector<LinkEventConfig> m_events;
    std::vector<EventRecord> m_records; ///< per event, filled in as the run goes
};

} // namespace ns3

#endif // IWARP_SCENARIO_EVENTS_H
