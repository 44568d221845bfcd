/*
 * HyStart++ (RFC 9406): leaves the initial slow start when the round trip starts to grow, before the
 * queue overflows, through a Conservative Slow Start (CSS) that tolerates a false alarm.
 *
 * A plain class, not a TcpCongestionOps: TcpLinuxCubic owns one and asks it, per ACK in slow start, how
 * much cwnd may grow and whether slow start is over. It keeps the per-round RTT minima of RFC 9406 §4.2;
 * a round ends when the cumulative ACK reaches the highest sequence sent when the round began.
 */
/**
 * \file
 * \ingroup iwarp-tcp
 */
#ifndef IWARP_TCP_HYSTART_PP_H
#define IWARP_TCP_HYSTART_PP_H

#include "ns3/nstime.h"
#include "ns3/sequence-number.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

class HyStartPlusPlus
{
  public:
    /** The constants of RFC 9406 §4.3 (defaults are its recommended values). */
    struct Params
    {
        Time minRttThresh{MilliSeconds(4)};  ///< MIN_RTT_THRESH
        Time maxRttThresh{MilliSeconds(16)}; ///< MAX_RTT_THRESH
        uint32_t minRttDivisor{8};           ///< MIN_RTT_DIVISOR
        uint32_t nRttSample{8};              ///< N_RTT_SAMPLE
        uint32_t cssGrowthDivisor{4};        ///< CSS_GROWTH_DIVISOR
        uint32_t cssRounds{5};               ///< CSS_ROUNDS
        uint32_t limit{8};                   ///< L (segments per ACK) for a sender that does not pace
    };

    enum class Phase
    {
        SlowStart, ///< standard slow start, watching the round trip
        Css,       ///< Conservative Slow Start: growth divided by CSS_GROWTH_DIVISOR
        Done,      ///< slow start is over (CSS ran its rounds, or a loss ended it)
    };

    /** What an ACK means for the sender. */
    enum class Verdict
    {
        Continue,      ///< keep slowly starting
        EnterCongestionAvoidance, ///< CSS_ROUNDS rounds of CSS are complete: set ssthresh = cwnd
    };

    void SetParams(const Params& p);
    const Params& GetParams() const;

    /** Start over in standard slow start, with no round and no RTT history (connection start). */
    void Reset();
    /** A congestion event ended slow start: HyStart++ stays out of every later slow start (RFC 9406 §4.2
     *  lets loss end both standard slow start and CSS; the later ones start with a known ssthresh). */
    void Stop();

    /**
     * One ACK in slow start: `ack` is its cumulative acknowledgment, `sndNxt` the next sequence to send
     * (the end of a round that starts now), `rtt` the round-trip sample it produced (zero if none).
     */
    Verdict OnAck(SequenceNumber32 ack, SequenceNumber32 sndNxt, Time rtt);

    /**
     * How many segments cwnd grows by for an ACK of `segmentsAcked` segments in the current phase:
     * min(N, L) in slow start, that divided by CSS_GROWTH_DIVISOR in CSS (RFC 9406 §4.2). `paced` lifts L.
     */
    double Growth(double segmentsAcked, bool paced) const;

    Phase GetPhase() const;
    Time GetCssBaselineMinRtt() const;
    uint32_t GetCssRoundsDone() const;

  private:
    void StartRound(SequenceNumber32 sndNxt);

    Params m_params;
    Phase m_phase{Phase::SlowStart};
    bool m_inRound{false};              ///< a round has been started (windowEnd is meaningful)
    SequenceNumber32 m_windowEnd{0};    ///< windowEnd: the round ends when this is acknowledged
    Time m_lastRoundMinRtt{Time::Max()};    ///< lastRoundMinRTT (Max = infinity)
    Time m_currentRoundMinRtt{Time::Max()}; ///< currentRoundMinRTT
    uint32_t m_rttSampleCount{0};           ///< rttSampleCount
    Time m_cssBaselineMinRtt{Time::Max()};  ///< cssBaselineMinRtt
    uint32_t m_cssRoundsDone{0};            ///< rounds completed in CSS
};

std::ostream& operator<<(std::ostream& os, HyStartPlusPlus::Phase p);
std::ostream& operator<<(std::ostream& os, HyStartPlusPlus::Verdict v);

} // namespace ns3

#endif // IWARP_TCP_HYSTART_PP_H
