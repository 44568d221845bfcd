/*
 * TcpLinuxCubic: CUBIC congestion control as RFC 9438 specifies it and Linux runs it, for ns-3's TCP
 * (a TcpCongestionOps, chosen by ns3::TcpL4Protocol::SocketType or a socket's CongestionOps attribute).
 *
 * Unlike ns-3 3.37's TcpCubic it has the Reno-friendly region (RFC 9438 §4.3), so under random loss it
 * never falls below what Reno gets; see doc/tcp-congestion.md. Windows are kept in segments as real
 * numbers (the RFC's unit) and written to the socket in bytes; growth counts acknowledged segments, so a
 * delayed ACK of two segments grows cwnd as much as two ACKs of one would (as Linux does).
 */
/**
 * \file
 * \ingroup iwarp-tcp
 */
#ifndef IWARP_TCP_LINUX_CUBIC_H
#define IWARP_TCP_LINUX_CUBIC_H

#include "tcp/tcp-hystart-linux.h"
#include "tcp/tcp-hystart-pp.h"

#include "ns3/tcp-congestion-ops.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class TcpLinuxCubic : public TcpCongestionOps
{
  public:
    static TypeId GetTypeId();

    /** Which slow-start exit the HyStart attribute turns on. */
    enum HyStartVariant
    {
        HYSTART_LINUX,   ///< Linux's HyStart: ACK train and delay increase (tcp-hystart-linux.h)
        HYSTART_RFC9406, ///< HyStart++ with Conservative Slow Start (tcp-hystart-pp.h)
    };

    TcpLinuxCubic();
    TcpLinuxCubic(const TcpLinuxCubic& other);

    std::string GetName() const override;
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
    Ptr<TcpCongestionOps> Fork() override;

    /** alpha_cubic of RFC 9438 §4.3 for a given beta_cubic: 3 (1 - beta) / (1 + beta). */
    static double RenoFriendlyAlpha(double beta);

    // The RFC 9438 state, in segments and seconds, for tests and traces.
    double GetWMax() const;      ///< W_max
    double GetCwndPrior() const; ///< cwnd_prior
    double GetK() const;         ///< K, seconds
    double GetWEst() const;      ///< W_est
    double GetCwndEpoch() const; ///< cwnd_epoch
    bool InEpoch() const;        ///< a congestion-avoidance epoch is running
    Time GetEpochStart() const;  ///< t_epoch
    Time GetMinRtt() const;      ///< the RTT of W_cubic(t + RTT): the smallest sample seen
    HyStartPlusPlus::Phase GetHyStartPhase() const; ///< HyStart++'s phase (Done for the Linux variant)
    bool LinuxHyStartDone() const; ///< the Linux variant fired (or was off) in this slow start
    LinuxHyStart::Trigger GetLinuxHyStartTrigger() const; ///< what ended this slow start, Linux variant

    /** Signature of the EpochStart trace: t_epoch began with these W_max, K (s) and cwnd_epoch. */
    typedef void (*EpochStartTracedCallback)(double wMax, double k, double cwndEpoch);
    /** Signature of the SlowStartExit trace: HyStart (either variant) set ssthresh to cwnd (bytes). */
    typedef void (*SlowStartExitTracedCallback)(uint32_t ssThresh);

  private:
    /** Make our exact window agree with the socket's, which recovery and RTO set on their own. */
    void SyncWindow(Ptr<const TcpSocketState> tcb);
    /** Read the configuration (HyStart++ constants) at the connection's first event. */
    void Start();
    void WriteWindow(Ptr<TcpSocketState> tcb);
    /** Slow start for `segments`; returns the segments left over once cwnd reached ssthresh. */
    double SlowStart(Ptr<TcpSocketState> tcb, double segments);
    void CongestionAvoidance(Ptr<TcpSocketState> tcb, double segments);
    void StartEpoch(double cwndSegments);
    double WCubic(double tSeconds) const;
    void ForgetEpoch();
    /** Slow start is over without a loss: ssthresh = cwnd, and the next epoch takes K = 0 (§4.10). */
    void LeaveSlowStart(Ptr<TcpSocketState> tcb);
    /** Asks the Linux variant about this ACK; true when it ended slow start. */
    bool LinuxHyStartEnds(Ptr<TcpSocketState> tcb);

    // Attributes (RFC 9438 and RFC 9406 constants; sources in the attribute help)
    double m_c{0.4};
    double m_beta{0.7};
    bool m_fastConvergence{true};
    bool m_renoFriendly{true};
    double m_targetCap{1.5};
    uint32_t m_minSsThreshSegments{2};
    bool m_hyStart{true};
    HyStartVariant m_hyStartVariant{HYSTART_LINUX};
    bool m_hsAckTrain{true};
    bool m_hsDelay{true};
    Time m_hsAckDelta{MilliSeconds(2)};
    uint32_t m_hsLowWindow{16};
    Time m_hsMinRttThresh{MilliSeconds(4)};
    Time m_hsMaxRttThresh{MilliSeconds(16)};
    uint32_t m_hsMinRttDivisor{8};
    uint32_t m_hsRttSamples{8};
    uint32_t m_hsCssGrowthDivisor{4};
    uint32_t m_hsCssRounds{5};
    uint32_t m_hsLimit{8};

    // RFC 9438 §4.1 variables (segments, seconds)
    double m_wMax{0};         ///< W_max; 0 = unknown (no congestion event since the start or an RTO)
    double m_cwndPrior{0};    ///< cwnd_prior
    double m_k{0};            ///< K
    double m_wEst{0};         ///< W_est
    double m_cwndEpoch{0};    ///< cwnd_epoch
    bool m_inEpoch{false};    ///< t_epoch is set
    Time m_epochStart;        ///< t_epoch
    Time m_minRtt{Time::Max()};
    Time m_lastRtt;           ///< the sample of the ACK being processed (PktsAcked comes first)
    Time m_lastAckTime;       ///< when the last ACK grew the window: the start of an idle period
    bool m_reduced{false};    ///< ssthresh was cut and the connection has not been back in CA_OPEN since

    bool m_started{false};     ///< Start has read the configuration
    double m_cwndExact{0};    ///< cwnd in bytes with the fraction ns-3's integer cwnd cannot hold
    uint32_t m_cwndWritten{0}; ///< the cwnd we last wrote; anything else means the socket set it

    HyStartPlusPlus m_hyStartPp;
    LinuxHyStart m_linuxHyStart;

    TracedCallback<double, double, double> m_epochStartTrace;
    TracedCallback<uint32_t> m_slowStartExitTrace;
};

} // namespace ns3

#endif // IWARP_TCP_LINUX_CUBIC_H
