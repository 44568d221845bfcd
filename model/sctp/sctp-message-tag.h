/*
 * SctpMessageTag: the per-message metadata of SCTP's socket API (RFC 6458 sndinfo/rcvinfo, reduced) carried
 * as an ns-3 packet tag: optional on SctpSocket::Send (stream, PPID, unordered), always on a received message.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_MESSAGE_TAG_H
#define IWARP_SCTP_MESSAGE_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/** Per-message metadata: optional on Send (stream, ppid, unordered), always on a received message. */
class SctpMessageTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override { return 16; }
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint16_t stream{0};
    uint16_t ssn{0};
    uint32_t ppid{0};
    uint32_t tsn{0};  ///< receive: TSN of the message's first fragment
    bool unordered{false};
    bool eor{true};   ///< receive: this packet ends the message (false if Recv's maxSize split it)
};

} // namespace ns3

#endif // IWARP_SCTP_MESSAGE_TAG_H
