#include "helper/scenario/scenario-attributes.h"

#include "ns3/config.h"
#include "ns3/abort.h"
#include "ns3/string.h"

namespace ns3
{

void
SetAttributeDefaults(const AttributeMap& attributes)
{
    for (const auto& [name, value] : attributes)
    {
        Config::SetDefault(name, StringValue(value));
    }
}

ScopedAttributeDefaults::ScopedAttributeDefaults(const AttributeMap& attributes)
{
    for (const auto& [name, value] : attributes)
    {
        const auto sep = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (sep != std::string::npos && TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid) &&
            tid.LookupAttributeByName(name.substr(sep + 2), &info))
        {
            m_saved.emplace_back(name, info.initialValue);
        }
    }
    SetAttributeDefaults(attributes);
}

ScopedAttributeDefaults::~ScopedAttributeDefaults()
{
    for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it)
    {
        Config::SetDefault(it->first, *it->second);
    }
}

std::optional<std::string>
ScenarioDefault(const ScenarioConfig& cfg, const std::string& name)
{
    for (const AttributeMap* m : {&cfg.rnic, &cfg.host})
    {
        auto it = m->find(name);
        if (it != m->end())
        {
            return it->second;
        }
    }
    return std::nullopt;
}

AttributeMap
CurrentDefaults(const std::vector<std::string>& names)
{
    AttributeMap m;
    for (const std::string& name : names)
    {
        const auto sep = name.rfind("::");
        TypeId::AttributeInformation info;
        const bool found = TypeId::LookupByName(name.substr(0, sep)).LookupAttributeByName(name.substr(sep + 2), &info);
        NS_ABORT_MSG_UNLESS(found, "no attribute " << name);
        m[name] = info.initialValue->SerializeToString(info.checker);
    }
    return m;
}

Ptr<AttributeValue>
EffectiveDefault(const ScenarioConfig& cfg, const std::string& name)
{
    const auto sep = name.rfind("::");
    TypeId::AttributeInformation info;
    const bool found = TypeId::LookupByName(name.substr(0, sep)).LookupAttributeByName(name.substr(sep + 2), &info);
    NS_ABORT_MSG_UNLESS(found, "no attribute " << name);
    if (const auto text = ScenarioDefault(cfg, name))
    {
        // The loader has checked the text against this very checker.
        return info.checker->CreateValidValue(StringValue(*text))->Copy();
    }
    return info.initialValue->Copy();
}

std::size_t
ApplyAttributes(Ptr<Object> object, const AttributeMap& attributes)
{
    std::size_t applied = 0;
    for (const auto& [name, value] : attributes)
    {
        const auto sep = name.rfind("::");
        const std::string typeName = name.substr(0, sep);
        for (TypeId t = object->GetInstanceTypeId();; t = t.GetParent())
        {
            if (t.GetName() == typeName)
            {
                object->SetAttribute(name.substr(sep + 2), StringValue(value));
                ++applied;
                break;
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
    }
    return applied;
}

} // namespace ns3
