#include "rnic/connection-manager.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConnectionManager");
NS_OBJECT_ENSURE_REGISTERED(ConnectionManager);

TypeId
ConnectionManager::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ConnectionManager")
                            .SetParent<Object>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<ConnectionManager>();
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
    m_node = nullptr;
    Object::DoDispose();
}

void
ConnectionManager::Listen(uint16_t port, RequestCallback cb)
{
    NS_ABORT_MSG_IF(m_listeners.count(port), "already listening on port " << port);
    Ptr<Socket> s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
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
    uint32_t ord = qp->GetRdmap()->GetOrd();
    if (req->peerIrdKnown && req->peerIrd < ord)
    {
        // Never more outstanding Reads than the initiator said it can take in (RFC 6581).
        ord = req->peerIrd;
        qp->GetRdmap()->SetAttribute("Ord", UintegerValue(ord));
    }
    req->mpa->SetIrdOrd(uint16_t(qp->GetRdmap()->GetIrd()), uint16_t(ord));
    qp->Bind(req->mpa);
    req->mpa->Accept(privateData);
}

void
ConnectionManager::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    req->mpa->Reject(privateData);
}

void
ConnectionManager::Connect(Ptr<QueuePair> qp, const Address& remote,
                           const std::vector<uint8_t>& privateData, ConnectCallback cb)
{
    Ptr<Socket> s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    Ptr<MpaConnection> c = CreateObject<MpaConnection>();
    m_connections.push_back(c);
    c->SetIrdOrd(uint16_t(qp->GetRdmap()->GetIrd()), uint16_t(qp->GetRdmap()->GetOrd()));
    c->SetReplyCallback(MakeBoundCallback(
        +[](ConnectCallback done, Ptr<QueuePair> q, Ptr<MpaConnection> mpa, const MpaSetupFrame& f) {
            if (!f.GetReject() && mpa->GetOrd() < q->GetRdmap()->GetOrd())
            {
                q->GetRdmap()->SetAttribute("Ord", UintegerValue(mpa->GetOrd())); // lowered in set-up
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

} // namespace ns3
