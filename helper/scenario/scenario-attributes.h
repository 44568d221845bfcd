/*
 * Reading a scenario's attribute maps (`host`, `rnic`, `per-host`) and applying them to ns-3 objects
 * by name, one object at a time (host-attributes.h says which objects; nothing here changes ns-3's
 * process-wide defaults).  The loader has already checked every name and value against the TypeId
 * registry, so failures here are programming errors of the runner, not of the scenario.
 *
 *   ApplyAttributes(node->GetObject<Ipv4L3Protocol>(), HostAttributes(cfg, "h3"));
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_ATTRIBUTES_H
#define IWARP_SCENARIO_ATTRIBUTES_H

#include "helper/scenario/scenario-config.h"

#include "ns3/object.h"

#include <optional>
#include <string>

namespace ns3
{

/**
 * The text `cfg` gives attribute `name` ("ns3::T::A") for every host of the run: its `rnic` map's,
 * else its `host` map's (rnic is applied over host); nullopt when neither sets it.
 */
std::optional<std::string> ScenarioDefault(const ScenarioConfig& cfg, const std::string& name);

/** The value objects of a run of `cfg` start with: ScenarioDefault, else ns-3's default. */
Ptr<AttributeValue> EffectiveDefault(const ScenarioConfig& cfg, const std::string& name);

/**
 * Set on `object` the entries whose type is the object's TypeId or one of its parents
 * ("ns3::Object::..." applies to anything); the others are skipped.  Returns how many applied.
 */
std::size_t ApplyAttributes(Ptr<Object> object, const AttributeMap& attributes);

} // namespace ns3

#endif // IWARP_SCENARIO_ATTRIBUTES_H
