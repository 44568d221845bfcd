/*
 * iwarp-scenario-isolation: two scenario runs in one process keep their settings to themselves.
 *
 * The runner gives a scenario's `host:`/`rnic:`/`per-host` attributes and each workload's segment
 * size to the objects it makes, one by one (helper/scenario/host-attributes.h), and never changes
 * ns-3's process-wide attribute defaults: not after a run (which would leak into the next), and not
 * while it runs either (which made parallel or interleaved use impossible).  Each run here records
 * what its own objects were made with, and the process-wide defaults before, during and after it.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"
#include "host/host-profile.h"

#include "host/host-cpu-model.h"
#include "mpa/mpa-connection.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"
#include "transport/transport-profile.h"

#include "support/scenario-run-util.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unistd.h>

namespace ns3
{
namespace
{

/** The attributes the two runs set, as "ns3::T::A". */
const char* const kWatched[] = {"ns3::RnicPipeline::TxPerMessage", "ns3::MpaConnection::Markers",
                                "ns3::HostCpuModel::Cores",         "ns3::TcpSocket::SegmentSize",
                                "ns3::SctpSocket::Pmtu",            "ns3::Ipv4L3Protocol::DefaultTtl"};

/** ns-3's process-wide default of each watched attribute (what a new object would start with). */
std::map<std::string, std::string>
ProcessDefaults()
{
    std::map<std::string, std::string> out;
    for (const std::string name : kWatched)
    {
        const auto sep = name.rfind("::");
        TypeId::AttributeInformation info;
        TypeId::LookupByName(name.substr(0, sep)).LookupAttributeByName(name.substr(sep + 2), &info);
        out[name] = info.initialValue->SerializeToString(info.checker);
    }
    return out;
}

/** What one run's own objects were made with, per host, and the process defaults in mid-run. */
struct Seen
{
    std::map<std::string, std::set<int64_t>> txPerMessageNs; ///< pipelines, by host
    std::set<bool> markers;                                  ///< MPA connections of h0's QPs
    std::map<std::string, uint64_t> cores;                   ///< host CPU models
    std::set<uint64_t> tcpSegmentSizes;                      ///< every TCP socket configured
    std::set<uint16_t> ttls;                                 ///< the hosts' IPv4
    std::map<std::string, std::string> defaultsDuring;
};

void
OnQp(Seen* seen, std::string host, Ptr<QueuePair> qp)
{
    TimeValue tx;
    IwarpTransport::Of(qp, "the isolation test")->GetPipeline()->GetAttribute("TxPerMessage", tx);
    seen->txPerMessageNs[host].insert(tx.Get().GetNanoSeconds());
}

void
OnSocket(Seen* seen, Ptr<Socket> socket)
{
    if (DynamicCast<TcpSocketBase>(socket))
    {
        UintegerValue seg;
        socket->GetAttribute("SegmentSize", seg);
        seen->tcpSegmentSizes.insert(seg.Get());
    }
}

/** Runs `yaml` and records what its objects were made with. */
Seen
RunAndWatch(const std::string& yaml, const std::string& tag)
{
    Seen seen;
    ScenarioRunOptions o;
    o.progress = false;
    o.outDir = (std::filesystem::temp_directory_path() /
                ("iwarp-scenario-isolation-" + std::to_string(::getpid()) + "-" + tag))
                   .string();
    std::filesystem::remove_all(o.outDir);
    o.beforeRun = [&seen](const BuiltTopology& topo) {
        for (uint32_t i = 0; i < topo.hosts.GetN(); ++i)
        {
            Ptr<Node> node = topo.hosts.Get(i);
            const std::string host = topo.hostNames[i];
            node->GetObject<Rnic>()->TraceConnectWithoutContext("QpCreated", MakeBoundCallback(&OnQp, &seen, host));
            node->GetObject<TransportProfile>()->TraceConnectWithoutContext("Applied",
                                                                            MakeBoundCallback(&OnSocket, &seen));
            UintegerValue cores;
            node->GetObject<HostCpuModel>()->GetAttribute("Cores", cores);
            seen.cores[host] = cores.Get();
            UintegerValue ttl;
            node->GetObject<Ipv4L3Protocol>()->GetAttribute("DefaultTtl", ttl);
            seen.ttls.insert(uint16_t(ttl.Get()));
        }
        Ptr<Rnic> h0 = topo.hosts.Get(0)->GetObject<Rnic>();
        // Late in the run: the connections are up, and every setting has been given out.
        Simulator::Schedule(MicroSeconds(900), [&seen, h0]() {
            seen.defaultsDuring = ProcessDefaults();
            for (const Ptr<QueuePair>& qp : h0->GetQps())
            {
                if (Ptr<MpaConnection> mpa = DynamicCast<MpaConnection>(IwarpTransport::Of(qp, "the isolation test")->GetLlp()))
                {
                    BooleanValue markers;
                    mpa->GetAttribute("Markers", markers);
                    seen.markers.insert(markers.Get());
                }
            }
        });
    };
    RunScenario(LoadScenarioString(yaml, {}, tag + ".yaml"), o);
    std::filesystem::remove_all(o.outDir);
    return seen;
}

const std::string kStream = "stop: 1ms\n"
                            "topology: {kind: two-hosts}\n"
                            "workloads:\n"
                            "  - {kind: stream, from: h0, to: h1, size: 16KiB, count: 4}\n";

class TwoRunsTestCase : public TestCase
{
  public:
    TwoRunsTestCase()
        : TestCase("two runs in one process: each object gets its own run's settings; ns-3's defaults never change")
    {
    }

  private:
    void DoRun() override
    {
        const std::map<std::string, std::string> before = ProcessDefaults();
        const Seen a = RunAndWatch(kStream + "rnic:\n"
                                             "  RnicPipeline::TxPerMessage: 777ns\n"
                                             "  MpaConnection::Markers: \"true\"\n"
                                             "host:\n"
                                             "  HostCpuModel::Cores: \"3\"\n"
                                             "  TcpSocket::SegmentSize: \"1000\"\n"
                                             "  Ipv4L3Protocol::DefaultTtl: \"200\"\n"
                                             "per-host:\n"
                                             "  h1: {rnic: {RnicPipeline::TxPerMessage: 333ns}}\n",
                                   "a");
        const std::map<std::string, std::string> afterA = ProcessDefaults();
        const Seen b = RunAndWatch(kStream, "b");
        const std::map<std::string, std::string> afterB = ProcessDefaults();

        // Run a: its maps reached its objects (per-host over the scenario-wide map).
        NS_TEST_EXPECT_MSG_EQ((a.txPerMessageNs.at("h0") == std::set<int64_t>{777}), true, "h0's pipelines: 777ns");
        NS_TEST_EXPECT_MSG_EQ((a.txPerMessageNs.at("h1") == std::set<int64_t>{333}), true, "h1's: per-host 333ns");
        NS_TEST_EXPECT_MSG_EQ((a.markers == std::set<bool>{true}), true, "a's MPA connections use markers");
        NS_TEST_EXPECT_MSG_EQ(a.cores.at("h0"), 3u, "a's host CPU has 3 cores");
        NS_TEST_EXPECT_MSG_EQ((a.tcpSegmentSizes == std::set<uint64_t>{1000}), true, "a's own segment size");
        NS_TEST_EXPECT_MSG_EQ((a.ttls == std::set<uint16_t>{200}), true, "a's hosts send with TTL 200");

        // Run b: none of it; its segments fill the path's 1500-octet MTU (1448), as the runner sizes them.
        TimeValue fresh; // what a pipeline made outside any run starts with
        CreateObject<RnicPipeline>()->GetAttribute("TxPerMessage", fresh);
        const int64_t nsDefault = fresh.Get().GetNanoSeconds();
        NS_TEST_EXPECT_MSG_EQ((b.txPerMessageNs.at("h0") == std::set<int64_t>{nsDefault}), true,
                              "b's pipelines: ns-3's default, not a's");
        NS_TEST_EXPECT_MSG_EQ((b.txPerMessageNs.at("h1") == std::set<int64_t>{nsDefault}), true,
                              "nor a's per-host value");
        NS_TEST_EXPECT_MSG_EQ((b.markers == std::set<bool>{false}), true, "b's MPA connections: no markers");
        NS_TEST_EXPECT_MSG_EQ(b.cores.at("h0"),
                              std::stoul(FindHostProfile(kDefaultHostProfile)->ValueOf("ns3::HostCpuModel::Cores")),
                              "b's cores: the default host profile's, not a's");
        NS_TEST_EXPECT_MSG_EQ((b.tcpSegmentSizes == std::set<uint64_t>{1448}), true, "b's segments fill the MTU");
        NS_TEST_EXPECT_MSG_EQ((b.ttls == std::set<uint16_t>{64}), true, "b's TTL is IPv4's 64");

        // ns-3's process-wide defaults: the same before, while each run runs, and after.
        NS_TEST_EXPECT_MSG_EQ((a.defaultsDuring == before), true, "unchanged while run a runs");
        NS_TEST_EXPECT_MSG_EQ((afterA == before), true, "unchanged after run a");
        NS_TEST_EXPECT_MSG_EQ((b.defaultsDuring == before), true, "unchanged while run b runs");
        NS_TEST_EXPECT_MSG_EQ((afterB == before), true, "unchanged after run b");
    }
};

/** TCP pacing lives on the socket's TcpSocketState, which no attribute path reaches: set through the socket. */
class PacingTestCase : public TestCase
{
  public:
    PacingTestCase()
        : TestCase("host: TcpSocketState::EnablePacing paces that run's TCP sockets only")
    {
    }

  private:
    void DoRun() override
    {
        // ns-3 paces at most at TcpSocketState::MaxPacingRate, 4 Gb/s by default: below this link's 10.
        const std::string yaml = "stop: 3ms\n"
                                 "topology: {kind: two-hosts}\n"
                                 "links: {rate: 10Gbps, delay: 2us}\n"
                                 "workloads:\n"
                                 "  - {kind: stream, from: h0, to: h1, size: 64KiB, count: 32}\n";
        const RunResult paced =
            RunYamlInTemp(yaml + "host: {TcpSocketState::EnablePacing: \"true\"}\n", "scenario-isolation", "paced");
        const RunResult plain = RunYamlInTemp(yaml, "scenario-isolation", "plain");
        NS_TEST_EXPECT_MSG_LT(*paced.workloads[0].goodputBps, 4.1e9, "paced at ns-3's 4 Gb/s");
        NS_TEST_EXPECT_MSG_GT(*plain.workloads[0].goodputBps, 8e9, "the next run is not paced");
        // Its other attributes have no such path: refused rather than ignored.
        const std::string rate = ErrorOf(kStream + "host: {TcpSocketState::MaxPacingRate: 1Gbps}\n");
        NS_TEST_EXPECT_MSG_NE(rate.find("ns3::TcpSocketState::MaxPacingRate applies to none of them"),
                              std::string::npos,
                              rate);
    }
};

/** An attribute of a type the runner gives nothing to would be ignored: the loader refuses it. */
class UnreachedTypeTestCase : public TestCase
{
  public:
    UnreachedTypeTestCase()
        : TestCase("a host: or rnic: attribute of a type no object of the run is configured with is an error")
    {
    }

  private:
    void DoRun() override
    {
        const std::string device = ErrorOf(kStream + "host:\n  PointToPointNetDevice::Mtu: \"1400\"\n");
        NS_TEST_EXPECT_MSG_NE(device.find("s.yaml:6:"), std::string::npos, "the key's line: " + device);
        NS_TEST_EXPECT_MSG_NE(device.find("host.PointToPointNetDevice::Mtu: `host` and `rnic` settings reach only "
                                          "ns3::HostMemoryModel, "),
                              std::string::npos,
                              device);
        NS_TEST_EXPECT_MSG_NE(device.find("; ns3::PointToPointNetDevice::Mtu applies to none of them"),
                              std::string::npos,
                              device);
        // A congestion control's own attribute: made per socket by ns-3, out of the runner's reach.
        const std::string cubic = ErrorOf(kStream + "rnic:\n  TcpCubic::Beta: \"0.8\"\n");
        NS_TEST_EXPECT_MSG_NE(cubic.find("ns3::TcpCubic::Beta applies to none of them"), std::string::npos, cubic);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kStream + "rnic:\n  Ipv4L3Protocol::DefaultTtl: \"100\"\n"
                                                "  MpaConnection::Crc: \"false\"\n"
                                                "host:\n  SctpSocket::MaxInitRetransmits: \"3\"\n"
                                                "  TcpSocketBase::MaxSegLifetime: \"1\"\n"),
                              "",
                              "the types it reaches load, whichever map names them");
    }
};

class ScenarioIsolationTestSuite : public TestSuite
{
  public:
    ScenarioIsolationTestSuite()
        : TestSuite("iwarp-scenario-isolation", UNIT)
    {
        AddTestCase(new TwoRunsTestCase(), TestCase::QUICK);
        AddTestCase(new UnreachedTypeTestCase(), TestCase::QUICK);
        AddTestCase(new PacingTestCase(), TestCase::QUICK);
    }
};

ScenarioIsolationTestSuite g_scenarioIsolationTestSuite;

} // namespace
} // namespace ns3
