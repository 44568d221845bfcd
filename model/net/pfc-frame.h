/*
 * PfcFrame: IEEE 802.1Qbb's per-priority PAUSE as it crosses this model's point-to-point links, whose frames are
 * PPP's (a 2-octet protocol field; the pcaps' link type is PPP). A PAUSE is an Ethernet MAC Control frame, so it
 * travels as PPP's Bridged PDU (protocol 0x0031, RFC 3518's BCP): a 2-octet BCP header (no flags, MAC type 1,
 * Ethernet) then the 60-octet minimum Ethernet frame without its FCS:
 *
 *   PPP protocol 0x0031 | BCP flags 0x00, MAC type 0x01 | destination 01-80-C2-00-00-01 | source MAC |
 *   EtherType 0x8808 | opcode 0x0101 | class-enable vector (bit p: priority p) | 8 x 2-octet pause times | zeros
 *
 * 64 octets on the wire in all; Wireshark decodes it as PPP / BCP / Ethernet / MAC Control (CBFC Pause). A pause
 * time is in quanta of 512 bit times at the link's rate; 0 resumes the priority at once (XON).
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_PFC_FRAME_H
#define IWARP_PFC_FRAME_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <array>

namespace ns3
{

namespace pfc
{
inline constexpr uint32_t kPriorities = 8;
inline constexpr uint16_t kPppBridgedPdu = 0x0031; ///< RFC 3518
inline constexpr uint8_t kBcpMacEthernet = 0x01;   ///< BCP MAC type: IEEE 802.3/Ethernet
inline constexpr uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr uint16_t kOpcodePfc = 0x0101; ///< 802.1Qbb class-based flow control
inline constexpr uint32_t kPppLen = 2;
inline constexpr uint32_t kBcpLen = 2;
inline constexpr uint32_t kEthernetMinFrame = 60; ///< without the FCS
/** A PAUSE on the wire, PPP header on. */
inline constexpr uint32_t kFrameLen = kPppLen + kBcpLen + kEthernetMinFrame;
inline constexpr uint32_t kQuantumBits = 512;
inline constexpr uint16_t kMaxQuanta = 0xFFFF;

/** How long `quanta` pause a link of `rate`. */
Time PauseTime(uint16_t quanta, DataRate rate);
/** Whether `p` (as a point-to-point device sends or receives it, PPP header on) is a PAUSE frame. */
bool IsPauseFrame(Ptr<const Packet> p);
} // namespace pfc

class PfcFrame : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** Reads a frame; one that is not a PAUSE reads as no priority enabled (IsValid false). */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetSource(Mac48Address a) { m_source = a; }
    Mac48Address GetSource() const { return m_source; }
    /** Pause (`quanta` > 0) or resume (0) `priority`. */
    void SetPause(uint8_t priority, uint16_t quanta);
    bool IsEnabled(uint8_t priority) const { return (m_enabled >> priority) & 1; }
    uint16_t GetQuanta(uint8_t priority) const { return m_quanta[priority]; }
    uint8_t GetClassEnableVector() const { return m_enabled; }
    /** Deserialize found a PAUSE (PPP Bridged PDU, Ethernet, MAC Control, the PFC opcode). */
    bool IsValid() const { return m_valid; }

  private:
    Mac48Address m_source;
    uint8_t m_enabled{0};
    std::array<uint16_t, pfc::kPriorities> m_quanta{};
    bool m_valid{true};
};

} // namespace ns3

#endif // IWARP_PFC_FRAME_H
