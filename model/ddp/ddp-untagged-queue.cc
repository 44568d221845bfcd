#include "ddp/ddp-untagged-queue.h"

#include "ns3/abort.h"

namespace ns3
{

void
DdpUntaggedQueue::Post(const DdpUntaggedBuffer& b)
{
    // Consumed entries are dropped once they are at least half the vector: each survivor moves at
    // most once per doubling, so posting and consuming stay amortised O(1).
    if (m_head > 0 && 2 * m_head >= m_buffers.size())
    {
        m_buffers.erase(m_buffers.begin(), m_buffers.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
    }
    m_buffers.push_back(b);
}

DdpUntaggedQueue::Match
DdpUntaggedQueue::Check(uint32_t msn, uint32_t mo, uint32_t payloadLength) const
{
    using Code = iwarp::DdpUntaggedCode;
    Match m;
    // MSNs are serial numbers (DDP-026 wraps at 2^32): compare by distance from base.
    const uint32_t ahead = msn - m_base;
    if (ahead >= 0x80000000u)
    {
        m.code = Code::MsnRange; // below the range: already delivered or stale (U5, A4)
        return m;
    }
    const std::size_t posted = GetPostedCount();
    if (ahead >= posted)
    {
        // U2 when the receiver is merely short of buffers; U5 when implausibly far ahead.
        m.code = (ahead - posted < m_lookahead) ? Code::MsnNoBuffer : Code::MsnRange;
        return m;
    }
    m.buffer = &m_buffers[m_head + ahead];
    if (payloadLength == 0)
    {
        // A6 skips U3 and U4 for a zero-length segment: it places nothing. But its MO still
        // sets the message length (DDP-046), so an MO past the buffer's end would deliver a
        // message longer than its buffer: its legal MOs are 0 .. buffer length (U3, A5).
        if (uint64_t(mo) > m.buffer->window.length)
        {
            m.code = Code::InvalidMo;
            return m;
        }
    }
    else
    {
        const uint64_t bufLen = m.buffer->window.length;
        if (mo >= bufLen)
        {
            m.code = Code::InvalidMo; // U3 (A5)
            return m;
        }
        if (uint64_t(mo) + payloadLength > bufLen)
        {
            m.code = Code::MsgTooLong; // U4 (A5, RDMAP-041)
            return m;
        }
    }
    m.ok = true;
    return m;
}

const DdpUntaggedBuffer*
DdpUntaggedQueue::Find(uint32_t msn) const
{
    const uint32_t ahead = msn - m_base;
    return ahead < GetPostedCount() ? &m_buffers[m_head + ahead] : nullptr;
}

DdpUntaggedBuffer
DdpUntaggedQueue::ConsumeFront()
{
    NS_ABORT_MSG_IF(GetPostedCount() == 0, "no untagged buffer to consume");
    DdpUntaggedBuffer b = std::move(m_buffers[m_head]);
    m_buffers[m_head] = DdpUntaggedBuffer{}; // its ByteBuffer goes with the caller, not with the queue
    ++m_head;
    if (m_head == m_buffers.size())
    {
        m_buffers.clear(); // keeps the capacity for the next posts
        m_head = 0;
    }
    ++m_base;
    return b;
}

std::vector<DdpUntaggedBuffer>
DdpUntaggedQueue::TakeAll()
{
    std::vector<DdpUntaggedBuffer> all(m_buffers.begin() + static_cast<std::ptrdiff_t>(m_head), m_buffers.end());
    m_buffers = {}; // a flushed queue gives its memory back
    m_head = 0;
    return all;
}

} // namespace ns3
