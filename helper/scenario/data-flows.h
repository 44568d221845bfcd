/*
 * Which way a workload's data flows: the one statement of that rule. The runner follows each flow's sink
 * (scenario-workloads.cc, scenario-workload-probes.cc), the physics checks bound each flow's path
 * (physics-checks.cc), and summary.json lists the flows (`data_flows`), which the Python sweep reads
 * rather than working the direction out again (doc/metrics.md, "Per workload").
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_DATA_FLOWS_H
#define IWARP_SCENARIO_DATA_FLOWS_H

#include "helper/scenario/scenario-config.h"

#include <string>
#include <vector>

namespace ns3
{

/** One flow of a workload's data: the host whose application sends the payload, the host it is placed at. */
struct DataFlow
{
    std::string source;
    std::string sink;
};

/**
 * Whether `w`'s data flows from its target (`to`) back to its initiator (`from`): an RDMA Read, whose
 * Read Responses carry the data to the requester (kind read, or a stream with op read).
 */
bool DataFlowsBack(const WorkloadConfig& w);

/**
 * The data flows of `w`: one per sender into `to` for a kind with many senders, none for an injection
 * (its segments are not a workload's data), and otherwise one, reversed for a Read (DataFlowsBack).
 */
std::vector<DataFlow> DataFlowsOf(const WorkloadConfig& w);

/** The host where `w`'s data is placed and delivered, for a kind with one sender (`from`). */
const std::string& DataSinkOf(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_SCENARIO_DATA_FLOWS_H
