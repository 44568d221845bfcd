#include "helper/topology/port-queues.h"

#include "helper/topology/topology-graph.h"
#include "net/pfc-device-queue.h"

#include "ns3/boolean.h"
#include "ns3/codel-queue-disc.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/fq-codel-queue-disc.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/red-queue-disc.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

const char*
ToString(QueueDiscKind kind)
{
    switch (kind)
    {
    case QueueDiscKind::None:
        return "none";
    case QueueDiscKind::Fifo:
        return "fifo";
    case QueueDiscKind::Red:
        return "red";
    case QueueDiscKind::CoDel:
        return "codel";
    case QueueDiscKind::FqCoDel:
        return "fq-codel";
    }
    return "?";
}

namespace
{

std::string
Text(const QueueSize& q)
{
    std::ostringstream os;
    os << q;
    return os.str();
}

/** The queue disc `spec` asks for, configured; null for None. */
Ptr<QueueDisc>
MakeQueueDisc(const PortQueueSpec& spec, DataRate rate, Time delay)
{
    const QueueDiscSpec& d = spec.disc;
    switch (d.kind)
    {
    case QueueDiscKind::None:
        return nullptr;
    case QueueDiscKind::Fifo: {
        Ptr<QueueDisc> q = CreateObject<FifoQueueDisc>();
        q->SetAttribute("MaxSize", QueueSizeValue(spec.queue));
        return q;
    }
    case QueueDiscKind::Red: {
        Ptr<RedQueueDisc> q = CreateObject<RedQueueDisc>();
        q->SetAttribute("MaxSize", QueueSizeValue(spec.queue));
        // RED counts its thresholds in the unit of its limit (packets or octets).
        q->SetAttribute("MinTh", DoubleValue(d.red.minTh.GetValue()));
        q->SetAttribute("MaxTh", DoubleValue(d.red.maxTh.GetValue()));
        q->SetAttribute("QW", DoubleValue(d.red.weight));
        q->SetAttribute("LInterm", DoubleValue(1.0 / d.red.maxP));
        q->SetAttribute("Gentle", BooleanValue(d.red.gentle));
        q->SetAttribute("UseEcn", BooleanValue(d.red.ecn));
        q->SetAttribute("UseHardDrop", BooleanValue(d.red.hardDrop));
        // Full-size packets for the byte-mode and idle-time estimates; the link's own rate and
        // delay for the idle time (RED's defaults are 1.5 Mb/s and 20 ms).
        q->SetAttribute("MeanPktSize", UintegerValue(1500));
        q->SetAttribute("LinkBandwidth", DataRateValue(rate));
        q->SetAttribute("LinkDelay", TimeValue(delay));
        return q;
    }
    case QueueDiscKind::CoDel:
    case QueueDiscKind::FqCoDel: {
        const bool fq = d.kind == QueueDiscKind::FqCoDel;
        Ptr<QueueDisc> q = fq ? Ptr<QueueDisc>(CreateObject<FqCoDelQueueDisc>())
                              : Ptr<QueueDisc>(CreateObject<CoDelQueueDisc>());
        q->SetAttribute("MaxSize", QueueSizeValue(spec.queue));
        // Their Target and Interval are string attributes in ns-3 3.37.
        q->SetAttribute("Target", StringValue(std::to_string(d.codel.target.GetNanoSeconds()) + "ns"));
        q->SetAttribute("Interval", StringValue(std::to_string(d.codel.interval.GetNanoSeconds()) + "ns"));
        q->SetAttribute("UseEcn", BooleanValue(d.codel.ecn));
        if (fq)
        {
            q->SetAttribute("Flows", UintegerValue(d.codel.flows));
        }
        return q;
    }
    }
    return nullptr;
}

} // namespace

void
CheckPortQueues(const PortQueueSpec& spec, const std::string& where)
{
    auto fail = [&where](const std::string& what) { throw TopologyError(where + ": " + what); };
    if (spec.queue.GetValue() == 0)
    {
        fail("a queue must hold at least one packet");
    }
    if (spec.disc.kind == QueueDiscKind::None)
    {
        return;
    }
    if (spec.deviceQueue.GetValue() == 0)
    {
        fail("a device queue must hold at least one packet");
    }
    if (spec.disc.kind == QueueDiscKind::Red)
    {
        const RedSpec& r = spec.disc.red;
        if (r.minTh.GetUnit() != spec.queue.GetUnit() || r.maxTh.GetUnit() != spec.queue.GetUnit())
        {
            fail("RED thresholds (" + Text(r.minTh) + ", " + Text(r.maxTh) + ") must be in the unit of the queue (" +
                 Text(spec.queue) + "): RED counts them as its limit counts");
        }
        if (r.minTh.GetValue() == 0 || r.minTh.GetValue() > r.maxTh.GetValue())
        {
            fail("RED needs 0 < min-th <= max-th (got " + Text(r.minTh) + ", " + Text(r.maxTh) + ")");
        }
        if (r.maxTh.GetValue() >= spec.queue.GetValue())
        {
            fail("RED's max-th " + Text(r.maxTh) + " must be below the queue's limit " + Text(spec.queue) +
                 " (else it never marks before the queue overflows)");
        }
        if (!(r.weight > 0 && r.weight <= 1))
        {
            fail("RED's weight must be in (0, 1]");
        }
        if (!(r.maxP > 0 && r.maxP <= 1))
        {
            fail("RED's max-p must be in (0, 1]");
        }
    }
    if (spec.disc.kind == QueueDiscKind::CoDel || spec.disc.kind == QueueDiscKind::FqCoDel)
    {
        const CoDelSpec& c = spec.disc.codel;
        if (!c.target.IsStrictlyPositive() || c.interval < c.target)
        {
            fail("CoDel needs 0 < target <= interval");
        }
        if (spec.disc.kind == QueueDiscKind::FqCoDel && c.flows == 0)
        {
            fail("FQ-CoDel needs at least one flow queue");
        }
    }
}

namespace
{

/** `queue` as `dev`'s transmit queue and `disc` above it, joined by flow control. */
void
JoinQueues(Ptr<PointToPointNetDevice> dev, Ptr<Queue<Packet>> queue, Ptr<QueueDisc> disc)
{
    dev->SetQueue(queue);
    // What PointToPointHelper does with flow control on: the device queue stops and wakes the
    // queue disc above it, so packets wait in the queue disc, not dropped at the device.
    Ptr<NetDeviceQueueInterface> ndqi = dev->GetObject<NetDeviceQueueInterface>();
    if (!ndqi)
    {
        ndqi = CreateObject<NetDeviceQueueInterface>();
        dev->AggregateObject(ndqi);
    }
    ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!tc, "InstallPortQueues: the node has no traffic-control layer (Internet stack)");
    if (tc->GetRootQueueDiscOnDevice(dev))
    {
        tc->DeleteRootQueueDiscOnDevice(dev);
    }
    tc->SetRootQueueDiscOnDevice(dev, disc);
}

} // namespace

void
InstallPortQueues(Ptr<PointToPointNetDevice> dev, const PortQueueSpec& spec, DataRate rate, Time delay)
{
    Ptr<DropTailQueue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
    Ptr<QueueDisc> disc = MakeQueueDisc(spec, rate, delay);
    queue->SetMaxSize(disc ? spec.deviceQueue : spec.queue);
    if (!disc)
    {
        // No NetDeviceQueueInterface either: with one, the traffic-control layer would discard
        // (without a trace) what arrives while the device queue is stopped.
        dev->SetQueue(queue);
        return;
    }
    JoinQueues(dev, queue, disc);
}

Ptr<PfcQueueDisc>
InstallPfcPortQueues(Ptr<PointToPointNetDevice> dev, const PortQueueSpec& spec, DataRate rate, Time delay)
{
    Ptr<PfcDeviceQueue> queue = CreateObject<PfcDeviceQueue>();
    queue->SetMaxSize(spec.deviceQueue);
    Ptr<PfcQueueDisc> disc = CreateObject<PfcQueueDisc>();
    for (uint32_t p = 0; p < pfc::kPriorities; ++p)
    {
        Ptr<QueueDisc> child = MakeQueueDisc(spec, rate, delay);
        NS_ABORT_MSG_UNLESS(child, "a PFC port needs a queue disc kind for its priorities (not none)");
        Ptr<QueueDiscClass> c = CreateObject<QueueDiscClass>();
        c->SetQueueDisc(child);
        disc->AddQueueDiscClass(c);
    }
    JoinQueues(dev, queue, disc);
    return disc;
}

Ptr<QueueDisc>
RootQueueDisc(Ptr<NetDevice> dev)
{
    Ptr<TrafficControlLayer> tc = dev->GetNode() ? dev->GetNode()->GetObject<TrafficControlLayer>() : nullptr;
    return tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
}

} // namespace ns3
