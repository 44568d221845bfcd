/*
 * iwarp-scenario-runner-behaviour: what RunScenario does with small inline scenarios, end to end
 * (doc/scenario-format.md). The shipped scenario files are run by iwarp-scenario-runner
 * (scenario-runner-test-suite.cc).
 *
 *  - the savings direction: at 64 KiB messages the sockets baseline's receiver spends more core
 *    time and more memory-bus octets per delivered octet than an RDMA Write stream's (bus ~3x
 *    against ~1x, doc/host-model.md);
 *  - impairments show: loss on a dumbbell's bottleneck makes retransmissions, a clean one none;
 *  - an injected Write to an invalid STag is recorded as the Terminate doc/conformance.md D-13 expects
 *    (DDP layer, tagged buffer error, code 0x00) on both ends; an inject from an incast receiver
 *    travels on the connection to the sender it names;
 *  - llp: sctp runs a Write stream and a Send ping-pong, placement and delivery recorded;
 *  - a second run into the same folder is refused and leaves the first one intact.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"
#include "scenario/scenario-runner-test-util.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;
using nlohmann::json;
using runnertest::ReadAll;

const HostResult*
Host(const RunResult& r, const std::string& node)
{
    for (const HostResult& h : r.hosts)
    {
        if (h.node == node)
        {
            return &h;
        }
    }
    return nullptr;
}

const WorkloadResult*
Workload(const RunResult& r, const std::string& name)
{
    for (const WorkloadResult& w : r.workloads)
    {
        if (w.name == name)
        {
            return &w;
        }
    }
    return nullptr;
}

double
CpuBusyNs(const HostResult& h)
{
    double ns = 0;
    for (const Time& t : h.cpuBusyPerCore)
    {
        ns += double(t.GetNanoSeconds());
    }
    return ns;
}

// --------------------------------------------------------------------------- savings direction

class SavingsDirectionTestCase : public TestCase
{
  public:
    SavingsDirectionTestCase()
        : TestCase("at 64 KiB the sockets receiver costs more CPU and bus per delivered octet than RDMA Write")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
name: savings
stop: 100ms
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts-per-leaf: 4}
links: {rate: 25Gbps, delay: 1us}
host: {profile: current, HostModel::DdioOctets: 0}  # with DDIO sockets data is read from the cache (iwarp-host-offloads)
workloads:
  - {name: rdma, kind: stream, from: h0, to: h1, op: write, size: 64KiB, count: 64, outstanding: 4}
  - {name: sockets, kind: sockets-stream, from: h2, to: h3, size: 64KiB, count: 64}
)");
        const ScenarioOutcome out = RunInto(cfg, CreateTempDirFilename("savings"));
        const WorkloadResult* rdma = Workload(out.result, "rdma");
        const WorkloadResult* sockets = Workload(out.result, "sockets");
        const HostResult* rdmaRx = Host(out.result, "h1");
        const HostResult* socketsRx = Host(out.result, "h3");
        NS_TEST_ASSERT_MSG_EQ(rdma && sockets && rdmaRx && socketsRx, true, "workloads and hosts in the result");
        const uint64_t total = 64 * 65536;
        NS_TEST_ASSERT_MSG_EQ(rdma->octetsDelivered, total, "every RDMA Write delivered");
        NS_TEST_ASSERT_MSG_EQ(sockets->octetsDelivered, total, "every sockets message delivered");

        const double rdmaCpu = CpuBusyNs(*rdmaRx) / double(rdma->octetsDelivered);
        const double socketsCpu = CpuBusyNs(*socketsRx) / double(sockets->octetsDelivered);
        const double rdmaBus = double(rdmaRx->busBytes) / double(rdma->octetsDelivered);
        const double socketsBus = double(socketsRx->busBytes) / double(sockets->octetsDelivered);
        std::clog << "  receiver per delivered octet: RDMA " << rdmaCpu << " ns CPU, " << rdmaBus
                  << " bus octets; sockets " << socketsCpu << " ns CPU, " << socketsBus << " bus octets\n";
        NS_TEST_EXPECT_MSG_GT(socketsCpu, rdmaCpu, "sockets cost more core time per octet");
        NS_TEST_EXPECT_MSG_GT(socketsBus, rdmaBus, "sockets cost more bus octets per octet");
        NS_TEST_EXPECT_MSG_GT(socketsCpu + socketsBus, rdmaCpu + rdmaBus, "CPU + bus per octet");
        // doc/host-model.md: one bus crossing per received octet for RDMA, three for sockets without DDIO.
        NS_TEST_EXPECT_MSG_EQ_TOL(rdmaBus, 1.0, 0.05, "RDMA: one bus crossing per octet");
        NS_TEST_EXPECT_MSG_EQ_TOL(socketsBus, 3.0, 0.15, "sockets: three bus crossings per octet");
    }
};

// -------------------------------------------------------------------------------- impairments

class ImpairmentsTestCase : public TestCase
{
  public:
    ImpairmentsTestCase()
        : TestCase("loss and reordering on a dumbbell's bottleneck make retransmissions (MPA over TCP, RoCEv2, sockets); a "
                   "clean one none")
    {
    }

  private:
    static std::string Scenario(const std::string& bottleneckExtra)
    {
        return R"(
stop: 10s
seed: 3
topology:
  kind: dumbbell
  hosts-per-side: 2
  bottleneck: {rate: 1Gbps, delay: 5ms, queue: 1MiB)" +
               bottleneckExtra + R"(}
links: {rate: 10Gbps, delay: 1us}
workloads:
  - {name: rdma, kind: stream, from: h0, to: h2, op: write, size: 64KiB, count: 32, outstanding: 4}
  - {name: sockets, kind: sockets-stream, from: h1, to: h3, size: 64KiB, count: 32, start: 3s}
  - {name: roce, kind: stream, from: h1, to: h3, op: write, size: 64KiB, count: 32, llp: rocev2, start: 6s}
)";
    }

    void DoRun() override
    {
        const ScenarioOutcome lossy = RunInto(
            LoadScenarioString(Scenario(", loss: 0.002, reorder: {fraction: 0.01, delay: 1ms}"), {}, "lossy.yaml"),
            CreateTempDirFilename("lossy"));
        const ScenarioOutcome clean =
            RunInto(LoadScenarioString(Scenario(""), {}, "clean.yaml"), CreateTempDirFilename("clean"));
        for (const char* w : {"rdma", "sockets", "roce"})
        {
            const WorkloadResult* l = Workload(lossy.result, w);
            const WorkloadResult* c = Workload(clean.result, w);
            NS_TEST_ASSERT_MSG_EQ(l && c, true, w);
            std::clog << "  " << w << ": " << l->retransmissions.total << " retransmissions lossy, "
                      << c->retransmissions.total << " clean\n";
            NS_TEST_EXPECT_MSG_GT(l->retransmissions.total, 0u, w << ": a lossy bottleneck retransmits");
            NS_TEST_EXPECT_MSG_EQ(l->retransmissions.total, l->retransmissions.fast + l->retransmissions.timeout,
                                  w << ": each retransmission is fast or after a timeout");
            NS_TEST_EXPECT_MSG_EQ(c->retransmissions.total, 0u, w << ": a clean one does not");
            NS_TEST_EXPECT_MSG_GT(l->octetsDelivered, 0u, w << ": data arrives despite the loss");
        }
        for (const char* w : {"rdma", "roce"})
        {
            NS_TEST_EXPECT_MSG_EQ(Workload(lossy.result, w)->octetsDelivered, 32u * 65536,
                                  w << ": every RDMA Write is delivered");
        }
    }
};

// ------------------------------------------------------------------------------------- inject

class InjectTerminateTestCase : public TestCase
{
  public:
    InjectTerminateTestCase()
        : TestCase("an injected Write to an invalid STag is recorded as TERM 1-1-0x00 (conformance D-13)")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
name: inject
stop: 20ms
topology: {kind: two-hosts}
links: {rate: 10Gbps, delay: 1us}
workloads:
  - {name: bulk, kind: stream, from: h0, to: h1, op: write, size: 64KiB, count: 100, outstanding: 4}
  - name: bad-stag
    kind: inject
    target: bulk
    from: h0
    to: h1
    at: 1ms
    fields: {tagged: true, last: true, stag: 0xdead, to: 0, opcode: write, payload: 64}
)");
        const ScenarioOutcome out = RunInto(cfg, CreateTempDirFilename("inject"));
        const WorkloadResult* bulk = Workload(out.result, "bulk");
        const WorkloadResult* inject = Workload(out.result, "bad-stag");
        NS_TEST_ASSERT_MSG_EQ(bulk && inject, true, "both workloads in the result");
        NS_TEST_EXPECT_MSG_EQ(inject->messagesPosted, 1u, "the segment was handed to the LLP");
        NS_TEST_EXPECT_MSG_EQ(inject->completed, true, "injected");

        const json s = json::parse(ReadAll(fs::path(out.folder) / "summary.json"));
        const json& terms = s["workloads"][0]["terminates"];
        bool sent = false;
        bool received = false;
        for (const json& t : terms)
        {
            NS_TEST_EXPECT_MSG_EQ(t["layer"].get<std::string>(), "ddp", t.dump());
            NS_TEST_EXPECT_MSG_EQ(t["type"].get<std::string>(), "tagged buffer", t.dump());
            NS_TEST_EXPECT_MSG_EQ(t["code"].get<int>(), 0, t.dump());
            const std::string dir = t["direction"].get<std::string>();
            sent |= dir == "sent" && t["node"] == "h1";
            received |= dir == "received" && t["node"] == "h0";
        }
        NS_TEST_EXPECT_MSG_EQ(sent, true, "h1 detected the invalid STag and sent the Terminate: " << terms.dump());
        NS_TEST_EXPECT_MSG_EQ(received, true, "h0 received it: " << terms.dump());
        NS_TEST_EXPECT_MSG_EQ(bulk->terminates.size(), terms.size(), "RunResult and summary.json agree");
    }
};

/**
 * An inject from an incast receiver goes into the connection to the sender it names. Before, each
 * workload kept one QP per node, so the receiver's was whichever sender's connection came up last.
 */
class InjectIncastSenderTestCase : public TestCase
{
  public:
    InjectIncastSenderTestCase()
        : TestCase("an inject from an incast receiver to one sender travels on that sender's connection")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
stop: 20ms
topology: {kind: dumbbell, hosts-per-side: 2}
links: {rate: 10Gbps, delay: 1us}
workloads:
  - {name: fan-in, kind: incast, senders: [h0, h1, h2], to: h3, op: write, size: 64KiB, count: 40, outstanding: 4}
  - {name: to-h0, kind: inject, target: fan-in, from: h3, to: h0, at: 1ms,
     fields: {tagged: true, last: true, stag: 0xdead, to: 0, opcode: write, payload: 64}}
)");
        const ScenarioOutcome out = RunInto(cfg, CreateTempDirFilename("inject-incast"));
        const WorkloadResult* inject = Workload(out.result, "to-h0");
        const WorkloadResult* fanIn = Workload(out.result, "fan-in");
        NS_TEST_ASSERT_MSG_EQ(inject && fanIn, true, "both workloads in the result");
        NS_TEST_EXPECT_MSG_EQ(inject->completed, true, "injected");
        const json s = json::parse(ReadAll(fs::path(out.folder) / "summary.json"));
        const json& terms = s["workloads"][0]["terminates"];
        NS_TEST_ASSERT_MSG_EQ(terms.empty(), false, "the invalid STag was answered with a Terminate");
        for (const json& t : terms)
        {
            const std::string node = t["node"].get<std::string>();
            const std::string dir = t["direction"].get<std::string>();
            NS_TEST_EXPECT_MSG_EQ((dir == "sent" ? node == "h0" : node == "h3"), true,
                                  "only h0 refused the segment, and h3 heard it: " << terms.dump());
        }
    }
};

// ------------------------------------------------------------------------------------- llp: sctp

class SctpLlpTestCase : public TestCase
{
  public:
    SctpLlpTestCase()
        : TestCase("llp: sctp runs a Write stream and a Send ping-pong over DDP on SCTP (RFC 5043), "
                   "placement and delivery recorded")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
stop: 20ms
topology: {kind: dumbbell, hosts-per-side: 2}
links: {rate: 10Gbps, delay: 2us}
workloads:
  - {kind: stream, from: h0, to: h2, op: write, size: 16KiB, count: 8, outstanding: 2, llp: sctp}
  - {kind: ping-pong, from: h1, to: h3, op: send, size: 512, count: 5, llp: sctp}
)");
        const ScenarioOutcome out = RunInto(cfg, CreateTempDirFilename("sctp"));
        const RunResult& r = out.result;
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), 2u, "two workloads");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].messagesDelivered, 8u, "every Write delivered over SCTP");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].octetsDelivered, 8u * 16384, "their octets");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[1].messagesCompleted, 5u, "every ping-pong round trip");
        std::size_t placed = 0;
        for (const MessageRecord& m : r.messages)
        {
            placed += (m.workload == r.workloads[0].name && m.firstPlaced && m.delivered) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(placed, 8u, "each Write's placement and delivery seen at the sink's DDP");
    }
};

// -------------------------------------------------------------------------------- no overwrite

class NoOverwriteTestCase : public TestCase
{
  public:
    NoOverwriteTestCase()
        : TestCase("a second run into the same folder is refused and leaves the first intact")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
stop: 10ms
topology: {kind: two-hosts}
workloads:
  - {kind: ping-pong, from: h0, to: h1, op: send, size: 64, count: 5}
)");
        const std::string folder = CreateTempDirFilename("twice");
        const ScenarioOutcome first = RunInto(cfg, folder);
        const std::string summary = ReadAll(fs::path(folder) / "summary.json");
        const std::string messages = ReadAll(fs::path(folder) / "messages.csv");
        bool refused = false;
        try
        {
            ScenarioRunOptions o;
            o.outDir = folder;
            o.progress = false;
            RunScenario(LoadScenarioString(R"(
stop: 10ms
topology: {kind: two-hosts}
workloads:
  - {kind: ping-pong, from: h0, to: h1, op: write, size: 4KiB, count: 7}
)"),
                        o);
        }
        catch (const ResultsError& e)
        {
            refused = std::string(e.what()).find("already exists") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "the second run is refused with 'already exists'");
        NS_TEST_EXPECT_MSG_EQ(ReadAll(fs::path(folder) / "summary.json"), summary, "summary.json untouched");
        NS_TEST_EXPECT_MSG_EQ(ReadAll(fs::path(folder) / "messages.csv"), messages, "messages.csv untouched");
        std::size_t siblings = 0;
        for (const auto& e : fs::directory_iterator(fs::path(folder).parent_path()))
        {
            // This process's temporary folder (an earlier, crashed run may have left its own).
            siblings += e.path().filename().string() == ".twice.tmp-" + std::to_string(getpid()) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(siblings, 0u, "no temporary folder left behind");
    }
};

class ScenarioRunnerBehaviourTestSuite : public TestSuite
{
  public:
    ScenarioRunnerBehaviourTestSuite()
        : TestSuite("iwarp-scenario-runner-behaviour", UNIT)
    {
        AddTestCase(new NoOverwriteTestCase(), TestCase::QUICK);
        AddTestCase(new SctpLlpTestCase(), TestCase::QUICK);
        AddTestCase(new InjectIncastSenderTestCase, TestCase::QUICK);
        AddTestCase(new InjectTerminateTestCase(), TestCase::QUICK);
        AddTestCase(new SavingsDirectionTestCase(), TestCase::QUICK);
        AddTestCase(new ImpairmentsTestCase(), TestCase::QUICK);
    }
};

ScenarioRunnerBehaviourTestSuite g_scenarioRunnerBehaviourTestSuite;

} // namespace
} // namespace ns3
