/*
 * What the RoCEv2 transport suites share: the transport of a QP, loss on both ends of an RnicPair's link,
 * attributes set on both QPs' transports, an error model that drops one chosen packet and says its PSN, and
 * one that drops nothing but marks RoCEv2 packets CE, as a congested switch would.
 */
#ifndef IWARP_TEST_ROCE_TEST_UTIL_H
#define IWARP_TEST_ROCE_TEST_UTIL_H

#include "rnic/rnic-pair.h"
#include "rnic/roce-transport.h"
#include "roce/roce-packet.h"

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/ppp-header.h"

namespace ns3
{
namespace iwarptest
{

constexpr uint32_t kPppHeaderLen = 2;
constexpr uint32_t kBthAt = kPppHeaderLen + roce::kIpv4HeaderLen + roce::kUdpHeaderLen; ///< a frame's BTH

inline Ptr<RoceTransport>
RoceOf(Ptr<QueuePair> qp)
{
    return DynamicCast<RoceTransport>(qp->GetTransport());
}

/** Loss on both devices' receive side, each with a random stream of its own. */
inline void
AddLoss(RnicPair& p, double rate)
{
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(rate));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(41 + i);
        p.links[0].Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

inline void
SetBoth(RnicPair& p, const std::string& name, const AttributeValue& v)
{
    RoceOf(p.cqp)->SetAttribute(name, v);
    RoceOf(p.sqp)->SetAttribute(name, v);
}

/**
 * Drops the `nth` (from 1) RoCEv2 packet with an opcode in [low, high] that reaches the device (with its PPP
 * header), and says its PSN.
 */
class DropOne : public ErrorModel
{
  public:
    DropOne(IbOpcode low, IbOpcode high, uint32_t nth)
        : m_low(uint8_t(low)),
          m_high(uint8_t(high)),
          m_nth(nth)
    {
    }

    uint32_t droppedPsn{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t h[kBthAt + roce::kBthLen] = {};
        const uint32_t udpDstPort = kBthAt - roce::kUdpHeaderLen + 2;
        if (p->GetSize() < sizeof(h) || p->CopyData(h, sizeof(h)) != sizeof(h) ||
            ((h[udpDstPort] << 8) | h[udpDstPort + 1]) != roce::kUdpPort)
        {
            return false;
        }
        const uint8_t op = h[kBthAt];
        if (op < m_low || op > m_high || ++m_seen != m_nth)
        {
            return false;
        }
        droppedPsn = uint32_t(h[kBthAt + 9]) << 16 | uint32_t(h[kBthAt + 10]) << 8 | h[kBthAt + 11];
        return true;
    }
    void DoReset() override {}

    uint8_t m_low;
    uint8_t m_high;
    uint32_t m_nth;
    uint32_t m_seen{0};
};

/**
 * Drops nothing: sets the ECN field of every ECN-capable RoCEv2 packet that reaches the device (with its PPP
 * header) to CE while `on`, as a congested switch would, and counts them. The ICRC does not cover the field.
 */
class MarkCe : public ErrorModel
{
  public:
    bool on{true};
    uint32_t marked{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t h[kBthAt] = {};
        const uint32_t udpDstPort = kBthAt - roce::kUdpHeaderLen + 2;
        if (!on || p->GetSize() < sizeof(h) || p->CopyData(h, sizeof(h)) != sizeof(h) ||
            ((h[udpDstPort] << 8) | h[udpDstPort + 1]) != roce::kUdpPort ||
            (h[kPppHeaderLen + 1] & roce::kEcnMask) == 0)
        {
            return false;
        }
        PppHeader ppp;
        Ipv4Header ip;
        p->RemoveHeader(ppp);
        p->RemoveHeader(ip);
        ip.SetEcn(Ipv4Header::ECN_CE);
        ip.EnableChecksum(); // written again: a good checksum, as a switch writes it
        p->AddHeader(ip);
        p->AddHeader(ppp);
        ++marked;
        return false;
    }
    void DoReset() override {}
};

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TEST_ROCE_TEST_UTIL_H
