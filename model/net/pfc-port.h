/*
 * PfcPort: IEEE 802.1Qbb on one point-to-point port, both ways.
 *
 *  - Egress: a PAUSE that arrives stops the port's PfcQueueDisc for the priorities it names, for its pause time
 *    (quanta of 512 bit times at the port's rate) or until a PAUSE of 0 quanta (XON) lets them go.
 *  - Ingress (Generate true, a switch's port): the port counts, per priority, the octets it brought in that the
 *    switch still holds in any egress queue (PfcIngressTag, PfcNode). For a lossless priority, once they reach
 *    Xoff it sends its peer a PAUSE of PauseQuanta (XOFF), again each half pause time while they stay above Xon,
 *    and once they fall to Xon a PAUSE of 0 (XON). What the peer sends after XOFF until it stops (the frames on
 *    the wire both ways, the one being sent, the device queue's) is what Headroom must hold; PeakIngress shows
 *    whether it did. With a shared buffer on its node (PfcNode's SharedBuffer), Xoff and Xon are not fixed: the
 *    node's dynamic threshold takes their place (PfcNode).
 *
 * A PAUSE leaves through the port's PfcDeviceQueue ahead of the data, 64 octets on the wire (PfcFrame), and is
 * taken off the wire at the receiving port before IPv4 sees it (the port's receive filter, which wraps the
 * link's own loss model; a PAUSE is never lost, nor held back by a reordering channel). The sending port's pcap
 * shows it; the receiving port's does not (ns-3's device records what its receive error model passes).
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_PFC_PORT_H
#define IWARP_PFC_PORT_H

#include "net/pfc-device-queue.h"
#include "net/pfc-frame.h"
#include "net/pfc-queue-disc.h"

#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/traced-callback.h"

#include <array>
#include <map>

namespace ns3
{

namespace pfc
{
/**
 * The octets a port must hold above Xoff: after it decides to pause its peer, the PAUSE waits for the frame the
 * port is sending, crosses the link, and the peer still finishes the frame it is sending and those in its device
 * queue, while what was on the wire the other way arrives: the link's delay both ways at its rate, plus
 * `deviceQueuePackets` + 2 frames of `frameOctets` (its largest, PPP header on) and the PAUSE itself.
 */
uint64_t Headroom(DataRate rate, Time delay, uint32_t frameOctets, uint32_t deviceQueuePackets);
/**
 * The dynamic threshold (Choudhury and Hahne): `alpha` x (`buffer` - `reserved` - `held`), 0 once nothing is
 * free.
 */
uint64_t DynamicThreshold(uint64_t buffer, double alpha, uint64_t reserved, uint64_t held);
/**
 * Where a port alone in the buffer sends XOFF: its own octets are all that is held, x = alpha (B' - x), so
 * x = alpha B' / (1 + alpha) with B' = `buffer` - `reserved`. No port's ingress reaches more before XOFF.
 */
uint64_t LoneThreshold(uint64_t buffer, double alpha, uint64_t reserved);
} // namespace pfc

class PfcNode;

class PfcPort : public Object
{
  public:
    static TypeId GetTypeId();
    PfcPort();

    /**
     * Take charge of `device`, whose TxQueue must be a PfcDeviceQueue and whose root queue disc a PfcQueueDisc
     * (put there first); the device's receive error model, if any, goes on deciding for what is not a PAUSE.
     */
    void Attach(Ptr<PointToPointNetDevice> device);
    Ptr<PointToPointNetDevice> GetDevice() const { return m_device; }
    Ptr<PfcQueueDisc> GetQueueDisc() const { return m_disc; }

    bool IsLossless(uint8_t priority) const { return (m_lossless >> priority) & 1; }
    /** The lowest lossless priority (what a port's counters report: a scenario has one), kPriorities if none. */
    uint8_t FirstLossless() const;
    /** The switch's ingress accounting (PfcNode): `octets` more (or fewer) of `priority` held. */
    void OnIngress(uint8_t priority, int64_t octets);
    /** A PAUSE that arrived on this port. */
    void OnPauseFrame(const PfcFrame& frame);

    uint64_t GetIngressOctets(uint8_t priority) const { return m_ingress[priority]; }
    uint64_t GetPeakIngress(uint8_t priority) const { return m_peak[priority]; }
    uint64_t GetXoffSent() const { return m_xoffSent; }
    uint64_t GetXonSent() const { return m_xonSent; }
    uint64_t GetPausesReceived() const { return m_pausesReceived; }
    /** The XOFF threshold: Xoff, or with a shared buffer the most it gets (PfcNode::GetLoneXoff). */
    uint64_t GetXoff() const;
    uint32_t GetXon() const { return m_xon; }
    /** A fixed Xoff and Xon, or the node's shared buffer, decides (PfcNode::AddPort checks one of them is set). */
    bool HasStaticThresholds() const { return m_xoff > 0; }
    /** XOFF or XON for `priority` if the thresholds in force now call for it (PfcNode, after a change). */
    void Evaluate(uint8_t priority);
    uint32_t GetHeadroom() const { return m_headroom; }

    /** (priority, quanta: 0 for XON, ingress octets held when sent) */
    typedef void (*PauseSentTracedCallback)(uint8_t priority, uint16_t quanta, uint64_t ingress);

  protected:
    void DoDispose() override;

  private:
    friend class PfcNode; // its shared buffer: m_node, and the pauses it re-evaluates
    class ReceiveFilter;
    void SendPause(uint8_t priority, uint16_t quanta);
    /** XOFF for `priority` now, and again each half pause time until XON. */
    void Refresh(uint8_t priority);
    void Resume(uint8_t priority);
    DataRate Rate() const;
    bool AboveXoff(uint8_t priority) const;
    bool AtOrBelowXon(uint8_t priority) const;

    // Attributes
    uint8_t m_lossless{0x08};
    bool m_generate{true};
    uint32_t m_xoff{0};
    uint32_t m_xon{0};
    uint32_t m_headroom{0};
    uint16_t m_quanta{pfc::kMaxQuanta};

    Ptr<PointToPointNetDevice> m_device;
    Ptr<PfcDeviceQueue> m_queue;
    PfcNode* m_node{nullptr}; ///< the node holding this port (AddPort), for its shared buffer
    Ptr<PfcQueueDisc> m_disc;
    Ptr<ReceiveFilter> m_filter;
    std::array<uint64_t, pfc::kPriorities> m_ingress{};
    std::array<uint64_t, pfc::kPriorities> m_peak{};
    std::array<bool, pfc::kPriorities> m_pausing{}; ///< this port told its peer XOFF
    std::array<EventId, pfc::kPriorities> m_refresh;
    std::array<EventId, pfc::kPriorities> m_resume; ///< the end of a pause received
    uint64_t m_xoffSent{0};
    uint64_t m_xonSent{0};
    uint64_t m_pausesReceived{0};
    TracedCallback<uint8_t, uint16_t, uint64_t> m_pauseSentTrace;
    TracedCallback<uint8_t, uint16_t, uint64_t> m_pauseReceivedTrace;
};

/**
 * PfcNode: a node's PFC ports by device index, aggregated to the node. It gives each port's queue disc the
 * ingress accounting: an egress queue reports a packet by the port it came in by (PfcIngressTag).
 *
 * With SharedBuffer set, the switch's ports share one buffer for their lossless priorities and pause by a
 * dynamic threshold (Choudhury and Hahne, IEEE/ACM ToN 6(2), 1998, as Broadcom's switches and HPCC's simulator
 * do): a port's lossless priority sends XOFF once its ingress octets reach Alpha x (SharedBuffer - the ports'
 * headroom - the lossless octets the node holds), and XON once they are ResumeOffset below that, or none are
 * left. The more the switch holds, the lower every port's threshold, so the lossless octets held stay below
 * SharedBuffer whatever the number of congested ports. Lossy packets wait within each port's own queue limit
 * (no shared admission for them) and move no threshold.
 */
class PfcNode : public Object
{
  public:
    static TypeId GetTypeId();
    /** `node`'s, made and aggregated on first use. */
    static Ptr<PfcNode> Get(Ptr<Node> node);
    /**
     * Add `port` (attached to a device of this node) and give its queue disc the ingress accounting. Aborts if
     * the port generates PAUSE with neither fixed thresholds nor a shared buffer to decide.
     */
    void AddPort(Ptr<PfcPort> port);
    Ptr<PfcPort> GetPort(uint32_t ifIndex) const;

    bool HasSharedBuffer() const { return m_sharedBuffer > 0; }
    /** Alpha x (SharedBuffer - headroom - held), 0 once nothing is free. */
    uint64_t GetThreshold() const;
    /** Where a port alone in the buffer sends XOFF (pfc::LoneThreshold): no port's XOFF comes later. */
    uint64_t GetLoneXoff() const;
    uint32_t GetResumeOffset() const { return m_resumeOffset; }
    /** The ports' headroom the buffer keeps back: each generating port's, per lossless priority. */
    uint64_t GetReservedHeadroom() const { return m_reservedHeadroom; }
    /** Lossless octets the node's ports hold now, and the most they held. */
    uint64_t GetHeld() const { return m_held; }
    uint64_t GetPeakHeld() const { return m_peakHeld; }

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    friend class PfcPort;
    void OnIngress(uint32_t ifIndex, uint8_t priority, int64_t octets);
    /** Aborts on settings that cannot run; sums the ports' headroom the shared buffer keeps back. */
    void Check();
    std::map<uint32_t, Ptr<PfcPort>> m_ports;
    uint32_t m_pausingCount{0}; ///< (port, priority) pairs that told their peer XOFF
    uint64_t m_sharedBuffer{0};
    double m_alpha{0};
    uint32_t m_resumeOffset{0};
    uint64_t m_reservedHeadroom{0};
    uint64_t m_held{0};
    uint64_t m_peakHeld{0};
};

} // namespace ns3

#endif // IWARP_PFC_PORT_H
