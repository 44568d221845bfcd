/*
 * What an idle connection costs in heap (issue 16): two hosts on one link, N connections opened
 * from host 0 to host 1, then nothing sent. The same measurement with plain connected sockets of
 * the transport gives the socket's own share, so that the difference is what an idle QP adds
 * beyond its transport socket (RDMAP, DDP, MPA or the SCTP DDP session, the QP).
 *
 * The heap figure is mallinfo2's allocated octets once all N are connected and idle, less the
 * same just before the first connect, in the same process: the topology, the RNICs and the
 * listener are in both samples and cancel out.
 */
#ifndef IWARP_BENCH_IDLE_CONNECTIONS_H
#define IWARP_BENCH_IDLE_CONNECTIONS_H

#include "bench/bench-common.h"

#include <cstdint>

namespace ns3
{
namespace bench
{

/** What is connected N times. */
enum class IdleKind
{
    MpaQp,      ///< a QP over MPA/TCP (ConnectionManager, Llp "Mpa")
    SctpQp,     ///< a QP over a DDP session on an SCTP association (Llp "Sctp")
    TcpSocket,  ///< a connected ns-3 TCP socket pair, configured as the ConnectionManager does
    SctpSocket, ///< a connected SCTP socket pair of our model, configured as the ConnectionManager does
};

/** "QP over MPA/TCP", ... for tables. */
const char* Describe(IdleKind kind);

/**
 * Opens `n` connections of `kind` from host 0 to host 1, one every microsecond, waits until
 * every one is established and idle, and returns the run with heapMiB = heap in use then less
 * heap in use before the first connect. A connection that fails, or fewer than `n` established,
 * aborts the run (the caller's child process exits non-zero).
 */
RunResult RunIdleConnections(IdleKind kind, uint32_t n);

} // namespace bench
} // namespace ns3

#endif // IWARP_BENCH_IDLE_CONNECTIONS_H
