/*
 * The ideal FCT of an RDMA Write (or Send: only its DDP header differs): what it takes alone on the empty
 * network, over an open connection whose window does not hold it back (doc/traffic.md, "Ideal FCT and
 * slowdown"). Its segments cross a tandem of stages, one after another, each stage serving one segment at a
 * time:
 *
 *   the sender's RNIC transmit engine   PerSegment + segment octets / EngineRate (+ PerMessage on the last)
 *   each link of the path               wire octets x 8 / rate, then the link's delay
 *   the receiver's RNIC receive engine  PerSegment + segment octets / EngineRate (+ PerMessage on the last)
 *
 * (the sockets baseline: TCP segments, no engines, the hosts' idle send and read times before and after them,
 * IdealSocketsFct), where a segment carries up to MULPDU octets of DDP (its header included) and the wire octets are the
 * segment's with the LLP's framing below DDP, its padding and PPP's two octets. Every segment is ready at the
 * post, so the segments before the last leave stage k at A_k + i x M_k (A_k: one segment's time through stages
 * 0..k with the delays between them; M_k: the slowest of those stages), and the last is followed through the
 * stages behind them. The message is delivered when the receive engine has finished its last segment.
 *
 * Left out, as the ideal of the transport papers leaves them out: connection set-up, a congestion window
 * smaller than the message, queues and other flows. The transmit engine's batching (TxBatchWindow) may hand a
 * segment to the LLP up to that window late, so a measured FCT on an idle network lies between the ideal and
 * the ideal plus TxBatchWindow.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_IDEAL_FCT_H
#define IWARP_SCENARIO_IDEAL_FCT_H

#include "helper/scenario/path-limits.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/** One direction of an RNIC engine (RnicPipeline's attributes). */
struct EngineCosts
{
    Time perSegment;
    Time perMessage;
    double rateBps{0}; ///< 0: no per-octet time
};

/** Everything a Write's ideal FCT depends on, for one sender-receiver pair. */
struct IdealFctModel
{
    EngineCosts tx; ///< the sender's transmit engine
    EngineCosts rx; ///< the receiver's receive engine
    std::vector<EdgeFacts> hops; ///< the links of the path, from the sender
    uint32_t mulpdu{0};          ///< the largest DDP segment, its header included
    uint32_t ddpHeader{0};       ///< DDP and RDMAP header octets per segment
    uint32_t framing{0};         ///< octets below DDP on every packet (LLP framing, transport, IPv4)
    /** The LLP's padding of a segment of so many octets (RFC 5044's FPDU, SCTP's chunk: up to 3). */
    uint32_t (*padding)(uint32_t segment){nullptr};
    /** Before any segment is ready: the sending host's processing of the message (the sockets baseline's). */
    Time before{0};
    /** After the last segment's last stage: the receiving host's processing of it (the sockets baseline's). */
    Time after{0};
};

/** The ideal FCT of a Write of `payload` octets (at least one); the model's MULPDU must exceed its header. */
Time IdealFct(const IdealFctModel& m, uint64_t payload);

/**
 * The least time `payload` octets take through the links of `m` (engines and `before`/`after` aside) however
 * they are cut into segments of at most `m.mulpdu` octets, each with `m.framing` and PPP's octets: a byte
 * stream's (TCP's) segments need not follow message boundaries. Every octet, and a header per segment of the
 * fewest segments, crosses the slowest hop; a segment of at least one octet crosses every other hop before and
 * after it; and every hop's delay is paid:
 *
 *     max over hops k of  (payload + ceil(payload / mulpdu) x header) x 8 / rate_k
 *                          + sum over the other hops j of (header + 1) x 8 / rate_j    + the hops' delays
 *
 * the bound the transport papers' ideal FCT is (size over the bottleneck plus the path's latency).
 */
Time AnySegmentationBound(const IdealFctModel& m, uint64_t payload);

} // namespace ns3

#endif // IWARP_SCENARIO_IDEAL_FCT_H
