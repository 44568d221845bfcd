/*
 * The time series of a run (`tracing.series`, doc/metrics.md "Time series"): a periodic event
 * samples each flow's data sender (congestion window, smoothed RTT; TCP and SCTP alike; an SCTP
 * sender's data path and HEARTBEATs sent) and each
 * chosen link direction's queue, every interval up to the stop; each flow's goodput is worked out
 * afterwards from the sink's message records, on the same time grid.  Written as series.csv:
 * `time_ns,subject,quantity,value,unit`, one row per sample, subject and quantity.
 *
 *   SeriesRecorder series(PlanSeries(cfg));
 *   series.SetDevice(0, dev);                 // each link direction of the plan
 *   series.SetSender(0, socket);              // each flow, as its connection is established
 *   series.Start();                           // before Simulator::Run: schedules the samples
 *   Simulator::Run();
 *   series.Finish();                          // the last sample, at the stop
 *   series.SetDeliveries(0, records);         // each flow's goodput
 *   series.WriteCsv(folder + "/series.csv");
 *
 * Nothing is scheduled unless Start is called: a run without `tracing.series` pays nothing.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SERIES_RECORDER_H
#define IWARP_SCENARIO_SERIES_RECORDER_H

#include "helper/scenario/results-writer.h"
#include "helper/scenario/series-plan.h"

#include "ns3/point-to-point-net-device.h"
#include "ns3/socket.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class BuiltTopology;
class ScenarioWorkloads;

class SeriesRecorder
{
  public:
    /** One column of series.csv's rows: a subject's quantity at every sample (NaN: no value then). */
    struct Series
    {
        std::string subject;  ///< "<workload>/<initiator>" or "<from>-><to>"
        std::string quantity; ///< goodput, cwnd, rtt, data_path, heartbeats, queue_packets, queue_octets, paused
        std::string unit;     ///< bps, octets, ns, path, chunks, packets, fraction
        std::vector<double> values;
    };

    explicit SeriesRecorder(SeriesPlan plan);

    /** From now on flow `flow`'s data leaves through `socket` (TCP or SCTP); a ping-pong opens one per size. */
    void SetSender(std::size_t flow, Ptr<Socket> socket);
    /** Link direction `direction` queues in `device` (and in its root queue disc, if one is installed). */
    void SetDevice(std::size_t direction, Ptr<PointToPointNetDevice> device);
    /** Schedule the samples before the stop; call before Simulator::Run. */
    void Start();
    /** Take the last sample, at the stop: call after Simulator::Run returns. */
    void Finish();
    /** Flow `flow`'s goodput in each interval, from its records (doc/metrics.md); after Finish. */
    void SetDeliveries(std::size_t flow, const std::vector<MessageRecord>& records);
    /** Write series.csv (rows by time, then in plan order); throws ResultsError when it cannot. */
    void WriteCsv(const std::string& path) const;

    const SeriesPlan& Plan() const { return m_plan; }
    const std::vector<Series>& GetSeries() const { return m_series; }
    /** When each sample was taken so far. */
    const std::vector<Time>& SampleTimes() const { return m_times; }

  private:
    void Sample();
    /** Direction `d`'s share of the interval ending at sample `k` spent paused (with PFC). */
    void SamplePaused(std::size_t d, std::size_t k);
    /** The series index of each flow's quantities (SIZE_MAX: not sampled). */
    struct FlowColumns
    {
        std::size_t goodput{SIZE_MAX};
        std::size_t cwnd{SIZE_MAX};
        std::size_t rtt{SIZE_MAX};
        std::size_t dataPath{SIZE_MAX};
        std::size_t heartbeats{SIZE_MAX};
    };
    std::size_t AddSeries(const std::string& subject, const char* quantity, const char* unit);

    SeriesPlan m_plan;
    std::vector<Series> m_series;
    std::vector<FlowColumns> m_flowColumns;
    std::vector<std::size_t> m_queueColumn; ///< per direction: its packets series; octets is the next one
    std::vector<Ptr<Socket>> m_senders;     ///< per flow; null until its connection is established
    std::vector<Ptr<PointToPointNetDevice>> m_devices;
    std::vector<Time> m_pausedBefore; ///< per direction: its paused time at the previous sample
    std::vector<Time> m_times;
};

/**
 * The recorder of a scenario's `tracing.series`: its link directions on the built topology's
 * devices, its flows' senders reported by `workloads` as they connect; started.
 */
std::unique_ptr<SeriesRecorder> StartScenarioSeries(const ScenarioConfig& cfg,
                                                    const BuiltTopology& topo,
                                                    ScenarioWorkloads& workloads);

/**
 * After the run: the last sample, every flow's goodput, and series.csv written into `folder`.
 * Returns the file's name there (RunResult::seriesFile).
 */
std::string FinishScenarioSeries(SeriesRecorder& series, const ScenarioWorkloads& workloads, const std::string& folder);

} // namespace ns3

#endif // IWARP_SCENARIO_SERIES_RECORDER_H
