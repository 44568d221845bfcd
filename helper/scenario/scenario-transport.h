/*
 * The transport settings of a run: each host's TransportSettings (transport-settings.h) with its
 * `auto` buffers sized from the host's paths, given to the host as a TransportProfile
 * (model/transport/transport-profile.h) that every TCP and SCTP socket made on it takes: RDMA's
 * LLP and the sockets baseline alike.  Internal to the ScenarioRunner.
 *
 *   std::vector<HostTransport> used = InstallTransport(cfg, topo);   // before the simulation runs
 *   result.transport = used;                                         // summary.json "transport"
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_TRANSPORT_H
#define IWARP_SCENARIO_TRANSPORT_H

#include "helper/scenario/path-limits.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
#include "helper/topology/topology-builder.h"

#include <vector>

namespace ns3
{

/** `auto` buffers: at least this much (a data-center host's path needs less than it). */
constexpr uint64_t kAutoBufferMin = 256 << 10;
/** `auto` buffers: at most this much (Linux autotunes up to tcp_rmem's maximum, 6 MiB by default; hosts
 *  tuned for long fat paths raise it, commonly to 16 MiB). */
constexpr uint64_t kAutoBufferMax = 16 << 20;

/**
 * The `auto` buffer size of `host`: 4 x the bandwidth-delay product of its longest-RTT path to another
 * host (bottleneck rate x (twice the propagation + one full packet's serialisation per link)), within
 * [kAutoBufferMin, kAutoBufferMax].  A host with no other host keeps kAutoBufferMin.
 */
uint64_t AutoBufferSize(const Paths& paths, const std::string& host);

/** Resolve, size and install every host's settings; returns them as run, in host order. */
std::vector<HostTransport> InstallTransport(const ScenarioConfig& cfg, const BuiltTopology& topo);

} // namespace ns3

#endif // IWARP_SCENARIO_TRANSPORT_H
