/*
 * The built-in workload kinds, one function per kind, each in the file of its name in this
 * folder.  WorkloadKinds() (registry.cc) lists them in their documented order.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_WORKLOAD_BUILT_IN_KINDS_H
#define IWARP_WORKLOAD_BUILT_IN_KINDS_H

#include "helper/scenario/workloads/workload-kind.h"

namespace ns3
{

WorkloadKindInfo PingPongKind();
WorkloadKindInfo StreamKind();
WorkloadKindInfo ReadKind();
WorkloadKindInfo SocketsStreamKind();
WorkloadKindInfo SocketsPingPongKind();
WorkloadKindInfo IncastKind();
WorkloadKindInfo InjectKind();
WorkloadKindInfo TrafficKind();
WorkloadKindInfo SocketsTrafficKind();
WorkloadKindInfo CollectiveKind();

} // namespace ns3

#endif // IWARP_WORKLOAD_BUILT_IN_KINDS_H
