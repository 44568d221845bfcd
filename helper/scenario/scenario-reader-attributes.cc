/*
 * The attribute sections of the scenario reader (host, rnic, per-host): names normalised to
 * ns3::TypeName::Attribute and checked against ns-3's TypeId registry.
 */
#include "helper/scenario/scenario-reader.h"

#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>

namespace ns3
{
namespace scenario
{
namespace
{

/**
 * Whether ns-3's Time(std::string) accepts `s`.  It aborts the process on text it cannot parse
 * rather than failing, so Time values are screened here before the checker sees them: a number
 * ("+-0123456789.eE") followed by nothing or one of its unit suffixes.
 */
bool
Ns3TimeParses(const std::string& s)
{
    const auto n = s.find_first_not_of("+-0123456789.eE");
    const std::string number = s.substr(0, n);
    if (number.find_first_of("0123456789") == std::string::npos)
    {
        return false;
    }
    if (n == std::string::npos)
    {
        return true;
    }
    static const char* const kUnits[] = {"s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
    const std::string unit = s.substr(n);
    return std::any_of(std::begin(kUnits), std::end(kUnits), [&unit](const char* u) { return unit == u; });
}

} // namespace

void
ScenarioReader::CheckAttribute(const YAML::Node& key,
                               const YAML::Node& value,
                               const std::string& path,
                               const std::string& full,
                               const std::string& text) const
{
    // Checked against ns-3's TypeId registry now rather than when the runner applies it, so that
    // a typo costs a parse, not a run.  Every TypeId of libiwarp is registered by the time a
    // scenario is loaded (static initialisation of the library).
    const auto sep = full.rfind("::");
    const std::string typeName = full.substr(0, sep);
    const std::string attribute = full.substr(sep + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        Fail(key, path, "no ns-3 type named " + typeName);
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        std::vector<std::string> known;
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                known.push_back(t.GetAttribute(i).name);
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
        const std::string close = ClosestKey(attribute, known);
        Fail(key, path, typeName + " has no attribute '" + attribute + "'" +
                            (close.empty() ? std::string() : "; did you mean '" + close + "'?"));
    }
    const bool screenedOut = info.checker->GetValueTypeName() == "ns3::TimeValue" && !Ns3TimeParses(text);
    if (screenedOut || !info.checker->CreateValidValue(StringValue(text)))
    {
        Fail(value, path, "\"" + text + "\" is not a valid value for " + full + " (" +
                              info.checker->GetValueTypeName() + ")");
    }
}

AttributeMap
ScenarioReader::ReadAttributes(const YAML::Node& n, const std::string& path) const
{
    RequireMap(n, path);
    AttributeMap out;
    for (const auto& kv : n)
    {
        const std::string key = Str(kv.first, path);
        const std::string p = Join(path, key);
        // TypeName::Attribute, optionally ns3:: first; identifiers only, so that a typo such as
        // "RnicPipeline:TxPerMessage" fails here and not silently at run time.
        std::string full = key.rfind("ns3::", 0) == 0 ? key : "ns3::" + key;
        const std::string rest = full.substr(5);
        const auto sep = rest.find("::");
        auto ident = [](const std::string& s) {
            return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
                   std::all_of(s.begin(), s.end(), [](char ch) {
                       return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                   });
        };
        if (sep == std::string::npos || !ident(rest.substr(0, sep)) || !ident(rest.substr(sep + 2)))
        {
            Fail(kv.first, p,
                 "attribute names are TypeName::Attribute (e.g. RnicPipeline::TxPerMessage), got '" + key + "'");
        }
        const std::string value = Str(kv.second, p);
        CheckAttribute(kv.first, kv.second, p, full, value);
        RefuseTransportAttribute(kv.first, p, full);
        if (out.count(full))
        {
            Fail(kv.first, p, "attribute " + full + " is set twice");
        }
        out[full] = value;
    }
    return out;
}

} // namespace scenario
} // namespace ns3
