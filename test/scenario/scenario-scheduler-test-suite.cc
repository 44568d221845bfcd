/*
 * iwarp-scenario-scheduler: the `scheduler:` key (helper/scenario/event-scheduler.h). Every ns-3
 * scheduler orders events by time and then by insertion, so a scenario must give the same summary
 * on each of them (only the wall time may differ); the key must reach the simulator (a scheduler
 * of this suite's own counts what it is given); and a bad name is a load error naming the choices.
 */
#include "helper/scenario/event-scheduler.h"
#include "helper/scenario/results-writer.h"

#include "support/scenario-run-util.h"

#include "ns3/map-scheduler.h"
#include "ns3/test.h"

#include <nlohmann/json.hpp>

namespace ns3
{

/** A MapScheduler that counts the events it is given: proof that a scenario's scheduler is used. */
class InsertCountingScheduler : public MapScheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::InsertCountingScheduler")
                                .SetParent<MapScheduler>()
                                .SetGroupName("Iwarp")
                                .AddConstructor<InsertCountingScheduler>();
        return tid;
    }

    void Insert(const Event& ev) override
    {
        ++s_inserted;
        MapScheduler::Insert(ev);
    }

    static uint64_t s_inserted;
};

uint64_t InsertCountingScheduler::s_inserted = 0;
NS_OBJECT_ENSURE_REGISTERED(InsertCountingScheduler);

namespace
{

// Loss and reordering draw random numbers, a Write stream and the sockets baseline share a
// bottleneck: enough for an ordering difference to show in the figures.
const std::string kScenario = R"(stop: 3ms
links: {rate: 10Gbps, delay: 2us}
topology: {kind: dumbbell, hosts-per-side: 2, bottleneck: {rate: 2Gbps, delay: 5us, loss: 0.01,
           reorder: {fraction: 0.05, delay: 20us}}}
workloads:
  - {kind: stream, op: write, from: h0, to: h2, size: 65536, outstanding: 4, duration: 3ms}
  - {kind: sockets-stream, from: h1, to: h3, size: 65536, duration: 3ms}
  - {kind: ping-pong, from: h2, to: h0, size: 512, count: 20}
)";

/** The summary without what may differ between schedulers: wall time, the scheduler, the --set naming it. */
nlohmann::json
Comparable(const RunResult& r)
{
    nlohmann::json j = nlohmann::json::parse(ResultsWriter::SummaryJson(r));
    for (const char* key : {"wall_time_s", "events_per_wall_s", "scheduler", "overrides"})
    {
        j.erase(key);
    }
    return j;
}

class SameResultsTestCase : public TestCase
{
  public:
    SameResultsTestCase()
        : TestCase("every scheduler gives the same summary: events ordered by time, then insertion")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult reference = RunYamlInTemp(kScenario, "scheduler", "map", {"scheduler=map"});
        NS_TEST_ASSERT_MSG_EQ(reference.scheduler, "map", "the summary names the scheduler used");
        NS_TEST_ASSERT_MSG_GT(reference.events, 5000u, "the scenario does something");
        const nlohmann::json expected = Comparable(reference);
        for (const std::string& name : scenario::SchedulerNames())
        {
            const RunResult r = RunYamlInTemp(kScenario, "scheduler", name, {"scheduler=" + name});
            NS_TEST_EXPECT_MSG_EQ(r.scheduler, name, "the summary names the scheduler used");
            const nlohmann::json got = Comparable(r);
            NS_TEST_EXPECT_MSG_EQ(got.size(), expected.size(), "the same keys on " << name);
            for (const auto& [key, value] : expected.items())
            {
                // Key by key, so that a difference names where it is rather than printing two summaries.
                NS_TEST_EXPECT_MSG_EQ(got.value(key, nlohmann::json()).dump(), value.dump(),
                                      "summary." << key << " on " << name << " as on map");
            }
        }
    }
};

class KeyReachesSimulatorTestCase : public TestCase
{
  public:
    KeyReachesSimulatorTestCase()
        : TestCase("the scheduler named by TypeId runs the scenario; no key gives the documented default")
    {
    }

  private:
    void DoRun() override
    {
        InsertCountingScheduler::s_inserted = 0;
        const RunResult counted =
            RunYamlInTemp(kScenario, "scheduler", "counting", {"scheduler=ns3::InsertCountingScheduler"});
        NS_TEST_ASSERT_MSG_GT(InsertCountingScheduler::s_inserted, counted.events - 1,
                              "every event the run processed went through the scenario's scheduler");
        NS_TEST_EXPECT_MSG_EQ(counted.scheduler, "ns3::InsertCountingScheduler", "recorded as named");

        InsertCountingScheduler::s_inserted = 0;
        const RunResult plain = RunYamlInTemp(kScenario, "scheduler", "default");
        NS_TEST_EXPECT_MSG_EQ(InsertCountingScheduler::s_inserted, 0u, "the next run does not inherit it");
        NS_TEST_EXPECT_MSG_EQ(plain.scheduler, std::string(scenario::kDefaultScheduler), "the default, recorded");
        NS_TEST_EXPECT_MSG_EQ(plain.events, counted.events, "same events on the default");
    }
};

class BadNameTestCase : public TestCase
{
  public:
    BadNameTestCase()
        : TestCase("an unknown scheduler, or a TypeId that is no Scheduler, is a load error with the choices")
    {
    }

  private:
    void DoRun() override
    {
        const std::string unknown = ErrorOf(kScenario + "scheduler: fast\n");
        NS_TEST_EXPECT_MSG_NE(unknown.find("s.yaml:9:"), std::string::npos, "file and line: " << unknown);
        NS_TEST_EXPECT_MSG_NE(unknown.find("unknown event scheduler 'fast'"), std::string::npos, unknown);
        NS_TEST_EXPECT_MSG_NE(unknown.find("calendar, heap, list, map, priority-queue"), std::string::npos, unknown);
        const std::string notScheduler = ErrorOf(kScenario, {"scheduler=ns3::Node"});
        NS_TEST_EXPECT_MSG_NE(notScheduler.find("unknown event scheduler 'ns3::Node'"), std::string::npos,
                              notScheduler);
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(kScenario, {"scheduler=ns3::HeapScheduler"}), "", "a Scheduler TypeId loads");
        NS_TEST_EXPECT_MSG_NE(ErrorOf(kScenario, {"scheduler=[map]"}), "", "a list is no name");
    }
};

class ScenarioSchedulerTestSuite : public TestSuite
{
  public:
    ScenarioSchedulerTestSuite()
        : TestSuite("iwarp-scenario-scheduler", UNIT)
    {
        AddTestCase(new SameResultsTestCase, TestCase::QUICK);
        AddTestCase(new KeyReachesSimulatorTestCase, TestCase::QUICK);
        AddTestCase(new BadNameTestCase, TestCase::QUICK);
    }
};

static ScenarioSchedulerTestSuite g_scenarioSchedulerTestSuite;

} // namespace
} // namespace ns3
