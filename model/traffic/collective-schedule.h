/*
 * CollectiveSchedule: who sends what to whom, and after which deliveries, in one iteration of a collective
 * operation over N ranks (doc/collectives.md). Each rank's part is a program: its sends, in the order it posts
 * them, each naming the receives of its own that must have been delivered first, and the receives it expects.
 * Messages between two ranks travel in order (one connection per ordered pair), so the k-th send of rank a to
 * rank b is the k-th receive of b from a.
 *
 * The algorithms, `size` being the octets of each rank's buffer as nccl-tests count them:
 *
 *   ring-allreduce              2 (N-1) steps of size/N octets round a ring: a reduce-scatter then an allgather
 *   halving-doubling-allreduce  Rabenseifner's: a reduce-scatter by recursive halving (size/2, size/4, ...) then
 *                               an allgather by recursive doubling (the same sizes reversed); N a power of two
 *   allgather                   N-1 ring steps of size/N octets (size: the gathered output)
 *   reduce-scatter              N-1 ring steps of size/N octets (size: each rank's input)
 *   alltoall                    each rank sends size/N octets to every other rank at once (size: its send buffer)
 *
 * A size that N does not divide is cut into chunks differing by at most one octet; no message is empty, so a
 * size must give every chunk an octet.
 */
/**
 * \file
 * \ingroup iwarp-traffic
 */
#ifndef IWARP_COLLECTIVE_SCHEDULE_H
#define IWARP_COLLECTIVE_SCHEDULE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

enum class CollectiveAlgorithm
{
    RingAllReduce,
    HalvingDoublingAllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
};

/** "ring-allreduce", "halving-doubling-allreduce", "allgather", "reduce-scatter", "alltoall". */
const char* ToString(CollectiveAlgorithm a);
/** Every algorithm, in declaration order. */
std::vector<CollectiveAlgorithm> CollectiveAlgorithms();

/** One message a rank posts. */
struct CollectiveSend
{
    uint32_t step{0};
    uint32_t to{0}; ///< the receiving rank
    uint64_t octets{0};
    std::vector<uint32_t> after; ///< indices into the rank's receives that must be delivered before it is posted
};

/** One message a rank expects. */
struct CollectiveReceive
{
    uint32_t step{0};
    uint32_t from{0};
    uint64_t octets{0};
};

/** One rank's part of an iteration. */
struct RankProgram
{
    std::vector<CollectiveSend> sends; ///< in the order they are posted
    std::vector<CollectiveReceive> receives;
};

struct CollectiveSchedule
{
    CollectiveAlgorithm algorithm{CollectiveAlgorithm::RingAllReduce};
    uint32_t ranks{0};
    uint64_t octets{0}; ///< each rank's buffer
    uint32_t steps{0};
    std::vector<RankProgram> programs; ///< by rank

    /** The messages of one iteration, over every rank. */
    uint64_t Messages() const;
    /** The largest message of any rank. */
    uint64_t MaxMessage() const;
    /**
     * nccl-tests' bus-bandwidth factor: algorithm bandwidth (size / time) times this is what each rank's link
     * carried per second: 2 (N-1) / N for an all-reduce, (N-1) / N for the others.
     */
    double BusFactor() const;
};

/**
 * The schedule of `algorithm` over `ranks` ranks (at least two) of `octets` octets each. Throws
 * std::invalid_argument naming what is wrong (too few ranks, a size that leaves a chunk empty, a rank count
 * that is no power of two for halving-doubling).
 */
CollectiveSchedule MakeCollectiveSchedule(CollectiveAlgorithm algorithm, uint32_t ranks, uint64_t octets);

/** What one message costs alone on the empty network (IdealCompletion). */
struct CollectiveMessageTimes
{
    /** From its post to its delivery at `to`. */
    std::function<Time(uint32_t from, uint32_t to, uint64_t octets)> delivery;
    /** How long it holds the sender's link: the sender's next message cannot start on it before. */
    std::function<Time(uint32_t from, uint64_t octets)> senderLink;
};

/**
 * The ideal completion time of one iteration: every rank starts at 0 and posts each send as soon as its
 * dependencies are delivered, the previous send has been posted and its link is free; a message then takes
 * `times.delivery`. The iteration ends at the last delivery. For a ring all-reduce this is 2 (N-1) times one
 * chunk's ideal time: 2 (N-1)/N x size on the wire at the link rate plus 2 (N-1) latencies. Throws
 * std::logic_error if the schedule's dependencies never let some message go (a cycle).
 */
Time IdealCompletion(const CollectiveSchedule& schedule, const CollectiveMessageTimes& times);

} // namespace ns3

#endif // IWARP_COLLECTIVE_SCHEDULE_H
