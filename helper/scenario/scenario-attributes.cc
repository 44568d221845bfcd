#include "helper/scenario/scenario-attributes.h"

#include "ns3/abort.h"
#include "ns3/string.h"

namespace ns3
{

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
