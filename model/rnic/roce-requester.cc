/*
 * RoceTransport's requester: sending the send queue's packets, taking ACKs, NAKs and Read Responses, going back
 * on a NAK or a timeout (roce-transport.h).
 */
#include "rnic/roce-transport.h"

#include "common/class-log-component.h"

#include "ns3/simulator.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(RoceTransport);

namespace
{

bool
IsSend(WrOpcode t)
{
    return t == WrOpcode::Send || t == WrOpcode::SendSE || t == WrOpcode::SendInv || t == WrOpcode::SendSEInv;
}

/** The opcode of packet `k` of `n` of a Send or Write. */
IbOpcode
RequestOpcode(WrOpcode t, uint32_t k, uint32_t n)
{
    const bool inv = t == WrOpcode::SendInv || t == WrOpcode::SendSEInv;
    const bool last = k + 1 == n;
    if (IsSend(t))
    {
        if (n == 1)
        {
            return inv ? IbOpcode::SendOnlyInv : IbOpcode::SendOnly;
        }
        return k == 0 ? IbOpcode::SendFirst : !last ? IbOpcode::SendMiddle
                                            : inv   ? IbOpcode::SendLastInv
                                                    : IbOpcode::SendLast;
    }
    if (n == 1)
    {
        return IbOpcode::WriteOnly;
    }
    return k == 0 ? IbOpcode::WriteFirst : last ? IbOpcode::WriteLast : IbOpcode::WriteMiddle;
}
} // namespace

RoceTransport::SendEntry*
RoceTransport::EntryOf(uint32_t psn)
{
    for (SendEntry& e : m_sq)
    {
        const int32_t k = roce::PsnDiff(psn, e.firstPsn);
        if (k >= 0 && uint32_t(k) < e.packets)
        {
            return &e;
        }
    }
    return nullptr;
}

uint32_t
RoceTransport::OutstandingReads() const
{
    uint32_t n = 0;
    for (const SendEntry& e : m_sq)
    {
        if (roce::PsnDiff(e.firstPsn, m_maxPsn) >= 0)
        {
            break; // not sent yet, nor anything after it
        }
        n += e.wr.type == WrOpcode::Read ? 1 : 0;
    }
    return n;
}

bool
RoceTransport::HasRequestToSend()
{
    uint32_t lost;
    if (NextLost(&lost))
    {
        return true;
    }
    if (roce::PsnDiff(m_txPsn, m_nextPsn) >= 0)
    {
        return false;
    }
    const SendEntry* e = EntryOf(m_txPsn);
    const bool firstTime = roce::PsnDiff(m_txPsn, m_maxPsn) >= 0;
    // New packets wait while MaxInflight are unacknowledged (IRN's BDP cap), and a new Read while ORD Reads are
    // outstanding (IBA's initiator depth).
    if (firstTime && m_maxInflight > 0 && uint32_t(roce::PsnDiff(m_maxPsn, m_una)) >= m_maxInflight)
    {
        return false;
    }
    return e && !(e->wr.type == WrOpcode::Read && firstTime && OutstandingReads() >= m_ord);
}

bool
RoceTransport::NextLost(uint32_t* psn)
{
    if (!m_recovery)
    {
        return false;
    }
    if (roce::PsnDiff(m_rtxNext, m_una) < 0)
    {
        m_rtxNext = m_una;
    }
    while (roce::PsnDiff(m_rtxNext, m_recoverEnd) < 0)
    {
        const uint32_t at = uint32_t(roce::PsnDiff(m_rtxNext, m_una));
        const SendEntry* e = EntryOf(m_rtxNext);
        if (!e)
        {
            break;
        }
        // A Read's response PSNs are the responder's to send: its Read Request is resent only for its own PSN,
        // and responses missing after it are asked for again when the gap shows (OnReadResponse).
        const bool readResponse = e->wr.type == WrOpcode::Read && m_rtxNext != e->firstPsn;
        if (!readResponse && !(at < m_sacked.size() && m_sacked[at]))
        {
            *psn = m_rtxNext;
            return true;
        }
        m_rtxNext = readResponse ? PsnEnd(*e) : roce::PsnAdd(m_rtxNext, 1);
    }
    return false;
}

void
RoceTransport::MarkSacked(uint32_t psn)
{
    const int32_t at = roce::PsnDiff(psn, m_una);
    if (at < 0 || roce::PsnDiff(psn, m_maxPsn) >= 0)
    {
        return;
    }
    if (m_sacked.size() <= uint32_t(at))
    {
        m_sacked.resize(at + 1, false);
    }
    m_sacked[at] = true;
    if (roce::PsnDiff(psn, m_recoverEnd) >= 0)
    {
        m_recoverEnd = roce::PsnAdd(psn, 1);
    }
}

void
RoceTransport::EnterRecovery(uint32_t end)
{
    if (!m_recovery)
    {
        m_recovery = true;
        m_rtxNext = m_una;
        m_recoverEnd = m_una;
    }
    if (roce::PsnDiff(end, m_recoverEnd) > 0)
    {
        m_recoverEnd = end;
    }
    ScheduleTx();
}

void
RoceTransport::SendRequest()
{
    uint32_t psn;
    const bool lost = NextLost(&psn);
    const uint32_t next = SendRequestAt(lost ? psn : m_txPsn);
    if (lost)
    {
        m_rtxNext = next;
    }
    else
    {
        m_txPsn = next;
    }
    if (roce::PsnDiff(next, m_maxPsn) > 0)
    {
        m_maxPsn = next;
    }
    if (!m_timer.IsRunning())
    {
        RestartTimer();
    }
}

uint32_t
RoceTransport::RequestOctets()
{
    uint32_t psn;
    if (!NextLost(&psn))
    {
        psn = m_txPsn;
    }
    const SendEntry& e = *EntryOf(psn);
    const uint64_t offset = uint64_t(roce::PsnDiff(psn, e.firstPsn)) * m_mtu;
    if (e.wr.type == WrOpcode::Read)
    {
        return PacketSize(roce::kRethLen, 0);
    }
    const IbOpcodeLayout l = LayoutOf(RequestOpcode(e.wr.type, uint32_t(offset / m_mtu), e.packets));
    const uint32_t extended = (l.reth ? roce::kRethLen : 0) + (l.ieth ? roce::kIethLen : 0);
    return PacketSize(extended, uint32_t(std::min<uint64_t>(m_mtu, e.wr.local.length - offset)));
}

uint32_t
RoceTransport::SendRequestAt(uint32_t psn)
{
    SendEntry& e = *EntryOf(psn);
    const uint32_t k = uint32_t(roce::PsnDiff(psn, e.firstPsn));
    const bool again = roce::PsnDiff(psn, m_maxPsn) < 0;
    const bool read = e.wr.type == WrOpcode::Read;
    BufferWindow local;
    if (!ResolveLocal(e.wr.local, read ? MemAccess::kLocalWrite : MemAccess::kLocalRead, &local))
    {
        // Read as it goes out, so a buffer deregistered after posting fails here (as over iWARP).
        FailRequest(e, WcStatus::LocalOperationError, QpEvent::LocalError, WcStatus::Flushed);
        return psn;
    }
    RoceBth bth;
    bth.SetDestQp(m_conn->Params().remoteQpn);
    bth.SetPsn(psn);
    const uint64_t offset = uint64_t(k) * m_mtu;
    if (read)
    {
        RoceReth reth;
        reth.SetVirtualAddress(e.wr.remoteTo + offset);
        reth.SetRKey(e.wr.remoteStag);
        reth.SetDmaLength(uint32_t(e.wr.local.length - offset));
        bth.SetOpcode(IbOpcode::ReadRequest);
        SendPacket(bth, &reth, nullptr, 0, false);
    }
    else
    {
        const uint32_t len = uint32_t(std::min<uint64_t>(m_mtu, e.wr.local.length - offset));
        const IbOpcode op = RequestOpcode(e.wr.type, k, e.packets);
        const bool last = k + 1 == e.packets;
        bth.SetOpcode(op);
        bth.SetAckRequest(last);
        bth.SetSolicitedEvent(last && (e.wr.type == WrOpcode::SendSE || e.wr.type == WrOpcode::SendSEInv));
        RoceReth reth;
        RoceIeth ieth;
        const Header* ext = nullptr;
        if (LayoutOf(op).reth)
        {
            reth.SetVirtualAddress(e.wr.remoteTo);
            reth.SetRKey(e.wr.remoteStag);
            reth.SetDmaLength(e.wr.local.length);
            ext = &reth;
        }
        else if (LayoutOf(op).ieth)
        {
            ieth.SetRKey(e.wr.invalidateStag);
            ext = &ieth;
        }
        const uint8_t* data = local.buffer->Data() ? local.buffer->Data() + local.offset + offset : nullptr;
        SendPacket(bth, ext, data, len, true);
    }
    m_txTrace(psn, uint8_t(bth.GetOpcode()), again);
    m_retransmitted += again ? 1 : 0;
    // A Read's responses take the rest of its PSNs.
    return read ? PsnEnd(e) : roce::PsnAdd(psn, 1);
}

void
RoceTransport::OnAcknowledge(const RoceBth& bth, const RoceAeth& aeth, const uint32_t* sackPsn)
{
    const uint32_t psn = bth.GetPsn();
    if (aeth.IsAck())
    {
        Acknowledged(psn);
        return;
    }
    m_afterTimeout = false; // what is resent from here answers this NAK
    // A NAK's PSN is the request it refuses: everything before it was executed.
    if (roce::PsnDiff(psn, m_una) < 0 || roce::PsnDiff(psn, m_maxPsn) >= 0)
    {
        return; // about a PSN already acknowledged, or never sent
    }
    Acknowledged(roce::PsnAdd(psn, -1));
    if (aeth.IsNak() && aeth.GetValue() == uint8_t(IbNakCode::PsnSequenceError) && m_recoveryMode == SELECTIVE_REPEAT)
    {
        // IRN: the NAK names what arrived out of order; what is missing below it is lost, and only that goes again.
        if (sackPsn)
        {
            MarkSacked(*sackPsn);
        }
        EnterRecovery(sackPsn ? roce::PsnAdd(*sackPsn, 1) : roce::PsnAdd(psn, 1));
        return;
    }
    if (aeth.IsNak() && aeth.GetValue() == uint8_t(IbNakCode::PsnSequenceError))
    {
        if (++m_retries > m_retryCount)
        {
            RetryExceeded();
            return;
        }
        GoBack(psn);
        return;
    }
    // Any other NAK, and an RNR NAK (this model retries none): the request fails, and the stream with it.
    SendEntry* e = EntryOf(psn);
    if (!e)
    {
        return;
    }
    FailRequest(*e, WcStatus::RemoteError, QpEvent::RemoteError, WcStatus::RemoteError);
}

void
RoceTransport::Acknowledged(uint32_t psn)
{
    const uint32_t next = roce::PsnAdd(psn, 1);
    if (roce::PsnDiff(next, m_maxPsn) > 0)
    {
        return; // a PSN never sent
    }
    if (roce::PsnDiff(next, m_ackedTo) > 0)
    {
        m_ackedTo = next;
    }
    // The responder has executed everything below m_ackedTo, but a Read among it whose responses are not all
    // here lost some: the first unacknowledged PSN stays at its first missing response, asked for again.
    uint32_t una = m_ackedTo;
    for (SendEntry& e : m_sq)
    {
        if (roce::PsnDiff(e.firstPsn, una) >= 0)
        {
            break;
        }
        if (e.wr.type == WrOpcode::Read && e.responses < e.packets)
        {
            const uint32_t missing = roce::PsnAdd(e.firstPsn, e.responses);
            if (roce::PsnDiff(una, PsnEnd(e)) >= 0 && !e.askedAgain)
            {
                // Asked once; if that is lost too, the ACK timer goes back to it.
                e.askedAgain = true;
                m_afterTimeout = false;
                m_txPsn = roce::PsnDiff(m_txPsn, missing) > 0 ? missing : m_txPsn;
            }
            una = roce::PsnDiff(una, missing) > 0 ? missing : una;
            break;
        }
    }
    if (roce::PsnDiff(una, m_una) <= 0)
    {
        ScheduleTx();
        return; // nothing new
    }
    const uint32_t advanced = uint32_t(roce::PsnDiff(una, m_una));
    m_sacked.erase(m_sacked.begin(), m_sacked.begin() + std::min<size_t>(advanced, m_sacked.size()));
    m_una = una;
    m_retries = 0;
    if (roce::PsnDiff(m_txPsn, m_una) < 0)
    {
        m_txPsn = m_una; // what a go-back would have sent again is acknowledged already
    }
    if (m_recovery && roce::PsnDiff(m_una, m_recoverEnd) >= 0)
    {
        m_recovery = false; // everything found lost has arrived
    }
    CompleteDone();
    RestartTimer();
}

void
RoceTransport::OnReadResponse(const RoceBth& bth, Ptr<Packet> payload)
{
    SendEntry* e = nullptr;
    for (SendEntry& s : m_sq)
    {
        if (s.wr.type == WrOpcode::Read && s.responses < s.packets)
        {
            e = &s; // responses come for the oldest Read first
            break;
        }
    }
    const uint32_t psn = bth.GetPsn();
    if (!e || roce::PsnDiff(psn, m_maxPsn) >= 0)
    {
        return; // a late duplicate, or a PSN never asked for
    }
    const uint32_t expected = roce::PsnAdd(e->firstPsn, e->responses);
    const int32_t d = roce::PsnDiff(psn, expected);
    if (d < 0)
    {
        return; // a duplicate
    }
    if (d > 0)
    {
        if (m_readGapAt != expected) // one request per gap, not one per response behind it
        {
            m_readGapAt = expected;
            m_afterTimeout = false;
            GoBack(expected);
        }
        return;
    }
    const uint64_t offset = uint64_t(e->responses) * m_mtu;
    const uint32_t len = payload->GetSize();
    BufferWindow local;
    if (len != std::min<uint64_t>(m_mtu, e->wr.local.length - offset) ||
        !ResolveLocal(e->wr.local, MemAccess::kLocalWrite, &local))
    {
        FailRequest(*e, WcStatus::LocalProtectionError, QpEvent::LocalError, WcStatus::Flushed);
        return;
    }
    if (len > 0)
    {
        local.buffer->Write(local.offset + offset, payload);
    }
    if (e->responses == 0)
    {
        e->firstPlaced = Simulator::Now();
    }
    ++e->responses;
    m_readGapAt = kNoPsn;
    if (e->responses == e->packets)
    {
        m_deliveredTrace(true, e->wr.local.length, e->firstPlaced, Simulator::Now());
    }
    Placed(e->wr.local.stag, e->wr.local.to + offset, len);
    // A response acknowledges its own PSN and everything before it.
    Acknowledged(psn);
    CompleteDone();
}

uint32_t
RoceTransport::PsnEnd(const SendEntry& e)
{
    return roce::PsnAdd(e.firstPsn, e.packets);
}

void
RoceTransport::GoBack(uint32_t psn)
{
    if (roce::PsnDiff(psn, m_una) < 0)
    {
        psn = m_una;
    }
    if (roce::PsnDiff(psn, m_txPsn) < 0)
    {
        m_txPsn = psn;
    }
    ScheduleTx();
}

void
RoceTransport::CompleteDone()
{
    while (!m_sq.empty())
    {
        const SendEntry& e = m_sq.front();
        const bool done = e.wr.type == WrOpcode::Read ? e.responses == e.packets
                                                      : roce::PsnDiff(m_una, PsnEnd(e)) >= 0;
        if (!done)
        {
            break;
        }
        const SendEntry finished = e;
        m_sq.pop_front();
        Complete(finished, WcStatus::Success);
        if (m_failed || m_closed)
        {
            return; // the completion's handler ended the stream
        }
    }
    ScheduleTx(); // and a graceful close finishes once nothing is left to send
}

void
RoceTransport::RestartTimer()
{
    Simulator::Cancel(m_timer);
    if (roce::PsnDiff(m_maxPsn, m_una) > 0 && !m_failed && !m_closed)
    {
        m_timer = Simulator::Schedule(m_ackTimeout, &RoceTransport::OnTimeout, this);
    }
}

void
RoceTransport::OnTimeout()
{
    ++m_timeouts;
    m_afterTimeout = true;
    m_timeoutTrace(m_una);
    if (++m_retries > m_retryCount)
    {
        RetryExceeded();
        return;
    }
    m_readGapAt = kNoPsn;
    for (SendEntry& e : m_sq)
    {
        e.askedAgain = false;
    }
    if (m_recoveryMode == SELECTIVE_REPEAT)
    {
        EnterRecovery(m_maxPsn); // whatever is not known to have arrived goes again
    }
    else
    {
        GoBack(m_una);
    }
    RestartTimer();
}

void
RoceTransport::RetryExceeded()
{
    // IBA's "transport retry counter exceeded": the oldest request fails, the rest are flushed.
    NS_LOG_INFO("retry count exceeded at PSN " << m_una);
    if (m_sq.empty())
    {
        Fail(QpEvent::FatalError, WcStatus::Flushed);
        return;
    }
    FailRequest(m_sq.front(), WcStatus::FatalError, QpEvent::FatalError, WcStatus::Flushed);
}

void
RoceTransport::FailRequest(SendEntry& e, WcStatus status, QpEvent event, WcStatus rest)
{
    e.failed = true;
    e.failStatus = status;
    Fail(event, rest); // completes the queue in its order, this request with its own status
}

} // namespace ns3
