/*
 * The plausibility ranges (plausibility.h) and their messages.
 */
#include "helper/common/plausibility.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace scenario
{
namespace
{

constexpr double kNsPerSecond = 1e9;

/** The largest queue in octets: ns-3's QueueSize counts in 32 bits (ParseQueue refuses more). */
constexpr double kLargestQueueOctets = 4294967295.0;
/** Ethernet's smallest frame, which bounds how many packets that queue can hold (QueuePackets). */
constexpr double kSmallestFrameOctets = 64;

const std::vector<PlausibleRange> kRanges = {
    {Quantity::LinkRate, "link rate", 1e6, 1.6e12,
     "no network RDMA runs over is slower; at 1 Mb/s one 1500-octet packet already takes 12 ms to send",
     "the fastest Ethernet rate, IEEE 802.3dj"},
    {Quantity::MemoryRate, "memory bandwidth", 1e9, 1e14,
     "a sixth of one channel of 1999's PC100 SDRAM (6.4 Gb/s); no host the model describes is slower",
     "more than eight stacks of HBM3E (about 9.8 TB/s, 78 Tb/s), the widest memory any processor has"},
    {Quantity::Propagation, "propagation delay", 0, 1 * kNsPerSecond, "a delay is not negative",
     "longer than any path on or around Earth: a geostationary satellite hop is about 0.27 s one way"},
    {Quantity::RunTime, "simulated time", 0, 86400 * kNsPerSecond, "a time is not negative",
     "more than a day of packet-level simulation: ns-3's own TCP between two hosts at 10 Gb/s runs about 55 "
     "times slower than real time on a current core, so a day would take about two months of CPU"},
    {Quantity::ProtocolTimer, "protocol timer", 1e3, 600 * kNsPerSecond,
     "shorter than a 1500-octet packet takes on a 10 Gb/s link (1.2 us): it would fire before any answer could "
     "arrive",
     "ten times RFC 9260's RTO.Max (60 s) and five times Linux's TCP_RTO_MAX (120 s)"},
    {Quantity::QueuePackets, "queue in packets", 1, std::floor(kLargestQueueOctets / kSmallestFrameOctets),
     "an empty queue drops every packet",
     "more 64-octet frames than fit in the largest queue in octets ns-3 holds (2^32-1 octets), itself deeper "
     "than any switch buffer but Jericho2's 8 GB of HBM; write `unlimited` for a queue that never drops"},
    {Quantity::MessageCount, "message count", 1, 1e9, "a workload sends at least one message",
     "a billion messages is over 15 minutes of simulated time even at one a microsecond; give a duration "
     "instead"},
};

/** `value` / scale with the largest unit whose scale it reaches (the first unit below that). */
std::string
Scaled(double value, const std::vector<std::pair<double, const char*>>& units)
{
    std::size_t i = 0;
    while (i + 1 < units.size() && std::fabs(value) >= units[i + 1].first)
    {
        ++i;
    }
    std::ostringstream out;
    out << value / units[i].first << " " << units[i].second;
    return out.str();
}

} // namespace

const std::vector<PlausibleRange>&
PlausibleRanges()
{
    return kRanges;
}

const PlausibleRange&
RangeOf(Quantity q)
{
    for (const PlausibleRange& r : kRanges)
    {
        if (r.quantity == q)
        {
            return r;
        }
    }
    throw std::logic_error("plausibility: a Quantity without a range");
}

std::string
FormatQuantity(Quantity q, double value)
{
    switch (q)
    {
    case Quantity::LinkRate:
    case Quantity::MemoryRate:
        return Scaled(value, {{1, "bit/s"}, {1e3, "kb/s"}, {1e6, "Mb/s"}, {1e9, "Gb/s"}, {1e12, "Tb/s"}});
    case Quantity::Propagation:
    case Quantity::RunTime:
    case Quantity::ProtocolTimer:
        return Scaled(value, {{1, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}});
    case Quantity::QueuePackets:
        return Scaled(value, {{1, "packets"}});
    case Quantity::MessageCount:
        return Scaled(value, {{1, "messages"}});
    }
    return std::to_string(value);
}

std::string
Implausible(Quantity q, double value)
{
    const PlausibleRange& r = RangeOf(q);
    if (value < r.min)
    {
        return FormatQuantity(q, value) + " is below the smallest " + r.name + " this model supports (" +
               FormatQuantity(q, r.min) + ": " + r.belowWhy + ")";
    }
    if (!(value <= r.max)) // NaN too
    {
        return FormatQuantity(q, value) + " is above the largest " + r.name + " this model supports (" +
               FormatQuantity(q, r.max) + ": " + r.aboveWhy + ")";
    }
    return "";
}

std::string
ImplausibleQueue(const std::string& queueText)
{
    if (queueText.empty() || queueText.back() != 'p')
    {
        return "";
    }
    return Implausible(Quantity::QueuePackets, std::stod(queueText.substr(0, queueText.size() - 1)));
}

Quantity
RateFamilyOfAttribute(const std::string& fullName)
{
    return fullName == "ns3::HostMemoryModel::Bandwidth" ? Quantity::MemoryRate : Quantity::LinkRate;
}

} // namespace scenario
} // namespace ns3
