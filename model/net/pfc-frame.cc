#include "net/pfc-frame.h"

#include "ns3/abort.h"
#include "ns3/address-utils.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcFrame);

namespace
{
/** 802.1Qbb's destination: the MAC Control multicast address. */
const uint8_t kPauseDestination[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
} // namespace

Time
pfc::PauseTime(uint16_t quanta, DataRate rate)
{
    return rate.CalculateBytesTxTime(uint32_t(quanta) * kQuantumBits / 8);
}

bool
pfc::IsPauseFrame(Ptr<const Packet> p)
{
    uint8_t h[kPppLen];
    return p->GetSize() == kFrameLen && p->CopyData(h, kPppLen) == kPppLen &&
           ((h[0] << 8) | h[1]) == kPppBridgedPdu;
}

TypeId
PfcFrame::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcFrame").SetParent<Header>().SetGroupName("Iwarp").AddConstructor<PfcFrame>();
    return tid;
}

TypeId
PfcFrame::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
PfcFrame::GetSerializedSize() const
{
    return pfc::kFrameLen;
}

void
PfcFrame::SetPause(uint8_t priority, uint16_t quanta)
{
    NS_ABORT_MSG_IF(priority >= pfc::kPriorities, "PFC priority " << unsigned(priority) << " is not 0..7");
    m_enabled |= uint8_t(1u << priority);
    m_quanta[priority] = quanta;
}

void
PfcFrame::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(pfc::kPppBridgedPdu);
    i.WriteU8(0); // BCP flags: no LAN FCS, no pads
    i.WriteU8(pfc::kBcpMacEthernet);
    i.Write(kPauseDestination, sizeof(kPauseDestination));
    WriteTo(i, m_source);
    i.WriteHtonU16(pfc::kEtherTypeMacControl);
    i.WriteHtonU16(pfc::kOpcodePfc);
    i.WriteHtonU16(m_enabled);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    // Ethernet's minimum frame: 6 + 6 + 2 + 2 + 2 + 16 = 34 octets so far, zeros to 60.
    i.WriteU8(0, pfc::kEthernetMinFrame - 34);
}

uint32_t
PfcFrame::Deserialize(Buffer::Iterator i)
{
    const uint16_t ppp = i.ReadNtohU16();
    i.ReadU8(); // BCP flags
    const uint8_t mac = i.ReadU8();
    i.Next(sizeof(kPauseDestination));
    ReadFrom(i, m_source);
    const uint16_t type = i.ReadNtohU16();
    const uint16_t opcode = i.ReadNtohU16();
    m_valid = ppp == pfc::kPppBridgedPdu && mac == pfc::kBcpMacEthernet && type == pfc::kEtherTypeMacControl &&
              opcode == pfc::kOpcodePfc;
    m_enabled = uint8_t(i.ReadNtohU16() & 0xFF); // the vector's upper octet is reserved
    for (uint16_t& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(pfc::kEthernetMinFrame - 34);
    if (!m_valid)
    {
        m_enabled = 0;
    }
    return pfc::kFrameLen;
}

void
PfcFrame::Print(std::ostream& os) const
{
    os << "PFC from " << m_source;
    for (uint8_t p = 0; p < pfc::kPriorities; ++p)
    {
        if (IsEnabled(p))
        {
            os << " p" << unsigned(p) << "=" << m_quanta[p];
        }
    }
}

} // namespace ns3
