/*
 * iwarp-tcp-arrivals: TcpArrivals (model/apps/tcp-arrivals.h), the node-wide view of the data segments
 * reaching each watched TCP connection, which the sockets baseline's host costs rest on. A watched
 * connection is told of every data segment with its first sequence number and octets (none is missed,
 * none carries a header's octets), a socket with no peer cannot be watched, and Unwatch stops it, even once
 * the connection has closed.
 */
#include "apps/tcp-arrivals.h"
#include "helper/two-host-topology.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

namespace ns3
{
namespace
{

constexpr uint16_t kPort = 9300;

struct Seen
{
    uint64_t segments{0};
    uint64_t octets{0};
    SequenceNumber32 highestEnd;
    bool any{false};
};

void
Count(Seen* seen, SequenceNumber32 seq, uint32_t octets)
{
    ++seen->segments;
    seen->octets += octets;
    if (!seen->any || seq + octets > seen->highestEnd)
    {
        seen->highestEnd = seq + octets;
    }
    seen->any = true;
}

class WatchTestCase : public TestCase
{
  public:
    WatchTestCase()
        : TestCase("a watched connection hears of each data segment; an unconnected socket cannot be watched; "
                   "Unwatch stops it")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t total = 100000; // within ns-3's default 128 KiB send buffer: one Send
        Seen seen;
        std::size_t watchedDuringRun = 0;
        {
            TwoHostTopology t(DataRate("10Gbps"), MicroSeconds(5), false);
            Ptr<TcpArrivals> arrivals = TcpArrivals::Of(t.nodes.Get(1));
            NS_TEST_EXPECT_MSG_EQ(TcpArrivals::Of(t.nodes.Get(1)), arrivals, "one per node");

            Ptr<Socket> unconnected = Socket::CreateSocket(t.nodes.Get(1), TcpSocketFactory::GetTypeId());
            unconnected->Bind();
            NS_TEST_EXPECT_MSG_EQ(arrivals->Watch(unconnected, MakeBoundCallback(&Count, &seen)), false,
                                  "no peer: nothing to watch");

            Ptr<Socket> server = Socket::CreateSocket(t.nodes.Get(1), TcpSocketFactory::GetTypeId());
            server->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
            server->Listen();
            Ptr<Socket> accepted;
            // Watched as it is accepted, before its first data segment arrives.
            server->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      Callback<void, Ptr<Socket>, const Address&>(
                                          [&](Ptr<Socket> s, const Address&) {
                                              accepted = s;
                                              NS_TEST_EXPECT_MSG_EQ(
                                                  arrivals->Watch(s, MakeBoundCallback(&Count, &seen)), true,
                                                  "an accepted connection is watched");
                                              watchedDuringRun = arrivals->GetWatched();
                                          }));
            Ptr<Socket> client = Socket::CreateSocket(t.nodes.Get(0), TcpSocketFactory::GetTypeId());
            client->Bind();
            client->SetConnectCallback(MakeCallback(+[](uint32_t n, Ptr<Socket> s) { s->Send(Create<Packet>(n)); })
                                           .Bind(total),
                                       MakeNullCallback<void, Ptr<Socket>>());
            // Once the nodes are initialised (their traffic control scans its devices as the run starts).
            Simulator::Schedule(MicroSeconds(1), [&]() { client->Connect(InetSocketAddress(t.serverAddress, kPort)); });
            // Both ends close before the stop: Unwatch must still find the closed connection.
            Simulator::Schedule(MilliSeconds(40), [&]() { client->Close(); });
            Simulator::Schedule(MilliSeconds(41), [&]() { accepted->Close(); });
            Simulator::Stop(MilliSeconds(50));
            Simulator::Run();
            const uint32_t mss = 536; // ns-3's TcpSocket::SegmentSize default
            NS_TEST_EXPECT_MSG_EQ(seen.octets, total, "every octet, once (a lossless link), no header octets");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(seen.segments, uint64_t((total + mss - 1) / mss), "every segment");
            // TCP's next expected octet is one past the data: the FIN takes a sequence number of its own.
            NS_TEST_EXPECT_MSG_EQ(seen.highestEnd + 1,
                                  DynamicCast<TcpSocketBase>(accepted)->GetRxBuffer()->NextRxSequence(),
                                  "sequence numbers as TCP's");
            NS_TEST_EXPECT_MSG_EQ(arrivals->GetWatched(), 1u, "still watched after the close");
            arrivals->Unwatch(accepted);
            NS_TEST_EXPECT_MSG_EQ(arrivals->GetWatched(), 0u, "unwatched, though closed");
        }
        NS_TEST_EXPECT_MSG_EQ(watchedDuringRun, 1u, "one connection watched");
        Simulator::Destroy();
    }
};

class TcpArrivalsTestSuite : public TestSuite
{
  public:
    TcpArrivalsTestSuite()
        : TestSuite("iwarp-tcp-arrivals", UNIT)
    {
        AddTestCase(new WatchTestCase(), TestCase::QUICK);
    }
};

TcpArrivalsTestSuite g_tcpArrivalsTestSuite;

} // namespace
} // namespace ns3
