/*
 * Plausibility limits: the range of each family of physical quantity a scenario gives, with the
 * reason for each end, declared once. The loader refuses a value outside its family's range with
 * the limit and the reason in the message, so that a typo of a few zeros ("100000000Gbps") fails
 * at load instead of becoming a result. doc/scenario-format.md ("Plausibility limits") tabulates
 * these ranges and the suite iwarp-scenario-plausibility checks each family at both ends.
 *
 * Host and RNIC parameters other than rates carry their ranges in their own TypeIds' checkers
 * (ns-3's convention, shown in doc/attributes.md); a DataRate attribute has no range in ns-3, so
 * its family is named here (RateFamilyOfAttribute).
 */
/**
 * \file
 * \ingroup iwarp-helper-common
 */
#ifndef IWARP_COMMON_PLAUSIBILITY_H
#define IWARP_COMMON_PLAUSIBILITY_H

#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/** A family of physical quantity, each with one range. */
enum class Quantity
{
    LinkRate,      ///< bit/s: links, GraphML edges, RNIC engines
    MemoryRate,    ///< bit/s: a host's memory bus
    Propagation,   ///< ns: a link's propagation delay, a reordering hold-back
    RunTime,       ///< ns: stop, start times, durations, measure windows, series intervals
    ProtocolTimer, ///< ns: TCP and SCTP retransmission and delayed-ACK timers, CoDel's target and interval
    QueuePackets,  ///< packets: a queue or threshold given in packets (in octets, ParseQueue's 32 bits bound it)
    MessageCount,  ///< messages: a workload's count
};

/** One family's range, in its base unit (bit/s, ns, packets, messages), and why each end. */
struct PlausibleRange
{
    Quantity quantity;
    const char* name; ///< "link rate", for messages
    double min;
    double max;
    const char* belowWhy; ///< why a value below min is refused
    const char* aboveWhy; ///< why a value above max is refused
};

/** Every family's range, in the order of Quantity (the doc table and the tests walk it). */
const std::vector<PlausibleRange>& PlausibleRanges();

const PlausibleRange& RangeOf(Quantity q);

/** A value of the family in its base unit as a person reads it: "1.6 Tb/s", "250 us", "3 packets". */
std::string FormatQuantity(Quantity q, double value);

/**
 * "" when `value` (base unit) lies in q's range; otherwise why not, e.g. "100000 Tb/s is above the
 * largest link rate this model supports (1.6 Tb/s: ...)".
 */
std::string Implausible(Quantity q, double value);

/**
 * For ParseQueue's text ("<n>p" or "<octets>B"): "" or why its packet count is implausible (a queue
 * in octets is bounded by ParseQueue's 32 bits).
 */
std::string ImplausibleQueue(const std::string& queueText);

/** The family of a DataRate attribute ("ns3::HostMemoryModel::Bandwidth" -> MemoryRate; others LinkRate). */
Quantity RateFamilyOfAttribute(const std::string& fullName);

} // namespace scenario
} // namespace ns3

#endif // IWARP_COMMON_PLAUSIBILITY_H
