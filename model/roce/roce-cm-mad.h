/*
 * The messages of InfiniBand's connection manager as RoCEv2 carries them (InfiniBand Architecture
 * Specification, Vol. 1, §12.6 for the messages, §13.4 for the MAD that holds them; Annex A17 for RoCEv2):
 * a 256-octet Management Datagram sent as an Unreliable Datagram SEND_ONLY (BTH | DETH with Q_Key
 * roce::kGsiQKey | MAD | ICRC) to QP1. This is how rdma_cm sets up a RoCE connection, so that a RoCEv2 queue
 * pair of the model connects with the messages, timers and private data a capture of real hosts shows.
 *
 * The MAD, big-endian (offsets from its first octet):
 *
 *   0  BaseVersion (1) | MgmtClass (0x07, Communication Management) | ClassVersion (2) | R + Method (0x03, Send)
 *   4  Status (0) | ClassSpecific (0)
 *   8  TransactionID (64)
 *   16 AttributeID: the message | Reserved (16)
 *   20 AttributeModifier (0)
 *   24 the message (232 octets), each field at the offset of §12.6's tables (offsets below from octet 24):
 *
 *   REQ  0 Local Communication ID | 4 reserved | 8 ServiceID | 16 Local CA GUID | 24 reserved | 28 Local Q_Key
 *        32 Local QPN(24) Responder Resources | 36 Local EECN(24) Initiator Depth
 *        40 Remote EECN(24) | 43 Remote CM Response Timeout(5) Transport Service Type(2) End-to-End Flow Control(1)
 *        44 Starting PSN(24) | 47 Local CM Response Timeout(5) Retry Count(3) | 48 P_Key
 *        50 Path MTU(4) RDC Exists(1) RNR Retry Count(3) | 51 Max CM Retries(4) SRQ(1) Extended Transport(3)
 *        primary path: 52 local port LID | 54 remote port LID | 56 local port GID | 72 remote port GID
 *        88 Flow Label(20) reserved(6) Packet Rate(6) | 92 Traffic Class | 93 Hop Limit
 *        94 SL(4) Subnet Local(1) reserved(3) | 95 Local ACK Timeout(5) reserved(3)
 *        96-139 the alternate path (the same 44 octets) | 140 private data (92)
 *   REP  0 Local Communication ID | 4 Remote Communication ID | 8 Local Q_Key | 12 Local QPN(24) reserved
 *        16 Local EE Context(24) reserved | 20 Starting PSN(24) reserved | 24 Responder Resources
 *        25 Initiator Depth | 26 Target ACK Delay(5) Failover Accepted(2) End-to-End Flow Control(1)
 *        27 RNR Retry Count(3) SRQ(1) reserved(4) | 28 Local CA GUID | 36 private data (196)
 *   REJ  0 Local Comm ID | 4 Remote Comm ID | 8 Message Rejected(2) reserved(6) | 9 Reject Info Length(7)
 *        reserved(1) | 10 Reason | 12 Additional Reject Information (72) | 84 private data (148)
 *   RTU, DREP  0 Local Comm ID | 4 Remote Comm ID | 8 private data (224)
 *   DREQ 0 Local Comm ID | 4 Remote Comm ID | 8 Remote QPN(24) reserved | 12 private data (220)
 *
 * RoceCmFields holds what the model's connector exchanges; the rest of the MAD is zero or fixed:
 *
 *   - the MAD header: BaseVersion 1, class 0x07, class version 2, method Send, status 0 (what every CM
 *     message is sent with; Deserialize keeps what it reads, IsCmSend() says whether it was that);
 *   - REQ: Transport Service Type 0 (Reliable Connection), P_Key 0xFFFF (roce::kDefaultPKey: the model has
 *     one partition), End-to-End Flow Control 0 (no receive credits advertised: AETH credit code 31), Remote
 *     and Local CM Response Timeout 20 (4.096 us * 2^20, about 4.3 s), Max CM Retries 15, no RDC, SRQ or
 *     extended transport. The primary path is a routed RoCEv2 path: both port LIDs 0xFFFF
 *     (the permissive LID, which Linux's CM writes when the hop limit is above 1), the GIDs the IPv4-mapped
 *     ::ffff:a.b.c.d of localIp and remoteIp, Hop Limit 64 (an IPv4 TTL), Subnet Local 0, flow label, packet
 *     rate, traffic class and SL 0. No alternate path (all 44 octets zero: an alternate local LID 0 says so).
 *     Local CA GUID, Q_Key (RC ignores it) and the EE context numbers are zero;
 *   - REP: Target ACK Delay, Failover Accepted, End-to-End Flow Control, SRQ, Q_Key, EE context and CA GUID 0;
 *   - REJ: Message Rejected 0 (the REQ: a REJ of this model answers a REQ), no Additional Reject Information.
 *
 * Deserialize reads every field of RoceCmFields back; the private data it gives is the message's whole room
 * (MaxPrivateData), what the sender wrote followed by zeros, as a CM hands it to its consumer: the MAD
 * carries no length. An attribute other than the six messages is kept as read, its 232 octets written back
 * unchanged. A RoceCmFields outside what the wire holds (private data longer than the room; a QPN or PSN
 * over 24 bits, an ACK timeout code over 5, a retry count over 3 or an MTU code over 4 bits) is refused with
 * std::invalid_argument, by the constructor and SetFields and again by Serialize: an application's private
 * data reaches it, and its caller can turn the refusal into an error return (rdma_connect's EINVAL).
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_ROCE_CM_MAD_H
#define IWARP_ROCE_CM_MAD_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace roce
{
/** A MAD is 256 octets: the 24-octet common header and the class's 232. */
inline constexpr uint32_t kMadLen = 256;
inline constexpr uint32_t kMadHeaderLen = 24;
inline constexpr uint32_t kCmBodyLen = kMadLen - kMadHeaderLen;
inline constexpr uint8_t kMadBaseVersion = 1;
/** Management class 0x07: Communication Management, class version 2. */
inline constexpr uint8_t kCmMgmtClass = 0x07;
inline constexpr uint8_t kCmClassVersion = 2;
/** Method Send: every CM message is one. */
inline constexpr uint8_t kMadMethodSend = 0x03;
/** REJ reason 28: the consumer (the listener's application, or no listener on the service) rejected. */
inline constexpr uint16_t kCmRejConsumer = 28;
} // namespace roce

/** The connection manager's messages, by their MAD AttributeID. */
enum class CmMessage : uint16_t
{
    Req = 0x0010,
    Rej = 0x0012,
    Rep = 0x0013,
    Rtu = 0x0014,
    Dreq = 0x0015,
    Drep = 0x0016,
};

/** "REQ", "REJ", ...; "UNKNOWN(0x....)" for another attribute. */
std::string ToString(CmMessage m);

/** What the model's connector exchanges; everything else on the wire is zero or a fixed value (above). */
struct RoceCmFields
{
    CmMessage type{CmMessage::Req};
    uint64_t transactionId{0};
    uint32_t localCommId{0};
    uint32_t remoteCommId{0};      ///< REP, RTU, REJ, DREQ, DREP
    uint64_t serviceId{0};         ///< REQ
    uint32_t localQpn{0};          ///< REQ, REP (24 bits); DREQ: the remote QPN field
    uint32_t startingPsn{0};       ///< REQ: the initiator's starting PSN; REP: the responder's (24 bits)
    uint8_t responderResources{0}; ///< REQ, REP (the IRD side)
    uint8_t initiatorDepth{0};     ///< REQ, REP (the ORD side)
    uint16_t rejectReason{0};      ///< REJ (roce::kCmRejConsumer, ...)
    uint8_t localAckTimeout{0};    ///< REQ: the 5-bit timeout code the initiator uses (4.096 us * 2^code)
    uint8_t retryCount{0};         ///< REQ (3 bits)
    uint8_t rnrRetryCount{0};      ///< REQ, REP (3 bits)
    uint32_t pathMtuCode{3};       ///< REQ: IB MTU enum (1=256, 2=512, 3=1024, 4=2048, 5=4096)
    Ipv4Address localIp;           ///< REQ primary path: the initiator's, as the GID ::ffff:a.b.c.d
    Ipv4Address remoteIp;          ///< REQ primary path: the responder's
    std::vector<uint8_t> privateData; ///< at most MaxPrivateData(type) octets; the rest of the field is zeros
};

/** Every field equal, private data octet for octet. */
bool operator==(const RoceCmFields& a, const RoceCmFields& b);
bool operator!=(const RoceCmFields& a, const RoceCmFields& b);

/** The private-data room of each message (REQ 92, REP 196, REJ 148, RTU 224, DREQ 220, DREP 224); 0 for another. */
uint32_t MaxPrivateData(CmMessage m);

/** One CM message in its 256-octet MAD. */
class RoceCmMad : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** Reads roce::kMadLen octets: the caller checks that the packet holds them. Never refuses what it reads. */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    RoceCmMad() = default;
    /** std::invalid_argument for fields the wire cannot hold (see the file's comment). */
    explicit RoceCmMad(const RoceCmFields& f);

    const RoceCmFields& Fields() const { return m_fields; }
    /** The same check as the constructor's; the MAD header goes back to the fixed values. */
    void SetFields(const RoceCmFields& f);
    CmMessage GetMessage() const { return m_fields.type; }
    /** Whether the AttributeID is one of the six messages (any other is kept as read, its body with it). */
    bool IsKnownMessage() const;

    /** The common MAD header as read (the fixed values for one made here). */
    uint8_t GetBaseVersion() const { return m_baseVersion; }
    uint8_t GetMgmtClass() const { return m_mgmtClass; }
    uint8_t GetClassVersion() const { return m_classVersion; }
    uint8_t GetMethod() const { return m_method; }
    uint16_t GetStatus() const { return m_status; }
    uint16_t GetClassSpecific() const { return m_classSpecific; }
    uint32_t GetAttributeModifier() const { return m_attributeModifier; }
    /** BaseVersion 1, class 0x07, class version 2, method Send, status 0: a CM message as the model sends one. */
    bool IsCmSend() const;

  private:
    void WriteBody(uint8_t* body) const;
    void ReadBody(const uint8_t* body);

    RoceCmFields m_fields;
    uint8_t m_baseVersion{roce::kMadBaseVersion};
    uint8_t m_mgmtClass{roce::kCmMgmtClass};
    uint8_t m_classVersion{roce::kCmClassVersion};
    uint8_t m_method{roce::kMadMethodSend}; ///< with the R bit (0x80)
    uint16_t m_status{0};
    uint16_t m_classSpecific{0};
    uint16_t m_reserved{0}; ///< after the AttributeID, kept as read
    uint32_t m_attributeModifier{0};
    std::array<uint8_t, roce::kCmBodyLen> m_unknownBody{}; ///< an unknown attribute's body, as read
};

} // namespace ns3

#endif // IWARP_ROCE_CM_MAD_H
