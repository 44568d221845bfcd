/*
 * Reading a scenario run's transport sockets while they are live: TransportProbe follows each host's
 * sockets from the moment its TransportProfile configures them (the "Applied" trace) and, at the stop
 * time, reads the attributes of every TCP socket of the host (those under an RDMA QP, MPA, and the
 * others: the sockets baseline and the listeners) and of the SCTP sockets under its QPs; on the way it
 * keeps what cannot be read afterwards: the flags and options of the SYNs each host sent, and each
 * connecting socket's first RTO.
 *
 *   RunResult r;
 *   auto hosts = RunProbed(yaml, "tag", &summaryJson, &r);    // host name -> HostSockets
 *   hosts.at("h0").mpa[0]["MinRto"]                            // "+5e+06ns"
 */
#ifndef IWARP_TEST_TRANSPORT_PROBE_H
#define IWARP_TEST_TRANSPORT_PROBE_H

#include "helper/scenario/results-writer.h"

#include "ns3/nstime.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** What one live socket said at the end of the run: attribute -> value as ns-3 serialises it. */
using Reading = std::map<std::string, std::string>;

/** What a SYN (not a SYN-ACK) offered. */
struct Syn
{
    bool ecn{false};           ///< ECE and CWR: an ECN-setup SYN (RFC 3168 §6.1.1)
    bool sackPermitted{false}; ///< the SACK-permitted option (RFC 2018)
    bool timestamps{false};    ///< the timestamps option (RFC 7323)
};

/** The sockets of one host at the end of a run, and what its sockets did on the way. */
struct HostSockets
{
    std::vector<Reading> mpa;   ///< TCP sockets under an RDMA QP (MPA); with "CongestionOps" the TypeId name
                                ///< and, for TcpLinuxCubic, its "HyStart" and "HyStartVariant"
    std::vector<Reading> plain; ///< every other TCP socket: the sockets baseline, listeners
    std::vector<Reading> sctp;  ///< SCTP sockets under an RDMA QP
    std::vector<Time> firstRto; ///< per connecting TCP socket: its first RTO (before any sample)
    std::vector<Syn> syns;      ///< the SYNs the host sent
};

/**
 * Run the scenario `yaml` with the probe into a temporary results folder, removed again; `summary`
 * and `result`, when given, receive its summary.json and RunResult.
 */
std::map<std::string, HostSockets> RunProbed(const std::string& yaml,
                                             const std::string& tag,
                                             nlohmann::json* summary = nullptr,
                                             RunResult* result = nullptr);

} // namespace ns3

#endif // IWARP_TEST_TRANSPORT_PROBE_H
