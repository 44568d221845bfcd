/*
 * Association states and events (RFC 9260 §4), and the transition function.
 *
 * Two steps (doc/architecture.md convention 7): the association first turns a received chunk, a user command or a
 * timer into an SctpEvent; SctpNextState() then says where (state, event) leads. Everything a state does on entry is in
 * SctpSocket::OnStateEntered(), so the table below is the whole of the state diagram.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_STATE_H
#define IWARP_SCTP_STATE_H

#include <cstdint>
#include <optional>
#include <ostream>

namespace ns3
{

enum class SctpState : uint8_t
{
    Closed,
    CookieWait,
    CookieEchoed,
    Established,
    ShutdownPending,
    ShutdownSent,
    ShutdownReceived,
    ShutdownAckSent,
};

enum class SctpEvent : uint8_t
{
    AssociateCmd,      ///< user Connect()
    CookieAccepted,    ///< passive side: a valid COOKIE ECHO created this association
    RcvInitAck,        ///< INIT ACK with a usable cookie
    RcvCookieAck,
    ShutdownCmd,       ///< user Close()
    AllDataAcked,      ///< nothing queued or outstanding any more
    RcvShutdown,
    RcvShutdownAck,
    RcvShutdownComplete,
    AbortCmd,          ///< user Abort(), or a protocol error this side aborts for
    RcvAbort,
    RetransLimit,      ///< Association.Max.Retrans / Max.Init.Retransmits exceeded
    RcvStaleCookie,    ///< ERROR (Stale Cookie) in reply to our COOKIE ECHO: start again (§5.2.6)
};

const char* SctpStateName(SctpState s);
const char* SctpEventName(SctpEvent e);
std::ostream& operator<<(std::ostream& os, SctpState s);

/** The next state, or nullopt when the event does not apply in `s` (ignored). */
std::optional<SctpState> SctpNextState(SctpState s, SctpEvent e);

} // namespace ns3

#endif // IWARP_SCTP_STATE_H
