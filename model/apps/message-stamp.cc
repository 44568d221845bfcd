#include "apps/message-stamp.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{
namespace
{
void
PutBe(uint8_t* p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; --i, v >>= 8)
    {
        p[i] = uint8_t(v);
    }
}

uint64_t
GetBe(const uint8_t* p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}
} // namespace

MessageStamp
StampedStreamReader::Stamp() const
{
    MessageStamp s;
    s.number = uint32_t(GetBe(m_stamp, 4));
    s.size = m_size;
    s.posted = NanoSeconds(int64_t(GetBe(m_stamp + 8, 8)));
    return s;
}

Ptr<Packet>
MessageStamp::MakeMessage(uint32_t number, uint32_t size, Time posted)
{
    NS_ABORT_MSG_IF(size < kOctets, "a stamped message has at least the stamp's " << kOctets << " octets");
    uint8_t stamp[kOctets];
    PutBe(stamp, number, 4);
    PutBe(stamp + 4, size, 4);
    PutBe(stamp + 8, uint64_t(posted.GetNanoSeconds()), 8);
    Ptr<Packet> msg = Create<Packet>(stamp, kOctets);
    msg->AddAtEnd(Create<Packet>(size - kOctets)); // zero octets: only the stamp is read
    return msg;
}

void
StampedStreamReader::Consume(Ptr<const Packet> chunk, const Seen& whole, const Seen& first)
{
    uint32_t pos = 0;
    const uint32_t len = chunk->GetSize();
    while (pos < len)
    {
        if (m_offset < MessageStamp::kOctets)
        {
            const uint32_t n = std::min<uint32_t>(MessageStamp::kOctets - uint32_t(m_offset), len - pos);
            chunk->CreateFragment(pos, n)->CopyData(m_stamp + m_offset, n);
            pos += n;
            m_offset += n;
            if (m_offset == MessageStamp::kOctets)
            {
                m_size = uint32_t(GetBe(m_stamp + 4, 4));
                NS_ABORT_MSG_IF(m_size < MessageStamp::kOctets, "corrupt message stamp: size " << m_size);
                if (first)
                {
                    first(Stamp());
                }
            }
        }
        else
        {
            const uint64_t n = std::min<uint64_t>(m_size - m_offset, len - pos);
            pos += uint32_t(n);
            m_offset += n;
        }
        if (m_offset >= MessageStamp::kOctets && m_offset == m_size)
        {
            const MessageStamp s = Stamp();
            m_offset = 0;
            m_size = 0;
            whole(s);
        }
    }
}

} // namespace ns3
