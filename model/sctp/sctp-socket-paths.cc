/*
 * SctpSocket: the association's destinations (RFC 9260 §5.4, §6.4, §8.2, §8.3). Which addresses the peer
 * may be reached at (its INIT or INIT ACK lists them), which one new DATA goes to (the primary while it is
 * active, else an active alternate, and back to the primary once a HEARTBEAT ACK shows it alive again),
 * where a retransmission goes (another active destination when there is one), each destination's error
 * counter against Path.Max.Retrans, and the heartbeats that confirm a new address and watch an idle one.
 */
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "common/class-log-component.h"

#include <algorithm>

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(SctpSocket);

SctpRtoEstimator::Params
SctpSocket::RtoParams() const
{
    return {m_rtoInitial, m_rtoMin, m_rtoMax, m_rtoAlpha, m_rtoBeta};
}

void
SctpSocket::ResetPaths(Ipv4Address primary)
{
    for (size_t k = 0; k < m_paths.size(); ++k)
    {
        m_paths[k].CancelTimers();
        if (k > 0 && m_registered)
        {
            // Back to COOKIE-WAIT (a Stale Cookie): the retried INIT ACK lists the peer's addresses again.
            m_sctp->RemoveAssociation(m_localPort, m_paths[k].address, m_peerPort);
        }
    }
    m_paths.assign(1, SctpPath{});
    m_paths[0].address = primary;
    m_paths[0].source = m_localAddress;
    m_paths[0].confirmed = true; // the handshake itself travels over it (§5.4)
    m_paths[0].rto.Reset(RtoParams());
    m_primary = 0;
    m_dataPath = 0;
    m_rxPath = 0;
    m_sackPath = 0;
}

void
SctpSocket::AddPeerAddresses(const std::vector<Ipv4Address>& addresses)
{
    for (Ipv4Address a : addresses)
    {
        bool usable = a != Ipv4Address::GetAny() && !a.IsBroadcast() && !a.IsMulticast() && !a.IsLocalhost();
        if (!usable || PathIndex(a).has_value())
        {
            continue;
        }
        if (m_paths.size() == SctpTxQueue::kMaxPaths)
        {
            NS_LOG_WARN("peer address " << a << " ignored: at most " << SctpTxQueue::kMaxPaths << " paths");
            continue;
        }
        if (m_registered && !m_sctp->AddAssociation(m_localPort, a, m_peerPort, this))
        {
            NS_LOG_WARN("peer address " << a << " ignored: another association uses it with these ports");
            continue;
        }
        SctpPath p;
        p.address = a;
        p.source = m_sctp->SourceFor(a);
        p.confirmed = false; // heartbeated before it carries anything else (§5.4)
        p.rto.Reset(RtoParams());
        m_paths.push_back(std::move(p));
        NS_LOG_INFO("path " << m_paths.size() - 1 << " to " << a << " from " << m_paths.back().source);
    }
}

void
SctpSocket::UnregisterPaths()
{
    for (const SctpPath& p : m_paths)
    {
        m_sctp->RemoveAssociation(m_localPort, p.address, m_peerPort);
    }
}

std::vector<Ipv4Address>
SctpSocket::AdvertisedAddresses() const
{
    std::vector<Ipv4Address> out;
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    if (!m_multihoming || ipv4 == nullptr)
    {
        return out; // §7.2 of RFC 5043: one address unless asked for more
    }
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t k = 0; k < ipv4->GetNAddresses(i); ++k)
        {
            Ipv4Address a = ipv4->GetAddress(i, k).GetLocal();
            if (!a.IsLocalhost() && a != Ipv4Address::GetAny() && ipv4->IsUp(i))
            {
                out.push_back(a);
            }
        }
    }
    return out;
}

std::optional<uint8_t>
SctpSocket::PathIndex(Ipv4Address a) const
{
    for (size_t p = 0; p < m_paths.size(); ++p)
    {
        if (m_paths[p].address == a)
        {
            return uint8_t(p);
        }
    }
    return std::nullopt;
}

uint8_t
SctpSocket::DestinationOf(const SctpTxQueue::Entry& e) const
{
    if (!e.sent || m_paths.size() == 1)
    {
        return m_dataPath;
    }
    // §6.4.1: a retransmission after a timeout goes to another active destination when there is one; a fast
    // retransmission stays where the chunk went (a loss, not a dead path), unless that path is down now.
    const bool stay = e.markedByFastRtx && Usable(e.path);
    if (!stay)
    {
        if (m_dataPath != e.path && Usable(m_dataPath))
        {
            return m_dataPath;
        }
        for (size_t p = 0; p < m_paths.size(); ++p)
        {
            if (p != e.path && Usable(uint8_t(p)))
            {
                return uint8_t(p);
            }
        }
    }
    return Usable(e.path) ? e.path : m_dataPath;
}

uint32_t
SctpSocket::AssociationErrorLimit() const
{
    // §8.2's note: Association.Max.Retrans above the sum of the paths' Path.Max.Retrans would leave every
    // destination inactive while the peer still counts as reachable; single-homed, the two limits coincide.
    // Only confirmed paths count: an address the peer listed but never answered at adds no errors.
    const auto confirmed = std::count_if(m_paths.begin(), m_paths.end(), [](const SctpPath& p) { return p.confirmed; });
    return std::min<uint64_t>(m_assocMaxRetrans, uint64_t(m_pathMaxRetrans) * uint64_t(confirmed));
}

bool
SctpSocket::CountPathError(uint8_t p)
{
    SctpPath& path = m_paths[p];
    ++path.errorCount;
    if (path.active && path.errorCount > m_pathMaxRetrans)
    {
        SetPathActive(p, false); // §8.2
    }
    if (!path.confirmed)
    {
        return false; // an address the peer listed but we never reached is not evidence the peer is gone
    }
    ++m_errorCount;
    if (m_errorCount > AssociationErrorLimit())
    {
        NS_LOG_INFO("retransmission limit reached, association aborted");
        SendAbort(SctpCauseCode::ProtocolViolation, {});
        Fire(SctpEvent::RetransLimit);
        return true;
    }
    return false;
}

void
SctpSocket::SetPathActive(uint8_t p, bool active)
{
    SctpPath& path = m_paths[p];
    if (path.active == active)
    {
        return;
    }
    path.active = active;
    NS_LOG_INFO("path " << unsigned(p) << " to " << path.address << (active ? " active" : " inactive"));
    m_pathStateTrace(path.address, active);
    if (!active && !path.hbOutstanding)
    {
        // Idle from now on: heartbeated an HB.interval + RTO on, to learn when it is back, not on a period
        // set while it carried data (at the start, RTO.Initial's).
        ScheduleHeartbeat(p);
    }
    ChooseDataPath();
}

void
SctpSocket::ChooseDataPath()
{
    uint8_t next = m_primary;
    if (!Usable(m_primary))
    {
        // Failover (§6.4): stay on an alternate that works, else take the first that does; with none
        // active, keep to the primary.
        next = Usable(m_dataPath) ? m_dataPath : m_primary;
        for (size_t p = 0; next == m_primary && p < m_paths.size(); ++p)
        {
            if (Usable(uint8_t(p)))
            {
                next = uint8_t(p);
            }
        }
    }
    if (next != m_dataPath)
    {
        NS_LOG_INFO("data path " << m_paths[m_dataPath].address << " -> " << m_paths[next].address);
        m_dataPathTrace(m_paths[m_dataPath].address, m_paths[next].address);
        m_dataPath = next;
        SyncTraces();
    }
}

SctpPathInfo
SctpSocket::GetPathInfo(size_t p) const
{
    const SctpPath& path = m_paths.at(p);
    SctpPathInfo i;
    i.address = path.address;
    i.source = path.source;
    i.active = path.active;
    i.confirmed = path.confirmed;
    i.primary = p == m_primary;
    i.dataPath = p == m_dataPath;
    i.errorCount = path.errorCount;
    i.rto = path.rto.GetRto();
    i.srtt = path.rto.GetSrtt();
    i.cwnd = path.cc.cwnd;
    i.flight = m_txq.GetFlightSize(uint8_t(p));
    i.counters = path.counters;
    return i;
}

// ------------------------------------------------------------------------------------------- heartbeats

void
SctpSocket::StartHeartbeats(uint8_t p)
{
    if (m_paths[p].confirmed)
    {
        ScheduleHeartbeat(p);
        return;
    }
    m_paths[p].hbTimer.Cancel();
    m_paths[p].hbTimer = Simulator::ScheduleNow(&SctpSocket::HeartbeatTimer, this, p);
}

void
SctpSocket::ScheduleHeartbeat(uint8_t p)
{
    SctpPath& path = m_paths[p];
    path.hbTimer.Cancel();
    if (!path.confirmed)
    {
        // §5.4: an unconfirmed address is probed once per RTO until it answers, heartbeats on or off.
        path.hbTimer = Simulator::Schedule(path.rto.GetRto(), &SctpSocket::HeartbeatTimer, this, p);
        return;
    }
    if (!m_hbEnabled)
    {
        return;
    }
    // §8.3: RTO + HB.interval, jittered by +/- 50 % of RTO.
    // RTO * (1 + jitter) with jitter in [-0.5, 0.5), written so that no Time is ever negative.
    double factor = m_rng->GetValue(0.5, 1.5);
    Time d = m_hbInterval + NanoSeconds(int64_t(factor * double(path.rto.GetRto().GetNanoSeconds())));
    path.hbTimer = Simulator::Schedule(d, &SctpSocket::HeartbeatTimer, this, p);
}

void
SctpSocket::HeartbeatTimer(uint8_t p)
{
    if (m_state != SctpState::Established)
    {
        return;
    }
    SctpPath& path = m_paths[p];
    NS_LOG_LOGIC("heartbeat timer of path " << unsigned(p) << ", idle for "
                                            << (Simulator::Now() - path.lastDataSent).As(Time::MS));
    if (path.hbOutstanding)
    {
        path.rto.BackOff();
        SyncTraces();
        if (CountPathError(p))
        {
            return;
        }
    }
    if (!path.confirmed || Simulator::Now() - path.lastDataSent >= m_hbInterval || path.hbOutstanding)
    {
        SendHeartbeat(p);
    }
    ScheduleHeartbeat(p);
}

void
SctpSocket::SendHeartbeat(uint8_t p)
{
    SctpPath& path = m_paths[p];
    // Heartbeat Info: send time (ns) and a nonce, echoed by the peer; the nonce also names the path.
    std::vector<uint8_t> info;
    uint64_t t = uint64_t(Simulator::Now().GetNanoSeconds());
    sctp::PutU32(info, uint32_t(t >> 32));
    sctp::PutU32(info, uint32_t(t));
    path.hbNonce = (uint64_t(RandomNonZero32()) << 32) | RandomNonZero32();
    sctp::PutU32(info, uint32_t(path.hbNonce >> 32));
    sctp::PutU32(info, uint32_t(path.hbNonce));
    auto hb = std::make_shared<SctpHeartbeatChunk>(false);
    hb->SetInfo(info);
    SendChunksTo({hb}, p, m_peerTag);
    path.hbOutstanding = true;
    ++path.counters.heartbeats;
    m_heartbeatTrace(path.address);
}

void
SctpSocket::HandleHeartbeatAck(const SctpHeartbeatChunk& c)
{
    const auto& info = c.GetInfo();
    if (info.size() != 16)
    {
        return;
    }
    sctp::WireReader r(info.data(), info.size());
    uint64_t t = (uint64_t(r.U32()) << 32) | r.U32();
    uint64_t nonce = (uint64_t(r.U32()) << 32) | r.U32();
    for (size_t k = 0; k < m_paths.size(); ++k)
    {
        SctpPath& path = m_paths[k];
        if (!path.hbOutstanding || nonce != path.hbNonce)
        {
            continue;
        }
        const uint8_t p = uint8_t(k);
        const bool wasConfirmed = path.confirmed;
        path.hbOutstanding = false;
        path.confirmed = true;
        path.errorCount = 0;
        m_errorCount = 0; // §8.1: the peer answered
        ++path.counters.heartbeatAcks;
        path.rto.Measure(Simulator::Now() - NanoSeconds(int64_t(t)));
        SyncTraces();
        if (!wasConfirmed)
        {
            ScheduleHeartbeat(p); // from now on at HB.interval
        }
        if (path.active)
        {
            ChooseDataPath(); // a newly confirmed path may be the one to fail over to
        }
        SetPathActive(p, true);
        return;
    }
}

} // namespace ns3
