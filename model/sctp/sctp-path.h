/*
 * One destination transport address of an SCTP association (RFC 9260 §6.4, §8.2, §8.3): the peer's address,
 * the local source routing picks towards it, whether it is active, its error counter, and the state the RFC
 * keeps per destination: RTO, congestion window, the T3-rtx timer and heartbeats. A single-homed
 * association has one path; a multihomed one (SctpSocket's Multihoming attribute, or a multihomed peer) has
 * one per address the peer listed in its INIT or INIT ACK.
 */
/**
 * \file
 * \ingroup iwarp-sctp
 */
#ifndef IWARP_SCTP_PATH_H
#define IWARP_SCTP_PATH_H

#include "sctp/sctp-congestion-ops.h"
#include "sctp/sctp-rto.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/** What happened on one path, counted from the association's start. */
struct SctpPathCounters
{
    uint64_t dataChunks{0};      ///< DATA chunks sent to it, retransmissions included
    uint64_t retransmissions{0}; ///< of those, retransmissions (fast or after a T3-rtx expiry)
    uint64_t timeouts{0};        ///< T3-rtx expiries of this destination with DATA outstanding
    uint64_t heartbeats{0};      ///< HEARTBEATs sent to it
    uint64_t heartbeatAcks{0};   ///< HEARTBEAT ACKs that answered one of them
};

/** A copy of one path's state for a user of SctpSocket (GetPathInfo). */
struct SctpPathInfo
{
    Ipv4Address address; ///< the peer's
    Ipv4Address source;  ///< ours towards it
    bool active{true};
    bool confirmed{true}; ///< a HEARTBEAT ACK (or the handshake) showed the peer answers there (§5.4)
    bool primary{false};
    bool dataPath{false}; ///< where new DATA goes now (the primary unless it is inactive)
    uint32_t errorCount{0};
    Time rto;
    Time srtt;
    uint32_t cwnd{0};
    uint32_t flight{0};
    SctpPathCounters counters;
};

struct SctpPath
{
    Ipv4Address address;
    Ipv4Address source;
    bool active{true};
    bool confirmed{true};
    uint32_t errorCount{0};
    SctpRtoEstimator rto;
    SctpCcState cc;
    EventId t3;
    EventId hbTimer;
    bool hbOutstanding{false};
    uint64_t hbNonce{0};
    Time lastDataSent{0};
    SctpPathCounters counters;

    void CancelTimers()
    {
        t3.Cancel();
        hbTimer.Cancel();
    }
};

} // namespace ns3

#endif // IWARP_SCTP_PATH_H
