/*
 * SctpSocketFactory: what Socket::CreateSocket(node, SctpSocketFactory::GetTypeId()) finds aggregated to a
 * node; it asks the node's SctpL4Protocol for a socket. Installed by SctpHelper.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_SOCKET_FACTORY_H
#define IWARP_SCTP_SOCKET_FACTORY_H

#include "ns3/socket-factory.h"

namespace ns3
{

class SctpL4Protocol;

class SctpSocketFactory : public SocketFactory
{
  public:
    static TypeId GetTypeId();
    void SetSctp(Ptr<SctpL4Protocol> sctp) { m_sctp = sctp; }
    Ptr<Socket> CreateSocket() override;

  protected:
    void DoDispose() override;

  private:
    Ptr<SctpL4Protocol> m_sctp;
};

} // namespace ns3

#endif // IWARP_SCTP_SOCKET_FACTORY_H
