/*
 * Sender-side data queue; see sctp-tx-queue.h.
 */
#include "sctp/sctp-tx-queue.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpTxQueue");

void
SctpTxQueue::Count(const Entry& e, int sign)
{
    if (e.InFlight())
    {
        m_flight = sign > 0 ? m_flight + e.bytes : m_flight - e.bytes;
        uint32_t& onPath = m_flightByPath[e.path];
        onPath = sign > 0 ? onPath + e.bytes : onPath - e.bytes;
    }
    if (e.markedForRtx)
    {
        m_marked = sign > 0 ? m_marked + 1 : m_marked - 1;
    }
    if (e.sent && !e.gapAcked)
    {
        uint32_t& unacked = m_unackedByPath[e.path];
        unacked = sign > 0 ? unacked + 1 : unacked - 1;
    }
    if (e.gapAcked)
    {
        m_gapAcked = sign > 0 ? m_gapAcked + 1 : m_gapAcked - 1;
    }
}

template <typename Change>
void
SctpTxQueue::Update(Entry& e, Change change)
{
    Count(e, -1);
    change(e);
    Count(e, +1);
}

void
SctpTxQueue::Reset(uint32_t initialTsn)
{
    m_q.clear();
    m_sent = 0;
    m_nextTsn = initialTsn;
    m_cumAck = initialTsn - 1;
    m_bufferedUserBytes = 0;
    m_unackedPerStream.clear();
    m_timedTsn.reset();
    m_sent = 0;
    m_flight = 0;
    m_flightByPath.fill(0);
    m_unackedByPath.fill(0);
    m_marked = 0;
    m_gapAcked = 0;
}

uint32_t
SctpTxQueue::Enqueue(const std::vector<uint8_t>& msg,
                     uint16_t stream,
                     uint16_t ssn,
                     uint32_t ppid,
                     bool unordered,
                     uint32_t maxFragment)
{
    NS_ASSERT(maxFragment > 0);
    size_t off = 0;
    uint32_t n = 0;
    do
    {
        size_t len = std::min<size_t>(maxFragment, msg.size() - off);
        auto c = std::make_shared<SctpDataChunk>();
        c->SetFlags(0);
        c->SetTsn(m_nextTsn++);
        c->SetStreamId(stream);
        c->SetSsn(ssn);
        c->SetPpid(ppid);
        c->SetUnordered(unordered);
        c->SetBeginning(off == 0);
        c->SetEnding(off + len == msg.size());
        c->SetUserData(std::vector<uint8_t>(msg.begin() + off, msg.begin() + off + len));
        Entry e;
        e.bytes = c->GetSerializedSize();
        e.chunk = std::move(c);
        m_q.push_back(std::move(e));
        off += len;
        ++n;
    } while (off < msg.size());
    m_bufferedUserBytes += msg.size();
    m_unackedPerStream[stream] += n;
    return n;
}

SctpTxQueue::SackResult
SctpTxQueue::ProcessSack(uint32_t cumTsnAck, const std::vector<std::pair<uint16_t, uint16_t>>& gaps, Time now)
{
    SackResult r;
    if (TsnLt(cumTsnAck, m_cumAck))
    {
        r.stale = true;
        return r;
    }
    // A cumulative ack beyond what was sent is a peer error; clamp so we never pop unsent chunks.
    uint32_t highestSent = GetHighestSentTsn();
    if (TsnLt(highestSent, cumTsnAck))
    {
        cumTsnAck = highestSent;
    }
    const auto earliest = EarliestOutstanding();
    auto sample = [&](const Entry& e) {
        if (m_timedTsn && *m_timedTsn == e.chunk->GetTsn())
        {
            if (e.txCount == 1)
            {
                r.rtt = now - e.lastSent;
                r.rttPath = e.path;
            }
            m_timedTsn.reset();
        }
    };

    r.highestNewlyAcked = m_cumAck;
    while (!m_q.empty() && TsnLe(m_q.front().chunk->GetTsn(), cumTsnAck))
    {
        Entry& e = m_q.front();
        NS_ASSERT(e.sent); // the cumulative ack was clamped to the highest TSN sent
        if (!e.gapAcked)
        {
            r.bytesAcked += e.Bytes();
            r.bytesAckedByPath[e.path] += e.Bytes();
            r.pathsAcked |= 1u << e.path;
            r.highestNewlyAcked = e.chunk->GetTsn();
        }
        sample(e);
        m_bufferedUserBytes -= e.chunk->GetUserData().size();
        auto perStream = m_unackedPerStream.find(e.chunk->GetStreamId());
        NS_ASSERT_MSG(perStream != m_unackedPerStream.end(), "a queued chunk Enqueue did not count");
        if (--perStream->second == 0)
        {
            m_unackedPerStream.erase(perStream);
        }
        Count(e, -1);
        m_q.pop_front();
        --m_sent;
        r.cumAdvanced = true;
    }
    m_cumAck = cumTsnAck;
    // Gap blocks: what they cover is acked for now (it may be reneged, so it stays queued); a chunk that
    // was gap-acked before but is not any more has been reneged and is in flight again. Only sent chunks
    // can be covered, and without gaps now or before there is nothing to do (the common case).
    if (gaps.empty() && m_gapAcked == 0)
    {
        NoteEarliestAcked(earliest, r);
        return r;
    }
    std::vector<bool> covered(m_sent, false);
    for (const auto& g : gaps)
    {
        if (g.first == 0 || g.second < g.first)
        {
            continue;
        }
        const uint32_t last = std::min<uint32_t>(g.second, uint32_t(m_sent)); // m_q.front() is cum + 1
        for (uint32_t off = g.first; off <= last; ++off)
        {
            covered[off - 1] = true;
        }
    }
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (covered[k] && !e.gapAcked)
        {
            if (!e.markedForRtx)
            {
                r.bytesAcked += e.Bytes();
                r.bytesAckedByPath[e.path] += e.Bytes();
            }
            r.pathsAcked |= 1u << e.path;
            Update(e, [](Entry& x) {
                x.gapAcked = true;
                x.markedForRtx = false;
            });
            r.highestNewlyAcked = e.chunk->GetTsn();
            sample(e);
        }
        else if (!covered[k] && e.gapAcked)
        {
            Update(e, [](Entry& x) { x.gapAcked = false; });
        }
    }
    if (!gaps.empty())
    {
        CountMissIndications(r);
    }
    NoteEarliestAcked(earliest, r);
    return r;
}

void
SctpTxQueue::CountMissIndications(SackResult& r)
{
    // §7.2.4: unacked chunks below the highest TSN newly acknowledged by this SACK.
    if (!TsnLt(m_cumAck, r.highestNewlyAcked))
    {
        return;
    }
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (!TsnLt(e.chunk->GetTsn(), r.highestNewlyAcked))
        {
            break;
        }
        if (!e.gapAcked && !e.markedForRtx && !e.fastRtxDone && ++e.missCount == 3)
        {
            if (r.fastRtx.empty())
            {
                r.fastRtxPath = e.path;
            }
            r.fastRtxPaths |= 1u << e.path;
            r.fastRtx.push_back(e.chunk->GetTsn());
        }
    }
}

void
SctpTxQueue::NoteEarliestAcked(const std::array<std::optional<uint32_t>, kMaxPaths>& earliest, SackResult& r) const
{
    for (size_t p = 0; p < kMaxPaths; ++p)
    {
        if (!earliest[p])
        {
            continue;
        }
        const uint32_t tsn = *earliest[p];
        const uint32_t off = tsn - m_cumAck - 1; // its index in m_q when not cumulatively acked
        if (TsnLe(tsn, m_cumAck) || (off < m_sent && m_q[off].gapAcked))
        {
            r.pathsEarliestAcked |= 1u << p;
        }
    }
}

std::array<std::optional<uint32_t>, SctpTxQueue::kMaxPaths>
SctpTxQueue::EarliestOutstanding() const
{
    std::array<std::optional<uint32_t>, kMaxPaths> out;
    size_t wanted = 0;
    for (uint32_t n : m_unackedByPath)
    {
        wanted += n > 0 ? 1 : 0;
    }
    // Stops once every path with something outstanding has been found: single-homed, at the first entry.
    for (size_t k = 0; wanted > 0 && k < m_sent; ++k)
    {
        const Entry& e = m_q[k];
        if (!e.gapAcked && !out[e.path])
        {
            out[e.path] = e.chunk->GetTsn();
            --wanted;
        }
    }
    return out;
}

uint32_t
SctpTxQueue::MarkAllForRetransmission(uint8_t path)
{
    uint32_t n = 0;
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (e.path != path)
        {
            continue;
        }
        if (e.InFlight())
        {
            Update(e, [](Entry& x) { x.markedForRtx = true; });
            ++n;
        }
        e.markedByFastRtx = false; // whatever was pending goes out under the T3 rules now
        if (m_timedTsn && *m_timedTsn == e.chunk->GetTsn())
        {
            m_timedTsn.reset();
        }
    }
    return n;
}

void
SctpTxQueue::MarkFastRetransmit(const std::vector<uint32_t>& tsns)
{
    for (size_t k = 0; k < m_sent; ++k) // only outstanding chunks can have been reported missing
    {
        Entry& e = m_q[k];
        if (std::find(tsns.begin(), tsns.end(), e.chunk->GetTsn()) != tsns.end())
        {
            Update(e, [](Entry& x) {
                x.markedForRtx = true;
                x.markedByFastRtx = true;
                x.fastRtxDone = true;
                x.missCount = 0;
            });
            if (m_timedTsn && *m_timedTsn == e.chunk->GetTsn())
            {
                m_timedTsn.reset();
            }
        }
    }
}

SctpTxQueue::Entry*
SctpTxQueue::NextToSend(bool rtxOnly)
{
    for (size_t k = 0; m_marked > 0 && k < m_sent; ++k)
    {
        if (m_q[k].markedForRtx)
        {
            return &m_q[k];
        }
    }
    if (rtxOnly || m_sent == m_q.size())
    {
        return nullptr;
    }
    return &m_q[m_sent];
}

bool
SctpTxQueue::HasMarked() const
{
    return m_marked > 0;
}

bool
SctpTxQueue::HasUnsent() const
{
    return m_sent < m_q.size();
}

void
SctpTxQueue::OnSent(Entry& e, Time now, uint8_t path)
{
    NS_ASSERT(path < kMaxPaths);
    if (!e.sent)
    {
        NS_ASSERT_MSG(m_sent < m_q.size() && &m_q[m_sent] == &e, "new DATA leaves in TSN order");
        ++m_sent;
    }
    Update(e, [now, path](Entry& x) {
        x.sent = true;
        x.path = path;
        x.markedForRtx = false;
        x.missCount = 0;
        ++x.txCount;
        x.lastSent = now;
    });
    if (!m_timedTsn && e.txCount == 1)
    {
        m_timedTsn = e.chunk->GetTsn();
    }
}

uint32_t
SctpTxQueue::GetUnackedChunks(uint16_t stream) const
{
    auto it = m_unackedPerStream.find(stream);
    return it == m_unackedPerStream.end() ? 0 : it->second;
}

uint32_t
SctpTxQueue::GetHighestSentTsn() const
{
    return m_sent == 0 ? m_cumAck : m_q[m_sent - 1].chunk->GetTsn();
}

} // namespace ns3
