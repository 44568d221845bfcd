/*
 * A bridge between the SCTP model and Debian's libusrsctp running in the same process, for interoperability
 * tests. usrsctp runs in AF_CONN mode without threads: its packets come out of a callback instead of a
 * kernel socket, and its timers advance only when the bridge calls usrsctp_handle_timers() from simulated
 * time, so a run is repeatable.
 *
 * The model sits on an ns-3 node (10.0.0.1) whose SCTP output goes straight to the bridge instead of IPv4;
 * usrsctp's packets are handed to the model's SctpL4Protocol as if IPv4 had delivered them from 10.0.0.2.
 * Each direction is a BridgeLink: a serialising link (rate, propagation delay, drop-tail queue) with seeded
 * random loss, which also reads the chunks going by, so that a test can see on the wire what each stack
 * did (DATA retransmitted, SHUTDOWN sequence, ABORT) without trusting either stack's own account.
 *
 * usrsctp is process-global: one UsrsctpBridge at a time. While it exists, usrsctp's gettimeofday() reads
 * simulated time (see CMakeLists.txt: usrsctp is linked statically with --wrap=gettimeofday), so its round-trip
 * measurements and retransmission decisions agree with its timers and the simulation, and a run repeats
 * exactly.
 */
#ifndef IWARP_USRSCTP_BRIDGE_H
#define IWARP_USRSCTP_BRIDGE_H

#ifdef IWARP_HAVE_USRSCTP

#include "sctp/sctp-l4-protocol.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <usrsctp.h>

#include <array>
#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <unordered_set>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** One direction of the bridge. */
class BridgeLink
{
  public:
    struct Config
    {
        DataRate rate{"1Gbps"};
        Time delay{MicroSeconds(50)};
        double loss{0.0};       ///< probability that a packet is lost on the wire
        uint64_t seed{1};       ///< of the loss process (std::mt19937_64)
        uint32_t queueLimit{1000}; ///< packets waiting for the wire; more are tail-dropped
        uint32_t ipOverhead{20};   ///< an IPv4 header, counted for serialisation and against the MTU
    };

    /** What went by, counted as the sender offered it (before loss). */
    struct Stats
    {
        uint64_t packets{0};
        uint64_t octets{0};        ///< SCTP packets' octets
        uint64_t lost{0};          ///< dropped by the loss process
        uint64_t queueDrops{0};    ///< dropped because the queue was full
        uint64_t delivered{0};
        uint32_t largest{0};       ///< largest SCTP packet, octets
        uint64_t dataChunks{0};
        uint64_t dataOctets{0};    ///< user data in DATA chunks (new and retransmitted)
        uint64_t dataRetransmitted{0}; ///< DATA chunks whose TSN went this way before
        uint64_t malformed{0};     ///< packets whose chunks did not parse (never expected)
        std::array<uint64_t, 256> chunks{}; ///< per chunk type
        Time maxQueueDelay{0};
    };

    using Deliver = std::function<void(std::vector<uint8_t>)>;

    BridgeLink(const Config& c, Deliver deliver);
    /** Puts one SCTP packet on the link. */
    void Send(const uint8_t* bytes, size_t len);
    const Stats& GetStats() const { return m_stats; }
    const Config& GetConfig() const { return m_cfg; }
    /** From now on nothing more is delivered (teardown). */
    void Close() { m_open = false; }

  private:
    void Inspect(const uint8_t* bytes, size_t len);
    void Arrive(std::vector<uint8_t> bytes);

    Config m_cfg;
    Deliver m_deliver;
    std::mt19937_64 m_rng;
    bool m_open{true};
    Time m_busyUntil{0};
    std::deque<Time> m_departures; ///< when each queued packet leaves the queue for the wire
    std::unordered_set<uint32_t> m_tsns;
    Stats m_stats;
};

/** The model's node, usrsctp's global state and the two links between them. */
class UsrsctpBridge
{
  public:
    /** Creates the model's node and starts usrsctp (usrsctp_init_nothreads). */
    UsrsctpBridge(const BridgeLink::Config& toModel, const BridgeLink::Config& toUsrsctp);
    /** Stops delivery, lets usrsctp free its associations and calls usrsctp_finish(). Close every
     *  usrsctp socket first. */
    ~UsrsctpBridge();

    UsrsctpBridge(const UsrsctpBridge&) = delete;
    UsrsctpBridge& operator=(const UsrsctpBridge&) = delete;

    Ptr<Node> GetModelNode() const { return m_node; }
    Ipv4Address GetModelAddress() const { return Ipv4Address("10.0.0.1"); }
    Ipv4Address GetUsrsctpAddress() const { return Ipv4Address("10.0.0.2"); }
    /**
     * A second interface on the model's node, with `address`: a multihomed model lists it in its INIT or INIT
     * ACK. Nothing is delivered to or from it (usrsctp's AF_CONN side has no IPv4 address to reach it by).
     */
    void AddModelAddress(Ipv4Address address);
    /** usrsctp's AF_CONN address with `port`. */
    struct sockaddr_conn ConnAddress(uint16_t port);

    /** Advances usrsctp's clock every `tick` of simulated time and then calls `onTick` (may be null). */
    void StartTimers(Time tick, std::function<void()> onTick);
    /** Ends timer ticks and delivery in both directions (before tearing the sockets down). */
    void Close();

    const BridgeLink& ToModel() const { return m_toModel; }
    const BridgeLink& ToUsrsctp() const { return m_toUsrsctp; }

    /** The time usrsctp reads while a bridge exists (null otherwise): simulated time until Close(), then
     *  frozen but for the timer ticks of the teardown. */
    static std::optional<Time> UsrsctpClock();

  private:
    static int UsrsctpOutput(void* addr, void* buffer, size_t length, uint8_t tos, uint8_t setDf);
    void ModelOutput(Ptr<Packet> p, Ipv4Address src, Ipv4Address dst, uint8_t protocol, Ptr<Ipv4Route> route);
    void DeliverToModel(std::vector<uint8_t> bytes);
    void DeliverToUsrsctp(std::vector<uint8_t> bytes);
    void Tick();

    static UsrsctpBridge* s_current;

    Ptr<Node> m_node;
    Ptr<SctpL4Protocol> m_l4;
    BridgeLink m_toModel;
    BridgeLink m_toUsrsctp;
    bool m_open{true};
    int m_connAddr{0}; ///< its address is usrsctp's name for the peer; the value does not matter
    Time m_tick;
    Time m_clockAfterClose{0};
    std::function<void()> m_onTick;
    EventId m_tickEvent;
};

/** One usrsctp socket (one-to-one or one-to-many) and the notifications it received. */
class UsrsctpEndpoint
{
  public:
    struct Options
    {
        bool oneToMany{false};
        uint16_t port{0};
        uint32_t sndBuf{1u << 20};
        uint32_t rcvBuf{1u << 20};
        std::optional<uint32_t> adaptation; ///< Adaptation Layer Indication to send (SCTP_ADAPTATION_LAYER)
        uint32_t rtoInitialMs{1000};
        uint32_t rtoMinMs{1000};
        uint32_t rtoMaxMs{60000};
        uint32_t sackDelayMs{200}; ///< delayed SACK timer (RFC 9260 §6.2: at most 500 ms), SACK every 2nd packet
        /** 0: usrsctp's default; else fixed, with PMTU discovery off. In AF_CONN mode usrsctp 0.9.5's packets
         *  come out up to pathMtu + 12 octets (measured: it counts neither an IP header nor its common header). */
        uint32_t pathMtu{0};
    };

    /** Whole messages received: (stream, octets). */
    using MessageHandler = std::function<void(uint16_t stream, const std::vector<uint8_t>& msg)>;

    UsrsctpEndpoint(UsrsctpBridge& bridge, const Options& o, MessageHandler onMessage);
    ~UsrsctpEndpoint();

    bool IsValid() const { return m_so != nullptr; }
    int Connect(uint16_t peerPort);
    int Listen();
    /** One whole message; false when the send buffer has no room for it now (EWOULDBLOCK). Any other
     *  failure is counted in sendErrors. */
    bool Send(uint16_t stream, uint32_t ppid, bool unordered, const uint8_t* data, size_t len);
    /** SHUT_WR on a one-to-one socket: SHUTDOWN once everything sent is acknowledged. */
    int Shutdown();
    void Close();
    /** The address families of the association's peer addresses as usrsctp holds them (usrsctp_getpaddrs). */
    std::vector<int> PeerAddressFamilies() const;

    // ---- what usrsctp told its user ----
    bool commUp{false};
    sctp_assoc_t assocId{0};
    std::optional<uint32_t> peerAdaptation; ///< from SCTP_ADAPTATION_INDICATION
    bool shutdownEvent{false};              ///< SCTP_SHUTDOWN_EVENT: the peer sent SHUTDOWN
    bool shutdownComplete{false};           ///< SCTP_ASSOC_CHANGE / SCTP_SHUTDOWN_COMP
    bool commLost{false};                   ///< SCTP_COMM_LOST or SCTP_CANT_STR_ASSOC
    uint32_t sendErrors{0};
    int lastSendErrno{0};

  private:
    static int Receive(struct socket* sock,
                       union sctp_sockstore addr,
                       void* data,
                       size_t len,
                       struct sctp_rcvinfo rcv,
                       int flags,
                       void* ulpInfo);
    void OnNotification(const union sctp_notification& n);

    UsrsctpBridge& m_bridge;
    struct socket* m_so{nullptr};
    MessageHandler m_onMessage;
    std::vector<uint8_t> m_partial; ///< a message usrsctp hands over in parts (partial delivery)
    uint16_t m_partialStream{0};
};

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_HAVE_USRSCTP
#endif // IWARP_USRSCTP_BRIDGE_H
