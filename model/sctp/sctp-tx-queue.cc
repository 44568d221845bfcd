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
SctpTxQueue::Reset(uint32_t initialTsn)
{
    m_q.clear();
    m_sent = 0;
    m_nextTsn = initialTsn;
    m_cumAck = initialTsn - 1;
    m_bufferedUserBytes = 0;
    m_timedTsn.reset();
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
        e.chunk = c;
        m_q.push_back(e);
        off += len;
        ++n;
    } while (off < msg.size());
    m_bufferedUserBytes += msg.size();
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
    auto sample = [&](const Entry& e) {
        if (m_timedTsn && *m_timedTsn == e.chunk->GetTsn())
        {
            if (e.txCount == 1)
            {
                r.rtt = now - e.lastSent;
            }
            m_timedTsn.reset();
        }
    };

    r.highestNewlyAcked = m_cumAck;
    while (!m_q.empty() && TsnLe(m_q.front().chunk->GetTsn(), cumTsnAck))
    {
        Entry& e = m_q.front();
        if (!e.gapAcked)
        {
            r.bytesAcked += e.Bytes();
            r.highestNewlyAcked = e.chunk->GetTsn();
        }
        sample(e);
        m_bufferedUserBytes -= e.chunk->GetUserData().size();
        m_q.pop_front();
        --m_sent; // cumTsnAck is at most the highest TSN sent
        r.cumAdvanced = true;
    }
    m_cumAck = cumTsnAck;

    // Gap blocks: what they cover is acked for now (it may be reneged, so it stays queued); a chunk that
    // was gap-acked before but is not any more has been reneged and is in flight again.
    std::vector<bool> covered(m_sent, false);
    for (const auto& g : gaps)
    {
        if (g.first == 0 || g.second < g.first)
        {
            continue;
        }
        for (uint32_t off = g.first; off <= g.second; ++off)
        {
            uint32_t idx = off - 1; // m_q.front() is cum + 1
            if (idx < m_sent)
            {
                covered[idx] = true;
            }
        }
    }
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (covered[k] && !e.gapAcked)
        {
            e.gapAcked = true;
            if (!e.markedForRtx)
            {
                r.bytesAcked += e.Bytes();
            }
            e.markedForRtx = false;
            r.highestNewlyAcked = e.chunk->GetTsn();
            sample(e);
        }
        else if (!covered[k] && e.gapAcked)
        {
            e.gapAcked = false;
        }
    }
    // Miss indications (§7.2.4): unacked chunks below the highest TSN newly acknowledged by this SACK.
    if (!gaps.empty() && TsnLt(m_cumAck, r.highestNewlyAcked))
    {
        for (size_t k = 0; k < m_sent; ++k)
        {
            Entry& e = m_q[k];
            if (!TsnLt(e.chunk->GetTsn(), r.highestNewlyAcked))
            {
                break;
            }
            if (!e.gapAcked && !e.markedForRtx && !e.fastRtxDone)
            {
                if (++e.missCount == 3)
                {
                    r.fastRtx.push_back(e.chunk->GetTsn());
                }
            }
        }
    }
    return r;
}

uint32_t
SctpTxQueue::MarkAllForRetransmission()
{
    uint32_t n = 0;
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (e.InFlight())
        {
            e.markedForRtx = true;
            ++n;
        }
        e.markedByFastRtx = false; // whatever was pending goes out under the T3 rules now
    }
    m_timedTsn.reset();
    return n;
}

void
SctpTxQueue::MarkFastRetransmit(const std::vector<uint32_t>& tsns)
{
    for (size_t k = 0; k < m_sent; ++k)
    {
        Entry& e = m_q[k];
        if (std::find(tsns.begin(), tsns.end(), e.chunk->GetTsn()) != tsns.end())
        {
            e.markedForRtx = true;
            e.markedByFastRtx = true;
            e.fastRtxDone = true;
            e.missCount = 0;
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
    for (size_t k = 0; k < m_sent; ++k)
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
    return std::any_of(m_q.begin(), m_q.begin() + m_sent, [](const Entry& e) { return e.markedForRtx; });
}

bool
SctpTxQueue::HasUnsent() const
{
    return m_sent < m_q.size();
}

void
SctpTxQueue::OnSent(Entry& e, Time now)
{
    if (!e.sent)
    {
        NS_ASSERT_MSG(m_sent < m_q.size() && &e == &m_q[m_sent], "new DATA must leave in TSN order");
        ++m_sent;
    }
    e.sent = true;
    e.markedForRtx = false;
    e.missCount = 0;
    ++e.txCount;
    e.lastSent = now;
    if (!m_timedTsn && e.txCount == 1)
    {
        m_timedTsn = e.chunk->GetTsn();
    }
}

uint32_t
SctpTxQueue::GetFlightSize() const
{
    uint32_t f = 0;
    for (size_t k = 0; k < m_sent; ++k)
    {
        const Entry& e = m_q[k];
        if (e.InFlight())
        {
            f += e.Bytes();
        }
    }
    return f;
}

bool
SctpTxQueue::HasOutstanding() const
{
    return m_sent > 0;
}

uint32_t
SctpTxQueue::GetHighestSentTsn() const
{
    return m_sent > 0 ? m_q[m_sent - 1].chunk->GetTsn() : m_cumAck;
}

} // namespace ns3
