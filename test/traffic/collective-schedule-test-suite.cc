/*
 * iwarp-collective-schedule: the schedules of model/traffic/collective-schedule.h: for every algorithm the k-th
 * send of a to b is the k-th receive of b from a (same step, same octets), no message is empty and a send waits
 * only on earlier receives of its own rank; a ring all-reduce moves 2 (N-1) x size octets and leaves every rank
 * with every chunk reduced over all ranks; allgather and reduce-scatter move (N-1)/N x size per rank; halving-
 * doubling pairs r with r xor N/2^(j+1) on halving sizes and mirrors them; alltoall sends each block once; bad
 * input is refused with what is wrong; and the ideal completion is the critical path the message times give.
 */
#include "traffic/collective-schedule.h"

#include "support/thrown-message.h"

#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

/** Octets of chunk `i` of `octets` cut into `n` chunks, the first octets % n of them one octet larger. */
uint64_t
ExpectedChunk(uint64_t octets, uint32_t n, uint32_t i)
{
    return octets / n + (i < octets % n ? 1 : 0);
}

/** `a` modulo `n`, in [0, n) also for a negative `a`. */
uint32_t
Wrap(int64_t a, uint32_t n)
{
    const int64_t m = int64_t(n);
    return uint32_t(((a % m) + m) % m);
}

bool
IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/** log2 of a power of two. */
uint32_t
Log2(uint32_t n)
{
    uint32_t levels = 0;
    while ((1u << levels) < n)
    {
        ++levels;
    }
    return levels;
}

/** |a - b|. */
uint64_t
Distance(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

std::string
Describe(CollectiveAlgorithm a, uint32_t n, uint64_t octets)
{
    std::ostringstream what;
    what << ToString(a) << " over " << n << " ranks of " << octets << " octets";
    return what.str();
}

/** (step, octets) of one message. */
using Message = std::pair<uint32_t, uint64_t>;
/** (from, to) -> its messages in order. */
using PairMessages = std::map<std::pair<uint32_t, uint32_t>, std::vector<Message>>;

class ConservationTestCase : public TestCase
{
  public:
    ConservationTestCase()
        : TestCase("every algorithm: the k-th send of a to b is the k-th receive of b from a, none empty, "
                   "dependencies on earlier receives")
    {
    }

  private:
    void DoRun() override
    {
        for (CollectiveAlgorithm a : CollectiveAlgorithms())
        {
            for (uint32_t n : {2u, 3u, 4u, 5u, 8u, 16u})
            {
                if (a == CollectiveAlgorithm::HalvingDoublingAllReduce && !IsPowerOfTwo(n))
                {
                    continue;
                }
                for (uint64_t size : {uint64_t(n), uint64_t(1000003), uint64_t(1) << 20})
                {
                    const CollectiveSchedule s = MakeCollectiveSchedule(a, n, size);
                    const std::string what = Describe(a, n, size);
                    NS_TEST_ASSERT_MSG_EQ(s.ranks, n, what << ": ranks");
                    NS_TEST_ASSERT_MSG_EQ(s.programs.size(), std::size_t(n), what << ": one program per rank");
                    PairMessages sent;
                    PairMessages received;
                    for (uint32_t r = 0; r < n; ++r)
                    {
                        CheckProgram(s, r, sent, received, what);
                    }
                    CheckMatching(sent, received, what);
                }
            }
        }
    }

    /** Checks rank r's messages one by one and files them by pair. */
    void CheckProgram(const CollectiveSchedule& s,
                      uint32_t r,
                      PairMessages& sent,
                      PairMessages& received,
                      const std::string& what)
    {
        const RankProgram& p = s.programs.at(r);
        for (const CollectiveReceive& m : p.receives)
        {
            NS_TEST_ASSERT_MSG_LT(m.from, s.ranks, what << ": rank " << r << " receives from a rank that exists");
            NS_TEST_EXPECT_MSG_NE(m.from, r, what << ": rank " << r << " never receives from itself");
            NS_TEST_EXPECT_MSG_NE(m.octets, uint64_t(0), what << ": rank " << r << " receives no empty message");
            NS_TEST_EXPECT_MSG_LT(m.step, s.steps, what << ": rank " << r << "'s receive within the steps");
            received[{m.from, r}].push_back({m.step, m.octets});
        }
        for (const CollectiveSend& m : p.sends)
        {
            NS_TEST_ASSERT_MSG_LT(m.to, s.ranks, what << ": rank " << r << " sends to a rank that exists");
            NS_TEST_EXPECT_MSG_NE(m.to, r, what << ": rank " << r << " never sends to itself");
            NS_TEST_EXPECT_MSG_NE(m.octets, uint64_t(0), what << ": rank " << r << " sends no empty message");
            NS_TEST_EXPECT_MSG_LT(m.step, s.steps, what << ": rank " << r << "'s send within the steps");
            for (uint32_t dep : m.after)
            {
                NS_TEST_ASSERT_MSG_LT(std::size_t(dep), p.receives.size(), what << ": rank " << r << "'s own receive");
                NS_TEST_EXPECT_MSG_LT(p.receives[dep].step, m.step, what << ": rank " << r << " waits on the past");
            }
            sent[{r, m.to}].push_back({m.step, m.octets});
        }
    }

    void CheckMatching(const PairMessages& sent, const PairMessages& received, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(sent.size(), received.size(), what << ": pairs that send = pairs that receive");
        for (const auto& [key, sends] : sent)
        {
            std::ostringstream label;
            label << what << ": from " << key.first << " to " << key.second;
            const auto it = received.find(key);
            NS_TEST_ASSERT_MSG_EQ((it != received.end()), true, label.str() << ": expected by the receiver");
            const std::vector<Message>& receives = it->second;
            NS_TEST_ASSERT_MSG_EQ(sends.size(), receives.size(), label.str() << ": as many receives as sends");
            for (std::size_t k = 0; k < sends.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ(sends[k].first, receives[k].first, label.str() << ": step of message " << k);
                NS_TEST_EXPECT_MSG_EQ(sends[k].second, receives[k].second, label.str() << ": octets of message " << k);
            }
        }
    }
};

class RingAllReduceTestCase : public TestCase
{
  public:
    RingAllReduceTestCase()
        : TestCase("ring all-reduce: 2 (N-1) steps moving 2 (N-1) x size octets, every chunk reduced over every rank")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 3u, 4u, 5u, 8u, 16u})
        {
            for (uint64_t size : {uint64_t(n), uint64_t(n + 1), uint64_t(1000003), uint64_t(1) << 20})
            {
                const CollectiveSchedule s = MakeCollectiveSchedule(CollectiveAlgorithm::RingAllReduce, n, size);
                const std::string what = Describe(CollectiveAlgorithm::RingAllReduce, n, size);
                NS_TEST_ASSERT_MSG_EQ(s.programs.size(), std::size_t(n), what << ": one program per rank");
                NS_TEST_EXPECT_MSG_EQ(s.steps, 2 * (n - 1), what << ": steps");
                uint64_t total = 0;
                for (const RankProgram& p : s.programs)
                {
                    NS_TEST_ASSERT_MSG_EQ(p.sends.size(), std::size_t(2 * (n - 1)), what << ": sends per rank");
                    NS_TEST_ASSERT_MSG_EQ(p.receives.size(), std::size_t(2 * (n - 1)), what << ": receives");
                    for (const CollectiveSend& m : p.sends)
                    {
                        total += m.octets;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(total, 2 * uint64_t(n - 1) * size, what << ": octets sent by all ranks");
                Simulate(s, what);
            }
        }
    }

    /** The chunk rank r sends at `step`: (r - step) in the reduce-scatter, (r + 1 - t) at allgather step t. */
    static uint32_t SentChunk(uint32_t r, uint32_t step, uint32_t n)
    {
        if (step < n - 1)
        {
            return Wrap(int64_t(r) - int64_t(step), n);
        }
        const int64_t t = int64_t(step) - int64_t(n - 1);
        return Wrap(int64_t(r) + 1 - t, n);
    }

    /**
     * Follows which ranks' data each rank's chunks hold: a reduce-scatter receive adds the sender's (which must
     * not already be there), an allgather receive replaces the chunk (and forwards only complete ones).
     */
    void Simulate(const CollectiveSchedule& s, const std::string& what)
    {
        const uint32_t n = s.ranks;
        const uint64_t everyone = (uint64_t(1) << n) - 1;
        std::vector<std::vector<uint64_t>> holds(n, std::vector<uint64_t>(n));
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t c = 0; c < n; ++c)
            {
                holds[r][c] = uint64_t(1) << r;
            }
        }
        for (uint32_t step = 0; step < 2 * (n - 1); ++step)
        {
            const bool reducing = step < n - 1;
            std::vector<uint64_t> payload(n);
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint32_t c = SentChunk(r, step, n);
                const uint32_t left = Wrap(int64_t(r) - 1, n);
                const CollectiveSend& send = s.programs[r].sends.at(step);
                const CollectiveReceive& receive = s.programs[r].receives.at(step);
                NS_TEST_EXPECT_MSG_EQ(send.step, step, what << ": rank " << r << " posts its steps in order");
                NS_TEST_EXPECT_MSG_EQ(send.to, (r + 1) % n, what << ": rank " << r << " sends to its right");
                const uint64_t leftChunk = ExpectedChunk(s.octets, n, SentChunk(left, step, n));
                std::ostringstream at;
                at << what << ": rank " << r << " at step " << step;
                NS_TEST_EXPECT_MSG_EQ(send.octets, ExpectedChunk(s.octets, n, c), at.str() << " sends chunk " << c);
                NS_TEST_EXPECT_MSG_EQ(receive.from, left, at.str() << " receives from its left");
                NS_TEST_EXPECT_MSG_EQ(receive.octets, leftChunk, at.str() << " receives its left's chunk");
                if (!reducing)
                {
                    NS_TEST_EXPECT_MSG_EQ(holds[r][c], everyone, at.str() << " forwards chunk " << c << " reduced");
                }
                payload[r] = holds[r][c];
            }
            for (uint32_t r = 0; r < n; ++r)
            {
                uint64_t& target = holds[(r + 1) % n][SentChunk(r, step, n)];
                if (reducing)
                {
                    NS_TEST_EXPECT_MSG_EQ((target & payload[r]), uint64_t(0), what << ": nothing reduced twice");
                    target |= payload[r];
                }
                else
                {
                    target = payload[r];
                }
            }
        }
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t c = 0; c < n; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(holds[r][c], everyone, what << ": rank " << r << "'s chunk " << c << " at last");
            }
        }
    }
};

class RingHalvesTestCase : public TestCase
{
  public:
    RingHalvesTestCase()
        : TestCase("allgather and reduce-scatter: N-1 ring steps of (N-1) x size over N per rank; bus factors")
    {
    }

  private:
    void DoRun() override
    {
        for (CollectiveAlgorithm a : {CollectiveAlgorithm::AllGather, CollectiveAlgorithm::ReduceScatter})
        {
            for (uint32_t n : {2u, 3u, 4u, 5u, 8u, 16u})
            {
                for (uint64_t size : {uint64_t(n), uint64_t(1000003), uint64_t(1) << 20})
                {
                    CheckRing(MakeCollectiveSchedule(a, n, size), Describe(a, n, size));
                }
            }
        }
        for (uint32_t n : {2u, 3u, 4u, 5u, 8u, 16u})
        {
            const uint64_t size = 1000003;
            const double half = double(n - 1) / double(n);
            const CollectiveSchedule ring = MakeCollectiveSchedule(CollectiveAlgorithm::RingAllReduce, n, size);
            NS_TEST_EXPECT_MSG_EQ_TOL(ring.BusFactor(), 2 * half, 1e-12, "ring all-reduce over " << n);
            NS_TEST_EXPECT_MSG_EQ(ring.MaxMessage(), (size + n - 1) / n, "ring all-reduce's largest chunk");
            for (CollectiveAlgorithm a : {CollectiveAlgorithm::AllGather, CollectiveAlgorithm::ReduceScatter})
            {
                const double factor = MakeCollectiveSchedule(a, n, size).BusFactor();
                NS_TEST_EXPECT_MSG_EQ_TOL(factor, half, 1e-12, ToString(a) << " over " << n);
            }
            if (IsPowerOfTwo(n))
            {
                const CollectiveSchedule hd =
                    MakeCollectiveSchedule(CollectiveAlgorithm::HalvingDoublingAllReduce, n, uint64_t(1) << 20);
                NS_TEST_EXPECT_MSG_EQ_TOL(hd.BusFactor(), 2 * half, 1e-12, "halving-doubling over " << n);
                NS_TEST_EXPECT_MSG_EQ(hd.MaxMessage(), uint64_t(1) << 19, "halving-doubling's first half");
            }
        }
    }

    void CheckRing(const CollectiveSchedule& s, const std::string& what)
    {
        const uint32_t n = s.ranks;
        NS_TEST_EXPECT_MSG_EQ(s.steps, n - 1, what << ": steps");
        NS_TEST_ASSERT_MSG_EQ(s.programs.size(), std::size_t(n), what << ": one program per rank");
        for (uint32_t r = 0; r < n; ++r)
        {
            const RankProgram& p = s.programs[r];
            NS_TEST_EXPECT_MSG_EQ(p.sends.size(), std::size_t(n - 1), what << ": rank " << r << "'s sends");
            NS_TEST_EXPECT_MSG_EQ(p.receives.size(), std::size_t(n - 1), what << ": rank " << r << "'s receives");
            uint64_t total = 0;
            for (const CollectiveSend& m : p.sends)
            {
                NS_TEST_EXPECT_MSG_EQ(m.to, (r + 1) % n, what << ": rank " << r << " sends to its right");
                total += m.octets;
            }
            // n x total against (n-1) x size: each chunk is within an octet of size / n, so n x it within n.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(Distance(n * total, uint64_t(n - 1) * s.octets),
                                        uint64_t(n) * (n - 1),
                                        what << ": rank " << r << " sends (N-1)/N x size, here " << total);
        }
    }
};

class HalvingDoublingTestCase : public TestCase
{
  public:
    HalvingDoublingTestCase()
        : TestCase("halving-doubling: partner r xor (N >> (j+1)) on halving sizes, then the same mirrored")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 4u, 8u, 16u})
        {
            for (uint64_t size : {uint64_t(1) << 20, uint64_t(1000003)})
            {
                const CollectiveSchedule s =
                    MakeCollectiveSchedule(CollectiveAlgorithm::HalvingDoublingAllReduce, n, size);
                const std::string what = Describe(CollectiveAlgorithm::HalvingDoublingAllReduce, n, size);
                const uint32_t levels = Log2(n);
                NS_TEST_EXPECT_MSG_EQ(s.steps, 2 * levels, what << ": steps");
                NS_TEST_ASSERT_MSG_EQ(s.programs.size(), std::size_t(n), what << ": one program per rank");
                const bool exact = size == (uint64_t(1) << 20);
                uint64_t total = 0;
                for (uint32_t r = 0; r < n; ++r)
                {
                    const uint64_t sent = CheckRank(s, r, levels, exact, what);
                    if (exact)
                    {
                        NS_TEST_EXPECT_MSG_EQ(sent, 2 * (size - size / n), what << ": rank " << r << "'s octets");
                    }
                    total += sent;
                }
                if (exact)
                {
                    NS_TEST_EXPECT_MSG_EQ(total, 2 * uint64_t(n - 1) * size, what << ": octets sent by all");
                }
            }
        }
    }

    /** Checks rank r's exchanges and returns the octets it sends. */
    uint64_t CheckRank(const CollectiveSchedule& s, uint32_t r, uint32_t levels, bool exact, const std::string& what)
    {
        const RankProgram& p = s.programs[r];
        std::ostringstream rank;
        rank << what << ": rank " << r;
        NS_TEST_EXPECT_MSG_EQ(p.sends.size(), std::size_t(2 * levels), rank.str() << "'s sends");
        NS_TEST_EXPECT_MSG_EQ(p.receives.size(), std::size_t(2 * levels), rank.str() << "'s receives");
        if (p.sends.size() != 2 * levels || p.receives.size() != 2 * levels)
        {
            return 0;
        }
        uint64_t sent = 0;
        for (uint32_t j = 0; j < levels; ++j)
        {
            const uint32_t partner = r ^ (s.ranks >> (j + 1));
            const uint64_t parts = uint64_t(1) << (j + 1); // this step sends 1/parts of the buffer
            const CollectiveSend& halving = p.sends[j];
            NS_TEST_EXPECT_MSG_EQ(halving.step, j, rank.str() << "'s halving step");
            NS_TEST_EXPECT_MSG_EQ(halving.to, partner, rank.str() << "'s partner at step " << j);
            NS_TEST_EXPECT_MSG_EQ(p.receives[j].from, partner, rank.str() << " hears its partner at step " << j);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(Distance(parts * halving.octets, s.octets),
                                        parts,
                                        rank.str() << " at step " << j << " sends size over " << parts
                                                   << " within an octet, here " << halving.octets);
            if (exact)
            {
                NS_TEST_EXPECT_MSG_EQ(halving.octets, s.octets / parts, rank.str() << " at step " << j);
            }
            // Allgather step `levels + j` retraces halving step `levels - 1 - j`: same partner, reversed sizes.
            const uint32_t back = levels - 1 - j;
            const CollectiveSend& doubling = p.sends[levels + j];
            NS_TEST_EXPECT_MSG_EQ(doubling.step, levels + j, rank.str() << "'s doubling step");
            NS_TEST_EXPECT_MSG_EQ(doubling.to, (r ^ (1u << j)), rank.str() << "'s partner at step " << levels + j);
            NS_TEST_EXPECT_MSG_EQ(doubling.octets, p.receives[back].octets, rank.str() << " sends what it kept");
            NS_TEST_EXPECT_MSG_EQ(p.receives[levels + j].octets, p.sends[back].octets, rank.str() << " gets back");
            if (exact)
            {
                NS_TEST_EXPECT_MSG_EQ(doubling.octets, (s.octets >> (levels - j)), rank.str() << " at " << levels + j);
            }
            sent += halving.octets + doubling.octets;
        }
        return sent;
    }
};

class AllToAllTestCase : public TestCase
{
  public:
    AllToAllTestCase()
        : TestCase("alltoall: one step, block b to rank b from every rank, at once")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 3u, 5u, 8u})
        {
            for (uint64_t size : {uint64_t(n), uint64_t(n + 1), uint64_t(1000003)})
            {
                const CollectiveSchedule s = MakeCollectiveSchedule(CollectiveAlgorithm::AllToAll, n, size);
                const std::string what = Describe(CollectiveAlgorithm::AllToAll, n, size);
                NS_TEST_EXPECT_MSG_EQ(s.steps, 1u, what << ": steps");
                NS_TEST_ASSERT_MSG_EQ(s.programs.size(), std::size_t(n), what << ": one program per rank");
                for (uint32_t r = 0; r < n; ++r)
                {
                    const RankProgram& p = s.programs[r];
                    std::ostringstream rank;
                    rank << what << ": rank " << r;
                    std::set<uint32_t> to;
                    for (const CollectiveSend& m : p.sends)
                    {
                        to.insert(m.to);
                        NS_TEST_EXPECT_MSG_EQ(m.step, 0u, rank.str() << " sends at step 0");
                        NS_TEST_EXPECT_MSG_EQ(m.after.empty(), true, rank.str() << " waits for nothing");
                        NS_TEST_EXPECT_MSG_EQ(m.octets, ExpectedChunk(size, n, m.to), rank.str() << " to " << m.to);
                    }
                    std::set<uint32_t> from;
                    for (const CollectiveReceive& m : p.receives)
                    {
                        from.insert(m.from);
                        NS_TEST_EXPECT_MSG_EQ(m.octets, ExpectedChunk(size, n, r), rank.str() << " from " << m.from);
                    }
                    NS_TEST_EXPECT_MSG_EQ(p.sends.size(), std::size_t(n - 1), rank.str() << "'s sends");
                    NS_TEST_EXPECT_MSG_EQ(p.receives.size(), std::size_t(n - 1), rank.str() << "'s receives");
                    NS_TEST_EXPECT_MSG_EQ(to.size(), std::size_t(n - 1), rank.str() << " sends to all others");
                    NS_TEST_EXPECT_MSG_EQ(from.size(), std::size_t(n - 1), rank.str() << " hears all others");
                    NS_TEST_EXPECT_MSG_EQ(to.count(r), std::size_t(0), rank.str() << " never sends to itself");
                    NS_TEST_EXPECT_MSG_EQ(from.count(r), std::size_t(0), rank.str() << " never hears itself");
                }
            }
        }
    }
};

class RefusalsTestCase : public TestCase
{
  public:
    RefusalsTestCase()
        : TestCase("refused: fewer than two ranks, a size that leaves a chunk empty, halving-doubling over 6")
    {
    }

  private:
    void DoRun() override
    {
        auto why = [](CollectiveAlgorithm a, uint32_t n, uint64_t octets) {
            return ThrownMessage<std::invalid_argument>([&] { MakeCollectiveSchedule(a, n, octets); });
        };
        const std::string::size_type none = std::string::npos;
        for (CollectiveAlgorithm a : CollectiveAlgorithms())
        {
            NS_TEST_EXPECT_MSG_NE(why(a, 0, 100).find("at least two ranks"), none, ToString(a) << ", 0 ranks");
            NS_TEST_EXPECT_MSG_NE(why(a, 1, 100).find("at least two ranks"), none, ToString(a) << ", 1 rank");
            NS_TEST_EXPECT_MSG_NE(why(a, 2, 1).find("chunk empty"), none, ToString(a) << ", 1 octet over 2");
            NS_TEST_EXPECT_MSG_EQ(why(a, 2, 2), "", ToString(a) << ", an octet a rank is enough");
        }
        NS_TEST_EXPECT_MSG_NE(why(CollectiveAlgorithm::AllGather, 3, 2).find("chunk empty"), none, "2 octets over 3");
        NS_TEST_EXPECT_MSG_NE(why(CollectiveAlgorithm::RingAllReduce, 4, 3).find("chunk empty"), none, "3 over 4");
        NS_TEST_EXPECT_MSG_NE(why(CollectiveAlgorithm::HalvingDoublingAllReduce, 6, 1 << 20).find("power-of-two"),
                              none,
                              "halving-doubling over 6 ranks");
        NS_TEST_EXPECT_MSG_NE(why(CollectiveAlgorithm::HalvingDoublingAllReduce, 12, 1 << 20).find("power-of-two"),
                              none,
                              "halving-doubling over 12 ranks");
        NS_TEST_EXPECT_MSG_EQ(why(CollectiveAlgorithm::HalvingDoublingAllReduce, 8, 8), "", "8 ranks are a power");
        NS_TEST_EXPECT_MSG_EQ(why(CollectiveAlgorithm::RingAllReduce, 6, 1 << 20), "", "a ring takes 6 ranks");
        NS_TEST_EXPECT_MSG_EQ(why(CollectiveAlgorithm::AllGather, 3, 3), "", "3 octets over 3 ranks");
    }
};

class IdealCompletionTestCase : public TestCase
{
  public:
    IdealCompletionTestCase()
        : TestCase("ideal completion: the critical path of dependencies and sender links; a cycle is refused")
    {
    }

  private:
    void DoRun() override
    {
        // A message is delivered 1000 ns + 1 ns an octet after its post and holds its sender's link 1 ns an octet.
        const CollectiveMessageTimes times{
            [](uint32_t, uint32_t, uint64_t octets) { return NanoSeconds(1000 + octets); },
            [](uint32_t, uint64_t octets) { return NanoSeconds(octets); }};

        // 14 steps of 1000-octet chunks, each waiting for the previous one's delivery: 14 x 2000 ns.
        const CollectiveSchedule ring = MakeCollectiveSchedule(CollectiveAlgorithm::RingAllReduce, 8, 8000);
        NS_TEST_EXPECT_MSG_EQ(IdealCompletion(ring, times), NanoSeconds(2 * 7 * (1000 + 1000)), "ring all-reduce");

        // Three 1000-octet blocks back to back on each link, starting at 0, 1000 and 2000 ns: the last lands at 4000.
        const CollectiveSchedule all = MakeCollectiveSchedule(CollectiveAlgorithm::AllToAll, 4, 4000);
        NS_TEST_EXPECT_MSG_EQ(IdealCompletion(all, times), NanoSeconds(4000), "alltoall, serialised on the link");

        // Steps of 2000, 1000, 1000 and 2000 octets, each after the previous: 3000 + 2000 + 2000 + 3000 ns.
        const CollectiveSchedule hd = MakeCollectiveSchedule(CollectiveAlgorithm::HalvingDoublingAllReduce, 4, 4000);
        NS_TEST_EXPECT_MSG_EQ(IdealCompletion(hd, times), NanoSeconds(10000), "halving-doubling all-reduce");

        // Rank 0 sends one octet at once; rank 1 answers once it has it: 1001 ns, then 1001 ns more.
        CollectiveSchedule chain = TwoRanks();
        chain.programs[0].sends[0].after.clear();
        NS_TEST_EXPECT_MSG_EQ(IdealCompletion(chain, times), NanoSeconds(2002), "a reply after its request");

        // Each rank's only send waits for its only receive: neither ever goes.
        const CollectiveSchedule cycle = TwoRanks();
        const std::string message = ThrownMessage<std::logic_error>([&] { IdealCompletion(cycle, times); });
        NS_TEST_EXPECT_MSG_NE(message, "", "a cycle is refused");
        NS_TEST_EXPECT_MSG_NE(message.find("never let rank"), std::string::npos, "saying which rank is stuck");
    }

    /** Two ranks that each send the other one octet at step 1 after receiving one at step 0. */
    static CollectiveSchedule TwoRanks()
    {
        CollectiveSchedule s;
        s.algorithm = CollectiveAlgorithm::RingAllReduce;
        s.ranks = 2;
        s.octets = 2;
        s.steps = 2;
        s.programs.resize(2);
        for (uint32_t r = 0; r < 2; ++r)
        {
            s.programs[r].sends.push_back(CollectiveSend{1, 1 - r, 1, {0}});
            s.programs[r].receives.push_back(CollectiveReceive{0, 1 - r, 1});
        }
        return s;
    }
};

class CollectiveScheduleTestSuite : public TestSuite
{
  public:
    CollectiveScheduleTestSuite()
        : TestSuite("iwarp-collective-schedule", UNIT)
    {
        AddTestCase(new ConservationTestCase, TestCase::QUICK);
        AddTestCase(new RingAllReduceTestCase, TestCase::QUICK);
        AddTestCase(new RingHalvesTestCase, TestCase::QUICK);
        AddTestCase(new HalvingDoublingTestCase, TestCase::QUICK);
        AddTestCase(new AllToAllTestCase, TestCase::QUICK);
        AddTestCase(new RefusalsTestCase, TestCase::QUICK);
        AddTestCase(new IdealCompletionTestCase, TestCase::QUICK);
    }
};

CollectiveScheduleTestSuite g_collectiveScheduleTestSuite;

} // namespace
} // namespace ns3
