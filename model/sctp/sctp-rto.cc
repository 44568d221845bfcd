/*
 * RTO estimator, RFC 9260 §6.3.1; see sctp-rto.h.
 */
#include "sctp/sctp-rto.h"

#include <cmath>

namespace ns3
{

SctpRtoEstimator::SctpRtoEstimator(const Params& p)
{
    Reset(p);
}

void
SctpRtoEstimator::Reset(const Params& p)
{
    m_p = p;
    m_srtt = Time(0);
    m_rttvar = Time(0);
    m_rto = Clamp(p.initial);
    m_measured = false;
}

Time
SctpRtoEstimator::Clamp(Time t) const
{
    if (t < m_p.min)
    {
        return m_p.min;
    }
    if (t > m_p.max)
    {
        return m_p.max;
    }
    return t;
}

void
SctpRtoEstimator::Measure(Time r)
{
    if (!m_measured)
    {
        m_srtt = r;
        m_rttvar = r / 2;
        m_measured = true;
    }
    else
    {
        // In integer nanoseconds: a negative ns3::Time converted to double trips UBSan inside ns-3's
        // int64x64 (left shift of a negative value), and SRTT - R is negative whenever R grows.
        const double srtt = double(m_srtt.GetNanoSeconds());
        const double rtt = double(r.GetNanoSeconds());
        const double diff = std::fabs(srtt - rtt);
        m_rttvar = NanoSeconds(int64_t((1 - m_p.beta) * double(m_rttvar.GetNanoSeconds()) + m_p.beta * diff));
        m_srtt = NanoSeconds(int64_t((1 - m_p.alpha) * srtt + m_p.alpha * rtt));
    }
    // RFC 9260 G: if RTTVAR computes to zero, use the clock granularity; ns-3's clock is exact, so a
    // nanosecond stands in for it.
    Time var4 = m_rttvar * 4;
    if (var4.IsZero())
    {
        var4 = NanoSeconds(1);
    }
    m_rto = Clamp(m_srtt + var4);
}

void
SctpRtoEstimator::BackOff()
{
    m_rto = Clamp(m_rto * 2);
}

} // namespace ns3
