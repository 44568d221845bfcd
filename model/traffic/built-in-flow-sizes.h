/*
 * The built-in flow-size distributions, one file each with the paper that measured it and where its points
 * were taken from (flow-size-distribution.h lists them).
 */
/**
 * \file
 * \ingroup iwarp-traffic
 */
#ifndef IWARP_BUILT_IN_FLOW_SIZES_H
#define IWARP_BUILT_IN_FLOW_SIZES_H

#include "traffic/flow-size-distribution.h"

namespace ns3
{

FlowSizeDistribution WebSearchFlowSizes();
FlowSizeDistribution DataMiningFlowSizes();
FlowSizeDistribution HadoopFlowSizes();

} // namespace ns3

#endif // IWARP_BUILT_IN_FLOW_SIZES_H
