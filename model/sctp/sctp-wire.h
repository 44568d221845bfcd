/*
 * Small octet reader/writer for the SCTP wire formats (RFC 9260 §3).
 *
 * Why not Buffer::Iterator for reading: chunks and parameters come from an untrusted peer and carry their own
 * length fields; a bounds-checked reader over a plain array lets every decoder fail cleanly (ok() == false)
 * instead of asserting inside ns-3's Buffer when a length field lies.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_WIRE_H
#define IWARP_SCTP_WIRE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace sctp
{

/** Octets needed to pad `len` to a multiple of 4 (chunks, parameters and error causes are all padded). */
constexpr uint32_t
PadLen(uint32_t len)
{
    return (4 - (len & 3u)) & 3u;
}

/** Bounds-checked big-endian reader; after any read past the end ok() is false and reads return 0. */
class WireReader
{
  public:
    WireReader(const uint8_t* data, size_t len)
        : m_p(data),
          m_len(len)
    {
    }

    uint8_t U8()
    {
        if (!Need(1))
        {
            return 0;
        }
        return m_p[m_off++];
    }

    uint16_t U16()
    {
        if (!Need(2))
        {
            return 0;
        }
        uint16_t v = uint16_t((m_p[m_off] << 8) | m_p[m_off + 1]);
        m_off += 2;
        return v;
    }

    uint32_t U32()
    {
        if (!Need(4))
        {
            return 0;
        }
        uint32_t v = (uint32_t(m_p[m_off]) << 24) | (uint32_t(m_p[m_off + 1]) << 16) |
                     (uint32_t(m_p[m_off + 2]) << 8) | uint32_t(m_p[m_off + 3]);
        m_off += 4;
        return v;
    }

    std::vector<uint8_t> Bytes(size_t n)
    {
        if (!Need(n))
        {
            return {};
        }
        std::vector<uint8_t> v(m_p + m_off, m_p + m_off + n);
        m_off += n;
        return v;
    }

    void Skip(size_t n)
    {
        if (Need(n))
        {
            m_off += n;
        }
    }

    const uint8_t* Here() const { return m_p + m_off; }
    size_t Remaining() const { return m_ok ? m_len - m_off : 0; }
    size_t Offset() const { return m_off; }
    bool ok() const { return m_ok; }

  private:
    bool Need(size_t n)
    {
        if (!m_ok || m_len - m_off < n)
        {
            m_ok = false;
            return false;
        }
        return true;
    }

    const uint8_t* m_p;
    size_t m_len;
    size_t m_off{0};
    bool m_ok{true};
};

/** Big-endian appends to an octet vector (used where the size is not known up front). */
inline void
PutU16(std::vector<uint8_t>& v, uint16_t x)
{
    v.push_back(uint8_t(x >> 8));
    v.push_back(uint8_t(x));
}

inline void
PutU32(std::vector<uint8_t>& v, uint32_t x)
{
    PutU16(v, uint16_t(x >> 16));
    PutU16(v, uint16_t(x));
}

} // namespace sctp
} // namespace ns3

#endif // IWARP_SCTP_WIRE_H
