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

/** The YAML value of an override, or the error of text that is not YAML. */
YAML::Node
LoadValue(const std::string& text, const std::string& where, const std::string& path)
{
    try
    {
        return YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        throw ScenarioError(where, 0, 0, path, "the value is not valid YAML: " + e.msg);
    }
}

/** "a.b.c" -> {"a", "b", "c"}; an empty key anywhere is an error. */
std::vector<std::string>
SplitKeys(const std::string& path, const std::string& where)
{
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
    return keys;
}

/**
 * The element `key` indexes in the list `cur` (at `done`; `here` is done.key), or the error of a
 * key that is no index or an index past the list's end.
 */
std::size_t
ListIndex(const YAML::Node& cur,
          const std::string& key,
          const std::string& here,
          const std::string& done,
          const std::string& where)
{
    if (!AllDigits(key))
    {
        throw ScenarioError(where, 0, 0, here, "'" + done + "' is a list: expected an index, got '" + key + "'");
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
    return idx;
}

/** The schema of `key` in the map or dictionary `schema` (not a list: ListIndex), or the error of a key it lacks. */
const SchemaNode*
KeySchema(const SchemaNode& schema,
          const std::string& key,
          const std::string& here,
          const std::string& done,
          const std::string& where)
{
    switch (schema.kind)
    {
    case SchemaNode::Kind::Map:
        if (!schema.fields.count(key))
        {
            throw ScenarioError(where, 0, 0, here, UnknownKeyMessage(key, KeysOf(schema)));
        }
        return schema.fields.at(key);
    case SchemaNode::Kind::Dict:
        return schema.element;
    case SchemaNode::Kind::List:
        break; // ListIndex's: the walk never asks
    case SchemaNode::Kind::Value:
        throw ScenarioError(where, 0, 0, here, "'" + done + "' is a value and has no key '" + key + "'");
    }
    return nullptr;
}

/** Set the node at `keys` under `root` to `value`, creating the known maps on the way. */
void
SetAtPath(YAML::Node& root, const std::vector<std::string>& keys, const YAML::Node& value, const std::string& where)
{
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
        if (schema->kind == SchemaNode::Kind::List)
        {
            const std::size_t idx = ListIndex(cur, key, here, done, where);
            if (last)
            {
                cur[idx] = value;
                return;
            }
            cur.reset(cur[idx]);
            schema = schema->element;
            done = here;
            continue;
        }
        const SchemaNode* next = KeySchema(*schema, key, here, done, where);
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
            return;
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
    const YAML::Node value = LoadValue(text, where, path);
    const std::vector<std::string> keys = SplitKeys(path, where);

    if (!root.IsDefined() || root.IsNull())
    {
        root = YAML::Node(YAML::NodeType::Map);
    }
    SetAtPath(root, keys, value, where);
    return path;
}

} // namespace scenario
} // namespace ns3
