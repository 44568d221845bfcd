/*
 * SctpHelper: puts the SCTP model on nodes that already have ns-3's InternetStack (IPv4): an SctpL4Protocol
 * registered with Ipv4L3Protocol for protocol 132 and an SctpSocketFactory, so that
 * Socket::CreateSocket(node, SctpSocketFactory::GetTypeId()) returns an SctpSocket.
 *
 * Socket attributes set with SetSocketAttribute are the helper's own, never ns-3 defaults: Install
 * gives them to each node's TransportProfile (aggregated if the node has none), which applies them
 * to every SCTP socket made on the node, the RNIC's associations and CreateSocket's alike.
 *
 *   SctpHelper sctp;
 *   sctp.SetSocketAttribute("Pmtu", UintegerValue(1500));
 *   sctp.Install(nodes);
 *   Ptr<Socket> s = SctpHelper::CreateSocket(nodes.Get(0)); // Pmtu 1500
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_SCTP_HELPER_H
#define IWARP_SCTP_HELPER_H

#include "common/attribute-set.h"

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
    /** An attribute of ns3::SctpSocket for every SCTP socket on the nodes this helper installs on afterwards. */
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);
    /** A new SctpSocket on `node` (which must have SCTP installed), with the node's TransportProfile applied. */
    static Ptr<Socket> CreateSocket(Ptr<Node> node);

  private:
    AttributeSet m_socket;
};

} // namespace ns3

#endif // IWARP_SCTP_HELPER_H
