/*
 * The scenario reader's value readers: the shape of a node (map, list, value), its keys against the schema,
 * and scalars (strings, booleans, bounded integers, probabilities, times, sizes and rates, each refused
 * with its place in the file and, for physical quantities, the plausibility limit it breaks).
 */
#include "helper/scenario/scenario-reader.h"

#include "helper/common/units.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

namespace ns3
{
namespace scenario
{
namespace
{

const char*
ShapeName(const YAML::Node& n)
{
    switch (n.Type())
    {
    case YAML::NodeType::Map:
        return "a mapping";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Scalar:
        return "a value";
    default:
        return "nothing";
    }
}

} // namespace

// ------------------------------------------------------------------------------------------------
// Shapes and scalars
// ------------------------------------------------------------------------------------------------

void
ScenarioReader::RequireMap(const YAML::Node& n, const std::string& path) const
{
    if (!n.IsMap())
    {
        Fail(n, path, std::string("expected a mapping (key: value lines), got ") + ShapeName(n));
    }
}

void
ScenarioReader::RequireList(const YAML::Node& n, const std::string& path, std::size_t max) const
{
    if (!n.IsSequence())
    {
        Fail(n, path, std::string("expected a list, got ") + ShapeName(n));
    }
    if (n.size() > max)
    {
        Fail(n, path, "a list of " + std::to_string(n.size()) + " entries; at most " + std::to_string(max) +
                          " are allowed (doc/scenario-format.md, Limits)");
    }
}

void
ScenarioReader::CheckKeys(const YAML::Node& map, const std::string& path, const SchemaNode& schema) const
{
    RequireMap(map, path);
    const auto known = KeysOf(schema);
    std::map<std::string, int> seen; // key -> line; YAML parsers keep one of two equal keys silently
    for (const auto& kv : map)
    {
        if (!kv.first.IsScalar())
        {
            Fail(kv.first, path, "keys must be plain names");
        }
        const std::string key = kv.first.Scalar();
        if (seen.count(key))
        {
            Fail(kv.first, Join(path, key),
                 "key '" + key + "' appears twice (first on line " + std::to_string(seen[key]) + ")");
        }
        seen[key] = kv.first.Mark().line + 1;
        if (!schema.fields.count(key))
        {
            Fail(kv.first, Join(path, key), UnknownKeyMessage(key, known));
        }
    }
}

YAML::Node
ScenarioReader::Required(const YAML::Node& map, const std::string& path, const std::string& key) const
{
    YAML::Node v = map[key];
    if (!v.IsDefined() || v.IsNull())
    {
        Fail(map, Join(path, key), "missing required key '" + key + "'");
    }
    return v;
}

std::string
ScenarioReader::Str(const YAML::Node& n, const std::string& path) const
{
    if (!n.IsScalar())
    {
        Fail(n, path, std::string("expected a value, got ") + ShapeName(n));
    }
    return n.Scalar();
}

bool
ScenarioReader::Bool(const YAML::Node& n, const std::string& path) const
{
    std::string s = Str(n, path);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (s == "true" || s == "yes" || s == "on")
    {
        return true;
    }
    if (s == "false" || s == "no" || s == "off")
    {
        return false;
    }
    Fail(n, path, "expected true or false, got \"" + s + "\"");
}

uint64_t
ScenarioReader::UInt(const YAML::Node& n, const std::string& path, uint64_t max) const
{
    const std::string s = Str(n, path);
    if (!s.empty() && s[0] == '-')
    {
        Fail(n, path, "expected a number from 0 to " + std::to_string(max) + ", got negative \"" + s + "\"");
    }
    // Decimal, or 0x hex: STags and header fields read better in hex.
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const std::string digits = hex ? s.substr(2) : s;
    const bool ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
        return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                   : std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (!ok || digits.size() > (hex ? 16u : 20u))
    {
        Fail(n, path, "expected a whole number, got \"" + s + "\"");
    }
    uint64_t v = 0;
    try
    {
        v = std::stoull(digits, nullptr, hex ? 16 : 10);
    }
    catch (const std::out_of_range&)
    {
        Fail(n, path, "number \"" + s + "\" is too large");
    }
    if (v > max)
    {
        Fail(n, path, "value " + s + " is above the largest allowed, " + std::to_string(max));
    }
    return v;
}

namespace
{
/** The scalar `s` as a number, if all of it is one. */
std::optional<double>
ParseNumber(const std::string& s)
{
    double v = 0;
    std::size_t used = 0;
    try
    {
        v = std::stod(s, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used != s.size() || s.empty())
    {
        return std::nullopt;
    }
    return v;
}
} // namespace

double
ScenarioReader::Number(const YAML::Node& n, const std::string& path, double min, double max) const
{
    const std::string s = Str(n, path);
    const std::optional<double> v = ParseNumber(s);
    if (!v)
    {
        Fail(n, path, "expected a number, got \"" + s + "\"");
    }
    if (!(*v >= min && *v <= max))
    {
        std::ostringstream range;
        range << "[" << min << ", " << max << "]";
        Fail(n, path, "value " + s + " is outside " + range.str());
    }
    return *v;
}

double
ScenarioReader::ProbabilityNumber(const YAML::Node& n, const std::string& path) const
{
    const std::string s = Str(n, path);
    const std::optional<double> v = ParseNumber(s);
    if (!v)
    {
        Fail(n, path, "expected a probability (a number in [0, 1]), got \"" + s + "\"");
    }
    return *v;
}

void
ScenarioReader::FailNotProbability(const YAML::Node& n, const std::string& path) const
{
    Fail(n, path, "probability " + Str(n, path) + " is outside [0, 1]");
}

double
ScenarioReader::Probability(const YAML::Node& n, const std::string& path) const
{
    const double v = ProbabilityNumber(n, path);
    if (!(v >= 0.0 && v <= 1.0))
    {
        FailNotProbability(n, path);
    }
    return v;
}

void
ScenarioReader::RequirePlausible(const YAML::Node& n, const std::string& path, Quantity q, double value) const
{
    const std::string why = Implausible(q, value);
    if (!why.empty())
    {
        Fail(n, path, why);
    }
}

Time
ScenarioReader::TimeOf(const YAML::Node& n, const std::string& path, Quantity q) const
{
    const Time t = Parsed(n, path, ParseTime);
    RequirePlausible(n, path, q, double(t.GetNanoSeconds()));
    return t;
}

Time
ScenarioReader::PositiveTimeOf(const YAML::Node& n, const std::string& path, Quantity q) const
{
    const Time t = Parsed(n, path, ParseTime);
    if (!t.IsStrictlyPositive())
    {
        Fail(n, path, path.substr(path.rfind('.') + 1) + " must be above zero");
    }
    RequirePlausible(n, path, q, double(t.GetNanoSeconds()));
    return t;
}

uint64_t
ScenarioReader::SizeOf(const YAML::Node& n, const std::string& path) const
{
    return Parsed(n, path, ParseSize);
}

uint64_t
ScenarioReader::RateOf(const YAML::Node& n, const std::string& path, Quantity q) const
{
    const uint64_t bps = Parsed(n, path, ParseRate);
    RequirePlausible(n, path, q, double(bps));
    return bps;
}

} // namespace scenario
} // namespace ns3
