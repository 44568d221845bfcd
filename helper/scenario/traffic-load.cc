#include "helper/scenario/traffic-load.h"

#include "ns3/simulator.h"

namespace ns3
{

TrafficLoad::TrafficLoad(FlowArrivals arrivals,
                         std::vector<Submit> submit,
                         std::vector<Ipv4Address> addresses,
                         Time start,
                         std::optional<uint64_t> count,
                         std::optional<Time> duration)
    : m_arrivals(std::move(arrivals)),
      m_submit(std::move(submit)),
      m_addresses(std::move(addresses)),
      m_start(start),
      m_count(count),
      m_pending(m_submit.size())
{
    if (duration)
    {
        m_end = start + *duration;
    }
}

TrafficLoad::~TrafficLoad()
{
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
        if (m_arrivals.Sends(h)) // with pairs, a host that sends in none starts no flow
        {
            ScheduleNext(h);
        }
    }
    if (m_live == 0)
    {
        End(); // a duration shorter than every host's first gap: no flow at all
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
TrafficLoad::Arrive(std::size_t host, uint32_t to, uint64_t octets)
{
    --m_live;
    m_submit[host](m_addresses[to], uint32_t(octets)); // FlowSizes refused sizes above 32 bits
    ++m_started;
    if (m_count && m_started >= *m_count)
    {
        End();
        return;
    }
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
