/*
 * RoCEv2's InfiniBand transport headers (InfiniBand Architecture Specification, Vol. 1, §9.2-9.3; Annex A17
 * for RoCEv2: the headers ride in UDP to port 4791 over IP), one ns3::Header per wire format, all big-endian:
 *
 *   BTH, Base Transport Header, 12 octets: OpCode | SE M PadCnt(2) TVer(4) | P_Key(16) |
 *        Resv8a (RoCEv2: FECN, BECN and six reserved bits) | DestQP(24) | A Resv7 | PSN(24)
 *   RETH, RDMA Extended Transport Header, 16 octets: VA(64) | R_Key(32) | DMA Length(32)
 *   AETH, ACK Extended Transport Header, 4 octets: Syndrome(8) | MSN(24)
 *   IETH, Invalidate Extended Transport Header, 4 octets: the R_Key the responder invalidates
 *   DETH, Datagram Extended Transport Header, 8 octets: Q_Key(32) | Reserved(8) | SrcQP(24)
 *
 * A packet ends with the 4-octet ICRC (roce-icrc.h). The opcodes are those of the Reliable Connection
 * service (§9.2.1 table 38's RC block, atomics left out, Send with Invalidate in), the Unreliable Datagram
 * service's SEND_ONLY (what carries the connection manager's MADs to QP1, roce-cm-mad.h) and RoCEv2's
 * Congestion Notification Packet (Annex A17), whose BTH is followed by 16 reserved octets.
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_ROCE_HEADERS_H
#define IWARP_ROCE_HEADERS_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace roce
{
/** UDP destination port of RoCEv2 (IANA; Annex A17.2). */
inline constexpr uint16_t kUdpPort = 4791;
inline constexpr uint32_t kBthLen = 12;
inline constexpr uint32_t kRethLen = 16;
inline constexpr uint32_t kAethLen = 4;
inline constexpr uint32_t kIcrcLen = 4;
inline constexpr uint32_t kImmDtLen = 4;
inline constexpr uint32_t kCnpPaddingLen = 16;
inline constexpr uint32_t kIethLen = 4;
inline constexpr uint32_t kDethLen = 8;
/** QP1, the General Services Interface (chapter 13): where the connection manager's MADs go. */
inline constexpr uint32_t kGsiQp = 1;
/** The well-known Q_Key of QP1: the DETH of a MAD to it carries this one. */
inline constexpr uint32_t kGsiQKey = 0x80010000;
/** The default partition key: full membership of the default partition (§10.9.1.2). */
inline constexpr uint16_t kDefaultPKey = 0xFFFF;
/** PSNs and QP numbers are 24 bits. */
inline constexpr uint32_t kPsnMask = 0x00FFFFFF;
} // namespace roce

/** BTH opcodes of the Reliable Connection service, the Unreliable Datagram SEND_ONLY, and RoCEv2's CNP. */
enum class IbOpcode : uint8_t
{
    SendFirst = 0x00,
    SendMiddle = 0x01,
    SendLast = 0x02,
    SendLastImm = 0x03,
    SendOnly = 0x04,
    SendOnlyImm = 0x05,
    WriteFirst = 0x06,
    WriteMiddle = 0x07,
    WriteLast = 0x08,
    WriteLastImm = 0x09,
    WriteOnly = 0x0A,
    WriteOnlyImm = 0x0B,
    ReadRequest = 0x0C,
    ReadResponseFirst = 0x0D,
    ReadResponseMiddle = 0x0E,
    ReadResponseLast = 0x0F,
    ReadResponseOnly = 0x10,
    Acknowledge = 0x11,
    SendLastInv = 0x16, ///< SEND_LAST_WITH_INVALIDATE: IETH, payload
    SendOnlyInv = 0x17, ///< SEND_ONLY_WITH_INVALIDATE: IETH, payload
    UdSendOnly = 0x64,  ///< Unreliable Datagram SEND_ONLY: DETH, payload (the connection manager's MADs)
    Cnp = 0x81, ///< Congestion Notification Packet (RoCEv2, Annex A17.9.3)
};

/** What follows the BTH of an opcode, in this order (§9.2, table 38; Annex A17 for the CNP). */
struct IbOpcodeLayout
{
    bool known{true};   ///< false: an opcode this model does not use (the rest then says nothing)
    bool reth{false};   ///< first (or only) packet of a Write, and a Read Request
    bool aeth{false};   ///< an Acknowledge and the first, last and only packets of a Read Response
    bool immDt{false};  ///< 4 octets of immediate data: the last (or only) packet of a Send or Write with it
    uint32_t reserved{0}; ///< octets of reserved padding: a CNP's 16
    bool payload{false};
    bool ieth{false}; ///< the R_Key to invalidate: the last (or only) packet of a Send with Invalidate
    bool deth{false}; ///< Q_Key and source QP: every Unreliable Datagram packet
};
IbOpcodeLayout LayoutOf(IbOpcode op);
/** "SEND_FIRST", ..., "UD_SEND_ONLY", "CNP"; "UNKNOWN(0x..)" for an opcode this model does not use. */
std::string ToString(IbOpcode op);

class RoceBth : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    IbOpcode GetOpcode() const { return IbOpcode(m_opcode); }
    void SetOpcode(IbOpcode op) { m_opcode = uint8_t(op); }
    bool GetSolicitedEvent() const { return m_se; }
    void SetSolicitedEvent(bool se) { m_se = se; }
    bool GetMigReq() const { return m_migReq; }
    void SetMigReq(bool m) { m_migReq = m; }
    /** Octets of pad after the payload, to a multiple of four (0-3). */
    uint8_t GetPadCount() const { return m_padCount; }
    void SetPadCount(uint8_t pad);
    uint8_t GetTransportVersion() const { return m_tver; }
    uint16_t GetPKey() const { return m_pkey; }
    void SetPKey(uint16_t pkey) { m_pkey = pkey; }
    /**
     * FECN and BECN, the top bits of Resv8a (InfiniBand's congestion control annex, A10; RoCEv2 sets BECN in
     * a CNP). The ICRC does not cover the octet, so a switch may set them.
     */
    bool GetFecn() const { return m_fecn; }
    void SetFecn(bool f) { m_fecn = f; }
    bool GetBecn() const { return m_becn; }
    void SetBecn(bool b) { m_becn = b; }
    uint32_t GetDestQp() const { return m_destQp; }
    void SetDestQp(uint32_t qp);
    bool GetAckRequest() const { return m_ackReq; }
    void SetAckRequest(bool a) { m_ackReq = a; }
    uint32_t GetPsn() const { return m_psn; }
    void SetPsn(uint32_t psn);

  private:
    uint8_t m_opcode{0};
    bool m_se{false};
    bool m_migReq{false}; ///< M as Linux's rdma_rxe and a ConnectX CNP send it; the model has no path migration
    uint8_t m_padCount{0};
    uint8_t m_tver{0};
    uint16_t m_pkey{roce::kDefaultPKey};
    bool m_fecn{false};
    bool m_becn{false};
    uint8_t m_resv6{0}; ///< kept as received
    uint32_t m_destQp{0};
    bool m_ackReq{false};
    uint8_t m_resv7{0}; ///< kept as received
    uint32_t m_psn{0};
};

class RoceReth : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint64_t GetVirtualAddress() const { return m_va; }
    void SetVirtualAddress(uint64_t va) { m_va = va; }
    uint32_t GetRKey() const { return m_rkey; }
    void SetRKey(uint32_t rkey) { m_rkey = rkey; }
    uint32_t GetDmaLength() const { return m_dmaLength; }
    void SetDmaLength(uint32_t len) { m_dmaLength = len; }

  private:
    uint64_t m_va{0};
    uint32_t m_rkey{0};
    uint32_t m_dmaLength{0};
};

/** The NAK codes of an AETH (§9.7.5.2.8, table 44). */
enum class IbNakCode : uint8_t
{
    PsnSequenceError = 0,
    InvalidRequest = 1,
    RemoteAccessError = 2,
    RemoteOperationalError = 3,
    InvalidRdRequest = 4,
};

class RoceAeth : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** An ACK advertising `credits` (the 5-bit credit code; 31: the responder gives no credit count). */
    static RoceAeth Ack(uint8_t credits, uint32_t msn);
    static RoceAeth Nak(IbNakCode code, uint32_t msn);
    /** Receiver Not Ready: retry after the 5-bit `timer` code's time (§9.7.5.2.8, table 45). */
    static RoceAeth RnrNak(uint8_t timer, uint32_t msn);

    uint8_t GetSyndrome() const { return m_syndrome; }
    bool IsAck() const { return (m_syndrome & 0x60) == 0x00; }
    bool IsRnrNak() const { return (m_syndrome & 0x60) == 0x20; }
    bool IsNak() const { return (m_syndrome & 0x60) == 0x60; }
    /** The low five bits: credit count (ACK), timer (RNR NAK) or NAK code (NAK). */
    uint8_t GetValue() const { return m_syndrome & 0x1F; }
    uint32_t GetMsn() const { return m_msn; }

  private:
    uint8_t m_syndrome{0};
    uint32_t m_msn{0};
};

/** The IETH of a Send with Invalidate: the R_Key the responder invalidates when the message completes. */
class RoceIeth : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint32_t GetRKey() const { return m_rkey; }
    void SetRKey(uint32_t rkey) { m_rkey = rkey; }

  private:
    uint32_t m_rkey{0};
};

/** The DETH of an Unreliable Datagram packet: the Q_Key the receiving QP checks and the sender's QP. */
class RoceDeth : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint32_t GetQKey() const { return m_qkey; }
    void SetQKey(uint32_t qkey) { m_qkey = qkey; }
    uint32_t GetSrcQp() const { return m_srcQp; }
    void SetSrcQp(uint32_t qp);

  private:
    uint32_t m_qkey{0};
    uint8_t m_reserved{0}; ///< kept as received
    uint32_t m_srcQp{0};
};

} // namespace ns3

#endif // IWARP_ROCE_HEADERS_H
