#include "sctp-ddp/sctp-ddp-llp-connector.h"

#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket-factory.h"
#include "transport/transport-profile.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpDdpLlpConnector");
NS_OBJECT_ENSURE_REGISTERED(SctpDdpLlpConnector);

namespace
{

/** An Initiate waiting for the ULP: the passive session that answers it. */
class SctpDdpConnectionRequest : public ConnectionRequest
{
  public:
    Ptr<SctpDdpConnection> session;
};

} // namespace

TypeId
SctpDdpLlpConnector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpDdpLlpConnector")
                            .SetParent<LlpConnector>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpDdpLlpConnector>()
                            .AddAttribute("SctpStream", "The stream id of the DDP session a Connect opens",
                                          UintegerValue(1), MakeUintegerAccessor(&SctpDdpLlpConnector::m_stream),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

SctpDdpLlpConnector::SctpDdpLlpConnector() = default;
SctpDdpLlpConnector::~SctpDdpLlpConnector() = default;

void
SctpDdpLlpConnector::DoDispose()
{
    m_listeners.CloseAll();
    for (auto& a : m_assocs)
    {
        a->Dispose();
    }
    m_assocs.clear();
    LlpConnector::DoDispose();
}

Ptr<Socket>
SctpDdpLlpConnector::CreateDdpSocket() const
{
    NS_ABORT_MSG_IF(!GetNode()->GetObject<SctpL4Protocol>(),
                    "ns3::SctpDdpLlpConnector needs SCTP on the node (SctpHelper)");
    Ptr<SctpSocket> s = DynamicCast<SctpSocket>(Socket::CreateSocket(GetNode(), SctpSocketFactory::GetTypeId()));
    TransportProfile::Configure(s); // accepted associations copy a listener's attributes
    SctpDdpAssociation::ConfigureSocket(s, kStreams);
    return s;
}

void
SctpDdpLlpConnector::Listen(uint16_t port, RequestCallback cb)
{
    NS_LOG_FUNCTION(this << port);
    Ptr<Socket> s = CreateDdpSocket();
    m_listeners.Add(s, port, cb);
    s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeCallback(&SctpDdpLlpConnector::OnAssociationAccept, this, port));
}

void
SctpDdpLlpConnector::OnAssociationAccept(uint16_t port, Ptr<Socket> s, const Address& from)
{
    Ptr<SctpDdpAssociation> a = CreateObject<SctpDdpAssociation>();
    ConfigurePart(a);
    a->SetPartCallback(GetPartCallback()); // its sessions get the RNIC's settings too
    m_assocs.push_back(a);
    a->SetInitiateCallback(MakeCallback(&SctpDdpLlpConnector::OnInitiate, this, port, from));
    a->Attach(DynamicCast<SctpSocket>(s)); // aborts an association without the DDP indication
}

void
SctpDdpLlpConnector::OnInitiate(uint16_t port, Address from, Ptr<SctpDdpConnection> c, const std::vector<uint8_t>& pd)
{
    Ptr<SctpDdpConnectionRequest> req = Create<SctpDdpConnectionRequest>();
    req->session = c;
    req->from = from;
    req->port = port;
    req->privateData = pd;
    if (!m_listeners.Deliver(req))
    {
        c->Reject({});
    }
}

Ptr<SctpDdpConnection>
SctpDdpLlpConnector::SessionOf(Ptr<ConnectionRequest> req)
{
    Ptr<SctpDdpConnectionRequest> mine = DynamicCast<SctpDdpConnectionRequest>(req);
    NS_ABORT_MSG_UNLESS(mine, "SctpDdpLlpConnector: the request was made by another LLP connector");
    return mine->session;
}

void
SctpDdpLlpConnector::Accept(Ptr<ConnectionRequest> req, uint16_t, uint16_t, const std::vector<uint8_t>& privateData,
                            StreamCallback stream)
{
    // RFC 5043 carries no IRD/ORD: the ULP may put them in its private data.
    Ptr<SctpDdpConnection> c = SessionOf(req);
    if (!stream.IsNull())
    {
        stream(c);
    }
    c->Accept(privateData);
}

void
SctpDdpLlpConnector::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    SessionOf(req)->Reject(privateData);
}

void
SctpDdpLlpConnector::Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t,
                             uint16_t ord, StreamCallback stream, ConnectCallback done)
{
    NS_LOG_FUNCTION(this << remote);
    Ptr<Socket> s = CreateDdpSocket();
    Ptr<SctpDdpAssociation> a = CreateObject<SctpDdpAssociation>();
    ConfigurePart(a);
    a->SetPartCallback(GetPartCallback()); // its sessions get the RNIC's settings too
    m_assocs.push_back(a);
    a->Open(DynamicCast<SctpSocket>(s), remote,
            MakeCallback(&SctpDdpLlpConnector::OnOpened, this, privateData, ord, stream, done));
}

void
SctpDdpLlpConnector::OnOpened(std::vector<uint8_t> pd, uint16_t ord, StreamCallback stream, ConnectCallback done,
                              Ptr<SctpDdpAssociation> a, bool attached)
{
    Ptr<SctpDdpConnection> c = attached ? a->Connect(m_stream, pd) : nullptr;
    if (!c)
    {
        if (!done.IsNull())
        {
            done(LlpConnectResult{false, {}, ord});
        }
        return;
    }
    c->SetControlCallback(MakeBoundCallback(&SctpDdpLlpConnector::OnControl, done, ord));
    if (!stream.IsNull())
    {
        stream(c);
    }
}

void
SctpDdpLlpConnector::OnControl(ConnectCallback done, uint16_t ord, Ptr<SctpDdpConnection> c, sctpddp::Function f,
                               const std::vector<uint8_t>& pd)
{
    // Only the answer to the Initiate is the outcome; a later Terminate is a stream event for DDP.
    if (f == sctpddp::Function::Initiate)
    {
        return;
    }
    c->SetControlCallback(SctpDdpConnection::ControlCallback()); // told once; `done` is called from its copy
    if (!done.IsNull())
    {
        done(LlpConnectResult{f == sctpddp::Function::Accept, pd, ord}); // Reject / Terminate: refused
    }
}

} // namespace ns3
