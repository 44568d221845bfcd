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
