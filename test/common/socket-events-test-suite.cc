/*
 * iwarp-socket-events: the pieces that keep an idle queue pair small (issue 16's 4 KiB beyond its
 * socket, measured by iwarp-bench-scaling), each checked for the behaviour it must keep:
 *  - SocketEvents routes every socket's events to that socket's own sink, through callbacks shared
 *    by all sockets, and forgets a socket once unhooked;
 *  - MPA and SCTP hook their sockets there while a connection lives, and unhook them when disposed;
 *  - MPA and SCTP release their set-up callbacks (and what the connection manager bound into
 *    them) once set-up is over;
 *  - RDMAP's Read Request buffers, windows of one buffer reused in turn, answer many more Reads
 *    than there are slots (RDMAP-035).
 */
#include "common/socket-events.h"
#include "rnic/rnic-pair.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Records what SocketEvents hands it, and checks each event names the socket it was hooked for. */
class RecordingSink : public SocketEventSink
{
  public:
    Ptr<Socket> socket;
    uint64_t received{0};     ///< octets read in OnSocketRecv
    uint32_t connected{0};
    uint32_t normalCloses{0};
    uint32_t errorCloses{0};
    uint64_t segmentOctets{0}; ///< payload octets of the TCP segments the Rx trace showed
    uint32_t foreign{0};       ///< events that named another socket

    void OnSocketRecv(Ptr<Socket> s) override
    {
        Check(s);
        while (Ptr<Packet> p = s->Recv())
        {
            received += p->GetSize();
        }
    }
    void OnSocketSendSpace(Ptr<Socket> s, uint32_t) override { Check(s); }
    void OnSocketNormalClose(Ptr<Socket> s) override
    {
        Check(s);
        ++normalCloses;
    }
    void OnSocketErrorClose(Ptr<Socket> s) override
    {
        Check(s);
        ++errorCloses;
    }
    void OnSocketConnected(Ptr<Socket> s) override
    {
        Check(s);
        ++connected;
    }
    void OnTcpSegment(Ptr<const Packet> p, const TcpHeader&) override { segmentOctets += p->GetSize(); }

  private:
    void Check(Ptr<Socket> s)
    {
        if (s != socket)
        {
            ++foreign;
        }
    }
};

class SocketEventsRoutingTest : public TestCase
{
  public:
    SocketEventsRoutingTest()
        : TestCase("Two TCP connections on shared callbacks: each socket's data, segments, connect and close "
                   "reach its own sink; unhooked sockets are forgotten")
    {
    }

  private:
    void DoRun() override
    {
        const size_t base = SocketEvents::HookedCount();
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("10us"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addr("10.9.1.0", "255.255.255.0");
        const Ipv4Address server = addr.Assign(devs).GetAddress(1);

        RecordingSink clients[2];
        RecordingSink servers[2];
        std::map<uint16_t, RecordingSink*> serverByPeerPort; // the accepted socket's sink, by client port
        const uint32_t sizes[2] = {1000, 30000};

        Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9000));
        listener->Listen();
        uint32_t accepted = 0;
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&SocketEventsRoutingTest::Accepted, this));
        m_accepted = &accepted;
        m_servers = servers;
        for (int i = 0; i < 2; ++i)
        {
            Ptr<Socket> s = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
            clients[i].socket = s;
            SocketEvents::Hook(s, &clients[i]);
            SocketEvents::HookConnect(s);
            s->Bind();
            // From inside the run: ns-3 sets up its traffic-control layer as the nodes start.
            Simulator::ScheduleNow([s, server]() { s->Connect(InetSocketAddress(server, 9000)); });
            Simulator::Schedule(MilliSeconds(5), [s, n = sizes[i]]() { s->Send(Create<Packet>(n)); });
            Simulator::Schedule(MilliSeconds(50), [s]() { s->Close(); });
        }
        NS_TEST_ASSERT_MSG_EQ(SocketEvents::HookedCount(), base + 2, "two client sockets hooked");
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(accepted, 2u, "both accepted");
        NS_TEST_EXPECT_MSG_EQ(SocketEvents::HookedCount(), base + 4, "and the two accepted sockets");
        uint64_t serverOctets[2] = {servers[0].received, servers[1].received};
        std::sort(serverOctets, serverOctets + 2);
        NS_TEST_EXPECT_MSG_EQ(serverOctets[0], sizes[0], "the smaller transfer reached one server sink whole");
        NS_TEST_EXPECT_MSG_EQ(serverOctets[1], sizes[1], "the larger reached the other");
        for (int i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(clients[i].connected, 1u, "connect outcome at client " << i);
            NS_TEST_EXPECT_MSG_EQ(clients[i].foreign + servers[i].foreign, 0u, "no event for another socket");
            NS_TEST_EXPECT_MSG_EQ(servers[i].normalCloses, 1u, "the client's close at server " << i);
            NS_TEST_EXPECT_MSG_EQ(servers[i].segmentOctets, servers[i].received,
                                  "the Rx trace saw every payload octet once, at its own socket");
            NS_TEST_EXPECT_MSG_EQ(clients[i].errorCloses + servers[i].errorCloses, 0u, "no error close");
        }
        for (int i = 0; i < 2; ++i)
        {
            SocketEvents::Unhook(clients[i].socket);
            SocketEvents::Unhook(servers[i].socket);
            NS_TEST_EXPECT_MSG_EQ(SocketEvents::SinkOf(PeekPointer(clients[i].socket)), nullptr, "forgotten");
        }
        NS_TEST_EXPECT_MSG_EQ(SocketEvents::HookedCount(), base, "nothing left in the table");
        Simulator::Destroy();
        Ipv4AddressGenerator::Reset();
    }

    void Accepted(Ptr<Socket> s, const Address&)
    {
        RecordingSink& sink = m_servers[(*m_accepted)++];
        sink.socket = s;
        SocketEvents::Hook(s, &sink);
        SocketEvents::HookTcpRx(s);
    }

    uint32_t* m_accepted{nullptr};
    RecordingSink* m_servers{nullptr};
};

class LlpSocketsHookedTest : public TestCase
{
  public:
    explicit LlpSocketsHookedTest(bool sctp)
        : TestCase(std::string(sctp ? "SCTP" : "MPA over TCP") +
                   ": a connected QP pair's two sockets are hooked while it lives, and unhooked when disposed"),
          m_sctp(sctp)
    {
    }

  private:
    void DoRun() override
    {
        const size_t base = SocketEvents::HookedCount();
        {
            RnicPair p("10Gbps", "5us", m_sctp);
            p.ConnectAndSettle();
            NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
            NS_TEST_EXPECT_MSG_EQ(SocketEvents::HookedCount(), base + 2, "both ends' sockets");
        } // Simulator::Destroy disposes the nodes, their RNICs and connectors
        NS_TEST_EXPECT_MSG_EQ(SocketEvents::HookedCount(), base, "unhooked on dispose");
    }

    bool m_sctp;
};

/** Something a callback can hold; its reference count says who still holds it. */
struct Marker : public SimpleRefCount<Marker>
{
};

class SetupCallbacksReleasedTest : public TestCase
{
  public:
    explicit SetupCallbacksReleasedTest(bool sctp)
        : TestCase(std::string(sctp ? "SCTP" : "MPA") +
                   ": once set-up is over, nothing keeps the connection manager's connect callback (or what it "
                   "bound) alive"),
          m_sctp(sctp)
    {
    }

  private:
    void DoRun() override
    {
        RnicPair p("10Gbps", "5us", m_sctp);
        Ptr<Marker> marker = Create<Marker>();
        bool connected = false;
        p.server->GetConnectionManager()->Listen(
            7000,
            MakeBoundCallback(+[](RnicPair* q, Ptr<ConnectionRequest> req) {
                q->server->GetConnectionManager()->Accept(req, q->sqp, {});
            },
                              &p));
        Simulator::ScheduleNow(
            +[](RnicPair* q, bool* ok, Ptr<Marker> m) {
                q->client->GetConnectionManager()->Connect(
                    q->cqp,
                    InetSocketAddress(q->serverAddr, 7000),
                    {},
                    MakeBoundCallback(
                        +[](bool* done, Ptr<Marker>, Ptr<QueuePair>, bool accepted, const std::vector<uint8_t>&) {
                            *done = accepted;
                        },
                        ok,
                        m));
            },
            &p,
            &connected,
            marker);
        p.Run(NanoSeconds(1)); // Connect has run; the MPA Request is on its way
        NS_TEST_ASSERT_MSG_GT(marker->GetReferenceCount(), 1u, "the pending connect holds the marker");
        p.Run(MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ(connected, true, "connected");
        NS_TEST_EXPECT_MSG_EQ(p.cqp->GetState(), QueuePair::CONNECTED, "the QP is connected");
        NS_TEST_EXPECT_MSG_EQ(marker->GetReferenceCount(), 1u, "only the test holds it now");
    }

    bool m_sctp;
};

class ReadsBeyondIrdTest : public TestCase
{
  public:
    ReadsBeyondIrdTest()
        : TestCase("RDMAP-035: 24 Reads through the responder's IRD Read Request slots, each answered with the "
                   "octets it asked for")
    {
    }

  private:
    void DoRun() override
    {
        using namespace MemAccess;
        constexpr uint32_t kReads = 24;
        constexpr uint32_t kChunk = 700;
        RnicPair p("10Gbps", "5us");
        p.ConnectAndSettle();
        NS_TEST_ASSERT_MSG_EQ(p.connected, true, "connected");
        NS_TEST_ASSERT_MSG_LT(p.sqp->GetTransport()->GetIrd(), kReads / 4, "many more Reads than slots");
        Ptr<MemoryRegion> far = p.server->RegisterMemory(p.spd, kReads * kChunk, kLocalRead | kRemoteRead);
        for (uint32_t i = 0; i < kReads * kChunk; ++i)
        {
            far->GetBuffer()->Data()[i] = uint8_t(i * 13 + i / 251);
        }
        Ptr<MemoryRegion> sink = p.client->RegisterMemory(p.cpd, kReads * kChunk, kLocalWrite);
        // Read i fetches chunk i into chunk (kReads - 1 - i): a Request answered from another
        // Request's octets would land the wrong chunk.
        for (uint32_t i = 0; i < kReads; ++i)
        {
            SendWr w;
            w.id = i;
            w.type = WrOpcode::Read;
            w.local = LocalBuffer{sink->GetStag(), uint64_t(kReads - 1 - i) * kChunk, kChunk};
            w.remoteStag = far->GetStag();
            w.remoteTo = uint64_t(i) * kChunk;
            NS_TEST_ASSERT_MSG_EQ(p.cqp->PostSend(w), true, "post Read " << i);
        }
        p.Run(MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ(p.clientDone.size(), size_t(kReads), "every Read completed");
        for (uint32_t i = 0; i < kReads; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.clientDone[i].status, WcStatus::Success, "Read " << i);
            const uint8_t* want = far->GetBuffer()->Data() + uint64_t(i) * kChunk;
            const uint8_t* got = sink->GetBuffer()->Data() + uint64_t(kReads - 1 - i) * kChunk;
            NS_TEST_EXPECT_MSG_EQ(std::equal(want, want + kChunk, got), true, "Read " << i << "'s octets");
        }
    }
};

class SocketEventsSuite : public TestSuite
{
  public:
    SocketEventsSuite()
        : TestSuite("iwarp-socket-events", UNIT)
    {
        AddTestCase(new SocketEventsRoutingTest, TestCase::QUICK);
        AddTestCase(new LlpSocketsHookedTest(false), TestCase::QUICK);
        AddTestCase(new LlpSocketsHookedTest(true), TestCase::QUICK);
        AddTestCase(new SetupCallbacksReleasedTest(false), TestCase::QUICK);
        AddTestCase(new SetupCallbacksReleasedTest(true), TestCase::QUICK);
        AddTestCase(new ReadsBeyondIrdTest, TestCase::QUICK);
    }
};

SocketEventsSuite g_socketEventsSuite;

} // namespace
