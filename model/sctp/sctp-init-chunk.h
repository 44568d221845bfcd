/*
 * INIT (1) and INIT ACK (2) chunks, RFC 9260 §3.3.2/§3.3.3, with RFC 5061's Adaptation Layer Indication.
 *
 *   | Initiate Tag (32) | a_rwnd (32) | Number of Outbound Streams (16) | Number of Inbound Streams (16) |
 *   | Initial TSN (32) | optional/variable-length parameters (TLV, padded) ... |
 *
 * One class for both: the layouts are the same and only the State Cookie (mandatory in INIT ACK) differs.
 * Parameters are kept as TLVs in wire order; typed setters/getters add or find them, so an unknown or
 * repeated parameter from the peer survives a decode/encode round trip untouched.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_INIT_CHUNK_H
#define IWARP_SCTP_INIT_CHUNK_H

#include "sctp/sctp-chunk.h"

#include "ns3/ipv4-address.h"

#include <optional>

namespace ns3
{

/** INIT/INIT ACK parameter types (RFC 9260 §3.3.2.1, RFC 5061 §4.2.6). */
enum class SctpParamType : uint16_t
{
    Ipv4Address = 5,
    Ipv6Address = 6,
    StateCookie = 7,
    UnrecognizedParameter = 8,
    CookiePreservative = 9,
    HostNameAddress = 11,
    SupportedAddressTypes = 12,
    SupportedExtensions = 0x8008,
    AdaptationLayerIndication = 0xC006,
};

/** RFC 5043 §6.1: the Adaptation Code Point for DDP. */
constexpr uint32_t kSctpAdaptationDdp = 0x00000001;

class SctpInitChunk : public SctpChunk
{
  public:
    /** Initiate Tag + a_rwnd + OS + MIS + Initial TSN. */
    static constexpr uint32_t kFixedValueLen = 16;

    explicit SctpInitChunk(bool ack = false);
    SCTP_CHUNK_BOILERPLATE(SctpInitChunk)
    void Print(std::ostream& os) const override;

    bool IsAck() const { return m_type == uint8_t(SctpChunkType::InitAck); }

    void SetInitiateTag(uint32_t v) { m_initiateTag = v; }
    uint32_t GetInitiateTag() const { return m_initiateTag; }
    void SetArwnd(uint32_t v) { m_arwnd = v; }
    uint32_t GetArwnd() const { return m_arwnd; }
    void SetOutboundStreams(uint16_t v) { m_outStreams = v; }
    uint16_t GetOutboundStreams() const { return m_outStreams; }
    void SetInboundStreams(uint16_t v) { m_inStreams = v; }
    uint16_t GetInboundStreams() const { return m_inStreams; }
    void SetInitialTsn(uint32_t v) { m_initialTsn = v; }
    uint32_t GetInitialTsn() const { return m_initialTsn; }

    // ---- parameters (each Add appends one TLV; each Get returns the first of its type) ----
    void AddParameter(SctpTlv p) { m_params.push_back(std::move(p)); }
    const std::vector<SctpTlv>& GetParameters() const { return m_params; }
    const SctpTlv* FindParameter(SctpParamType t) const;

    void AddIpv4Address(Ipv4Address a);
    std::vector<Ipv4Address> GetIpv4Addresses() const;
    /** INIT ACK only: the opaque cookie the peer echoes. */
    void SetStateCookie(const std::vector<uint8_t>& cookie);
    std::optional<std::vector<uint8_t>> GetStateCookie() const;
    /** Suggested cookie life-span increment in milliseconds. */
    void SetCookiePreservative(uint32_t ms);
    std::optional<uint32_t> GetCookiePreservative() const;
    /** Address types (5 = IPv4, 6 = IPv6, 11 = host name), 16 bits each. */
    void SetSupportedAddressTypes(const std::vector<uint16_t>& types);
    std::vector<uint16_t> GetSupportedAddressTypes() const;
    void SetAdaptationIndication(uint32_t code);
    std::optional<uint32_t> GetAdaptationIndication() const;
    /** INIT ACK: echo a parameter of the INIT the receiver did not recognise (type 8 wrapping it). */
    void AddUnrecognizedParameter(const SctpTlv& unknown);

    /** Parameters the model does not implement, judged by their two high bits (RFC 9260 §3.2.1):
     *  returns false if one says "stop processing"; *toReport gets those whose bit 0x4000 asks for a report. */
    bool CheckUnknownParameters(std::vector<SctpTlv>* toReport) const;

  protected:
    uint32_t GetValueSize() const override;
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    uint32_t m_initiateTag{0};
    uint32_t m_arwnd{0};
    uint16_t m_outStreams{0};
    uint16_t m_inStreams{0};
    uint32_t m_initialTsn{0};
    std::vector<SctpTlv> m_params;
};

} // namespace ns3

#endif // IWARP_SCTP_INIT_CHUNK_H
