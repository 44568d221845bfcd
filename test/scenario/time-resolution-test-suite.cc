/*
 * iwarp-time-resolution: the module simulates in picoseconds (model/common/time-resolution.h), so a frame's
 * serialisation time is exact at every link rate a data-center study uses, and the physics checks hold at each.
 * At ns-3's default nanoseconds a 1502-octet frame took 300 ns at 40 Gb/s instead of 300.4 ns, and a 40 Gb/s
 * RDMA Write stream reported 38.07 Gb/s of goodput against its payload limit of 38.03 (issue 27, reproduced on
 * f4fd7a0): each case below fails there. Each host runs the engine profile of its link's class (t5-40g up to
 * 40 Gb/s, t6-100g above); at 200 and 400 Gb/s at MTU 1500 the t6-100g engine (103.6 Gb/s), not the link, limits a
 * stream; the second case holds the goodput to the engine's ceiling too.
 */
#include "common/iwarp-constants.h"
#include "common/time-resolution.h"
#include "rnic/rnic-pipeline.h"
#include "rnic/rnic-profile.h"
#include "helper/common/units.h"

#include "support/scenario-run-util.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <iostream>
#include <string>

namespace ns3
{
namespace
{

/** The rates of the issue: 10 to 400 Gb/s, in Gb/s. */
constexpr uint64_t kRatesGbps[] = {10, 25, 40, 100, 200, 400};

/** A full Ethernet-MTU frame on a point-to-point link: 1500 octets of IP and 2 of PPP. */
constexpr uint64_t kFrameOctets = 1502;

class FrameTimesAreExactTestCase : public TestCase
{
  public:
    FrameTimesAreExactTestCase()
        : TestCase("the test runner runs at picoseconds; frame times are exact from 10 to 400 Gbit per s")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(iwarp::AtModuleTimeResolution(), true, "set first in the runner's main");
        NS_TEST_EXPECT_MSG_EQ(TimeStep(1), PicoSeconds(1), "one step is a picosecond");
        for (uint64_t gbps : kRatesGbps)
        {
            // 8 bits per octet at `gbps` x 10^9 bit/s, in picoseconds: whole for these rates.
            const uint64_t ps = kFrameOctets * 8 * 1000 / gbps;
            NS_TEST_ASSERT_MSG_EQ(kFrameOctets * 8 * 1000 % gbps, 0u, "a whole number of picoseconds");
            const Time t = DataRate(std::to_string(gbps) + "Gbps").CalculateBytesTxTime(kFrameOctets);
            NS_TEST_EXPECT_MSG_EQ(t, PicoSeconds(ps), gbps << " Gb/s: " << kFrameOctets << " octets");
        }
        // Written as nanoseconds with their fraction (a scenario file itself takes whole nanoseconds).
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatTime(PicoSeconds(300400)), "300.4ns", "40 Gb/s frame");
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatTime(PicoSeconds(30040)), "30.04ns", "400 Gb/s frame");
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatTime(PicoSeconds(1)), "0.001ns", "one step");
        NS_TEST_EXPECT_MSG_EQ(scenario::FormatTime(MilliSeconds(20)), "20ms", "whole units as before");
        // The clock holds 2^63 ps: a longer time is refused, not wrapped to a negative one.
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage<scenario::UnitError>([] { scenario::ParseTime("10000000s"); }),
                              "time \"10000000s\" is too large: the simulation clock holds at most 106 days",
                              "about 116 days");
        NS_TEST_EXPECT_MSG_EQ(scenario::ParseTime("9000000s"), Seconds(9000000),
                              "about 104 days fit");
    }
};

/** An RDMA Write stream over `llp` on a two-host link of `gbps`, long enough to fill it. */
std::string
StreamAt(uint64_t gbps, const std::string& llp)
{
    return "stop: 20ms\ntopology: {kind: two-hosts}\nlinks: {rate: " + std::to_string(gbps) +
           "Gbps, delay: 1us}\nworkloads:\n  - {kind: stream, from: h0, to: h1, op: write, size: 256KiB, "
           "count: 48, outstanding: 4, llp: " + llp + "}\n";
}

/**
 * The RNIC engine's ceiling for a stream of full RDMA Write segments over `llp` at MTU 1500 on a host whose link
 * runs at `gbps`, with the engine profile of that link class (rnic/rnic-profile.h): each segment costs the engine
 * TxPerSegment (RxPerSegment on the other side) plus its octets at EngineRate, one after the other
 * (RnicPipeline::Cost); the per-message costs come on top, so this is an upper bound.
 */
double
EngineLimitBps(const std::string& llp, uint64_t gbps)
{
    const ScenarioConfig cfg = LoadScenarioString(StreamAt(100, llp), {}, "engine.yaml");
    const uint32_t mulpdu = cfg.workloads.at(0).llp->mulpdu(cfg, 1500).octets;
    Ptr<RnicPipeline> engine = CreateObject<RnicPipeline>();
    for (const ProfileValue& v : RnicProfileForLink(double(gbps) * 1e9).values)
    {
        engine->SetAttribute(v.attribute.substr(v.attribute.rfind("::") + 2), StringValue(v.value));
    }
    TimeValue tx;
    TimeValue rx;
    DataRateValue rate;
    engine->GetAttribute("TxPerSegment", tx);
    engine->GetAttribute("RxPerSegment", rx);
    engine->GetAttribute("EngineRate", rate);
    const Time perSegment = Max(tx.Get(), rx.Get()) + rate.Get().CalculateBytesTxTime(mulpdu);
    return double(mulpdu - iwarp::kDdpTaggedHdrLen) * 8 / perSegment.GetSeconds();
}

class PhysicsAtEveryRateTestCase : public TestCase
{
  public:
    PhysicsAtEveryRateTestCase()
        : TestCase("with the defaults, every physics check passes from 10 to 400 Gbit per s, over MPA-TCP and SCTP")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* llp : {"tcp", "sctp"})
        {
            for (uint64_t gbps : kRatesGbps)
            {
                const std::string tag = std::string(llp) + "-" + std::to_string(gbps) + "g";
                const RunResult r = RunYamlInTemp(StreamAt(gbps, llp), "time-resolution", tag);
                const WorkloadResult& w = r.workloads.at(0);
                NS_TEST_EXPECT_MSG_EQ(w.completed, true, tag << ": every message delivered");
                NS_TEST_ASSERT_MSG_EQ(w.goodputBps.has_value(), true, tag << ": a goodput");
                const double engine = EngineLimitBps(llp, gbps);
                std::clog << "  " << tag << ": goodput " << *w.goodputBps / 1e9 << " Gb/s, engine ceiling "
                          << engine / 1e9 << " Gb/s\n";
                // Above the engine's ceiling the engine, not the link, limits a stream (doc/rnic-model.md):
                // within 5 % of it (the per-message costs, 2.5 % of a 256 KiB message on t6-100g), at 200 Gb/s as
                // at 400. summary.json states the ceiling of an MPA/TCP stream for each host.
                NS_TEST_EXPECT_MSG_LT_OR_EQ(*w.goodputBps, engine, tag << ": at most the engine's ceiling");
                if (double(gbps) * 1e9 > engine)
                {
                    NS_TEST_EXPECT_MSG_GT(*w.goodputBps, 0.95 * engine, tag << ": the engine limits it");
                }
                if (std::string(llp) == "tcp")
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(NamedHost(r, "h1").engineLimitBps, engine, 1.0,
                                              tag << ": summary.json's engine_limit_bps");
                    NS_TEST_EXPECT_MSG_EQ(NamedHost(r, "h1").rnicProfile,
                                          RnicProfileForLink(double(gbps) * 1e9).name, tag << ": the link class's");
                }
                for (const CheckResult& c : r.checks)
                {
                    NS_TEST_EXPECT_MSG_EQ(c.pass, true,
                                          tag << ": " << c.name << " " << c.subject << ": " << c.value << " against "
                                              << c.bound << " " << c.unit << " (" << c.detail << ")");
                }
            }
        }
    }
};

class TimeResolutionTestSuite : public TestSuite
{
  public:
    TimeResolutionTestSuite()
        : TestSuite("iwarp-time-resolution", UNIT)
    {
        AddTestCase(new FrameTimesAreExactTestCase, TestCase::QUICK);
        AddTestCase(new PhysicsAtEveryRateTestCase, TestCase::QUICK);
    }
};

TimeResolutionTestSuite g_timeResolutionTestSuite;

} // namespace
} // namespace ns3
