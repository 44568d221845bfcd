#include "net/link-gate.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkGate");
NS_OBJECT_ENSURE_REGISTERED(LinkGate);

TypeId
LinkGate::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinkGate")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<LinkGate>()
                            .AddTraceSource("Drop",
                                            "A packet lost because the link was down when it arrived",
                                            MakeTraceSourceAccessor(&LinkGate::m_dropTrace),
                                            "ns3::GilbertElliottErrorModel::DropTracedCallback");
    return tid;
}

LinkGate::LinkGate() = default;

void
LinkGate::DoDispose()
{
    m_inner = nullptr;
    ErrorModel::DoDispose();
}

bool
LinkGate::DoCorrupt(Ptr<Packet> p)
{
    if (m_down)
    {
        ++m_dropped;
        m_dropTrace(p);
        return true;
    }
    return m_inner && m_inner->IsCorrupt(p);
}

void
LinkGate::DoReset()
{
    if (m_inner)
    {
        m_inner->Reset();
    }
}

} // namespace ns3
