/*
 * Bulk traffic plan, checker and sender; see sctp-bulk-traffic.h.
 */
#include "sctp/sctp-bulk-traffic.h"

#include <algorithm>
#include <cstring>
#include <random>

namespace ns3
{
namespace iwarptest
{

namespace
{

/** SplitMix64: a fast generator whose every output depends on the whole state, enough for test payloads. */
uint64_t
SplitMix(uint64_t& state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace

// ------------------------------------------------------------------------------------------- BulkPlan

BulkPlan::BulkPlan(uint64_t seed, uint64_t totalOctets)
    : m_seed(seed)
{
    // std::mt19937_64's sequence is fixed by the standard, and plain modulo keeps the plan the same with
    // any standard library (the distributions of <random> are not).
    std::mt19937_64 rng(seed);
    auto between = [&rng](uint32_t lo, uint32_t hi) { return lo + uint32_t(rng() % (hi - lo + 1)); };
    while (m_total < totalOctets)
    {
        Message m;
        uint32_t kind = uint32_t(rng() % 100);
        // 15 % tiny, 35 % one DATA chunk at a 1500-octet PMTU (1452 octets of user data), 35 % a few
        // chunks, 15 % many chunks.
        m.size = kind < 15 ? between(1, 64)
                 : kind < 50 ? between(65, 1452)
                 : kind < 85 ? between(1453, 12000)
                             : between(12001, kMaxMessage);
        uint32_t s = uint32_t(rng() % 10);
        m.stream = s < 5 ? 0 : s < 8 ? kUnorderedStream : 2;
        m.unordered = m.stream == kUnorderedStream;
        if (m.unordered)
        {
            m.size = std::max<uint32_t>(m.size, 4); // room for its index
        }
        m_total += m.size;
        m_msgs.push_back(m);
    }
}

size_t
BulkPlan::CountLargerThan(uint32_t octets) const
{
    return size_t(std::count_if(m_msgs.begin(), m_msgs.end(), [octets](const Message& m) {
        return m.size > octets;
    }));
}

void
BulkPlan::Fill(size_t i, uint8_t* out) const
{
    const Message& m = m_msgs[i];
    uint64_t state = m_seed * 0xD1342543DE82EF95ull + i;
    uint32_t k = 0;
    for (; k + 8 <= m.size; k += 8)
    {
        uint64_t v = SplitMix(state);
        std::memcpy(out + k, &v, 8);
    }
    if (k < m.size)
    {
        uint64_t v = SplitMix(state);
        std::memcpy(out + k, &v, m.size - k);
    }
    if (m.unordered)
    {
        uint32_t idx = uint32_t(i);
        for (int b = 0; b < 4; ++b)
        {
            out[b] = uint8_t(idx >> (8 * b));
        }
    }
}

// ------------------------------------------------------------------------------------------- BulkChecker

BulkChecker::BulkChecker(const BulkPlan& plan)
    : m_plan(plan),
      m_ordered(BulkPlan::kStreams),
      m_next(BulkPlan::kStreams, 0),
      m_seen(plan.Count(), false)
{
    for (size_t i = 0; i < plan.Count(); ++i)
    {
        if (!plan.Get(i).unordered)
        {
            m_ordered[plan.Get(i).stream].push_back(uint32_t(i));
        }
    }
}

void
BulkChecker::Fail(const std::string& what)
{
    if (m_error.empty())
    {
        m_error = "message " + std::to_string(m_messages) + " received: " + what;
    }
}

void
BulkChecker::OnMessage(uint16_t stream, const uint8_t* data, size_t len)
{
    size_t index = 0;
    if (stream >= BulkPlan::kStreams)
    {
        Fail("stream " + std::to_string(stream) + " was never sent on");
        return;
    }
    if (stream == BulkPlan::kUnorderedStream)
    {
        if (len < 4)
        {
            Fail("unordered message of " + std::to_string(len) + " octets (no index)");
            return;
        }
        index = size_t(data[0]) | size_t(data[1]) << 8 | size_t(data[2]) << 16 | size_t(data[3]) << 24;
        if (index >= m_plan.Count() || !m_plan.Get(index).unordered || m_seen[index])
        {
            Fail("unordered message claims index " + std::to_string(index) +
                 (index < m_seen.size() && m_seen[index] ? ", which already arrived" : ", not in the plan"));
            return;
        }
        if (index < m_highestUnordered)
        {
            ++m_overtakes;
        }
        m_highestUnordered = std::max(m_highestUnordered, uint32_t(index));
    }
    else
    {
        if (m_next[stream] >= m_ordered[stream].size())
        {
            Fail("more messages on stream " + std::to_string(stream) + " than were sent");
            return;
        }
        index = m_ordered[stream][m_next[stream]++];
    }
    const BulkPlan::Message& m = m_plan.Get(index);
    if (len != m.size)
    {
        Fail("plan message " + std::to_string(index) + " (stream " + std::to_string(stream) + ") has " +
             std::to_string(m.size) + " octets, got " + std::to_string(len) + " (lost, reordered or cut)");
        return;
    }
    m_expect.resize(m.size);
    m_plan.Fill(index, m_expect.data());
    if (std::memcmp(m_expect.data(), data, len) != 0)
    {
        size_t at = 0;
        while (m_expect[at] == data[at])
        {
            ++at;
        }
        Fail("plan message " + std::to_string(index) + " differs at octet " + std::to_string(at));
        return;
    }
    m_seen[index] = true;
    m_octets += len;
    ++m_messages;
}

// ------------------------------------------------------------------------------------------- BulkSender

BulkSender::BulkSender(const BulkPlan& plan)
    : m_plan(plan),
      m_buf(BulkPlan::kMaxMessage)
{
}

uint32_t
BulkSender::Pump(const TrySend& send)
{
    uint32_t n = 0;
    while (!Done())
    {
        if (!m_filled)
        {
            m_plan.Fill(m_next, m_buf.data());
            m_filled = true;
        }
        if (!send(m_plan.Get(m_next), m_buf.data()))
        {
            break;
        }
        m_filled = false;
        ++m_next;
        ++n;
    }
    return n;
}

} // namespace iwarptest
} // namespace ns3
