#include "helper/scenario/ideal-fct.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace
{

Time
EngineTime(const EngineCosts& e, uint32_t segment, bool last)
{
    Time t = e.perSegment + (last ? e.perMessage : Time(0));
    if (e.rateBps > 0)
    {
        t += Seconds(double(segment) * 8.0 / e.rateBps);
    }
    return t;
}

/** Each stage's service time of one segment of `segment` DDP octets, and the delay after it. */
void
StageTimes(const IdealFctModel& m, uint32_t segment, bool last, std::vector<Time>& service, std::vector<Time>& delay)
{
    service.clear();
    delay.clear();
    service.push_back(EngineTime(m.tx, segment, last));
    delay.push_back(Time(0));
    const uint32_t wire = segment + m.framing + (m.padding ? m.padding(segment) : 0) + kPppOctets;
    for (const EdgeFacts& hop : m.hops)
    {
        service.push_back(Seconds(double(wire) * 8.0 / hop.rateBps));
        delay.push_back(hop.delay);
    }
    service.push_back(EngineTime(m.rx, segment, last));
    delay.push_back(Time(0));
}

} // namespace

Time
IdealFct(const IdealFctModel& m, uint64_t payload)
{
    if (m.mulpdu <= m.ddpHeader || payload == 0)
    {
        throw std::invalid_argument("an ideal FCT needs a MULPDU above the DDP header and a payload");
    }
    const uint64_t perSegment = m.mulpdu - m.ddpHeader;
    const uint64_t segments = (payload + perSegment - 1) / perSegment;
    const uint32_t lastSegment = uint32_t(payload - (segments - 1) * perSegment + m.ddpHeader);

    std::vector<Time> service;
    std::vector<Time> delay;
    // The full segments ahead of the last: the i-th (from 0) leaves stage k at A_k + i x M_k.
    std::vector<Time> aheadLeaves; // the last full segment's departure from each stage
    if (segments > 1)
    {
        StageTimes(m, m.mulpdu, false, service, delay);
        Time a(0);
        Time slowest(0);
        for (std::size_t k = 0; k < service.size(); ++k)
        {
            a += (k > 0 ? delay[k - 1] : Time(0)) + service[k];
            slowest = std::max(slowest, service[k]);
            aheadLeaves.push_back(a + slowest * int64_t(segments - 2));
        }
    }
    StageTimes(m, lastSegment, true, service, delay);
    Time leaves(0); // the last segment, ready at the post (`before` comes on top of every stage)
    for (std::size_t k = 0; k < service.size(); ++k)
    {
        const Time arrives = leaves + (k > 0 ? delay[k - 1] : Time(0));
        const Time free = aheadLeaves.empty() ? Time(0) : aheadLeaves[k];
        leaves = std::max(arrives, free) + service[k];
    }
    return m.before + leaves + m.after;
}

Time
AnySegmentationBound(const IdealFctModel& m, uint64_t payload)
{
    if (m.mulpdu == 0 || payload == 0)
    {
        throw std::invalid_argument("a segmentation bound needs a segment size and a payload");
    }
    const double header = double(m.framing + kPppOctets);
    const double segments = double((payload + m.mulpdu - 1) / m.mulpdu);
    Time delays(0);
    double smallest = 0; // seconds the smallest segment takes over every hop
    for (const EdgeFacts& hop : m.hops)
    {
        delays += hop.delay;
        smallest += (header + 1) * 8.0 / hop.rateBps;
    }
    double slowest = 0;
    for (const EdgeFacts& hop : m.hops)
    {
        const double all = (double(payload) + segments * header) * 8.0 / hop.rateBps;
        slowest = std::max(slowest, all + smallest - (header + 1) * 8.0 / hop.rateBps);
    }
    return delays + Seconds(slowest);
}

} // namespace ns3
