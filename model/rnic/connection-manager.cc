#include "rnic/connection-manager.h"

#include "rnic/iwarp-transport.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket-factory.h"
#include "transport/transport-profile.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConnectionManager");
NS_OBJECT_ENSURE_REGISTERED(ConnectionManager);

namespace
{

/** IRD and ORD live in RDMAP: the connections made here (MPA, SCTP) carry iWARP queue pairs only. */
Ptr<RdmapEndpoint>
RdmapOf(Ptr<QueuePair> qp)
{
    return IwarpTransport::Of(qp, "the connection manager")->GetRdmap();
}

} // namespace

TypeId
ConnectionManager::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ConnectionManager")
                            .SetParent<Object>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<ConnectionManager>()
                            .AddAttribute("Llp", "The LLP under DDP: MPA over TCP, or SCTP (RFC 5043)",
                                          EnumValue(LLP_MPA), MakeEnumAccessor(&ConnectionManager::m_llp),
                                          MakeEnumChecker(LLP_MPA, "Mpa", LLP_SCTP, "Sctp"))
                            .AddAttribute("SctpStream", "SCTP: the stream id of the DDP session a Connect opens",
                                          UintegerValue(1), MakeUintegerAccessor(&ConnectionManager::m_sctpStream),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

ConnectionManager::ConnectionManager() = default;

void
ConnectionManager::DoDispose()
{
    for (auto& [port, s] : m_listeners)
    {
        s->Close();
    }
    m_listeners.clear();
    m_requestCbs.clear();
    for (auto& c : m_connections)
    {
        c->Dispose();
    }
    m_connections.clear();
    for (auto& a : m_sctpAssocs)
    {
        a->Dispose();
    }
    m_sctpAssocs.clear();
    m_node = nullptr;
    Object::DoDispose();
}

void
ConnectionManager::Listen(uint16_t port, RequestCallback cb)
{
    NS_ABORT_MSG_IF(m_listeners.count(port), "already listening on port " << port);
    if (m_llp == LLP_SCTP)
    {
        m_requestCbs[port] = cb;
        ListenSctp(port);
        return;
    }
    Ptr<Socket> s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(s); // accepted connections fork this listener, settings included
    NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0,
                    "cannot bind port " << port);
    s->Listen();
    s->SetAcceptCallback(MakeCallback(&ConnectionManager::OnTcpRequest, this),
                         MakeBoundCallback(
                             +[](ConnectionManager* cm, uint16_t p, Ptr<Socket> sock, const Address& a) {
                                 cm->OnTcpAccept(p, sock, a);
                             },
                             this,
                             port));
    m_listeners[port] = s;
    m_requestCbs[port] = cb;
}

void
ConnectionManager::OnTcpAccept(uint16_t port, Ptr<Socket> s, const Address& from)
{
    Ptr<MpaConnection> c = CreateObject<MpaConnection>();
    m_connections.push_back(c);
    c->SetRequestCallback(MakeBoundCallback(
        +[](ConnectionManager* cm, uint16_t p, Address a, Ptr<MpaConnection> mpa, const MpaSetupFrame& f) {
            cm->OnMpaRequest(p, a, mpa, f);
        },
        this,
        port,
        from));
    c->StartResponder(s);
}

void
ConnectionManager::OnMpaRequest(uint16_t port, Address from, Ptr<MpaConnection> c,
                                const MpaSetupFrame& f)
{
    Ptr<ConnectionRequest> req = Create<ConnectionRequest>();
    req->mpa = c;
    req->from = from;
    req->port = port;
    req->privateData = f.GetPrivateData();
    req->peerIrd = f.GetIrd();
    req->peerIrdKnown = f.GetRev() == iwarp::kMpaRev2 && f.IsEnhanced();
    req->peerOrd = f.GetOrd();
    auto it = m_requestCbs.find(port);
    if (it == m_requestCbs.end() || it->second.IsNull())
    {
        c->Reject({});
        return;
    }
    it->second(req);
}

void
ConnectionManager::Accept(Ptr<ConnectionRequest> req, Ptr<QueuePair> qp,
                          const std::vector<uint8_t>& privateData)
{
    if (req->sctp)
    {
        // RFC 5043 negotiates no IRD/ORD: the QP keeps its own (the ULP may carry them in private data).
        qp->Bind(req->sctp);
        req->sctp->Accept(privateData);
        return;
    }
    uint32_t ord = RdmapOf(qp)->GetOrd();
    if (req->peerIrdKnown && req->peerIrd < ord)
    {
        // Never more outstanding Reads than the initiator said it can take in (RFC 6581).
        ord = req->peerIrd;
        RdmapOf(qp)->SetAttribute("Ord", UintegerValue(ord));
    }
    req->mpa->SetIrdOrd(uint16_t(RdmapOf(qp)->GetIrd()), uint16_t(ord));
    qp->Bind(req->mpa);
    req->mpa->Accept(privateData);
}

void
ConnectionManager::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    if (req->sctp)
    {
        req->sctp->Reject(privateData);
        return;
    }
    req->mpa->Reject(privateData);
}

void
ConnectionManager::Connect(Ptr<QueuePair> qp, const Address& remote,
                           const std::vector<uint8_t>& privateData, ConnectCallback cb)
{
    if (m_llp == LLP_SCTP)
    {
        ConnectSctp(qp, remote, privateData, cb);
        return;
    }
    Ptr<Socket> s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(s);
    Ptr<MpaConnection> c = CreateObject<MpaConnection>();
    m_connections.push_back(c);
    c->SetIrdOrd(uint16_t(RdmapOf(qp)->GetIrd()), uint16_t(RdmapOf(qp)->GetOrd()));
    c->SetReplyCallback(MakeBoundCallback(
        +[](ConnectCallback done, Ptr<QueuePair> q, Ptr<MpaConnection> mpa, const MpaSetupFrame& f) {
            if (!f.GetReject() && mpa->GetOrd() < RdmapOf(q)->GetOrd())
            {
                RdmapOf(q)->SetAttribute("Ord", UintegerValue(mpa->GetOrd())); // lowered in set-up
            }
            if (!done.IsNull())
            {
                done(q, !f.GetReject(), f.GetPrivateData());
            }
        },
        cb, qp));
    c->SetSetupFailedCallback(MakeBoundCallback(
        +[](ConnectCallback done, Ptr<QueuePair> q, Ptr<MpaConnection>, iwarp::ErrorCause) {
            if (!done.IsNull())
            {
                done(q, false, {});
            }
        },
        cb, qp));
    qp->Bind(c);
    c->StartInitiator(s, privateData);
    s->Connect(remote);
}

// ------------------------------------------------------------------ SCTP (RFC 5043)

void
ConnectionManager::ListenSctp(uint16_t port)
{
    NS_ABORT_MSG_IF(!m_node->GetObject<SctpL4Protocol>(), "Llp=Sctp needs SCTP on the node (SctpHelper)");
    Ptr<SctpSocket> s = DynamicCast<SctpSocket>(Socket::CreateSocket(m_node, SctpSocketFactory::GetTypeId()));
    TransportProfile::Configure(s); // accepted associations copy this listener's attributes
    SctpDdpAssociation::ConfigureSocket(s, 16);
    NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0, "cannot bind port " << port);
    s->Listen();
    s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeBoundCallback(
                             +[](ConnectionManager* cm, uint16_t p, Ptr<Socket> sock, const Address& a) {
                                 cm->OnSctpAccept(p, sock, a);
                             },
                             this,
                             port));
    m_listeners[port] = s;
}

void
ConnectionManager::OnSctpAccept(uint16_t port, Ptr<Socket> s, const Address& from)
{
    Ptr<SctpDdpAssociation> a = CreateObject<SctpDdpAssociation>();
    m_sctpAssocs.push_back(a);
    a->SetInitiateCallback(MakeBoundCallback(
        +[](ConnectionManager* cm, uint16_t p, Address f, Ptr<SctpDdpConnection> c, const std::vector<uint8_t>& pd) {
            Ptr<ConnectionRequest> req = Create<ConnectionRequest>();
            req->sctp = c;
            req->from = f;
            req->port = p;
            req->privateData = pd;
            auto it = cm->m_requestCbs.find(p);
            if (it == cm->m_requestCbs.end() || it->second.IsNull())
            {
                c->Reject({});
                return;
            }
            it->second(req);
        },
        this,
        port,
        from));
    a->Attach(DynamicCast<SctpSocket>(s)); // aborts an association without the DDP indication
}

void
ConnectionManager::ConnectSctp(Ptr<QueuePair> qp, const Address& remote, const std::vector<uint8_t>& privateData,
                               ConnectCallback cb)
{
    NS_ABORT_MSG_IF(!m_node->GetObject<SctpL4Protocol>(), "Llp=Sctp needs SCTP on the node (SctpHelper)");
    Ptr<SctpSocket> s = DynamicCast<SctpSocket>(Socket::CreateSocket(m_node, SctpSocketFactory::GetTypeId()));
    TransportProfile::Configure(s);
    SctpDdpAssociation::ConfigureSocket(s, 16);
    Ptr<SctpDdpAssociation> a = CreateObject<SctpDdpAssociation>();
    m_sctpAssocs.push_back(a);
    s->SetConnectCallback(
        MakeBoundCallback(
            +[](ConnectionManager* cm, Ptr<SctpDdpAssociation> as, Ptr<QueuePair> q, std::vector<uint8_t> pd,
                ConnectCallback done, Ptr<Socket> sock) {
                Ptr<SctpDdpConnection> c;
                if (as->Attach(DynamicCast<SctpSocket>(sock)))
                {
                    c = as->Connect(cm->m_sctpStream, pd);
                }
                if (!c)
                {
                    if (!done.IsNull())
                    {
                        done(q, false, {});
                    }
                    return;
                }
                c->SetControlCallback(MakeBoundCallback(
                    +[](ConnectCallback d, Ptr<QueuePair> qq, std::shared_ptr<bool> told, Ptr<SctpDdpConnection>,
                        sctpddp::Function f, const std::vector<uint8_t>& rpd) {
                        // Only the answer to the Initiate; a later Terminate is a stream event for the QP.
                        if (!d.IsNull() && !*told && f != sctpddp::Function::Initiate)
                        {
                            *told = true;
                            d(qq, f == sctpddp::Function::Accept, rpd); // Reject / Terminate: refused
                        }
                    },
                    done,
                    q,
                    std::make_shared<bool>(false)));
                q->Bind(c);
            },
            this,
            a,
            qp,
            privateData,
            cb),
        MakeBoundCallback(+[](ConnectCallback done, Ptr<QueuePair> q, Ptr<Socket>) {
            if (!done.IsNull())
            {
                done(q, false, {});
            }
        },
                          cb,
                          qp));
    s->Connect(remote);
}

} // namespace ns3
