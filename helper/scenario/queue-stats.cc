#include "helper/scenario/queue-stats.h"

#include "helper/topology/port-queues.h"

#include <sstream>

namespace ns3
{

namespace
{

void
Peak(uint32_t* peak, uint32_t, uint32_t now)
{
    *peak = std::max(*peak, now);
}

/** The port's PFC counters, of its (one) lossless priority. */
QueueResult::Pfc
PfcOf(const PfcPort& port)
{
    const uint8_t lossless = std::min<uint8_t>(port.FirstLossless(), pfc::kPriorities - 1);
    QueueResult::Pfc r;
    r.xoffSent = port.GetXoffSent();
    r.xonSent = port.GetXonSent();
    r.pausesReceived = port.GetPausesReceived();
    r.pausedTime = port.GetQueueDisc()->GetPausedTime(lossless);
    r.peakIngress = port.GetPeakIngress(lossless);
    r.xoff = port.GetXoff();
    r.headroom = port.GetHeadroom();
    return r;
}

std::string
LimitText(const QueueSize& q)
{
    if (IsUnlimited(q))
    {
        return "unlimited";
    }
    std::ostringstream os;
    os << q;
    return os.str();
}

} // namespace

QueueCounters::QueueCounters(const BuiltTopology& topo)
{
    for (const BuiltLink& l : topo.links)
    {
        Follow(l.a, l.b, topo.graph[l.vertexA].IsHost(), l.devA, l.queuesA, l.pfcA);
        Follow(l.b, l.a, topo.graph[l.vertexB].IsHost(), l.devB, l.queuesB, l.pfcB);
    }
}

void
QueueCounters::Follow(const std::string& node, const std::string& peer, bool host, Ptr<PointToPointNetDevice> dev,
                      const PortQueueSpec& spec, Ptr<PfcPort> pfc)
{
    Port& p = m_ports.emplace_back();
    p.pfc = pfc;
    p.row.node = node;
    p.row.peer = peer;
    p.row.role = host ? "host-nic" : "switch-port";
    p.row.kind = ToString(spec.disc.kind);
    p.row.limit = LimitText(spec.queue);
    p.device = dev->GetQueue();
    p.disc = RootQueueDisc(dev);
    p.device->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&Peak, &p.row.devicePeakPackets));
    if (p.disc)
    {
        p.disc->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&Peak, &p.row.peakPackets));
        p.disc->TraceConnectWithoutContext("BytesInQueue", MakeBoundCallback(&Peak, &p.row.peakBytes));
    }
    else
    {
        p.device->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&Peak, &p.row.peakPackets));
        p.device->TraceConnectWithoutContext("BytesInQueue", MakeBoundCallback(&Peak, &p.row.peakBytes));
    }
}

std::vector<QueueResult>
QueueCounters::Collect() const
{
    std::vector<QueueResult> out;
    for (const Port& p : m_ports)
    {
        QueueResult r = p.row;
        r.deviceEnqueued = p.device->GetTotalReceivedPackets() - p.device->GetTotalDroppedPacketsBeforeEnqueue();
        r.deviceDropped = p.device->GetTotalDroppedPackets();
        if (p.disc)
        {
            const QueueDisc::Stats& s = p.disc->GetStats();
            r.enqueued = s.nTotalEnqueuedPackets;
            r.dequeued = s.nTotalDequeuedPackets;
            r.dropped = s.nTotalDroppedPackets + r.deviceDropped;
            r.marked = s.nTotalMarkedPackets;
            for (const auto& [reason, n] : s.nDroppedPacketsBeforeEnqueue)
            {
                r.dropReasons[reason] += n;
            }
            for (const auto& [reason, n] : s.nDroppedPacketsAfterDequeue)
            {
                r.dropReasons[reason] += n;
            }
            for (const auto& [reason, n] : s.nMarkedPackets)
            {
                r.markReasons[reason] += n;
            }
        }
        else
        {
            r.enqueued = r.deviceEnqueued;
            r.dequeued = p.device->GetTotalReceivedPackets() - p.device->GetTotalDroppedPackets() - p.device->GetNPackets();
            r.dropped = r.deviceDropped;
        }
        if (r.deviceDropped > 0)
        {
            r.dropReasons["Device queue full"] += r.deviceDropped;
        }
        if (p.pfc)
        {
            r.pfc = PfcOf(*p.pfc);
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::string
QueuesCsv(const std::vector<QueueResult>& queues)
{
    std::ostringstream os;
    os << "node,peer,role,kind,limit,enqueued,dequeued,dropped,marked,peak_packets,peak_bytes,"
          "device_enqueued,device_dropped,device_peak_packets,pfc_xoff_sent,pfc_xon_sent,pfc_pauses_received,"
          "pfc_paused_ns,pfc_peak_ingress_bytes,pfc_xoff_bytes,pfc_headroom_bytes\n";
    for (const QueueResult& q : queues)
    {
        os << q.node << "," << q.peer << "," << q.role << "," << q.kind << "," << q.limit << "," << q.enqueued << ","
           << q.dequeued << "," << q.dropped << "," << q.marked << "," << q.peakPackets << "," << q.peakBytes << ","
           << q.deviceEnqueued << "," << q.deviceDropped << "," << q.devicePeakPackets;
        if (q.pfc)
        {
            os << "," << q.pfc->xoffSent << "," << q.pfc->xonSent << "," << q.pfc->pausesReceived << ","
               << q.pfc->pausedTime.GetNanoSeconds() << "," << q.pfc->peakIngress << "," << q.pfc->xoff << ","
               << q.pfc->headroom;
        }
        else
        {
            os << ",,,,,,,"; // no PFC on the port
        }
        os << "\n";
    }
    return os.str();
}

} // namespace ns3
