/*
 * Two ns-3 nodes with the SCTP model and, on each end, an SctpDdpAssociation (RFC 5043) with DDP/RDMAP
 * stacks on its sessions: the fixture of the iwarp-sctp-ddp-* suites. Either end may instead be a raw
 * "injector" SCTP socket that sends hand-made PPID 16/17 messages and records what it receives.
 * Every DATA chunk, INIT and INIT ACK each node sends is recorded from the socket's ChunkTx trace.
 */
#ifndef IWARP_SCTP_DDP_FIXTURE_H
#define IWARP_SCTP_DDP_FIXTURE_H

#include "ddp/ddp-endpoint.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/memory-registry.h"
#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-init-chunk.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** A DATA chunk as it left a node. */
struct DdpDataRecord
{
    Time at;
    uint32_t tsn{0};
    uint16_t stream{0};
    uint32_t ppid{0};
    bool u{false}, b{false}, e{false};
    std::vector<uint8_t> data; ///< user data: DDP-SSN first
    uint16_t Ssn() const { return data.size() >= 2 ? uint16_t((data[0] << 8) | data[1]) : 0xffff; }
};

/** A DDP/RDMAP stack on one session. */
struct DdpStack
{
    Ptr<SctpDdpConnection> conn;
    Ptr<DdpEndpoint> ddp;
    Ptr<RdmapEndpoint> rdmap;
    Ptr<MemoryRegistry> memory;
    Ptr<ProtectionDomain> pd;
    std::vector<RdmapCompletion> completions;
    std::vector<RdmapEventInfo> events;
    std::vector<std::pair<sctpddp::Function, std::vector<uint8_t>>> controls; ///< reported to the ULP
    std::vector<DdpLowerLayer::Event> llpEvents;
};

struct DdpEndSide
{
    Ptr<Node> node;
    Ptr<SctpSocket> socket;
    Ptr<SctpDdpAssociation> assoc;
    bool attachOk{false};
    std::vector<DdpDataRecord> dataTx;     ///< first transmissions only
    std::vector<std::shared_ptr<SctpInitChunk>> initTx; ///< INIT / INIT ACK sent
    std::vector<std::pair<Ptr<SctpDdpConnection>, std::vector<uint8_t>>> initiates;
    std::vector<DdpDataRecord> rawRx;      ///< raw end: messages received
    uint32_t aborts{0};                    ///< ABORT chunks sent
    uint32_t closes{0};                    ///< socket close notifications (raw end)
    uint32_t rtx{0};                       ///< DATA retransmissions (T3 and fast)
    std::unordered_set<uint32_t> seenTsn;
    std::vector<std::pair<Time, uint32_t>> sackRx; ///< SACKs received: when, Cumulative TSN Ack
    std::vector<std::unique_ptr<DdpStack>> stacks;
};

class SctpDdpFixture
{
  public:
    struct Options
    {
        std::string rate{"100Mbps"};
        std::string delay{"1ms"};
        double lossRate{0.0};
        uint16_t streams{10};
        bool clientRaw{false}, serverRaw{false};
        /** Adaptation indication of a raw end: nullopt = none in its INIT / INIT ACK. */
        std::optional<uint32_t> rawAdaptation{sctpddp::kAdaptationDdp};
        bool autoAccept{true}; ///< DDP server: accept every Initiate with acceptPd and build a stack
        std::vector<uint8_t> acceptPd;
        uint32_t maxPendingInitiates{4};
    };

    explicit SctpDdpFixture(const Options& o);
    /** Options for a raw (hand-driven) client and a DUT server that leaves Initiates to the test. */
    static Options RawClient();
    /** Start, then have the raw client send an Initiate on `stream` (Private Data `pd`) and run `settle`. */
    void RawInitiate(uint16_t stream, const std::vector<uint8_t>& pd = {}, Time settle = Seconds(0.3));
    ~SctpDdpFixture();

    /** Starts the association (client connects to the server). */
    void Start();
    /** Runs the simulation up to the absolute time `until`. */
    void Run(Time until);
    DdpEndSide client, server;

    /** Builds a DDP/RDMAP stack on a session of `side`. */
    DdpStack& Stack(DdpEndSide& side, Ptr<SctpDdpConnection> c);
    /** The client opens a session on `stream` (a stack on it); null if refused. */
    DdpStack* Open(uint16_t stream, const std::vector<uint8_t>& pd);
    /** A raw end sends one message: 16-bit DDP-SSN, then `body`; unordered unless told. */
    void RawSend(DdpEndSide& side, uint16_t stream, uint32_t ppid, uint16_t ssn, const std::vector<uint8_t>& body,
                 bool unordered = true);
    /** Session-control body: function code + private data. */
    static std::vector<uint8_t> Control(sctpddp::Function f, const std::vector<uint8_t>& pd = {});
    std::vector<DdpDataRecord> DataTxOn(const DdpEndSide& side, uint16_t stream) const;
    /** pcap of the client's device (both directions), `prefix`-0-0.pcap, through the point-to-point helper. */
    void EnablePcap(const std::string& prefix);
    /**
     * The peer of `dut` holds back its SACKs (S-05, S-14(c), S-16(a)): while `on`, every packet carrying a
     * SACK chunk is dropped as it reaches `dut`'s device. Not with Options::lossRate (one error model per
     * device). A raw peer bundles no DATA with its SACKs unless the test makes it send some meanwhile.
     */
    void HoldSacks(DdpEndSide& dut, bool on);
    /** Packets dropped by HoldSacks so far. */
    uint32_t GetHeldSackPackets() const;
    /** When `side` first received a SACK whose Cumulative TSN Ack covers `tsn`; negative if it never did. */
    Time SackCovering(const DdpEndSide& side, uint32_t tsn) const;
    NetDeviceContainer devices;

  private:
    void Prepare(DdpEndSide& side, bool raw);
    void Attached(DdpEndSide& side);
    Options m_opt;
    Ptr<SctpSocket> m_listener;
    Ipv4Address m_serverAddr;
    Ptr<ErrorModel> m_sackHold[2]; ///< per device, made on first use
};

/** `n` deterministic octets. */
std::vector<uint8_t> DdpPattern(size_t n, uint8_t seed);

} // namespace iwarptest
} // namespace ns3

#endif
