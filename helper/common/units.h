/*
 * Parsing of the quantities a scenario file writes as text: sizes ("64KiB"), times ("10us") and
 * rates ("10Gbps").  Kept apart from the YAML reader so that command-line tools and tests can use
 * them alone.  Every function throws UnitError, whose message quotes the text and lists the units
 * it accepts; the scenario loader adds the file, line and key path around it.
 *
 * Numbers may have a fraction ("1.5MiB", "2.5us") as long as the result is a whole number of the
 * base unit (octets, nanoseconds, bits per second): "0.5B" and "1.5ns" are errors, not roundings.
 */
/**
 * \file
 * \ingroup iwarp-helper-common
 */
#ifndef IWARP_COMMON_UNITS_H
#define IWARP_COMMON_UNITS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace scenario
{

class UnitError : public std::invalid_argument
{
  public:
    using std::invalid_argument::invalid_argument;
};

/**
 * Octets.  Units: B, KB (10^3), KiB (2^10), MB, MiB, GB, GiB; a bare number is octets.
 * Negative values and results above 2^64-1 are errors.
 */
uint64_t ParseSize(const std::string& text);

/**
 * A time in nanoseconds.  Units: ns, us, ms, s.  A unit is required (a bare "10" could be any of
 * them), except for "0".  Negative times are errors.
 */
Time ParseTime(const std::string& text);

/**
 * Bits per second.  Units: bps, Kbps, Mbps, Gbps (decimal multiples, as ns-3's DataRate).  Zero
 * is an error: every rate a scenario or a GraphML file gives is a link's or an engine's, and ns-3
 * divides by it.
 */
uint64_t ParseRate(const std::string& text);

/**
 * A device queue, as ns-3's QueueSize text: "<n>p" (packets) stays "<n>p"; anything else is a
 * size (ParseSize) and becomes "<octets>B".  An empty queue ("0p", "0B") is an error: it would
 * drop every packet.
 */
std::string ParseQueue(const std::string& text);

/**
 * Regular expressions (ECMAScript, as JSON Schema's `pattern`) of the text each parser above takes: the
 * number and the unit names of its table. The parser decides exactly (a fraction that is not whole, a value
 * too large); the pattern is what an editor can check as one types (doc/scenario.schema.json).
 */
std::string SizePattern();
std::string TimePattern();
std::string RatePattern();
std::string QueuePattern();

/** "65536" -> "64KiB" style, for messages and documentation (the largest exact binary unit). */
std::string FormatSize(uint64_t octets);

/** 10000000000 bit/s -> "10Gbps": the largest unit that keeps it whole, as a file writes it. */
std::string FormatRate(uint64_t bps);
/**
 * 20 ms -> "20ms": the largest unit that keeps it whole (ns, us, ms, s), as a file writes it. A time with a
 * fraction of a nanosecond (common/time-resolution.h) is written in nanoseconds with its fraction, "300.4ns",
 * for reading: a scenario file takes whole nanoseconds (ParseTime).
 */
std::string FormatTime(Time t);

} // namespace scenario
} // namespace ns3

#endif // IWARP_COMMON_UNITS_H
