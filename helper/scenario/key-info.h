/*
 * What a scenario key is, said once where the key is declared: its value's kind and range, its default and
 * its meaning. The key tables of doc/scenario-format.md (`iwarp-sim keys --markdown`) and the JSON Schema
 * for editors (doc/scenario.schema.json, `iwarp-sim keys --json-schema`) are printed from these; the
 * section readers (section-keys.h) check the range they state.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_KEY_INFO_H
#define IWARP_SCENARIO_KEY_INFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/** The kind of a value, for the JSON Schema (the loader's parsers decide exactly). */
enum class ValueKind
{
    Any,    ///< checked by the reader alone
    Text,   ///< a string
    Bool,   ///< true or false
    Int,    ///< a whole number, in [minimum, maximum]
    Number, ///< a number, in [minimum, maximum] (above `minimum` with `exclusiveMinimum`)
    Size,   ///< octets: a number, or a number and a size unit (units.h)
    Time,   ///< a number and a time unit, or 0
    Rate,   ///< a number and a rate unit
    Queue,  ///< "<n>p" or a size
    Choice, ///< one of `choices`
    Node,   ///< a node name of the topology
    Link,   ///< [node, node]
    Map,    ///< a mapping: its keys are the node's own
    List,   ///< a list: its element is the node's
    Dict,   ///< free keys (attribute or node names)
};

/** One key's facts, for the docs, the JSON Schema and the range checks. */
struct KeyInfo
{
    std::string type;        ///< the docs' type column: "int, 1..65535"
    std::string defaultText; ///< the docs' default column ("" when there is none to state)
    std::string meaning;     ///< the docs' meaning column
    ValueKind value{ValueKind::Any};
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum{false};
    /** Choice: the words allowed; otherwise words allowed besides a value of the kind ("unlimited"). */
    std::vector<std::string> choices;
    bool required{false};
    /** The kinds (topology or workload) the key applies to, for the docs; empty: all. */
    std::string only;
};

/** "1..65535", "1..2^32-1", ">= 1": an integer range as the docs write it. */
std::string IntRangeText(uint64_t min, uint64_t max);

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_KEY_INFO_H
