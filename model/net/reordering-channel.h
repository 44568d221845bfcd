/*
 * ReorderingChannel: a point-to-point channel that holds a chosen fraction of the packets for
 * an extra delay on top of the propagation delay. Later packets overtake the held ones, so
 * the receiver really sees them out of order (as a multi-path or a link-layer retransmitting
 * network would show), while the sender's device timing stays that of a plain link.
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_REORDERING_CHANNEL_H
#define IWARP_REORDERING_CHANNEL_H

#include "ns3/point-to-point-channel.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

class ReorderingChannel : public PointToPointChannel
{
  public:
    static TypeId GetTypeId();
    ReorderingChannel();

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    int64_t AssignStreams(int64_t stream);

    uint64_t GetSeen() const { return m_seen; }
    uint64_t GetDelayed() const { return m_delayed; }

  private:
    double m_fraction;
    Time m_extraDelay;
    Ptr<UniformRandomVariable> m_uniform;
    uint64_t m_seen{0};
    uint64_t m_delayed{0};
};

} // namespace ns3

#endif // IWARP_REORDERING_CHANNEL_H
