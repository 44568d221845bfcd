/*
 * Drives a TcpLinuxCubic the way ns-3 3.37's TcpSocketBase does, without a network: a TcpSocketState, the
 * calls of a fast recovery and of a retransmission timeout in the order the socket makes them (checked
 * against TcpSocketBase with a logging TcpNewReno subclass), and an ACK clock that acknowledges a window
 * of segments per round trip in delayed ACKs of two. The clock runs in simulated time, since the
 * algorithm reads Simulator::Now(); the test calls Simulator::Destroy() when done.
 */
#ifndef IWARP_LINUX_CUBIC_DRIVER_H
#define IWARP_LINUX_CUBIC_DRIVER_H

#include "tcp/tcp-linux-cubic.h"

#include "ns3/simulator.h"
#include "ns3/tcp-socket-state.h"

#include <functional>

namespace ns3
{
namespace iwarptest
{

class CubicDriver
{
  public:
    static constexpr uint32_t kMss = 1448;

    CubicDriver(Ptr<TcpLinuxCubic> cc, double cwndSegments, Time rtt)
        : m_cc(cc),
          m_rtt(rtt)
    {
        m_tcb = CreateObject<TcpSocketState>();
        m_tcb->m_segmentSize = kMss;
        m_tcb->m_cWnd = static_cast<uint32_t>(cwndSegments * kMss);
        m_tcb->m_ssThresh = UINT32_MAX;
        m_tcb->m_congState = TcpSocketState::CA_OPEN;
        m_cc->Init(m_tcb);
    }

    Ptr<TcpSocketState> Tcb() const { return m_tcb; }
    double CwndSegments() const { return double(m_tcb->m_cWnd.Get()) / kMss; }

    /** One ACK of `segments` new segments now, with an RTT sample of the path's RTT (or `rtt`). */
    void Ack(uint32_t segments, Time rtt = Time(0))
    {
        m_tcb->m_lastAckedSeq += segments * kMss;
        if (m_tcb->m_highTxMark < m_tcb->m_lastAckedSeq + m_tcb->m_cWnd.Get())
        {
            m_tcb->m_highTxMark = m_tcb->m_lastAckedSeq + m_tcb->m_cWnd.Get();
        }
        Time sample = rtt.IsZero() ? m_rtt : rtt;
        m_tcb->m_lastRtt = sample;
        m_cc->PktsAcked(m_tcb, segments, sample);
        m_cc->IncreaseWindow(m_tcb, segments);
    }

    /** A loss found by duplicate ACKs with `inFlight` segments in flight: enter fast recovery. */
    uint32_t EnterRecovery(double inFlight)
    {
        m_cc->CongestionStateSet(m_tcb, TcpSocketState::CA_RECOVERY);
        m_tcb->m_congState = TcpSocketState::CA_RECOVERY;
        m_tcb->m_ssThresh = m_cc->GetSsThresh(m_tcb, static_cast<uint32_t>(inFlight * kMss));
        return m_tcb->m_ssThresh;
    }

    /** Fast recovery completes: cwnd = ssthresh, back to CA_OPEN (what TcpSocketBase does). */
    void ExitRecovery()
    {
        m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
        m_cc->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_COMPLETE_CWR);
        m_cc->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
        m_tcb->m_congState = TcpSocketState::CA_OPEN;
    }

    /** A loss with the whole window in flight, recovered at once. */
    uint32_t Loss()
    {
        uint32_t ssthresh = EnterRecovery(CwndSegments());
        ExitRecovery();
        return ssthresh;
    }

    /** A retransmission timeout with `inFlight` segments in flight: ssthresh, CA_LOSS, cwnd = 1 segment. */
    uint32_t Rto(double inFlight)
    {
        m_tcb->m_ssThresh = m_cc->GetSsThresh(m_tcb, static_cast<uint32_t>(inFlight * kMss));
        m_cc->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_LOSS);
        m_cc->CongestionStateSet(m_tcb, TcpSocketState::CA_LOSS);
        m_tcb->m_congState = TcpSocketState::CA_LOSS;
        m_tcb->m_cWnd = kMss;
        return m_tcb->m_ssThresh;
    }

    /** The first new ACK after a timeout ends CA_LOSS (TcpSocketBase switches to CA_OPEN, then grows). */
    void LeaveLoss()
    {
        m_cc->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
        m_tcb->m_congState = TcpSocketState::CA_OPEN;
    }

    /**
     * ACKs of two segments, one every RTT / (cwnd / 2), from now until `duration` has passed; `onAck` runs
     * after each (with the time since the clock started).
     */
    void RunAckClock(Time duration, const std::function<void(Time)>& onAck = {})
    {
        m_clockStart = Simulator::Now();
        m_clockEnd = m_clockStart + duration;
        m_onAck = onAck;
        Simulator::ScheduleNow(&CubicDriver::ClockTick, this);
        Simulator::Run();
    }

    /** Let simulated time pass with nothing acknowledged. */
    void Idle(Time d)
    {
        Simulator::Schedule(d, [] {});
        Simulator::Run();
    }

  private:
    void ClockTick()
    {
        Ack(2);
        if (m_onAck)
        {
            m_onAck(Simulator::Now() - m_clockStart);
        }
        Time gap = m_rtt / (CwndSegments() / 2.0);
        if (Simulator::Now() + gap <= m_clockEnd)
        {
            Simulator::Schedule(gap, &CubicDriver::ClockTick, this);
        }
    }

    Ptr<TcpLinuxCubic> m_cc;
    Ptr<TcpSocketState> m_tcb;
    Time m_rtt;
    Time m_clockStart;
    Time m_clockEnd;
    std::function<void(Time)> m_onAck;
};

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_LINUX_CUBIC_DRIVER_H
