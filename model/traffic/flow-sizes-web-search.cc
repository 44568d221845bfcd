/*
 * web-search: the flow sizes of the web-search cluster Alizadeh et al. measured for DCTCP ("Data Center TCP
 * (DCTCP)", SIGCOMM 2010, Figure 4's flow-size distribution of all flows): most flows short, most octets in
 * flows of 1 to 30 MB. By these points the mean is 1.71 MB. The points are those the published traffic generator of HPCC
 * (Li et al., SIGCOMM 2019) carries for this distribution (github.com/alibaba-edu/High-Precision-Congestion-
 * Control, traffic_gen/WebSearch_distribution.txt, in percent), the form later RDMA studies load.
 */
#include "traffic/built-in-flow-sizes.h"

namespace ns3
{

FlowSizeDistribution
WebSearchFlowSizes()
{
    return FlowSizeDistribution(
        "web-search",
        "Alizadeh et al., DCTCP, SIGCOMM 2010 (web search); points of HPCC's traffic_gen/WebSearch_distribution.txt",
        {{0, 0},
         {10000, 0.15},
         {20000, 0.20},
         {30000, 0.30},
         {50000, 0.40},
         {80000, 0.53},
         {200000, 0.60},
         {1000000, 0.70},
         {2000000, 0.80},
         {5000000, 0.90},
         {10000000, 0.97},
         {30000000, 1.0}});
}

} // namespace ns3
