/*
 * A scenario section's keys, each declared once with what it fills: its name, its facts (key-info.h: the
 * value's kind, range, default and meaning) and how its value is read into the section's config C. The
 * section's schema node (unknown keys, --set paths), its doc table, its JSON Schema and its reading all come
 * from the one list; the readers of the builders below refuse what the facts exclude, with the range the
 * docs print.
 *
 *   UIntKey("leaves", &TopologyConfig::leaves, 1, 65535, "switches").Only("leaf-spine")
 *
 * A key whose `read` is empty is read by its section's own code (a nested section, or values read
 * together); the list still declares its facts. Its default, where the config member has one, is the
 * member's initial value, so the docs cannot state another.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SECTION_KEYS_H
#define IWARP_SCENARIO_SECTION_KEYS_H

#include "helper/scenario/key-info.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/common/units.h"

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{
namespace scenario
{

/** One key of a section whose config is C. */
template <typename C>
struct SectionKey
{
    std::string name;
    KeyInfo info;
    /** The value's own node (a nested map, a list); null: a scalar. */
    const SchemaNode* shape{nullptr};
    /** Reads the value `v` at `path` into `out`; empty: the section's code reads it. */
    std::function<void(const ScenarioReader& r, const YAML::Node& v, const std::string& path, C& out)> read;

    SectionKey&& Only(std::string kinds) &&
    {
        info.only = std::move(kinds);
        return std::move(*this);
    }

    SectionKey&& Required() &&
    {
        info.required = true;
        info.defaultText = "**required**";
        return std::move(*this);
    }

    SectionKey&& Default(std::string text) &&
    {
        info.defaultText = std::move(text);
        return std::move(*this);
    }
};

/**
 * Reads every key of `keys` that `n` has, in the list's order; a missing required key fails. A Key has a
 * `name`, `info` and a `read` taking C: a SectionKey<C>, or a WorkloadKey (workload-kind.h) for C WorkloadConfig.
 */
template <typename Key, typename C>
void
ReadSection(const ScenarioReader& r, const std::vector<Key>& keys, const YAML::Node& n, const std::string& path, C& out)
{
    for (const Key& k : keys)
    {
        if (!k.read)
        {
            continue;
        }
        const YAML::Node v = k.info.required ? r.Required(n, path, k.name) : n[k.name];
        if (v.IsDefined() && !v.IsNull())
        {
            k.read(r, v, Join(path, k.name), out);
        }
    }
}

/** The schema node of a section: its keys, with their facts, scalars pointing at `scalar`. */
template <typename C>
SchemaNode
SectionNode(const std::vector<SectionKey<C>>& keys, const SchemaNode* scalar)
{
    SchemaNode n;
    n.kind = SchemaNode::Kind::Map;
    for (const SectionKey<C>& k : keys)
    {
        n.fields[k.name] = k.shape ? k.shape : scalar;
        n.docs.emplace_back(k.name, k.info);
    }
    return n;
}

/** Facts of a key read by its section's own code: its value's kind, the docs' type, default and meaning. */
inline KeyInfo
Facts(ValueKind kind, std::string type, std::string def, std::string meaning)
{
    KeyInfo info;
    info.value = kind;
    info.type = std::move(type);
    info.defaultText = std::move(def);
    info.meaning = std::move(meaning);
    return info;
}

/** A list (`Kind::List`) or a dictionary (`Kind::Dict`) of `element`. */
inline SchemaNode
Of(SchemaNode::Kind kind, const SchemaNode* element)
{
    SchemaNode n;
    n.kind = kind;
    n.element = element;
    return n;
}

/** A key with its facts, read by the section's own code. */
template <typename C>
SectionKey<C>
DeclaredKey(const std::string& name, KeyInfo info, const SchemaNode* shape = nullptr)
{
    return SectionKey<C>{name, std::move(info), shape, {}};
}

/** A key read by `read`. */
template <typename C, typename F>
SectionKey<C>
CustomKey(const std::string& name, KeyInfo info, F read)
{
    return SectionKey<C>{name, std::move(info), nullptr, std::move(read)};
}

/** The initial value of member `m` of a default C, for the docs' default column. */
template <typename C, typename T>
const T&
InitialValue(T C::*m)
{
    static const C defaults{};
    return defaults.*m;
}

/** T, or the T of an optional<T>. */
template <typename T>
struct Unwrapped
{
    using type = T;
};

template <typename T>
struct Unwrapped<std::optional<T>>
{
    using type = T;
};

/** A whole number in [min, max] into an integer member (plain or optional). */
template <typename C, typename T>
SectionKey<C>
UIntKey(const std::string& name, T C::*m, uint64_t min, uint64_t max, std::string meaning)
{
    KeyInfo info;
    info.type = "int, " + IntRangeText(min, max);
    info.meaning = std::move(meaning);
    info.value = ValueKind::Int;
    info.minimum = double(min);
    if (max != UINT64_MAX) // no bound to state beyond what 64 bits hold
    {
        info.maximum = double(max);
    }
    if constexpr (std::is_integral_v<T>)
    {
        info.defaultText = std::to_string(InitialValue(m));
    }
    return SectionKey<C>{name, info, nullptr,
                         [m, min, max, name](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                                              C& out) {
                             const uint64_t x = r.UInt(v, path, max);
                             if (x < min)
                             {
                                 r.Fail(v, path, name + " must be at least " + std::to_string(min));
                             }
                             out.*m = static_cast<typename Unwrapped<T>::type>(x);
                         }};
}

/** true or false into a bool member. */
template <typename C>
SectionKey<C>
BoolKey(const std::string& name, bool C::*m, std::string meaning)
{
    KeyInfo info;
    info.type = "bool";
    info.defaultText = InitialValue(m) ? "true" : "false";
    info.meaning = std::move(meaning);
    info.value = ValueKind::Bool;
    return SectionKey<C>{name, info, nullptr,
                         [m](const ScenarioReader& r, const YAML::Node& v, const std::string& path, C& out) {
                             out.*m = r.Bool(v, path);
                         }};
}

/** Text into a string member. */
template <typename C>
SectionKey<C>
TextKey(const std::string& name, std::string C::*m, std::string meaning)
{
    KeyInfo info;
    info.type = "text";
    info.meaning = std::move(meaning);
    info.value = ValueKind::Text;
    return SectionKey<C>{name, info, nullptr,
                         [m](const ScenarioReader& r, const YAML::Node& v, const std::string& path, C& out) {
                             out.*m = r.Str(v, path);
                         }};
}

/** A time of family `q` (plausibility.h), above zero with `positive`, into a Time member (plain or optional). */
template <typename C, typename T>
SectionKey<C>
TimeKey(const std::string& name, T C::*m, Quantity q, bool positive, std::string meaning)
{
    KeyInfo info;
    info.type = positive ? "time, > 0" : "time";
    info.meaning = std::move(meaning);
    info.value = ValueKind::Time;
    return SectionKey<C>{name, info, nullptr,
                         [m, q, positive](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                                                C& out) {
                             out.*m = positive ? r.PositiveTimeOf(v, path, q) : r.TimeOf(v, path, q);
                         }};
}

/** A rate of family `q` into an optional rate member, in bit/s. */
template <typename C>
SectionKey<C>
RateKey(const std::string& name, std::optional<uint64_t> C::*m, Quantity q, std::string meaning)
{
    KeyInfo info;
    info.type = "rate, > 0";
    info.meaning = std::move(meaning);
    info.value = ValueKind::Rate;
    return SectionKey<C>{name, info, nullptr,
                         [m, q](const ScenarioReader& r, const YAML::Node& v, const std::string& path, C& out) {
                             out.*m = r.RateOf(v, path, q);
                         }};
}

/** One of `names` into an enumeration member; the default is the word of the member's initial value. */
template <typename C, typename E>
SectionKey<C>
ChoiceKey(const std::string& name, E C::*m, const Names<E>& names, const char* what, std::string meaning)
{
    KeyInfo info;
    info.meaning = std::move(meaning);
    info.value = ValueKind::Choice;
    for (const auto& [word, value] : names)
    {
        if (value == InitialValue(m))
        {
            info.defaultText = word;
        }
        info.choices.emplace_back(word);
        info.type += (info.type.empty() ? "`" : ", `") + std::string(word) + "`";
    }
    return SectionKey<C>{name, info, nullptr,
                         [m, names, what](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                                          C& out) { out.*m = Pick(r, v, path, names, what); }};
}

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_SECTION_KEYS_H
