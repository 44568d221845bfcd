/*
 * Linux's HyStart (ACK train and delay increase); see tcp-hystart-linux.h.
 */
#include "tcp/tcp-hystart-linux.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxHyStart");

void
LinuxHyStart::SetParams(const Params& p)
{
    m_params = p;
}

const LinuxHyStart::Params&
LinuxHyStart::GetParams() const
{
    return m_params;
}

void
LinuxHyStart::Reset()
{
    m_done = false;
    m_trigger = Trigger::None;
    m_inRound = false;
    m_roundMinRtt = Time::Max();
    m_samples = 0;
}

void
LinuxHyStart::Stop()
{
    m_done = true;
}

bool
LinuxHyStart::IsDone() const
{
    return m_done;
}

LinuxHyStart::Trigger
LinuxHyStart::GetTrigger() const
{
    return m_trigger;
}

void
LinuxHyStart::StartRound(SequenceNumber32 sndNxt, Time now)
{
    m_inRound = true;
    m_endSeq = sndNxt;
    m_roundStart = now;
    m_lastAck = now;
    m_roundMinRtt = Time::Max();
    m_samples = 0;
}

Time
LinuxHyStart::DelayThreshold(Time minRtt) const
{
    Time share = minRtt / static_cast<int64_t>(m_params.delayDivisor);
    return std::clamp(share, m_params.delayMin, m_params.delayMax);
}

LinuxHyStart::Trigger
LinuxHyStart::OnAck(SequenceNumber32 ack,
                    SequenceNumber32 sndNxt,
                    Time now,
                    Time rtt,
                    Time minRtt,
                    double cwndSegments,
                    bool paced)
{
    // tcp_cubic.c calls hystart_update only below ssthresh, with a sample, and from hystart_low_window up.
    if (m_done || !rtt.IsStrictlyPositive() || cwndSegments < m_params.lowWindow)
    {
        return Trigger::None;
    }
    if (!m_inRound || ack > m_endSeq)
    {
        StartRound(sndNxt, now);
    }
    if (m_params.ackTrain && now - m_lastAck <= m_params.ackDelta)
    {
        m_lastAck = now;
        // Half the minimum RTT for an unpaced sender, whose window leaves in one burst; a paced one spreads
        // it over up to an RTT.
        Time threshold = paced ? minRtt : minRtt / 2;
        if (now - m_roundStart > threshold)
        {
            NS_LOG_INFO("ACK train of " << (now - m_roundStart).As(Time::US) << " past "
                                        << threshold.As(Time::US) << " at cwnd " << cwndSegments);
            m_done = true;
            m_trigger = Trigger::AckTrain;
            return m_trigger;
        }
    }
    if (m_params.delay)
    {
        m_roundMinRtt = std::min(m_roundMinRtt, rtt);
        if (m_samples < m_params.minSamples)
        {
            ++m_samples;
        }
        else if (m_roundMinRtt > minRtt + DelayThreshold(minRtt))
        {
            NS_LOG_INFO("round minimum RTT " << m_roundMinRtt.As(Time::US) << " over "
                                             << minRtt.As(Time::US) << " at cwnd " << cwndSegments);
            m_done = true;
            m_trigger = Trigger::Delay;
            return m_trigger;
        }
    }
    return Trigger::None;
}

std::ostream&
operator<<(std::ostream& os, LinuxHyStart::Trigger t)
{
    switch (t)
    {
    case LinuxHyStart::Trigger::None:
        return os << "None";
    case LinuxHyStart::Trigger::AckTrain:
        return os << "AckTrain";
    case LinuxHyStart::Trigger::Delay:
        return os << "Delay";
    }
    return os << "Trigger(" << static_cast<int>(t) << ")";
}

} // namespace ns3
