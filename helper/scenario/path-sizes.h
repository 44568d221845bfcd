/*
 * The packet sizes a workload's connections are run with, from the smallest MTU on its paths
 * (WorkloadConfig::pathMtu, found by the loader): TCP's segment size and SCTP's path MTU, the
 * smallest MTUs MPA over TCP and DDP over SCTP work over. The MULPDUs are the models' own
 * (mpa-fpdu.h's MpaMulpdu, sctp-ddp-connection.h's sctpddp::MulpduFor).
 * One place for these rules, which the loader checks scenarios against and the runner applies
 * (doc/scenario-format.md, "MTUs and segment sizes").
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_PATH_SIZES_H
#define IWARP_SCENARIO_PATH_SIZES_H

#include "helper/scenario/scenario-config.h"

#include "common/iwarp-constants.h"

#include <cstdint>
#include <string>

namespace ns3
{

/** TCP's header without options (RFC 9293 §3.1). */
constexpr uint32_t kTcpHeaderLen = 20;
/** The timestamp option, padded to a 4-octet boundary (RFC 7323 §3): ns-3 puts it on every segment when on. */
constexpr uint32_t kTcpTimestampOptionLen = 12;
/** IPv4 20 + TCP 20 + the timestamp option 12 that ns-3 puts on every data segment. */
constexpr uint32_t kTcpIpOverhead = iwarp::kIpv4HeaderLen + kTcpHeaderLen + kTcpTimestampOptionLen;

/** TCP's SegmentSize for a path of this MTU: a full segment fills one packet, unfragmented. */
inline uint32_t
TcpSegmentSizeFor(uint32_t mtu)
{
    return mtu - kTcpIpOverhead;
}

/**
 * The smallest TCP segment MPA can use: its MULPDU (with markers, RFC 5044's worst case) must hold
 * the largest RDMAP message that cannot be cut, a Terminate that quotes the headers it reports
 * (DDP untagged header 18 + Terminate header 52 = 70 octets).
 */
uint32_t MinMpaSegmentSize();

/** The smallest MTU MPA over TCP works over: MinMpaSegmentSize() + kTcpIpOverhead. */
uint32_t MinMpaMtu();

/**
 * The smallest MTU DDP over SCTP works over: the smallest Pmtu the SCTP model accepts, and room for
 * the 516-octet DDP segment RFC 5043 requires (SCTP-038) in one packet (IPv4 20 + SCTP 12 + DATA
 * chunk 16 + DDP-SSN 2 + 516 = 566) without IP fragmentation.
 */
uint32_t MinSctpMtu();

/**
 * The MTU the connections of workload `w` at `node` are sized for: over TCP, a client's own path,
 * and at the server (`w.to`), which accepts every sender's connection from one listening socket,
 * the smallest of them; over SCTP that smallest at every end, since a receiver refuses segments
 * above its own MULPDU (SCTP-041) and one listener's associations share its Pmtu.
 */
uint32_t PathMtuAt(const WorkloadConfig& w, const std::string& node);

} // namespace ns3

#endif // IWARP_SCENARIO_PATH_SIZES_H
