/*
 * HyStart++ (RFC 9406); see tcp-hystart-pp.h.
 */
#include "tcp/tcp-hystart-pp.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HyStartPlusPlus");

void
HyStartPlusPlus::SetParams(const Params& p)
{
    m_params = p;
}

const HyStartPlusPlus::Params&
HyStartPlusPlus::GetParams() const
{
    return m_params;
}

void
HyStartPlusPlus::Reset()
{
    m_phase = Phase::SlowStart;
    m_inRound = false;
    m_lastRoundMinRtt = Time::Max();
    m_currentRoundMinRtt = Time::Max();
    m_rttSampleCount = 0;
    m_cssBaselineMinRtt = Time::Max();
    m_cssRoundsDone = 0;
}

void
HyStartPlusPlus::Stop()
{
    m_phase = Phase::Done;
}

void
HyStartPlusPlus::StartRound(SequenceNumber32 sndNxt)
{
    m_lastRoundMinRtt = m_currentRoundMinRtt;
    m_currentRoundMinRtt = Time::Max();
    m_rttSampleCount = 0;
    m_windowEnd = sndNxt;
    m_inRound = true;
}

HyStartPlusPlus::Verdict
HyStartPlusPlus::OnAck(SequenceNumber32 ack, SequenceNumber32 sndNxt, Time rtt)
{
    if (m_phase == Phase::Done)
    {
        return Verdict::Continue;
    }
    if (!m_inRound || ack >= m_windowEnd)
    {
        // The round that just ended counts for CSS if CSS was on during it (the entry round included).
        if (m_inRound && m_phase == Phase::Css && ++m_cssRoundsDone >= m_params.cssRounds)
        {
            NS_LOG_INFO("CSS ran " << m_cssRoundsDone << " rounds: congestion avoidance");
            m_phase = Phase::Done;
            return Verdict::EnterCongestionAvoidance;
        }
        StartRound(sndNxt);
    }
    if (rtt.IsStrictlyPositive())
    {
        m_currentRoundMinRtt = std::min(m_currentRoundMinRtt, rtt);
        ++m_rttSampleCount;
    }
    bool valid = m_rttSampleCount >= m_params.nRttSample && m_currentRoundMinRtt != Time::Max() &&
                 m_lastRoundMinRtt != Time::Max();
    if (!valid)
    {
        return Verdict::Continue;
    }
    if (m_phase == Phase::SlowStart)
    {
        Time thresh = std::max(m_params.minRttThresh,
                               std::min(m_lastRoundMinRtt / int64_t(m_params.minRttDivisor), m_params.maxRttThresh));
        if (m_currentRoundMinRtt >= m_lastRoundMinRtt + thresh)
        {
            NS_LOG_INFO("round min RTT " << m_currentRoundMinRtt.As(Time::US) << " >= last "
                                         << m_lastRoundMinRtt.As(Time::US) << " + " << thresh.As(Time::US)
                                         << ": CSS");
            m_cssBaselineMinRtt = m_currentRoundMinRtt;
            m_cssRoundsDone = 0;
            m_phase = Phase::Css;
        }
    }
    else if (m_currentRoundMinRtt < m_cssBaselineMinRtt)
    {
        // The delay increase was spurious: back to standard slow start (RFC 9406 §4.2).
        NS_LOG_INFO("round min RTT " << m_currentRoundMinRtt.As(Time::US) << " below CSS baseline: slow start");
        m_cssBaselineMinRtt = Time::Max();
        m_phase = Phase::SlowStart;
    }
    return Verdict::Continue;
}

double
HyStartPlusPlus::Growth(double segmentsAcked, bool paced) const
{
    double n = paced ? segmentsAcked : std::min(segmentsAcked, double(m_params.limit));
    return m_phase == Phase::Css ? n / m_params.cssGrowthDivisor : n;
}

HyStartPlusPlus::Phase
HyStartPlusPlus::GetPhase() const
{
    return m_phase;
}

Time
HyStartPlusPlus::GetCssBaselineMinRtt() const
{
    return m_cssBaselineMinRtt;
}

uint32_t
HyStartPlusPlus::GetCssRoundsDone() const
{
    return m_cssRoundsDone;
}

std::ostream&
operator<<(std::ostream& os, HyStartPlusPlus::Phase p)
{
    switch (p)
    {
    case HyStartPlusPlus::Phase::SlowStart:
        return os << "SlowStart";
    case HyStartPlusPlus::Phase::Css:
        return os << "Css";
    case HyStartPlusPlus::Phase::Done:
        return os << "Done";
    }
    return os << "Phase(" << static_cast<int>(p) << ")";
}

std::ostream&
operator<<(std::ostream& os, HyStartPlusPlus::Verdict v)
{
    return os << (v == HyStartPlusPlus::Verdict::Continue ? "Continue" : "EnterCongestionAvoidance");
}

} // namespace ns3
