/*
 * SocketEvents: one set of ns-3 socket callbacks shared by every socket the model's LLPs run on,
 * and a table from each socket to the object that handles it.
 *
 * Why: ns-3's Socket reports through Callbacks, and each Callback bound to an object allocates
 * 200-300 octets (an implementation object, a std::function and a vector of shared components).
 * An MPA connection needs seven of them (receive, send space, two closes, two connect outcomes and
 * TCP's Rx trace), which was 1.5 KiB of every idle queue pair. The callbacks here are made once per
 * process and copied into each socket (a reference count, no allocation); every socket event
 * carries its socket, and the table finds the sink: one entry of about 40 octets per socket.
 *
 * A sink is hooked for as long as it owns the socket and unhooks before it lets go of it
 * (DoDispose); an event for a socket with no sink is a bug and aborts.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_SOCKET_EVENTS_H
#define IWARP_SOCKET_EVENTS_H

#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <cstddef>

namespace ns3
{

class Packet;
class TcpHeader;

/** What an LLP does with its socket's events; each is the ns-3 Socket notification of that name. */
class SocketEventSink
{
  public:
    virtual ~SocketEventSink() = default;
    /** Data is ready to read (Socket::SetRecvCallback). */
    virtual void OnSocketRecv(Ptr<Socket> s) = 0;
    /** `available` octets of send buffer are free (Socket::SetSendCallback). */
    virtual void OnSocketSendSpace(Ptr<Socket> s, uint32_t available) = 0;
    /** The peer closed in order (Socket::SetCloseCallbacks, first). */
    virtual void OnSocketNormalClose(Ptr<Socket> s) = 0;
    /** The connection failed or was reset (Socket::SetCloseCallbacks, second). */
    virtual void OnSocketErrorClose(Ptr<Socket> s) = 0;
    /** Connect succeeded; only for a socket hooked with HookConnect. */
    virtual void OnSocketConnected(Ptr<Socket> s);
    /** Connect failed; only for a socket hooked with HookConnect. */
    virtual void OnSocketConnectFailed(Ptr<Socket> s);
    /** A TCP segment arrived (TcpSocketBase's "Rx" trace); only for a socket hooked with HookTcpRx. */
    virtual void OnTcpSegment(Ptr<const Packet> p, const TcpHeader& h);
};

class SocketEvents
{
  public:
    /** Route `s`'s receive, send-space and close events to `sink` (replacing any sink it had). */
    static void Hook(Ptr<Socket> s, SocketEventSink* sink);
    /** Also its connect outcome (Socket::SetConnectCallback); `s` must be hooked. */
    static void HookConnect(Ptr<Socket> s);
    /** Also TcpSocketBase's "Rx" trace of every segment received; `s` must be a hooked TCP socket. */
    static void HookTcpRx(Ptr<Socket> s);
    /** Take every callback and trace this class set off `s`, and forget its sink. */
    static void Unhook(Ptr<Socket> s);
    /** The sink `s` is hooked to, or null. */
    static SocketEventSink* SinkOf(const Socket* s);
    /** Sockets hooked now in this process (for the tests). */
    static std::size_t HookedCount();
};

} // namespace ns3

#endif // IWARP_SOCKET_EVENTS_H
