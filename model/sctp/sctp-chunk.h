/*
 * SCTP chunks (RFC 9260 §3.2, §3.3), one ns3::Header class per chunk type.
 *
 *   | Chunk Type (8) | Chunk Flags (8) | Chunk Length (16) | Chunk Value ... | padding to 4 octets |
 *
 * SctpChunk owns the 4-octet chunk header, the padding and the length field (which counts header and value,
 * not the padding); a subclass only says how its value is laid out. Decoding goes through DecodeFrom() on a
 * bounds-checked array, because every length inside a chunk comes from the peer. This file has the chunks
 * with a fixed or opaque value; INIT/INIT ACK are in sctp-init-chunk.h, ABORT/ERROR in sctp-error-chunk.h.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_CHUNK_H
#define IWARP_SCTP_CHUNK_H

#include "sctp/sctp-wire.h"

#include "ns3/header.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

namespace ns3
{

/** Chunk type values (RFC 9260 §3.2). */
enum class SctpChunkType : uint8_t
{
    Data = 0,
    Init = 1,
    InitAck = 2,
    Sack = 3,
    Heartbeat = 4,
    HeartbeatAck = 5,
    Abort = 6,
    Shutdown = 7,
    ShutdownAck = 8,
    Error = 9,
    CookieEcho = 10,
    CookieAck = 11,
    ShutdownComplete = 14,
};

/** What to do with a chunk of unknown type: its two high bits (RFC 9260 §3.2). */
struct SctpUnknownAction
{
    bool skip;   ///< true: skip it and go on with the packet; false: discard the rest of the packet
    bool report; ///< true: report it in an ERROR chunk (cause Unrecognized Chunk Type)
};

SctpUnknownAction SctpUnknownChunkAction(uint8_t type);

/** A type-length-value item: INIT parameters, error causes, Heartbeat Info all share this shape. */
struct SctpTlv
{
    uint16_t type{0};
    std::vector<uint8_t> value;

    uint32_t Length() const { return uint32_t(4 + value.size()); }
    uint32_t PaddedLength() const { return Length() + sctp::PadLen(Length()); }
    /** Writes the TLV, followed by its padding if `pad`. */
    void Write(Buffer::Iterator& i, bool pad) const;
    /** Octets of a list of TLVs inside a chunk value: all padded except the last (RFC 9260 §3.2). */
    static uint32_t ListSize(const std::vector<SctpTlv>& list);
    /** Writes a list so that it takes exactly ListSize() octets; the chunk adds the final padding. */
    static void WriteList(Buffer::Iterator& i, const std::vector<SctpTlv>& list);
    /** Reads TLVs back to back until `r` is empty; false if a length is < 4 or runs past the end.
     *  The padding of the last item may be missing (RFC 9260 says the sender pads, but not the last one). */
    static bool ReadAll(sctp::WireReader& r, std::vector<SctpTlv>* out);
};

/** Base of all chunks: header, length and padding; the value is the subclass's business. */
class SctpChunk : public Header
{
  public:
    explicit SctpChunk(uint8_t type = 0, uint8_t flags = 0);
    static TypeId GetTypeId();

    /** Length with padding, as it occupies the packet. */
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** Reads one chunk (header, value, padding if present); returns 0 and keeps *this if it is malformed. */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /** Decodes one chunk whose header says `len` octets (no padding) at `data`. False if malformed. */
    bool DecodeFrom(const uint8_t* data, size_t len);

    uint8_t GetType() const { return m_type; }
    uint8_t GetFlags() const { return m_flags; }
    void SetFlags(uint8_t f) { m_flags = f; }
    /** The Chunk Length field: 4 + value length, no padding. */
    uint16_t GetLength() const { return uint16_t(4 + GetValueSize()); }

    /** A copy of the right dynamic type (used when a chunk is queued for retransmission). */
    virtual std::shared_ptr<SctpChunk> Clone() const = 0;

  protected:
    virtual uint32_t GetValueSize() const = 0;
    virtual void SerializeValue(Buffer::Iterator& i) const = 0;
    /** `flags` is the received flags octet (already stored in m_flags). */
    virtual bool DeserializeValue(sctp::WireReader& r) = 0;

    uint8_t m_type;
    uint8_t m_flags;
};

/** Defines GetTypeId/GetInstanceTypeId/Clone for a chunk class (the same three lines for every chunk). */
#define SCTP_CHUNK_BOILERPLATE(Class)                                                                        \
    static TypeId GetTypeId();                                                                               \
    TypeId GetInstanceTypeId() const override                                                                \
    {                                                                                                        \
        return GetTypeId();                                                                                  \
    }                                                                                                        \
    std::shared_ptr<SctpChunk> Clone() const override                                                        \
    {                                                                                                        \
        return std::make_shared<Class>(*this);                                                               \
    }

/** DATA (type 0): one fragment of a user message. Flags I=0x08 U=0x04 B=0x02 E=0x01. */
class SctpDataChunk : public SctpChunk
{
  public:
    static constexpr uint8_t kFlagE = 0x01;
    static constexpr uint8_t kFlagB = 0x02;
    static constexpr uint8_t kFlagU = 0x04;
    static constexpr uint8_t kFlagI = 0x08;
    /** TSN + stream id + SSN + PPID. */
    static constexpr uint32_t kFixedValueLen = 12;

    SctpDataChunk();
    SCTP_CHUNK_BOILERPLATE(SctpDataChunk)
    void Print(std::ostream& os) const override;

    void SetTsn(uint32_t v) { m_tsn = v; }
    uint32_t GetTsn() const { return m_tsn; }
    void SetStreamId(uint16_t v) { m_streamId = v; }
    uint16_t GetStreamId() const { return m_streamId; }
    void SetSsn(uint16_t v) { m_ssn = v; }
    uint16_t GetSsn() const { return m_ssn; }
    void SetPpid(uint32_t v) { m_ppid = v; }
    uint32_t GetPpid() const { return m_ppid; }
    void SetUserData(std::vector<uint8_t> d) { m_data = std::move(d); }
    const std::vector<uint8_t>& GetUserData() const { return m_data; }

    void SetUnordered(bool b) { SetBit(kFlagU, b); }
    bool IsUnordered() const { return (m_flags & kFlagU) != 0; }
    void SetBeginning(bool b) { SetBit(kFlagB, b); }
    bool IsBeginning() const { return (m_flags & kFlagB) != 0; }
    void SetEnding(bool b) { SetBit(kFlagE, b); }
    bool IsEnding() const { return (m_flags & kFlagE) != 0; }
    void SetImmediate(bool b) { SetBit(kFlagI, b); }
    bool IsImmediate() const { return (m_flags & kFlagI) != 0; }

  protected:
    uint32_t GetValueSize() const override;
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    void SetBit(uint8_t bit, bool on) { m_flags = on ? (m_flags | bit) : (m_flags & ~bit); }

    uint32_t m_tsn{0};
    uint16_t m_streamId{0};
    uint16_t m_ssn{0};
    uint32_t m_ppid{0};
    std::vector<uint8_t> m_data;
};

/** SACK (type 3): cumulative TSN ack, a_rwnd, gap ack blocks (offsets from the cumulative ack), dup TSNs. */
class SctpSackChunk : public SctpChunk
{
  public:
    struct GapBlock
    {
        uint16_t start; ///< offset from Cumulative TSN Ack of the first TSN received in the block
        uint16_t end;   ///< offset of the last one
    };

    SctpSackChunk();
    SCTP_CHUNK_BOILERPLATE(SctpSackChunk)
    void Print(std::ostream& os) const override;

    void SetCumTsnAck(uint32_t v) { m_cumTsnAck = v; }
    uint32_t GetCumTsnAck() const { return m_cumTsnAck; }
    void SetArwnd(uint32_t v) { m_arwnd = v; }
    uint32_t GetArwnd() const { return m_arwnd; }
    void AddGapBlock(uint16_t start, uint16_t end) { m_gaps.push_back({start, end}); }
    const std::vector<GapBlock>& GetGapBlocks() const { return m_gaps; }
    void AddDupTsn(uint32_t tsn) { m_dups.push_back(tsn); }
    const std::vector<uint32_t>& GetDupTsns() const { return m_dups; }

  protected:
    uint32_t GetValueSize() const override;
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    uint32_t m_cumTsnAck{0};
    uint32_t m_arwnd{0};
    std::vector<GapBlock> m_gaps;
    std::vector<uint32_t> m_dups;
};

/** HEARTBEAT (4) and HEARTBEAT ACK (5): one Heartbeat Info parameter (type 1) the receiver echoes untouched. */
class SctpHeartbeatChunk : public SctpChunk
{
  public:
    static constexpr uint16_t kHeartbeatInfoType = 1;

    explicit SctpHeartbeatChunk(bool ack = false);
    SCTP_CHUNK_BOILERPLATE(SctpHeartbeatChunk)
    void Print(std::ostream& os) const override;

    bool IsAck() const { return m_type == uint8_t(SctpChunkType::HeartbeatAck); }
    void SetInfo(std::vector<uint8_t> info) { m_info = std::move(info); }
    const std::vector<uint8_t>& GetInfo() const { return m_info; }

  protected:
    uint32_t GetValueSize() const override;
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    std::vector<uint8_t> m_info;
};

/** SHUTDOWN (7): the sender's Cumulative TSN Ack. */
class SctpShutdownChunk : public SctpChunk
{
  public:
    SctpShutdownChunk();
    SCTP_CHUNK_BOILERPLATE(SctpShutdownChunk)
    void Print(std::ostream& os) const override;
    void SetCumTsnAck(uint32_t v) { m_cumTsnAck = v; }
    uint32_t GetCumTsnAck() const { return m_cumTsnAck; }

  protected:
    uint32_t GetValueSize() const override { return 4; }
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    uint32_t m_cumTsnAck{0};
};

/** Chunks without a value: SHUTDOWN ACK (8), COOKIE ACK (11), SHUTDOWN COMPLETE (14, T bit 0x01). */
class SctpEmptyChunk : public SctpChunk
{
  public:
    static constexpr uint8_t kFlagT = 0x01;

    explicit SctpEmptyChunk(SctpChunkType type = SctpChunkType::CookieAck);
    SCTP_CHUNK_BOILERPLATE(SctpEmptyChunk)
    void Print(std::ostream& os) const override;

  protected:
    uint32_t GetValueSize() const override { return 0; }
    void SerializeValue(Buffer::Iterator&) const override {}
    /** Extra octets in a chunk that has no value are ignored (a future extension may add some). */
    bool DeserializeValue(sctp::WireReader&) override { return true; }
};

/** COOKIE ECHO (10): the State Cookie as received in the INIT ACK, opaque to the sender. */
class SctpCookieEchoChunk : public SctpChunk
{
  public:
    SctpCookieEchoChunk();
    SCTP_CHUNK_BOILERPLATE(SctpCookieEchoChunk)
    void Print(std::ostream& os) const override;
    void SetCookie(std::vector<uint8_t> c) { m_cookie = std::move(c); }
    const std::vector<uint8_t>& GetCookie() const { return m_cookie; }

  protected:
    uint32_t GetValueSize() const override { return uint32_t(m_cookie.size()); }
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    std::vector<uint8_t> m_cookie;
};

/** A chunk of a type this model does not implement, kept raw so it can be reported or re-sent in tests. */
class SctpUnknownChunk : public SctpChunk
{
  public:
    explicit SctpUnknownChunk(uint8_t type = 0xFF, uint8_t flags = 0);
    SCTP_CHUNK_BOILERPLATE(SctpUnknownChunk)
    void Print(std::ostream& os) const override;
    void SetValue(std::vector<uint8_t> v) { m_value = std::move(v); }
    const std::vector<uint8_t>& GetValue() const { return m_value; }

  protected:
    uint32_t GetValueSize() const override { return uint32_t(m_value.size()); }
    void SerializeValue(Buffer::Iterator& i) const override;
    bool DeserializeValue(sctp::WireReader& r) override;

  private:
    std::vector<uint8_t> m_value;
};

/** An empty chunk of the class that implements `type` (SctpUnknownChunk for types the model does not know). */
std::shared_ptr<SctpChunk> SctpMakeChunk(uint8_t type, uint8_t flags);

} // namespace ns3

#endif // IWARP_SCTP_CHUNK_H
