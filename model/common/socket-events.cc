/*
 * SocketEvents: see socket-events.h.
 */
#include "common/socket-events.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"

#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketEvents");

namespace
{

std::unordered_map<const Socket*, SocketEventSink*>&
Table()
{
    static std::unordered_map<const Socket*, SocketEventSink*> table;
    return table;
}

SocketEventSink*
Sink(const Socket* s)
{
    SocketEventSink* sink = SocketEvents::SinkOf(s);
    NS_ABORT_MSG_UNLESS(sink, "SocketEvents: an event for socket " << s << ", which no sink is hooked to");
    return sink;
}

void
Recv(Ptr<Socket> s)
{
    Sink(PeekPointer(s))->OnSocketRecv(s);
}

void
SendSpace(Ptr<Socket> s, uint32_t available)
{
    Sink(PeekPointer(s))->OnSocketSendSpace(s, available);
}

void
NormalClose(Ptr<Socket> s)
{
    Sink(PeekPointer(s))->OnSocketNormalClose(s);
}

void
ErrorClose(Ptr<Socket> s)
{
    Sink(PeekPointer(s))->OnSocketErrorClose(s);
}

void
Connected(Ptr<Socket> s)
{
    Sink(PeekPointer(s))->OnSocketConnected(s);
}

void
ConnectFailed(Ptr<Socket> s)
{
    Sink(PeekPointer(s))->OnSocketConnectFailed(s);
}

void
TcpRx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s)
{
    Sink(PeekPointer(s))->OnTcpSegment(p, h);
}

/** The callbacks, made once: every socket holds a reference to these same implementations. */
struct Shared
{
    Callback<void, Ptr<Socket>> recv = MakeCallback(&Recv);
    Callback<void, Ptr<Socket>, uint32_t> sendSpace = MakeCallback(&SendSpace);
    Callback<void, Ptr<Socket>> normalClose = MakeCallback(&NormalClose);
    Callback<void, Ptr<Socket>> errorClose = MakeCallback(&ErrorClose);
    Callback<void, Ptr<Socket>> connected = MakeCallback(&Connected);
    Callback<void, Ptr<Socket>> connectFailed = MakeCallback(&ConnectFailed);
    Callback<void, Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>> tcpRx = MakeCallback(&TcpRx);
};

const Shared&
Callbacks()
{
    static const Shared shared;
    return shared;
}

} // namespace

void
SocketEventSink::OnSocketConnected(Ptr<Socket> s)
{
    NS_ABORT_MSG("SocketEvents: a connect outcome for socket " << s << ", whose sink did not ask for it");
}

void
SocketEventSink::OnSocketConnectFailed(Ptr<Socket> s)
{
    NS_ABORT_MSG("SocketEvents: a connect outcome for socket " << s << ", whose sink did not ask for it");
}

void
SocketEventSink::OnTcpSegment(Ptr<const Packet>, const TcpHeader&)
{
    NS_ABORT_MSG("SocketEvents: a TCP segment trace whose sink did not ask for it");
}

void
SocketEvents::Hook(Ptr<Socket> s, SocketEventSink* sink)
{
    NS_ABORT_MSG_UNLESS(s && sink, "SocketEvents::Hook needs a socket and a sink");
    Table()[PeekPointer(s)] = sink;
    const Shared& cb = Callbacks();
    s->SetRecvCallback(cb.recv);
    s->SetSendCallback(cb.sendSpace);
    s->SetCloseCallbacks(cb.normalClose, cb.errorClose);
}

void
SocketEvents::HookConnect(Ptr<Socket> s)
{
    NS_ABORT_MSG_UNLESS(SinkOf(PeekPointer(s)), "SocketEvents::HookConnect: the socket is not hooked");
    s->SetConnectCallback(Callbacks().connected, Callbacks().connectFailed);
}

void
SocketEvents::HookTcpRx(Ptr<Socket> s)
{
    NS_ABORT_MSG_UNLESS(SinkOf(PeekPointer(s)), "SocketEvents::HookTcpRx: the socket is not hooked");
    NS_ABORT_MSG_UNLESS(DynamicCast<TcpSocketBase>(s), "SocketEvents::HookTcpRx: not a TCP socket");
    s->TraceConnectWithoutContext("Rx", Callbacks().tcpRx);
}

void
SocketEvents::Unhook(Ptr<Socket> s)
{
    if (Table().erase(PeekPointer(s)) == 0)
    {
        return;
    }
    s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(), MakeNullCallback<void, Ptr<Socket>>());
    s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(), MakeNullCallback<void, Ptr<Socket>>());
    if (DynamicCast<TcpSocketBase>(s))
    {
        s->TraceDisconnectWithoutContext("Rx", Callbacks().tcpRx);
    }
}

SocketEventSink*
SocketEvents::SinkOf(const Socket* s)
{
    const auto it = Table().find(s);
    return it == Table().end() ? nullptr : it->second;
}

std::size_t
SocketEvents::HookedCount()
{
    return Table().size();
}

} // namespace ns3
