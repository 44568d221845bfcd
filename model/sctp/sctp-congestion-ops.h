/*
 * SCTP congestion control as a policy chosen by TypeId (attribute ns3::SctpSocket::CongestionOps).
 *
 * SctpCcState is the small piece of per-destination state a policy may read and change (cwnd, ssthresh,
 * partial_bytes_acked, fast recovery); the association owns it and hands it in, so a policy never reaches
 * into the socket. SctpRfc9260Congestion is the algorithm of RFC 9260 §7.2, counted in bytes.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_CONGESTION_OPS_H
#define IWARP_SCTP_CONGESTION_OPS_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

struct SctpCcState
{
    uint32_t mtu{1500};            ///< path MTU (the "MTU" of RFC 9260 §7)
    uint32_t cwnd{4380};           ///< congestion window, bytes
    uint32_t ssthresh{65535};      ///< slow-start threshold, bytes
    uint32_t partialBytesAcked{0}; ///< partial_bytes_acked of §7.2.2
    uint32_t flightSize{0};        ///< bytes outstanding (set by the association before each call)
    bool inFastRecovery{false};
    uint32_t fastRecoveryExit{0}; ///< highest TSN outstanding when fast recovery was entered
    /** The association's configured initial window in MTUs (SctpSocket::InitialCwnd); 0: the policy's own. */
    uint32_t initialCwndMtus{0};
};

class SctpCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();

    /** Association set up: initial cwnd (initialCwndMtus MTUs when set) and ssthresh (peer's a_rwnd). */
    virtual void Init(SctpCcState& s, uint32_t peerRwnd) = 0;
    /** A SACK acknowledged `bytesAcked` new bytes; `cumAdvanced` if the Cumulative TSN Ack moved, `fullCwnd`
     *  if the sender had cwnd or more outstanding before the SACK (only then may cwnd grow). */
    virtual void OnAck(SctpCcState& s, uint32_t bytesAcked, bool cumAdvanced, bool fullCwnd) = 0;
    /** Fast retransmit decided (not already in fast recovery): §7.2.3 reduction. */
    virtual void OnFastRetransmit(SctpCcState& s) = 0;
    /** T3-rtx expired: §7.2.3 collapse to one MTU. */
    virtual void OnRetransmissionTimeout(SctpCcState& s) = 0;
    /** No data sent for an RTO on this path: §7.2.1 restart. */
    virtual void OnIdle(SctpCcState& s) = 0;
};

class SctpRfc9260Congestion : public SctpCongestionOps
{
  public:
    static TypeId GetTypeId();

    void Init(SctpCcState& s, uint32_t peerRwnd) override;
    void OnAck(SctpCcState& s, uint32_t bytesAcked, bool cumAdvanced, bool fullCwnd) override;
    void OnFastRetransmit(SctpCcState& s) override;
    void OnRetransmissionTimeout(SctpCcState& s) override;
    void OnIdle(SctpCcState& s) override;

  private:
    uint32_t m_maxBurstMtus{1}; ///< L of §7.2.1: slow start grows cwnd by at most L MTUs per SACK
};

} // namespace ns3

#endif // IWARP_SCTP_CONGESTION_OPS_H
