/*
 * iwarp-lazy-deque: LazyDeque (model/common/lazy-deque.h) allocates nothing while empty and
 * otherwise behaves as the std::deque it replaces in the queue pair's layers (RnicPipeline,
 * DdpEndpoint, DdpUntaggedQueue, RdmapEndpoint), checked operation by operation against one.
 */
#include "common/lazy-deque.h"

#include "ns3/test.h"

#include <malloc.h>

#include <deque>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

class EmptyAllocatesNothingTestCase : public TestCase
{
  public:
    EmptyAllocatesNothingTestCase()
        : TestCase("an empty LazyDeque allocates nothing, also when read, iterated or cleared")
    {
    }

  private:
    void DoRun() override
    {
        // mallinfo2 counts glibc's heap only: under AddressSanitizer it stays 0, and only the
        // IsAllocated checks below can tell.
        const size_t probe = mallinfo2().uordblks;
        auto* made = new std::deque<std::string>;
        const bool heapCounted = mallinfo2().uordblks != probe;
        delete made;
        std::vector<LazyDeque<std::string>> queues(1000); // the vector's own storage comes first
        // Made before the count: a std::deque allocates when constructed, and a freed chunk that
        // glibc keeps in its thread cache still counts as in use in mallinfo2.
        std::deque<std::string> scratch;
        const size_t before = mallinfo2().uordblks;
        std::size_t visited = 0;
        for (LazyDeque<std::string>& q : queues)
        {
            visited += q.size() + (q.empty() ? 0 : 1);
            for (const std::string& s : q)
            {
                visited += s.size();
            }
            q.clear();
            q.swap(scratch); // swapping with an empty deque makes nothing either
        }
        std::vector<std::string> copied(queues[0].begin(), queues[0].end());
        NS_TEST_EXPECT_MSG_EQ(visited + copied.size(), 0u, "nothing to visit");
        for (const LazyDeque<std::string>& q : queues)
        {
            NS_TEST_ASSERT_MSG_EQ(q.IsAllocated(), false, "no deque behind an idle queue");
        }
        if (heapCounted)
        {
            NS_TEST_EXPECT_MSG_EQ(mallinfo2().uordblks, before, "1000 empty queues read and cleared: no heap");
            // A std::deque allocates its map and first node even while empty: what this saves.
            const size_t plainBefore = mallinfo2().uordblks;
            std::vector<std::deque<std::string>> plain(1000);
            NS_TEST_EXPECT_MSG_GT(mallinfo2().uordblks - plainBefore, 1000u * 512, "libstdc++'s deque does allocate");
        }
    }
};

class SameAsDequeTestCase : public TestCase
{
  public:
    SameAsDequeTestCase()
        : TestCase("push, emplace, pop, front, back, index, iterate, swap and clear as std::deque")
    {
    }

  private:
    void Check(const LazyDeque<int>& lazy, const std::deque<int>& ref, const std::string& when)
    {
        NS_TEST_ASSERT_MSG_EQ(lazy.size(), ref.size(), when);
        NS_TEST_ASSERT_MSG_EQ(lazy.empty(), ref.empty(), when);
        std::vector<int> a(lazy.begin(), lazy.end());
        std::vector<int> b(ref.begin(), ref.end());
        NS_TEST_ASSERT_MSG_EQ((a == b), true, when << ": same elements in the same order");
        for (std::size_t i = 0; i < ref.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(lazy[i], ref[i], when << " [" << i << "]");
        }
        if (!ref.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(lazy.front(), ref.front(), when);
            NS_TEST_ASSERT_MSG_EQ(lazy.back(), ref.back(), when);
        }
    }

    void DoRun() override
    {
        LazyDeque<int> lazy;
        std::deque<int> ref;
        // Past one 512-octet node (128 ints), so that the deque grows its map.
        for (int i = 0; i < 300; ++i)
        {
            if (i % 3 == 0)
            {
                lazy.emplace_back(i);
                ref.emplace_back(i);
            }
            else
            {
                lazy.push_back(i);
                ref.push_back(i);
            }
            if (i % 5 == 4)
            {
                lazy.pop_front();
                ref.pop_front();
            }
        }
        Check(lazy, ref, "after pushes and pops");
        lazy.front() = -1;
        ref.front() = -1;
        lazy.back() += 10;
        ref.back() += 10;
        Check(lazy, ref, "after writing through front and back");

        std::deque<int> scratch{7, 8, 9};
        std::deque<int> refScratch{7, 8, 9};
        lazy.swap(scratch);
        ref.swap(refScratch);
        Check(lazy, ref, "after a swap");
        NS_TEST_ASSERT_MSG_EQ((scratch == refScratch), true, "the other side got the old contents");

        LazyDeque<int> copy = lazy;
        copy.push_back(1);
        Check(lazy, ref, "a copy is independent");
        LazyDeque<int> moved = std::move(copy);
        NS_TEST_ASSERT_MSG_EQ(moved.size(), ref.size() + 1, "moved with its contents");

        lazy.clear();
        ref.clear();
        Check(lazy, ref, "after clear");
        NS_TEST_EXPECT_MSG_EQ(lazy.IsAllocated(), false, "clear gives the memory back");
        lazy.push_back(5);
        ref.push_back(5);
        Check(lazy, ref, "used again after clear");
    }
};

class LazyDequeTestSuite : public TestSuite
{
  public:
    LazyDequeTestSuite()
        : TestSuite("iwarp-lazy-deque", UNIT)
    {
        AddTestCase(new EmptyAllocatesNothingTestCase, TestCase::QUICK);
        AddTestCase(new SameAsDequeTestCase, TestCase::QUICK);
    }
};

static LazyDequeTestSuite g_lazyDequeTestSuite;

} // namespace
} // namespace ns3
