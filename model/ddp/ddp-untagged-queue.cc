#include "ddp/ddp-untagged-queue.h"

#include "ns3/abort.h"

namespace ns3
{

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
    if (ahead >= m_buffers.size())
    {
        // U2 when the receiver is merely short of buffers; U5 when implausibly far ahead.
        m.code = (ahead - m_buffers.size() < m_lookahead) ? Code::MsnNoBuffer : Code::MsnRange;
        return m;
    }
    m.buffer = &m_buffers[ahead];
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
    return ahead < m_buffers.size() ? &m_buffers[ahead] : nullptr;
}

DdpUntaggedBuffer
DdpUntaggedQueue::ConsumeFront()
{
    NS_ABORT_MSG_IF(m_buffers.empty(), "no untagged buffer to consume");
    DdpUntaggedBuffer b = m_buffers.front();
    m_buffers.pop_front();
    ++m_base;
    return b;
}

std::vector<DdpUntaggedBuffer>
DdpUntaggedQueue::TakeAll()
{
    std::vector<DdpUntaggedBuffer> all(m_buffers.begin(), m_buffers.end());
    m_buffers.clear();
    return all;
}

} // namespace ns3
