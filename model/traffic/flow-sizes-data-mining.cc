/*
 * data-mining: the flow sizes of the data-mining cluster Greenberg et al. measured for VL2 ("VL2: A Scalable
 * and Flexible Data Center Network", SIGCOMM 2009, Figure 2): half the flows under about 1 KB, and nearly all
 * octets in the 2 % of flows above 100 MB, up to 1 GB. By these points the mean is 12.7 MB. The
 * points are those of the traffic generator of HKUST's SING group that CONGA-style load-balancing studies use
 * (github.com/HKUST-SING/TrafficGenerator, conf/VL2_CDF.txt).
 */
#include "traffic/built-in-flow-sizes.h"

namespace ns3
{

FlowSizeDistribution
DataMiningFlowSizes()
{
    return FlowSizeDistribution(
        "data-mining",
        "Greenberg et al., VL2, SIGCOMM 2009 (data mining); points of HKUST-SING TrafficGenerator conf/VL2_CDF.txt",
        {{0, 0},
         {180, 0.1},
         {216, 0.2},
         {560, 0.3},
         {900, 0.4},
         {1100, 0.5},
         {1870, 0.6},
         {3160, 0.7},
         {10000, 0.8},
         {400000, 0.9},
         {3160000, 0.95},
         {100000000, 0.98},
         {1000000000, 1.0}});
}

} // namespace ns3
