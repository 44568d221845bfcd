/*
 * ABORT (6) and ERROR (9) chunks and their error causes, RFC 9260 §3.3.7, §3.3.10.
 *
 * Both carry zero or more error causes (Cause Code 16, Cause Length 16, value, padded); ABORT also has the
 * T bit (0x01: the sender had no TCB and reflected the peer's verification tag). One class with a type
 * argument, because nothing else differs.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_ERROR_CHUNK_H
#define IWARP_SCTP_ERROR_CHUNK_H

#include "sctp/sctp-chunk.h"

namespace ns3
{

/** Error cause codes (RFC 9260 §3.3.10). */
enum class SctpCauseCode : uint16_t
{
    InvalidStreamIdentifier = 1,
    MissingMandatoryParameter = 2,
    StaleCookie = 3,
    OutOfResource = 4,
    UnresolvableAddress = 5,
    UnrecognizedChunkType = 6,
    InvalidMandatoryParameter = 7,
    UnrecognizedParameters = 8,
    NoUserData = 9,
    CookieWhileShuttingDown = 10,
    RestartWithNewAddresses = 11,
    UserInitiatedAbort = 12,
    ProtocolViolation = 13,
};

class SctpErrorChunk : public SctpChunk
{
  public:
    static constexpr uint8_t kFlagT = 0x01;

    /** `type` is SctpChunkType::Abort or SctpChunkType::Error. */
    explicit SctpErrorChunk(SctpChunkType type = SctpChunkType::Error);
    SCTP_CHUNK_BOILERPLATE(SctpErrorChunk)
    void Print(std::ostream& os) const override;

    bool IsAbort() const { return m_type == uint8_t(SctpChunkType::Abort); }
    void SetTBit(bool t) { m_flags = t ? (m_flags | kFlagT) : (m_flags & ~kFlagT); }
    bool GetTBit() const { return (m_flags & kFlagT) != 0; }

    void AddCause(SctpCauseCode code, std::vector<uint8_t> value);
    const std::vector<SctpTlv>& GetCauses() const { return m_causes; }
    bool HasCause(SctpCauseCode code) const;

    /** Convenience: Unrecognized Chunk Type cause carrying the offending chunk (header and value). */
    void AddUnrecognizedChunk(const std::vector<uint8_t>& chunkBytes);
    /** Stale Cookie cause: how long past its lifetime the cookie was, in microseconds. */
    void AddStaleCookie(uint32_t stalenessUs);

  protected:
    uint32_t GetValueSize() const override;
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    std::vector<SctpTlv> m_causes;
};

} // namespace ns3

#endif // IWARP_SCTP_ERROR_CHUNK_H
