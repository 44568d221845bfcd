/*
 * iwarp-host-profiles: the host profiles (model/host/host-profile.h, doc/host-model.md "Host profiles").
 * - each built-in profile installs: every value it names is one its part accepts and reads back as given;
 * - segmentation offload and receive aggregation (HostModel TsoOctets, GroOctets) count the protocol
 *   packets per super-packet and per aggregate, and one per segment when off;
 * - a scenario names a profile under `host` or a host's `per-host.<name>.host`; the section's own
 *   attributes win over its profile's, a host's own profile over the scenario's; an unknown name is
 *   refused with the built-in names; without one the scenario's hosts run `current`, with `none` the
 *   parts' own defaults; summary.json says which profile each host ran;
 * - calibration: each profile reproduces the published figure its table cites, within 15 %.
 */
#include "helper/host-helper.h"
#include "helper/scenario/scenario-runner.h"
#include "host/host-profile.h"

#include "support/scenario-run-util.h"

#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <iostream>
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace
{

const char* const kSuite = "iwarp-host-profiles";

class InstallTestCase : public TestCase
{
  public:
    InstallTestCase()
        : TestCase("each built-in profile installs, and its parts read back every value it names")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(HostProfiles().size(), 3u, "three eras");
        NS_TEST_EXPECT_MSG_EQ(FindHostProfile("nonesuch"), nullptr, "unknown");
        for (const HostProfile& p : HostProfiles())
        {
            NS_TEST_EXPECT_MSG_EQ(FindHostProfile(p.name), &p, p.name);
            Ptr<Node> node = CreateObject<Node>();
            HostHelper h;
            h.SetProfile(p);
            Ptr<HostModel> host = h.Install(node);
            for (const HostProfileValue& v : p.values)
            {
                NS_TEST_EXPECT_MSG_NE(v.source, "", p.name << " " << v.attribute << ": a source");
                const std::string type = v.attribute.substr(0, v.attribute.rfind("::"));
                const std::string name = v.attribute.substr(v.attribute.rfind("::") + 2);
                Ptr<Object> part = type == "ns3::HostCpuModel"      ? Ptr<Object>(host->GetCpu())
                                   : type == "ns3::HostMemoryModel" ? Ptr<Object>(host->GetMemory())
                                                                    : Ptr<Object>(host);
                // Compared as the attribute's own type writes them: "2500000000" reads back as "2.5e+09".
                TypeId::AttributeInformation info;
                NS_TEST_ASSERT_MSG_EQ(part->GetInstanceTypeId().LookupAttributeByName(name, &info), true,
                                      v.attribute << " exists");
                Ptr<AttributeValue> want = info.checker->Create();
                NS_TEST_ASSERT_MSG_EQ(want->DeserializeFromString(v.value, info.checker), true,
                                      v.attribute << " parses");
                StringValue got;
                part->GetAttribute(name, got);
                NS_TEST_EXPECT_MSG_EQ(got.Get(), want->SerializeToString(info.checker), p.name << ": " << v.attribute);
            }
            Simulator::Destroy();
        }
    }
};

class OffloadTestCase : public TestCase
{
  public:
    OffloadTestCase()
        : TestCase("TSO and GRO: one protocol packet per super-packet and per aggregate; per segment when off")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        HostHelper h;
        Ptr<HostModel> host = h.Install(node);
        NS_TEST_EXPECT_MSG_EQ(host->SendPackets(65536, 1448), 46u, "off: ceil(65536 / 1448)");
        NS_TEST_EXPECT_MSG_EQ(host->SendPackets(1, 1448), 1u, "at least one");
        NS_TEST_EXPECT_MSG_EQ(host->ReceiveAggregates(46, 1448), 46u, "off: one per segment");
        host->SetAttribute("TsoOctets", UintegerValue(65536));
        host->SetAttribute("GroOctets", UintegerValue(65536));
        NS_TEST_EXPECT_MSG_EQ(host->SendPackets(65536, 1448), 1u, "one super-packet");
        NS_TEST_EXPECT_MSG_EQ(host->SendPackets(65537, 1448), 2u, "and one more octet, two");
        NS_TEST_EXPECT_MSG_EQ(host->SendPackets(100, 1448), 1u, "a small send, one");
        NS_TEST_EXPECT_MSG_EQ(host->ReceiveAggregates(45, 1448), 1u, "45 segments of 1448 fit 64 KiB");
        NS_TEST_EXPECT_MSG_EQ(host->ReceiveAggregates(46, 1448), 2u, "46 do not");
        NS_TEST_EXPECT_MSG_EQ(host->ReceiveAggregates(0, 1448), 0u, "nothing, nothing");
        NS_TEST_EXPECT_MSG_EQ(host->ReceiveAggregates(3, 65536 * 2), 3u, "segments above the aggregate: each alone");
        NS_TEST_EXPECT_MSG_EQ(host->SetAttributeFailSafe("TsoOctets", UintegerValue(1 << 20)), false,
                              "above 256 KiB refused");
        Simulator::Destroy();
    }
};

std::string
Stream(const std::string& rate, uint32_t mtu, const std::string& hostSection, uint32_t count)
{
    return "stop: 200ms\ntopology: {kind: two-hosts}\nlinks: {rate: " + rate + ", delay: 1us, mtu: " +
           std::to_string(mtu) + "}\n" + hostSection +
           "workloads:\n  - {name: s, kind: sockets-stream, from: h0, to: h1, size: 64KiB, count: " +
           std::to_string(count) + "}\n";
}

class ScenarioKeyTestCase : public TestCase
{
  public:
    ScenarioKeyTestCase()
        : TestCase("host.profile: the section's own attributes win, a host's profile over the scenario's, an "
                   "unknown name refused, current unless named, none for the parts' defaults, summary.json names "
                   "each host's")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(
            Stream("10Gbps", 1500,
                   "host: {profile: current, HostCpuModel::Cores: 8}\n"
                   "per-host: {h1: {host: {profile: host-2005}}}\n",
                   1),
            {}, "key.yaml");
        NS_TEST_EXPECT_MSG_EQ(cfg.hostProfile, "current", "scenario-wide");
        NS_TEST_EXPECT_MSG_EQ(cfg.host.at("ns3::HostCpuModel::Cores"), "8", "the section's own value wins");
        NS_TEST_EXPECT_MSG_EQ(cfg.host.at("ns3::HostCpuModel::Frequency"), "3400000000", "the profile's");
        NS_TEST_EXPECT_MSG_EQ(cfg.perHost.at("h1").hostProfile, "host-2005", "per host");
        NS_TEST_EXPECT_MSG_EQ(cfg.perHost.at("h1").host.at("ns3::HostCpuModel::Cores"), "2", "over the scenario's");

        const RunResult r = RunInTemp(cfg, kSuite, "key");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(r, "h0").profile, "current", "h0 ran the scenario's");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(r, "h1").profile, "host-2005", "h1 its own");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(r, "h0").cpuBusyPerCore.size(), 8u, "8 cores, as the section said");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(r, "h1").cpuBusyPerCore.size(), 2u, "host-2005's 2");
        const RunResult plain = RunYamlInTemp(Stream("10Gbps", 1500, "", 1), kSuite, "plain");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(plain, "h0").profile, kDefaultHostProfile, "none named: the default");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(plain, "h0").cpuBusyPerCore.size(),
                              std::stoul(FindHostProfile(kDefaultHostProfile)->ValueOf("ns3::HostCpuModel::Cores")),
                              "with its cores");
        const RunResult bare = RunYamlInTemp(Stream("10Gbps", 1500, "host: {profile: none}\n", 1), kSuite, "bare");
        NS_TEST_EXPECT_MSG_EQ(NamedHost(bare, "h0").profile, "none", "none: no profile");
        UintegerValue cores;
        CreateObject<HostCpuModel>()->GetAttribute("Cores", cores);
        NS_TEST_EXPECT_MSG_EQ(NamedHost(bare, "h0").cpuBusyPerCore.size(), cores.Get(), "the parts' own default");

        const std::string error = ErrorOf(Stream("10Gbps", 1500, "host: {profile: host-1999}\n", 1));
        NS_TEST_EXPECT_MSG_NE(error.find("no host profile 'host-1999'"), std::string::npos, error);
        NS_TEST_EXPECT_MSG_NE(error.find(HostProfileNames()), std::string::npos, "names the built-in ones");
        NS_TEST_EXPECT_MSG_NE(ErrorOf(Stream("10Gbps", 1500, "per-host: {h1: {rnic: {profile: current}}}\n", 1)),
                              "", "not a key of rnic");
        const std::string none = ErrorOf(Stream("10Gbps", 1500, "per-host: {h1: {host: {profile: none}}}\n", 1));
        NS_TEST_EXPECT_MSG_NE(none.find("applies to every host"), std::string::npos, none);
    }
};

class CalibrationTestCase : public TestCase
{
  public:
    CalibrationTestCase()
        : TestCase("calibration: each profile reproduces its published figure within 15 %, as doc host-model.md "
                   "tables it")
    {
    }

  private:
    /** The receiver's core time per octet delivered, and the stream's goodput, of one sockets stream. */
    static std::pair<double, double> Run(const std::string& profile, const std::string& rate, uint32_t mtu)
    {
        const uint32_t count = 300;
        const RunResult r =
            RunYamlInTemp(Stream(rate, mtu, "host: {profile: " + profile + "}\n", count), kSuite, profile);
        const WorkloadResult& w = r.workloads.at(0);
        NS_ABORT_MSG_UNLESS(w.completed && w.goodputBps, profile << ": the stream completed");
        double busyNs = 0;
        for (const Time& t : NamedHost(r, "h1").cpuBusyPerCore)
        {
            busyNs += t.GetNanoSeconds();
        }
        return {busyNs / double(w.octetsDelivered), *w.goodputBps};
    }

    void DoRun() override
    {
        // host-2005: Foong et al., 1 Hz of core per bit/s received: a 2.5 GHz core carries 2.5 Gb/s.
        const auto [nsPerOctet2005, goodput2005] = Run("host-2005", "10Gbps", 1500);
        NS_TEST_EXPECT_MSG_EQ_TOL(goodput2005, 2.5e9, 0.15 * 2.5e9, "host-2005: 1 Hz per bit/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(nsPerOctet2005 * 2.5, 8.0, 0.15 * 8.0, "host-2005: 8 cycles per octet");
        // host-2015: Linux's tcp_mmap, 0.225 ns of core per octet received with the copy.
        const auto [nsPerOctet2015, goodput2015] = Run("host-2015", "100Gbps", 1500);
        NS_TEST_EXPECT_MSG_EQ_TOL(nsPerOctet2015, 0.225, 0.15 * 0.225, "host-2015: 0.225 ns per octet");
        NS_TEST_EXPECT_MSG_GT(goodput2015, 0.85 / 0.225e-9 * 8, "host-2015: its core is the bound");
        // current: Cai et al., one flow with jumbo frames reaches about 42 Gb/s, its receiving core full.
        const auto [nsPerOctetNow, goodputNow] = Run("current", "100Gbps", 9000);
        NS_TEST_EXPECT_MSG_EQ_TOL(goodputNow, 42e9, 0.15 * 42e9, "current: 42 Gb/s of one flow");
        // The receiving core's busy share while the stream ran: its time per octet times octets per second.
        NS_TEST_EXPECT_MSG_EQ_TOL(nsPerOctetNow * 1e-9 * goodputNow / 8, 1.0, 0.15, "current: its core saturated");
        std::clog << "  calibration (doc/host-model.md): host-2005 " << nsPerOctet2005 * 2.5 << " cycles/octet, "
                  << goodput2005 * 1e-9 << " Gb/s; host-2015 " << nsPerOctet2015 << " ns/octet, " << goodput2015 * 1e-9
                  << " Gb/s; current " << goodputNow * 1e-9 << " Gb/s, core busy "
                  << nsPerOctetNow * 1e-9 * goodputNow / 8 << "\n";
    }
};

class HostProfilesTestSuite : public TestSuite
{
  public:
    HostProfilesTestSuite()
        : TestSuite(kSuite, UNIT)
    {
        AddTestCase(new InstallTestCase(), TestCase::QUICK);
        AddTestCase(new OffloadTestCase(), TestCase::QUICK);
        AddTestCase(new ScenarioKeyTestCase(), TestCase::QUICK);
        AddTestCase(new CalibrationTestCase(), TestCase::QUICK);
    }
};

HostProfilesTestSuite g_hostProfilesTestSuite;

} // namespace
} // namespace ns3
