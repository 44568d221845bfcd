/*
 * How a scenario's attribute maps reach the objects of a host, one object at a time and never
 * through ns-3's process-wide defaults (Config::SetDefault), so that two runs in one process (the
 * Python bindings, a sweep, the test runner) cannot leak settings into each other:
 *
 *   - the host model's memory and CPU: HostHelper's factories;
 *   - the RNIC: IwarpHelper's factory; its parts (pipelines, DDP and RDMAP endpoints, QPs, CQs,
 *     MPA connections, SCTP associations, the connection manager): the settings the RNIC keeps and
 *     gives each part as it is made (Rnic::SetPartAttribute);
 *   - TCP and SCTP sockets: the node's TransportProfile, applied to each socket as it is made
 *     (TcpSocketState's EnablePacing and PaceInitialWindow too, through the socket's setters);
 *   - the node's IPv4 stack (Ipv4L3Protocol, TcpL4Protocol, ...): SetAttribute on the objects.
 *
 *   const AttributeMap m = HostAttributes(cfg, "h0");
 *   InstallHostObjects(node, m);                                  // host model, RNIC, IPv4 stack
 *   ConfigureSockets(TransportProfile::Of(node), m);
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_HOST_ATTRIBUTES_H
#define IWARP_SCENARIO_HOST_ATTRIBUTES_H

#include "helper/scenario/scenario-config.h"

#include "transport/transport-profile.h"

#include "ns3/node.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * What a scenario-wide `host:`/`rnic:` attribute reaches (the list above): type names, and the two
 * TcpSocketState attributes by full name.  The loader refuses any other attribute, which would
 * otherwise be ignored without a word.
 */
const std::vector<std::string>& ScenarioWideTypes();

/** Every attribute host `host` of `cfg` gets: `host`, `rnic` over it, its `per-host` maps over those. */
AttributeMap HostAttributes(const ScenarioConfig& cfg, const std::string& host);

/**
 * The RNIC profile host `host` runs when its fastest link carries `linkBps`: its `per-host` one, else the
 * scenario's, else its link class's (RnicProfileForLink); "none": the engine's own defaults.
 */
std::string RnicProfileOf(const ScenarioConfig& cfg, const std::string& host, double linkBps);

/** One point-to-point device of a host: its rate and MTU. */
struct HostLink
{
    double bps;
    uint32_t mtu;
};

/** The point-to-point devices of `node`, in device order. */
std::vector<HostLink> HostLinks(Ptr<Node> node);

/** `node`'s fastest point-to-point device; {0, 0} without one. */
HostLink FastestLink(Ptr<Node> node);

/** A host model and an RNIC on `node` made with `attributes`, which are also set on its IPv4 stack. */
void InstallHostObjects(Ptr<Node> node, const AttributeMap& attributes);

/** Give `profile` the entries of `attributes` for TCP and SCTP sockets. */
void ConfigureSockets(Ptr<TransportProfile> profile, const AttributeMap& attributes);

} // namespace ns3

#endif // IWARP_SCENARIO_HOST_ATTRIBUTES_H
