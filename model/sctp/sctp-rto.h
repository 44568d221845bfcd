/*
 * Retransmission timeout of one destination, RFC 9260 §6.3.1.
 *
 * First measurement R: SRTT = R, RTTVAR = R/2. Later: RTTVAR = (1 - beta) RTTVAR + beta |SRTT - R'|,
 * SRTT = (1 - alpha) SRTT + alpha R' (RTTVAR first, with the old SRTT). RTO = SRTT + 4 RTTVAR, clamped to
 * [RTO.Min, RTO.Max]. Timer expiry doubles RTO (at most RTO.Max) until the next measurement. Karn's rule is
 * the caller's: it only offers samples of chunks sent once.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_RTO_H
#define IWARP_SCTP_RTO_H

#include "ns3/nstime.h"

namespace ns3
{

class SctpRtoEstimator
{
  public:
    struct Params
    {
        Time initial{Seconds(1)};
        Time min{Seconds(1)};
        Time max{Seconds(60)};
        double alpha{0.125};
        double beta{0.25};
    };

    SctpRtoEstimator() = default;
    explicit SctpRtoEstimator(const Params& p);

    void Reset(const Params& p);
    /** A round-trip sample of a chunk transmitted exactly once (or a HEARTBEAT). */
    void Measure(Time r);
    /** T3-rtx (or T1/T2/heartbeat) expired: double RTO, capped at RTO.Max. */
    void BackOff();

    Time GetRto() const { return m_rto; }
    Time GetSrtt() const { return m_srtt; }
    Time GetRttvar() const { return m_rttvar; }
    bool HasMeasurement() const { return m_measured; }

  private:
    Time Clamp(Time t) const;

    Params m_p;
    Time m_srtt{0};
    Time m_rttvar{0};
    Time m_rto{Seconds(1)};
    bool m_measured{false};
};

} // namespace ns3

#endif // IWARP_SCTP_RTO_H
