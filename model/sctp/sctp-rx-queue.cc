/*
 * Receiver-side data queue; see sctp-rx-queue.h.
 */
#include "sctp/sctp-rx-queue.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpRxQueue");

void
SctpRxQueue::Reset(uint32_t peerInitialTsn, uint16_t inboundStreams, uint32_t rcvBuf)
{
    // Start the unwrapped space well above zero so "initial - 1" never underflows.
    m_cum = (uint64_t(1) << 32) + uint32_t(peerInitialTsn - 1);
    m_above.clear();
    m_frags.clear();
    m_ordered.clear();
    m_nextSsn.assign(inboundStreams, 0);
    m_ready.clear();
    m_dups.clear();
    m_held = 0;
    m_unread = 0;
    m_rcvBuf = rcvBuf;
}

uint64_t
SctpRxQueue::Unwrap(uint32_t tsn) const
{
    int32_t delta = int32_t(tsn - uint32_t(m_cum));
    return uint64_t(int64_t(m_cum) + delta);
}

uint32_t
SctpRxQueue::GetArwnd() const
{
    uint64_t used = m_held + m_unread;
    return used >= m_rcvBuf ? 0 : uint32_t(m_rcvBuf - used);
}

SctpRxQueue::Verdict
SctpRxQueue::Receive(const SctpDataChunk& c)
{
    uint64_t tsn = Unwrap(c.GetTsn());
    if (tsn <= m_cum || m_above.count(tsn) != 0)
    {
        if (m_dups.size() < 64)
        {
            m_dups.push_back(c.GetTsn());
        }
        return Verdict::Duplicate;
    }
    // §6.2: with no room left, new data is dropped, zero-window probes included. The one exception is
    // the TSN that fills the first hole: without it the out-of-order data holding the buffer could never
    // be delivered and read, and the association would deadlock.
    bool fillsHole = tsn == m_cum + 1 && !m_above.empty();
    if (GetArwnd() < c.GetUserData().size() && !fillsHole)
    {
        return Verdict::NoRoom;
    }
    m_above.insert(tsn);
    while (!m_above.empty() && *m_above.begin() == m_cum + 1)
    {
        m_cum++;
        m_above.erase(m_above.begin());
    }
    m_frags[tsn] = std::make_shared<SctpDataChunk>(c);
    m_held += c.GetUserData().size();
    TryReassemble(tsn);
    return Verdict::New;
}

void
SctpRxQueue::TryReassemble(uint64_t tsn)
{
    auto it = m_frags.find(tsn);
    const SctpDataChunk& c = *it->second;
    // Walk back to the B fragment and forward to the E fragment over consecutive TSNs of the same stream.
    auto first = it;
    while (!first->second->IsBeginning())
    {
        if (first == m_frags.begin())
        {
            return;
        }
        auto prev = std::prev(first);
        if (prev->first + 1 != first->first || prev->second->GetStreamId() != c.GetStreamId() ||
            prev->second->IsEnding())
        {
            return;
        }
        first = prev;
    }
    auto last = it;
    while (!last->second->IsEnding())
    {
        auto next = std::next(last);
        if (next == m_frags.end() || next->first != last->first + 1 ||
            next->second->GetStreamId() != c.GetStreamId() || next->second->IsBeginning())
        {
            return;
        }
        last = next;
    }
    SctpMessage m;
    m.stream = first->second->GetStreamId();
    m.ssn = first->second->GetSsn();
    m.ppid = first->second->GetPpid();
    m.unordered = first->second->IsUnordered();
    m.firstTsn = first->second->GetTsn();
    for (auto k = first;; ++k)
    {
        const auto& d = k->second->GetUserData();
        m.data.insert(m.data.end(), d.begin(), d.end());
        if (k == last)
        {
            break;
        }
    }
    m_frags.erase(first, std::next(last));
    m_held -= m.data.size();
    if (m.unordered)
    {
        m_unread += m.data.size();
        m_ready.push_back(std::move(m));
        return;
    }
    uint16_t sid = m.stream;
    if (sid >= m_nextSsn.size())
    {
        return; // a stream the peer may not use: acknowledged (TSN counted) but discarded (§6.5)
    }
    m_held += m.data.size();
    m_ordered[sid][m.ssn] = std::move(m);
    DeliverOrdered(sid);
}

void
SctpRxQueue::DeliverOrdered(uint16_t stream)
{
    if (stream >= m_nextSsn.size())
    {
        return; // the association rejects such chunks before they get here
    }
    auto& q = m_ordered[stream];
    for (auto it = q.find(m_nextSsn[stream]); it != q.end(); it = q.find(m_nextSsn[stream]))
    {
        m_held -= it->second.data.size();
        m_unread += it->second.data.size();
        m_ready.push_back(std::move(it->second));
        q.erase(it);
        m_nextSsn[stream]++;
    }
}

void
SctpRxQueue::FillSack(SctpSackChunk& s)
{
    uint32_t cum = uint32_t(m_cum);
    s.SetCumTsnAck(cum);
    s.SetArwnd(GetArwnd());
    uint64_t start = 0;
    uint64_t prev = 0;
    for (uint64_t t : m_above)
    {
        if (start != 0 && t == prev + 1)
        {
            prev = t;
            continue;
        }
        if (start != 0)
        {
            s.AddGapBlock(uint16_t(start - m_cum), uint16_t(prev - m_cum));
        }
        start = prev = t;
    }
    if (start != 0)
    {
        s.AddGapBlock(uint16_t(start - m_cum), uint16_t(prev - m_cum));
    }
    for (uint32_t d : m_dups)
    {
        s.AddDupTsn(d);
    }
    m_dups.clear();
}

} // namespace ns3
