/*
 * SCTP congestion control policies; see sctp-congestion-ops.h.
 */
#include "sctp/sctp-congestion-ops.h"

#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(SctpRfc9260Congestion);

TypeId
SctpCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpCongestionOps").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

TypeId
SctpRfc9260Congestion::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpRfc9260Congestion")
            .SetParent<SctpCongestionOps>()
            .SetGroupName("Iwarp")
            .AddConstructor<SctpRfc9260Congestion>()
            .AddAttribute("SlowStartLimit",
                          "L of RFC 9260 7.2.1: MTUs cwnd may grow by per SACK in slow start",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SctpRfc9260Congestion::m_maxBurstMtus),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

void
SctpRfc9260Congestion::Init(SctpCcState& s, uint32_t peerRwnd)
{
    // §7.2.1: min(4 MTU, max(2 MTU, 4380)) unless configured otherwise (a larger initial window, as TCP's
    // RFC 6928, is a deployment's choice); ssthresh may be arbitrarily high, the peer's a_rwnd is usual.
    s.cwnd = s.initialCwndMtus > 0 ? s.initialCwndMtus * s.mtu : std::min(4 * s.mtu, std::max(2 * s.mtu, 4380u));
    s.ssthresh = std::max(peerRwnd, 2 * s.mtu);
    s.partialBytesAcked = 0;
    s.inFastRecovery = false;
}

void
SctpRfc9260Congestion::OnAck(SctpCcState& s, uint32_t bytesAcked, bool cumAdvanced, bool fullCwnd)
{
    // cwnd grows neither in fast recovery (§7.2.4) nor on a SACK that does not move the cumulative ack.
    if (s.inFastRecovery || !cumAdvanced || bytesAcked == 0)
    {
        return;
    }
    if (s.cwnd <= s.ssthresh)
    {
        if (fullCwnd)
        {
            s.cwnd += std::min(bytesAcked, m_maxBurstMtus * s.mtu);
        }
        return;
    }
    // Congestion avoidance: one MTU per cwnd's worth of acknowledged bytes, only while cwnd is used.
    s.partialBytesAcked += bytesAcked;
    if (s.partialBytesAcked >= s.cwnd && fullCwnd)
    {
        s.partialBytesAcked -= s.cwnd;
        s.cwnd += s.mtu;
    }
    if (s.flightSize == 0)
    {
        s.partialBytesAcked = 0;
    }
}

void
SctpRfc9260Congestion::OnFastRetransmit(SctpCcState& s)
{
    s.ssthresh = std::max(s.cwnd / 2, 4 * s.mtu);
    s.cwnd = s.ssthresh;
    s.partialBytesAcked = 0;
}

void
SctpRfc9260Congestion::OnRetransmissionTimeout(SctpCcState& s)
{
    s.ssthresh = std::max(s.cwnd / 2, 4 * s.mtu);
    s.cwnd = s.mtu;
    s.partialBytesAcked = 0;
    s.inFastRecovery = false;
}

void
SctpRfc9260Congestion::OnIdle(SctpCcState& s)
{
    s.cwnd = std::max(s.cwnd / 2, 4 * s.mtu);
}

} // namespace ns3
