#include "mpa/mpa-llp-connector.h"

#include "mpa/mpa-connection.h"
#include "transport/transport-profile.h"

#include "ns3/log.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpaLlpConnector");
NS_OBJECT_ENSURE_REGISTERED(MpaLlpConnector);

namespace
{

/** A Request waiting for the ULP: the responder MpaConnection that holds it. */
class MpaConnectionRequest : public ConnectionRequest
{
  public:
    Ptr<MpaConnection> mpa;
};

} // namespace

TypeId
MpaLlpConnector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MpaLlpConnector")
                            .SetParent<LlpConnector>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<MpaLlpConnector>();
    return tid;
}

MpaLlpConnector::MpaLlpConnector() = default;
MpaLlpConnector::~MpaLlpConnector() = default;

void
MpaLlpConnector::DoDispose()
{
    m_listeners.CloseAll();
    for (auto& c : m_connections)
    {
        c->Dispose();
    }
    m_connections.clear();
    LlpConnector::DoDispose();
}

void
MpaLlpConnector::Listen(uint16_t port, RequestCallback cb)
{
    NS_LOG_FUNCTION(this << port);
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(s); // accepted connections fork this listener, settings included
    m_listeners.Add(s, port, cb);
    s->SetAcceptCallback(MakeCallback(&MpaLlpConnector::OnTcpRequest, this),
                         MakeCallback(&MpaLlpConnector::OnTcpAccept, this, port));
}

void
MpaLlpConnector::OnTcpAccept(uint16_t port, Ptr<Socket> s, const Address& from)
{
    Ptr<MpaConnection> c = CreateObject<MpaConnection>();
    ConfigurePart(c);
    m_connections.push_back(c);
    c->SetRequestCallback(MakeCallback(&MpaLlpConnector::OnMpaRequest, this, port, from));
    c->StartResponder(s);
}

void
MpaLlpConnector::OnMpaRequest(uint16_t port, Address from, Ptr<MpaConnection> c, const MpaSetupFrame& f)
{
    Ptr<MpaConnectionRequest> req = Create<MpaConnectionRequest>();
    req->mpa = c;
    req->from = from;
    req->port = port;
    req->privateData = f.GetPrivateData();
    // IRD/ORD words travel only in an enhanced Rev 2 Request (RFC 6581).
    req->peerIrdKnown = f.GetRev() == iwarp::kMpaRev2 && f.IsEnhanced();
    req->peerIrd = f.GetIrd();
    req->peerOrd = f.GetOrd();
    if (!m_listeners.Deliver(req))
    {
        c->Reject({});
    }
}

Ptr<MpaConnection>
MpaLlpConnector::ConnectionOf(Ptr<ConnectionRequest> req)
{
    Ptr<MpaConnectionRequest> mine = DynamicCast<MpaConnectionRequest>(req);
    NS_ABORT_MSG_UNLESS(mine, "MpaLlpConnector: the request was made by another LLP connector");
    return mine->mpa;
}

void
MpaLlpConnector::Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord,
                        const std::vector<uint8_t>& privateData, StreamCallback stream)
{
    Ptr<MpaConnection> c = ConnectionOf(req);
    c->SetIrdOrd(ird, ord);
    if (!stream.IsNull())
    {
        stream(c);
    }
    c->Accept(privateData);
}

void
MpaLlpConnector::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    ConnectionOf(req)->Reject(privateData);
}

void
MpaLlpConnector::Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird,
                         uint16_t ord, StreamCallback stream, ConnectCallback done)
{
    NS_LOG_FUNCTION(this << remote);
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(s);
    Ptr<MpaConnection> c = CreateObject<MpaConnection>();
    ConfigurePart(c);
    m_connections.push_back(c);
    c->SetIrdOrd(ird, ord);
    c->SetReplyCallback(MakeBoundCallback(&MpaLlpConnector::OnReply, done));
    c->SetSetupFailedCallback(MakeBoundCallback(&MpaLlpConnector::OnSetupFailed, done, ord));
    if (!stream.IsNull())
    {
        stream(c);
    }
    c->StartInitiator(s, privateData);
    s->Connect(remote);
}

void
MpaLlpConnector::OnReply(ConnectCallback done, Ptr<MpaConnection> c, const MpaSetupFrame& f)
{
    if (!done.IsNull())
    {
        done(LlpConnectResult{!f.GetReject(), f.GetPrivateData(), c->GetOrd()});
    }
}

void
MpaLlpConnector::OnSetupFailed(ConnectCallback done, uint16_t ord, Ptr<MpaConnection>, iwarp::ErrorCause)
{
    if (!done.IsNull())
    {
        done(LlpConnectResult{false, {}, ord});
    }
}

} // namespace ns3
