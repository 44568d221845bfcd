/*
 * LlpListeners: an LlpConnector's listening sockets and the ULP's request callback for each port,
 * shared by the connectors so that each one only turns its own transport's arrivals into requests.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_LLP_LISTENERS_H
#define IWARP_LLP_LISTENERS_H

#include "ddp/llp-connector.h"

#include "ns3/socket.h"

#include <map>

namespace ns3
{

class LlpListeners
{
  public:
    /** Bind `s` to `port` on any address, listen, and keep `cb` for its requests (aborts if the port is taken). */
    void Add(Ptr<Socket> s, uint16_t port, LlpConnector::RequestCallback cb);
    /** Hand `req` to the callback of its port; false when there is none: the connector refuses it. */
    bool Deliver(Ptr<ConnectionRequest> req) const;
    /** Close every listening socket and forget the callbacks. */
    void CloseAll();

  private:
    std::map<uint16_t, Ptr<Socket>> m_sockets;
    std::map<uint16_t, LlpConnector::RequestCallback> m_callbacks;
};

} // namespace ns3

#endif // IWARP_LLP_LISTENERS_H
