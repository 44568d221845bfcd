/*
 * The workload registry (helper/scenario/workloads/): the built-in kinds in their documented order,
 * the reader's and the schema's use of it (unknown kinds, keys per kind, a kind registered after
 * the first load), refused registrations, and the JSON that `iwarp-sim workloads --json` prints.
 */
#include "support/scenario-run-util.h"
#include "support/thrown-message.h"

#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/workloads/common-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include "helper/rdma-app-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace ns3
{
namespace
{

const std::vector<std::string> kBuiltIn = {"ping-pong",         "stream", "read",  "sockets-stream",
                                           "sockets-ping-pong", "incast", "inject"};

/** The lines before `workloads` of the scenarios loaded here. */
const std::string kHead = "stop: 1ms\ntopology: {kind: two-hosts}\n";

/** A kind with a key of its own that no built-in kind has, registered once per process. */
void
RegisterProbeKind()
{
    if (FindWorkloadKind("registry-probe"))
    {
        return;
    }
    WorkloadKindInfo k;
    k.name = "registry-probe";
    k.family = WorkloadFamily::Rdma;
    k.summary = "test only: loads, never runs";
    // A key of its own, with its facts and its reader: the range the docs state is the one checked.
    scenario::KeyInfo depth = scenario::Facts(scenario::ValueKind::Int, "int 1..9", "", "how deep to probe");
    depth.minimum = 1;
    depth.maximum = 9;
    k.keys = {workloadkeys::From(),
              workloadkeys::To(),
              workloadkeys::Count(),
              {"probe-depth",
               WorkloadKey::Shape::Scalar,
               depth,
               {},
               [](const scenario::ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig&) {
                   if (r.UInt(v, path, 9) == 0)
                   {
                       r.Fail(v, path, "probe-depth must be at least 1");
                   }
               }}};
    k.install = [](WorkloadSite&) { throw std::logic_error("registry-probe is never run"); };
    RegisterWorkloadKind(k);
}

class BuiltInKindsTestCase : public TestCase
{
  public:
    BuiltInKindsTestCase()
        : TestCase("the built-in kinds come first, in the documented order, each with what it needs")
    {
    }

  private:
    void DoRun() override
    {
        const auto& kinds = WorkloadKinds();
        NS_TEST_ASSERT_MSG_EQ((kinds.size() >= kBuiltIn.size()), true, "every built-in kind");
        for (std::size_t i = 0; i < kBuiltIn.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(kinds[i]->name, kBuiltIn[i], "position " << i);
            NS_TEST_EXPECT_MSG_EQ(bool(kinds[i]->install), true, kBuiltIn[i] << " installs");
            NS_TEST_EXPECT_MSG_EQ(kinds[i]->keys.empty(), false, kBuiltIn[i] << " has keys");
        }
        NS_TEST_EXPECT_MSG_EQ(IsRdma(WorkloadKind::Incast), true, "incast is RDMA");
        NS_TEST_EXPECT_MSG_EQ(IsRdma(WorkloadKind::SocketsStream), false, "sockets-stream is not");
        NS_TEST_EXPECT_MSG_EQ(IsRdma(WorkloadKind::Inject), false, "inject is not");
        NS_TEST_EXPECT_MSG_EQ(Describe(WorkloadKind::SocketsPingPong).pingPong, true, "a ping-pong kind");
        NS_TEST_EXPECT_MSG_EQ((FindWorkloadKind("no-such-kind") == nullptr), true, "unknown names are not found");
    }
};

class UnknownKindTestCase : public TestCase
{
  public:
    UnknownKindTestCase()
        : TestCase("the unknown-kind error lists every registered kind, a registered one included")
    {
    }

  private:
    void DoRun() override
    {
        RegisterProbeKind();
        std::string expected = "s.yaml:3:20: workloads.0.kind: unknown workload kind 'strem' (expected one of ";
        for (std::size_t i = 0; i < WorkloadKinds().size(); ++i)
        {
            expected += (i ? ", " : "") + WorkloadKinds()[i]->name;
        }
        expected += ")";
        const std::string error = ErrorOf(kHead + "workloads: [{kind: strem, from: h0, to: h1, count: 1}]\n");
        NS_TEST_EXPECT_MSG_EQ(error, expected, "the list is the registry's");
        NS_TEST_EXPECT_MSG_NE(error.find("traffic, collective, registry-probe"), std::string::npos, "built-ins, then registered");
    }
};

class RegisteredKeysTestCase : public TestCase
{
  public:
    RegisteredKeysTestCase()
        : TestCase("a kind registered after the schema was built brings its own keys, for it alone")
    {
    }

  private:
    void DoRun() override
    {
        ErrorOf(kHead + "workloads: [{kind: stream, from: h0, to: h1, count: 1}]\n"); // the schema is built
        RegisterProbeKind();
        const std::string probe = kHead + "workloads: [{kind: registry-probe, from: h0, to: h1, count: 1, ";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(probe + "probe-depth: 3}]\n"), "", "its key is known");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(probe + "probe-depth: 10}]\n"),
                              "s.yaml:3:77: workloads.0.probe-depth: value 10 is above the largest allowed, 9",
                              "its reader checks it");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOf(kHead + "workloads: [{kind: stream, from: h0, to: h1, count: 1, probe-depth: 3}]\n"),
            "s.yaml:3:56: workloads.0.probe-depth: key 'probe-depth' does not apply to workload kind 'stream' "
            "(it applies to: registry-probe)",
            "another kind refuses it, naming the kind it belongs to");
        // Other suites of the same process may have registered kinds that take `size` too.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(probe + "size: 64}]\n")
                                  .rfind("s.yaml:3:64: workloads.0.size: key 'size' does not apply to workload kind "
                                         "'registry-probe' (it applies to: ping-pong, stream, read, sockets-stream, "
                                         "sockets-ping-pong, incast",
                                         0),
                              0u,
                              "a key it does not list");
        NS_TEST_EXPECT_MSG_EQ((ErrorOf(probe + "probe-dpth: 3}]\n").find("did you mean 'probe-depth'?") !=
                                   std::string::npos),
                              true,
                              "the schema suggests its key");
    }
};

class RefusedRegistrationTestCase : public TestCase
{
  public:
    RefusedRegistrationTestCase()
        : TestCase("a kind without a name or installer, with a name taken, a key in another shape or twice, a "
                   "missing reader or an inject its reader cannot fill, is refused")
    {
    }

  private:
    void DoRun() override
    {
        auto refusal = [](WorkloadKindInfo k) {
            return ThrownMessage<std::invalid_argument>([&] { RegisterWorkloadKind(k); });
        };
        WorkloadKindInfo k;
        k.install = [](WorkloadSite&) {};
        NS_TEST_EXPECT_MSG_EQ(refusal(k), "a workload kind needs a name", "no name");
        k.name = "stream";
        NS_TEST_EXPECT_MSG_EQ(refusal(k), "workload kind 'stream' is already registered", "a built-in name");
        k.name = "registry-no-installer";
        k.install = nullptr;
        NS_TEST_EXPECT_MSG_EQ(refusal(k), "workload kind 'registry-no-installer' has no installer", "no installer");
        NS_TEST_EXPECT_MSG_EQ((FindWorkloadKind("registry-no-installer") == nullptr), true, "not added");
        k.name = "registry-list-to";
        k.install = [](WorkloadSite&) {};
        k.keys = {{"to", WorkloadKey::Shape::List, {}, {}, {}}};
        NS_TEST_EXPECT_MSG_EQ(refusal(k),
                              "key 'to' of workload kind 'registry-list-to' is a list, but a scalar (with the same "
                              "fields) for 'ping-pong'",
                              "a shared key in another shape");
        // What would have crashed or been undefined at load (a missing reader, an inject never filled).
        k.name = "registry-twice";
        k.keys = {{"depth", WorkloadKey::Shape::Scalar, {}, {}, {}}, {"depth", WorkloadKey::Shape::List, {}, {}, {}}};
        NS_TEST_EXPECT_MSG_EQ(refusal(k), "workload kind 'registry-twice' lists key 'depth' twice", "a key twice");
        k.keys.clear();
        k.name = "registry-no-reader";
        k.replacesCommon = true;
        NS_TEST_EXPECT_MSG_EQ(refusal(k),
                              "workload kind 'registry-no-reader' replaces the common keys but has no reader",
                              "replacesCommon without a reader (std::bad_function_call at load)");
        k.name = "registry-inject-common";
        k.replacesCommon = false;
        k.family = WorkloadFamily::Inject;
        k.read = [](const scenario::ScenarioReader&, const YAML::Node&, const std::string&, WorkloadConfig&) {};
        NS_TEST_EXPECT_MSG_EQ(refusal(k),
                              "workload kind 'registry-inject-common' is an inject: it needs a reader that replaces "
                              "the common keys and fills its inject",
                              "an inject read through the common keys");
        for (const char* name : {"registry-twice", "registry-no-reader", "registry-inject-common"})
        {
            NS_TEST_EXPECT_MSG_EQ((FindWorkloadKind(name) == nullptr), true, name << " not added");
        }
        // An inject whose reader fills no inject is a load error, not undefined behaviour.
        k.name = "registry-inject-unfilled";
        k.replacesCommon = true;
        k.keys = {{"to", WorkloadKey::Shape::Scalar, {}, {}, {}}};
        RegisterWorkloadKind(k);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kHead + "workloads:\n  - {kind: stream, from: h0, to: h1, count: 1}\n"
                                              "  - {kind: registry-inject-unfilled, to: h1}\n"),
                              "s.yaml:5:5: workloads.1: workload kind 'registry-inject-unfilled' read no inject (its "
                              "reader must fill WorkloadConfig::inject)",
                              "the reader's omission is named");
    }
};

class KindsJsonTestCase : public TestCase
{
  public:
    KindsJsonTestCase()
        : TestCase("the kinds as JSON: one entry per kind with its family, keys and metrics")
    {
    }

  private:
    void DoRun() override
    {
        const nlohmann::json kinds = nlohmann::json::parse(WorkloadKindsJson());
        NS_TEST_ASSERT_MSG_EQ(kinds.size(), WorkloadKinds().size(), "one entry per kind");
        for (std::size_t i = 0; i < kBuiltIn.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(kinds[i]["name"].get<std::string>(), kBuiltIn[i], "in order");
        }
        NS_TEST_EXPECT_MSG_EQ(kinds[0]["family"].get<std::string>(), "rdma", "ping-pong");
        NS_TEST_EXPECT_MSG_EQ(kinds[0]["ping_pong"].get<bool>(), true, "ping-pong");
        NS_TEST_EXPECT_MSG_EQ(kinds[0]["metrics"][0].get<std::string>(), "latency_by_size", "its metric");
        NS_TEST_EXPECT_MSG_EQ(kinds[3]["family"].get<std::string>(), "sockets", "sockets-stream");
        NS_TEST_EXPECT_MSG_EQ(kinds[3]["min_size"].get<uint64_t>(), 16u, "its send timestamp");
        NS_TEST_EXPECT_MSG_EQ(kinds[5]["many_senders"].get<bool>(), true, "incast");
        NS_TEST_EXPECT_MSG_EQ(kinds[6]["rdma"].get<bool>(), false, "inject");
        bool fields = false;
        for (const auto& key : kinds[6]["keys"])
        {
            fields = fields || (key["name"] == "fields" && key["shape"] == "map" && key["fields"].size() == 12);
        }
        NS_TEST_EXPECT_MSG_EQ(fields, true, "inject's fields map with its twelve header fields");
        NS_TEST_EXPECT_MSG_EQ(kinds[2]["ops"], nlohmann::json::array({"read"}), "read: op read only");
    }
};

/**
 * A kind whose server listens on a port of its own choosing, outside the runner's plan: its
 * connection is still the workload's, because the applications report their queue pairs.
 */
class OwnPortTestCase : public TestCase
{
  public:
    OwnPortTestCase()
        : TestCase("a connection belongs to the workload whose application made its QP, whatever its port")
    {
    }

  private:
    void DoRun() override
    {
        if (!FindWorkloadKind("registry-own-port"))
        {
            WorkloadKindInfo k;
            k.name = "registry-own-port";
            k.summary = "test only: a Write stream on port 40000";
            k.keys = {workloadkeys::From(), workloadkeys::To(), workloadkeys::Count()};
            k.install = [](WorkloadSite& site) {
                const WorkloadConfig& c = site.Config();
                const uint16_t port = 40000;
                NS_ABORT_MSG_IF(port == site.Port(), "the test needs a port the runner did not plan");
                RdmaStreamHelper server(RDMA_ROLE_SERVER, port);
                server.SetAttribute("Size", UintegerValue(c.size));
                site.AddApplications(server.Install(site.GetNode(c.to)), 0);
                RdmaStreamHelper client(RDMA_ROLE_CLIENT, port, InetSocketAddress(site.GetHostAddress(c.to), port));
                client.SetAttribute("Op", StringValue("Write"));
                client.SetAttribute("Size", UintegerValue(c.size));
                client.SetAttribute("TotalBytes", UintegerValue(*c.count * c.size));
                ApplicationContainer a = client.Install(site.GetNode(c.from));
                site.AddApplications(a, 1);
                site.FollowStreamClient(a.Get(0), c.from);
            };
            RegisterWorkloadKind(k);
        }
        const RunResult r = RunYamlInTemp("stop: 10ms\ntopology: {kind: two-hosts}\n"
                                          "links: {rate: 10Gbps, delay: 2us}\n"
                                          "workloads: [{kind: registry-own-port, from: h0, to: h1, count: 3}]\n",
                                          "workload-registry",
                                          "own-port");
        NS_TEST_ASSERT_MSG_EQ(r.workloads.size(), 1u, "one workload");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].connections.established, 1u, "its connection was recognised");
        NS_TEST_EXPECT_MSG_EQ(r.workloads[0].messagesDelivered, 3u, "its sink was followed");
        NS_TEST_ASSERT_MSG_EQ(r.messages.size(), 3u, "a record per message");
        for (const MessageRecord& m : r.messages)
        {
            NS_TEST_EXPECT_MSG_EQ(m.firstPlaced.has_value(), true, "placement seen at the sink's DDP");
        }
    }
};

class WorkloadRegistryTestSuite : public TestSuite
{
  public:
    WorkloadRegistryTestSuite()
        : TestSuite("iwarp-workload-registry", UNIT)
    {
        AddTestCase(new BuiltInKindsTestCase, TestCase::QUICK);
        AddTestCase(new UnknownKindTestCase, TestCase::QUICK);
        AddTestCase(new RegisteredKeysTestCase, TestCase::QUICK);
        AddTestCase(new RefusedRegistrationTestCase, TestCase::QUICK);
        AddTestCase(new KindsJsonTestCase, TestCase::QUICK);
        AddTestCase(new OwnPortTestCase, TestCase::QUICK);
    }
};

static WorkloadRegistryTestSuite g_workloadRegistryTestSuite;

} // namespace
} // namespace ns3
