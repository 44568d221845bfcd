/*
 * The ports a scenario's workloads listen on, planned before anything runs.
 *
 * Each workload's server listens on its own port(s) of the node it serves from (`to`): a
 * ping-pong one per size (each size runs on a connection of its own), an inject none, every
 * other kind one.  Ports are given out per node, consecutively from kFirstListeningPort, and stay
 * below the ephemeral range ns-3 3.37 gives connecting sockets (Ipv4EndPointDemux: 49152-65535),
 * so a listening port never equals a client's port.  The reader refuses a scenario whose node would
 * need more ports.  Which workload a connection belongs to is not read from its ports: the
 * application that made it says (an RDMA application's QueuePair trace, a sockets client's Socket
 * trace).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_LISTENING_PORTS_H
#define IWARP_SCENARIO_LISTENING_PORTS_H

#include "helper/scenario/scenario-config.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

constexpr uint16_t kFirstListeningPort = 20000;
constexpr uint16_t kLastListeningPort = 49151;
constexpr std::size_t kListeningPortsPerNode = kLastListeningPort - kFirstListeningPort + 1;

/** How many ports workload `w` listens on. */
std::size_t ListeningPortsOf(const WorkloadConfig& w);

/** Where each workload listens: the first of its ListeningPortsOf consecutive ports on `to`. */
struct ListeningPortPlan
{
    std::vector<uint16_t> firstPort;       ///< per workload, in scenario order; 0 when it listens on none
    std::optional<std::size_t> overflowAt; ///< the first workload that found its node's ports used up
    std::size_t portsOnNode{0};            ///< at overflowAt: the ports its node would need with it
    std::string node;                      ///< at overflowAt: that node
};

ListeningPortPlan PlanListeningPorts(const std::vector<WorkloadConfig>& workloads);

/** The error for a plan that overflowed at workload `w` (its overflowAt). */
std::string ListeningPortsExhausted(const ListeningPortPlan& plan);
/** The nodes `w` listens on: `to`, or every host of a host group (on one port). */
std::vector<std::string> ListeningNodesOf(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_SCENARIO_LISTENING_PORTS_H
