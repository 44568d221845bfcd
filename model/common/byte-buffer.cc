#include "common/byte-buffer.h"

#include "ns3/abort.h"

#include <cstring>

namespace ns3
{

ByteBuffer::ByteBuffer(uint64_t size, bool real)
    : m_size(size),
      m_real(real)
{
    if (real)
    {
        m_bytes.assign(size, 0);
    }
}

Ptr<ByteBuffer>
ByteBuffer::CreateReal(uint64_t size)
{
    return Ptr<ByteBuffer>(new ByteBuffer(size, true), false);
}

Ptr<ByteBuffer>
ByteBuffer::CreateVirtual(uint64_t size)
{
    return Ptr<ByteBuffer>(new ByteBuffer(size, false), false);
}

void
ByteBuffer::CheckRange(uint64_t offset, uint64_t len) const
{
    NS_ABORT_MSG_IF(offset > m_size || len > m_size - offset,
                    "ByteBuffer access [" << offset << ", +" << len << ") outside a buffer of "
                                          << m_size << " octets");
}

void
ByteBuffer::Write(uint64_t offset, Ptr<const Packet> payload)
{
    Write(offset, payload, 0, payload->GetSize());
}

void
ByteBuffer::Write(uint64_t offset, Ptr<const Packet> packet, uint32_t from, uint32_t len)
{
    NS_ABORT_MSG_IF(from > packet->GetSize() || len > packet->GetSize() - from,
                    "octets [" << from << ", +" << len << ") of a packet of " << packet->GetSize());
    CheckRange(offset, len);
    if (m_real && len > 0)
    {
        Ptr<const Packet> part = packet;
        if (from != 0 || len != packet->GetSize())
        {
            part = packet->CreateFragment(from, len);
        }
        part->CopyData(m_bytes.data() + offset, len);
    }
    m_bytesWritten += len;
}

void
ByteBuffer::Write(uint64_t offset, const uint8_t* data, uint64_t len)
{
    CheckRange(offset, len);
    if (m_real && len > 0)
    {
        std::memcpy(m_bytes.data() + offset, data, len);
    }
    m_bytesWritten += len;
}

Ptr<Packet>
ByteBuffer::Read(uint64_t offset, uint32_t len) const
{
    CheckRange(offset, len);
    if (m_real)
    {
        return Create<Packet>(m_bytes.data() + offset, len);
    }
    return Create<Packet>(len);
}

} // namespace ns3
