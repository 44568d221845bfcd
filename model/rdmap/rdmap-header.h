/*
 * RDMAP wire formats (RFC 5040 §4, doc/conformance.md §1.5-§1.8): the 28-octet RDMA Read Request
 * header and the Terminate header. The Control Field octet that rides in DDP's RsvdULP
 * (RdmapControl) is in common/iwarp-constants.h, beside the opcodes it encodes.
 */
/**
 * \file
 * \ingroup iwarp-rdmap
 */
#ifndef IWARP_RDMAP_HEADER_H
#define IWARP_RDMAP_HEADER_H

#include "common/iwarp-constants.h"

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/** RDMA Read Request header, 28 octets (RDMAP-014). */
class RdmapReadRequestHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** Parse exactly kReadReqHdrLen octets; false if `len` is shorter. */
    bool Parse(const uint8_t* data, size_t len);
    std::vector<uint8_t> ToBytes() const;

    uint32_t sinkStag{0};
    uint64_t sinkTo{0};
    uint32_t readSize{0}; ///< RDMARDSZ
    uint32_t srcStag{0};
    uint64_t srcTo{0};
};

/**
 * Terminate header (RFC 5040 §4.8). Sent as A12 recommends: octets 0-5 always, then the
 * Terminated DDP header if D=1 and the Terminated RDMA header if R=1.
 */
class RdmapTerminateHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** Reads a header whose length is implied by its M/D/R bits (see Parse for untrusted input). */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * Parse untrusted octets (A12: by the D/R bits and the message length; a bare 4-octet
     * header is accepted). Returns false when the bits promise more octets than `len`.
     */
    bool Parse(const uint8_t* data, size_t len);
    std::vector<uint8_t> ToBytes() const;

    uint32_t GetControlWord() const;
    iwarp::ErrorCause GetCause() const { return cause; }

    iwarp::ErrorCause cause;
    bool m{false};
    bool d{false};
    bool r{false};
    uint16_t ddpSegLen{0};
    std::vector<uint8_t> ddpHeader;  ///< 14 or 18 octets when d
    std::vector<uint8_t> rdmaHeader; ///< 28 octets when r
};

} // namespace ns3

#endif // IWARP_RDMAP_HEADER_H
