/*
 * The attribute sections of the scenario reader (host, rnic, per-host): names normalised to
 * ns3::TypeName::Attribute and checked against ns-3's TypeId registry.
 */
#include "helper/scenario/scenario-reader.h"

#include "host/host-profile.h"
#include "rnic/rnic-profile.h"

#include "ns3/data-rate.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace scenario
{
namespace
{
/** The key of a `host` or `rnic` section that names a profile instead of an attribute. */
const char* const kProfileKey = "profile";

/** `section` (`host`, `rnic`), or a host's `per-host.<name>.<section>`. */
bool
IsSection(const std::string& path, const std::string& section)
{
    const std::string tail = "." + section;
    return path == section || (path.rfind("per-host.", 0) == 0 && path.size() > tail.size() &&
                               path.compare(path.size() - tail.size(), tail.size(), tail) == 0);
}

/** The name a section's `profile` gives, `fallback` without one; whether it was named. */
std::pair<std::string, bool>
ProfileName(const ScenarioReader& reader, const YAML::Node& n, const std::string& path, const std::string& fallback)
{
    const bool named = n && n[kProfileKey];
    return {named ? reader.Str(n[kProfileKey], Join(path, kProfileKey)) : fallback, named};
}
} // namespace

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

/**
 * Whether reading a T from `text` the way ns-3's numeric attribute values do (one >> of a stream)
 * uses it all up: they abort the process when anything is left ("5x", "0x10", "1e3" for an
 * integer), and fail without aborting only when nothing is.
 */
template <typename T>
bool
ReadsWhole(const std::string& text)
{
    std::istringstream in(text);
    T value;
    in >> value;
    return in.eof();
}

/**
 * The TypeId-valued attributes a scenario may set, each with the class its value must derive
 * from: a type of another family (TcpL4Protocol::SocketType: ns3::Rnic) passes ns-3's checker and
 * crashes when the socket is made.  Listed rather than derived from the default's parents, which
 * ns-3 does not always declare right (3.37's TcpCubic has ns3::TcpSocketBase as its parent).
 */
const std::map<std::string, std::string> kTypeFamilies = {
    {"ns3::TcpL4Protocol::SocketType", "ns3::TcpCongestionOps"},
    {"ns3::TcpL4Protocol::RecoveryType", "ns3::TcpRecoveryOps"},
    {"ns3::TcpL4Protocol::RttEstimatorType", "ns3::RttEstimator"},
    {"ns3::SctpSocket::CongestionOps", "ns3::SctpCongestionOps"},
};

/**
 * Why ns-3 cannot be given `text` for the attribute `info` without risk, or "" when its checker
 * may see it.  ns-3's value parsers abort the process (NS_ABORT) instead of failing on much bad
 * text: any value of the types declared with ATTRIBUTE_HELPER (DataRate, QueueSize, TypeId, ...)
 * and the numbers when text is left over after the value ("1Gbps x", "5x", "0.5 x"), a Time it cannot
 * read, a TypeId that does not exist (and a wrong one crashes later, when the object is made).
 * So only the value types a scenario has use for are taken, each screened here first.
 */
std::string
ScreenValue(const std::string& full, const TypeId::AttributeInformation& info, const std::string& text)
{
    static const std::set<std::string> kTaken = {"BooleanValue", "DataRateValue", "ns3::DoubleValue",
                                                 "ns3::EnumValue", "ns3::IntegerValue", "ns3::UintegerValue",
                                                 "ns3::TimeValue", "QueueSizeValue", "StringValue",
                                                 "TypeIdValue"};
    const std::string type = info.checker->GetValueTypeName();
    if (!kTaken.count(type))
    {
        return "a scenario does not set attributes of this type";
    }
    if (type == "StringValue")
    {
        return "";
    }
    if (text.empty() || std::any_of(text.begin(), text.end(), [](char c) {
            return std::isspace(static_cast<unsigned char>(c)) != 0;
        }))
    {
        return "one word, without spaces";
    }
    if ((type == "ns3::UintegerValue" && !ReadsWhole<uint64_t>(text)) ||
        (type == "ns3::IntegerValue" && !ReadsWhole<int64_t>(text)))
    {
        return "a whole number in decimal, and nothing after it";
    }
    if (type == "ns3::DoubleValue" && !ReadsWhole<double>(text))
    {
        return "a number, and nothing after it";
    }
    if (type == "ns3::TimeValue" && !Ns3TimeParses(text))
    {
        return "a number and one of the units s, ms, us, ns, ps, fs, min, h, d, y";
    }
    if (type == "TypeIdValue")
    {
        TypeId named;
        if (!TypeId::LookupByNameFailSafe(text, &named))
        {
            return "no ns-3 type named " + text;
        }
        const auto family = kTypeFamilies.find(full);
        if (family == kTypeFamilies.end())
        {
            return "a scenario does not set this type-valued attribute";
        }
        const Ptr<const TypeIdValue> initial = DynamicCast<const TypeIdValue>(info.initialValue);
        const TypeId base = TypeId::LookupByName(family->second);
        if (!(initial && initial->Get() == named) && !named.IsChildOf(base))
        {
            return "the type must be a " + base.GetName();
        }
        if (!named.HasConstructor())
        {
            return named.GetName() + " cannot be created (no constructor)";
        }
    }
    return "";
}

/**
 * ": it is at least MIN and at most MAX" from a numeric or Time checker's range, as ns-3 states it
 * ("uint32_t 1:1024", "Time +0ps:+1e+09ps"), or "" for a checker that states none.
 */
std::string
CheckerRange(const TypeId::AttributeInformation& info)
{
    const std::string type = info.checker->GetValueTypeName();
    if (type != "ns3::UintegerValue" && type != "ns3::IntegerValue" && type != "ns3::DoubleValue" &&
        type != "ns3::TimeValue")
    {
        return "";
    }
    const std::string range = info.checker->GetUnderlyingTypeInformation();
    const auto space = range.rfind(' ');
    const auto colon = range.find(':', space == std::string::npos ? 0 : space);
    if (space == std::string::npos || colon == std::string::npos)
    {
        return "";
    }
    std::string low = range.substr(space + 1, colon - space - 1);
    std::string high = range.substr(colon + 1);
    if (type == "ns3::TimeValue") // "+1e+09ps" -> "1 ms", whatever the resolution
    {
        auto readable = [](const std::string& t) {
            try
            {
                return FormatQuantity(Quantity::RunTime, Time(t).ToDouble(Time::NS));
            }
            catch (const std::exception&)
            {
                return t;
            }
        };
        low = readable(low);
        high = readable(high);
    }
    return ": it is at least " + low + " and at most " + high + " (" + info.help + ")";
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
    // Named through the type that declares it, the one spelling the runner's own settings and
    // checks (transport-owned attributes, the segment size against the paths) compare names with:
    // through a child type it would slip past them and be overridden without a word.
    for (TypeId t = tid;; t = t.GetParent())
    {
        bool declares = false;
        for (std::size_t i = 0; i < t.GetAttributeN() && !declares; ++i)
        {
            declares = t.GetAttribute(i).name == attribute;
        }
        if (declares && t != tid)
        {
            const std::string declaring = t.GetName().rfind("ns3::", 0) == 0 ? t.GetName().substr(5) : t.GetName();
            Fail(key, path, attribute + " is an attribute of " + t.GetName() + ", which " + typeName +
                                " inherits: write " + declaring + "::" + attribute);
        }
        if (declares || t == t.GetParent())
        {
            break;
        }
    }
    const std::string why = ScreenValue(full, info, text);
    if (!why.empty() || !info.checker->CreateValidValue(StringValue(text)))
    {
        Fail(value, path, "\"" + text + "\" is not a valid value for " + full + " (" +
                              info.checker->GetValueTypeName() + ")" +
                              (why.empty() ? CheckerRange(info) : ": " + why));
    }
    // ns-3 gives a DataRate no range: its family's (plausibility.h) applies.
    if (info.checker->GetValueTypeName() == "DataRateValue")
    {
        const std::string implausible = Implausible(RateFamilyOfAttribute(full), double(DataRate(text).GetBitRate()));
        if (!implausible.empty())
        {
            Fail(value, path, implausible);
        }
    }
}

AttributeMap
ScenarioReader::ReadAttributes(const YAML::Node& n,
                               const std::string& path,
                               const std::vector<std::string>* reaches) const
{
    RequireMap(n, path);
    AttributeMap out;
    for (const auto& kv : n)
    {
        const std::string key = Str(kv.first, path);
        const std::string p = Join(path, key);
        if (key == kProfileKey && (IsSection(path, "host") || IsSection(path, "rnic")))
        {
            continue; // a profile: ApplyHostProfile, ApplyRnicProfile
        }
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
        if (reaches)
        {
            // Applied by type to the objects listed: one of them must be of the attribute's type
            // (or a child of it), else the setting would reach nothing and be ignored without a word.
            const TypeId type = TypeId::LookupByName(full.substr(0, full.rfind("::")));
            std::string list;
            bool reached = false;
            for (const std::string& name : *reaches)
            {
                // A type name, or one attribute's full name.
                TypeId target;
                reached = reached || name == full ||
                          (TypeId::LookupByNameFailSafe(name, &target) && (target == type || target.IsChildOf(type)));
                list += (list.empty() ? "" : ", ") + name;
            }
            if (!reached && path.rfind("per-host", 0) == 0)
            {
                Fail(kv.first, p, "a per-host setting reaches only " + list + "; " + full +
                                      " applies to none of them (set it for every host in the scenario's `host` "
                                      "or `rnic` map)");
            }
            if (!reached)
            {
                Fail(kv.first, p, "`host` and `rnic` settings reach only " + list + " (each object as it is made); " +
                                      full + " applies to none of them");
            }
        }
        if (out.count(full))
        {
            Fail(kv.first, p, "attribute " + full + " is set twice");
        }
        out[full] = value;
    }
    return out;
}

std::string
ScenarioReader::ApplyHostProfile(const YAML::Node& n,
                                 const std::string& path,
                                 AttributeMap& attributes,
                                 const std::string& fallback) const
{
    const auto [name, named] = ProfileName(*this, n, path, fallback);
    const YAML::Node at = named ? n[kProfileKey] : n;
    if (name == kNoHostProfile && path != "host")
    {
        // A host's map only adds to the scenario's: it cannot take the scenario's profile back off.
        Fail(at, Join(path, kProfileKey),
             std::string(kNoHostProfile) + " applies to every host (`host: {profile: none}`); a host names a "
                                           "built-in profile (" + HostProfileNames() + ")");
    }
    if (name.empty() || name == kNoHostProfile)
    {
        return name;
    }
    const HostProfile* profile = FindHostProfile(name);
    if (!profile)
    {
        Fail(at, Join(path, kProfileKey),
             "no host profile '" + name + "' (built in: " + HostProfileNames() + "; or " + kNoHostProfile +
                 ", the parts' own defaults)");
    }
    profile->AddTo(attributes);
    return name;
}

std::string
ScenarioReader::ApplyRnicProfile(const YAML::Node& n, const std::string& path, AttributeMap& attributes) const
{
    const auto [name, named] = ProfileName(*this, n, path, "");
    if (!named)
    {
        return "";
    }
    const bool scenarioWide = path == "rnic";
    if (scenarioWide && (name == kAutoRnicProfile || name == kNoRnicProfile))
    {
        return name; // auto: each host's link class, at run time; none: the engine's own defaults
    }
    const AttributeProfile* profile = FindRnicProfile(name);
    if (!profile)
    {
        Fail(n[kProfileKey], Join(path, kProfileKey),
             "no RNIC profile '" + name + "' (built in: " + RnicProfileNames() +
                 (scenarioWide ? std::string("; or ") + kAutoRnicProfile + ", each host's link class, or " +
                                     kNoRnicProfile + ", the engine's own defaults)"
                               : std::string("; ") + kAutoRnicProfile + " and " + kNoRnicProfile +
                                     " apply to every host, in the scenario's `rnic`)"));
    }
    if (!scenarioWide)
    {
        profile->AddTo(attributes); // a host's profile over the scenario's maps, as any per-host setting
    }
    // The scenario's is applied under every explicit setting (`host:` and `rnic:` alike) as the hosts are
    // made (RnicProfileOf), as the link class's is.
    return name;
}

} // namespace scenario
} // namespace ns3
