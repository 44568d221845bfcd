/*
 * Two ns-3 nodes on a point-to-point link, each with the InternetStack and the SCTP model (SctpHelper);
 * a listener on the server, an SctpSocket connecting from the client, and what each end observed: chunk
 * types sent, state changes, retransmissions, RTO values, messages received, close notifications.
 * Also a message pump that sends numbered messages with random octets as fast as the send buffer allows,
 * and a check that every message arrived once, intact, and in order on its ordered stream.
 */
#ifndef IWARP_SCTP_TWO_NODE_FIXTURE_H
#define IWARP_SCTP_TWO_NODE_FIXTURE_H

#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-socket.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** Drops the packets whose ordinal numbers (1-based, counted per device) are listed, or all from `dropFrom`. */
class SctpDropListErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    std::set<uint32_t> drop;
    uint32_t dropFrom{0}; ///< 0: off
    uint32_t seen{0};
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override {}
};

/**
 * Drops DATA by TSN, to stage a particular loss: the packet carrying the `targetIndex`-th distinct TSN seen,
 * and its next `targetDrops` - 1 retransmissions; then, while `everyNth` is set, the first transmission of
 * every `everyNth`-th packet of new DATA after it. Packets on a point-to-point device (PPP, IPv4, SCTP).
 */
class SctpTsnDropErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    uint32_t targetIndex{100};
    uint32_t targetDrops{1};
    uint32_t everyNth{0};
    std::optional<uint32_t> target; ///< the TSN chosen
    std::vector<Time> targetSeen;   ///< every time the target TSN arrived, dropped or not
    std::vector<Time> laterDrops;   ///< when the every-Nth drops happened

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override {}

    std::set<uint32_t> m_seen;
    uint32_t m_newPackets{0};
};

/** One sent or received user message. */
struct SctpTestMessage
{
    uint16_t stream{0};
    uint32_t ppid{0};
    bool unordered{false};
    std::vector<uint8_t> data; ///< first 4 octets: the message number
};

/** What one end saw. */
struct SctpEndLog
{
    std::vector<uint8_t> chunksTx; ///< chunk types in send order
    std::vector<Time> chunksTxTime; ///< when each of chunksTx was sent
    std::vector<uint8_t> chunksRx;
    std::vector<SctpState> states;
    std::vector<std::pair<Time, uint32_t>> rtx; ///< (time, TSN) of T3 retransmissions
    uint32_t fastRtx{0};
    std::vector<Time> rtoValues;
    std::vector<SctpTestMessage> received;
    uint32_t normalClose{0};
    uint32_t errorClose{0};
    uint32_t connected{0};
    uint32_t connectFailed{0};
    std::vector<SctpErrorChunk> errorsRx; ///< ERROR and ABORT chunks received
    std::vector<uint32_t> sackArwnd;      ///< a_rwnd of every SACK sent
    uint32_t maxFlight{0};                ///< highest BytesInFlight
    uint32_t sacksWithGaps{0};            ///< SACKs sent carrying gap ack blocks
    uint32_t sacksWithDups{0};            ///< SACKs sent reporting duplicate TSNs
    uint32_t bundledPackets{0};           ///< packets this node sent with more than one chunk
    uint32_t CountTx(SctpChunkType t) const;
    uint32_t CountRx(SctpChunkType t) const;
};

class SctpTwoNodeFixture
{
  public:
    struct Options
    {
        std::string rate{"10Mbps"};
        std::string delay{"5ms"};
        double lossRate{0.0}; ///< RateErrorModel (packets) on both receiving devices
        uint32_t lossStream{1};
        /** A second link between the nodes (10.1.2.0/24): each node has an address on each. */
        bool dualHomed{false};
    };

    explicit SctpTwoNodeFixture(const Options& o);
    ~SctpTwoNodeFixture();

    /** Listener on the server (port 5000) and Connect from the client; run Simulator yourself.
     *  `configureClient`, if given, sees the client socket before it connects. */
    void Start(std::function<void(Ptr<SctpSocket>)> configureClient = nullptr);

    Ptr<SctpSocket> client;
    Ptr<SctpSocket> server; ///< the accepted socket (null until set-up completes)
    Ptr<SctpSocket> listener;
    SctpEndLog clientLog;
    SctpEndLog serverLog;
    uint32_t accepted{0};
    NodeContainer nodes;
    NetDeviceContainer devices;
    Ipv4InterfaceContainer interfaces;
    NetDeviceContainer devices2;        ///< dualHomed: the second link
    Ipv4InterfaceContainer interfaces2;

    Ptr<SctpL4Protocol> L4(uint32_t i) const { return nodes.Get(i)->GetObject<SctpL4Protocol>(); }
    Ipv4Address Addr(uint32_t i) const { return interfaces.GetAddress(i); }
    /** pcap of device i's traffic as `prefix`-<node>-<device>.pcap (link type PPP). */
    void EnablePcap(const std::string& prefix, uint32_t i);
    /** Node i's address on the second link (dualHomed). */
    Ipv4Address Addr2(uint32_t i) const { return interfaces2.GetAddress(i); }
    /** Link `link` (0 or 1) drops every packet from `from` until `to` (never if `to` is zero), both ways or
     *  only from the client to the server. */
    void CutLink(uint32_t link, Time from, Time to, bool bothWays = true);
    /** Installs a drop-list error model on the receiving side of device i. */
    Ptr<SctpDropListErrorModel> DropOn(uint32_t i);
    /** Hands a hand-made packet to node i's SCTP as if it came from the other node. */
    void Inject(uint32_t i, const SctpPacket& pkt);

    /** False: the server application leaves received messages in the socket until DrainServer(). */
    bool serverReads{true};
    void DrainServer() { m_draining = true; OnRecv(server); m_draining = false; }

    // ---- message pump ----
    /** Queues `n` messages of 1..maxSize octets on `streams` streams (every third one unordered) from the
     *  client (fromClient) or the accepted server socket, sent as the send buffer allows. */
    void QueueMessages(bool fromClient, uint32_t n, uint32_t maxSize, uint16_t streams, uint32_t seed);
    /** Empty if every queued message arrived once and intact, ordered ones in order; else what is wrong. */
    std::string CheckDelivery(bool fromClient) const;
    const std::vector<SctpTestMessage>& Sent(bool fromClient) const { return fromClient ? m_sentC : m_sentS; }
    bool AllDelivered(bool fromClient) const;

  private:
    void Hook(Ptr<SctpSocket> s, SctpEndLog* log);
    void Pump(Ptr<Socket> s, uint32_t);
    void OnRecv(Ptr<Socket> s);
    void OnAccept(Ptr<Socket> s, const Address& from);
    void OnConnected(Ptr<Socket> s);
    void OnConnectFailed(Ptr<Socket> s);
    void OnNormalClose(Ptr<Socket> s);
    void OnErrorClose(Ptr<Socket> s);
    SctpEndLog* LogOf(Ptr<Socket> s);

    std::vector<SctpTestMessage> m_sentC, m_sentS;
    size_t m_nextC{0}, m_nextS{0};
    bool m_draining{false};
};

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_SCTP_TWO_NODE_FIXTURE_H
