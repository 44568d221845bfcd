/*
 * RoceTransport's DCQCN (roce-transport.h): the notification point's CNPs and the reaction point's wait for
 * its rate. The rate itself is DcqcnRateControl's.
 */
#include "rnic/roce-transport.h"

#include "common/class-log-component.h"

#include "ns3/simulator.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(RoceTransport);

void
RoceTransport::NotifyCongestion(uint8_t ecn, IbOpcode opcode)
{
    if (m_ccMode != CC_DCQCN || (ecn & roce::kEcnMask) != roce::kEcnCe || opcode == IbOpcode::Acknowledge ||
        opcode == IbOpcode::Cnp || !m_up)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (m_cnpsSent > 0 && now - m_lastCnpSent < m_cnpInterval)
    {
        return;
    }
    m_lastCnpSent = now;
    SendCnp();
}

void
RoceTransport::SendCnp()
{
    // RoCEv2's CNP (Annex A17.9.3): BTH with BECN set, 16 reserved octets. It goes at once, beside the data
    // (RNICs send CNPs on a priority of their own), and not ECN-capable.
    RoceBth bth;
    bth.SetOpcode(IbOpcode::Cnp);
    bth.SetDestQp(m_conn->Params().remoteQpn);
    bth.SetBecn(true);
    RoceTransportOctets headers;
    headers.Add(bth);
    RoceAddressing a = m_addressing;
    a.tos = uint8_t(m_cnpDscp << 2); // Not-ECT
    Ptr<RoceStack> stack = m_conn->GetStack();
    stack->Send(BuildRocePacket(a, stack->NextIpId(), headers, nullptr, roce::kCnpPaddingLen), a.destination);
    ++m_cnpsSent;
    m_cnpSentTrace();
}


void
RoceTransport::RateGateOpen()
{
    m_txGated = false;
    ScheduleTx();
}

} // namespace ns3
