#include "helper/scenario/key-docs.h"

#include "helper/scenario/scenario-schema.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/scenario/transport-keys.h"
#include "helper/scenario/workloads/workload-kind.h"
#include "helper/common/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace scenario
{
namespace
{

using json = nlohmann::ordered_json;

/** A generated table: the map it lists, and whether nested maps are listed key by key ("red.weight"). */
struct KeyTable
{
    const char* name;
    const SchemaNode* (*node)();
    bool flatten;
};

const std::vector<KeyTable>&
Tables()
{
    static const std::vector<KeyTable> tables = {
        {"top-level", [] { return &ScenarioSchema(); }, false},
        {"topology", [] { return &TopologyNode(); }, false},
        {"pfc", [] { return &PfcNode(); }, false},
        {"links", [] { return PerLinkNode().element; }, false},
        {"queue-disc", [] { return &QueueDiscNode(); }, true},
        {"workloads", [] { return ScenarioSchema().fields.at("workloads")->element; }, false},
        {"inject-fields",
         [] { return ScenarioSchema().fields.at("workloads")->element->fields.at("fields"); },
         false},
        {"tracing", [] { return &TracingNode(); }, false},
        {"series", [] { return TracingNode().fields.at("series"); }, false},
        {"measure", [] { return &MeasureNode(); }, false},
        {"events", [] { return EventsNode().element; }, false},
    };
    return tables;
}

std::string
Cell(std::string text)
{
    std::string out;
    for (char c : text)
    {
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    return out;
}

/** The rows of `node`'s keys, each `prefix`ed; nested maps with facts of their own flattened. */
void
Rows(const SchemaNode& node, const std::string& prefix, bool flatten, std::vector<std::pair<std::string, KeyInfo>>& out)
{
    for (const auto& [key, info] : node.docs)
    {
        const SchemaNode* child = node.fields.at(key);
        if (flatten && child->kind == SchemaNode::Kind::Map && !child->docs.empty())
        {
            Rows(*child, prefix + key + ".", flatten, out);
            continue;
        }
        out.emplace_back(prefix + key, info);
    }
}

// ------------------------------------------------------------------------------------------------
// JSON Schema
// ------------------------------------------------------------------------------------------------

json SchemaOf(const SchemaNode& node, const KeyInfo* info);

/** A bound as JSON: a whole number as an integer ("minimum": 1), anything else as a number. */
json
Bound(double x)
{
    const bool whole = x > -9.0e15 && x < 9.0e15 && x == double(int64_t(x)); // in range before the cast
    return whole ? json(int64_t(x)) : json(x);
}

/** A scalar of `info`'s kind. */
json
ValueSchema(const KeyInfo& info)
{
    json s = json::object();
    const json words = info.choices.empty() ? json() : json{{"enum", info.choices}};
    auto orWords = [&words](json v) { return words.is_null() ? v : json{{"anyOf", json::array({v, words})}}; };
    switch (info.value)
    {
    case ValueKind::Text:
    case ValueKind::Node:
        return orWords(json{{"type", "string"}});
    case ValueKind::Bool:
        return json{{"type", "boolean"}};
    case ValueKind::Int:
    case ValueKind::Number:
        s["type"] = info.value == ValueKind::Int ? "integer" : "number";
        if (info.minimum)
        {
            s[info.exclusiveMinimum ? "exclusiveMinimum" : "minimum"] = Bound(*info.minimum);
        }
        if (info.maximum)
        {
            s["maximum"] = Bound(*info.maximum);
        }
        return s;
    case ValueKind::Size:
        return json{{"anyOf", {{{"type", "integer"}, {"minimum", 0}}, {{"type", "string"}, {"pattern", SizePattern()}}}}};
    case ValueKind::Time:
        return json{{"anyOf", {{{"const", 0}}, {{"type", "string"}, {"pattern", TimePattern()}}}}};
    case ValueKind::Rate:
        return json{{"type", "string"}, {"pattern", RatePattern()}};
    case ValueKind::Queue:
        return orWords(json{{"anyOf",
                             {{{"type", "integer"}, {"minimum", 1}}, {{"type", "string"}, {"pattern", QueuePattern()}}}}});
    case ValueKind::Choice:
        return words;
    case ValueKind::Link:
        return json{{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 2}, {"maxItems", 2}};
    default:
        return s; // Any, or a shape the node itself gives
    }
}

json
MapSchema(const SchemaNode& node)
{
    json s{{"type", "object"}, {"additionalProperties", false}};
    json props = json::object();
    json required = json::array();
    for (const auto& [key, info] : node.docs)
    {
        props[key] = SchemaOf(*node.fields.at(key), &info);
        if (info.required)
        {
            required.push_back(key);
        }
    }
    s["properties"] = props;
    if (!required.empty())
    {
        s["required"] = required;
    }
    return s;
}

json
SchemaOf(const SchemaNode& node, const KeyInfo* info)
{
    json s;
    switch (node.kind)
    {
    case SchemaNode::Kind::Map:
        s = MapSchema(node);
        break;
    case SchemaNode::Kind::List: {
        KeyInfo element;
        if (info && info->value == ValueKind::List && !info->choices.empty())
        {
            element.value = ValueKind::Choice;
            element.choices = info->choices;
        }
        s = json{{"type", "array"}, {"items", SchemaOf(*node.element, &element)}};
        break;
    }
    case SchemaNode::Kind::Dict:
        s = json{{"type", "object"}, {"additionalProperties", SchemaOf(*node.element, nullptr)}};
        break;
    case SchemaNode::Kind::Value:
        s = info ? ValueSchema(*info) : json::object();
        break;
    }
    if (info && !info->meaning.empty())
    {
        json described{{"description", info->meaning}};
        described.update(s);
        return described;
    }
    return s;
}

/**
 * Per workload kind, the keys it takes with its own facts (its ranges, the keys it requires): the shared
 * node lists every kind's keys with the loosest range, and these narrow it once `kind` is known.
 */
json
WorkloadKindConditions()
{
    const SchemaNode& workload = *ScenarioSchema().fields.at("workloads")->element;
    json conditions = json::array();
    for (const WorkloadKindInfo* kind : WorkloadKinds())
    {
        json props{{"name", json::object()}, {"kind", json::object()}};
        json required = json::array({"kind"});
        for (const WorkloadKey& key : kind->keys)
        {
            KeyInfo own = key.info;
            own.meaning.clear(); // described once, on the shared node
            props[key.name] = SchemaOf(*workload.fields.at(key.name), &own);
            if (own.required)
            {
                required.push_back(key.name);
            }
        }
        conditions.push_back({{"if", {{"properties", {{"kind", {{"const", kind->name}}}}}, {"required", {"kind"}}}},
                              {"then",
                               {{"properties", props}, {"required", required}, {"additionalProperties", false}}}});
    }
    return conditions;
}

} // namespace

std::vector<std::string>
KeyTableNames()
{
    std::vector<std::string> names;
    for (const KeyTable& t : Tables())
    {
        names.emplace_back(t.name);
    }
    names.emplace_back("transport"); // with its sources: TransportKeysMarkdown
    return names;
}

std::string
KeyTableMarkdown(const std::string& name)
{
    const auto it = std::find_if(Tables().begin(), Tables().end(), [&name](const KeyTable& t) { return name == t.name; });
    if (name == "transport")
    {
        return TransportKeysMarkdown();
    }
    if (it == Tables().end())
    {
        throw std::invalid_argument("no key table '" + name + "'");
    }
    std::vector<std::pair<std::string, KeyInfo>> rows;
    Rows(*it->node(), "", it->flatten, rows);
    const bool kinds = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return !r.second.only.empty(); });
    std::string out = kinds ? "| key | type | default | applies to | meaning |\n|---|---|---|---|---|\n"
                            : "| key | type | default | meaning |\n|---|---|---|---|\n";
    for (const auto& [key, info] : rows)
    {
        out += "| `" + key + "` | " + Cell(info.type) + " | " + Cell(info.defaultText) + " | ";
        if (kinds)
        {
            out += Cell(info.only.empty() ? "all" : info.only) + " | ";
        }
        out += Cell(info.meaning) + " |\n";
    }
    return out;
}

std::string
ScenarioJsonSchema()
{
    json s{{"$schema", "http://json-schema.org/draft-07/schema#"},
           {"title", "iwarp-ns3 scenario file"},
           {"description", "Generated by `iwarp-sim keys --json-schema` from the key declarations; the loader "
                           "checks more (doc/scenario-format.md)."}};
    s.update(SchemaOf(ScenarioSchema(), nullptr));
    s["properties"]["workloads"]["items"]["allOf"] = WorkloadKindConditions();
    return s.dump(2) + "\n";
}

} // namespace scenario
} // namespace ns3
