/*
 * TrafficLoad: starts the flows of a `traffic` or `sockets-traffic` workload (doc/traffic.md), host by host, as
 * FlowArrivals draws them (destination, size; with Poisson arrivals also the gap), and hands each to its
 * host's application (RdmaTraffic or SocketTraffic, through its Submit).
 *
 * Poisson: each sending host has one pending event, its next arrival; when it fires the flow is handed over
 * and the host's following arrival is scheduled. Closed loop: each sending host starts `outstanding` flows at
 * the start and then one more each time one of its flows is delivered at its receiver (FlowEnded), at once;
 * a flow that fails retires its slot. The gaps are drawn and not used, so a host's sizes and destinations are
 * those of the Poisson load of the same seed. Nothing is kept per flow here: a run of any length holds one
 * event per host (a closed loop: up to `outstanding`), and the load ends at `start + duration` even if some
 * host's flows are stuck.
 * The load stops starting flows at `count` flows in all (the first `count` in time) or at `duration` after its
 * start, whichever the workload gives.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_TRAFFIC_LOAD_H
#define IWARP_TRAFFIC_LOAD_H

#include "traffic/flow-arrivals.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

class TrafficLoad
{
  public:
    /** Hands one flow (its destination's address, its octets) to a host's application. */
    using Submit = std::function<void(Ipv4Address to, uint32_t octets)>;

    /**
     * `submit[i]` reaches the application on the host at `addresses[i]`, FlowArrivals' host i; the load starts
     * at `start` and ends after `count` flows or at start + `duration` (one of them set). `closedLoop`: the
     * flows each host keeps in flight (unset: Poisson arrivals).
     */
    TrafficLoad(FlowArrivals arrivals,
                std::vector<Submit> submit,
                std::vector<Ipv4Address> addresses,
                Time start,
                std::optional<uint64_t> count,
                std::optional<Time> duration,
                std::optional<uint32_t> closedLoop = std::nullopt);
    ~TrafficLoad();

    /** Schedule every sending host's first arrival (closed loop: its first `outstanding` flows). */
    void Start();
    /**
     * Closed loop: a flow of host `host` ended. Delivered: the host's next flow starts now. Failed: its slot is
     * retired (a flow failing at once would otherwise start the next at the same instant, over and over); a
     * host whose slots are all retired starts no more. Else nothing.
     */
    void FlowEnded(std::size_t host, bool delivered);
    /** Called once, when the load has started its last flow. */
    void SetEndedCallback(std::function<void()> cb) { m_ended = std::move(cb); }

  private:
    void Arrive(std::size_t host, uint32_t to, uint64_t octets);
    /** Poisson: draw host `host`'s next flow and schedule its arrival, unless it falls past the end. */
    void ScheduleNext(std::size_t host);
    /** Run `f` after `delay`, unless this load is gone by then (the closed loop's events are not kept). */
    void Later(Time delay, std::function<void()> f);
    /** Closed loop: hand host `host` its next flow now, unless the load is over for it. */
    void StartNextNow(std::size_t host);
    /** No more flows: cancel every host's pending arrival and say so once. */
    void End();

    FlowArrivals m_arrivals;
    std::vector<Submit> m_submit;
    std::vector<Ipv4Address> m_addresses;
    Time m_start;
    std::optional<uint64_t> m_count;
    std::optional<Time> m_end;
    std::optional<uint32_t> m_closedLoop;
    std::vector<EventId> m_pending;
    uint64_t m_started{0};
    std::size_t m_live{0}; ///< hosts that may still start a flow (Poisson: with an arrival pending)
    std::vector<bool> m_done; ///< closed loop: hosts past the end, or with every slot retired
    std::vector<uint32_t> m_slots; ///< closed loop: each host's flows in flight not retired
    bool m_over{false};
    std::shared_ptr<bool> m_alive{std::make_shared<bool>(true)}; ///< false once destroyed (Later)
    std::function<void()> m_ended;
};

} // namespace ns3

#endif // IWARP_TRAFFIC_LOAD_H
