/*
 * Idle connections and their heap; see idle-connections.h.
 */
#include "bench/idle-connections.h"

#include "rnic/connection-manager.h"
#include "rnic/rnic.h"
#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket-factory.h"
#include "sctp/sctp-socket.h"
#include "transport/transport-profile.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <vector>

namespace ns3
{
namespace bench
{

const char*
Describe(IdleKind kind)
{
    switch (kind)
    {
    case IdleKind::MpaQp:
        return "QP over MPA/TCP";
    case IdleKind::SctpQp:
        return "QP over SCTP";
    case IdleKind::TcpSocket:
        return "TCP socket pair";
    case IdleKind::SctpSocket:
        return "SCTP socket pair";
    }
    return "?";
}

namespace
{

constexpr uint16_t kPort = 7000;

/** What one run keeps alive and counts. */
struct IdleState
{
    uint32_t established{0}; ///< at the initiator: connect callbacks that succeeded
    uint32_t accepted{0};    ///< at the responder
    uint32_t failed{0};
    std::vector<Ptr<Socket>> sockets; ///< both ends of the socket kinds: nothing of ours holds them else
    std::vector<Ptr<QueuePair>> qps;  ///< the responder's QPs (the Rnic keeps them too; this makes it plain)
    Ptr<ProtectionDomain> pd[2];
    Ptr<CompletionQueue> cq[2]; ///< one CQ per host: a CQ is not a per-QP cost
    double heapBefore{0};
    double heapIdle{0};
};

/** A socket of `kind` on `node`, configured as ConnectionManager configures its own. */
Ptr<Socket>
MakeSocket(IdleKind kind, Ptr<Node> node)
{
    if (kind == IdleKind::SctpSocket)
    {
        Ptr<SctpSocket> s = DynamicCast<SctpSocket>(Socket::CreateSocket(node, SctpSocketFactory::GetTypeId()));
        TransportProfile::Configure(s);
        SctpDdpAssociation::ConfigureSocket(s, 16);
        return s;
    }
    Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    TransportProfile::Configure(s);
    return s;
}

void
ListenSockets(IdleState* st, IdleKind kind, Ptr<Node> node)
{
    Ptr<Socket> l = MakeSocket(kind, node);
    NS_ABORT_MSG_IF(l->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort)) != 0, "cannot bind the listener");
    l->Listen();
    l->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeBoundCallback(+[](IdleState* s, Ptr<Socket> sock, const Address&) {
                             ++s->accepted;
                             s->sockets.push_back(sock);
                         },
                                           st));
    st->sockets.push_back(l);
}

void
ConnectSocket(IdleState* st, IdleKind kind, Ptr<Node> node, Ipv4Address server)
{
    Ptr<Socket> s = MakeSocket(kind, node);
    s->SetConnectCallback(MakeBoundCallback(+[](IdleState* x, Ptr<Socket>) { ++x->established; }, st),
                          MakeBoundCallback(+[](IdleState* x, Ptr<Socket>) { ++x->failed; }, st));
    NS_ABORT_MSG_IF(s->Bind() != 0, "cannot bind an initiator socket");
    s->Connect(InetSocketAddress(server, kPort));
    st->sockets.push_back(s);
}

void
ListenQps(IdleState* st, Ptr<Rnic> rnic)
{
    rnic->GetConnectionManager()->Listen(
        kPort,
        MakeBoundCallback(+[](IdleState* s, Ptr<Rnic> r, Ptr<ConnectionRequest> req) {
            Ptr<QueuePair> qp = r->CreateQp(s->pd[1], s->cq[1], s->cq[1]);
            r->GetConnectionManager()->Accept(req, qp, {});
            s->qps.push_back(qp);
            ++s->accepted;
        },
                          st,
                          rnic));
}

void
ConnectQp(IdleState* st, Ptr<Rnic> rnic, Ipv4Address server)
{
    Ptr<QueuePair> qp = rnic->CreateQp(st->pd[0], st->cq[0], st->cq[0]);
    rnic->GetConnectionManager()->Connect(
        qp,
        InetSocketAddress(server, kPort),
        {},
        MakeBoundCallback(+[](IdleState* s, Ptr<QueuePair>, bool ok, const std::vector<uint8_t>&) {
            ++(ok ? s->established : s->failed);
        },
                          st));
}

} // namespace

RunResult
RunIdleConnections(IdleKind kind, uint32_t n)
{
    const RunTimer timer;
    const bool qps = kind == IdleKind::MpaQp || kind == IdleKind::SctpQp;
    const bool sctp = kind == IdleKind::SctpQp || kind == IdleKind::SctpSocket;
    // The scenario runner's host queues (an unlimited FIFO): thousands of handshakes at once must
    // not lose a SYN to a full queue and wait out a 1 s retransmission timeout.
    BenchTopology t("10Gbps", "1us", qps, sctp, HostQueues::Defaults);
    IdleState st;
    if (qps)
    {
        for (int h = 0; h < 2; ++h)
        {
            t.rnics[h]->GetConnectionManager()->SetAttribute(
                "LlpConnector", StringValue(sctp ? "ns3::SctpDdpLlpConnector" : "ns3::MpaLlpConnector"));
            st.pd[h] = t.rnics[h]->AllocatePd();
            st.cq[h] = t.rnics[h]->CreateCq();
        }
    }
    Simulator::ScheduleNow([&st]() { st.heapBefore = HeapInUseMiB(); });
    // One connect per microsecond: a steady trickle, as an application opening its QPs would.
    for (uint32_t i = 0; i < n; ++i)
    {
        Simulator::Schedule(MicroSeconds(i + 1), [&st, &t, kind, qps]() {
            if (qps)
            {
                ConnectQp(&st, t.rnics[0], t.serverIp);
            }
            else
            {
                ConnectSocket(&st, kind, t.nodes.Get(0), t.serverIp);
            }
        });
    }
    Simulator::ScheduleNow([&st, &t, kind, qps]() {
        if (qps)
        {
            ListenQps(&st, t.rnics[1]);
        }
        else
        {
            ListenSockets(&st, kind, t.nodes.Get(1));
        }
    });
    // Half a second after the last connect: every handshake, MPA exchange and delayed ACK is over.
    const Time idle = MicroSeconds(n + 1) + MilliSeconds(500);
    Simulator::Schedule(idle, [&st]() { st.heapIdle = HeapInUseMiB(); });
    Simulator::Stop(idle + NanoSeconds(1));
    Simulator::Run();
    NS_ABORT_MSG_UNLESS(st.established == n && st.accepted == n && st.failed == 0,
                        Describe(kind) << ": " << st.established << " of " << n << " established, " << st.accepted
                                       << " accepted, " << st.failed << " failed");
    RunResult r;
    r.events = Simulator::GetEventCount();
    r.simSeconds = idle.GetSeconds();
    r.heapMiB = st.heapIdle - st.heapBefore;
    st = IdleState{};
    Simulator::Destroy();
    return timer.Stop(r);
}

} // namespace bench
} // namespace ns3
