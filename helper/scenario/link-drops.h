/*
 * Packets dropped on the links of a run, by link and by cause, read from ns-3's own traces: a
 * device queue's (and a root queue disc's, where one is installed) "Drop" for packets refused by
 * a full queue, and a device's "PhyRxDrop" for packets the link's loss model discarded.
 *
 *   LinkDropCounters drops(topo);   // before Simulator::Run
 *   ...
 *   result.drops = drops.Collect(); // links with at least one drop
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_LINK_DROPS_H
#define IWARP_SCENARIO_LINK_DROPS_H

#include "helper/scenario/results-writer.h"
#include "helper/topology/topology-builder.h"

#include "net/link-gate.h"

#include <deque>
#include <vector>

namespace ns3
{

class LinkDropCounters
{
  public:
    explicit LinkDropCounters(const BuiltTopology& topo);
    std::vector<LinkDrops> Collect() const;

  private:
    /** A receiving device's counts, and its LinkGate when scenario events put one there (null: none). */
    struct Receiver
    {
        LinkDrops* counts;
        Ptr<LinkGate> gate;
    };
    void Follow(Ptr<PointToPointNetDevice> dev, LinkDrops* counts);
    static void PhyRxDrop(Receiver* r, Ptr<const Packet> p);
    std::vector<LinkDrops> m_links; ///< one per BuiltTopology link, in its order (addresses stay put)
    std::deque<Receiver> m_receivers; ///< one per device (addresses stay put)
};

} // namespace ns3

#endif // IWARP_SCENARIO_LINK_DROPS_H
