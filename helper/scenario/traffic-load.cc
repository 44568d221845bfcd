#include "helper/scenario/traffic-load.h"

#include "ns3/simulator.h"

namespace ns3
{

TrafficLoad::TrafficLoad(FlowArrivals arrivals,
                         std::vector<Submit> submit,
                         std::vector<Ipv4Address> addresses,
                         Time start,
                         std::optional<uint64_t> count,
                         std::optional<Time> duration,
                         std::optional<uint32_t> closedLoop)
    : m_arrivals(std::move(arrivals)),
      m_submit(std::move(submit)),
      m_addresses(std::move(addresses)),
      m_start(start),
      m_count(count),
      m_closedLoop(closedLoop),
      m_pending(m_submit.size()),
      m_done(m_submit.size(), false),
      m_slots(m_submit.size(), closedLoop.value_or(0))
{
    if (duration)
    {
        m_end = start + *duration;
    }
}

TrafficLoad::~TrafficLoad()
{
    *m_alive = false; // the closed loop's events still scheduled find it gone
    for (EventId& e : m_pending)
    {
        e.Cancel();
    }
}

void
TrafficLoad::Start()
{
    for (std::size_t h = 0; h < m_submit.size(); ++h)
    {
        if (!m_arrivals.Sends(h)) // with pairs, a host that sends in none starts no flow
        {
            continue;
        }
        if (!m_closedLoop)
        {
            ScheduleNext(h);
            continue;
        }
        ++m_live;
        // The first flows go from events scheduled at the start itself, behind the applications' own start
        // events of that instant (scheduled before it): an application hands a flow before it runs a failure.
        const Time delay = m_start > Simulator::Now() ? m_start - Simulator::Now() : Time(0);
        Later(delay, [this, h]() {
            for (uint32_t k = 0; k < *m_closedLoop; ++k)
            {
                Later(Time(0), [this, h]() { StartNextNow(h); });
            }
        });
    }
    if (m_live == 0)
    {
        End(); // a duration shorter than every host's first gap: no flow at all
    }
    if (m_closedLoop && m_end && !m_over)
    {
        // The loop's end does not wait for a host's next delivery: a host whose flows are stuck ends too.
        Later(*m_end - Simulator::Now(), [this]() { End(); });
    }
}

void
TrafficLoad::ScheduleNext(std::size_t host)
{
    const FlowArrival a = m_arrivals.Next(host);
    // The first arrival counts from the load's start (scheduled before the run), the others from now.
    const Time at = (Simulator::Now() < m_start ? m_start : Simulator::Now()) + a.gap;
    if (m_end && at >= *m_end)
    {
        return; // this host starts no more flows; the others may still
    }
    ++m_live;
    m_pending[host] = Simulator::Schedule(at - Simulator::Now(), &TrafficLoad::Arrive, this, host, a.to, a.octets);
}

void
TrafficLoad::FlowEnded(std::size_t host, bool delivered)
{
    if (!m_closedLoop || m_over || host >= m_submit.size() || m_done[host])
    {
        return;
    }
    if (delivered)
    {
        // An event of its own: the application that reported the end is not re-entered.
        Later(Time(0), [this, host]() { StartNextNow(host); });
        return;
    }
    if (--m_slots[host] == 0)
    {
        m_done[host] = true; // every flow of it failed: it has nothing left in flight
        if (--m_live == 0)
        {
            End();
        }
    }
}

void
TrafficLoad::Later(Time delay, std::function<void()> f)
{
    Simulator::Schedule(delay, [alive = m_alive, f = std::move(f)]() {
        if (*alive)
        {
            f();
        }
    });
}

void
TrafficLoad::StartNextNow(std::size_t host)
{
    if (m_over || m_done[host])
    {
        return;
    }
    if (m_end && Simulator::Now() >= *m_end)
    {
        m_done[host] = true;
        if (--m_live == 0)
        {
            End();
        }
        return;
    }
    const FlowArrival a = m_arrivals.Next(host); // its gap is not used: the loop says when
    Arrive(host, a.to, a.octets);
}

void
TrafficLoad::Arrive(std::size_t host, uint32_t to, uint64_t octets)
{
    m_submit[host](m_addresses[to], uint32_t(octets)); // FlowSizes refused sizes above 32 bits
    ++m_started;
    if (m_count && m_started >= *m_count)
    {
        End();
        return;
    }
    if (m_closedLoop)
    {
        return; // the host's next flow starts when one of its flows ends
    }
    --m_live;
    ScheduleNext(host);
    if (m_live == 0)
    {
        End();
    }
}

void
TrafficLoad::End()
{
    if (m_over)
    {
        return;
    }
    m_over = true;
    for (EventId& e : m_pending)
    {
        e.Cancel();
    }
    if (m_ended)
    {
        m_ended();
    }
}

} // namespace ns3
