#include "traffic/collective-schedule.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace ns3
{
namespace
{

/** Octets of chunk `i` of `octets` cut into `n` chunks differing by at most one octet. */
uint64_t
Chunk(uint64_t octets, uint32_t n, uint32_t i)
{
    return octets / n + (i < octets % n ? 1 : 0);
}

uint32_t
Mod(int64_t a, uint32_t n)
{
    return uint32_t(((a % n) + n) % n);
}

/** A ring: at each step rank r sends chunk chunkSent(r, step) to r+1 once it has its previous receive. */
void
BuildRing(CollectiveSchedule& s, uint32_t steps, const std::function<uint32_t(uint32_t, uint32_t)>& chunkSent)
{
    const uint32_t n = s.ranks;
    s.steps = steps;
    for (uint32_t r = 0; r < n; ++r)
    {
        RankProgram& p = s.programs[r];
        const uint32_t left = Mod(int64_t(r) - 1, n);
        for (uint32_t step = 0; step < steps; ++step)
        {
            CollectiveSend send{step, (r + 1) % n, Chunk(s.octets, n, chunkSent(r, step)), {}};
            if (step > 0)
            {
                send.after = {step - 1}; // what it forwards (or reduces into) arrived the step before
            }
            p.sends.push_back(send);
            p.receives.push_back({step, left, Chunk(s.octets, n, chunkSent(left, step))});
        }
    }
}

/** A contiguous part [lo, hi) of a rank's buffer. */
struct Segment
{
    uint64_t lo{0};
    uint64_t hi{0};
    uint64_t Size() const { return hi - lo; }
};

/**
 * Rabenseifner's all-reduce: at reduce-scatter step j the partner is r xor N/2^(j+1) and each keeps one half of
 * the segment both hold (the lower half the rank whose bit is clear), sending the other; the allgather then
 * retraces the partners in reverse, each sending the whole segment it has and taking the partner's.
 */
void
BuildHalvingDoubling(CollectiveSchedule& s)
{
    const uint32_t n = s.ranks;
    uint32_t levels = 0;
    while ((1u << levels) < n)
    {
        ++levels;
    }
    s.steps = 2 * levels;
    std::vector<Segment> seg(n, Segment{0, s.octets});
    auto exchange = [&s](uint32_t step, uint32_t r, uint32_t partner, uint64_t sent, uint64_t received) {
        RankProgram& p = s.programs[r];
        CollectiveSend send{step, partner, sent, {}};
        if (step > 0)
        {
            send.after = {step - 1};
        }
        p.sends.push_back(send);
        p.receives.push_back({step, partner, received});
    };
    for (uint32_t j = 0; j < levels; ++j)
    {
        const uint32_t d = n >> (j + 1);
        std::vector<Segment> next(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            const Segment& all = seg[r];
            const uint64_t mid = all.lo + all.Size() / 2;
            const Segment lower{all.lo, mid};
            const Segment upper{mid, all.hi};
            const bool keepLower = (r & d) == 0;
            next[r] = keepLower ? lower : upper;
            exchange(j, r, r ^ d, (keepLower ? upper : lower).Size(), next[r].Size());
        }
        seg = next;
    }
    for (uint32_t j = 0; j < levels; ++j)
    {
        const uint32_t d = 1u << j;
        std::vector<Segment> next(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            const Segment& mine = seg[r];
            const Segment& theirs = seg[r ^ d];
            next[r] = Segment{std::min(mine.lo, theirs.lo), std::max(mine.hi, theirs.hi)};
            exchange(levels + j, r, r ^ d, mine.Size(), theirs.Size());
        }
        seg = next;
    }
}

/** Every rank sends block b of its buffer to rank b, at once, starting with its right neighbour. */
void
BuildAllToAll(CollectiveSchedule& s)
{
    const uint32_t n = s.ranks;
    s.steps = 1;
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t i = 1; i < n; ++i)
        {
            const uint32_t to = (r + i) % n;
            const uint32_t from = Mod(int64_t(r) - i, n);
            s.programs[r].sends.push_back({0, to, Chunk(s.octets, n, to), {}});
            s.programs[r].receives.push_back({0, from, Chunk(s.octets, n, r)});
        }
    }
}

} // namespace

const char*
ToString(CollectiveAlgorithm a)
{
    switch (a)
    {
    case CollectiveAlgorithm::RingAllReduce:
        return "ring-allreduce";
    case CollectiveAlgorithm::HalvingDoublingAllReduce:
        return "halving-doubling-allreduce";
    case CollectiveAlgorithm::AllGather:
        return "allgather";
    case CollectiveAlgorithm::ReduceScatter:
        return "reduce-scatter";
    case CollectiveAlgorithm::AllToAll:
        return "alltoall";
    }
    return "?";
}

std::vector<CollectiveAlgorithm>
CollectiveAlgorithms()
{
    return {CollectiveAlgorithm::RingAllReduce, CollectiveAlgorithm::HalvingDoublingAllReduce,
            CollectiveAlgorithm::AllGather, CollectiveAlgorithm::ReduceScatter, CollectiveAlgorithm::AllToAll};
}

uint64_t
CollectiveSchedule::Messages() const
{
    uint64_t n = 0;
    for (const RankProgram& p : programs)
    {
        n += p.sends.size();
    }
    return n;
}

uint64_t
CollectiveSchedule::MaxMessage() const
{
    uint64_t most = 0;
    for (const RankProgram& p : programs)
    {
        for (const CollectiveSend& s : p.sends)
        {
            most = std::max(most, s.octets);
        }
    }
    return most;
}

double
CollectiveSchedule::BusFactor() const
{
    const bool allReduce =
        algorithm == CollectiveAlgorithm::RingAllReduce || algorithm == CollectiveAlgorithm::HalvingDoublingAllReduce;
    return (allReduce ? 2.0 : 1.0) * double(ranks - 1) / double(ranks);
}

CollectiveSchedule
MakeCollectiveSchedule(CollectiveAlgorithm algorithm, uint32_t ranks, uint64_t octets)
{
    const std::string what = std::string("a ") + ToString(algorithm);
    if (ranks < 2)
    {
        throw std::invalid_argument(what + " needs at least two ranks, not " + std::to_string(ranks));
    }
    if (octets < ranks)
    {
        throw std::invalid_argument(what + " of " + std::to_string(octets) + " octets over " + std::to_string(ranks) +
                                    " ranks leaves a chunk empty: the size must be at least the rank count");
    }
    if (algorithm == CollectiveAlgorithm::HalvingDoublingAllReduce && (ranks & (ranks - 1)) != 0)
    {
        throw std::invalid_argument(what + " needs a power-of-two rank count, not " + std::to_string(ranks) +
                                    " (ring-allreduce takes any)");
    }
    CollectiveSchedule s;
    s.algorithm = algorithm;
    s.ranks = ranks;
    s.octets = octets;
    s.programs.resize(ranks);
    const uint32_t n = ranks;
    switch (algorithm)
    {
    case CollectiveAlgorithm::RingAllReduce:
        // Reduce-scatter: rank r ends holding chunk r+1 reduced; the allgather then passes it on round the ring.
        BuildRing(s, 2 * (n - 1), [n](uint32_t r, uint32_t step) {
            return step < n - 1 ? Mod(int64_t(r) - step, n) : Mod(int64_t(r) + 1 - (step - (n - 1)), n);
        });
        break;
    case CollectiveAlgorithm::AllGather:
    case CollectiveAlgorithm::ReduceScatter:
        BuildRing(s, n - 1, [n](uint32_t r, uint32_t step) { return Mod(int64_t(r) - step, n); });
        break;
    case CollectiveAlgorithm::HalvingDoublingAllReduce:
        BuildHalvingDoubling(s);
        break;
    case CollectiveAlgorithm::AllToAll:
        BuildAllToAll(s);
        break;
    }
    return s;
}

Time
IdealCompletion(const CollectiveSchedule& schedule, const CollectiveMessageTimes& times)
{
    const uint32_t n = schedule.ranks;
    // The k-th send of a to b is the k-th receive of b from a: receive index by (b, a, k).
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> receiveIndex;
    for (uint32_t b = 0; b < n; ++b)
    {
        const auto& receives = schedule.programs[b].receives;
        for (uint32_t i = 0; i < receives.size(); ++i)
        {
            receiveIndex[{b, receives[i].from}].push_back(i);
        }
    }
    std::vector<std::vector<std::optional<Time>>> delivered(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        delivered[r].resize(schedule.programs[r].receives.size());
    }
    std::vector<std::size_t> next(n, 0);
    std::vector<Time> lastPost(n);
    std::vector<Time> linkFree(n);
    std::map<std::pair<uint32_t, uint32_t>, std::size_t> sentTo; // (a, b) -> sends so far
    Time end;
    for (bool progress = true; progress;)
    {
        progress = false;
        for (uint32_t r = 0; r < n; ++r)
        {
            const auto& sends = schedule.programs[r].sends;
            for (; next[r] < sends.size(); ++next[r])
            {
                const CollectiveSend& s = sends[next[r]];
                Time ready = lastPost[r];
                bool waiting = false;
                for (uint32_t dep : s.after)
                {
                    waiting = waiting || !delivered[r][dep];
                    ready = waiting ? ready : std::max(ready, *delivered[r][dep]);
                }
                if (waiting)
                {
                    break;
                }
                const Time start = std::max(ready, linkFree[r]);
                lastPost[r] = ready;
                linkFree[r] = start + times.senderLink(r, s.octets);
                const Time at = start + times.delivery(r, s.to, s.octets);
                delivered[s.to][receiveIndex.at({s.to, r}).at(sentTo[{r, s.to}]++)] = at;
                end = std::max(end, at);
                progress = true;
            }
        }
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        if (next[r] < schedule.programs[r].sends.size())
        {
            throw std::logic_error("the schedule's dependencies never let rank " + std::to_string(r) + " send");
        }
    }
    return end;
}

} // namespace ns3
