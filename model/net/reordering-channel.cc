#include "net/reordering-channel.h"

#include "net/pfc-frame.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReorderingChannel");
NS_OBJECT_ENSURE_REGISTERED(ReorderingChannel);

TypeId
ReorderingChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReorderingChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("Iwarp")
            .AddConstructor<ReorderingChannel>()
            .AddAttribute("ReorderFraction",
                          "Share of the packets (per direction) held for ReorderDelay extra",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&ReorderingChannel::m_fraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReorderDelay",
                          "Extra delay of a held packet; it reorders only if later packets "
                          "arrive within it",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&ReorderingChannel::m_extraDelay),
                          MakeTimeChecker(Time(0)));
    return tid;
}

ReorderingChannel::ReorderingChannel()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

int64_t
ReorderingChannel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

bool
ReorderingChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_ASSERT_MSG(IsInitialized(), "ReorderingChannel needs two attached devices");
    // The base class keeps its wires private, so this does its scheduling itself (without the
    // animation trace); the device's own transmit-complete timing is unchanged.
    const uint32_t wire = (src == GetSource(0)) ? 0 : 1;
    Ptr<PointToPointNetDevice> dst = GetDestination(wire);
    Time extra(0);
    // A PFC PAUSE is a MAC control frame: it is never held back (an XOFF overtaken by its XON would pause the
    // peer with nothing to end it), and it draws no random number, so data packets meet the same draws with
    // PFC on or off.
    const bool pause = pfc::IsPauseFrame(p);
    m_seen += !pause;
    if (!pause && m_fraction > 0.0 && m_uniform->GetValue() < m_fraction)
    {
        extra = m_extraDelay;
        ++m_delayed;
        NS_LOG_LOGIC("hold packet " << p->GetUid() << " for " << extra.As(Time::US));
    }
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   txTime + GetDelay() + extra,
                                   &PointToPointNetDevice::Receive,
                                   dst,
                                   p->Copy());
    return true;
}

} // namespace ns3
