/*
 * A few literal octets put in front of (OctetsHeader) or behind (OctetsTrailer) a packet without touching the
 * rest of it, so that a virtual payload in between stays ns-3's zero area (doc/architecture.md "Payload
 * modes"): MPA frames a ULPDU of virtual payload this way, and RoCEv2 puts its headers and ICRC around one.
 * Reading them back (Deserialize) only skips the octets.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_OCTETS_HEADER_H
#define IWARP_OCTETS_HEADER_H

#include "ns3/header.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

class OctetsHeader : public Header
{
  public:
    static constexpr uint32_t kMaxLen = 64;

    /** `len` octets from `data`; aborts above kMaxLen. */
    OctetsHeader(const uint8_t* data = nullptr, uint32_t len = 0);
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return m_len; }
    void Serialize(Buffer::Iterator i) const override { i.Write(m_data, m_len); }
    uint32_t Deserialize(Buffer::Iterator) override { return m_len; }
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_data[kMaxLen];
    uint32_t m_len;
};

class OctetsTrailer : public Trailer
{
  public:
    static constexpr uint32_t kMaxLen = 8;

    /** `len` octets from `data`; aborts above kMaxLen. */
    OctetsTrailer(const uint8_t* data = nullptr, uint32_t len = 0);
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return m_len; }
    void Serialize(Buffer::Iterator i) const override
    {
        i.Prev(m_len);
        i.Write(m_data, m_len);
    }
    uint32_t Deserialize(Buffer::Iterator) override { return m_len; }
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_data[kMaxLen];
    uint32_t m_len;
};

} // namespace ns3

#endif // IWARP_OCTETS_HEADER_H
