/*
 * The keys a scenario file may use, as a tree.  One table serves two purposes so that they cannot
 * drift apart: rejecting unknown keys (with the closest known one as a hint), and deciding whether a
 * --set path names a known field that may be created.  The `transport` sections take their keys from
 * transport-keys.cc (whose table doc/scenario-format.md prints); the other sections' keys are listed
 * here and, by hand, in doc/scenario-format.md.  Which keys apply to which workload or topology kind
 * is checked by the reader (scenario-reader.cc), not here.
 */
#ifndef IWARP_SCENARIO_SCHEMA_H
#define IWARP_SCENARIO_SCHEMA_H

#include <map>
#include <string>
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
