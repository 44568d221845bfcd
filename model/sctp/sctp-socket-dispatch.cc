/*
 * SctpSocket: what happens to a checksum-verified packet the L4 protocol hands over. A listener looks only
 * at INIT and COOKIE ECHO (anything else is out of the blue); an association checks the verification tag
 * (§8.5) and dispatches chunk by chunk, handling unknown types by their two high bits (§3.2), then decides
 * on the SACK for the DATA the packet carried.
 */
#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_USE(SctpSocket);

bool
SctpSocket::CheckVerificationTag(const SctpPacket& pkt) const
{
    // §8.5.1 exceptions: INIT carries tag 0; ABORT and SHUTDOWN COMPLETE with T set carry the peer's tag.
    uint32_t vtag = pkt.header.GetVerificationTag();
    const SctpChunk& first = *pkt.chunks.front();
    auto t = SctpChunkType(first.GetType());
    if (t == SctpChunkType::Init)
    {
        return vtag == 0;
    }
    if ((t == SctpChunkType::Abort || t == SctpChunkType::ShutdownComplete) && (first.GetFlags() & 0x01))
    {
        return vtag == m_peerTag;
    }
    if (t == SctpChunkType::ShutdownAck || t == SctpChunkType::Abort)
    {
        return vtag == m_myTag || vtag == m_peerTag; // either is acceptable here (§8.5.1 E, B)
    }
    return vtag == m_myTag;
}

void
SctpSocket::ReceivePacket(const SctpPacket& pkt, Ipv4Address src, Ipv4Address dst)
{
    Ptr<SctpSocket> self = this; // chunks may close and deregister us
    if (pkt.chunks.empty())
    {
        return;
    }
    auto firstType = SctpChunkType(pkt.chunks.front()->GetType());
    if (m_listening)
    {
        if (firstType == SctpChunkType::Init && pkt.header.GetVerificationTag() == 0)
        {
            if (pkt.chunks.size() == 1) // INIT must travel alone
            {
                HandleInitAsListener(pkt, static_cast<const SctpInitChunk&>(*pkt.chunks.front()), src);
            }
        }
        else if (firstType == SctpChunkType::CookieEcho)
        {
            HandleCookieEchoAsListener(
                pkt,
                static_cast<const SctpCookieEchoChunk&>(*pkt.chunks.front()).GetCookie(),
                src);
        }
        else
        {
            m_sctp->HandleOutOfTheBlue(pkt, src, dst); // e.g. DATA for an association that is gone
        }
        return;
    }
    if (m_state == SctpState::Closed)
    {
        return;
    }
    if (!CheckVerificationTag(pkt))
    {
        NS_LOG_INFO("verification tag mismatch, packet from " << src << " dropped");
        return;
    }
    m_rxPath = PathIndex(src).value_or(m_dataPath);
    DispatchChunks(pkt, 0);
}

void
SctpSocket::DispatchChunks(const SctpPacket& pkt, size_t firstChunk)
{
    Ptr<SctpSocket> self = this;
    bool sawData = false;
    bool gapOrDup = false;
    auto report = std::make_shared<SctpErrorChunk>(SctpChunkType::Error);
    for (size_t k = firstChunk; k < pkt.chunks.size() && m_state != SctpState::Closed; ++k)
    {
        const SctpChunk& c = *pkt.chunks[k];
        m_chunkRxTrace(c);
        switch (SctpChunkType(c.GetType()))
        {
        case SctpChunkType::Data:
            if (m_state == SctpState::Established || m_state == SctpState::ShutdownPending ||
                m_state == SctpState::ShutdownSent)
            {
                sawData = true;
                HandleData(static_cast<const SctpDataChunk&>(c), &gapOrDup);
            }
            break;
        case SctpChunkType::Sack:
            HandleSack(static_cast<const SctpSackChunk&>(c));
            break;
        case SctpChunkType::InitAck:
            if (m_state == SctpState::CookieWait)
            {
                HandleInitAck(static_cast<const SctpInitChunk&>(c));
            }
            return; // travels alone
        case SctpChunkType::CookieAck:
            Fire(SctpEvent::RcvCookieAck);
            break;
        case SctpChunkType::Heartbeat: {
            auto ack = std::make_shared<SctpHeartbeatChunk>(true);
            ack->SetInfo(static_cast<const SctpHeartbeatChunk&>(c).GetInfo());
            SendChunksTo({ack}, m_rxPath, m_peerTag); // §8.3: back where the HEARTBEAT came from
            break;
        }
        case SctpChunkType::HeartbeatAck:
            HandleHeartbeatAck(static_cast<const SctpHeartbeatChunk&>(c));
            break;
        case SctpChunkType::Abort:
            HandleAbort(static_cast<const SctpErrorChunk&>(c), pkt.header.GetVerificationTag());
            return;
        case SctpChunkType::Shutdown:
            HandleShutdown(static_cast<const SctpShutdownChunk&>(c));
            break;
        case SctpChunkType::ShutdownAck:
            if (m_state == SctpState::ShutdownSent || m_state == SctpState::ShutdownAckSent)
            {
                auto sc = std::make_shared<SctpEmptyChunk>(SctpChunkType::ShutdownComplete);
                SendChunks({sc});
                Fire(SctpEvent::RcvShutdownAck);
            }
            break;
        case SctpChunkType::ShutdownComplete:
            Fire(SctpEvent::RcvShutdownComplete);
            break;
        case SctpChunkType::Error: {
            const auto& err = static_cast<const SctpErrorChunk&>(c);
            NS_LOG_INFO("ERROR chunk from peer: " << err.GetCauses().size() << " causes");
            if (m_state == SctpState::CookieEchoed && err.HasCause(SctpCauseCode::StaleCookie))
            {
                // §5.2.6: ask for a longer life, the measured round trip plus at most one second.
                Time rtt = Simulator::Now() - m_cookieEchoSent;
                m_stalePreservativeMs = uint32_t(rtt.GetMilliSeconds()) + 1000;
                Fire(SctpEvent::RcvStaleCookie);
                return;
            }
            break;
        }
        case SctpChunkType::Init:
        case SctpChunkType::CookieEcho:
            // Restart and collision cases (§5.2) are not modelled; a duplicate COOKIE ECHO is re-acked.
            if (SctpChunkType(c.GetType()) == SctpChunkType::CookieEcho && m_state == SctpState::Established)
            {
                SendChunks({std::make_shared<SctpEmptyChunk>(SctpChunkType::CookieAck)});
            }
            break;
        default: {
            SctpUnknownAction a = SctpUnknownChunkAction(c.GetType());
            if (a.report)
            {
                report->AddUnrecognizedChunk(SctpChunkBytes(c));
            }
            if (!a.skip)
            {
                k = pkt.chunks.size(); // discard the rest of the packet
            }
            break;
        }
        }
    }
    if (!report->GetCauses().empty() && m_state != SctpState::Closed)
    {
        SendChunks({report});
    }
    if (sawData && m_state != SctpState::Closed)
    {
        // §6.4: the SACK goes back where the DATA came from, unless that address is unconfirmed (§5.4: only
        // HEARTBEATs go there).
        m_sackPath = m_paths[m_rxPath].confirmed ? m_rxPath : m_dataPath;
        AfterDataPacket(gapOrDup);
    }
}

} // namespace ns3
