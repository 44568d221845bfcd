#include "roce/dcqcn-rate-control.h"

#include "common/class-log-component.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(DcqcnRateControl);
NS_OBJECT_ENSURE_REGISTERED(DcqcnRateControl);

namespace
{
/** Rc this close to the line rate (bit/s) counts as back at it: halving a gap in doubles never closes it. */
constexpr double kRecoveredBps = 1.0;
} // namespace

TypeId
DcqcnRateControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnRateControl")
            .SetParent<Object>()
            .SetGroupName("Iwarp")
            .AddConstructor<DcqcnRateControl>()
            .AddAttribute("G", "Gain of alpha's moving average (Zhu et al. 2015, §3.1 and §5: g = 1/256)",
                          DoubleValue(1.0 / 256), MakeDoubleAccessor(&DcqcnRateControl::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaInterval",
                          "K: with no CNP for this long, alpha decays by (1 - g), again every K (Zhu et al. "
                          "2015, §3.1: 55 us, longer than the CNP interval)",
                          TimeValue(MicroSeconds(55)), MakeTimeAccessor(&DcqcnRateControl::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Timer",
                          "T: the rate increase timer's period (Zhu et al. 2015, §5, from the fluid model: "
                          "55 us)",
                          TimeValue(MicroSeconds(55)), MakeTimeAccessor(&DcqcnRateControl::m_timer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B: octets sent per byte-counter increase (Zhu et al. 2015, §5: 10 MB)",
                          UintegerValue(10000000), MakeUintegerAccessor(&DcqcnRateControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("F", "Fast recovery steps before additive increase (Zhu et al. 2015, §3.1: 5)",
                          UintegerValue(5), MakeUintegerAccessor(&DcqcnRateControl::m_f),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RateAi", "R_AI: additive increase step (Zhu et al. 2015, §5: 40 Mb/s at 40 Gb/s)",
                          DataRateValue(DataRate("40Mb/s")), MakeDataRateAccessor(&DcqcnRateControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI: hyper increase step. The DCQCN paper gives none; 10 R_AI, the ratio of QCN's "
                          "(IEEE 802.1Qau) 5 and 50 Mb/s",
                          DataRateValue(DataRate("400Mb/s")), MakeDataRateAccessor(&DcqcnRateControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "The rate a cut never goes below. The paper gives none; 100 Mb/s is the default of "
                          "the DCQCN simulator HPCC's authors published (RdmaHw::MinRate)",
                          DataRateValue(DataRate("100Mb/s")), MakeDataRateAccessor(&DcqcnRateControl::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("Rate", "The rate changed: (Rc, Rt in bit/s, alpha, what changed it)",
                            MakeTraceSourceAccessor(&DcqcnRateControl::m_rateTrace),
                            "ns3::DcqcnRateControl::RateTracedCallback");
    return tid;
}

DcqcnRateControl::DcqcnRateControl() = default;

void
DcqcnRateControl::DoDispose()
{
    Simulator::Cancel(m_timerEvent);
    Object::DoDispose();
}

void
DcqcnRateControl::Start(DataRate lineRate)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0, "DCQCN needs the port's rate");
    NS_ABORT_MSG_IF(m_minRate > lineRate, "DcqcnRateControl MinRate " << m_minRate << " is above the line rate "
                                                                      << lineRate);
    m_line = m_rc = m_rt = double(lineRate.GetBitRate());
    m_alphaAtCnp = 1.0;
    m_lastCnp = Simulator::Now();
}

double
DcqcnRateControl::GetAlpha() const
{
    if (m_cnps == 0)
    {
        return m_alphaAtCnp; // the K timer runs from the first CNP
    }
    const int64_t periods = (Simulator::Now() - m_lastCnp).GetTimeStep() / m_alphaInterval.GetTimeStep();
    return m_alphaAtCnp * std::pow(1.0 - m_g, double(periods));
}

void
DcqcnRateControl::OnCnp()
{
    NS_ABORT_MSG_IF(m_line == 0, "DcqcnRateControl was not started");
    const double alpha = GetAlpha(); // before counting this CNP: the first finds alpha as Start left it
    ++m_cnps;
    m_rt = m_rc;
    m_rc = std::max(m_rc * (1.0 - alpha / 2.0), double(m_minRate.GetBitRate()));
    m_alphaAtCnp = (1.0 - m_g) * alpha + m_g;
    m_lastCnp = Simulator::Now();
    m_timerStage = m_byteStage = 0;
    m_bytes = 0;
    m_limiting = true;
    Simulator::Cancel(m_timerEvent);
    m_timerEvent = Simulator::Schedule(m_timer, &DcqcnRateControl::OnTimer, this);
    NS_LOG_DEBUG("CNP: Rc " << m_rc << " Rt " << m_rt << " alpha " << m_alphaAtCnp);
    m_rateTrace(m_rc, m_rt, m_alphaAtCnp, CUT);
}

void
DcqcnRateControl::Stop()
{
    m_limiting = false;
    Simulator::Cancel(m_timerEvent);
}

void
DcqcnRateControl::OnSent(uint32_t octets)
{
    if (!m_limiting)
    {
        return;
    }
    m_bytes += octets;
    while (m_limiting && m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        Increase(false);
    }
}

void
DcqcnRateControl::OnTimer()
{
    m_timerEvent = Simulator::Schedule(m_timer, &DcqcnRateControl::OnTimer, this);
    Increase(true);
}

void
DcqcnRateControl::Increase(bool byTimer)
{
    const uint32_t t = m_timerStage;
    const uint32_t b = m_byteStage;
    (byTimer ? m_timerStage : m_byteStage)++;
    Step step = FAST_RECOVERY;
    if (t >= m_f && b >= m_f)
    {
        step = HYPER;
        m_rt += double(std::min(t, b) - m_f + 1) * double(m_rhai.GetBitRate());
    }
    else if (t >= m_f || b >= m_f)
    {
        step = ADDITIVE;
        m_rt += double(m_rai.GetBitRate());
    }
    m_rt = std::min(m_rt, m_line);
    m_rc = (m_rt + m_rc) / 2.0;
    m_rateTrace(m_rc, m_rt, GetAlpha(), step);
    StopIfRecovered();
}

void
DcqcnRateControl::StopIfRecovered()
{
    if (m_rt == m_line && m_line - m_rc < kRecoveredBps)
    {
        m_rc = m_line;
        m_limiting = false;
        Simulator::Cancel(m_timerEvent);
        NS_LOG_DEBUG("back at the line rate");
    }
}

} // namespace ns3
