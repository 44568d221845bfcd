/*
 * The RDMA transports an RNIC can run, each as the pair that works together: the RdmaTransport every queue
 * pair runs over and the LlpConnector that sets its streams up. A queue pair's transport is the one its
 * connection manager's connector pairs with (Rnic::CreateQp), and a connector with no pair is refused
 * (ConnectionManager::LlpConnector), so a queue pair over one transport bound to another's stream cannot be
 * built. The built-in pairs are iWARP over MPA/TCP and over SCTP (RFC 5043); a program adds its own with
 * RegisterRdmaTransportKind (the test runner's loopback transport does).
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_RDMA_TRANSPORT_KINDS_H
#define IWARP_RDMA_TRANSPORT_KINDS_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

struct RdmaTransportKind
{
    std::string name;  ///< "iwarp-mpa", "iwarp-sctp"
    TypeId transport;  ///< an ns3::RdmaTransport
    TypeId connector;  ///< an ns3::LlpConnector
};

/** Every pair: the built-in ones, then those registered. */
const std::vector<RdmaTransportKind>& RdmaTransportKinds();

/**
 * Add a pair. Throws std::invalid_argument for an empty or taken name, a connector already paired, or a
 * transport or connector of the wrong base type or with no constructor. Not thread-safe: register before
 * making RNICs.
 */
void RegisterRdmaTransportKind(const RdmaTransportKind& kind);

/** The pair whose connector is `connector`, or null. */
const RdmaTransportKind* RdmaTransportKindOfConnector(TypeId connector);

/** The pair called `name`, or null. */
const RdmaTransportKind* FindRdmaTransportKind(const std::string& name);

} // namespace ns3

#endif // IWARP_RDMA_TRANSPORT_KINDS_H
