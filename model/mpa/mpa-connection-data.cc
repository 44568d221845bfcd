/*
 * MpaConnection data path: FPDUs out (one DDP segment each), in-order deframing in, and
 * early placement from segments TCP holds out of order.
 */
#include "mpa/mpa-connection.h"
#include "mpa/mpa-rtr.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(MpaConnection);

namespace
{
/**
 * The stream offset just past the CRC of an FPDU that starts at `start` and carries a ULPDU of
 * `ulpduLen` octets: where MpaFpduReceiver stands once it has deframed it. With markers, one
 * falls on every multiple of 512 inside the FPDU (one right at `start` leads it).
 */
uint64_t
FpduEnd(uint64_t start, uint32_t ulpduLen, bool markers)
{
    uint64_t pos = start;
    uint64_t left = iwarp::kMpaLengthFieldLen + ulpduLen + MpaPadLength(ulpduLen) + iwarp::kMpaCrcLen;
    while (left > 0)
    {
        if (markers && pos % iwarp::kMpaMarkerInterval == 0)
        {
            pos += iwarp::kMpaMarkerLen;
            continue;
        }
        const uint64_t chunk = std::min<uint64_t>(left, iwarp::kMpaMarkerInterval - pos % iwarp::kMpaMarkerInterval);
        pos += chunk;
        left -= chunk;
    }
    return pos;
}

/**
 * Tag a ULPDU handed to DDP with its FPDU's end offset, modulo 2^32 (the early-placement path
 * only knows offsets modulo TCP's sequence space), so that DDP recognises the in-order copy of
 * an FPDU it was given early (DdpLlpPositionTag).
 */
void
TagPosition(Ptr<Packet> ulpdu, uint64_t fpduEnd)
{
    DdpLlpPositionTag tag{uint64_t(uint32_t(fpduEnd))};
    ulpdu->ReplacePacketTag(tag);
}
} // namespace

uint32_t
MpaConnection::GetMulpdu() const
{
    // RFC 5044's formula counts the most markers an FPDU of EMSS can hold, so an FPDU of MULPDU
    // never exceeds one segment wherever it starts on the marker grid. (Before the peer has
    // said whether it wants markers, assume it does: the smaller value.)
    return MpaMulpdu(GetEffectiveMss(), m_tx ? m_txMarkers : true);
}

void
MpaConnection::AnnounceMulpdu()
{
    const uint32_t m = GetMulpdu();
    if (m != m_announcedMulpdu)
    {
        m_announcedMulpdu = m;
        NotifyMulpduChanged(m); // DDP-001
    }
}

bool
MpaConnection::WriteToTcp(Ptr<Packet> p)
{
    if (m_socket->Send(p, 0) < 0)
    {
        NS_LOG_WARN("TCP refused " << p->GetSize() << " octets");
        return false;
    }
    return true;
}

bool
MpaConnection::SendSegment(Ptr<Packet> segment)
{
    const bool open = m_state == ESTABLISHED || (m_state == FAILED && m_terminateAllowance);
    if (!open)
    {
        m_wantSendReady = m_state != CLOSED; // e.g. the responder still waits for the RTR
        return false;
    }
    AnnounceMulpdu(); // the MSS may have changed since the last segment
    if (segment->GetSize() > m_announcedMulpdu)
    {
        return false; // built for an older, larger MULPDU: DDP rebuilds it
    }
    const uint32_t framed = m_tx->FramedSize(segment->GetSize());
    const uint32_t unsent = UnsentInTcp();
    if (unsent == 0)
    {
        m_unsentIsWholeSegments = true; // TCP's next segment starts at the next octet written
    }
    if (m_socket->GetTxAvailable() < framed || (m_alignFpdus && unsent > 0 && !m_unsentIsWholeSegments))
    {
        // FPDU alignment: TCP cuts segments of SegmentSize octets from the first unsent octet, so an
        // FPDU written behind unsent octets that are not whole segments (a short FPDU: a message's
        // tail, or one holding a marker less) would start mid-segment. Wait until TCP has sent them
        // (OnTcpHighestSequence). Behind FPDUs that each fill a segment exactly it may queue: TCP
        // cuts there anyway, and queueing lets TCP send from its buffer as ACKs come back instead
        // of being handed one FPDU per transmission.
        m_wantSendReady = true;
        m_waitForLowWater = m_socket->GetTxAvailable() < framed; // OnSocketSendSpace waits for SendLowWater
        return false;
    }
    if (framed != GetEffectiveMss())
    {
        m_unsentIsWholeSegments = false;
    }
    Ptr<Packet> fpdu = m_tx->Frame(segment);
    if (!WriteToTcp(fpdu))
    {
        OnMpaError(iwarp::MpaError::LocalCatastrophic);
        return false;
    }
    m_fpduTxTrace(fpdu);
    if (m_state == FAILED)
    {
        // That was the Terminate after an MPA error: close once it has left.
        m_terminateAllowance = false;
        m_closeTimer.Cancel();
        Simulator::ScheduleNow(&MpaConnection::Close, this, CloseMode::Graceful);
    }
    return true;
}

uint32_t
MpaConnection::UnsentInTcp() const
{
    if (!m_tcp)
    {
        return 0;
    }
    const SequenceNumber32 tail = m_tcp->GetTxBuffer()->TailSequence();
    return tail > m_tcpHighestSent ? uint32_t(tail - m_tcpHighestSent) : 0;
}

void
MpaConnection::OnTcpHighestSequence(SequenceNumber32, SequenceNumber32 newValue)
{
    m_tcpHighestSent = newValue;
    if (m_alignFpdus && SendReadyDue() && UnsentInTcp() == 0)
    {
        // Called from inside TCP's transmit; the next FPDU written now goes out in a segment of its own
        // (TcpSocketBase::Send only schedules the transmission).
        m_wantSendReady = false;
        NotifySendReady();
    }
}

void
MpaConnection::OnSocketSendSpace(Ptr<Socket>, uint32_t)
{
    if (SendReadyDue())
    {
        m_wantSendReady = false;
        NotifySendReady();
    }
}

bool
MpaConnection::SendReadyDue() const
{
    return m_wantSendReady && (m_state == ESTABLISHED || m_state == FAILED) &&
           (!m_waitForLowWater || m_socket->GetTxAvailable() >= SendLowWater());
}

uint32_t
MpaConnection::SendLowWater() const
{
    // At most half the buffer, so that TCP still holds plenty when DDP is asked for more.
    const uint32_t half = m_tcp ? m_tcp->GetTxBuffer()->MaxBufferSize() / 2 : 0;
    return std::min(m_sendLowWater, half);
}

void
MpaConnection::OnSocketRecv(Ptr<Socket> socket)
{
    if (!m_rxFirstOctetSeen)
    {
        // The TCP sequence number of the first octet of the stream, to place out-of-order
        // segments by stream offset later.
        if (Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket))
        {
            Ptr<TcpRxBuffer> rb = tcp->GetRxBuffer();
            if (rb->Available() > 0)
            {
                m_rxStreamBase = rb->NextRxSequence() - rb->Available();
                m_rxFirstOctetSeen = true;
            }
        }
    }
    // Recv takes all that TCP holds; asking first saves the empty Recv that would end the loop.
    while (m_state != CLOSED && socket->GetRxAvailable() > 0)
    {
        Ptr<Packet> p = socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        switch (m_state)
        {
        case AWAIT_REQUEST:
        case AWAIT_REPLY:
        case AWAIT_ULP_DECISION: {
            const std::size_t old = m_setupBuf.size();
            m_setupBuf.resize(old + p->GetSize());
            p->CopyData(m_setupBuf.data() + old, p->GetSize());
            if (m_state != AWAIT_ULP_DECISION)
            {
                ConsumeSetup();
            }
            break;
        }
        case AWAIT_RTR:
        case ESTABLISHED:
            m_rx->Push(p);
            DeframeInOrder();
            break;
        default:
            NS_LOG_LOGIC("dropping " << p->GetSize() << " octets in state " << ToString(m_state));
            break;
        }
    }
}

void
MpaConnection::DeframeInOrder()
{
    while (m_state == ESTABLISHED || m_state == AWAIT_RTR)
    {
        Ptr<Packet> ulpdu;
        iwarp::MpaError err = iwarp::MpaError::CrcError;
        const auto r = m_rx->Next(&ulpdu, &err);
        if (r == MpaFpduReceiver::RxResult::NeedMore)
        {
            return;
        }
        if (r == MpaFpduReceiver::RxResult::Error)
        {
            OnMpaError(err); // CRC (0x02), marker/length (0x03)
            return;
        }
        m_fpduRxTrace(ulpdu);
        if (m_handedEarly)
        {
            // Only DDP's record of early placements reads the tag: until an FPDU has been handed
            // up early there is nothing to match, and the tag would cost every ULPDU a tag write.
            TagPosition(ulpdu, m_rx->GetStreamOffset());
        }
        if (m_state == AWAIT_RTR)
        {
            SetState(ESTABLISHED);
            if (m_rtrPending)
            {
                m_rtrPending = false;
                const MpaFirstUlpdu first = ClassifyFirstUlpdu(ulpdu);
                // An initiator that cannot go on (e.g. insufficient IRD, 0x06) sends a Terminate
                // in place of the RTR: hand it up so the ULP learns why.
                if (first == MpaFirstUlpdu::Terminate)
                {
                    NotifyReceive(ulpdu, m_rxOrder++);
                    return;
                }
                if (first != MpaFirstUlpdu::Rtr)
                {
                    NS_LOG_WARN("first ULPDU (" << ulpdu->GetSize() << " octets) is not the RTR");
                    OnMpaError(iwarp::MpaError::NoMatchingRtr); // RFC 6581
                    return;
                }
                if (m_wantSendReady)
                {
                    m_wantSendReady = false;
                    NotifySendReady();
                }
                continue; // the RTR is MPA's own: not handed to DDP
            }
            if (m_wantSendReady)
            {
                m_wantSendReady = false;
                Simulator::ScheduleNow(&MpaConnection::NotifySendReady, this);
            }
        }
        NotifyReceive(ulpdu, m_rxOrder++);
    }
}

void
MpaConnection::OnTcpSegment(Ptr<const Packet> p, const TcpHeader& h)
{
    // Early placement needs the FPDUs to be checkable on their own: CRC or markers.
    if (!m_outOfOrderPlacement || !m_rx || !m_rxStreamBaseKnown || p->GetSize() == 0 ||
        (m_state != ESTABLISHED && m_state != AWAIT_RTR) || (!m_crc && !m_rxMarkers))
    {
        return;
    }
    const SequenceNumber32 next = m_tcp->GetRxBuffer()->NextRxSequence();
    if (h.GetSequenceNumber() <= next)
    {
        return; // in order: the normal path delivers it
    }
    const uint64_t offset = uint32_t(h.GetSequenceNumber() - m_rxStreamBase);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    std::vector<std::vector<uint8_t>> ulpdus;
    MpaFpduReceiver::ParseAlignedFpdus(bytes.data(), bytes.size(), offset, m_rxMarkers, m_crc, &ulpdus);
    uint64_t at = offset; // the segment starts at an FPDU boundary; each FPDU follows the last
    for (const auto& octets : ulpdus)
    {
        Ptr<Packet> u = Create<Packet>(octets.data(), octets.size());
        at = FpduEnd(at, uint32_t(octets.size()), m_rxMarkers);
        TagPosition(u, at); // the position its in-order copy will have
        m_earlyPlacementTrace(u);
        m_handedEarly = true;
        NotifyReceive(u, kOrderUnknown); // placed now, delivered when TCP has the order (DDP-005)
    }
}

} // namespace ns3
