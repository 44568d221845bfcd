/*
 * The results folder of one run (doc/scenario-format.md, "Results folder"):
 *
 *   <folder>/summary.json   the run and each workload and host, aggregated
 *   <folder>/messages.csv   one row per message, times in integer nanoseconds
 *   <folder>/host.csv       one row per host, its counters
 *   <folder>/scenario.yaml  the scenario as run, overrides applied (when given)
 *   <folder>/pcap/          the pcaps, when tracing asked for them
 *
 * A folder that exists is always complete: everything is written into a hidden sibling
 * ".<name>.tmp-<pid>" and renamed into place at the end with rename(2) (renameat2 with
 * RENAME_NOREPLACE, so that a folder that appeared meanwhile is not replaced either).  A run
 * never overwrites an existing results folder: the constructor refuses with ResultsError before
 * the simulation starts.  A run that fails (an exception, or the writer destroyed before Commit)
 * removes its temporary folder, and the parent folders it created if they are empty: it leaves
 * nothing.
 *
 *   ResultsWriter out("results/incast");          // throws if results/incast exists
 *   pcapHelper.EnablePcap(out.PcapDirectory() + "/link", ...);  // pcaps straight into the temp folder
 *   ... Simulator::Run() ...
 *   out.Write(result);                            // summary.json, messages.csv, host.csv
 *   out.Commit();                                 // the folder appears, complete
 */
#ifndef IWARP_SCENARIO_RESULTS_WRITER_H
#define IWARP_SCENARIO_RESULTS_WRITER_H

#include "helper/scenario/stats.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

class ResultsError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/** One message as the application saw it (RdmapCompletion's firstPlaced/delivered at the sink). */
struct MessageRecord
{
    std::string workload;
    uint64_t id{0};
    std::string op; ///< "write", "send", "read", "sockets"
    uint64_t size{0};
    Time post;                       ///< posted by the initiator
    std::optional<Time> firstPlaced; ///< first octet placed at the data sink
    std::optional<Time> delivered;   ///< delivered to the sink's ULP (last octet placed, in order)
    std::optional<Time> completed;   ///< the initiator's completion
};

struct TerminateRecord
{
    Time time;
    std::string node;
    bool sent{true};   ///< this node sent it (detected the error); false: received it
    std::string layer; ///< "rdmap", "ddp", "llp"
    std::string type;  ///< error type by name ("tagged buffer", ...)
    uint32_t code{0};  ///< error code within the type
};

struct WorkloadResult
{
    std::string name;
    std::string kind;
    uint64_t messages{0};
    uint64_t bytes{0};
    /** Given by the runner; when unset, derived from the messages (see doc). */
    std::optional<double> throughputBps;
    /** Latency samples; when empty, completed - post of the workload's messages. */
    std::vector<Time> latencies;
    uint64_t retransmissions{0};
    std::vector<TerminateRecord> terminates;
};

struct HostResult
{
    std::string node;
    std::vector<Time> cpuBusyPerCore;
    uint64_t busBytes{0};
    /** Further counters by name (copies, DMA transactions, ...), one host.csv column each. */
    std::map<std::string, double> counters;
};

struct RunResult
{
    std::string scenario;
    uint32_t seed{1};
    uint64_t run{1};
    double wallSeconds{0};
    Time simulatedTime; ///< Simulator::Now() at the end
    Time stopTime;      ///< the scenario's stop
    uint64_t events{0}; ///< Simulator::GetEventCount()
    std::vector<WorkloadResult> workloads;
    std::vector<HostResult> hosts;
    std::vector<MessageRecord> messages;
    /** The scenario as run (ScenarioConfig::resolvedYaml): written as scenario.yaml when not empty. */
    std::string scenarioYaml;
    std::vector<std::string> overrides; ///< the --set overrides, listed in summary.json
    /** pcap files to copy into pcap/ (files already inside the temporary folder are left as they are). */
    std::vector<std::string> pcapFiles;
};

class ResultsWriter
{
  public:
    /**
     * Prepare `folder`: refuse (ResultsError) if it exists, create its parent folders and the
     * temporary sibling.
     */
    explicit ResultsWriter(std::string folder);
    /** Removes the temporary folder unless Commit succeeded. */
    ~ResultsWriter();

    ResultsWriter(const ResultsWriter&) = delete;
    ResultsWriter& operator=(const ResultsWriter&) = delete;

    const std::string& FinalPath() const { return m_final; }
    const std::string& TempPath() const { return m_temp; }
    /** TempPath()/pcap, created on the first call. */
    std::string PcapDirectory();

    /** Write summary.json, messages.csv and host.csv, and copy the pcaps, into the temporary folder. */
    void Write(const RunResult& result);
    /** Move the temporary folder to its final name; ResultsError (and cleanup) if that exists now. */
    void Commit();
    /** Remove the temporary folder now (a failed run). */
    void Abandon();

    /** The summary.json document for `result` (also for tests and the Python bindings). */
    static std::string SummaryJson(const RunResult& result);

  private:
    std::string m_final;
    std::string m_temp;
    bool m_committed{false};
    std::vector<std::string> m_createdParents; ///< parent folders the constructor created, deepest first
};

} // namespace ns3

#endif // IWARP_SCENARIO_RESULTS_WRITER_H
