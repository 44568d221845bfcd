/*
 * PfcDeviceQueue: a point-to-point device's transmit queue (drop-tail, as ns-3's DropTailQueue) that can also put
 * a MAC control frame (a PFC PAUSE) ahead of its data, as a MAC sends PAUSE at the next frame boundary. The
 * frame carries its own PPP header (PfcFrame), which the device cannot write (it knows PPP's IPv4 and IPv6
 * protocol numbers only), so it is handed to the queue, not to NetDevice::Send:
 *
 *   SendControl(device, frame): the frame waits in the queue's control line; if the device is idle, a Kick
 *   packet sent through NetDevice::Send makes it start: the queue keeps no kick, and gives the device the
 *   control frame instead. The device's sniffers (pcaps) record the frame as sent, with its real octets.
 *
 * Control frames stand outside the queue's limit, counters and traces: queue statistics count data only.
 * The kick passes the device's MacTx trace (a 2-octet packet; nothing in this project listens to MacTx).
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_PFC_DEVICE_QUEUE_H
#define IWARP_PFC_DEVICE_QUEUE_H

#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/queue.h"

#include <deque>

namespace ns3
{

class PfcDeviceQueue : public Queue<Packet>
{
  public:
    static TypeId GetTypeId();
    PfcDeviceQueue();
    ~PfcDeviceQueue() override;

    bool Enqueue(Ptr<Packet> item) override;
    Ptr<Packet> Dequeue() override;
    Ptr<Packet> Remove() override;
    Ptr<const Packet> Peek() const override;

    /** Send `frame` (PPP header on) on `device`, whose TxQueue this is, ahead of the data. */
    void SendControl(Ptr<NetDevice> device, Ptr<Packet> frame);
    /** Control frames waiting. */
    size_t GetControlWaiting() const { return m_control.size(); }

  private:
    using Queue<Packet>::GetContainer;
    using Queue<Packet>::DoEnqueue;
    using Queue<Packet>::DoDequeue;
    using Queue<Packet>::DoRemove;
    using Queue<Packet>::DoPeek;

    std::deque<Ptr<Packet>> m_control;
    bool m_kicking{false}; ///< inside SendControl's NetDevice::Send: the packet coming is the kick

    NS_LOG_TEMPLATE_DECLARE;
};

} // namespace ns3

#endif // IWARP_PFC_DEVICE_QUEUE_H
