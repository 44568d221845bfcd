/*
 * RnicPair: two RNICs, each with a PD, one CQ (notifications recorded in order) and one QP,
 * over either transport the QP tests run on:
 *  - Iwarp: two nodes on a point-to-point link; the QPs connect through the connection manager
 *    (MPA over TCP, or SCTP), the server listening on port 7000;
 *  - Loopback: the same two nodes, whose RNICs make LoopbackRdmaTransports and connect them
 *    through the connection manager with LoopbackLlpConnector (the link carries nothing);
 *  - Roce: the same two nodes, the QPs over RoCEv2 (RoceTransport), connected by RoceConnector.
 * Cases written against it run unchanged over both (TransportCaseName marks the loopback ones).
 */
#ifndef IWARP_TEST_RNIC_PAIR_H
#define IWARP_TEST_RNIC_PAIR_H

#include "rnic/rnic.h"

#include "ns3/net-device-container.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

enum class TestTransport
{
    Iwarp,
    Loopback,
    Roce, ///< RoCEv2: RoceTransport, connected by RoceConnector over the link
};

/**
 * Whether `got` is the private data `sent` over transport `t`. InfiniBand's CM messages carry private data in
 * fixed-size fields, so over RoCEv2 the receiver gets the whole field: `sent`, then zeros.
 */
bool SamePrivateData(const std::vector<uint8_t>& got, const std::vector<uint8_t>& sent, TestTransport t);

/** `base`, with " -loopback" or " -rocev2" appended for those transports. */
std::string TransportCaseName(const std::string& base, TestTransport t);

struct RnicPair
{
    Ptr<Rnic> client;
    Ptr<Rnic> server;
    Ipv4Address serverAddr;
    Ptr<ProtectionDomain> cpd;
    Ptr<ProtectionDomain> spd;
    Ptr<CompletionQueue> ccq;
    Ptr<CompletionQueue> scq;
    Ptr<QueuePair> cqp;
    Ptr<QueuePair> sqp;
    std::vector<WorkCompletion> clientDone;
    std::vector<WorkCompletion> serverDone;
    bool connected{false};
    bool accepted{false};
    std::vector<uint8_t> replyPd;
    std::vector<uint8_t> requestPd;

    /** The point-to-point links between the two nodes: one, or two when dual-homed. */
    std::vector<NetDeviceContainer> links;

    /** Iwarp over a `rate`/`delay` link (SCTP as the LLP if `sctp`); `dualHomed`: a second such link, in
     *  10.2.2.0/24, so each node has an address on each (for SCTP multihoming). */
    RnicPair(const std::string& rate, const std::string& delay, bool sctp = false, bool dualHomed = false);
    /** Either transport, with a 10 Gb/s, 5 us link for Iwarp. */
    explicit RnicPair(TestTransport t);
    /**
     * `t` over a 10 Gb/s, 5 us link whose channel holds `reorderFraction` of the packets (each way) 20 us
     * longer (ReorderingChannel), so that later ones overtake them.
     */
    RnicPair(TestTransport t, double reorderFraction);
    ~RnicPair();

    /** Listen (accepting with `reply`, or rejecting), then connect at t = 0 with `request`. */
    void Connect(const std::vector<uint8_t>& request, const std::vector<uint8_t>& reply, bool reject);
    /** Connect with no private data and run until both QPs are connected. */
    void ConnectAndSettle();
    void Run(Time t);

  private:
    void BuildIwarp(const std::string& rate, const std::string& delay, bool sctp, bool dualHomed = false,
                    double reorderFraction = 0);
    void MakeQps();
    TestTransport m_transport{TestTransport::Iwarp};
};

} // namespace ns3

#endif // IWARP_TEST_RNIC_PAIR_H
