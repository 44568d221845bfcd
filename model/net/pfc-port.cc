#include "net/pfc-port.h"

#include "net/pfc-ingress-tag.h"

#include "ns3/abort.h"

#include <cmath>
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPort");
NS_OBJECT_ENSURE_REGISTERED(PfcPort);
NS_OBJECT_ENSURE_REGISTERED(PfcNode);

uint64_t
pfc::DynamicThreshold(uint64_t buffer, double alpha, uint64_t reserved, uint64_t held)
{
    return buffer > reserved + held ? uint64_t(alpha * double(buffer - reserved - held)) : 0;
}

uint64_t
pfc::LoneThreshold(uint64_t buffer, double alpha, uint64_t reserved)
{
    return buffer > reserved ? uint64_t(alpha * double(buffer - reserved) / (1 + alpha)) : 0;
}

uint64_t
pfc::Headroom(DataRate rate, Time delay, uint32_t frameOctets, uint32_t deviceQueuePackets)
{
    const double wire = 2 * delay.GetSeconds() * double(rate.GetBitRate()) / 8;
    return uint64_t(std::ceil(wire)) + uint64_t(deviceQueuePackets + 2) * frameOctets + kFrameLen;
}

/** Takes PAUSE frames off the wire for the port, tags what else arrives, and asks the link's own model. */
class PfcPort::ReceiveFilter : public ErrorModel
{
  public:
    ReceiveFilter(PfcPort* port, Ptr<ErrorModel> inner)
        : m_port(port),
          m_inner(inner)
    {
    }

    void Forget() { m_port = nullptr; m_inner = nullptr; }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (pfc::IsPauseFrame(p))
        {
            PfcFrame frame;
            p->PeekHeader(frame);
            if (m_port && frame.IsValid())
            {
                m_port->OnPauseFrame(frame);
            }
            return true; // consumed by the MAC: IPv4 never sees it
        }
        if (m_inner && m_inner->IsCorrupt(p))
        {
            return true;
        }
        if (m_port && m_port->m_generate)
        {
            PfcIngressTag tag;
            tag.SetPort(m_port->m_device->GetIfIndex());
            p->ReplacePacketTag(tag);
        }
        return false;
    }
    void DoReset() override {}

    PfcPort* m_port;
    Ptr<ErrorModel> m_inner;
};

TypeId
PfcPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcPort")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<PfcPort>()
            .AddAttribute("Lossless", "The lossless priorities, one bit each (bit 3: priority 3, RoCEv2's usual)",
                          UintegerValue(0x08), MakeUintegerAccessor(&PfcPort::m_lossless),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("Generate",
                          "Send PAUSE when the ingress octets of a lossless priority pass Xoff (a switch's port); "
                          "false: only obey the PAUSE received (a host's)",
                          BooleanValue(true), MakeBooleanAccessor(&PfcPort::m_generate), MakeBooleanChecker())
            .AddAttribute("Xoff", "Ingress octets of a lossless priority at which the port sends XOFF",
                          UintegerValue(0), MakeUintegerAccessor(&PfcPort::m_xoff), MakeUintegerChecker<uint32_t>())
            .AddAttribute("Xon", "Ingress octets at or below which a paused peer is sent XON",
                          UintegerValue(0), MakeUintegerAccessor(&PfcPort::m_xon), MakeUintegerChecker<uint32_t>())
            .AddAttribute("Headroom",
                          "Octets the buffer keeps above Xoff for what arrives after XOFF: reported, and with "
                          "a shared buffer (PfcNode) kept out of it",
                          UintegerValue(0), MakeUintegerAccessor(&PfcPort::m_headroom),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseQuanta",
                          "The pause time an XOFF asks for, in 512-bit-time quanta (802.1Qbb's most). At least "
                          "16: the XOFF is repeated each half pause time, and a PAUSE takes one quantum of wire",
                          UintegerValue(pfc::kMaxQuanta), MakeUintegerAccessor(&PfcPort::m_quanta),
                          MakeUintegerChecker<uint16_t>(16))
            .AddTraceSource("PauseSent", "A PAUSE left: (priority, quanta, 0 for XON; ingress octets held)",
                            MakeTraceSourceAccessor(&PfcPort::m_pauseSentTrace),
                            "ns3::PfcPort::PauseSentTracedCallback")
            .AddTraceSource("PauseReceived", "A PAUSE arrived: (priority, quanta, 0 for XON; 0)",
                            MakeTraceSourceAccessor(&PfcPort::m_pauseReceivedTrace),
                            "ns3::PfcPort::PauseSentTracedCallback");
    return tid;
}

PfcPort::PfcPort() = default;

void
PfcPort::DoDispose()
{
    for (uint8_t p = 0; p < pfc::kPriorities; ++p)
    {
        Simulator::Cancel(m_refresh[p]);
        Simulator::Cancel(m_resume[p]);
    }
    if (m_filter)
    {
        m_filter->Forget();
    }
    m_filter = nullptr;
    m_device = nullptr;
    m_queue = nullptr;
    m_disc = nullptr;
    Object::DoDispose();
}

void
PfcPort::Attach(Ptr<PointToPointNetDevice> device)
{
    m_device = device;
    m_queue = DynamicCast<PfcDeviceQueue>(device->GetQueue());
    NS_ABORT_MSG_UNLESS(m_queue, "PfcPort: the device's TxQueue must be a PfcDeviceQueue");
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    m_disc = tc ? DynamicCast<PfcQueueDisc>(tc->GetRootQueueDiscOnDevice(device)) : nullptr;
    NS_ABORT_MSG_UNLESS(m_disc, "PfcPort: the device's root queue disc must be a PfcQueueDisc");
    NS_ABORT_MSG_IF(m_generate && m_lossless == 0, "PfcPort: no lossless priority");
    NS_ABORT_MSG_IF(m_generate && m_xoff > 0 && m_xon > m_xoff,
                    "PfcPort: Xoff (" << m_xoff << ") must be at least Xon (" << m_xon << ")");
    PointerValue inner;
    device->GetAttribute("ReceiveErrorModel", inner);
    m_filter = CreateObject<ReceiveFilter>(this, inner.Get<ErrorModel>());
    device->SetReceiveErrorModel(m_filter);
}

DataRate
PfcPort::Rate() const
{
    DataRateValue rate;
    m_device->GetAttribute("DataRate", rate);
    return rate.Get();
}

void
PfcPort::OnIngress(uint8_t priority, int64_t octets)
{
    NS_ABORT_MSG_IF(octets < 0 && uint64_t(-octets) > m_ingress[priority], "PFC ingress accounting below zero");
    m_ingress[priority] = uint64_t(int64_t(m_ingress[priority]) + octets);
    m_peak[priority] = std::max(m_peak[priority], m_ingress[priority]);
    Evaluate(priority);
}

uint8_t
PfcPort::FirstLossless() const
{
    uint8_t p = 0;
    while (p < pfc::kPriorities && !IsLossless(p))
    {
        ++p;
    }
    return p;
}

uint64_t
PfcPort::GetXoff() const
{
    return m_node && m_node->HasSharedBuffer() ? m_node->GetLoneXoff() : m_xoff;
}

bool
PfcPort::AboveXoff(uint8_t priority) const
{
    if (m_node && m_node->HasSharedBuffer())
    {
        // A threshold of 0 (the buffer full) pauses whatever the port holds, but nothing held is no reason.
        return m_ingress[priority] > 0 && m_ingress[priority] >= m_node->GetThreshold();
    }
    return m_ingress[priority] >= m_xoff;
}

bool
PfcPort::AtOrBelowXon(uint8_t priority) const
{
    if (m_node && m_node->HasSharedBuffer())
    {
        return m_ingress[priority] == 0 || m_ingress[priority] + m_node->GetResumeOffset() <= m_node->GetThreshold();
    }
    return m_ingress[priority] <= m_xon;
}

void
PfcPort::Evaluate(uint8_t priority)
{
    if (!m_generate || !IsLossless(priority))
    {
        return;
    }
    if (!m_pausing[priority] && AboveXoff(priority))
    {
        m_pausing[priority] = true;
        if (m_node)
        {
            ++m_node->m_pausingCount;
        }
        Refresh(priority);
    }
    else if (m_pausing[priority] && AtOrBelowXon(priority))
    {
        m_pausing[priority] = false;
        if (m_node)
        {
            --m_node->m_pausingCount;
        }
        ++m_xonSent;
        Simulator::Cancel(m_refresh[priority]);
        SendPause(priority, 0);
    }
}

void
PfcPort::Refresh(uint8_t priority)
{
    // XOFF, and again each half pause time while above Xon, before the peer's pause runs out.
    ++m_xoffSent;
    SendPause(priority, m_quanta);
    m_refresh[priority] = Simulator::Schedule(pfc::PauseTime(m_quanta, Rate()) / 2, &PfcPort::Refresh, this, priority);
}

void
PfcPort::SendPause(uint8_t priority, uint16_t quanta)
{
    PfcFrame frame;
    frame.SetSource(Mac48Address::ConvertFrom(m_device->GetAddress()));
    frame.SetPause(priority, quanta);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(frame);
    NS_LOG_DEBUG("port " << m_device->GetIfIndex() << " of node " << m_device->GetNode()->GetId() << ": "
                         << (quanta ? "XOFF" : "XON") << " p" << unsigned(priority) << " at "
                         << m_ingress[priority] << " octets");
    m_pauseSentTrace(priority, quanta, m_ingress[priority]);
    m_queue->SendControl(m_device, p);
}

void
PfcPort::OnPauseFrame(const PfcFrame& frame)
{
    ++m_pausesReceived;
    for (uint8_t p = 0; p < pfc::kPriorities; ++p)
    {
        if (!frame.IsEnabled(p))
        {
            continue;
        }
        const uint16_t q = frame.GetQuanta(p);
        m_pauseReceivedTrace(p, q, 0);
        Simulator::Cancel(m_resume[p]);
        if (q == 0)
        {
            Resume(p);
            continue;
        }
        m_disc->SetPaused(p, true);
        m_resume[p] = Simulator::Schedule(pfc::PauseTime(q, Rate()), &PfcPort::Resume, this, p);
    }
}

void
PfcPort::Resume(uint8_t priority)
{
    m_disc->SetPaused(priority, false);
}

// ---- PfcNode ----

TypeId
PfcNode::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNode")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<PfcNode>()
            .AddAttribute("SharedBuffer",
                          "Octets of buffer the node's ports share; 0: none, each port pauses at its own Xoff "
                          "and Xon. HPCC's simulator gives a switch 12 MB",
                          UintegerValue(0), MakeUintegerAccessor(&PfcNode::m_sharedBuffer),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "The dynamic threshold's share of the free buffer a port may take before XOFF "
                          "(Broadcom's switches offer 1/128 to 8); required with SharedBuffer",
                          DoubleValue(0), MakeDoubleAccessor(&PfcNode::m_alpha), MakeDoubleChecker<double>(0))
            .AddAttribute("ResumeOffset",
                          "With SharedBuffer: XON once a paused port's ingress octets are this far below the "
                          "threshold (HPCC's simulator: 3 KB)",
                          UintegerValue(0), MakeUintegerAccessor(&PfcNode::m_resumeOffset),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

Ptr<PfcNode>
PfcNode::Get(Ptr<Node> node)
{
    Ptr<PfcNode> n = node->GetObject<PfcNode>();
    if (!n)
    {
        n = CreateObject<PfcNode>();
        node->AggregateObject(n);
    }
    return n;
}

void
PfcNode::AddPort(Ptr<PfcPort> port)
{
    const uint32_t ifIndex = port->GetDevice()->GetIfIndex();
    NS_ABORT_MSG_IF(m_ports.count(ifIndex), "PfcNode: device " << ifIndex << " has a port already");
    port->m_node = this;
    m_ports[ifIndex] = port;
    port->GetQueueDisc()->SetIngressAccounting(MakeCallback(&PfcNode::OnIngress, this));
    Check();
}

void
PfcNode::DoInitialize()
{
    Check(); // the attributes as the run has them, whatever was set after AddPort
    Object::DoInitialize();
}

void
PfcNode::Check()
{
    NS_ABORT_MSG_IF(HasSharedBuffer() && m_alpha <= 0, "PfcNode: a SharedBuffer needs an Alpha above 0");
    m_reservedHeadroom = 0;
    for (const auto& [ifIndex, port] : m_ports)
    {
        NS_ABORT_MSG_IF(port->m_generate && !port->HasStaticThresholds() && !HasSharedBuffer(),
                        "PfcNode: port " << ifIndex << " sends PAUSE but has no Xoff and its node no SharedBuffer");
        for (uint8_t p = 0; port->m_generate && p < pfc::kPriorities; ++p)
        {
            m_reservedHeadroom += port->IsLossless(p) ? port->GetHeadroom() : 0;
        }
    }
}

Ptr<PfcPort>
PfcNode::GetPort(uint32_t ifIndex) const
{
    auto it = m_ports.find(ifIndex);
    return it == m_ports.end() ? nullptr : it->second;
}

uint64_t
PfcNode::GetLoneXoff() const
{
    return pfc::LoneThreshold(m_sharedBuffer, m_alpha, m_reservedHeadroom);
}

uint64_t
PfcNode::GetThreshold() const
{
    return pfc::DynamicThreshold(m_sharedBuffer, m_alpha, m_reservedHeadroom, m_held);
}

void
PfcNode::OnIngress(uint32_t ifIndex, uint8_t priority, int64_t octets)
{
    Ptr<PfcPort> in = GetPort(ifIndex);
    if (!in)
    {
        return;
    }
    if (in->IsLossless(priority))
    {
        // The shared buffer is the lossless priorities' (their pool); a lossy packet waits within its port's
        // own queue limit and moves no threshold.
        NS_ABORT_MSG_IF(octets < 0 && uint64_t(-octets) > m_held, "PFC shared buffer accounting below zero");
        m_held = uint64_t(int64_t(m_held) + octets);
        m_peakHeld = std::max(m_peakHeld, m_held);
    }
    in->OnIngress(priority, octets);
    if (HasSharedBuffer() && octets < 0 && in->IsLossless(priority) && m_pausingCount > 0)
    {
        // What one port let go raised every port's threshold: a paused one may resume.
        for (const auto& [index, port] : m_ports)
        {
            for (uint8_t p = 0; p < pfc::kPriorities; ++p)
            {
                if (port->m_pausing[p])
                {
                    port->Evaluate(p);
                }
            }
        }
    }
}

void
PfcNode::DoDispose()
{
    for (auto& [ifIndex, port] : m_ports)
    {
        port->m_node = nullptr;
        port->Dispose();
    }
    m_ports.clear();
    Object::DoDispose();
}

} // namespace ns3
