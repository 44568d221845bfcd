/*
 * Shared by the two topology-builder suites (topology-builder-test-suite.cc,
 * topology-builder-ecmp-test-suite.cc): BuildKind, a topology of one kind with the spec's
 * defaults, changed by an optional tweak.
 */
#ifndef IWARP_TOPOLOGY_BUILDER_TEST_UTIL_H
#define IWARP_TOPOLOGY_BUILDER_TEST_UTIL_H

#include "helper/topology/topology-builder.h"

#include <functional>

namespace ns3
{
namespace topotest
{

inline BuiltTopology
BuildKind(TopologyKind kind, std::function<void(TopologySpec&)> tweak = nullptr)
{
    TopologySpec spec;
    spec.kind = kind;
    if (tweak)
    {
        tweak(spec);
    }
    return TopologyBuilder::Build(spec);
}

} // namespace topotest
} // namespace ns3

#endif // IWARP_TOPOLOGY_BUILDER_TEST_UTIL_H
