/*
 * TcpLinuxDctcp: DCTCP (RFC 8257) as Linux runs it, for ns-3's TCP: ns-3 3.37's TcpDctcp, except that a loss
 * halves the window as conventional TCP does.
 *
 * RFC 8257 §3.5 asks a DCTCP sender to react to loss as conventional TCP does (Linux: dctcp_react_to_loss).
 * ns-3 3.37's TcpDctcp answers a loss as it answers a window of CE marks, cwnd x (1 - alpha / 2); without marks
 * alpha decays towards 0, and a loss then barely lowers the window. With the window far above what is in flight
 * and nothing new to send (an application-limited sender: RDMA with a few messages outstanding), ns-3 3.37's
 * SACK recovery (TcpTxBuffer::NextSeg, RFC 6675's rule 3 without its bound at the highest SACKed octet) resends
 * the first unSACKed segment beyond the highest SACK on every ACK, segments still in flight: measured on a
 * 10 Gb/s link with 0.1 % loss, 2,702 segments resent for 37 lost. Halving on loss as RFC 5681 does
 * (ssthresh = max(FlightSize / 2, 2 SMSS)) keeps the window near what is in flight; the same run resends 21.
 * doc/tcp-congestion.md, "DCTCP".
 */
/**
 * \file
 * \ingroup iwarp-tcp
 */
#ifndef IWARP_TCP_LINUX_DCTCP_H
#define IWARP_TCP_LINUX_DCTCP_H

#include "ns3/tcp-dctcp.h"

namespace ns3
{

class TcpLinuxDctcp : public TcpDctcp
{
  public:
    static TypeId GetTypeId();

    TcpLinuxDctcp() = default;
    TcpLinuxDctcp(const TcpLinuxDctcp& other) = default;

    std::string GetName() const override;
    /** After a loss (recovery or a retransmission timeout): RFC 5681's; after CE marks: DCTCP's. */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    /** Notes a loss: ns-3 tells the state before it asks for the slow-start threshold. */
    void CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t newState) override;
    Ptr<TcpCongestionOps> Fork() override;

  private:
    bool m_loss{false}; ///< the next GetSsThresh answers a loss
};

} // namespace ns3

#endif // IWARP_TCP_LINUX_DCTCP_H
