/*
 * The peer-to-peer "ready to receive" (RTR) message of RFC 6581 §3: the one DDP/RDMAP message
 * MPA itself sends and consumes. This model's initiator sends a zero-length RDMA Write (the
 * RTR type it offers in the Request's ORD word); the responder's first ULPDU must be that,
 * or a Terminate sent in its place. Both are built and recognised through the DDP header
 * classes and their segment view (ddp-header.h), not by octet values.
 */
/**
 * \file
 * \ingroup iwarp-mpa
 */
#ifndef IWARP_MPA_RTR_H
#define IWARP_MPA_RTR_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/** What the responder's first ULPDU in peer-to-peer mode is. */
enum class MpaFirstUlpdu : uint8_t
{
    Rtr,       ///< the zero-length RDMA Write: consumed by MPA
    Terminate, ///< the initiator could not go on (e.g. insufficient IRD): handed to DDP
    Other,     ///< anything else: MPA error No Matching RTR (RFC 6581)
};

/** The RTR: DDP tagged, L=1, DV=1, STag 0, TO 0, RDMAP RV=1 opcode RDMA Write, no payload. */
Ptr<Packet> MakeMpaRtr();

/**
 * Classify the responder's first ULPDU. The RTR must be exactly MakeMpaRtr()'s control
 * octets (reserved bits zero) and length; its STag and TO are not checked (DDP-037: a DDP
 * sink ignores them on a zero-length tagged segment). A Terminate is any whole untagged
 * segment whose RDMAP opcode is Terminate; DDP and RDMAP validate the rest.
 */
MpaFirstUlpdu ClassifyFirstUlpdu(Ptr<const Packet> ulpdu);

} // namespace ns3

#endif // IWARP_MPA_RTR_H
