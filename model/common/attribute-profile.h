/*
 * AttributeProfile: a named set of attribute values, each with the published figure or specification it
 * comes from: a host of an era (host/host-profile.h) or an RNIC of a class (rnic/rnic-profile.h). A
 * profile is a starting point: whoever applies it lets its own settings win.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_ATTRIBUTE_PROFILE_H
#define IWARP_ATTRIBUTE_PROFILE_H

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** One attribute a profile sets: its full name (ns3::Type::Attribute), its value as text, its source. */
struct ProfileValue
{
    std::string attribute;
    std::string value;
    std::string source;
};

struct AttributeProfile
{
    std::string name;
    std::string summary; ///< what it describes, in a line
    std::vector<ProfileValue> values;

    /** The value the profile gives `attribute` (full name), or empty if it sets none. */
    std::string ValueOf(const std::string& attribute) const;
    /** Add its values to `attributes` (full name -> text) where they set none themselves. */
    void AddTo(std::map<std::string, std::string>& attributes) const;
};

/** The profile of `profiles` called `name`, or null. */
const AttributeProfile* FindProfile(const std::vector<AttributeProfile>& profiles, const std::string& name);

/** The names of `profiles`, comma-separated, in order. */
std::string ProfileNames(const std::vector<AttributeProfile>& profiles);

} // namespace ns3

#endif // IWARP_ATTRIBUTE_PROFILE_H
