/*
 * Association state transition table; see sctp-state.h.
 */
#include "sctp/sctp-state.h"

namespace ns3
{

const char*
SctpStateName(SctpState s)
{
    switch (s)
    {
    case SctpState::Closed:
        return "CLOSED";
    case SctpState::CookieWait:
        return "COOKIE-WAIT";
    case SctpState::CookieEchoed:
        return "COOKIE-ECHOED";
    case SctpState::Established:
        return "ESTABLISHED";
    case SctpState::ShutdownPending:
        return "SHUTDOWN-PENDING";
    case SctpState::ShutdownSent:
        return "SHUTDOWN-SENT";
    case SctpState::ShutdownReceived:
        return "SHUTDOWN-RECEIVED";
    case SctpState::ShutdownAckSent:
        return "SHUTDOWN-ACK-SENT";
    }
    return "?";
}

const char*
SctpEventName(SctpEvent e)
{
    static const char* names[] = {"AssociateCmd",   "CookieAccepted", "RcvInitAck",     "RcvCookieAck",
                                  "ShutdownCmd",    "AllDataAcked",   "RcvShutdown",    "RcvShutdownAck",
                                  "RcvShutdownComplete", "AbortCmd",  "RcvAbort",       "RetransLimit",
                                  "RcvStaleCookie"};
    return names[uint8_t(e)];
}

std::ostream&
operator<<(std::ostream& os, SctpState s)
{
    return os << SctpStateName(s);
}

std::optional<SctpState>
SctpNextState(SctpState s, SctpEvent e)
{
    using S = SctpState;
    using E = SctpEvent;
    // Abortive events end every association that exists.
    if (e == E::AbortCmd || e == E::RcvAbort || e == E::RetransLimit)
    {
        return s == S::Closed ? std::nullopt : std::optional<S>(S::Closed);
    }
    switch (s)
    {
    case S::Closed:
        if (e == E::AssociateCmd)
        {
            return S::CookieWait;
        }
        if (e == E::CookieAccepted)
        {
            return S::Established;
        }
        break;
    case S::CookieWait:
        if (e == E::RcvInitAck)
        {
            return S::CookieEchoed;
        }
        if (e == E::ShutdownCmd)
        {
            return S::Closed; // nothing to tear down yet
        }
        break;
    case S::CookieEchoed:
        if (e == E::RcvCookieAck)
        {
            return S::Established;
        }
        if (e == E::RcvStaleCookie)
        {
            return S::CookieWait;
        }
        if (e == E::ShutdownCmd)
        {
            return S::Closed;
        }
        break;
    case S::Established:
        if (e == E::ShutdownCmd)
        {
            return S::ShutdownPending;
        }
        if (e == E::RcvShutdown)
        {
            return S::ShutdownReceived;
        }
        break;
    case S::ShutdownPending:
        if (e == E::AllDataAcked)
        {
            return S::ShutdownSent;
        }
        if (e == E::RcvShutdown)
        {
            return S::ShutdownReceived;
        }
        break;
    case S::ShutdownSent:
        if (e == E::RcvShutdownAck)
        {
            return S::Closed;
        }
        if (e == E::RcvShutdown)
        {
            return S::ShutdownAckSent; // both sides shut down at once (§9.2)
        }
        break;
    case S::ShutdownReceived:
        if (e == E::AllDataAcked)
        {
            return S::ShutdownAckSent;
        }
        break;
    case S::ShutdownAckSent:
        if (e == E::RcvShutdownComplete || e == E::RcvShutdownAck)
        {
            return S::Closed;
        }
        break;
    }
    return std::nullopt;
}

} // namespace ns3
