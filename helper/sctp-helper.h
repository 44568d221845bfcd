/*
 * SctpHelper: puts the SCTP model on nodes that already have ns-3's InternetStack (IPv4): an SctpL4Protocol
 * registered with Ipv4L3Protocol for protocol 132 and an SctpSocketFactory, so that
 * Socket::CreateSocket(node, SctpSocketFactory::GetTypeId()) returns an SctpSocket.
 * Socket attributes are set with SetSocketAttribute (ns3::SctpSocket defaults, via Config::SetDefault).
 */
#ifndef IWARP_SCTP_HELPER_H
#define IWARP_SCTP_HELPER_H

#include "ns3/node-container.h"
#include "ns3/socket.h"

#include <string>

namespace ns3
{

class SctpL4Protocol;

class SctpHelper
{
  public:
    /** Installs on every node; a node without Ipv4 is an error (aborts), one with SCTP already is skipped. */
    void Install(NodeContainer nodes) const;
    void Install(Ptr<Node> node) const;
    /** Sets a default for every SctpSocket created afterwards (Config::SetDefault on ns3::SctpSocket). */
    static void SetSocketAttribute(const std::string& name, const AttributeValue& value);
    /** A new SctpSocket on `node` (which must have SCTP installed). */
    static Ptr<Socket> CreateSocket(Ptr<Node> node);
};

} // namespace ns3

#endif // IWARP_SCTP_HELPER_H
