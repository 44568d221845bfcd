#include "helper/scenario/scenario-attributes.h"

#include "ns3/config.h"
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
