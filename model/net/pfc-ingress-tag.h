/*
 * PfcIngressTag: which of a switch's ports a packet came in by (the device's index on its node), put on by that
 * port's PfcPort as the packet arrives, read and taken off by the PfcQueueDisc it leaves by, so that the bytes a
 * port has brought in and the switch still holds can be counted per priority (802.1Qbb's ingress accounting).
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_PFC_INGRESS_TAG_H
#define IWARP_PFC_INGRESS_TAG_H

#include "ns3/tag.h"

namespace ns3
{

class PfcIngressTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override { return 4; }
    void Serialize(TagBuffer i) const override { i.WriteU32(m_port); }
    void Deserialize(TagBuffer i) override { m_port = i.ReadU32(); }
    void Print(std::ostream& os) const override { os << "ingress=" << m_port; }

    void SetPort(uint32_t ifIndex) { m_port = ifIndex; }
    uint32_t GetPort() const { return m_port; }

  private:
    uint32_t m_port{0};
};

} // namespace ns3

#endif // IWARP_PFC_INGRESS_TAG_H
