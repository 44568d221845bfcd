#include "rnic/connection-manager.h"

#include "mpa/mpa-llp-connector.h" // the default LLP only: the manager never asks which LLP it runs
#include "rnic/rdma-transport-kinds.h"
#include "rnic/rnic.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

namespace
{

/** The part settings of the node's RNIC (Rnic::SetPartAttribute) for a part made here. */
void
ConfigureFromRnic(Ptr<Node> node, Ptr<Object> part)
{
    if (Ptr<Rnic> rnic = node ? node->GetObject<Rnic>() : nullptr)
    {
        rnic->ConfigurePart(part);
    }
}

/**
 * The connector's stream callback for `qp`. QueuePair::Bind takes any Object, so it cannot be the
 * Callback<void, Ptr<DdpLowerLayer>> itself: ns-3 would convert the callback by a downcast to the
 * wrong CallbackImpl (UBSan: iwarp-rnic and every suite that connects).
 */
LlpConnector::StreamCallback
BindTo(Ptr<QueuePair> qp)
{
    return MakeBoundCallback(+[](Ptr<QueuePair> q, Ptr<DdpLowerLayer> stream) { q->Bind(stream); }, qp);
}

} // namespace

NS_LOG_COMPONENT_DEFINE("ConnectionManager");
NS_OBJECT_ENSURE_REGISTERED(ConnectionManager);

TypeId
ConnectionManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ConnectionManager")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<ConnectionManager>()
            .AddAttribute("LlpConnector",
                          "How queue pairs connect, as the TypeId of an LlpConnector; their transport follows it: "
                          "ns3::MpaLlpConnector (iWARP, MPA over TCP), ns3::SctpDdpLlpConnector (iWARP, RFC 5043 "
                          "over SCTP) or ns3::RoceConnector (RoCEv2)",
                          TypeIdValue(MpaLlpConnector::GetTypeId()),
                          MakeTypeIdAccessor(&ConnectionManager::SetConnectorType,
                                             &ConnectionManager::GetConnectorType),
                          MakeTypeIdChecker());
    return tid;
}

ConnectionManager::ConnectionManager() = default;

void
ConnectionManager::DoDispose()
{
    if (m_connector)
    {
        m_connector->Dispose();
        m_connector = nullptr;
    }
    for (auto& c : m_retired)
    {
        c->Dispose();
    }
    m_retired.clear();
    m_listeners.clear();
    m_node = nullptr;
    Object::DoDispose();
}

void
ConnectionManager::SetNode(Ptr<Node> node)
{
    m_node = node;
    if (m_connector)
    {
        m_connector->SetNode(node);
    }
}

bool
ConnectionManager::SetConnectorType(TypeId tid)
{
    if (!tid.IsChildOf(LlpConnector::GetTypeId()) || !tid.HasConstructor())
    {
        NS_LOG_ERROR("LlpConnector: " << tid.GetName() << " is not an LlpConnector that can be created");
        return false;
    }
    // The queue pairs' transport follows the connector (Rnic::CreateQp): one with no transport to pair with
    // would leave them none.
    if (!RdmaTransportKindOfConnector(tid))
    {
        NS_LOG_ERROR("LlpConnector: " << tid.GetName() << " pairs with no RDMA transport (RdmaTransportKinds)");
        return false;
    }
    m_connectorType = tid;
    return true;
}

Ptr<LlpConnector>
ConnectionManager::GetConnector()
{
    if (m_connector && m_connector->GetInstanceTypeId() == m_connectorType)
    {
        return m_connector;
    }
    if (m_connector)
    {
        m_retired.push_back(m_connector); // its listeners and streams stay up
    }
    ObjectFactory factory(m_connectorType.GetName());
    m_connector = factory.Create<LlpConnector>();
    m_connector->SetNode(m_node);
    ConfigureFromRnic(m_node, m_connector);
    m_connector->SetPartCallback(MakeBoundCallback(
        +[](ConnectionManager* cm, Ptr<Object> part) { ConfigureFromRnic(cm->m_node, part); }, this));
    return m_connector;
}

Ptr<LlpConnector>
ConnectionManager::ConnectorOf(Ptr<ConnectionRequest> req) const
{
    auto it = m_listeners.find(req->port);
    NS_ABORT_MSG_IF(it == m_listeners.end(), "no listener on port " << req->port << " for this request");
    return it->second;
}

void
ConnectionManager::Listen(uint16_t port, RequestCallback cb)
{
    NS_ABORT_MSG_IF(m_listeners.count(port), "already listening on port " << port);
    Ptr<LlpConnector> c = GetConnector();
    c->Listen(port, cb);
    m_listeners[port] = c;
}

void
ConnectionManager::Accept(Ptr<ConnectionRequest> req, Ptr<QueuePair> qp, const std::vector<uint8_t>& privateData)
{
    Ptr<RdmaTransport> t = qp->GetTransport();
    uint32_t ord = t->GetOrd();
    if (req->peerIrdKnown && req->peerIrd < ord)
    {
        // Never more outstanding Reads than the initiator said it can take in (RFC 6581).
        ord = req->peerIrd;
        t->SetOrd(ord);
    }
    ConnectorOf(req)->Accept(req, uint16_t(t->GetIrd()), uint16_t(ord), privateData, BindTo(qp));
}

void
ConnectionManager::Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData)
{
    ConnectorOf(req)->Reject(req, privateData);
}

void
ConnectionManager::Connect(Ptr<QueuePair> qp, const Address& remote, const std::vector<uint8_t>& privateData,
                           ConnectCallback cb)
{
    Ptr<RdmaTransport> t = qp->GetTransport();
    GetConnector()->Connect(remote, privateData, uint16_t(t->GetIrd()), uint16_t(t->GetOrd()), BindTo(qp),
                            MakeBoundCallback(&ConnectionManager::OnConnected, cb, qp));
}

void
ConnectionManager::OnConnected(ConnectCallback cb, Ptr<QueuePair> qp, const LlpConnectResult& r)
{
    if (r.accepted && r.ord < qp->GetTransport()->GetOrd())
    {
        qp->GetTransport()->SetOrd(r.ord); // lowered in set-up
    }
    if (!cb.IsNull())
    {
        cb(qp, r.accepted, r.privateData);
    }
}

} // namespace ns3
