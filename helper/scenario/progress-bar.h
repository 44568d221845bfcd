/*
 * A progress report for long runs: simulated time against the stop time, events per second of
 * wall time and the wall time still to go, on stderr.
 *
 *   ProgressBar progress(cfg.stop);   // before Simulator::Run
 *   progress.Start();
 *   Simulator::Run();
 *   progress.Finish();                // before Simulator::Destroy
 *
 * Nothing is drawn during the first second of wall time (short runs stay quiet).  On a terminal
 * one line is redrawn in place a few times a second; otherwise (a log file, CI) a plain line is
 * printed every `LineInterval` seconds.
 *
 * It works through a periodic event whose simulated period adapts to aim at one check every
 * ~0.1 s of wall time.  The event never keeps a simulation alive: when it finds no other event
 * pending it does not schedule itself again, so a run that ends before the stop time still ends
 * where it would without the bar.  Its own events are left out of the events per second.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_PROGRESS_BAR_H
#define IWARP_SCENARIO_PROGRESS_BAR_H

#include "ns3/nstime.h"

#include <chrono>
#include <iosfwd>
#include <memory>
#include <string>

namespace ns3
{

/**
 * "ETA 42 s" (or "ETA 7.5 min", "ETA 2.3 h"): the wall time left if the rest of the run goes at the
 * simulated seconds per wall second seen so far; "ETA ?" before simulated time has moved.
 */
std::string ProgressEta(double simNowSeconds, double simStopSeconds, double wallSeconds);

class ProgressBar
{
  public:
    struct Options
    {
        double quietSeconds{1.0};  ///< wall time before the first report
        double redrawSeconds{0.2}; ///< terminal: least wall time between redraws
        double lineSeconds{10.0};  ///< not a terminal: wall time between lines
    };

    /** Reports on stderr; a terminal or not as isatty(2) says. */
    explicit ProgressBar(Time stop);
    ProgressBar(Time stop, Options options);
    /** Reports on `os`, which is a terminal when `tty` (for tests). */
    ProgressBar(Time stop, std::ostream& os, bool tty, Options options);
    ~ProgressBar();

    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    /** Schedule the first check (call before Simulator::Run). */
    void Start();
    /**
     * Stop reporting; on a terminal, finish the redrawn line with the final state.  Call it before
     * Simulator::Destroy; the destructor only stops the reports.
     */
    void Finish();

    /** Reports written so far (lines, or redraws on a terminal). */
    uint64_t GetReports() const;

  private:
    struct State;
    std::shared_ptr<State> m_state; ///< shared with the scheduled event, which may outlive us
};

} // namespace ns3

#endif // IWARP_SCENARIO_PROGRESS_BAR_H
