#include "roce/roce-packet.h"

#include "roce/roce-icrc.h"

#include "common/octets-header.h"

#include "ns3/abort.h"
#include "ns3/buffer.h"
#include "ns3/node.h"
#include "ns3/udp-l4-protocol.h"

#include <cstring>

namespace ns3
{

namespace
{
constexpr uint8_t kIpv4VersionIhl = 0x45; // version 4, five 32-bit words: no options
constexpr uint16_t kDontFragment = 0x4000;
const uint8_t kUdpProtocol = UdpL4Protocol::PROT_NUMBER;

void
PutU16(uint8_t* at, uint16_t v)
{
    at[0] = uint8_t(v >> 8);
    at[1] = uint8_t(v);
}

void
PutU32(uint8_t* at, uint32_t v)
{
    PutU16(at, uint16_t(v >> 16));
    PutU16(at + 2, uint16_t(v));
}

/** The Internet checksum (RFC 1071) of octets fed in pieces, odd-length pieces included. */
class OnesComplementSum
{
  public:
    void Add(const uint8_t* p, uint32_t len)
    {
        for (uint32_t i = 0; i < len; ++i, m_odd = !m_odd)
        {
            m_sum += m_odd ? p[i] : uint32_t(p[i]) << 8;
        }
    }
    /** Zeros add nothing, but move the octet position on. */
    void AddZeros(uint32_t len) { m_odd = (m_odd != (len % 2 == 1)); }
    uint16_t Checksum() const
    {
        uint32_t s = m_sum;
        while (s >> 16)
        {
            s = (s & 0xFFFF) + (s >> 16);
        }
        const uint16_t c = uint16_t(~s);
        return c == 0 ? 0xFFFF : c; // RFC 768: a computed zero is sent as all ones
    }

  private:
    uint32_t m_sum{0};
    bool m_odd{false};
};

/** The IPv4 and UDP headers of a packet whose UDP payload (BTH to ICRC) is `udpPayload` octets. */
void
WriteIpUdp(uint8_t* at, const RoceAddressing& a, uint16_t ipId, uint32_t udpPayload)
{
    const uint32_t udpLen = roce::kUdpHeaderLen + udpPayload;
    const uint32_t total = roce::kIpv4HeaderLen + udpLen;
    NS_ABORT_MSG_IF(total > 0xFFFF, "a RoCEv2 packet of " << total << " octets does not fit IPv4");
    at[0] = kIpv4VersionIhl;
    at[1] = a.tos;
    PutU16(at + 2, uint16_t(total));
    PutU16(at + 4, ipId);
    PutU16(at + 6, kDontFragment);
    at[8] = a.ttl;
    at[9] = kUdpProtocol;
    PutU16(at + 10, 0); // header checksum: ns-3 writes its own when checksums are enabled
    PutU32(at + 12, a.source.Get());
    PutU32(at + 16, a.destination.Get());
    uint8_t* udp = at + roce::kIpv4HeaderLen;
    PutU16(udp, a.sourcePort);
    PutU16(udp + 2, roce::kUdpPort);
    PutU16(udp + 4, uint16_t(udpLen));
    PutU16(udp + 6, 0);
}
} // namespace

void
roce::WriteIrnSack(uint8_t* at, uint32_t psn)
{
    PutU32(at, psn & kPsnMask);
}

uint8_t
roce::MtuCode(uint32_t octets)
{
    for (uint8_t code = 1; code <= 5; ++code)
    {
        if (MtuOfCode(code) == octets)
        {
            return code;
        }
    }
    return 0;
}

uint32_t
roce::MtuOfCode(uint8_t code)
{
    return code >= 1 && code <= 5 ? 128u << code : 0;
}

bool
roce::IsIbMtu(uint32_t octets)
{
    return MtuCode(octets) != 0;
}

void
RoceTransportOctets::Add(const Header& h)
{
    const uint32_t size = h.GetSerializedSize();
    NS_ABORT_MSG_IF(m_len + size > sizeof(m_octets), "RoCE transport headers longer than " << sizeof(m_octets));
    Buffer b;
    b.AddAtStart(size);
    h.Serialize(b.Begin());
    b.CopyData(m_octets + m_len, size);
    m_len += size;
}

Ptr<Packet>
BuildRocePacket(const RoceAddressing& a, uint16_t ipId, const RoceTransportOctets& transport, const uint8_t* payload,
                uint32_t payloadLen)
{
    const uint8_t pad = roce::PadFor(payloadLen);
    uint8_t front[roce::kIpv4HeaderLen + roce::kUdpHeaderLen + sizeof(RoceTransportOctets)];
    const uint32_t frontLen = roce::kIpv4HeaderLen + roce::kUdpHeaderLen + transport.Size();
    WriteIpUdp(front, a, ipId, transport.Size() + payloadLen + pad + roce::kIcrcLen);
    std::memcpy(front + roce::kIpv4HeaderLen + roce::kUdpHeaderLen, transport.Data(), transport.Size());

    RoceIcrcBuilder icrc(front, frontLen);
    Ptr<Packet> p;
    if (payload)
    {
        icrc.Add(payload, payloadLen);
        p = Create<Packet>(payload, payloadLen);
    }
    else
    {
        icrc.AddZeros(payloadLen);
        p = Create<Packet>(payloadLen); // a zero area: no memory for the payload
    }
    icrc.AddZeros(pad);
    uint8_t back[3 + roce::kIcrcLen] = {};
    const uint32_t crc = icrc.Value();
    for (uint32_t k = 0; k < roce::kIcrcLen; ++k)
    {
        back[pad + k] = uint8_t(crc >> (8 * k)); // least significant octet first
    }
    if (Node::ChecksumEnabled())
    {
        // ns-3 then checks every UDP checksum it receives; RoCEv2 senders write zero (the ICRC covers the packet,
        // and masks this field, so filling it changes no ICRC).
        uint8_t pseudo[12] = {};
        std::memcpy(pseudo, front + 12, 8); // source and destination addresses
        pseudo[9] = kUdpProtocol;
        std::memcpy(pseudo + 10, front + roce::kIpv4HeaderLen + 4, 2); // the UDP length
        OnesComplementSum sum;
        sum.Add(pseudo, sizeof(pseudo));
        sum.Add(front + roce::kIpv4HeaderLen, frontLen - roce::kIpv4HeaderLen);
        payload ? sum.Add(payload, payloadLen) : sum.AddZeros(payloadLen);
        sum.Add(back, pad + roce::kIcrcLen);
        PutU16(front + roce::kIpv4HeaderLen + 6, sum.Checksum());
    }
    NS_ABORT_MSG_IF(frontLen > OctetsHeader::kMaxLen, "RoCE headers of " << frontLen << " octets");
    p->AddHeader(OctetsHeader(front, frontLen));
    p->AddTrailer(OctetsTrailer(back, pad + roce::kIcrcLen));
    return p;
}

bool
ParseRocePacket(Ptr<Packet> packet, RoceReceived& out)
{
    if (packet->GetSize() < roce::kBthLen + roce::kIcrcLen)
    {
        return false;
    }
    packet->RemoveHeader(out.bth);
    out.layout = LayoutOf(out.bth.GetOpcode());
    const IbOpcodeLayout& l = out.layout;
    const uint32_t extended = (l.deth ? roce::kDethLen : 0) + (l.reth ? roce::kRethLen : 0) +
                              (l.aeth ? roce::kAethLen : 0) + (l.immDt ? roce::kImmDtLen : 0) +
                              (l.ieth ? roce::kIethLen : 0) + l.reserved;
    const uint32_t tail = out.bth.GetPadCount() + roce::kIcrcLen;
    const bool irn = out.bth.GetOpcode() == IbOpcode::Acknowledge &&
                     packet->GetSize() == extended + roce::kIrnSackLen + tail;
    if (!l.known || packet->GetSize() < extended + tail ||
        (!l.payload && !irn && packet->GetSize() != extended + tail))
    {
        return false;
    }
    if (l.deth)
    {
        packet->RemoveHeader(out.deth);
    }
    if (l.reth)
    {
        packet->RemoveHeader(out.reth);
    }
    if (l.aeth)
    {
        packet->RemoveHeader(out.aeth);
    }
    // Immediate data and a CNP's reserved octets are carried, not used: the verbs here have no immediate.
    packet->RemoveAtStart(l.immDt ? roce::kImmDtLen : 0);
    if (l.ieth)
    {
        packet->RemoveHeader(out.ieth);
    }
    packet->RemoveAtStart(l.reserved);
    packet->RemoveAtEnd(tail);
    out.irnSack = irn;
    if (irn)
    {
        uint8_t sack[roce::kIrnSackLen];
        packet->CopyData(sack, roce::kIrnSackLen);
        out.irnSackPsn = (uint32_t(sack[1]) << 16 | uint32_t(sack[2]) << 8 | sack[3]);
    }
    return true;
}

} // namespace ns3
