/*
 * The keys a scenario file may use, as a tree.  One tree serves three purposes so that they cannot drift
 * apart: rejecting unknown keys (with the closest known one as a hint), deciding whether a --set path names a
 * known field that may be created, and printing the docs' key tables and the JSON Schema (key-docs.h) from
 * the facts each map carries.  The tree is assembled from the declarations: every section's list
 * (sections/scenario-sections.h), the workload kinds' keys (their registry) and the transport keys
 * (transport-keys.cc).  Which keys apply to which workload or topology kind is checked by the reader.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SCHEMA_H
#define IWARP_SCENARIO_SCHEMA_H

#include "helper/scenario/key-info.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace scenario
{

struct SchemaNode
{
    enum class Kind
    {
        Value,   ///< a scalar (or a flow value checked by the reader, as tracing.pcap)
        Map,     ///< fixed keys, `fields`
        List,    ///< a sequence of `element`
        Dict,    ///< free keys (attribute names, node names), each an `element`
    };

    Kind kind{Kind::Value};
    std::map<std::string, const SchemaNode*> fields;
    const SchemaNode* element{nullptr};
    /** Map: each key's facts (key-info.h), in the order the docs list them. */
    std::vector<std::pair<std::string, KeyInfo>> docs;
};

/** The root: a ScenarioConfig. */
const SchemaNode& ScenarioSchema();

/** The known key closest to `key` (edit distance), or "" when none is close enough to suggest. */
std::string ClosestKey(const std::string& key, const std::vector<std::string>& known);

/** "unknown key 'x'; did you mean 'y'?" or "unknown key 'x' (known keys: a, b, c)". */
std::string UnknownKeyMessage(const std::string& key, const std::vector<std::string>& known);

/** The keys of a Map node, sorted. */
std::vector<std::string> KeysOf(const SchemaNode& map);

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_SCHEMA_H
