/*
 * PortLimit: a port's buffer limit changed while the run goes (a scenario's `link-change` with `queue`,
 * doc/failures.md). The limit is the one the port's queues were built with (port-queues.h): its root
 * queue disc's, or its device queue's when it has none. ns-3 refuses a limit below what a queue holds,
 * and dropping queued packets is not what a smaller buffer does to them, so a limit below the occupancy
 * is reached as the queue drains: the limit follows the occupancy down at each dequeue (an arrival that
 * would raise it is dropped, as at a full buffer) until it meets the new one.
 *
 *   Ptr<PortLimit> limit = Create<PortLimit>(dev);
 *   limit->Set(QueueSize("20p"));   // at once if the queue holds 20 packets or fewer
 */
/**
 * \file
 * \ingroup iwarp-helper-topology
 */
#ifndef IWARP_PORT_LIMIT_H
#define IWARP_PORT_LIMIT_H

#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/simple-ref-count.h"

namespace ns3
{

class PortLimit : public SimpleRefCount<PortLimit>
{
  public:
    /** The limit of `dev`'s port: its root queue disc's, else its device queue's. */
    explicit PortLimit(Ptr<PointToPointNetDevice> dev);

    /** The limit in force now (above the target while a smaller one waits for the queue to drain). */
    QueueSize Limit() const;
    /** The limit asked for last (the built one before any Set). */
    QueueSize Target() const { return m_target; }
    /**
     * From now on `limit`, in the unit the port already counts in (std::invalid_argument otherwise: a RED
     * queue disc's thresholds are in that unit); at once when the queue holds no more than it.
     */
    void Set(QueueSize limit);

  private:
    /** Packets or octets the port holds, in `unit`. */
    uint32_t Held(QueueSizeUnit unit) const;
    void SetNow(QueueSize limit);
    /** After a dequeue: the limit down towards the target, never below what is held. */
    void FollowDown();

    Ptr<QueueDisc> m_disc;          ///< the root queue disc, or null
    Ptr<Queue<Packet>> m_queue;     ///< the device queue, when there is no queue disc
    QueueSize m_target;
};

} // namespace ns3

#endif // IWARP_PORT_LIMIT_H
