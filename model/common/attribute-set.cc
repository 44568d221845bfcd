/*
 * AttributeSet; see attribute-set.h.
 */
#include "common/attribute-set.h"

#include "ns3/abort.h"

namespace ns3
{

void
AttributeSet::Set(TypeId type, const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(type.LookupAttributeByName(name, &info), type.GetName() << " has no attribute " << name);
    // CreateValidValue also turns text (a StringValue) into the attribute's own type.
    Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
    NS_ABORT_MSG_UNLESS(valid, "invalid value for " << type.GetName() << "::" << name);
    for (Entry& e : m_entries)
    {
        if (e.type == type && e.name == name)
        {
            e.value = valid;
            return;
        }
    }
    m_entries.push_back(Entry{type, name, valid});
}

void
AttributeSet::Add(const AttributeSet& later)
{
    for (const Entry& e : later.m_entries)
    {
        Set(e.type, e.name, *e.value);
    }
}

std::size_t
AttributeSet::ApplyTo(Ptr<Object> object) const
{
    std::size_t applied = 0;
    const TypeId own = object->GetInstanceTypeId();
    for (const Entry& e : m_entries)
    {
        if (own == e.type || own.IsChildOf(e.type))
        {
            object->SetAttribute(e.name, *e.value);
            ++applied;
        }
    }
    return applied;
}

} // namespace ns3
