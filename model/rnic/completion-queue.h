/*
 * CompletionQueue: where a queue pair's completions land, with verbs-style notification.
 * Armed for "next completion" it notifies once on any completion; armed "solicited only"
 * it notifies once when a Send with Solicited Event is delivered (RDMAP-043). A persistent
 * mode re-arms itself after each notification. The Notification attribute arms a new queue
 * persistently, as an application that sleeps on its completion channel does (each event costs
 * its host HostModel::RdmaEvent); by default the application busy-polls and nothing is armed.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_COMPLETION_QUEUE_H
#define IWARP_COMPLETION_QUEUE_H

#include "common/verbs-types.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class CompletionQueue : public Object
{
  public:
    static TypeId GetTypeId();
    CompletionQueue();

    enum Arm
    {
        DISARMED,
        NEXT_COMPLETION,
        SOLICITED_ONLY,
    };

    /**
     * Arm for one notification; `persistent` keeps it armed after each one (DISARMED: no more). After a
     * one-shot notification the queue returns to its Notification attribute's standing mode.
     */
    void RequestNotify(Arm mode, bool persistent = false);

    /**
     * Add a completion; fails (returns false) on overflow, which affects no other CQ (RDMAP-094).
     * The notification (the Notify trace) is raised from its own event at the same simulated time,
     * never from inside the call that produced the completion: as with a real completion channel, an
     * application that posts work never sees a completion of it before PostSend has returned (with a
     * zero-cost RNIC a whole Write can complete inside PostSend).
     */
    bool Push(const WorkCompletion& c);
    /** Remove and return up to `max` completions, oldest first. */
    std::vector<WorkCompletion> Poll(std::size_t max = ~std::size_t(0));
    std::size_t GetDepth() const { return m_entries.size(); }
    uint64_t GetNotifications() const { return m_notifications; }
    bool HasOverflowed() const { return m_overflow; }

    typedef void (*NotifyTracedCallback)(const WorkCompletion& c);

  protected:
    void DoDispose() override;

  private:
    void RaiseNotify(WorkCompletion c);
    /** The Notification attribute: the standing mode (DISARMED: busy-polling), armed at once. */
    void SetNotification(Arm mode);
    Arm GetNotification() const { return m_standing; }

    std::deque<WorkCompletion> m_entries;
    uint32_t m_capacity;
    Arm m_arm{DISARMED};
    bool m_persistent{false};
    /** The Notification attribute's mode: what the queue returns to after a one-shot arm has fired. */
    Arm m_standing{DISARMED};
    bool m_overflow{false};
    uint64_t m_notifications{0};
    TracedCallback<const WorkCompletion&> m_notifyTrace;
};

} // namespace ns3

#endif // IWARP_COMPLETION_QUEUE_H
