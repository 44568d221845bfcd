/*
 * Linux's HyStart, as net/ipv4/tcp_cubic.c runs it by default: two tests that end the slow start once the
 * pipe looks full, before the queue overflows.
 *
 * - The ACK train: ACKs that arrive no more than AckDelta apart form a train that began when the round did;
 *   once the train has lasted longer than half the minimum RTT (an unpaced sender) the window covers about
 *   the path's bandwidth-delay product.
 * - The delay increase: once a round has RttSamples RTT samples, their minimum above the connection's
 *   minimum RTT by clamp(minRtt / divisor, DelayMin, DelayMax) means a queue is building.
 *
 * Either sets ssthresh = cwnd; there is no Conservative Slow Start (that is HyStart++, tcp-hystart-pp.h).
 * It watches only while cwnd is at least LowWindow segments. A round ends when the cumulative ACK passes
 * the highest sequence sent when it began. A plain class: TcpLinuxCubic owns one and asks it per ACK.
 *
 * Linux adds to the ACK-train threshold the time two 64 KiB TSO bursts take at the pacing rate
 * (hystart_ack_delay), an allowance for receive-side aggregation (GRO, interrupt moderation) that inflates
 * RTT samples of real hosts. ns-3 has neither TSO nor GRO, so the allowance is left out.
 */
/**
 * \file
 * \ingroup iwarp-tcp
 */
#ifndef IWARP_TCP_HYSTART_LINUX_H
#define IWARP_TCP_HYSTART_LINUX_H

#include "ns3/nstime.h"
#include "ns3/sequence-number.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

class LinuxHyStart
{
  public:
    /** The constants of tcp_cubic.c (the defaults are its values). */
    struct Params
    {
        bool ackTrain{true};                 ///< HYSTART_ACK_TRAIN in hystart_detect
        bool delay{true};                    ///< HYSTART_DELAY in hystart_detect
        Time ackDelta{MilliSeconds(2)};      ///< hystart_ack_delta_us: the largest gap inside a train
        uint32_t lowWindow{16};              ///< hystart_low_window (segments): no test below this cwnd
        Time delayMin{MilliSeconds(4)};      ///< HYSTART_DELAY_MIN
        Time delayMax{MilliSeconds(16)};     ///< HYSTART_DELAY_MAX
        uint32_t delayDivisor{8};            ///< the delay threshold is minRtt / 8 (delay_min >> 3), clamped
        uint32_t minSamples{8};              ///< HYSTART_MIN_SAMPLES: samples a round takes before the test
    };

    /** What ended the slow start, if anything. */
    enum class Trigger
    {
        None,     ///< keep slowly starting
        AckTrain, ///< the ACK train outlasted the threshold: set ssthresh = cwnd
        Delay,    ///< the round's minimum RTT grew past the threshold: set ssthresh = cwnd
    };

    void SetParams(const Params& p);
    const Params& GetParams() const;

    /** Watch afresh: no round, not found (connection start, and after a timeout as Linux's bictcp_reset). */
    void Reset();
    /** Stop watching for the rest of this slow start (HyStart turned off). */
    void Stop();
    /** True once a test fired (or Stop was called): nothing is watched until Reset. */
    bool IsDone() const;
    /** The test that ended this slow start; None while it runs, after Stop, and after Reset. */
    Trigger GetTrigger() const;

    /**
     * One ACK in slow start that carried an RTT sample: `ack` its cumulative acknowledgment, `sndNxt` the next
     * sequence to send, `now` its arrival, `rtt` its sample, `minRtt` the connection's smallest sample so far
     * (this one included), `cwndSegments` the window, `paced` whether the socket paces (the ACK-train
     * threshold is then the whole minimum RTT, as tcp_cubic.c has it for a paced socket).
     */
    Trigger OnAck(SequenceNumber32 ack,
                  SequenceNumber32 sndNxt,
                  Time now,
                  Time rtt,
                  Time minRtt,
                  double cwndSegments,
                  bool paced);

    /** The delay-increase threshold for a minimum RTT: clamp(minRtt / divisor, delayMin, delayMax). */
    Time DelayThreshold(Time minRtt) const;

  private:
    void StartRound(SequenceNumber32 sndNxt, Time now);

    Params m_params;
    bool m_done{false};               ///< found (ca->found)
    Trigger m_trigger{Trigger::None}; ///< which test set m_done
    bool m_inRound{false};            ///< a round has been started
    SequenceNumber32 m_endSeq{0};     ///< end_seq: the round ends when the ACK passes this
    Time m_roundStart;                ///< round_start
    Time m_lastAck;                   ///< last_ack: the last ACK of the train
    Time m_roundMinRtt{Time::Max()};  ///< curr_rtt
    uint32_t m_samples{0};            ///< sample_cnt
};

std::ostream& operator<<(std::ostream& os, LinuxHyStart::Trigger t);

} // namespace ns3

#endif // IWARP_TCP_HYSTART_LINUX_H
