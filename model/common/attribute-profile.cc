#include "common/attribute-profile.h"

namespace ns3
{

std::string
AttributeProfile::ValueOf(const std::string& attribute) const
{
    for (const ProfileValue& v : values)
    {
        if (v.attribute == attribute)
        {
            return v.value;
        }
    }
    return "";
}

void
AttributeProfile::AddTo(std::map<std::string, std::string>& attributes) const
{
    for (const ProfileValue& v : values)
    {
        attributes.emplace(v.attribute, v.value); // what is set already wins
    }
}

const AttributeProfile*
FindProfile(const std::vector<AttributeProfile>& profiles, const std::string& name)
{
    for (const AttributeProfile& p : profiles)
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

std::string
ProfileNames(const std::vector<AttributeProfile>& profiles)
{
    std::string names;
    for (const AttributeProfile& p : profiles)
    {
        names += (names.empty() ? "" : ", ") + p.name;
    }
    return names;
}

} // namespace ns3
