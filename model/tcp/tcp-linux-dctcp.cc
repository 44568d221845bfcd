#include "tcp/tcp-linux-dctcp.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpLinuxDctcp");
NS_OBJECT_ENSURE_REGISTERED(TcpLinuxDctcp);

TypeId
TcpLinuxDctcp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpLinuxDctcp")
                            .SetParent<TcpDctcp>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<TcpLinuxDctcp>();
    return tid;
}

std::string
TcpLinuxDctcp::GetName() const
{
    return "TcpLinuxDctcp";
}

void
TcpLinuxDctcp::CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t newState)
{
    // CA_RECOVERY (fast retransmit) and CA_LOSS (a timeout) are losses; CA_CWR is DCTCP's own reduction.
    m_loss = newState == TcpSocketState::CA_RECOVERY || newState == TcpSocketState::CA_LOSS;
    TcpDctcp::CongestionStateSet(tcb, newState);
}

uint32_t
TcpLinuxDctcp::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    if (!m_loss)
    {
        return TcpDctcp::GetSsThresh(tcb, bytesInFlight);
    }
    m_loss = false;
    const uint32_t halved = std::max(2 * tcb->m_segmentSize, bytesInFlight / 2);
    NS_LOG_DEBUG("loss: ssthresh " << halved << " (in flight " << bytesInFlight << ", cwnd " << tcb->m_cWnd << ")");
    return halved;
}

Ptr<TcpCongestionOps>
TcpLinuxDctcp::Fork()
{
    return CopyObject<TcpLinuxDctcp>(this);
}

} // namespace ns3
