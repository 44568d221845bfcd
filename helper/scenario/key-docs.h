/*
 * What the key declarations print for people and editors: the key tables of doc/scenario-format.md and the
 * JSON Schema doc/scenario.schema.json, both from the schema tree and the facts it carries (key-info.h), so
 * neither can state a key, range or default the loader does not have. `iwarp-sim keys` prints them; the
 * CTests iwarp-keys-doc and iwarp-scenario-json-schema fail while the files differ (make keys-doc rewrites
 * them).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_KEY_DOCS_H
#define IWARP_SCENARIO_KEY_DOCS_H

#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/** The generated tables of doc/scenario-format.md, by the name of their marker ("topology", ...). */
std::vector<std::string> KeyTableNames();

/** Table `name` as Markdown; throws std::invalid_argument for a name KeyTableNames() lacks. */
std::string KeyTableMarkdown(const std::string& name);

/** The JSON Schema (draft-07) of a scenario file, as indented JSON text ending in a newline. */
std::string ScenarioJsonSchema();

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_KEY_DOCS_H
