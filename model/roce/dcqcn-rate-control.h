/*
 * DcqcnRateControl: DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, §3.1), the rate a RoCEv2 queue pair may send at. doc/roce.md gives the equations and the
 * source of each default.
 *
 *  - A CNP cuts the rate:           Rt = Rc;  Rc = Rc (1 - alpha/2);  alpha = (1 - g) alpha + g
 *    (never below MinRate); the increase timer, the byte counter and both stage counts start again.
 *  - No CNP for AlphaInterval (K):  alpha = (1 - g) alpha, again every K.
 *  - The increase timer (every Timer, T) and the byte counter (every ByteCounter octets sent, B) each raise the
 *    rate once per expiry, with the stage counts t and b of their expiries since the last cut, read before
 *    the expiry counts:
 *      fast recovery   t < F and b < F:     Rc = (Rt + Rc) / 2
 *      additive        otherwise, until     Rt = Rt + R_AI;  Rc = (Rt + Rc) / 2
 *      hyper           t >= F and b >= F:   Rt = Rt + i R_HAI, i = min(t, b) - F + 1;  Rc = (Rt + Rc) / 2
 *    Rt never passes the line rate. Once Rc and Rt are back at the line rate the timer stops (more increases
 *    would change nothing until the next cut).
 *
 * Until the first CNP the queue pair sends at the line rate, and the first CNP finds alpha at 1 (the paper's
 * initial value; NVIDIA's NICs and HPCC's simulator also start it at the first CNP, not at connection set-up).
 * Alpha's K timer is kept as arithmetic (whole periods since the last CNP), not as events, so an idle queue pair
 * schedules nothing. Stop ends the timer (the queue pair is gone).
 */
/**
 * \file
 * \ingroup iwarp-roce
 */
#ifndef IWARP_DCQCN_RATE_CONTROL_H
#define IWARP_DCQCN_RATE_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcqcnRateControl : public Object
{
  public:
    static TypeId GetTypeId();
    DcqcnRateControl();

    /** What changed the rate last. */
    enum Step
    {
        CUT,           ///< a CNP
        FAST_RECOVERY, ///< Rc halfway back to Rt
        ADDITIVE,      ///< Rt up by R_AI
        HYPER,         ///< Rt up by i R_HAI
    };

    /** Start at `lineRate`, the port's: the rate it sends at until the first CNP, and Rt's ceiling. */
    void Start(DataRate lineRate);
    /** A CNP arrived for this queue pair. */
    void OnCnp();
    /** `octets` left at the current rate (the byte counter counts them). */
    void OnSent(uint32_t octets);
    /** No more increases: the queue pair failed or closed. */
    void Stop();

    /** Rc, the rate packets leave at. */
    double GetRateBps() const { return m_rc; }
    /** Rt, the target rate. */
    double GetTargetBps() const { return m_rt; }
    /** Alpha now (the K timer's periods since the last CNP applied). */
    double GetAlpha() const;
    DataRate GetLineRate() const { return DataRate(uint64_t(m_line)); }
    uint64_t GetCnps() const { return m_cnps; }
    /** True from a cut until Rc and Rt are back at the line rate. */
    bool IsLimiting() const { return m_limiting; }

    /** (Rc, Rt, alpha, step) after each change of the rate, in bit/s. */
    typedef void (*RateTracedCallback)(double rateBps, double targetBps, double alpha, Step step);

  protected:
    void DoDispose() override;

  private:
    void OnTimer();
    /** One increase event: `byTimer` from the timer, else from the byte counter. */
    void Increase(bool byTimer);
    void StopIfRecovered();

    // Attributes
    double m_g{1.0 / 256};
    Time m_alphaInterval;
    Time m_timer;
    uint64_t m_byteCounter{0};
    uint32_t m_f{5};
    DataRate m_rai;
    DataRate m_rhai;
    DataRate m_minRate;

    double m_line{0};
    double m_rc{0};
    double m_rt{0};
    double m_alphaAtCnp{1.0}; ///< alpha as the last CNP (or Start) left it
    Time m_lastCnp;           ///< the K timer counts whole periods from here
    uint32_t m_timerStage{0};
    uint32_t m_byteStage{0};
    uint64_t m_bytes{0}; ///< octets sent since the byte counter last expired or was reset
    bool m_limiting{false};
    uint64_t m_cnps{0};
    EventId m_timerEvent;
    TracedCallback<double, double, double, Step> m_rateTrace;
};

} // namespace ns3

#endif // IWARP_DCQCN_RATE_CONTROL_H
