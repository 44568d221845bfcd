#include "helper/scenario/socket-defaults.h"

#include "transport/transport-profile.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LlpSocketDefaults);

TypeId
LlpSocketDefaults::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LlpSocketDefaults")
            .SetParent<Application>()
            .SetGroupName("Iwarp")
            .AddConstructor<LlpSocketDefaults>()
            .AddAttribute("SegmentSize", "TCP SegmentSize for the next application's sockets (0: leave)",
                          UintegerValue(0), MakeUintegerAccessor(&LlpSocketDefaults::m_segmentSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pmtu", "SCTP Pmtu for the next application's sockets (0: leave)", UintegerValue(0),
                          MakeUintegerAccessor(&LlpSocketDefaults::m_pmtu), MakeUintegerChecker<uint32_t>());
    return tid;
}

void
LlpSocketDefaults::StartApplication()
{
    // The node's profile, not ns-3's defaults: other nodes, and the next run in this process, are
    // not touched.
    Ptr<TransportProfile> profile = TransportProfile::Of(GetNode());
    if (m_segmentSize > 0)
    {
        profile->SetTcpAttribute("SegmentSize", UintegerValue(m_segmentSize));
    }
    if (m_pmtu > 0)
    {
        profile->SetSctpAttribute("Pmtu", UintegerValue(m_pmtu));
    }
}

void
InstallSocketDefaults(Ptr<Node> node, uint32_t segmentSize, uint32_t pmtu, Time start)
{
    Ptr<LlpSocketDefaults> app = CreateObject<LlpSocketDefaults>();
    app->SetAttribute("SegmentSize", UintegerValue(segmentSize));
    app->SetAttribute("Pmtu", UintegerValue(pmtu));
    // Installed during the run (a ping-pong sweep's later sizes), start times count from now.
    app->SetStartTime(start > Simulator::Now() ? start - Simulator::Now() : Time(0));
    node->AddApplication(app);
}

} // namespace ns3
