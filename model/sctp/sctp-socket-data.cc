/*
 * SctpSocket: data transfer. Sending (bundling, cwnd / peer window / Max.Burst limits, retransmissions
 * first), receiving (SACK policy: every SackFrequency-th packet, after SackDelay, at once on gaps and
 * duplicates), SACK processing (RTT, congestion control, fast retransmit and recovery) and T3-rtx.
 * RFC 9260 §6, §7.
 */
#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(SctpSocket);

void
SctpSocket::SyncTraces()
{
    m_cwndTrace = m_cc.cwnd;
    m_ssthreshTrace = m_cc.ssthresh;
    m_rtoTrace = m_rto.GetRto();
    m_srttTrace = m_rto.GetSrtt();
    m_flightTrace = m_txq.GetFlightSize();
}

// ------------------------------------------------------------------------------------------- sending

void
SctpSocket::TrySend()
{
    SctpState s = m_state;
    if (s != SctpState::Established && s != SctpState::ShutdownPending && s != SctpState::ShutdownReceived)
    {
        return;
    }
    const uint32_t budget = m_pmtu - 20 - SctpCommonHeader::kSize;
    uint32_t burst = 0;
    for (;;)
    {
        std::vector<std::shared_ptr<SctpChunk>> chunks;
        uint32_t used = 0;
        bool sackBundled = false;
        SctpTxQueue::Entry* first = m_txq.NextToSend(false);
        if (first == nullptr)
        {
            break;
        }
        if (m_sackTimer.IsRunning())
        {
            // A SACK is due anyway: let it ride with the data (control chunks first, §6.10), or send it
            // on its own if a full-sized chunk would not fit beside it.
            auto sack = MakeSack();
            if (sack->GetSerializedSize() + first->Bytes() <= budget)
            {
                chunks.push_back(sack);
                used += sack->GetSerializedSize();
                sackBundled = true;
            }
            else
            {
                m_sackTimer.Cancel();
                m_packetsSinceSack = 0;
                SendChunks({sack});
            }
        }
        uint32_t flight = m_txq.GetFlightSize();
        bool anyData = false;
        for (;;)
        {
            SctpTxQueue::Entry* e = m_txq.NextToSend(false);
            if (e == nullptr)
            {
                break;
            }
            uint32_t sz = e->Bytes();
            if (used + sz > budget)
            {
                break;
            }
            bool rtx = e->sent;
            if (rtx)
            {
                // Fast retransmissions go out in one packet whatever cwnd says (§7.2.4); after a T3
                // expiry cwnd is one MTU and limits them like new data.
                if (!m_fastRtxPending && flight > 0 && flight >= m_cc.cwnd)
                {
                    break;
                }
            }
            else
            {
                if (flight >= m_cc.cwnd || burst >= m_maxBurst)
                {
                    break;
                }
                // Zero window: one chunk may probe when nothing is outstanding (§6.1 A).
                if (m_peerRwnd < sz && flight > 0)
                {
                    break;
                }
            }
            chunks.push_back(e->chunk);
            if (rtx)
            {
                // Fast or not by why the chunk was marked: fast retransmissions that do not fit the first
                // packet follow in later ones, when m_fastRtxPending no longer holds.
                m_rtxTrace(e->chunk->GetTsn(), e->markedByFastRtx);
            }
            else
            {
                m_peerRwnd -= std::min(m_peerRwnd, sz);
            }
            m_txq.OnSent(*e, Simulator::Now());
            flight += sz;
            used += sz;
            anyData = true;
        }
        m_fastRtxPending = false;
        if (!anyData)
        {
            break;
        }
        if (sackBundled)
        {
            m_sackTimer.Cancel();
            m_packetsSinceSack = 0;
        }
        SendChunks(chunks);
        m_lastDataSent = Simulator::Now();
        ++burst;
        if (!m_t3.IsRunning())
        {
            RestartT3();
        }
    }
    SyncTraces();
}

void
SctpSocket::RestartT3()
{
    m_t3.Cancel();
    m_t3 = Simulator::Schedule(m_rto.GetRto(), &SctpSocket::T3Expired, this);
}

void
SctpSocket::T3Expired()
{
    if (!m_txq.HasOutstanding())
    {
        return;
    }
    NS_LOG_INFO("T3-rtx expired, RTO " << m_rto.GetRto().As(Time::MS) << " doubles");
    m_rto.BackOff();
    m_t3ExpiredTrace(m_rto.GetRto());
    m_cc.flightSize = m_txq.GetFlightSize();
    m_ccOps->OnRetransmissionTimeout(m_cc);
    m_txq.MarkAllForRetransmission();
    SyncTraces();
    // A peer that keeps advertising a zero window is alive: probing it is not an error (§6.1 A).
    if (m_lastAdvertisedRwnd != 0 && CountError())
    {
        return;
    }
    TrySend();
    if (!m_t3.IsRunning())
    {
        RestartT3();
    }
}

// ------------------------------------------------------------------------------------------- SACKs received

void
SctpSocket::HandleSack(const SctpSackChunk& s)
{
    SctpState st = m_state;
    if (st == SctpState::Closed || st == SctpState::CookieWait || st == SctpState::CookieEchoed)
    {
        return;
    }
    std::vector<std::pair<uint16_t, uint16_t>> gaps;
    for (const auto& g : s.GetGapBlocks())
    {
        gaps.emplace_back(g.start, g.end);
    }
    ProcessCumAck(s.GetCumTsnAck(), gaps, s.GetArwnd());
}

void
SctpSocket::ProcessCumAck(uint32_t cum, const std::vector<std::pair<uint16_t, uint16_t>>& gaps, uint32_t arwnd)
{
    if (m_ccOps == nullptr)
    {
        return;
    }
    uint32_t flightBefore = m_txq.GetFlightSize();
    // "cwnd fully used" (§7.2.1): within one MTU of it, so an MTU-granular sender still grows.
    bool fullCwnd = flightBefore + m_cc.mtu > m_cc.cwnd;
    SctpTxQueue::SackResult r = m_txq.ProcessSack(cum, gaps, Simulator::Now());
    if (r.stale)
    {
        return;
    }
    if (r.rtt)
    {
        m_rto.Measure(*r.rtt);
    }
    if (r.cumAdvanced)
    {
        m_errorCount = 0;
    }
    if (m_cc.inFastRecovery && TsnLe(m_cc.fastRecoveryExit, m_txq.GetCumAckPoint()))
    {
        m_cc.inFastRecovery = false;
    }
    m_cc.flightSize = m_txq.GetFlightSize();
    m_ccOps->OnAck(m_cc, r.bytesAcked, r.cumAdvanced, fullCwnd);
    if (!r.fastRtx.empty())
    {
        NS_LOG_INFO("fast retransmit of " << r.fastRtx.size() << " chunk(s) from TSN " << r.fastRtx.front());
        m_txq.MarkFastRetransmit(r.fastRtx);
        if (!m_cc.inFastRecovery)
        {
            m_ccOps->OnFastRetransmit(m_cc);
            m_cc.inFastRecovery = true;
            m_cc.fastRecoveryExit = m_txq.GetHighestSentTsn();
        }
        m_fastRtxPending = true;
    }
    uint32_t flight = m_txq.GetFlightSize();
    m_peerRwnd = arwnd > flight ? arwnd - flight : 0;
    m_lastAdvertisedRwnd = arwnd;
    // T3-rtx restarts when the earliest outstanding TSN is acknowledged (§6.3.2 R3) or is itself being fast
    // retransmitted (§7.2.4 step 4), never for the fast retransmission of a later TSN: otherwise, when the
    // fast retransmission of the earliest TSN is lost too, each later loss postpones the T3 that alone can
    // resend it, and the receiver delivers nothing behind the hole until the losses stop.
    const bool resendingEarliest = !r.fastRtx.empty() && r.fastRtx.front() == m_txq.GetCumAckPoint() + 1;
    if (!m_txq.HasOutstanding())
    {
        m_t3.Cancel();
    }
    else if (r.cumAdvanced || resendingEarliest)
    {
        RestartT3();
    }
    SyncTraces();
    TrySend();
    if (r.cumAdvanced && GetTxAvailable() > 0 && m_state == SctpState::Established)
    {
        NotifySend(GetTxAvailable()); // the send buffer has room again
    }
    CheckAllDataAcked();
}

// ------------------------------------------------------------------------------------------- receiving

void
SctpSocket::HandleData(const SctpDataChunk& c, bool* gapOrDup)
{
    if (c.GetUserData().empty())
    {
        std::vector<uint8_t> tsn;
        sctp::PutU32(tsn, c.GetTsn());
        SendAbort(SctpCauseCode::NoUserData, tsn);
        Fire(SctpEvent::AbortCmd);
        return;
    }
    if (c.GetStreamId() >= m_inStreams)
    {
        // §6.5: report it; the TSN is still acknowledged (the chunk reaches the queue, which discards it).
        auto err = std::make_shared<SctpErrorChunk>(SctpChunkType::Error);
        std::vector<uint8_t> v;
        sctp::PutU16(v, c.GetStreamId());
        sctp::PutU16(v, 0);
        err->AddCause(SctpCauseCode::InvalidStreamIdentifier, v);
        SendChunks({err});
    }
    bool hadGaps = m_rxq.HasGaps();
    SctpRxQueue::Verdict v = m_rxq.Receive(c);
    if (v != SctpRxQueue::Verdict::New || m_rxq.HasGaps() || hadGaps || c.IsImmediate())
    {
        // Out of order, a hole filled, a duplicate, or dropped for want of room: SACK at once (§6.2).
        *gapOrDup = true;
    }
}

void
SctpSocket::AfterDataPacket(bool gapOrDup)
{
    DeliverReady();
    if (m_state == SctpState::ShutdownSent)
    {
        // §9.2: the SHUTDOWN sender answers every packet with DATA at once, with a SHUTDOWN (which restarts
        // T2-shutdown); the SACK beside it carries any gap blocks the SHUTDOWN cannot.
        SendSack();
        SendShutdown();
        return;
    }
    if (gapOrDup || m_state != SctpState::Established || ++m_packetsSinceSack >= m_sackFreq)
    {
        SendSack();
        return;
    }
    if (!m_sackTimer.IsRunning())
    {
        m_sackTimer = Simulator::Schedule(m_sackDelay, &SctpSocket::SendSack, this);
    }
}

std::shared_ptr<SctpSackChunk>
SctpSocket::MakeSack()
{
    auto s = std::make_shared<SctpSackChunk>();
    m_rxq.FillSack(*s);
    return s;
}

void
SctpSocket::SendSack()
{
    m_sackTimer.Cancel();
    m_packetsSinceSack = 0;
    if (m_state == SctpState::Closed)
    {
        return;
    }
    SendChunks({MakeSack()});
}

void
SctpSocket::DeliverReady()
{
    auto& ready = m_rxq.Ready();
    if (ready.empty())
    {
        return;
    }
    while (!ready.empty())
    {
        m_rxBuffer.push_back(std::move(ready.front()));
        ready.pop_front();
    }
    NotifyDataRecv();
}

} // namespace ns3
