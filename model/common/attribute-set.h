/*
 * AttributeSet: attribute settings kept by type, to be given to objects made later, one object at a
 * time.  A helper or a part's owner (the Rnic for its pipelines, endpoints and MPA connections)
 * holds one instead of changing ns-3's process-wide defaults (Config::SetDefault): two simulations
 * in one process, or two nodes in one simulation, can then differ without leaking into each other.
 *
 *   AttributeSet s;
 *   s.Set(RnicPipeline::GetTypeId(), "TxPerMessage", TimeValue(NanoSeconds(550)));
 *   s.Set(TypeId::LookupByName("ns3::MpaConnection"), "Markers", StringValue("true"));
 *   ...
 *   s.ApplyTo(pipeline); // the settings of the object's type or one of its parents; others skipped
 *
 * A setting is checked when it is made (the type has the attribute and its checker takes the value,
 * text included), so a bad one fails where it is written rather than when an object is made.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_ATTRIBUTE_SET_H
#define IWARP_ATTRIBUTE_SET_H

#include "ns3/attribute.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

class AttributeSet
{
  public:
    /** Attribute `name` of `type` (or of a parent of it); a later setting of the same pair replaces. */
    void Set(TypeId type, const std::string& name, const AttributeValue& value);
    /** Every setting of `later`, in its order, as if Set here (a setting of the same pair replaces). */
    void Add(const AttributeSet& later);
    /** Set on `object` the settings whose type is its TypeId or a parent's; returns how many applied. */
    std::size_t ApplyTo(Ptr<Object> object) const;
    bool IsEmpty() const { return m_entries.empty(); }

  private:
    struct Entry
    {
        TypeId type;
        std::string name;
        Ptr<const AttributeValue> value;
    };

    std::vector<Entry> m_entries;
};

} // namespace ns3

#endif // IWARP_ATTRIBUTE_SET_H
