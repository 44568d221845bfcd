/*
 * The lower layers (LLPs) a workload's data can run over, each declared once with every fact the scenario
 * layer needs of it: the names a scenario and its results use, the connector the RNICs are set to, the
 * headers on each packet, the smallest MTU it works over and which transport carries it. The loader's
 * checks, the path sizes, the physics checks, the runner and summary.json all ask the descriptor; none
 * branches on an LLP's name (doc/contributing.md, "Add a transport").
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_LLP_DESCRIPTORS_H
#define IWARP_SCENARIO_LLP_DESCRIPTORS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

struct ScenarioConfig;
struct TransportSettings;
struct WorkloadConfig;

/**
 * How long a receiver may hold an acknowledgement back, and the sender's smallest retransmission timeout, over
 * one carrier, with the `transport` keys that set them: the loader refuses a delay not below the timeout.
 */
struct AckTimers
{
    Time held;          ///< the receiver's delayed ACK (SCTP: SACK delay)
    Time minRto;        ///< the sender's minimum RTO
    const char* delayKey; ///< "tcp.delayed-ack-timeout"
    const char* rtoKey;   ///< "tcp.min-rto"
    const char* acks;     ///< "ACKs", "SACKs"
    const char* orElse;   ///< another way out, for the message: " (or delayed-ack-count: 1)", or ""
};

/** The largest DDP segment a connection carries (its MULPDU), and how that follows from the settings. */
struct LlpMulpdu
{
    uint32_t octets;
    std::string how; ///< "MPA over TCP segments of 1448, with markers"
};

/** What carries an LLP's packets. */
enum class LlpCarrier
{
    Tcp,  ///< ns-3's TCP: the `transport.tcp` keys govern it, SegmentSize per path
    Sctp, ///< our SCTP: the `transport.sctp` keys, the SCTP stack on the hosts, Pmtu (SCTP-041)
    Udp,  ///< RoCEv2's UDP: no socket settings; the RDMA transport sizes its own packets
};

/** One LLP; the entries of LlpDescriptors() and PlainTcp() are the only instances (compare their addresses). */
struct LlpDescriptor
{
    const char* name;      ///< `llp:`'s short name and results' "llp": "tcp", "sctp"
    const char* connector; ///< the LlpConnector TypeId the ConnectionManagers are set to; "" for plain TCP
    const char* label;     ///< in messages: "MPA over TCP"
    /**
     * What carries it. Over SCTP one listener's associations share the smallest Pmtu (SCTP-041); over TCP each
     * connection has its path's SegmentSize.
     */
    LlpCarrier carrier;
    /** iWARP: the data are DDP segments (DDP's headers on each packet; a DDP stream to inject into). */
    bool ddp;
    /**
     * Octets of headers on a full packet besides the payload's (IPv4, the transport, the LLP's framing; not MPA's
     * markers, nor DDP's headers, which the physics checks add for an LLP under DDP).
     */
    uint32_t (*framingOctets)(bool tcpTimestamps);
    /** The smallest path MTU it works over with `cfg`'s settings. */
    uint32_t (*minMtu)(const ScenarioConfig& cfg);
    /** Where minMtu() comes from, for the message that refuses a smaller MTU. */
    std::string (*minMtuWhy)(const ScenarioConfig& cfg);
    /**
     * The MULPDU of a connection over a path of `pathMtu` in a run of `cfg` (its socket and LLP settings, as
     * the runner sizes the connection: path-sizes.h), RoCEv2's payload per packet; null for plain TCP.
     */
    LlpMulpdu (*mulpdu)(const ScenarioConfig& cfg, uint32_t pathMtu);
    /** Its carrier's ACK timers between a receiver's settings and a sender's. */
    AckTimers (*ackTimers)(const TransportSettings& receiver, const TransportSettings& sender);
    /** The octets it pads a segment (a packet's payload) of `segment` octets with (0 to 3), beside framingOctets. */
    uint32_t (*padding)(uint32_t segment);
};

/** The LLPs a workload of an RDMA kind may name in `llp:`; the first is the default. */
const std::vector<LlpDescriptor>& LlpDescriptors();

/** The default LLP (MPA over TCP), LlpDescriptors()'s first. */
const LlpDescriptor& DefaultLlp();

/** The sockets baseline's transport: TCP with no LLP above it. */
const LlpDescriptor& PlainTcp();

/** What carries `w`'s data: its `llp` for an RDMA kind, PlainTcp() for the sockets kinds. */
const LlpDescriptor& CarrierOf(const WorkloadConfig& w);

} // namespace ns3

#endif // IWARP_SCENARIO_LLP_DESCRIPTORS_H
