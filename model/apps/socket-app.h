/*
 * SocketApp: what the sockets baseline applications (SocketPingPong, SocketStream) share, the
 * application side of SocketHostPath: the Role / Remote / Port / Core / RxBacklog / RxReadSize /
 * ZeroCopySend attributes,
 * the TCP socket a client connects or a server listens on, and one SocketHostPath per
 * connection, charged by the node's HostModel when it has one.
 *
 * SocketApp has no TypeId of its own: a subclass registers its TypeId with parent Application
 * (so its attributes, their defaults and its Config paths are all its own), calling
 * AddConnectionAttributes and AddHostAttributes where those belong in its attribute list, and
 * says what happens on a connection: ClientConnected (client, m_path is set) and
 * ServerAccepted (server, once per accepted connection).
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_SOCKET_APP_H
#define IWARP_SOCKET_APP_H

#include "apps/socket-host-path.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

class SocketApp : public Application
{
  public:
    /** The client's TCP socket, once it has asked to connect. */
    typedef void (*SocketTracedCallback)(Ptr<Socket> socket);

  protected:
    /** A client of no one yet, whose server would listen on `port` (the Port default). */
    explicit SocketApp(uint16_t port);

    /** Adds Role (described by `roleHelp`), Remote and Port (default `port`), and the Socket trace, to `tid`. */
    static void AddConnectionAttributes(TypeId& tid, const std::string& roleHelp, uint16_t port);
    /** Adds Core, RxBacklog, RxReadSize and ZeroCopySend to `tid`. */
    static void AddHostAttributes(TypeId& tid);

    /** The node's HostModel (null: uncharged) and a TCP socket; connects or listens. */
    void StartApplication() override;
    /** Detaches every path OpenPath made (the application's callbacks go with them). */
    void DoDispose() override;

    /** A SocketHostPath for connected socket `s`, on Core, with RxBacklog. */
    Ptr<SocketHostPath> OpenPath(Ptr<Socket> s);

    /** Client: connected, m_path is the connection's path. */
    virtual void ClientConnected() = 0;
    /** Client: the connection to m_remote failed. */
    virtual void OnConnectFailed(Ptr<Socket> s) = 0;
    /** Server: accepted connection `key`, whose path is `path` (no callbacks set yet). */
    virtual void ServerAccepted(Socket* key, Ptr<SocketHostPath> path) = 0;

    SocketAppRole m_role;
    Address m_remote;
    uint16_t m_port;
    int32_t m_core;
    uint32_t m_rxLimit{0};
    uint32_t m_readSize{65536};
    bool m_zeroCopySend{false};

    Ptr<Socket> m_socket; ///< client's connection, or server's listening socket
    Ptr<SocketHostPath> m_path; ///< client's connection path
    Ptr<HostModel> m_host;
    bool m_running{false};
    TracedCallback<Ptr<Socket>> m_socketTrace;

  private:
    std::vector<Ptr<SocketHostPath>> m_paths; ///< every path OpenPath made, client's and server's

    void OnConnected(Ptr<Socket> s);
    void OnAccept(Ptr<Socket> s, const Address& from);
};

} // namespace ns3

#endif // IWARP_SOCKET_APP_H
