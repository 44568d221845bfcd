/*
 * One log component per class (model/common/class-log-component.h): a class whose code spans several files
 * logs under the class's name from each of them. Regression for issue 30: NS_LOG="DdpEndpoint=..." missed the
 * receive path, which logged as DdpEndpointRx, and the same held for MPA, RDMAP, SCTP sockets and the
 * topology builder's routing.
 */
#include "ddp/ddp-endpoint.h"
#include "ddp/test-lower-layer.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** The classes whose code spans several files, and the per-file components they once logged under. */
const std::vector<std::string> kSplitClasses = {"DdpEndpoint", "HostModel", "MpaConnection", "RdmapEndpoint", "SctpSocket",
                                                "TopologyBuilder"};
const std::vector<std::string> kFileComponents = {
    "DdpEndpointRx",   "MpaConnectionData",  "MpaConnectionSetup", "RdmapReceive",   "RdmapTerminate",
    "SctpSocketAssoc", "SctpSocketData",     "SctpSocketDispatch", "TopologyRouting", "HostModelRdma"};

class ComponentsAreClassNames : public TestCase
{
  public:
    ComponentsAreClassNames()
        : TestCase("each split class has one component under its own name, and no file has one of its own")
    {
    }

  private:
    void DoRun() override
    {
        const LogComponent::ComponentList& all = *LogComponent::GetComponentList();
        for (const std::string& name : kSplitClasses)
        {
            NS_TEST_EXPECT_MSG_EQ(all.count(name), 1u, name << " is a registered log component");
        }
        for (const std::string& name : kFileComponents)
        {
            NS_TEST_EXPECT_MSG_EQ(all.count(name), 0u, name << " (one file of a class) has a component of its own");
        }
    }
};

/** Enabling DdpEndpoint shows what ddp-endpoint-rx.cc logs: a segment too short for a DDP header. */
class ReceivePathLogsUnderTheClass : public TestCase
{
  public:
    ReceivePathLogsUnderTheClass()
        : TestCase("NS_LOG for DdpEndpoint shows its receive path's error")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TestLowerLayer> peer = CreateObject<TestLowerLayer>();
        Ptr<TestLowerLayer> local = CreateObject<TestLowerLayer>();
        TestLowerLayer::Connect(peer, local);
        Ptr<DdpEndpoint> ddp = CreateObject<DdpEndpoint>();
        ddp->SetLowerLayer(local);

        std::ostringstream captured;
        std::streambuf* saved = std::clog.rdbuf(captured.rdbuf());
        LogComponentEnable("DdpEndpoint", LogLevel(LOG_LEVEL_INFO | LOG_PREFIX_FUNC));
        peer->SendRaw({0x41, 0x00}); // two octets: no DDP header fits
        Simulator::Run();
        LogComponentDisable("DdpEndpoint", LOG_LEVEL_ALL);
        std::clog.rdbuf(saved);
        // The endpoint and the two lower layers point at each other: break the cycles.
        ddp->Dispose();
        peer->Dispose();
        local->Dispose();
        Simulator::Destroy();

        const std::string log = captured.str();
        NS_TEST_EXPECT_MSG_NE(log.find("DdpEndpoint:"), std::string::npos,
                              "a line under the class's component; the log was: " << log);
        NS_TEST_EXPECT_MSG_NE(log.find("receive error"), std::string::npos,
                              "the receive path's error is logged; the log was: " << log);
    }
};

class ClassLogComponentTestSuite : public TestSuite
{
  public:
    ClassLogComponentTestSuite()
        : TestSuite("iwarp-class-log-components", UNIT)
    {
        AddTestCase(new ComponentsAreClassNames, TestCase::QUICK);
        AddTestCase(new ReceivePathLogsUnderTheClass, TestCase::QUICK);
    }
};

ClassLogComponentTestSuite g_classLogComponentTestSuite;

} // namespace
