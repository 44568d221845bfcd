/*
 * TrafficLoad: starts the flows of a `traffic` workload (doc/traffic.md). Each host of the load has one
 * pending event, its next arrival (FlowArrivals); when it fires, the host's application (RdmaTraffic or
 * SocketTraffic, through its Submit) is handed the flow and the host's following arrival is scheduled. Nothing is kept per flow here: a run of any length holds one
 * event per host. The load stops starting flows at `count` flows in all (the first `count` in time) or at
 * `duration` after its start, whichever the workload gives.
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
     * `submit[i]` reaches the application on the host at `addresses[i]`, FlowArrivals' host i; the load starts at `start` and
     * ends after `count` flows or at start + `duration` (one of them set).
     */
    TrafficLoad(FlowArrivals arrivals,
                std::vector<Submit> submit,
                std::vector<Ipv4Address> addresses,
                Time start,
                std::optional<uint64_t> count,
                std::optional<Time> duration);
    ~TrafficLoad();

    /** Schedule every host's first arrival. */
    void Start();
    /** Called once, when the load has started its last flow. */
    void SetEndedCallback(std::function<void()> cb) { m_ended = std::move(cb); }

  private:
    void Arrive(std::size_t host, uint32_t to, uint64_t octets);
    void ScheduleNext(std::size_t host);
    /** No more flows: cancel every host's pending arrival and say so once. */
    void End();

    FlowArrivals m_arrivals;
    std::vector<Submit> m_submit;
    std::vector<Ipv4Address> m_addresses;
    Time m_start;
    std::optional<uint64_t> m_count;
    std::optional<Time> m_end;
    std::vector<EventId> m_pending;
    uint64_t m_started{0};
    std::size_t m_live{0}; ///< hosts with an arrival pending
    bool m_over{false};
    std::function<void()> m_ended;
};

} // namespace ns3

#endif // IWARP_TRAFFIC_LOAD_H
