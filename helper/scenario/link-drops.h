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

#include <vector>

namespace ns3
{

class LinkDropCounters
{
  public:
    explicit LinkDropCounters(const BuiltTopology& topo);
    std::vector<LinkDrops> Collect() const;

  private:
    void Follow(Ptr<PointToPointNetDevice> dev, LinkDrops* counts);
    std::vector<LinkDrops> m_links; ///< one per BuiltTopology link, in its order (addresses stay put)
};

} // namespace ns3

#endif // IWARP_SCENARIO_LINK_DROPS_H
