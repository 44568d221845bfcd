/*
 * iwarp-host-idle-times: HostModel::IdleSendTime and IdleReadTime, the sockets baseline's fixed costs in its
 * ideal FCT (doc/traffic.md), equal what SocketSend and SocketReceive take on an idle host of each built-in
 * profile, with and without checksum offload and DDIO, the stack on the copy's core (aRFS) or another (RSS),
 * to the picosecond; and a read never takes less than IdleReadTime.
 */
#include "helper/host-helper.h"
#include "host/host-profile.h"

#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace
{

/** A host of `profile` on a node of its own, with checksum offload `offload`. */
Ptr<HostModel>
ProfileHost(const std::string& profile, bool offload)
{
    HostHelper h;
    h.SetProfile(*FindHostProfile(profile));
    h.SetHostAttribute("ChecksumOffload", BooleanValue(offload));
    return h.Install(CreateObject<Node>());
}

/** When `start` (run on an idle host from time 0) calls its callback. */
Time
Measure(const std::function<void(Callback<void>)>& start)
{
    Time at = Time::Max();
    start(MakeBoundCallback(+[](Time* t) { *t = Simulator::Now(); }, &at));
    Simulator::Run();
    Simulator::Destroy();
    return at;
}

class SendTestCase : public TestCase
{
  public:
    SendTestCase()
        : TestCase("IdleSendTime equals SocketSend on an idle host: each profile, checksum offload or not, "
                   "zero-copy or not")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* profile : {"host-2005", "host-2015", "current"})
        {
            for (bool offload : {true, false})
            {
                for (bool zeroCopy : {false, true})
                {
                    for (uint64_t n : {uint64_t(1), uint64_t(1464), uint64_t(70000), uint64_t(3'000'000)})
                    {
                        Ptr<HostModel> host = ProfileHost(profile, offload);
                        const uint32_t p = host->SendPackets(n, 1448);
                        const Time expected = host->IdleSendTime(n, p, zeroCopy);
                        const Time measured = Measure([&](Callback<void> done) {
                            host->SocketSend(n, p, done, HostModel::kAnyCore, zeroCopy);
                        });
                        NS_TEST_EXPECT_MSG_EQ(measured, expected,
                                              profile << " offload " << offload << " zero-copy " << zeroCopy
                                                      << " " << n << " octets");
                    }
                }
            }
        }
    }
};

class ReadTestCase : public TestCase
{
  public:
    ReadTestCase()
        : TestCase("IdleReadTime is the faster of SocketReceive's two core placements on an idle host, "
                   "cached or not")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* profile : {"host-2005", "host-2015", "current"})
        {
            for (bool offload : {true, false})
            {
                for (uint64_t n : {uint64_t(1), uint64_t(1448), uint64_t(65536)})
                {
                    for (uint64_t cached : {uint64_t(0), n / 2, n})
                    {
                        Check(profile, offload, n, cached);
                    }
                }
            }
        }
    }

    void Check(const char* profile, bool offload, uint64_t n, uint64_t cached)
    {
        const uint32_t p = uint32_t((n + 1447) / 1448);
        Ptr<HostModel> fusedHost = ProfileHost(profile, offload);
        const Time expected = fusedHost->IdleReadTime(n, p, cached);
        // Asked before the run: after it the host is disposed, and asking would tie its parts up again (a leak).
        const bool twoCores = fusedHost->GetCpu()->GetCores() > 1;
        const Time fused = Measure([&](Callback<void> done) { fusedHost->SocketReceive(n, p, done, 0, cached, 0); });
        Time split = Time::Max();
        if (twoCores)
        {
            Ptr<HostModel> splitHost = ProfileHost(profile, offload);
            split = Measure([&](Callback<void> done) { splitHost->SocketReceive(n, p, done, 0, cached, 1); });
        }
        const std::string what = std::string(profile) + " offload " + std::to_string(offload) + " " +
                                 std::to_string(n) + " octets, " + std::to_string(cached) + " cached";
        NS_TEST_EXPECT_MSG_EQ(std::min(fused, split), expected, what);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(fused, expected, what << ": never less (stack and copy on one core)");
    }
};

class HostIdleTimesTestSuite : public TestSuite
{
  public:
    HostIdleTimesTestSuite()
        : TestSuite("iwarp-host-idle-times", UNIT)
    {
        AddTestCase(new SendTestCase, TestCase::QUICK);
        AddTestCase(new ReadTestCase, TestCase::QUICK);
    }
};

HostIdleTimesTestSuite g_hostIdleTimesTestSuite;

} // namespace
} // namespace ns3
