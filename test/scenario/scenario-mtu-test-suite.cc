/*
 * iwarp-scenario-mtu: small MTUs (issue 14, item 3).  The runner gave TCP a 536-octet segment
 * for every MTU up to 588 and ignored the bottleneck's and per-link MTUs, so IP fragmented the
 * segments: MTUs 68-75, 84, 88, 108 crashed ns-3's fragment reassembly, 76-80, 92-104, 128, 160
 * and 300 ended a clean transfer with an MPA CRC Terminate (reproduced on 19cc24b).  Now:
 *
 *  - an MTU below what the LLP needs on a workload's path is refused when loading, at the key
 *    that set it, naming the minimum (MPA over TCP 132, DDP over SCTP 576);
 *  - every MTU from there on delivers Writes, Reads and Sends byte for byte, with no Terminate
 *    and no IP fragment (a sweep over both LLPs);
 *  - segment sizes follow the smallest MTU of each path: a dumbbell whose bottleneck has a small
 *    MTU fills full 1500-octet packets between two hosts of one side at the same time (an SCTP
 *    incast, whose receiver refuses segments above its own MULPDU, takes its smallest path's);
 *  - a TcpSocket::SegmentSize or SctpSocket::Pmtu the scenario sets itself must fit its paths.
 */
#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include "apps/rdma-stream.h"
#include "support/scenario-run-util.h"

#include "ns3/config.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <filesystem>
#include <map>
#include <tuple>

#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/** Write, Read and a Send ping-pong of real payloads between h0 and h1, short. */
std::string
Transfers(const std::string& links, const std::string& llp)
{
    return "stop: 60ms\n"                                                                   // 1
           "topology: {kind: two-hosts}\n"                                                  // 2
           "links: {rate: 1Gbps, delay: 10us, " + links + "}\n"                             // 3
           "workloads:\n"                                                                   // 4
           "  - {kind: stream, from: h0, to: h1, op: write, size: 16KiB, count: 2, outstanding: 2, "
           "payload: real, llp: " + llp + "}\n"
           "  - {kind: read, from: h0, to: h1, size: 5000, count: 2, outstanding: 2, payload: real, start: 20ms, "
           "llp: " + llp + "}\n"
           "  - {kind: ping-pong, from: h0, to: h1, op: send, sizes: [1, 3000], count: 1, payload: real, "
           "start: 40ms, llp: " + llp + "}\n";
}

/**
 * What IPv4 sent during a run: the largest packet per (source, destination) and the fragments.
 * It hooks every node's Ipv4L3Protocol "Tx" in an event at time 0, scheduled before RunScenario
 * builds the nodes (it runs first, when they exist).
 */
class PacketProbe
{
  public:
    PacketProbe()
    {
        Simulator::Schedule(Seconds(0), [this]() {
            Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Tx",
                                          MakeCallback(&PacketProbe::OnTx, this));
        });
    }

    std::map<std::pair<Ipv4Address, Ipv4Address>, uint32_t> largest;
    uint64_t fragments{0};

  private:
    void OnTx(Ptr<const Packet> p, Ptr<Ipv4>, uint32_t)
    {
        Ipv4Header h;
        p->PeekHeader(h);
        fragments += !h.IsLastFragment() || h.GetFragmentOffset() != 0;
        uint32_t& max = largest[{h.GetSource(), h.GetDestination()}];
        max = std::max(max, p->GetSize());
    }
};

/**
 * Just before the stop, each RdmaStream client's buffer against its server's (RdmaStream pairs
 * them slot for slot: after Writes the server's buffer equals the client's, after Reads the
 * client's the server's, octet for octet).  Clients are on h0 and servers on h1, in install order.
 */
class BufferCompare
{
  public:
    explicit BufferCompare(Time stop)
    {
        Simulator::Schedule(stop - NanoSeconds(1), [this]() { Compare(); });
    }

    uint32_t pairs{0};
    uint32_t equal{0};

  private:
    static std::vector<Ptr<RdmaStream>> Streams(Ptr<Node> node)
    {
        std::vector<Ptr<RdmaStream>> out;
        for (uint32_t i = 0; i < node->GetNApplications(); ++i)
        {
            if (Ptr<RdmaStream> s = DynamicCast<RdmaStream>(node->GetApplication(i)))
            {
                out.push_back(s);
            }
        }
        return out;
    }

    void Compare()
    {
        const auto clients = Streams(NodeList::GetNode(0));
        const auto servers = Streams(NodeList::GetNode(1));
        for (std::size_t i = 0; i < clients.size() && i < servers.size(); ++i)
        {
            ++pairs;
            Ptr<ByteBuffer> a = clients[i]->GetRegion()->GetBuffer();
            Ptr<ByteBuffer> b = servers[i]->GetRegion()->GetBuffer();
            equal += a->GetSize() == b->GetSize() && std::equal(a->Data(), a->Data() + a->GetSize(), b->Data());
        }
    }
};

fs::path
Folder(const std::string& tag)
{
    return fs::temp_directory_path() / ("iwarp-mtu-" + std::to_string(::getpid()) + "-" + tag);
}

class RefusedTestCase : public TestCase
{
  public:
    RefusedTestCase()
        : TestCase("an MTU below what the LLP needs on a path is refused at its key, with the minimum")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(MinMpaMtu(), 132u, "IPv4 20 + TCP 20 + timestamps 12 + 80 (a 70-octet MULPDU)");
        NS_TEST_EXPECT_MSG_EQ(MinSctpMtu(), 576u, "the SCTP model's smallest Pmtu, above 566");
        // The MTUs of the issue that crashed or corrupted, and the edges of the minimum.
        const std::string kMpa = "132 octets MPA over TCP needs (IPv4 20 + TCP 20 + timestamps 12 + a segment of 80 "
                                 "that holds a 70-octet DDP Terminate in one FPDU)";
        const std::string kSctp = "576 octets DDP over SCTP needs (IPv4 20 + SCTP 12 + DATA 16 + DDP-SSN 2 + the "
                                  "516-octet DDP segment RFC 5043 requires, and the SCTP model's smallest Pmtu)";
        for (const auto& [llp, needs, mtus] : std::vector<std::tuple<std::string, std::string, std::vector<uint32_t>>>{
                 {"tcp", kMpa, {68, 70, 75, 76, 80, 84, 88, 92, 100, 104, 108, 128, 131}},
                 {"sctp", kSctp, {68, 300, 566, 575}}})
        {
            for (uint32_t mtu : mtus)
            {
                NS_TEST_EXPECT_MSG_EQ(ErrorOf(Transfers("mtu: " + std::to_string(mtu), llp)),
                                      "s.yaml:3:40: links.mtu: MTU " + std::to_string(mtu) +
                                          " on the path of workload 'stream-0' (h0 to h1) is below the " + needs,
                                      llp << " at MTU " << mtu);
            }
        }
        // The sockets baseline needs only IPv4's 68; a link no workload crosses may keep it too.
        const std::string dumbbell = "stop: 10ms\n"
                                     "topology: {kind: dumbbell, hosts-per-side: 2, bottleneck: {mtu: 100}}\n"
                                     "workloads:\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(dumbbell + "  - {kind: sockets-stream, from: h0, to: h2, count: 1}\n"), "",
                              "sockets over a 100-octet bottleneck");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(dumbbell + "  - {kind: stream, from: h0, to: h1, count: 1}\n"), "",
                              "MPA beside, not across, a 100-octet bottleneck");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(dumbbell + "  - {kind: stream, from: h0, to: h3, count: 1}\n"),
                              "s.yaml:2:65: topology.bottleneck.mtu: MTU 100 on the path of workload 'stream-0' (h0 "
                              "to h3) is below the " + kMpa,
                              "the bottleneck's MTU, not links'");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOf(dumbbell + "  - {kind: incast, senders: [h1, h0], to: h2, count: 1}\n"
                               "per-link: [{between: [h1, left], mtu: 90}]\n"),
            "s.yaml:5:39: per-link.0.mtu: MTU 90 on the path of workload 'incast-0' (h1 to h2) is below the " + kMpa,
            "a per-link MTU below the bottleneck's, on an incast sender's path");
    }
};

class SweepTestCase : public TestCase
{
  public:
    SweepTestCase(const std::string& llp, std::vector<uint32_t> mtus)
        : TestCase("every MTU from the minimum delivers byte for byte over " + llp + ", unfragmented"),
          m_llp(llp),
          m_mtus(std::move(mtus))
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t mtu : m_mtus)
        {
            const ScenarioConfig cfg = LoadScenarioString(Transfers("mtu: " + std::to_string(mtu), m_llp));
            PacketProbe probe;
            BufferCompare buffers(cfg.stop);
            const fs::path folder = Folder(m_llp + std::to_string(mtu));
            const RunResult r = RunInto(cfg, folder.string()).result;
            fs::remove_all(folder);
            for (const WorkloadResult& w : r.workloads)
            {
                NS_TEST_EXPECT_MSG_EQ(w.completed, true, w.name << " at MTU " << mtu);
                NS_TEST_EXPECT_MSG_EQ(w.terminates.size(), 0u, w.name << ": no Terminate at MTU " << mtu);
            }
            NS_TEST_EXPECT_MSG_EQ(probe.fragments, 0u, "no IP fragment at MTU " << mtu);
            uint32_t largest = 0;
            for (const auto& [pair, size] : probe.largest)
            {
                largest = std::max(largest, size);
            }
            // Full segments fill the MTU (an FPDU is a multiple of 4 octets, so up to 3 short of
            // it; SCTP's DATA chunks may stop shorter).
            NS_TEST_EXPECT_MSG_EQ((largest <= mtu && (m_llp == "sctp" || largest + 4 > mtu)), true,
                                  "largest packet " << largest << " at MTU " << mtu);
            NS_TEST_EXPECT_MSG_EQ(buffers.pairs, 2u, "a Write and a Read stream at MTU " << mtu);
            NS_TEST_EXPECT_MSG_EQ(buffers.equal, buffers.pairs, "buffers equal octet for octet at MTU " << mtu);
        }
    }

    std::string m_llp;
    std::vector<uint32_t> m_mtus;
};

std::vector<uint32_t>
TcpMtus()
{
    std::vector<uint32_t> m;
    for (uint32_t v = 132; v <= 200; ++v) // every MTU % 4 and marker count near the minimum
    {
        m.push_back(v);
    }
    for (uint32_t v : {236u, 300u, 420u, 511u, 512u, 513u, 536u, 576u, 588u, 600u, 1024u, 1500u, 9000u})
    {
        m.push_back(v);
    }
    return m;
}

class PerPathTestCase : public TestCase
{
  public:
    PerPathTestCase()
        : TestCase("segment sizes follow the smallest MTU of each path, at the same start")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* llp : {"tcp", "sctp"})
        {
            // h0 -> h1 stays on the left side; h2 -> h3 and the incast from h0 and h2 cross the
            // 600-octet bottleneck.  All start together, so each socket's size must be its own.
            const std::string yaml = std::string("stop: 20ms\n"
                                                 "topology: {kind: dumbbell, hosts-per-side: 3, bottleneck: {mtu: 600}}\n"
                                                 "links: {queue: 1000p}\n"
                                                 "workloads:\n"
                                                 "  - {kind: stream, from: h0, to: h1, size: 64KiB, count: 2, llp: ") +
                                     llp + "}\n  - {kind: stream, from: h2, to: h3, size: 64KiB, count: 2, llp: " + llp +
                                     "}\n  - {kind: incast, senders: [h4, h0], to: h5, size: 16KiB, count: 2, llp: " +
                                     llp + "}\n";
            const ScenarioConfig cfg = LoadScenarioString(yaml);
            NS_TEST_EXPECT_MSG_EQ(cfg.workloads[0].pathMtu.at("h0"), 1500u, "h0 -> h1 does not cross");
            NS_TEST_EXPECT_MSG_EQ(cfg.workloads[1].pathMtu.at("h2"), 600u, "h2 -> h3 crosses");
            NS_TEST_EXPECT_MSG_EQ(cfg.workloads[2].pathMtu.at("h4"), 1500u, "h4 -> h5 does not cross");
            NS_TEST_EXPECT_MSG_EQ(cfg.workloads[2].pathMtu.at("h0"), 600u, "h0 -> h5 crosses");
            PacketProbe probe;
            const fs::path folder = Folder(std::string("per-path-") + llp);
            const RunResult r = RunInto(cfg, folder.string()).result;
            fs::remove_all(folder);
            for (const WorkloadResult& w : r.workloads)
            {
                NS_TEST_EXPECT_MSG_EQ(w.completed, true, w.name << " over " << llp);
            }
            NS_TEST_EXPECT_MSG_EQ(probe.fragments, 0u, "no IP fragment over " << llp);
            auto largest = [&](uint32_t from, uint32_t to) {
                // A host is reached at its link's address, 10.0.0.(4i + 1) for link i; the dumbbell's
                // links are made side by side: h0-left, h3-right, h1-left, h4-right, h2-left, h5-right.
                static const uint32_t kLink[] = {0, 2, 4, 1, 3, 5};
                return probe.largest[{Ipv4Address(0x0A000001 + 4 * kLink[from]),
                                      Ipv4Address(0x0A000001 + 4 * kLink[to])}];
            };
            const bool tcp = std::string(llp) == "tcp";
            NS_TEST_EXPECT_MSG_EQ((largest(0, 1) > 600 && largest(0, 1) <= 1500 && (!tcp || largest(0, 1) + 4 > 1500)),
                                  true, "h0 -> h1 fills 1500-octet packets over " << llp << ": " << largest(0, 1));
            NS_TEST_EXPECT_MSG_EQ((largest(2, 3) <= 600 && (!tcp || largest(2, 3) + 4 > 600)), true,
                                  "h2 -> h3 fits the bottleneck over " << llp << ": " << largest(2, 3));
            // Over TCP each incast sender fills its own path; over SCTP the receiver refuses segments
            // above its own MULPDU, so every connection of the workload takes the smallest MTU.
            NS_TEST_EXPECT_MSG_EQ((tcp ? largest(4, 5) > 600 : largest(4, 5) <= 600), true,
                                  "h4 -> h5 over " << llp << ": " << largest(4, 5));
            NS_TEST_EXPECT_MSG_EQ((largest(0, 5) <= 600), true, "h0 -> h5 fits the bottleneck over " << llp);
            NS_TEST_EXPECT_MSG_EQ((largest(5, 0) <= 600), true, "the incast receiver answers within it over " << llp);
        }
    }
};

class OwnSizesTestCase : public TestCase
{
  public:
    OwnSizesTestCase()
        : TestCase("a SegmentSize or Pmtu the scenario sets must fit every path it applies to")
    {
    }

  private:
    void DoRun() override
    {
        const std::string head = "stop: 10ms\n"                                        // 1
                                 "topology: {kind: two-hosts}\n"                       // 2
                                 "links: {mtu: 576}\n"                                 // 3
                                 "workloads:\n"                                        // 4
                                 "  - {kind: stream, from: h0, to: h1, count: 1}\n";   // 5
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "host: {TcpSocket::SegmentSize: \"524\"}\n"), "", "exactly the MTU");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "host: {TcpSocket::SegmentSize: \"1448\"}\n"),
                              "s.yaml:6:32: host.TcpSocket::SegmentSize: a segment of 1448 octets does not fit one "
                              "packet on the path of workload 'stream-0' (h0 to h1): its smallest MTU, 576 "
                              "(links.mtu), carries 524 (IPv4 20, TCP 20, timestamps 12)",
                              "a segment size above the path's MTU");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "rnic: {ns3::TcpSocket::SegmentSize: \"1\"}\n"),
                              "s.yaml:6:37: rnic.ns3::TcpSocket::SegmentSize: a segment of 1 octets is below the 80 "
                              "MPA over TCP needs (workload 'stream-0')",
                              "SegmentSize 1 (the issue's MULPDU 0 abort)");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "host: {TcpSocket::SegmentSize: \"600\"}\n",
                                      {"rnic.TcpSocket::SegmentSize=500"}),
                              "", "rnic's value is the one in force");
        const std::string sctp = "stop: 10ms\ntopology: {kind: two-hosts}\nlinks: {mtu: 1000}\nworkloads:\n"
                                 "  - {kind: stream, from: h0, to: h1, count: 1, llp: sctp}\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(sctp + "host: {SctpSocket::Pmtu: \"1500\"}\n"),
                              "s.yaml:6:26: host.SctpSocket::Pmtu: a path MTU of 1500 is above the smallest MTU on "
                              "the path of workload 'stream-0' (h0 to h1), 1000 (links.mtu)",
                              "an SCTP Pmtu above the path's MTU");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(sctp + "host: {SctpSocket::Pmtu: \"800\"}\n"), "", "a Pmtu within it");
    }
};

class ScenarioMtuTestSuite : public TestSuite
{
  public:
    ScenarioMtuTestSuite()
        : TestSuite("iwarp-scenario-mtu", UNIT)
    {
        AddTestCase(new RefusedTestCase, TestCase::QUICK);
        AddTestCase(new SweepTestCase("tcp", TcpMtus()), TestCase::QUICK);
        AddTestCase(new SweepTestCase("sctp", {576, 577, 578, 579, 580, 584, 588, 600, 700, 1024, 1500, 9000}),
                    TestCase::QUICK);
        AddTestCase(new PerPathTestCase, TestCase::QUICK);
        AddTestCase(new OwnSizesTestCase, TestCase::QUICK);
    }
};

static ScenarioMtuTestSuite g_scenarioMtuTestSuite;

} // namespace
} // namespace ns3
