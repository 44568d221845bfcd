/*
 * RoceTransport's responder: requests taken in PSN order, placed as they land, answered by coalesced ACKs, NAKs
 * and Read Responses (roce-transport.h).
 */
#include "rnic/roce-transport.h"

#include "common/class-log-component.h"

#include "ns3/simulator.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(RoceTransport);

namespace
{
/** The AETH credit code for "no credit count": RoCE RNICs use no end-to-end credits (IBA §9.7.7.2.5). */
constexpr uint8_t kNoCredits = 31;
/** The RNR NAK's timer code; this model's requester does not wait on it (roce-transport.h). */
constexpr uint8_t kRnrTimerCode = 0;

bool
StartsMessage(IbOpcode op)
{
    return op == IbOpcode::SendFirst || op == IbOpcode::SendOnly || op == IbOpcode::SendOnlyInv ||
           op == IbOpcode::WriteFirst || op == IbOpcode::WriteOnly || op == IbOpcode::ReadRequest;
}

bool
EndsMessage(IbOpcode op)
{
    return op != IbOpcode::SendFirst && op != IbOpcode::SendMiddle && op != IbOpcode::WriteFirst &&
           op != IbOpcode::WriteMiddle;
}

bool
IsSendOp(IbOpcode op)
{
    return op == IbOpcode::SendFirst || op == IbOpcode::SendMiddle || op == IbOpcode::SendLast ||
           op == IbOpcode::SendOnly || op == IbOpcode::SendLastInv || op == IbOpcode::SendOnlyInv;
}

bool
IsWriteOp(IbOpcode op)
{
    return op == IbOpcode::WriteFirst || op == IbOpcode::WriteMiddle || op == IbOpcode::WriteLast ||
           op == IbOpcode::WriteOnly;
}
} // namespace

void
RoceTransport::OnRequest(const RoceReceived& rx, Ptr<Packet> payload)
{
    if (m_responderStopped)
    {
        return; // an error NAK is on its way: the stream ends when it has left
    }
    const uint32_t psn = rx.bth.GetPsn();
    const int32_t d = roce::PsnDiff(psn, m_ePsn);
    if (d > 0 && m_recoveryMode == SELECTIVE_REPEAT)
    {
        Hold(rx, payload);
        return;
    }
    if (d > 0)
    {
        // Go-back-N: a packet past a gap is dropped; the requester hears of the gap once.
        if (!m_nakSent)
        {
            m_nakSent = true;
            ++m_naksSent;
            m_nakTrace(m_ePsn);
            QueueReply(IbOpcode::Acknowledge, m_ePsn, RoceAeth::Nak(IbNakCode::PsnSequenceError, m_msn));
        }
        return;
    }
    if (d < 0)
    {
        // A duplicate: its ACK was lost, or it was resent before the ACK came. A Read is executed again (its
        // responses were lost); anything else is ACKed, whether it asks or not: a packet resent alone (after a
        // timeout, or by selective repeat) may be the only one the requester sends.
        if (rx.bth.GetOpcode() == IbOpcode::ReadRequest)
        {
            ExecuteRead(rx, true);
        }
        else
        {
            Ack();
        }
        return;
    }
    m_nakSent = false;
    if (!ExecuteInOrder(rx, payload))
    {
        return;
    }
    // Selective repeat: what arrived past the gap follows, in order, now that the gap is filled.
    bool drained = false;
    for (auto it = m_held.find(m_ePsn); it != m_held.end(); it = m_held.find(m_ePsn))
    {
        const auto held = it->second;
        m_held.erase(it);
        drained = true;
        if (!ExecuteInOrder(held.first, held.second))
        {
            return;
        }
    }
    if (drained && m_unacked > 0)
    {
        Ack(); // the requester learns at once how far the gap's filling got it
    }
}

bool
RoceTransport::ExecuteInOrder(const RoceReceived& rx, Ptr<Packet> payload)
{
    if (!Execute(rx, payload))
    {
        return false;
    }
    if (rx.bth.GetOpcode() != IbOpcode::ReadRequest)
    {
        m_ePsn = roce::PsnAdd(m_ePsn, 1);
        if (rx.bth.GetAckRequest() || ++m_unacked >= m_ackEvery)
        {
            Ack();
        }
    }
    if (m_recvDone)
    {
        // After the ACK is queued: a handler that closes the queue pair still lets the peer learn its Send
        // arrived.
        const WorkCompletion c = *m_recvDone;
        m_recvDone.reset();
        ReportCompletion(c);
    }
    return !m_failed && !m_closed && !m_responderStopped;
}

void
RoceTransport::Hold(const RoceReceived& rx, Ptr<Packet> payload)
{
    const uint32_t psn = rx.bth.GetPsn();
    if (!m_held.count(psn))
    {
        m_held.emplace(psn, std::make_pair(rx, payload));
    }
    ++m_naksSent;
    m_nakTrace(m_ePsn);
    RoceTransport::Reply r{};
    r.opcode = IbOpcode::Acknowledge;
    r.psn = m_ePsn;
    r.aeth = RoceAeth::Nak(IbNakCode::PsnSequenceError, m_msn);
    r.sack = true;
    r.sackPsn = psn;
    m_replies.push_back(r);
    ScheduleTx();
}

bool
RoceTransport::Execute(const RoceReceived& rx, Ptr<Packet> payload)
{
    const IbOpcode op = rx.bth.GetOpcode();
    const bool inSequence = m_in.kind == Inbound::None   ? StartsMessage(op)
                            : m_in.kind == Inbound::Send ? IsSendOp(op) && !StartsMessage(op)
                                                         : IsWriteOp(op) && !StartsMessage(op);
    // Every packet but a message's last carries exactly the MTU (IBA §9.7.7.2.2).
    if (!inSequence || (!EndsMessage(op) && payload->GetSize() != m_mtu) || payload->GetSize() > m_mtu)
    {
        ResponderError(IbNakCode::InvalidRequest, WcStatus::LocalLengthError);
        return false;
    }
    if (IsSendOp(op))
    {
        return ExecuteSend(rx, payload);
    }
    if (IsWriteOp(op))
    {
        return ExecuteWrite(rx, payload);
    }
    return ExecuteRead(rx, false);
}

bool
RoceTransport::ExecuteSend(const RoceReceived& rx, Ptr<Packet> payload)
{
    const IbOpcode op = rx.bth.GetOpcode();
    if (m_in.kind == Inbound::None)
    {
        if (m_recvs.empty())
        {
            QueueReply(IbOpcode::Acknowledge, m_ePsn, RoceAeth::RnrNak(kRnrTimerCode, m_msn));
            return false; // not executed: the PSN stays expected
        }
        m_in.kind = Inbound::Send;
        m_in.recv = m_recvs.front();
        m_recvs.pop_front();
    }
    const uint32_t len = payload->GetSize();
    const LocalBuffer& b = m_in.recv.buffer;
    BufferWindow w;
    if (m_in.placed + len > b.length)
    {
        ResponderError(IbNakCode::InvalidRequest, WcStatus::LocalLengthError);
        return false;
    }
    if (!ResolveLocal(LocalBuffer{b.stag, b.to + m_in.placed, len}, MemAccess::kLocalWrite, &w))
    {
        ResponderError(IbNakCode::RemoteOperationalError, WcStatus::LocalProtectionError);
        return false;
    }
    if (len > 0)
    {
        w.buffer->Write(w.offset, payload);
        if (!m_octetsPlaced.IsNull())
        {
            m_octetsPlaced(len);
        }
    }
    if (m_in.placed == 0)
    {
        m_in.firstPlaced = Simulator::Now();
    }
    m_in.placed += len;
    if (!EndsMessage(op))
    {
        return true;
    }
    WorkCompletion c;
    c.id = m_in.recv.id;
    c.type = WrOpcode::Recv;
    c.byteLength = m_in.placed;
    c.solicited = rx.bth.GetSolicitedEvent();
    if (rx.layout.ieth)
    {
        if (m_memory->RemoteInvalidate(rx.ieth.GetRKey(), m_ctx) != InvalidateResult::Invalidated)
        {
            ResponderError(IbNakCode::InvalidRequest, WcStatus::LocalProtectionError);
            return false;
        }
        c.invalidated = true;
        c.invalidatedStag = rx.ieth.GetRKey();
    }
    c.firstPlaced = m_in.firstPlaced;
    c.delivered = Simulator::Now();
    m_in = Inbound();
    m_deliveredTrace(false, c.byteLength, c.firstPlaced, c.delivered);
    m_msn = roce::PsnAdd(m_msn, 1);
    m_recvDone = c; // reported once the PSN has moved on and the ACK is queued (ExecuteInOrder)
    return true;
}

bool
RoceTransport::ExecuteWrite(const RoceReceived& rx, Ptr<Packet> payload)
{
    if (m_in.kind == Inbound::None)
    {
        const RoceReth& r = rx.reth;
        if (m_memory->Resolve(r.GetRKey(), r.GetVirtualAddress(), r.GetDmaLength(), MemAccess::kRemoteWrite, m_ctx,
                              &m_in.window) != TagCheck::Ok)
        {
            ResponderError(IbNakCode::RemoteAccessError, WcStatus::Success);
            return false;
        }
        m_in.kind = Inbound::Write;
        m_in.stag = r.GetRKey();
        m_in.to = r.GetVirtualAddress();
    }
    const uint32_t len = payload->GetSize();
    const bool last = EndsMessage(rx.bth.GetOpcode());
    if (m_in.placed + len > m_in.window.length || (last && m_in.placed + len != m_in.window.length))
    {
        ResponderError(IbNakCode::InvalidRequest, WcStatus::Success);
        return false;
    }
    if (len > 0)
    {
        m_in.window.buffer->Write(m_in.window.offset + m_in.placed, payload);
    }
    if (m_in.placed == 0)
    {
        m_in.firstPlaced = Simulator::Now();
    }
    Placed(m_in.stag, m_in.to + m_in.placed, len);
    m_in.placed += len;
    if (last)
    {
        m_deliveredTrace(true, m_in.placed, m_in.firstPlaced, Simulator::Now());
        m_in = Inbound();
        m_msn = roce::PsnAdd(m_msn, 1);
    }
    return true;
}

bool
RoceTransport::ExecuteRead(const RoceReceived& rx, bool duplicate)
{
    const RoceReth& r = rx.reth;
    const uint32_t len = r.GetDmaLength();
    BufferWindow source;
    if (m_memory->Resolve(r.GetRKey(), r.GetVirtualAddress(), len, MemAccess::kRemoteRead, m_ctx, &source) !=
        TagCheck::Ok)
    {
        if (!duplicate)
        {
            ResponderError(IbNakCode::RemoteAccessError, WcStatus::Success);
        }
        return false;
    }
    const uint32_t n = std::max<uint32_t>(1, (len + m_mtu - 1) / m_mtu);
    if (!duplicate)
    {
        m_msn = roce::PsnAdd(m_msn, 1);
        m_ePsn = roce::PsnAdd(m_ePsn, n); // the responses take the request's PSN and those after it
        m_unacked = 0;                    // they acknowledge what came before
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        Reply reply;
        reply.opcode = n == 1 ? IbOpcode::ReadResponseOnly
                       : i == 0     ? IbOpcode::ReadResponseFirst
                       : i + 1 == n ? IbOpcode::ReadResponseLast
                                    : IbOpcode::ReadResponseMiddle;
        reply.psn = roce::PsnAdd(rx.bth.GetPsn(), i);
        reply.aeth = RoceAeth::Ack(kNoCredits, m_msn);
        reply.source = source;
        reply.offset = source.offset + uint64_t(i) * m_mtu;
        reply.length = std::min<uint32_t>(m_mtu, len - i * m_mtu);
        m_replies.push_back(reply);
    }
    ScheduleTx();
    return true;
}

void
RoceTransport::QueueReply(IbOpcode op, uint32_t psn, const RoceAeth& aeth)
{
    RoceTransport::Reply r{};
    r.opcode = op;
    r.psn = psn;
    r.aeth = aeth;
    m_replies.push_back(r);
    ScheduleTx();
}

void
RoceTransport::Ack()
{
    m_unacked = 0;
    QueueReply(IbOpcode::Acknowledge, roce::PsnAdd(m_ePsn, -1), RoceAeth::Ack(kNoCredits, m_msn));
}

void
RoceTransport::ResponderError(IbNakCode code, WcStatus recvStatus)
{
    // The NAK goes behind the replies already owed (Read Responses, ACKs), and the stream ends once it has left
    // (TxNext); meanwhile no request is executed.
    m_responderStopped = true;
    RoceTransport::Reply r{};
    r.opcode = IbOpcode::Acknowledge;
    r.psn = m_ePsn;
    r.aeth = RoceAeth::Nak(code, m_msn);
    r.failAfter = true;
    m_replies.push_back(r);
    ScheduleTx();
    if (m_in.kind == Inbound::Send && recvStatus != WcStatus::Success)
    {
        WorkCompletion c;
        c.id = m_in.recv.id;
        c.type = WrOpcode::Recv;
        c.status = recvStatus;
        m_in = Inbound();
        ReportCompletion(c);
    }
}

} // namespace ns3
