/*
 * hadoop: the flow sizes of a Facebook Hadoop cluster Roy et al. measured ("Inside the Social Network's
 * (Datacenter) Network", SIGCOMM 2015, the Hadoop cluster's flow-size distribution): most flows under 1 KB,
 * a tail to 10 MB. By these points the mean is 120 KB. The points are those the published traffic generator
 * of HPCC (Li et al., SIGCOMM 2019) carries for it (github.com/alibaba-edu/High-Precision-Congestion-Control, traffic_gen/FbHdp_distribution.txt,
 * in percent).
 */
#include "traffic/built-in-flow-sizes.h"

namespace ns3
{

FlowSizeDistribution
HadoopFlowSizes()
{
    return FlowSizeDistribution(
        "hadoop",
        "Roy et al., Inside the Social Network's (Datacenter) Network, SIGCOMM 2015 (Hadoop); points of HPCC's "
        "traffic_gen/FbHdp_distribution.txt",
        {{0, 0},
         {100, 0.01},
         {200, 0.02},
         {300, 0.05},
         {350, 0.15},
         {400, 0.20},
         {500, 0.30},
         {600, 0.40},
         {700, 0.50},
         {1000, 0.60},
         {2000, 0.67},
         {7000, 0.70},
         {30000, 0.72},
         {50000, 0.82},
         {80000, 0.87},
         {120000, 0.90},
         {300000, 0.95},
         {1000000, 0.975},
         {2000000, 0.99},
         {10000000, 1.0}});
}

} // namespace ns3
