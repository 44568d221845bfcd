/*
 * VirtualPayloadTag: marks the last N octets of a packet as a virtual payload (zeros standing for data
 * the simulation does not store; doc/architecture.md "Payload modes").
 *
 * Why: ns-3 keeps the zero-filled part of a packet as a "zero area" that occupies no memory, as long as
 * nobody copies it out. A layer that must build a new packet around a DDP segment (MPA framing) can keep
 * that area virtual when it knows which octets are virtual, instead of copying every payload octet into a
 * new real buffer. DDP adds the tag to segments whose payload comes from a virtual buffer; the LLP removes
 * it before the packet leaves the node.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_VIRTUAL_PAYLOAD_TAG_H
#define IWARP_VIRTUAL_PAYLOAD_TAG_H

#include "ns3/tag.h"

namespace ns3
{

class VirtualPayloadTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    VirtualPayloadTag() = default;
    explicit VirtualPayloadTag(uint32_t octets)
        : m_octets(octets)
    {
    }

    /** Trailing octets of the packet that are virtual (zeros that stand for data). */
    uint32_t GetOctets() const { return m_octets; }

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_octets{0};
};

} // namespace ns3

#endif // IWARP_VIRTUAL_PAYLOAD_TAG_H
