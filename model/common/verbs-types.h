/*
 * Verbs-level types: what an application hands a queue pair and gets back from it, whatever
 * RDMA transport carries the work (iWARP's RDMAP/DDP today, another one tomorrow). Nothing here
 * names a protocol header or a wire field; RDMAP reuses these types for its own work requests'
 * completions so that a completion crosses the transport seam without being translated.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_VERBS_TYPES_H
#define IWARP_VERBS_TYPES_H

#include "common/iwarp-constants.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/** What a work request asks for; Recv names a receive buffer's completion. */
enum class WrOpcode : uint8_t
{
    Send,
    SendSE,
    SendInv,
    SendSEInv,
    Write,
    Read,
    Recv,
};

const char* ToString(WrOpcode t);

/** How a work request ended. */
enum class WcStatus : uint8_t
{
    Success,
    LocalLengthError,     ///< an incoming Send was larger than the posted buffer (RDMAP-041)
    LocalProtectionError, ///< a local protection check failed on an incoming message
    LocalOperationError,  ///< a local failure, e.g. the payload could not be read (RDMAP-083)
    RemoteError,          ///< the peer refused the request and ended the stream (RDMAP-077)
    Flushed,              ///< the stream was terminated before this request finished (RDMAP-052)
    FatalError,           ///< the connection below was lost (DDP-056)
};

const char* ToString(WcStatus s);

inline std::ostream&
operator<<(std::ostream& os, WcStatus s)
{
    return os << ToString(s);
}

inline std::ostream&
operator<<(std::ostream& os, WrOpcode t)
{
    return os << ToString(t);
}

/** One entry of a completion queue. */
struct WorkCompletion
{
    uint64_t id{0};
    WrOpcode type{WrOpcode::Send};
    WcStatus status{WcStatus::Success};
    uint64_t byteLength{0};
    bool solicited{false};          ///< a Send with SE was delivered (RDMAP-043)
    bool invalidated{false};        ///< the sender invalidated an STag (RDMAP-047)
    uint32_t invalidatedStag{0};
    /**
     * The transport's own account of why, when status is not Success (as a verbs work
     * completion's vendor error): a layer / error type / code triple.
     */
    iwarp::ErrorCause cause;
    /** Incoming data (receives, Read Responses): first octet placed, and delivery. */
    Time firstPlaced;
    Time delivered;
    bool IsRecv() const { return type == WrOpcode::Recv; }
};

/** One contiguous piece of local registered memory. */
struct LocalBuffer
{
    uint32_t stag{0}; ///< the local STag (lkey)
    uint64_t to{0};   ///< tagged offset inside its region
    uint32_t length{0};
};

/** A send-queue work request. */
struct SendWr
{
    uint64_t id{0};
    WrOpcode type{WrOpcode::Send};
    LocalBuffer local;      ///< Send/Write source; Read sink
    uint32_t remoteStag{0}; ///< Write sink; Read source
    uint64_t remoteTo{0};
    uint32_t invalidateStag{0}; ///< SendInv / SendSEInv: the peer's STag to invalidate
};

/** An asynchronous event of a queue pair's stream. */
enum class QpEvent : uint8_t
{
    Established,
    LocalError,  ///< this end found an error and ended the stream (cause set)
    RemoteError, ///< the peer ended the stream with an error (cause: the peer's)
    HalfClosed,
    Closed,
    FatalError, ///< the connection below was lost or failed
};

const char* ToString(QpEvent e);

struct QpEventInfo
{
    QpEvent type{QpEvent::Established};
    iwarp::ErrorCause cause; ///< LocalError, RemoteError: why (the transport's own triple)
};

} // namespace ns3

#endif // IWARP_VERBS_TYPES_H
