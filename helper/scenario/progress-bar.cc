#include "helper/scenario/progress-bar.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace ns3
{

std::string
ProgressEta(double simNowSeconds, double simStopSeconds, double wallSeconds)
{
    if (!(simNowSeconds > 0) || !(wallSeconds > 0))
    {
        return "ETA ?";
    }
    const double left = std::max(simStopSeconds - simNowSeconds, 0.0) * wallSeconds / simNowSeconds;
    std::ostringstream s;
    s << "ETA " << std::fixed;
    if (left < 120)
    {
        s << std::setprecision(0) << left << " s";
    }
    else if (left < 7200)
    {
        s << std::setprecision(1) << left / 60 << " min";
    }
    else
    {
        s << std::setprecision(1) << left / 3600 << " h";
    }
    return s.str();
}

struct ProgressBar::State
{
    using Clock = std::chrono::steady_clock;

    Time stop;
    std::ostream* os{nullptr};
    bool tty{false};
    Options options;
    bool running{false};
    bool finished{false};
    Clock::time_point wallStart;
    Clock::time_point lastReport;
    Clock::time_point lastCheck;
    Time period;
    uint64_t ownEvents{0};  ///< our checks, left out of the rate
    uint64_t eventsAtStart{0};
    uint64_t reports{0};
    bool drawn{false};      ///< a terminal line is on screen and needs a newline at the end

    static double WallSeconds(Clock::duration d)
    {
        return std::chrono::duration<double>(d).count();
    }

    std::string Line() const
    {
        const double wall = WallSeconds(Clock::now() - wallStart);
        const double now = Simulator::Now().GetSeconds();
        const double end = stop.GetSeconds();
        const double fraction = end > 0 ? std::clamp(now / end, 0.0, 1.0) : 1.0;
        const uint64_t events = Simulator::GetEventCount() - eventsAtStart - ownEvents;
        std::ostringstream s;
        if (tty)
        {
            constexpr int kWidth = 30;
            const int filled = int(fraction * kWidth);
            s << '[' << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] ";
        }
        s << std::fixed << std::setprecision(1) << fraction * 100 << "% sim " << std::setprecision(6) << now
          << " s of " << end << " s, " << std::setprecision(0) << (wall > 0 ? double(events) / wall : 0.0)
          << " events/s, wall " << std::setprecision(1) << wall << " s, " << ProgressEta(now, end, wall);
        return s.str();
    }

    void Report()
    {
        if (tty)
        {
            *os << '\r' << Line() << "\x1b[K" << std::flush; // clear what a longer line left
            drawn = true;
        }
        else
        {
            *os << "progress: " << Line() << '\n' << std::flush;
        }
        ++reports;
        lastReport = Clock::now();
    }

    static void Check(const std::shared_ptr<State>& self)
    {
        ++self->ownEvents;
        if (!self->running)
        {
            return;
        }
        const auto now = Clock::now();
        const double wall = WallSeconds(now - self->wallStart);
        const double sinceReport = WallSeconds(now - self->lastReport);
        const double gap = self->tty ? self->options.redrawSeconds : self->options.lineSeconds;
        if (wall >= self->options.quietSeconds && (self->reports == 0 || sinceReport >= gap))
        {
            self->Report();
        }
        // Aim at ~0.1 s of wall time per check: scale the period by how far the last one missed,
        // at most 4x either way per step so that one odd interval does not swing it wildly.
        const double took = std::max(WallSeconds(now - self->lastCheck), 1e-6);
        const double factor = std::clamp(0.1 / took, 0.25, 4.0);
        self->lastCheck = now;
        const Time floor = NanoSeconds(1);
        // At most 1/100 of the run: the last check after the final event overshoots the end by
        // at most that much simulated time.
        const Time ceiling = self->stop.IsStrictlyPositive() ? std::max(self->stop / 100, floor) : Seconds(1);
        self->period = std::clamp(Time::FromDouble(self->period.GetDouble() * factor, Time::GetResolution()),
                                  floor,
                                  ceiling);
        // No other event pending: the simulation is over unless we keep it going, so we do not.
        // Past the stop time there is nothing left to report either (and a run without a Stop
        // event cannot be kept alive by us beyond it).
        if (Simulator::IsFinished() || Simulator::Now() >= self->stop)
        {
            return;
        }
        Simulator::Schedule(self->period, &State::Check, self);
    }
};

ProgressBar::ProgressBar(Time stop)
    : ProgressBar(stop, Options())
{
}

ProgressBar::ProgressBar(Time stop, Options options)
    : ProgressBar(stop, std::cerr, ::isatty(STDERR_FILENO) == 1, options)
{
}

ProgressBar::ProgressBar(Time stop, std::ostream& os, bool tty, Options options)
    : m_state(std::make_shared<State>())
{
    m_state->stop = stop;
    m_state->os = &os;
    m_state->tty = tty;
    m_state->options = options;
}

ProgressBar::~ProgressBar()
{
    // Not Finish(): the simulator may be destroyed by now, and asking it the time would create a
    // new one.  Only end the line a terminal report left open.
    State& s = *m_state;
    s.running = false;
    if (!s.finished && s.drawn)
    {
        *s.os << '\n' << std::flush;
    }
}

void
ProgressBar::Start()
{
    State& s = *m_state;
    s.running = true;
    s.finished = false;
    s.wallStart = s.lastReport = s.lastCheck = State::Clock::now();
    s.eventsAtStart = Simulator::GetEventCount();
    // A first guess of 1/10000 of the run; the adaptation takes over from the first check.
    s.period = std::max(s.stop.IsStrictlyPositive() ? s.stop / 10000 : MicroSeconds(1), Time(NanoSeconds(1)));
    Simulator::Schedule(s.period, &State::Check, m_state);
}

void
ProgressBar::Finish()
{
    State& s = *m_state;
    if (s.finished)
    {
        return;
    }
    s.finished = true;
    // A still pending check sees running == false and ends without rescheduling; cancelling it
    // here instead could touch a simulator that was already destroyed.
    s.running = false;
    if (s.drawn)
    {
        *s.os << '\r' << s.Line() << "\x1b[K\n" << std::flush;
        s.drawn = false;
    }
}

uint64_t
ProgressBar::GetReports() const
{
    return m_state->reports;
}

} // namespace ns3
