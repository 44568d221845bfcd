#include "rnic/loopback-llp-connector.h"

#include "rnic/loopback-rdma-transport.h"
#include "rnic/rdma-transport-kinds.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoopbackLlpConnector");
NS_OBJECT_ENSURE_REGISTERED(LoopbackLinkEnd);
NS_OBJECT_ENSURE_REGISTERED(LoopbackLlpConnector);

namespace
{

/** The loopback pair (rnic/rdma-transport-kinds.h): a connection manager given this connector makes its QPs'
 * transports LoopbackRdmaTransports. */
const bool g_loopbackKind =
    (RegisterRdmaTransportKind({"loopback", LoopbackRdmaTransport::GetTypeId(), LoopbackLlpConnector::GetTypeId()}),
     true);

struct Listener
{
    LoopbackLlpConnector* connector;
    LlpConnector::RequestCallback cb;
};

/** Every listening (IPv4 address, port) of the connectors alive in this process. */
std::map<std::pair<uint32_t, uint16_t>, Listener>&
Listeners()
{
    static std::map<std::pair<uint32_t, uint16_t>, Listener> listeners;
    return listeners;
}

/** The node's IPv4 addresses, loopback interface excluded. */
std::vector<Ipv4Address>
AddressesOf(Ptr<Node> node)
{
    std::vector<Ipv4Address> out;
    Ptr<Ipv4> ip = node ? node->GetObject<Ipv4>() : nullptr;
    NS_ABORT_MSG_UNLESS(ip, "LoopbackLlpConnector: the node needs IPv4 addresses to be found by");
    for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
    {
        for (uint32_t j = 0; j < ip->GetNAddresses(i); ++j)
        {
            out.push_back(ip->GetAddress(i, j).GetLocal());
        }
    }
    NS_ABORT_MSG_IF(out.empty(), "LoopbackLlpConnector: the node has no IPv4 address");
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// LoopbackLinkEnd

TypeId
LoopbackLinkEnd::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoopbackLinkEnd").SetParent<DdpLowerLayer>().SetGroupName("Iwarp");
    return tid;
}

uint32_t
LoopbackLinkEnd::GetMulpdu() const
{
    return 0;
}

bool
LoopbackLinkEnd::SendSegment(Ptr<Packet>)
{
    NS_FATAL_ERROR("a loopback link carries no DDP segments: bind a LoopbackRdmaTransport to it");
    return false;
}

void
LoopbackLinkEnd::Close(CloseMode)
{
}

void
LoopbackLinkEnd::Attach(Ptr<LoopbackRdmaTransport> t)
{
    NS_ABORT_MSG_IF(m_transport, "a loopback link end takes one transport");
    m_transport = t;
    TryJoin();
}

void
LoopbackLinkEnd::Pair(Ptr<LoopbackLinkEnd> a, Ptr<LoopbackLinkEnd> b)
{
    a->m_peer = b;
    b->m_peer = a;
    a->TryJoin();
}

void
LoopbackLinkEnd::TryJoin()
{
    if (!m_peer || !m_transport || !m_peer->m_transport)
    {
        return;
    }
    const Ptr<LoopbackRdmaTransport> mine = m_transport;
    const Ptr<LoopbackRdmaTransport> theirs = m_peer->m_transport;
    // The link's work is done: the ends let go of the transports and of each other (no cycle).
    Ptr<LoopbackLinkEnd> peer = m_peer;
    peer->m_peer = nullptr;
    peer->m_transport = nullptr;
    m_peer = nullptr;
    m_transport = nullptr;
    mine->Bind(theirs);
    theirs->Bind(mine);
}

void
LoopbackLinkEnd::DoDispose()
{
    m_transport = nullptr;
    m_peer = nullptr;
    DdpLowerLayer::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// LoopbackLlpConnector

class LoopbackLlpConnector::Request : public ConnectionRequest
{
  public:
    Ptr<LoopbackLinkEnd> initiatorEnd;
    ConnectCallback done;
    uint16_t initiatorOrd{0};
};

TypeId
LoopbackLlpConnector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoopbackLlpConnector")
                            .SetParent<LlpConnector>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<LoopbackLlpConnector>()
                            .AddAttribute("Delay",
                                          "How long a request takes to reach the listener, and its answer to "
                                          "come back",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&LoopbackLlpConnector::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

void
LoopbackLlpConnector::DoDispose()
{
    for (const auto& key : m_listening)
    {
        Listeners().erase(key);
    }
    m_listening.clear();
    LlpConnector::DoDispose();
}

void
LoopbackLlpConnector::Listen(uint16_t port, RequestCallback cb)
{
    for (const Ipv4Address& a : AddressesOf(GetNode()))
    {
        const std::pair<uint32_t, uint16_t> key{a.Get(), port};
        NS_ABORT_MSG_IF(Listeners().count(key), "LoopbackLlpConnector: " << a << ":" << port << " is taken");
        Listeners()[key] = Listener{this, cb};
        m_listening.push_back(key);
    }
}

void
LoopbackLlpConnector::Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird,
                              uint16_t ord, StreamCallback stream, ConnectCallback done)
{
    NS_ABORT_MSG_UNLESS(InetSocketAddress::IsMatchingType(remote),
                        "LoopbackLlpConnector connects to an InetSocketAddress");
    const InetSocketAddress to = InetSocketAddress::ConvertFrom(remote);
    static uint16_t nextPort = 49152; // an ephemeral port, so that requests from one node differ
    Ptr<Request> req = Create<Request>();
    req->from = InetSocketAddress(AddressesOf(GetNode()).front(), nextPort++);
    req->port = to.GetPort();
    req->privateData = privateData;
    req->peerIrd = ird;
    req->peerOrd = ord;
    req->peerIrdKnown = true;
    req->initiatorEnd = CreateObject<LoopbackLinkEnd>();
    req->done = done;
    req->initiatorOrd = ord;
    ConfigurePart(req->initiatorEnd);
    stream(req->initiatorEnd); // before the request leaves, as the LlpConnector contract asks
    Simulator::Schedule(m_delay, &LoopbackLlpConnector::Deliver, this, to.GetIpv4().Get(), req);
}

void
LoopbackLlpConnector::Deliver(uint32_t address, Ptr<Request> req)
{
    auto it = Listeners().find({address, req->port});
    if (it == Listeners().end() || it->second.cb.IsNull())
    {
        NS_LOG_INFO("no listener on " << Ipv4Address(address) << ":" << req->port << ": refused");
        Simulator::Schedule(m_delay, [req]() { req->done(LlpConnectResult{false, {}, req->initiatorOrd}); });
        return;
    }
    it->second.cb(req);
}

void
LoopbackLlpConnector::Accept(Ptr<ConnectionRequest> request, uint16_t ird, uint16_t,
                             const std::vector<uint8_t>& privateData, StreamCallback stream)
{
    Ptr<Request> req = DynamicCast<Request>(request);
    NS_ABORT_MSG_UNLESS(req, "LoopbackLlpConnector::Accept: not one of this connector's requests");
    Ptr<LoopbackLinkEnd> responderEnd = CreateObject<LoopbackLinkEnd>();
    ConfigurePart(responderEnd);
    stream(responderEnd);
    // The initiator never gets more Reads outstanding than the responder takes in (RFC 6581).
    const uint16_t ord = std::min(req->initiatorOrd, ird);
    Simulator::Schedule(m_delay, [req, responderEnd, privateData, ord]() {
        LoopbackLinkEnd::Pair(req->initiatorEnd, responderEnd);
        // After the transports' Established events, which Pair scheduled for now.
        Simulator::ScheduleNow([req, privateData, ord]() { req->done(LlpConnectResult{true, privateData, ord}); });
    });
}

void
LoopbackLlpConnector::Reject(Ptr<ConnectionRequest> request, const std::vector<uint8_t>& privateData)
{
    Ptr<Request> req = DynamicCast<Request>(request);
    NS_ABORT_MSG_UNLESS(req, "LoopbackLlpConnector::Reject: not one of this connector's requests");
    Simulator::Schedule(m_delay,
                        [req, privateData]() { req->done(LlpConnectResult{false, privateData, req->initiatorOrd}); });
}

} // namespace ns3
