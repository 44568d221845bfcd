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

#include <yaml-cpp/yaml.h>

#include <optional>
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

/** Where a message of `w` is delivered at its data sink (doc/metrics.md, "Delivered at the data sink"). */
enum class DeliveryPoint
{
    Placement,         ///< an RDMA Write: DDP delivers it at the responder
    ReceiveCompletion, ///< a Send: its receive completes at the responder
    RequesterCompletion, ///< an RDMA Read: it completes at the requester, where the data lands
    Application,       ///< the sockets baseline (and injections): the applications say
};

DeliveryPoint DeliveryPointOf(const WorkloadConfig& w);

/**
 * The data flows of `w`: one per sender into `to` for a kind with many senders, one per ordered pair of
 * `hosts` for a host group (traffic), none for an injection (its segments are not a workload's data), and
 * otherwise one, reversed for a Read (DataFlowsBack).
 */
std::vector<DataFlow> DataFlowsOf(const WorkloadConfig& w);

/** The host where `w`'s data is placed and delivered, for a kind with one sender (`from`). */
const std::string& DataSinkOf(const WorkloadConfig& w);

/**
 * A connection a workload may open: its initiator (client), its responder (server), and the key of the
 * workload's entry that names the initiator, for messages: `to` (one initiator, `from`), `senders` or `hosts`
 * with the index in that list.
 */
struct WorkloadConnection
{
    std::string initiator;
    std::string responder;
    std::string key;
    std::optional<std::size_t> index;
};

/**
 * Every connection `w` may open: `from` to `to`, each sender to `to` (incast), every ordered pair of `hosts`
 * (a host group: which pairs a run uses, its draws decide), none for an injection (it rides on another's).
 */
std::vector<WorkloadConnection> ConnectionsOf(const WorkloadConfig& w);

/** Where a workload's entry names something, for messages: the node and its key path. */
struct WorkloadKeyAt
{
    YAML::Node node;
    std::string path;
};

/**
 * The key of workload entry `entry` (at `path`) that names connection `c`'s initiator; the entry itself when
 * the file leaves the key out (a host group's `hosts`, all hosts by default).
 */
WorkloadKeyAt KeyOfConnection(const YAML::Node& entry, const std::string& path, const WorkloadConnection& c);

/** The hosts `w`'s connections join, each once, in the order its keys name them. */
std::vector<std::string> HostsOf(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_SCENARIO_DATA_FLOWS_H
