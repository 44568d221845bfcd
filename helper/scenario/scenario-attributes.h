/*
 * Applying a scenario's attribute maps (`host`, `rnic`, `per-host`) to ns-3 objects by name.
 * The loader has already checked every name and value against the TypeId registry, so failures
 * here are programming errors of the runner, not of the scenario.
 *
 *   SetAttributeDefaults(cfg.rnic);              // before the RNICs are created: every one
 *   ApplyAttributes(rnic->GetPipeline(), cfg.perHost["h3"].rnic);   // one object afterwards
 */
#ifndef IWARP_SCENARIO_ATTRIBUTES_H
#define IWARP_SCENARIO_ATTRIBUTES_H

#include "helper/scenario/scenario-config.h"

#include "ns3/object.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/** Config::SetDefault for each entry: objects created afterwards start with these values. */
void SetAttributeDefaults(const AttributeMap& attributes);

/**
 * SetAttributeDefaults for the lifetime of this object: the defaults in force before are put back
 * when it is destroyed, so one scenario's `host:`/`rnic:` settings never leak into the next run
 * in the same process (the test runner, the Python bindings, a sweep).
 */
class ScopedAttributeDefaults
{
  public:
    explicit ScopedAttributeDefaults(const AttributeMap& attributes);
    ~ScopedAttributeDefaults();
    ScopedAttributeDefaults(const ScopedAttributeDefaults&) = delete;
    ScopedAttributeDefaults& operator=(const ScopedAttributeDefaults&) = delete;

  private:
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_saved;
};

/**
 * The text `cfg` gives attribute `name` ("ns3::T::A") for every object of the run: its `rnic` map's,
 * else its `host` map's (both are defaults; rnic is applied last); nullopt when neither sets it.
 */
std::optional<std::string> ScenarioDefault(const ScenarioConfig& cfg, const std::string& name);

/** The defaults in force now for `names` ("ns3::T::A"), as a map ScopedAttributeDefaults restores. */
AttributeMap CurrentDefaults(const std::vector<std::string>& names);

/** The value objects of a run of `cfg` start with: ScenarioDefault, else ns-3's default. */
Ptr<AttributeValue> EffectiveDefault(const ScenarioConfig& cfg, const std::string& name);

/**
 * Set on `object` the entries whose type is the object's TypeId or one of its parents
 * ("ns3::Object::..." applies to anything); the others are skipped.  Returns how many applied.
 */
std::size_t ApplyAttributes(Ptr<Object> object, const AttributeMap& attributes);

} // namespace ns3

#endif // IWARP_SCENARIO_ATTRIBUTES_H
