/*
 * --set overrides: "dot.path=value" applied to the YAML tree before it is read, so that an
 * overridden value goes through exactly the checks a value in the file would.
 */
#include "helper/scenario/scenario-reader.h"

#include <algorithm>
#include <cctype>

namespace ns3
{
namespace scenario
{
namespace
{

bool
AllDigits(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

} // namespace

std::string
ApplyOverride(YAML::Node& root, const std::string& assignment)
{
    const std::string where = "--set " + assignment;
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw ScenarioError(where, 0, 0, "", "an override is key.path=value");
    }
    const std::string path = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    if (text.empty())
    {
        throw ScenarioError(where, 0, 0, path, "empty value");
    }
    YAML::Node value;
    try
    {
        value = YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        throw ScenarioError(where, 0, 0, path, "the value is not valid YAML: " + e.msg);
    }

    std::vector<std::string> keys;
    for (std::size_t b = 0;;)
    {
        const auto dot = path.find('.', b);
        keys.push_back(path.substr(b, dot == std::string::npos ? std::string::npos : dot - b));
        if (keys.back().empty())
        {
            throw ScenarioError(where, 0, 0, path, "empty key in the path");
        }
        if (dot == std::string::npos)
        {
            break;
        }
        b = dot + 1;
    }

    if (!root.IsDefined() || root.IsNull())
    {
        root = YAML::Node(YAML::NodeType::Map);
    }
    // Walk the tree and the schema side by side; `cur.reset()` rebinds (operator= would assign
    // into the node the handle refers to and so overwrite the tree).
    YAML::Node cur;
    cur.reset(root);
    const SchemaNode* schema = &ScenarioSchema();
    std::string done;
    for (std::size_t i = 0; i < keys.size(); ++i)
    {
        const std::string& key = keys[i];
        const bool last = i + 1 == keys.size();
        const std::string here = done.empty() ? key : done + "." + key;
        const SchemaNode* next = nullptr;
        switch (schema->kind)
        {
        case SchemaNode::Kind::Map:
            if (!schema->fields.count(key))
            {
                throw ScenarioError(where, 0, 0, here, UnknownKeyMessage(key, KeysOf(*schema)));
            }
            next = schema->fields.at(key);
            break;
        case SchemaNode::Kind::Dict:
            next = schema->element;
            break;
        case SchemaNode::Kind::List: {
            if (!AllDigits(key))
            {
                throw ScenarioError(where, 0, 0, here,
                                    "'" + done + "' is a list: expected an index, got '" + key + "'");
            }
            // Any index past the list's end is that error, however many digits it has (stoul
            // would throw on one that does not fit 64 bits).
            const std::size_t idx = key.size() > 18 ? SIZE_MAX : std::size_t(std::stoull(key));
            const std::size_t size = cur.IsSequence() ? cur.size() : 0;
            if (idx >= size)
            {
                throw ScenarioError(where, 0, 0, here,
                                    "no element " + key + " in '" + done + "' (it has " + std::to_string(size) + ")");
            }
            if (last)
            {
                cur[idx] = value;
                return path;
            }
            cur.reset(cur[idx]);
            schema = schema->element;
            done = here;
            continue;
        }
        case SchemaNode::Kind::Value:
            throw ScenarioError(where, 0, 0, here, "'" + done + "' is a value and has no key '" + key + "'");
        }
        if (!cur.IsMap())
        {
            if (cur.IsDefined() && !cur.IsNull())
            {
                throw ScenarioError(where, 0, 0, here, "'" + done + "' is not a mapping in the scenario");
            }
            cur = YAML::Node(YAML::NodeType::Map);
        }
        if (last)
        {
            cur[key] = value;
            return path;
        }
        // A known key that the file leaves out is created (the reader checks what ends up there).
        if (!cur[key] && next->kind == SchemaNode::Kind::List)
        {
            throw ScenarioError(where, 0, 0, here,
                                "'" + here + "' is not in the scenario; an index needs an existing list");
        }
        if (!cur[key])
        {
            cur[key] = YAML::Node(YAML::NodeType::Map);
        }
        cur.reset(cur[key]);
        schema = next;
        done = here;
    }
    return path;
}

} // namespace scenario
} // namespace ns3
