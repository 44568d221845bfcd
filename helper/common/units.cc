#include "helper/common/units.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>
#include <vector>

namespace ns3
{
namespace scenario
{
namespace
{

struct Unit
{
    const char* name;
    uint64_t factor; ///< base units per one of this unit
};

/** The number and the unit of `text`, split; the number kept as digits so that no rounding hides. */
struct Split
{
    bool negative{false};
    std::string whole;    ///< digits before the point
    std::string fraction; ///< digits after the point (may be empty)
    std::string unit;
};

Split
SplitQuantity(const std::string& text, const char* what)
{
    Split s;
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n && std::isspace(static_cast<unsigned char>(text[i])))
    {
        ++i;
    }
    if (i < n && (text[i] == '-' || text[i] == '+'))
    {
        s.negative = text[i] == '-';
        ++i;
    }
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        s.whole += text[i++];
    }
    if (i < n && text[i] == '.')
    {
        ++i;
        while (i < n && std::isdigit(static_cast<unsigned char>(text[i])))
        {
            s.fraction += text[i++];
        }
    }
    if (s.whole.empty() && s.fraction.empty())
    {
        throw UnitError(std::string("not a ") + what + ": \"" + text + "\" does not start with a number");
    }
    while (i < n && std::isspace(static_cast<unsigned char>(text[i])))
    {
        ++i;
    }
    std::size_t end = n;
    while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1])))
    {
        --end;
    }
    s.unit = text.substr(i, end - i);
    return s;
}

std::string
UnitList(const std::vector<Unit>& units)
{
    std::string out;
    for (const auto& u : units)
    {
        if (*u.name == '\0')
        {
            continue;
        }
        out += out.empty() ? "" : ", ";
        out += u.name;
    }
    return out;
}

/**
 * whole.fraction x factor, exactly; errors when the result is not whole or does not fit 64 bits.
 * 128-bit arithmetic: 20 digits times a factor up to 10^9 cannot overflow it before the check.
 */
uint64_t
Scale(const Split& s, uint64_t factor, const std::string& text, const char* what, const char* base)
{
    using u128 = unsigned __int128;
    const u128 limit = u128(UINT64_MAX);
    if (s.whole.size() > 20 || s.fraction.size() > 18)
    {
        throw UnitError(std::string(what) + " \"" + text + "\" has too many digits");
    }
    u128 whole = 0;
    for (char c : s.whole)
    {
        whole = whole * 10 + u128(c - '0');
    }
    u128 frac = 0;
    u128 denom = 1;
    for (char c : s.fraction)
    {
        frac = frac * 10 + u128(c - '0');
        denom *= 10;
    }
    const u128 fracScaled = frac * factor;
    if (fracScaled % denom != 0)
    {
        throw UnitError(std::string(what) + " \"" + text + "\" is not a whole number of " + base);
    }
    const u128 value = whole * factor + fracScaled / denom;
    if (value > limit)
    {
        throw UnitError(std::string(what) + " \"" + text + "\" is too large");
    }
    return uint64_t(value);
}

uint64_t
ParseWith(const std::string& text,
          const std::vector<Unit>& units,
          const char* what,
          const char* base,
          bool unitRequired)
{
    const Split s = SplitQuantity(text, what);
    if (s.negative && (s.whole.find_first_not_of('0') != std::string::npos ||
                       s.fraction.find_first_not_of('0') != std::string::npos))
    {
        throw UnitError(std::string("negative ") + what + " \"" + text + "\"");
    }
    if (s.unit.empty())
    {
        const bool zero = s.whole.find_first_not_of('0') == std::string::npos &&
                          s.fraction.find_first_not_of('0') == std::string::npos;
        if (unitRequired && !zero)
        {
            throw UnitError(std::string(what) + " \"" + text + "\" has no unit (expected one of " +
                            UnitList(units) + ")");
        }
        return Scale(s, 1, text, what, base);
    }
    for (const auto& u : units)
    {
        if (s.unit == u.name)
        {
            return Scale(s, u.factor, text, what, base);
        }
    }
    throw UnitError("unknown unit '" + s.unit + "' in " + what + " \"" + text + "\" (expected one of " +
                    UnitList(units) + ")");
}

const std::vector<Unit> kSizeUnits = {{"B", 1},
                                      {"KB", 1000ull},
                                      {"KiB", 1ull << 10},
                                      {"MB", 1000ull * 1000},
                                      {"MiB", 1ull << 20},
                                      {"GB", 1000ull * 1000 * 1000},
                                      {"GiB", 1ull << 30}};

const std::vector<Unit> kTimeUnits = {{"ns", 1},
                                      {"us", 1000ull},
                                      {"ms", 1000ull * 1000},
                                      {"s", 1000ull * 1000 * 1000}};

const std::vector<Unit> kRateUnits = {{"bps", 1},
                                      {"Kbps", 1000ull},
                                      {"Mbps", 1000ull * 1000},
                                      {"Gbps", 1000ull * 1000 * 1000}};

} // namespace

uint64_t
ParseSize(const std::string& text)
{
    return ParseWith(text, kSizeUnits, "size", "octets", false);
}

Time
ParseTime(const std::string& text)
{
    const uint64_t ns = ParseWith(text, kTimeUnits, "time", "nanoseconds", true);
    // The clock's range at the run's resolution: 2^63 steps, about 106 days at picoseconds.
    if (ns > uint64_t(Time::Max().GetNanoSeconds()))
    {
        throw UnitError("time \"" + text + "\" is too large: the simulation clock holds at most " +
                        std::to_string(int64_t(Time::Max().GetDays())) + " days");
    }
    return NanoSeconds(int64_t(ns));
}

uint64_t
ParseRate(const std::string& text)
{
    const uint64_t bps = ParseWith(text, kRateUnits, "rate", "bits per second", true);
    if (bps == 0)
    {
        throw UnitError("rate \"" + text + "\" must be above zero");
    }
    return bps;
}

std::string
ParseQueue(const std::string& text)
{
    const bool packets = text.size() > 1 && text.back() == 'p' &&
                         std::all_of(text.begin(), text.end() - 1,
                                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
    std::string out;
    if (packets)
    {
        if (text.size() > 11 || std::stoull(text.substr(0, text.size() - 1)) > UINT32_MAX)
        {
            throw UnitError("queue \"" + text + "\" holds more than 2^32-1 packets");
        }
        out = std::to_string(std::stoull(text.substr(0, text.size() - 1))) + "p";
    }
    else
    {
        const uint64_t octets = ParseSize(text);
        if (octets > UINT32_MAX)
        {
            throw UnitError("queue \"" + text + "\" holds more than 2^32-1 octets");
        }
        out = std::to_string(octets) + "B";
    }
    if (out == "0p" || out == "0B")
    {
        throw UnitError("queue \"" + text + "\" must hold at least one packet");
    }
    return out;
}

namespace
{

/** A number as SplitQuantity reads it: a sign, digits, a point and digits (one side at least). */
constexpr const char* kNumberPattern = "[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)";

/** "(B|KB|...)": the units of a table as an alternation. */
std::string
UnitAlternation(const std::vector<Unit>& units)
{
    std::string out;
    for (const Unit& u : units)
    {
        out += (out.empty() ? "(" : "|") + std::string(u.name);
    }
    return out + ")";
}

} // namespace

std::string
SizePattern()
{
    return std::string("^\\s*") + kNumberPattern + "\\s*" + UnitAlternation(kSizeUnits) + "?\\s*$";
}

std::string
TimePattern()
{
    // A unit, or none for zero.
    return std::string("^\\s*(") + kNumberPattern + "\\s*" + UnitAlternation(kTimeUnits) +
           "|[+-]?(0+(\\.0*)?|\\.0+))\\s*$";
}

std::string
RatePattern()
{
    return std::string("^\\s*") + kNumberPattern + "\\s*" + UnitAlternation(kRateUnits) + "\\s*$";
}

std::string
QueuePattern()
{
    // ParseQueue: "<digits>p", else a size.
    return "^[0-9]+p$|" + SizePattern();
}

std::string
FormatSize(uint64_t octets)
{
    static const std::pair<uint64_t, const char*> kBinary[] = {{1ull << 30, "GiB"},
                                                               {1ull << 20, "MiB"},
                                                               {1ull << 10, "KiB"}};
    for (const auto& [factor, name] : kBinary)
    {
        if (octets >= factor && octets % factor == 0)
        {
            return std::to_string(octets / factor) + name;
        }
    }
    return std::to_string(octets) + "B";
}

std::string
FormatRate(uint64_t bps)
{
    for (auto u = kRateUnits.rbegin(); u != kRateUnits.rend(); ++u)
    {
        if (bps != 0 && bps % u->factor == 0)
        {
            return std::to_string(bps / u->factor) + u->name;
        }
    }
    return std::to_string(bps) + "bps";
}

std::string
FormatTime(Time t)
{
    const int64_t ps = t.GetPicoSeconds();
    if (ps % 1000 != 0) // a fraction of a nanosecond (common/time-resolution.h): "300.4ns"
    {
        std::string fraction = std::to_string(std::abs(ps % 1000) + 1000).substr(1); // three digits
        fraction.erase(fraction.find_last_not_of('0') + 1);
        return (ps < 0 ? "-" : "") + std::to_string(std::abs(ps / 1000)) + "." + fraction + "ns";
    }
    const int64_t ns = ps / 1000;
    static const std::pair<int64_t, const char*> kUnits[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}};
    for (const auto& [scale, unit] : kUnits)
    {
        if (ns != 0 && ns % scale == 0)
        {
            return std::to_string(ns / scale) + unit;
        }
    }
    return std::to_string(ns) + "ns";
}

} // namespace scenario
} // namespace ns3
