/*
 * SctpHelper; see sctp-helper.h.
 */
#include "helper/sctp-helper.h"

#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket-factory.h"
#include "sctp/sctp-socket.h"
#include "transport/transport-profile.h"

#include "ns3/abort.h"
#include "ns3/ipv4.h"

namespace ns3
{

void
SctpHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
SctpHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(node->GetObject<Ipv4>() == nullptr, "SctpHelper: install the InternetStack first");
    if (!m_socket.IsEmpty())
    {
        TransportProfile::Of(node)->AddSocketAttributes(m_socket);
    }
    if (node->GetObject<SctpL4Protocol>() != nullptr)
    {
        return;
    }
    Ptr<SctpL4Protocol> sctp = CreateObject<SctpL4Protocol>();
    node->AggregateObject(sctp); // NotifyNewAggregate registers it with Ipv4L3Protocol
    Ptr<SctpSocketFactory> f = CreateObject<SctpSocketFactory>();
    f->SetSctp(sctp);
    node->AggregateObject(f);
}

void
SctpHelper::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socket.Set(SctpSocket::GetTypeId(), name, value); // checked here, where the setting is made
}

Ptr<Socket>
SctpHelper::CreateSocket(Ptr<Node> node)
{
    Ptr<Socket> s = Socket::CreateSocket(node, SctpSocketFactory::GetTypeId());
    TransportProfile::Configure(s);
    return s;
}

} // namespace ns3
