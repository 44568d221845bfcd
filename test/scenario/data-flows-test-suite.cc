/*
 * iwarp-scenario-data-flows: which way each workload's data flows (helper/scenario/data-flows.h), the one
 * statement of that rule: from `from` to `to`, back from `to` to `from` for an RDMA Read (kind read, or a stream
 * with op read: the Read Responses carry the data), one flow per sender for an incast, none for an injection.
 * summary.json lists the flows (workloads[].data_flows) for the Python sweep.
 */
#include "helper/scenario/data-flows.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"

#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** One workload of each shape on a four-host leaf-spine, by name. */
const char* const kScenario = R"(
name: flows
stop: 1ms
topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2}
workloads:
  - {name: write, kind: stream, from: h0, to: h1, op: write, size: 4KiB, count: 1}
  - {name: send, kind: stream, from: h0, to: h2, op: send, size: 4KiB, count: 1, llp: tcp}
  - {name: stream-read, kind: stream, from: h3, to: h1, op: read, size: 4KiB, count: 1}
  - {name: read, kind: read, from: h2, to: h0, size: 4KiB, count: 1}
  - {name: fan-in, kind: incast, senders: [h1, h2, h3], to: h0, size: 4KiB, count: 1}
  - {name: pp, kind: ping-pong, from: h1, to: h3, op: send, size: 64, count: 1}
  - {name: baseline, kind: sockets-stream, from: h2, to: h3, size: 4KiB, count: 1}
  - {name: bad, kind: inject, target: write, from: h0, to: h1, at: 10us,
     fields: {tagged: true, last: true, stag: 0xdead, to: 0, opcode: write}}
)";

const WorkloadConfig&
Named(const ScenarioConfig& cfg, const std::string& name)
{
    for (const WorkloadConfig& w : cfg.workloads)
    {
        if (w.name == name)
        {
            return w;
        }
    }
    NS_FATAL_ERROR("no workload " << name);
}

std::string
Text(const std::vector<DataFlow>& flows)
{
    std::string out;
    for (const DataFlow& f : flows)
    {
        out += (out.empty() ? "" : " ") + f.source + ">" + f.sink;
    }
    return out;
}

class FlowsPerKindTestCase : public TestCase
{
  public:
    FlowsPerKindTestCase()
        : TestCase("data flows: forward for writes, sends, ping-pongs and sockets; back for reads; per sender")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(kScenario, {}, "flows.yaml");
        const std::vector<std::pair<std::string, std::string>> expected = {
            {"write", "h0>h1"},     {"send", "h0>h2"},
            {"stream-read", "h1>h3"}, {"read", "h0>h2"},
            {"fan-in", "h1>h0 h2>h0 h3>h0"}, {"pp", "h1>h3"},
            {"baseline", "h2>h3"},  {"bad", ""}};
        for (const auto& [name, flows] : expected)
        {
            const WorkloadConfig& w = Named(cfg, name);
            NS_TEST_EXPECT_MSG_EQ(Text(DataFlowsOf(w)), flows, name);
            const bool back = name == "stream-read" || name == "read";
            NS_TEST_EXPECT_MSG_EQ(DataFlowsBack(w), back, name << ": its data flows back");
        }
        NS_TEST_EXPECT_MSG_EQ(DataSinkOf(Named(cfg, "read")), "h2", "a Read's data lands at its requester");
        NS_TEST_EXPECT_MSG_EQ(DataSinkOf(Named(cfg, "write")), "h1", "a Write's at its target");
    }
};

class SummaryListsFlowsTestCase : public TestCase
{
  public:
    SummaryListsFlowsTestCase()
        : TestCase("summary.json: each workload's data_flows as {source, sink}, an empty list for none")
    {
    }

  private:
    void DoRun() override
    {
        RunResult r;
        WorkloadResult fanIn;
        fanIn.name = "fan-in";
        fanIn.dataFlows = {{"h1", "h0"}, {"h2", "h0"}};
        WorkloadResult inject;
        inject.name = "bad";
        r.workloads = {fanIn, inject};
        const nlohmann::json j = nlohmann::json::parse(ResultsWriter::SummaryJson(r));
        NS_TEST_EXPECT_MSG_EQ(j.at("format").get<int>(), kSummaryFormat, "the current format");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(kSummaryFormat, 3, "data_flows came with format 3");
        const nlohmann::json expected =
            nlohmann::json::array({{{"source", "h1"}, {"sink", "h0"}}, {{"source", "h2"}, {"sink", "h0"}}});
        NS_TEST_EXPECT_MSG_EQ(j.at("workloads").at(0).at("data_flows").dump(), expected.dump(), "two flows");
        NS_TEST_EXPECT_MSG_EQ(j.at("workloads").at(1).at("data_flows").dump(), "[]", "none, an empty list");
    }
};

class DataFlowsTestSuite : public TestSuite
{
  public:
    DataFlowsTestSuite()
        : TestSuite("iwarp-scenario-data-flows", UNIT)
    {
        AddTestCase(new FlowsPerKindTestCase, TestCase::QUICK);
        AddTestCase(new SummaryListsFlowsTestCase, TestCase::QUICK);
    }
};

static DataFlowsTestSuite g_dataFlowsTestSuite;

} // namespace
} // namespace ns3
