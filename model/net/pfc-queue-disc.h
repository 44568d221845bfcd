/*
 * PfcQueueDisc: an egress port's queue disc with 802.1Qbb's eight priorities, each a class of its own with a
 * child queue disc (FIFO, RED, ...: the port's configured kind), any of which a PAUSE can stop. A packet's
 * priority is its IPv4 DSCP's class selector (DSCP >> 3: RoCEv2's usual DSCP 26 is priority 3, best effort 0
 * is 0). Dequeue takes the priorities in turn, one packet each, skipping those paused or empty; a priority that
 * resumes sets the port going again at once.
 *
 * On a switch, each packet it takes that carries a PfcIngressTag is reported to the ingress accounting (Ingress
 * callback: ingress port, priority, +octets as it is queued, -octets as it leaves or is dropped by a child), and
 * the tag comes off as the packet leaves.
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_PFC_QUEUE_DISC_H
#define IWARP_PFC_QUEUE_DISC_H

#include "net/pfc-frame.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class PfcQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();
    PfcQueueDisc();
    ~PfcQueueDisc() override;

    /** The priority of `item`: its DSCP's class selector, 0 for a packet that is not IPv4. */
    static uint8_t PriorityOf(Ptr<const QueueDiscItem> item);

    /** Stop (or let go again) `priority`'s class. */
    void SetPaused(uint8_t priority, bool paused);
    bool IsPaused(uint8_t priority) const { return m_paused[priority]; }
    /** Time `priority` has spent paused, the pause under way included. */
    Time GetPausedTime(uint8_t priority) const;

    /** (ingress port's ifIndex, priority, octets: + queued, - gone) */
    typedef Callback<void, uint32_t, uint8_t, int64_t> IngressCallback;
    void SetIngressAccounting(IngressCallback cb) { m_ingress = cb; }

    /** (priority, paused) */
    typedef void (*PausedTracedCallback)(uint8_t priority, bool paused);

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void Account(Ptr<const QueueDiscItem> item, uint8_t priority, int64_t sign);

    std::array<bool, pfc::kPriorities> m_paused{};
    std::array<Time, pfc::kPriorities> m_pausedSince{};
    std::array<Time, pfc::kPriorities> m_pausedTotal{};
    uint8_t m_next{0}; ///< the priority whose turn it is
    IngressCallback m_ingress;
    TracedCallback<uint8_t, bool> m_pausedTrace;
};

} // namespace ns3

#endif // IWARP_PFC_QUEUE_DISC_H
