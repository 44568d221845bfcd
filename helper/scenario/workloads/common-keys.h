/*
 * The workload keys that several kinds share, described once: a kind's file lists the ones it
 * takes (workload-kind.h).  Kind-specific keys are described in the kind's own file.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_WORKLOAD_COMMON_KEYS_H
#define IWARP_WORKLOAD_COMMON_KEYS_H

#include "helper/scenario/workloads/workload-kind.h"

namespace ns3
{
namespace workloadkeys
{

WorkloadKey Start();
WorkloadKey From();
WorkloadKey To();
WorkloadKey Op(const std::string& allowed);
WorkloadKey Size();
WorkloadKey Sizes();
WorkloadKey Count();
WorkloadKey Duration();
WorkloadKey Outstanding();
WorkloadKey LlpKey();
WorkloadKey Payload();

/** The keys of an RDMA kind that streams from one initiator: start..payload. */
std::vector<WorkloadKey> RdmaStreamKeys(const std::string& ops);

} // namespace workloadkeys
} // namespace ns3

#endif // IWARP_WORKLOAD_COMMON_KEYS_H
