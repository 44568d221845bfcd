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
    const SctpPath& path = DataPath();
    m_cwndTrace = path.cc.cwnd;
    m_ssthreshTrace = path.cc.ssthresh;
    m_rtoTrace = path.rto.GetRto();
    m_srttTrace = path.rto.GetSrtt();
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
    uint32_t burst = 0;
    for (;;)
    {
        SctpTxQueue::Entry* first = m_txq.NextToSend(false);
        if (first == nullptr)
        {
            break;
        }
        // One packet goes to one destination: the first chunk's, and only chunks bound there join it.
        const uint8_t dest = DestinationOf(*first);
        std::vector<std::shared_ptr<SctpChunk>> chunks;
        const bool sackBundled = BundleSack(first->Bytes(), dest, &chunks);
        if (!FillDataPacket(dest, &burst, &chunks))
        {
            break;
        }
        if (sackBundled)
        {
            m_sackTimer.Cancel();
            m_packetsSinceSack = 0;
        }
        SendChunksTo(chunks, dest, m_peerTag);
        m_paths[dest].lastDataSent = Simulator::Now();
        ++burst;
        if (!m_paths[dest].t3.IsRunning())
        {
            RestartT3(dest);
        }
    }
    SyncTraces();
}

bool
SctpSocket::BundleSack(uint32_t firstChunkBytes, uint8_t dest, std::vector<std::shared_ptr<SctpChunk>>* chunks)
{
    if (!m_sackTimer.IsRunning())
    {
        return false;
    }
    // A SACK is due anyway: let it ride with the data (control chunks first, §6.10) when the data goes where
    // the SACK must (§6.4), or send it on its own if a full-sized chunk would not fit beside it.
    auto sack = MakeSack();
    const uint32_t budget = PacketBudget();
    if (dest == m_sackPath && sack->GetSerializedSize() + firstChunkBytes <= budget)
    {
        chunks->push_back(sack);
        return true;
    }
    m_sackTimer.Cancel();
    m_packetsSinceSack = 0;
    SendChunksTo({sack}, m_sackPath, m_peerTag);
    return false;
}

bool
SctpSocket::FillDataPacket(uint8_t dest, uint32_t* burst, std::vector<std::shared_ptr<SctpChunk>>* chunks)
{
    const uint32_t budget = PacketBudget();
    SctpPath& path = m_paths[dest];
    uint32_t used = 0;
    for (const auto& c : *chunks)
    {
        used += c->GetSerializedSize();
    }
    uint32_t flight = m_txq.GetFlightSize(dest);
    bool anyData = false;
    for (;;)
    {
        SctpTxQueue::Entry* e = m_txq.NextToSend(false);
        if (e == nullptr || DestinationOf(*e) != dest)
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
            if (!m_fastRtxPending && flight > 0 && flight >= path.cc.cwnd)
            {
                break;
            }
        }
        else
        {
            if (flight >= path.cc.cwnd || *burst >= m_maxBurst)
            {
                break;
            }
            // Zero window: one chunk may probe when nothing is outstanding (§6.1 A).
            if (m_peerRwnd < sz && m_txq.GetFlightSize() > 0)
            {
                break;
            }
        }
        chunks->push_back(e->chunk);
        if (rtx)
        {
            // Fast or not by why the chunk was marked: fast retransmissions that do not fit the first
            // packet follow in later ones, when m_fastRtxPending no longer holds.
            m_rtxTrace(e->chunk->GetTsn(), e->markedByFastRtx);
            ++path.counters.retransmissions;
        }
        else
        {
            m_peerRwnd -= std::min(m_peerRwnd, sz);
        }
        ++path.counters.dataChunks;
        m_txq.OnSent(*e, Simulator::Now(), dest);
        flight += sz;
        used += sz;
        anyData = true;
    }
    m_fastRtxPending = false;
    return anyData;
}

void
SctpSocket::RestartT3(uint8_t p)
{
    SctpPath& path = m_paths[p];
    path.t3.Cancel();
    path.t3 = Simulator::Schedule(path.rto.GetRto(), &SctpSocket::T3Expired, this, p);
}

void
SctpSocket::T3Expired(uint8_t p)
{
    if (!T3Owed(p))
    {
        return;
    }
    SctpPath& path = m_paths[p];
    NS_LOG_INFO("T3-rtx of " << path.address << " expired, RTO " << path.rto.GetRto().As(Time::MS)
                             << " doubles");
    path.rto.BackOff();
    ++path.counters.timeouts;
    m_t3ExpiredTrace(path.rto.GetRto());
    path.cc.flightSize = m_txq.GetFlightSize(p);
    m_ccOps->OnRetransmissionTimeout(path.cc);
    m_txq.MarkAllForRetransmission(p);
    SyncTraces();
    // A peer that keeps advertising a zero window is alive: probing it is not an error (§6.1 A).
    if (m_lastAdvertisedRwnd != 0 && CountPathError(p))
    {
        return;
    }
    TrySend();
    if (!path.t3.IsRunning() && T3Owed(p))
    {
        RestartT3(p);
    }
}

bool
SctpSocket::T3Owed(uint8_t p) const
{
    // Single-homed: while anything is unacknowledged, chunks waiting to be resent included (as always).
    // Multihomed: while data is in flight to p; chunks marked after p's timeout are resent elsewhere and timed
    // there, so p's timer does not expire again for them, backing off p and counting errors against it.
    return m_paths.size() == 1 ? m_txq.HasOutstanding(p) : m_txq.GetFlightSize(p) > 0;
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
    // "cwnd fully used" (§7.2.1): within one MTU of it, so an MTU-granular sender still grows.
    std::array<bool, SctpTxQueue::kMaxPaths> fullCwnd{};
    for (size_t p = 0; p < m_paths.size(); ++p)
    {
        fullCwnd[p] = m_txq.GetFlightSize(uint8_t(p)) + m_paths[p].cc.mtu > m_paths[p].cc.cwnd;
    }
    SctpTxQueue::SackResult r = m_txq.ProcessSack(cum, gaps, Simulator::Now());
    if (r.stale)
    {
        return;
    }
    if (r.rtt)
    {
        m_paths[r.rttPath].rto.Measure(*r.rtt);
    }
    if (r.cumAdvanced)
    {
        m_errorCount = 0;
    }
    UpdatePathsOnAck(r, fullCwnd);
    if (!r.fastRtx.empty())
    {
        NS_LOG_INFO("fast retransmit of " << r.fastRtx.size() << " chunk(s) from TSN " << r.fastRtx.front());
        m_txq.MarkFastRetransmit(r.fastRtx);
        // §7.2.4 step 2: the window of each destination a marked chunk was last sent to, once per recovery.
        for (size_t p = 0; p < m_paths.size(); ++p)
        {
            SctpCcState& cc = m_paths[p].cc;
            if ((r.fastRtxPaths & (1u << p)) && !cc.inFastRecovery)
            {
                m_ccOps->OnFastRetransmit(cc);
                cc.inFastRecovery = true;
                cc.fastRecoveryExit = m_txq.GetHighestSentTsn();
            }
        }
        m_fastRtxPending = true;
    }
    uint32_t flight = m_txq.GetFlightSize();
    m_peerRwnd = arwnd > flight ? arwnd - flight : 0;
    m_lastAdvertisedRwnd = arwnd;
    // T3-rtx restarts when the earliest outstanding TSN is acknowledged (§6.3.2 R3) or is itself being fast
    // retransmitted (§7.2.4 step 4), never for the fast retransmission of a later TSN: otherwise, when the
    // fast retransmission of the earliest TSN is lost too, each later loss postpones the T3 that alone can
    // resend it, and the receiver delivers nothing behind the hole until the losses stop. Per destination
    // (R3): a path's timer restarts when its own earliest outstanding chunk is acknowledged, so a failed
    // primary still times out while an alternate's chunks are, and an alternate's chunks acknowledged by
    // gap blocks (behind a hole the primary left) keep its timer from expiring.
    const bool resendingEarliest = !r.fastRtx.empty() && r.fastRtx.front() == m_txq.GetCumAckPoint() + 1;
    for (size_t k = 0; k < m_paths.size(); ++k)
    {
        const uint8_t p = uint8_t(k);
        if (!T3Owed(p))
        {
            m_paths[p].t3.Cancel();
        }
        else if ((r.pathsEarliestAcked & (1u << p)) || (resendingEarliest && p == r.fastRtxPath))
        {
            RestartT3(p);
        }
    }
    SyncTraces();
    TrySend();
    if (r.cumAdvanced && GetTxAvailable() > 0 && m_state == SctpState::Established)
    {
        NotifySend(GetTxAvailable()); // the send buffer has room again
    }
    CheckAllDataAcked();
}

void
SctpSocket::UpdatePathsOnAck(const SctpTxQueue::SackResult& r,
                             const std::array<bool, SctpTxQueue::kMaxPaths>& fullCwnd)
{
    for (size_t k = 0; k < m_paths.size(); ++k)
    {
        SctpPath& path = m_paths[k];
        if (r.pathsAcked & (1u << k))
        {
            path.errorCount = 0; // §8.2: a chunk sent there was acknowledged
        }
        if (path.cc.inFastRecovery && TsnLe(path.cc.fastRecoveryExit, m_txq.GetCumAckPoint()))
        {
            path.cc.inFastRecovery = false;
        }
        // Each destination's window moves with what was acknowledged of the data sent to it (§7.2); the
        // data path hears every SACK, as the one path of a single-homed association always did.
        if (r.bytesAckedByPath[k] > 0 || k == m_dataPath)
        {
            path.cc.flightSize = m_txq.GetFlightSize(uint8_t(k));
            m_ccOps->OnAck(path.cc, r.bytesAckedByPath[k], r.cumAdvanced, fullCwnd[k]);
        }
    }
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
    SendChunksTo({MakeSack()}, m_sackPath, m_peerTag);
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
