/*
 * iwarp-rdma-host-costs: what RDMA costs its hosts' cores, as a whole scenario measures it (doc/host-model.md,
 * "RDMA's host costs"). Issue 27 reported RDMA at exactly 0 cycles: posting, completions and registration
 * were free, so any CPU ratio against sockets was infinite. Now each work request posted and each completion
 * reaped costs the `current` profile's cycles on the connection's core, a completion queue armed for events
 * adds an event per completion, and a registration costs a fixed part and a part per page; none of it grows
 * with the octets a request moves.
 */
#include "helper/scenario/scenario-runner.h"
#include "host/host-profile.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-rdma-host-costs";
/** The `current` profile's clock (host-profile.cc). */
const double kCurrentHz = std::stod(FindHostProfile("current")->ValueOf("ns3::HostCpuModel::Frequency"));

std::string
WriteStream(const std::string& size, uint32_t count, const std::string& rnic = "")
{
    return "stop: 100ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 5us}\nhost: {profile: current}\n" +
           (rnic.empty() ? std::string() : "rnic: {" + rnic + "}\n") +
           "workloads:\n  - {name: w, kind: stream, op: write, from: h0, to: h1, size: " + size +
           ", count: " + std::to_string(count) + ", outstanding: 4}\n";
}

double
Counter(const RunResult& r, const std::string& host, const std::string& name)
{
    return NamedHost(r, host).counters.at(name);
}

class PerRequestTestCase : public TestCase
{
  public:
    PerRequestTestCase()
        : TestCase("RDMA's cycles are above zero and grow with work requests and completions, not with octets")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult small = RunYamlInTemp(WriteStream("4KiB", 50), kSuite, "small");
        const RunResult large = RunYamlInTemp(WriteStream("64KiB", 50), kSuite, "large");
        const RunResult more = RunYamlInTemp(WriteStream("4KiB", 100), kSuite, "more");
        for (const RunResult* r : {&small, &large, &more})
        {
            NS_TEST_ASSERT_MSG_EQ(r->workloads.at(0).completed, true, "the stream completed");
        }
        const double verbs4 = Counter(small, "h0", "cpu_cycles_verbs");
        NS_TEST_EXPECT_MSG_GT(verbs4, 0.0, "the sender's verbs cost cycles");
        NS_TEST_EXPECT_MSG_EQ(Counter(large, "h0", "cpu_cycles_verbs"), verbs4,
                              "16 times the octets, the same requests: the same verbs cycles");
        // 50 more Writes: 50 more posts and 50 more completions, each at the profile's figure.
        const double perWrite = double(CyclesAt(VerbsCostNs::kPost, kCurrentHz) +
                                       CyclesAt(VerbsCostNs::kPoll, kCurrentHz));
        NS_TEST_EXPECT_MSG_EQ(Counter(more, "h0", "cpu_cycles_verbs") - verbs4, 50 * perWrite,
                              "each Write costs a post and a completion");
        NS_TEST_EXPECT_MSG_EQ(Counter(small, "h0", "cpu_cycles_copy") + Counter(small, "h0", "cpu_cycles_stack"), 0.0,
                              "RDMA copies nothing and runs no host stack");
        // The cycles are counted in the host's total and the summary's per-use columns add up to it.
        double uses = 0;
        for (const char* use : {"stack", "copy", "crc", "verbs", "registration"})
        {
            uses += Counter(large, "h0", std::string("cpu_cycles_") + use);
        }
        NS_TEST_EXPECT_MSG_EQ(uses, Counter(large, "h0", "cpu_cycles"), "cycles by use add up to the total");
    }
};

class RegistrationTestCase : public TestCase
{
  public:
    RegistrationTestCase()
        : TestCase("memory registration costs a fixed part and a part per 4 KiB page, on both hosts")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult small = RunYamlInTemp(WriteStream("4KiB", 20), kSuite, "reg-small");
        const RunResult large = RunYamlInTemp(WriteStream("1MiB", 20), kSuite, "reg-large");
        const double fixed = double(CyclesAt(VerbsCostNs::kRegister, kCurrentHz));
        const double page = double(CyclesAt(VerbsCostNs::kRegisterPage, kCurrentHz));
        for (const char* host : {"h0", "h1"})
        {
            const double a = Counter(small, host, "cpu_cycles_registration");
            const double b = Counter(large, host, "cpu_cycles_registration");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(a, fixed + page, host << ": at least one registration of a page");
            // The regions differ by whole pages only: the difference is a whole number of page costs.
            const double pages = (b - a) / page;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(pages, 255.0, host << ": a 1 MiB region pins 255 pages more than 4 KiB");
            NS_TEST_EXPECT_MSG_EQ(pages, double(uint64_t(pages)), host << ": whole pages");
        }
    }
};

class EventModeTestCase : public TestCase
{
  public:
    EventModeTestCase()
        : TestCase("a completion queue armed for events adds one event's cycles per completion; busy-polling none")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult polled = RunYamlInTemp(WriteStream("4KiB", 40), kSuite, "poll");
        const RunResult evented =
            RunYamlInTemp(WriteStream("4KiB", 40, "CompletionQueue::Notification: Event"), kSuite, "event");
        NS_TEST_ASSERT_MSG_EQ(evented.workloads.at(0).completed, true, "the stream completed");
        const double event = double(CyclesAt(VerbsCostNs::kEvent, kCurrentHz));
        NS_TEST_EXPECT_MSG_EQ(Counter(evented, "h0", "cpu_cycles_verbs") - Counter(polled, "h0", "cpu_cycles_verbs"),
                              42 * event,
                              "the sender: one event per completion: the 40 Writes', the closing zero-length Send's "
                              "and the receive of the server's answer to it");
    }
};

class CoresTestCase : public TestCase
{
  public:
    CoresTestCase()
        : TestCase("each connection's verbs run on the core of its completion queue: two streams, two cores alike")
    {
    }

  private:
    void DoRun() override
    {
        // Two Write streams from h0, each with its own completion queue, so its own core (round-robin); the
        // verbs' jobs are short, so on any free core they would all land on core 0.
        const RunResult r = RunYamlInTemp(
            "stop: 100ms\ntopology: {kind: two-hosts}\nlinks: {rate: 10Gbps, delay: 5us}\nhost: {profile: current}\n"
            "workloads:\n"
            "  - {name: a, kind: stream, op: write, from: h0, to: h1, size: 4KiB, count: 200, outstanding: 4}\n"
            "  - {name: b, kind: stream, op: write, from: h0, to: h1, size: 4KiB, count: 200, outstanding: 4}\n",
            kSuite, "cores");
        const std::vector<Time>& busy = NamedHost(r, "h0").cpuBusyPerCore;
        NS_TEST_ASSERT_MSG_EQ(busy.size(), 6u, "the current profile's six cores");
        NS_TEST_EXPECT_MSG_GT(busy[0], Time(0), "stream a's core");
        NS_TEST_EXPECT_MSG_GT(busy[1], Time(0), "stream b's core");
        NS_TEST_EXPECT_MSG_EQ_TOL(busy[1].GetSeconds(), busy[0].GetSeconds(), 0.2 * busy[0].GetSeconds(),
                                  "the same work on each");
        for (std::size_t c = 2; c < busy.size(); ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(busy[c], Time(0), "core " << c << " idle");
        }
    }
};

class RdmaHostCostsTestSuite : public TestSuite
{
  public:
    RdmaHostCostsTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new PerRequestTestCase(), TestCase::QUICK);
        AddTestCase(new RegistrationTestCase(), TestCase::QUICK);
        AddTestCase(new EventModeTestCase(), TestCase::QUICK);
        AddTestCase(new CoresTestCase(), TestCase::QUICK);
    }
};

RdmaHostCostsTestSuite g_rdmaHostCostsTestSuite;

} // namespace
} // namespace ns3
