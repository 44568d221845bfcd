/*
 * One TCP bulk transfer between two nodes on a point-to-point link with random packet loss on the
 * receiver's device: the end-to-end fixture of the TcpLinuxCubic suites. The sending socket gets the
 * congestion-control object the caller made (so its attributes are the caller's, not global defaults).
 */
#ifndef IWARP_LINUX_CUBIC_BULK_H
#define IWARP_LINUX_CUBIC_BULK_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/tcp-congestion-ops.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace iwarptest
{

struct CubicBulkConfig
{
    Ptr<TcpCongestionOps> cc;   ///< the sender's congestion control (a fresh object per run)
    double lossRate{0};         ///< packet loss probability on the data path (RateErrorModel, per packet)
    uint32_t seed{1};           ///< RngSeedManager run number
    std::string rate{"100Mbps"};
    Time oneWayDelay{MilliSeconds(10)};
    Time warmup{Seconds(2)};    ///< goodput counts from here (after the handshake and the first slow start)
    Time duration{Seconds(30)}; ///< end of the run
    uint32_t segmentSize{1448};
    uint32_t bufferBytes{4u << 20}; ///< SndBufSize and RcvBufSize: far above any window the runs reach
    uint32_t fifoPackets{0}; ///< 0: ns-3's default queue disc (FqCoDel); else a FIFO of this many packets
};

struct CubicBulkResult
{
    double goodputMbps{0};      ///< application octets received between warmup and duration
    uint32_t recoveries{0};     ///< times the sender entered fast recovery
    uint32_t timeouts{0};       ///< times the sender entered CA_LOSS (RTO)
    uint32_t finalSsThresh{0};  ///< the sender's ssthresh at the end (bytes)
    uint32_t queueDrops{0};     ///< packets the sender's queue disc dropped
};

CubicBulkResult RunCubicBulk(const CubicBulkConfig& c);

/** The Mathis et al. rate of a Reno flow, MSS/RTT * sqrt(3 / (2 p)), in Mb/s. */
double MathisMbps(uint32_t mss, Time rtt, double p);

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_LINUX_CUBIC_BULK_H
