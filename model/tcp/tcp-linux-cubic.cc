/*
 * TcpLinuxCubic: RFC 9438 CUBIC with its Reno-friendly region, fast convergence and HyStart (Linux's, or
 * HyStart++); see
 * tcp-linux-cubic.h and doc/tcp-congestion.md. Section numbers below are RFC 9438's unless named.
 */
#include "tcp/tcp-linux-cubic.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpLinuxCubic");
NS_OBJECT_ENSURE_REGISTERED(TcpLinuxCubic);

namespace
{
// Smallest and largest doubles strictly inside (0, 1): DoubleChecker bounds are inclusive, and 0 and 1 are
// not meaningful for beta_cubic (a window of nothing, or no reduction at all). constexpr, because
// NS_OBJECT_ENSURE_REGISTERED builds the TypeId during static initialisation.
constexpr double kAboveZero = std::numeric_limits<double>::denorm_min();
constexpr double kBelowOne = 1.0 - std::numeric_limits<double>::epsilon() / 2;
} // namespace

TypeId
TcpLinuxCubic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpLinuxCubic")
            .SetParent<TcpCongestionOps>()
            .SetGroupName("Iwarp")
            .AddConstructor<TcpLinuxCubic>()
            .AddAttribute("C",
                          "C of RFC 9438 §4.2 (segments/s^3), the scale of W_cubic(t) = C (t - K)^3 + W_max; "
                          "§5 recommends 0.4, as Linux uses",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&TcpLinuxCubic::m_c),
                          MakeDoubleChecker<double>(kAboveZero))
            .AddAttribute("Beta",
                          "beta_cubic of RFC 9438 §4.6, the multiplicative decrease factor (0 < beta < 1); "
                          "the RFC says 0.7, as Linux uses. alpha_cubic of §4.3 follows from it",
                          DoubleValue(0.7),
                          MakeDoubleAccessor(&TcpLinuxCubic::m_beta),
                          MakeDoubleChecker<double>(kAboveZero, kBelowOne))
            .AddAttribute("FastConvergence",
                          "RFC 9438 §4.7: a loss below the previous W_max lowers W_max to cwnd (1 + beta) / 2 "
                          "to make room for new flows (on in Linux)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpLinuxCubic::m_fastConvergence),
                          MakeBooleanChecker())
            .AddAttribute("RenoFriendly",
                          "RFC 9438 §4.3: cwnd follows the Reno estimate W_est wherever W_cubic(t) is below "
                          "it (on in Linux as tcp_friendliness); off only to reproduce a CUBIC without it, "
                          "such as ns-3 3.37's TcpCubic",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpLinuxCubic::m_renoFriendly),
                          MakeBooleanChecker())
            .AddAttribute("TargetCap",
                          "RFC 9438 §4.2: the target W_cubic(t + RTT) is limited to [cwnd, TargetCap x cwnd]; "
                          "the RFC says 1.5",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&TcpLinuxCubic::m_targetCap),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("MinSsThresh",
                          "Lower bound of ssthresh after a reduction, in segments: 2 in RFC 9438 §4.6 and "
                          "RFC 5681 (3.1), and in Linux",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_minSsThreshSegments),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HyStart",
                          "Leave slow start before the queue overflows, by HyStartVariant; RFC 9438 §4.10 "
                          "recommends it and Linux runs it by default (tcp_cubic.c's hystart = 1)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpLinuxCubic::m_hyStart),
                          MakeBooleanChecker())
            .AddAttribute("HyStartVariant",
                          "Linux: Linux's HyStart (tcp_cubic.c: ACK train and delay increase, again after "
                          "every timeout); RFC9406: HyStart++ with Conservative Slow Start, in the first slow "
                          "start only",
                          EnumValue(HYSTART_LINUX),
                          MakeEnumAccessor(&TcpLinuxCubic::m_hyStartVariant),
                          MakeEnumChecker(HYSTART_LINUX, "Linux", HYSTART_RFC9406, "RFC9406"))
            .AddAttribute("HyStartAckTrain",
                          "Linux variant: the ACK-train test (HYSTART_ACK_TRAIN, on in Linux)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpLinuxCubic::m_hsAckTrain),
                          MakeBooleanChecker())
            .AddAttribute("HyStartDelay",
                          "Linux variant: the delay-increase test (HYSTART_DELAY, on in Linux)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpLinuxCubic::m_hsDelay),
                          MakeBooleanChecker())
            .AddAttribute("HyStartAckDelta",
                          "Linux variant: the largest gap between two ACKs of one train (hystart_ack_delta_us, "
                          "2 ms in Linux)",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&TcpLinuxCubic::m_hsAckDelta),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HyStartLowWindow",
                          "Linux variant: no test while cwnd is below this many segments (hystart_low_window, "
                          "16 in Linux)",
                          UintegerValue(16),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsLowWindow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HyStartMinRttThresh",
                          "MIN_RTT_THRESH of RFC 9406 §4.3 (4 ms there); the Linux variant's HYSTART_DELAY_MIN "
                          "(also 4 ms)",
                          TimeValue(MilliSeconds(4)),
                          MakeTimeAccessor(&TcpLinuxCubic::m_hsMinRttThresh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HyStartMaxRttThresh",
                          "MAX_RTT_THRESH of RFC 9406 §4.3 (16 ms there), the Linux variant's HYSTART_DELAY_MAX "
                          "(also 16 ms); not below HyStartMinRttThresh",
                          TimeValue(MilliSeconds(16)),
                          MakeTimeAccessor(&TcpLinuxCubic::m_hsMaxRttThresh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HyStartMinRttDivisor",
                          "MIN_RTT_DIVISOR of RFC 9406 §4.3 (8 there); the Linux variant's delay threshold is "
                          "likewise the minimum RTT over 8 (delay_min >> 3)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsMinRttDivisor),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HyStartRttSamples",
                          "N_RTT_SAMPLE of RFC 9406 §4.3 (8 there): RTT samples a round needs before it counts; "
                          "the Linux variant's HYSTART_MIN_SAMPLES (also 8)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsRttSamples),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HyStartCssGrowthDivisor",
                          "CSS_GROWTH_DIVISOR of RFC 9406 §4.3 (4 there)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsCssGrowthDivisor),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HyStartCssRounds",
                          "CSS_ROUNDS of RFC 9406 §4.3 (5 there)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsCssRounds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HyStartLimit",
                          "L of RFC 9406 §4.3 for a sender that does not pace (8 there): segments cwnd may "
                          "grow by per ACK in slow start; no limit when the socket paces",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TcpLinuxCubic::m_hsLimit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("EpochStart",
                            "A congestion-avoidance epoch began: W_max, K (s), cwnd_epoch (segments)",
                            MakeTraceSourceAccessor(&TcpLinuxCubic::m_epochStartTrace),
                            "ns3::TcpLinuxCubic::EpochStartTracedCallback")
            .AddTraceSource("SlowStartExit",
                            "HyStart (either variant) ended slow start without a loss: the ssthresh it set "
                            "(bytes)",
                            MakeTraceSourceAccessor(&TcpLinuxCubic::m_slowStartExitTrace),
                            "ns3::TcpLinuxCubic::SlowStartExitTracedCallback");
    return tid;
}

TcpLinuxCubic::TcpLinuxCubic()
    : TcpCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

TcpLinuxCubic::TcpLinuxCubic(const TcpLinuxCubic& other)
    : TcpCongestionOps(other),
      m_c(other.m_c),
      m_beta(other.m_beta),
      m_fastConvergence(other.m_fastConvergence),
      m_renoFriendly(other.m_renoFriendly),
      m_targetCap(other.m_targetCap),
      m_minSsThreshSegments(other.m_minSsThreshSegments),
      m_hyStart(other.m_hyStart),
      m_hyStartVariant(other.m_hyStartVariant),
      m_hsAckTrain(other.m_hsAckTrain),
      m_hsDelay(other.m_hsDelay),
      m_hsAckDelta(other.m_hsAckDelta),
      m_hsLowWindow(other.m_hsLowWindow),
      m_hsMinRttThresh(other.m_hsMinRttThresh),
      m_hsMaxRttThresh(other.m_hsMaxRttThresh),
      m_hsMinRttDivisor(other.m_hsMinRttDivisor),
      m_hsRttSamples(other.m_hsRttSamples),
      m_hsCssGrowthDivisor(other.m_hsCssGrowthDivisor),
      m_hsCssRounds(other.m_hsCssRounds),
      m_hsLimit(other.m_hsLimit)
{
    // Only the configuration is copied: a forked socket starts a connection of its own.
    NS_LOG_FUNCTION(this);
}

std::string
TcpLinuxCubic::GetName() const
{
    return "TcpLinuxCubic";
}

Ptr<TcpCongestionOps>
TcpLinuxCubic::Fork()
{
    return CopyObject<TcpLinuxCubic>(this);
}

double
TcpLinuxCubic::RenoFriendlyAlpha(double beta)
{
    // §4.3: the additive increase that gives AIMD(alpha, beta) Reno's average window under the same loss.
    return 3.0 * (1.0 - beta) / (1.0 + beta);
}

void
TcpLinuxCubic::Init(Ptr<TcpSocketState> tcb)
{
    // ns-3 3.37 calls this when the algorithm is given to a socket, before the connection exists and
    // possibly before its attributes are final: the configuration is read at the first event instead.
    NS_LOG_FUNCTION(this << tcb);
    m_cwndExact = tcb->m_cWnd;
    m_cwndWritten = tcb->m_cWnd;
}

void
TcpLinuxCubic::Start()
{
    if (m_started)
    {
        return;
    }
    m_started = true;
    NS_ABORT_MSG_IF(m_hsMinRttThresh > m_hsMaxRttThresh,
                    "TcpLinuxCubic: HyStartMinRttThresh " << m_hsMinRttThresh.As(Time::MS)
                                                          << " is above HyStartMaxRttThresh "
                                                          << m_hsMaxRttThresh.As(Time::MS));
    HyStartPlusPlus::Params p;
    p.minRttThresh = m_hsMinRttThresh;
    p.maxRttThresh = m_hsMaxRttThresh;
    p.minRttDivisor = m_hsMinRttDivisor;
    p.nRttSample = m_hsRttSamples;
    p.cssGrowthDivisor = m_hsCssGrowthDivisor;
    p.cssRounds = m_hsCssRounds;
    p.limit = m_hsLimit;
    m_hyStartPp.SetParams(p);
    m_hyStartPp.Reset();
    LinuxHyStart::Params lp;
    lp.ackTrain = m_hsAckTrain;
    lp.delay = m_hsDelay;
    lp.ackDelta = m_hsAckDelta;
    lp.lowWindow = m_hsLowWindow;
    lp.delayMin = m_hsMinRttThresh;
    lp.delayMax = m_hsMaxRttThresh;
    lp.delayDivisor = m_hsMinRttDivisor;
    lp.minSamples = m_hsRttSamples;
    m_linuxHyStart.SetParams(lp);
    m_linuxHyStart.Reset();
    // Only the chosen variant watches.
    if (!m_hyStart || m_hyStartVariant != HYSTART_RFC9406)
    {
        m_hyStartPp.Stop();
    }
    if (!m_hyStart || m_hyStartVariant != HYSTART_LINUX)
    {
        m_linuxHyStart.Stop();
    }
}

void
TcpLinuxCubic::SyncWindow(Ptr<const TcpSocketState> tcb)
{
    if (tcb->m_cWnd.Get() != m_cwndWritten)
    {
        // Recovery (cwnd = ssthresh, PRR) and RTO (one segment) set cwnd without us.
        m_cwndExact = tcb->m_cWnd;
        m_cwndWritten = tcb->m_cWnd;
    }
}

void
TcpLinuxCubic::WriteWindow(Ptr<TcpSocketState> tcb)
{
    double capped = std::min(m_cwndExact, double(std::numeric_limits<uint32_t>::max()));
    m_cwndWritten = static_cast<uint32_t>(capped);
    tcb->m_cWnd = m_cwndWritten;
}

uint32_t
TcpLinuxCubic::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    Start();
    if (m_reduced)
    {
        // A timeout while this loss episode's reduction is in force (an RTO in recovery, or a repeated
        // RTO): the window was already cut for it. RFC 5681 (3.1) keeps ssthresh when a retransmission is
        // lost, and so does Linux (tcp_enter_loss): without this, each back-off would cut W_max again.
        return tcb->m_ssThresh;
    }
    double mss = tcb->m_segmentSize;
    double cwnd = tcb->m_cWnd / mss;
    m_hyStartPp.Stop();
    // §4.6: cwnd_prior is the window before the reduction; §4.7: W_max with fast convergence.
    m_cwndPrior = cwnd;
    m_wMax = (m_fastConvergence && cwnd < m_wMax) ? cwnd * (1.0 + m_beta) / 2.0 : cwnd;
    ForgetEpoch();
    m_reduced = true;
    // §4.6: ssthresh = flight_size x beta_cubic (not cwnd x beta: ns-3 3.37 grows cwnd while the
    // application limits the sender, which the RFC requires a cwnd-based ssthresh to prevent).
    double ssthresh = std::max(bytesInFlight * m_beta, m_minSsThreshSegments * mss);
    NS_LOG_INFO("loss at cwnd " << cwnd << " segs: W_max " << m_wMax << ", ssthresh " << ssthresh / mss);
    return static_cast<uint32_t>(std::llround(ssthresh));
}

void
TcpLinuxCubic::ForgetEpoch()
{
    m_inEpoch = false;
}

void
TcpLinuxCubic::CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t newState)
{
    NS_LOG_FUNCTION(this << tcb << newState);
    Start();
    if (newState == TcpSocketState::CA_LOSS)
    {
        // §4.8: after a timeout the next congestion-avoidance stage starts afresh, K = 0 and
        // W_max = cwnd_epoch (0 marks W_max unknown until that epoch starts).
        m_wMax = 0;
        ForgetEpoch();
        // HyStart++ stays out of later slow starts; Linux's bictcp_reset watches the next one afresh.
        m_hyStartPp.Stop();
        if (m_hyStart && m_hyStartVariant == HYSTART_LINUX)
        {
            m_linuxHyStart.Reset();
        }
    }
    else if (newState == TcpSocketState::CA_OPEN)
    {
        m_reduced = false;
    }
}

void
TcpLinuxCubic::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
    NS_LOG_FUNCTION(this << tcb << event);
    if (event == TcpSocketState::CA_EVENT_TX_START && m_inEpoch)
    {
        // §4.2: t must not count time the application left the connection idle. Sending restarts with
        // nothing in flight: push t_epoch forward by the idle time since the last ACK (Linux does the same
        // from the last transmission), never past now.
        Time now = Simulator::Now();
        if (now > m_lastAckTime)
        {
            m_epochStart = std::min(m_epochStart + (now - m_lastAckTime), now);
        }
    }
}

void
TcpLinuxCubic::PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked << rtt);
    Start();
    m_lastRtt = rtt;
    if (rtt.IsStrictlyPositive())
    {
        m_minRtt = std::min(m_minRtt, rtt);
    }
}

void
TcpLinuxCubic::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked);
    Start();
    SyncWindow(tcb);
    if (segmentsAcked == 0)
    {
        return;
    }
    m_lastAckTime = Simulator::Now();
    double segments = segmentsAcked;
    // RFC 5681 (3.1) and §4.10: slow start below ssthresh.
    if (m_cwndExact < tcb->m_ssThresh)
    {
        segments = SlowStart(tcb, segments);
    }
    if (segments > 0 && m_cwndExact >= tcb->m_ssThresh)
    {
        CongestionAvoidance(tcb, segments);
    }
    WriteWindow(tcb);
}

double
TcpLinuxCubic::SlowStart(Ptr<TcpSocketState> tcb, double segments)
{
    double mss = tcb->m_segmentSize;
    double growth = segments;
    if (LinuxHyStartEnds(tcb))
    {
        return segments;
    }
    if (m_hyStartPp.GetPhase() != HyStartPlusPlus::Phase::Done)
    {
        HyStartPlusPlus::Verdict v = m_hyStartPp.OnAck(tcb->m_lastAckedSeq, tcb->m_highTxMark, m_lastRtt);
        if (v == HyStartPlusPlus::Verdict::EnterCongestionAvoidance)
        {
            LeaveSlowStart(tcb); // RFC 9406 §4.2: ssthresh = cwnd
            return segments;
        }
        growth = m_hyStartPp.Growth(segments, tcb->m_pacing);
    }
    double room = (tcb->m_ssThresh - m_cwndExact) / mss;
    if (growth <= room)
    {
        m_cwndExact += growth * mss;
        return 0;
    }
    // Reaching ssthresh part way through this ACK: the rest of its segments count for congestion
    // avoidance, as in Linux's tcp_slow_start.
    m_cwndExact = tcb->m_ssThresh;
    return segments * (1.0 - room / growth);
}

bool
TcpLinuxCubic::LinuxHyStartEnds(Ptr<TcpSocketState> tcb)
{
    if (m_linuxHyStart.IsDone())
    {
        return false;
    }
    const LinuxHyStart::Trigger t = m_linuxHyStart.OnAck(tcb->m_lastAckedSeq,
                                                   tcb->m_highTxMark,
                                                   Simulator::Now(),
                                                   m_lastRtt,
                                                   m_minRtt,
                                                   m_cwndExact / tcb->m_segmentSize,
                                                   tcb->m_pacing);
    if (t == LinuxHyStart::Trigger::None)
    {
        return false;
    }
    LeaveSlowStart(tcb); // tcp_cubic.c's hystart_update: snd_ssthresh = cwnd
    return true;
}

void
TcpLinuxCubic::LeaveSlowStart(Ptr<TcpSocketState> tcb)
{
    // RFC 9438 §4.10: with no loss behind it, cwnd_prior = cwnd and the first epoch takes W_max =
    // cwnd_epoch, K = 0 (W_max is still unknown here); Linux's bictcp_update does the same (bic_K = 0,
    // origin = cwnd).
    double mss = tcb->m_segmentSize;
    tcb->m_ssThresh = static_cast<uint32_t>(m_cwndExact);
    m_cwndPrior = m_cwndExact / mss;
    m_wMax = 0;
    NS_LOG_INFO("HyStart: ssthresh = cwnd = " << m_cwndPrior << " segs");
    m_slowStartExitTrace(tcb->m_ssThresh);
}

double
TcpLinuxCubic::WCubic(double t) const
{
    // §4.2, Figure 1.
    double d = t - m_k;
    return m_c * d * d * d + m_wMax;
}

void
TcpLinuxCubic::StartEpoch(double cwnd)
{
    m_inEpoch = true;
    m_epochStart = Simulator::Now();
    m_cwndEpoch = cwnd;
    if (m_wMax <= 0)
    {
        // §4.8 (after a timeout) and §4.10 (slow start left without a loss): W_max = cwnd_epoch, K = 0.
        m_wMax = cwnd;
    }
    if (m_cwndPrior <= 0)
    {
        m_cwndPrior = cwnd;
    }
    // §4.2, Figure 2: K = cubic_root((W_max - cwnd_epoch) / C).
    m_k = std::cbrt((m_wMax - m_cwndEpoch) / m_c);
    // §4.3: W_est starts at cwnd_epoch.
    m_wEst = m_cwndEpoch;
    NS_LOG_INFO("epoch: W_max " << m_wMax << " K " << m_k << " s cwnd_epoch " << m_cwndEpoch);
    m_epochStartTrace(m_wMax, m_k, m_cwndEpoch);
}

void
TcpLinuxCubic::CongestionAvoidance(Ptr<TcpSocketState> tcb, double segments)
{
    double mss = tcb->m_segmentSize;
    double cwnd = m_cwndExact / mss;
    if (!m_inEpoch)
    {
        StartEpoch(cwnd);
    }
    double t = (Simulator::Now() - m_epochStart).GetSeconds();
    // §4.3, Figure 4: W_est grows by alpha_cubic per window of acknowledged segments; alpha_cubic becomes
    // 1 (Reno's own increase) once W_est has reached the window of the last reduction.
    double alpha = m_wEst >= m_cwndPrior ? 1.0 : RenoFriendlyAlpha(m_beta);
    m_wEst += alpha * segments / cwnd;
    double next;
    if (m_renoFriendly && WCubic(t) < m_wEst)
    {
        // §4.3: the Reno-friendly region; cwnd = W_est (never lowered here).
        next = std::max(cwnd, m_wEst);
    }
    else
    {
        // §4.4 / §4.5: head for W_cubic one RTT ahead, within [cwnd, TargetCap x cwnd]; (target - cwnd) /
        // cwnd per acknowledged segment reaches the target in one window of ACKs. The RTT is the minimum
        // seen, as Linux uses (it keeps a queue's delay out of the curve).
        Time rtt = m_minRtt != Time::Max() ? m_minRtt : Time(0);
        double target = std::clamp(WCubic(t + rtt.GetSeconds()), cwnd, m_targetCap * cwnd);
        next = cwnd + (target - cwnd) / cwnd * segments;
    }
    m_cwndExact = next * mss;
}

double
TcpLinuxCubic::GetWMax() const
{
    return m_wMax;
}

double
TcpLinuxCubic::GetCwndPrior() const
{
    return m_cwndPrior;
}

double
TcpLinuxCubic::GetK() const
{
    return m_k;
}

double
TcpLinuxCubic::GetWEst() const
{
    return m_wEst;
}

double
TcpLinuxCubic::GetCwndEpoch() const
{
    return m_cwndEpoch;
}

bool
TcpLinuxCubic::InEpoch() const
{
    return m_inEpoch;
}

Time
TcpLinuxCubic::GetEpochStart() const
{
    return m_epochStart;
}

Time
TcpLinuxCubic::GetMinRtt() const
{
    return m_minRtt;
}

HyStartPlusPlus::Phase
TcpLinuxCubic::GetHyStartPhase() const
{
    return m_hyStartPp.GetPhase();
}

bool
TcpLinuxCubic::LinuxHyStartDone() const
{
    return m_linuxHyStart.IsDone();
}

LinuxHyStart::Trigger
TcpLinuxCubic::GetLinuxHyStartTrigger() const
{
    return m_linuxHyStart.GetTrigger();
}

} // namespace ns3
