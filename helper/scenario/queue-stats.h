/*
 * Per-port queue counters of a run (doc/metrics.md, "Queues"): for every link end, its queue
 * disc's enqueued, dequeued, dropped and ECN-marked packets (by ns-3's reason), its peak
 * occupancy in packets and in octets, and its device queue's own counts.
 *
 *   QueueCounters queues(topo);     // before Simulator::Run: follows the occupancy traces
 *   ...
 *   result.queues = queues.Collect(); // after the run, before Simulator::Destroy
 *
 * QueuesCsv renders them as queues.csv; summary.json's `queues` lists the ports that saw a packet.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_QUEUE_STATS_H
#define IWARP_SCENARIO_QUEUE_STATS_H

#include "helper/scenario/results-writer.h"
#include "helper/topology/topology-builder.h"

#include "ns3/queue-disc.h"
#include "ns3/queue.h"

#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class QueueCounters
{
  public:
    explicit QueueCounters(const BuiltTopology& topo);
    std::vector<QueueResult> Collect() const;

  private:
    struct Port
    {
        QueueResult row;
        Ptr<QueueDisc> disc;
        Ptr<Queue<Packet>> device;
        Ptr<PfcPort> pfc;
        uint8_t lossless{0};
    };
    void Follow(const std::string& node, const std::string& peer, bool host, Ptr<PointToPointNetDevice> dev,
                const PortQueueSpec& spec, Ptr<PfcPort> pfc);
    std::deque<Port> m_ports; ///< a deque: the traces hold pointers to its elements
};

/** queues.csv: one row per port, doc/metrics.md's columns. */
std::string QueuesCsv(const std::vector<QueueResult>& queues);

} // namespace ns3

#endif // IWARP_SCENARIO_QUEUE_STATS_H
