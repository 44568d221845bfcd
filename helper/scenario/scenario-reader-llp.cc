/*
 * The scenario reader's `llp:` value: a short name ("tcp") or the TypeId of an LLP connector
 * ("ns3::MpaLlpConnector"), both from LlpDescriptors() (llp-descriptors.h). A connector that table
 * lacks is refused too: the path checks size each LLP's headers from it.
 */
#include "helper/scenario/scenario-reader.h"

#include "ddp/llp-connector.h"

#include "ns3/type-id.h"

namespace ns3
{
namespace scenario
{

const LlpDescriptor*
PickLlp(const ScenarioReader& r, const YAML::Node& n, const std::string& path)
{
    const std::string s = r.Str(n, path);
    std::string list;
    for (const LlpDescriptor& e : LlpDescriptors())
    {
        if (s == e.name || s == e.connector)
        {
            return &e;
        }
        list += (list.empty() ? "" : ", ") + std::string(e.name) + " (" + e.connector + ")";
    }
    const std::string expected = " (expected one of " + list + ")";
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(s, &tid))
    {
        r.Fail(n, path, "unknown llp '" + s + "'" + expected);
    }
    const TypeId base = LlpConnector::GetTypeId();
    if (tid != base && !tid.IsChildOf(base))
    {
        r.Fail(n, path, "llp '" + s + "' is not an LlpConnector" + expected);
    }
    r.Fail(n, path, "llp '" + s + "' is an LlpConnector scenarios have no entry for" + expected);
}

} // namespace scenario
} // namespace ns3
