/*
 * The keys of each scenario section but `workloads` (each kind declares its own: workloads/) and
 * `transport` (transport-keys.h), declared once per section (section-keys.h), in the order the docs list
 * them. The schema (scenario-schema.cc) is assembled from these nodes; the reader reads each section
 * through its list; `iwarp-sim keys` prints their tables and the JSON Schema.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SECTIONS_H
#define IWARP_SCENARIO_SECTIONS_H

#include "helper/scenario/scenario-config.h"
#include "helper/scenario/section-keys.h"

namespace ns3
{
namespace scenario
{

/** The scalar node every value key points at, and the lists and dictionaries of values. */
const SchemaNode& ScalarNode();
const SchemaNode& ScalarListNode();
const SchemaNode& AttributesNode();

/** The top level (the run's own keys, and the sections, which their readers read). */
const std::vector<SectionKey<ScenarioConfig>>& TopLevelKeys();

const std::vector<SectionKey<TopologyConfig>>& TopologyKeys();
const SchemaNode& TopologyNode();
/** The topology kinds by name ("two-hosts", ...). */
const Names<TopologyKind>& TopologyKindNames();

/** `topology.pfc`. */
const std::vector<SectionKey<PfcConfig>>& PfcKeys();
const SchemaNode& PfcNode();

/** `links`, `topology.bottleneck`; a `per-link` entry adds `between`. */
const std::vector<SectionKey<LinkConfig>>& LinkKeys();
const SchemaNode& LinkNode();
const SchemaNode& PerLinkNode();
/** `queue-disc` and the host NIC's keys (`host-nic`, `per-host.<host>.nic`). */
const SchemaNode& QueueDiscNode();
const std::vector<SectionKey<RedSpec>>& RedKeys();
const SchemaNode& RedNode();
/** CoDel's keys; FQ-CoDel's (`fq`) add `flows` and mark ECN by default. */
const std::vector<SectionKey<CoDelSpec>>& CoDelKeys(bool fq);
const SchemaNode& CoDelNode(bool fq);
const SchemaNode& NicNode();
const SchemaNode& PerHostNode();

const std::vector<SectionKey<TracingConfig>>& TracingKeys();
const SchemaNode& TracingNode();
const std::vector<SectionKey<MeasureWindow>>& MeasureKeys();
const SchemaNode& MeasureNode();

/** `events`: one entry's keys, the list, and the words of its choices. */
const std::vector<SectionKey<LinkEventConfig>>& EventKeys();
const SchemaNode& EventsNode();
const Names<LinkEventAction>& LinkEventActionNames();
const Names<LinkDirection>& LinkDirectionNames();

} // namespace scenario
} // namespace ns3

#endif // IWARP_SCENARIO_SECTIONS_H
