#include "helper/scenario/series-recorder.h"

#include "helper/scenario/scenario-workloads.h"
#include "helper/scenario/workload-metrics.h"
#include "helper/topology/topology-builder.h"

#include "sctp/sctp-socket.h"

#include "net/pfc-port.h"

#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traffic-control-layer.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>

namespace ns3
{

namespace
{

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

/**
 * A TCP socket's congestion state, the TcpSocketState its CongestionWindow and RTT traces carry.
 * ns-3 3.37 keeps it protected without a getter, and a trace connected when the connection is
 * established (for RDMA: after the MPA exchange, whose ACKs have moved the window) would not know
 * the value until it next changes; so the sampler reads the same variables directly. A pointer to
 * a protected member formed through a derived class is the lawful way to them (never instantiated).
 */
class TcpStateReader : public TcpSocketBase
{
  public:
    static const TcpSocketState& Of(const TcpSocketBase& s) { return *(s.*(&TcpStateReader::m_tcb)); }
};

/** The sender's window in octets and its smoothed RTT in ns (NaN before the first estimate). */
std::pair<double, double>
SenderState(const Ptr<Socket>& socket)
{
    if (Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket))
    {
        const TcpSocketState& tcb = TcpStateReader::Of(*tcp);
        // ns-3 sets the RTT trace's value to its estimator's smoothed RTT (RFC 6298's SRTT).
        const Time srtt = tcb.m_lastRtt.Get();
        return {double(tcb.m_cWnd.Get()), srtt.IsStrictlyPositive() ? double(srtt.GetNanoSeconds()) : kNone};
    }
    if (Ptr<SctpSocket> sctp = DynamicCast<SctpSocket>(socket))
    {
        const Time srtt = sctp->GetSrtt(); // RFC 9260 6.3.1, the Rtt trace's value
        return {double(sctp->GetCwnd()), srtt.IsStrictlyPositive() ? double(srtt.GetNanoSeconds()) : kNone};
    }
    return {kNone, kNone};
}

/**
 * An SCTP sender's data path (its index: 0 is the primary, RFC 9260 §6.4) and the HEARTBEATs it has sent to
 * all its paths so far (§8.3); NaN for a TCP sender, which has one path and no heartbeats.
 */
std::pair<double, double>
PathState(const Ptr<Socket>& socket)
{
    Ptr<SctpSocket> sctp = DynamicCast<SctpSocket>(socket);
    if (!sctp)
    {
        return {kNone, kNone};
    }
    double dataPath = kNone;
    uint64_t heartbeats = 0;
    for (std::size_t p = 0; p < sctp->GetPathCount(); ++p)
    {
        const SctpPathInfo info = sctp->GetPathInfo(p);
        dataPath = info.dataPath ? double(p) : dataPath;
        heartbeats += info.counters.heartbeats;
    }
    return {dataPath, double(heartbeats)};
}

/** Shortest text that reads back as `v` (integers without a decimal point). */
std::string
NumberText(double v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
}

} // namespace

SeriesRecorder::SeriesRecorder(SeriesPlan plan)
    : m_plan(std::move(plan))
{
    for (const SeriesFlowPlan& f : m_plan.flows)
    {
        FlowColumns c;
        c.goodput = f.goodput ? AddSeries(f.subject, "goodput", "bps") : SIZE_MAX;
        c.cwnd = f.cwnd ? AddSeries(f.subject, "cwnd", "octets") : SIZE_MAX;
        c.rtt = f.rtt ? AddSeries(f.subject, "rtt", "ns") : SIZE_MAX;
        c.dataPath = f.paths ? AddSeries(f.subject, "data_path", "path") : SIZE_MAX;
        c.heartbeats = f.paths ? AddSeries(f.subject, "heartbeats", "chunks") : SIZE_MAX;
        m_flowColumns.push_back(c);
    }
    for (const SeriesLinkPlan& d : m_plan.directions)
    {
        m_queueColumn.push_back(AddSeries(d.subject, "queue_packets", "packets"));
        AddSeries(d.subject, "queue_octets", "octets");
        if (m_plan.pfc)
        {
            AddSeries(d.subject, "paused", "fraction");
        }
    }
    m_pausedBefore.resize(m_plan.directions.size());
    m_senders.resize(m_plan.flows.size());
    m_devices.resize(m_plan.directions.size());
}

std::size_t
SeriesRecorder::AddSeries(const std::string& subject, const char* quantity, const char* unit)
{
    m_series.push_back(Series{subject, quantity, unit, std::vector<double>(m_plan.Samples(), kNone)});
    return m_series.size() - 1;
}

void
SeriesRecorder::SetSender(std::size_t flow, Ptr<Socket> socket)
{
    m_senders.at(flow) = socket;
}

void
SeriesRecorder::SetDevice(std::size_t direction, Ptr<PointToPointNetDevice> device)
{
    m_devices.at(direction) = device;
}

void
SeriesRecorder::Start()
{
    // The samples before the stop; the one at the stop is Finish's (an event at the stop time would
    // come after the simulator's Stop event and never run).
    const Time first = m_plan.SampleTime(0);
    if (first < m_plan.stop)
    {
        Simulator::Schedule(first - Simulator::Now(), &SeriesRecorder::Sample, this);
    }
}

void
SeriesRecorder::Finish()
{
    if (m_times.size() < m_plan.Samples() && (m_times.empty() || Simulator::Now() > m_times.back()))
    {
        Sample();
    }
}

void
SeriesRecorder::Sample()
{
    const std::size_t k = m_times.size();
    m_times.push_back(Simulator::Now());
    for (std::size_t f = 0; f < m_senders.size(); ++f)
    {
        if (!m_senders[f])
        {
            continue; // not connected yet: no window, no RTT
        }
        const auto [cwnd, rtt] = SenderState(m_senders[f]);
        const FlowColumns& c = m_flowColumns[f];
        if (c.cwnd != SIZE_MAX)
        {
            m_series[c.cwnd].values[k] = cwnd;
        }
        if (c.rtt != SIZE_MAX)
        {
            m_series[c.rtt].values[k] = rtt;
        }
        if (c.dataPath != SIZE_MAX)
        {
            const auto [dataPath, heartbeats] = PathState(m_senders[f]);
            m_series[c.dataPath].values[k] = dataPath;
            m_series[c.heartbeats].values[k] = heartbeats;
        }
    }
    for (std::size_t d = 0; d < m_devices.size(); ++d)
    {
        const Ptr<PointToPointNetDevice>& dev = m_devices[d];
        if (!dev)
        {
            continue;
        }
        // What waits to leave: the device queue, and the queue disc in front of it where there is one.
        Ptr<Queue<Packet>> q = dev->GetQueue();
        uint64_t packets = q->GetNPackets();
        uint64_t octets = q->GetNBytes();
        Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
        if (Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr)
        {
            packets += disc->GetNPackets();
            octets += disc->GetNBytes();
        }
        m_series[m_queueColumn[d]].values[k] = double(packets);
        m_series[m_queueColumn[d] + 1].values[k] = double(octets);
        if (m_plan.pfc)
        {
            SamplePaused(d, k);
        }
    }
    const Time next = m_plan.SampleTime(m_times.size());
    if (next < m_plan.stop)
    {
        Simulator::Schedule(next - Simulator::Now(), &SeriesRecorder::Sample, this);
    }
}

void
SeriesRecorder::SamplePaused(std::size_t d, std::size_t k)
{
    // The share of the interval the direction's lossless priority could not leave: its peer's PAUSE.
    Ptr<PfcNode> node = m_devices[d]->GetNode()->GetObject<PfcNode>();
    Ptr<PfcPort> port = node ? node->GetPort(m_devices[d]->GetIfIndex()) : nullptr;
    if (!port || port->FirstLossless() >= pfc::kPriorities)
    {
        return;
    }
    const Time paused = port->GetQueueDisc()->GetPausedTime(port->FirstLossless());
    const Time interval = m_times[k] - (k == 0 ? Time(0) : m_times[k - 1]);
    if (interval.IsStrictlyPositive())
    {
        m_series[m_queueColumn[d] + 2].values[k] = (paused - m_pausedBefore[d]).GetSeconds() / interval.GetSeconds();
    }
    m_pausedBefore[d] = paused;
}

void
SeriesRecorder::SetDeliveries(std::size_t flow, const std::vector<MessageRecord>& records)
{
    const std::size_t column = m_flowColumns.at(flow).goodput;
    if (column == SIZE_MAX)
    {
        return;
    }
    const std::vector<double> octets = OctetsPerInterval(records, m_times);
    for (std::size_t k = 0; k < m_times.size(); ++k)
    {
        const Time length = m_times[k] - (k == 0 ? Time(0) : m_times[k - 1]);
        m_series[column].values[k] = octets[k] * 8.0 / length.GetSeconds();
    }
}

void
SeriesRecorder::WriteCsv(const std::string& path) const
{
    std::ofstream out(path, std::ios::binary);
    out << "time_ns,subject,quantity,value,unit\n";
    std::vector<std::string> keys; // "subject,quantity," of each series, quoted once
    for (const Series& s : m_series)
    {
        keys.push_back(CsvField(s.subject) + "," + s.quantity + ",");
    }
    for (std::size_t k = 0; k < m_times.size(); ++k)
    {
        const std::string time = std::to_string(m_times[k].GetNanoSeconds()) + ",";
        for (std::size_t i = 0; i < m_series.size(); ++i)
        {
            const double v = m_series[i].values[k];
            if (!std::isnan(v))
            {
                out << time << keys[i] << NumberText(v) << ',' << m_series[i].unit << '\n';
            }
        }
    }
    out.close();
    if (!out)
    {
        throw ResultsError("cannot write " + path);
    }
}

// ------------------------------------------------------------------------------- in a scenario

std::unique_ptr<SeriesRecorder>
StartScenarioSeries(const ScenarioConfig& cfg, const BuiltTopology& topo, ScenarioWorkloads& workloads)
{
    auto series = std::make_unique<SeriesRecorder>(PlanSeries(cfg));
    const SeriesPlan& plan = series->Plan();
    for (std::size_t d = 0; d < plan.directions.size(); ++d)
    {
        const SeriesLinkPlan& p = plan.directions[d];
        const BuiltLink& link = topo.links.at(topo.FindLinks(p.from, p.to).at(p.parallel));
        series->SetDevice(d, link.a == p.from ? link.devA : link.devB);
    }
    std::map<std::pair<std::size_t, std::string>, std::size_t> flowIndex;
    for (std::size_t f = 0; f < plan.flows.size(); ++f)
    {
        flowIndex[{plan.flows[f].workload, plan.flows[f].initiator}] = f;
    }
    workloads.SetSenderSocketCallback(
        [s = series.get(), flowIndex](std::size_t workload, const std::string& initiator, Ptr<Socket> socket) {
            auto it = flowIndex.find({workload, initiator});
            if (it != flowIndex.end())
            {
                s->SetSender(it->second, socket);
            }
        });
    series->Start();
    return series;
}

std::string
FinishScenarioSeries(SeriesRecorder& series, const ScenarioWorkloads& workloads, const std::string& folder)
{
    series.Finish();
    const SeriesPlan& plan = series.Plan();
    for (std::size_t f = 0; f < plan.flows.size(); ++f)
    {
        series.SetDeliveries(f, workloads.FlowRecords(plan.flows[f].workload, plan.flows[f].initiator));
    }
    const std::string name = "series.csv";
    series.WriteCsv(folder + "/" + name);
    return name;
}

} // namespace ns3
