/*
 * SctpSocketFactory; see sctp-socket-factory.h.
 */
#include "sctp/sctp-socket-factory.h"

#include "sctp/sctp-l4-protocol.h"

#include "ns3/socket.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpSocketFactory);

TypeId
SctpSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpSocketFactory").SetParent<SocketFactory>().SetGroupName("Iwarp");
    return tid;
}

Ptr<Socket>
SctpSocketFactory::CreateSocket()
{
    return m_sctp->CreateSocket();
}

void
SctpSocketFactory::DoDispose()
{
    m_sctp = nullptr;
    SocketFactory::DoDispose();
}

} // namespace ns3
