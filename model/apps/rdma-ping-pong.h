/*
 * RdmaPingPong: a latency application over an RNIC (ns3::Rnic on the node, MPA/TCP below).
 *
 * The server listens on Port and accepts each connection on a new QP, advertising a registered
 * buffer in the MPA Reply's private data (STag + TO, 12 octets, big-endian). The client does the
 * same in its MPA Request, then runs Count iterations:
 *
 *  - Mode=Send:  the client Sends Size octets; the server's posted receive completes and it
 *                Sends Size octets back; the client's receive completion ends the round trip.
 *  - Mode=Write: the client RDMA-Writes Size octets into the server's advertised buffer and posts
 *                a zero-length Send right behind it. In iWARP a Write carries no notification to
 *                the peer's ULP; the trailing Send is delivered only after the Write has been
 *                placed (RDMAP-059, ordering of Send after Write on one stream), so its receive
 *                completion tells the server the data is there. The server answers the same way.
 *
 * Each round trip gives one half round-trip latency sample (GetHalfRtts() and the "Completed"
 * trace). Payload=Real registers real buffers (octets move and can be checked), Payload=Virtual
 * registers sizes only.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_RDMA_PING_PONG_H
#define IWARP_RDMA_PING_PONG_H

#include "rnic/rnic.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/** A registered buffer as advertised in MPA private data: STag (4) + TO (8), big-endian. */
struct RdmaBufferAdvert
{
    uint32_t stag{0};
    uint64_t to{0};

    static constexpr uint32_t kSize = 12;
    /** Appends the 12 octets to `out`. */
    void Serialize(std::vector<uint8_t>& out) const;
    /** Reads 12 octets at `offset`; false when `in` is too short. */
    bool Deserialize(const std::vector<uint8_t>& in, std::size_t offset = 0);
};

/** Big-endian helpers for application private data. */
void AppendBe32(std::vector<uint8_t>& out, uint32_t v);
uint32_t ReadBe32(const std::vector<uint8_t>& in, std::size_t offset);

/** How the application's registered buffers are backed. */
enum RdmaAppPayload
{
    RDMA_PAYLOAD_REAL,
    RDMA_PAYLOAD_VIRTUAL,
};

/** Which end of the connection an RDMA application is. */
enum RdmaAppRole
{
    RDMA_ROLE_CLIENT,
    RDMA_ROLE_SERVER,
};

class RdmaPingPong : public Application
{
  public:
    static TypeId GetTypeId();
    RdmaPingPong();

    enum Mode
    {
        SEND,       ///< Send/Receive
        WRITE,      ///< RDMA Write, then a zero-length Send that tells the peer it is placed
        WRITE_POLL, ///< RDMA Write only; the peer sees it when its buffer's last octet is placed
    };

    /** Half round-trip samples, one per completed iteration (client only). */
    const std::vector<Time>& GetHalfRtts() const { return m_halfRtts; }
    uint32_t GetIterationsDone() const { return m_done; }
    /** Messages the server delivered to its ULP (Send mode) or detected (Write mode). */
    uint32_t GetMessagesReceived() const { return m_received; }
    /** The client's buffer (the data it sends, and where the server's answers land). */
    Ptr<MemoryRegion> GetLocalRegion() const { return m_region; }
    bool IsConnected() const { return m_connected; }

    /** (iteration, octets): a message was posted. */
    typedef void (*PostedTracedCallback)(uint32_t iteration, uint32_t size);
    /** (iteration, octets, half round trip): an iteration completed at the client. */
    typedef void (*CompletedTracedCallback)(uint32_t iteration, uint32_t size, Time halfRtt);
    /** (iteration, octets): the server detected a message (a receive completed). */
    typedef void (*DeliveredTracedCallback)(uint32_t iteration, uint32_t size);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** One accepted connection (server) or the client's connection. */
    struct Peer : public SimpleRefCount<Peer>
    {
        Ptr<QueuePair> qp;
        Ptr<MemoryRegion> region;
        RdmaBufferAdvert remote;
        uint32_t received{0};
        uint32_t sent{0};
    };

    Ptr<Peer> MakePeer();
    void DoConnect();
    void OnRequest(Ptr<ConnectionRequest> req);
    void OnConnected(Ptr<QueuePair> qp, bool accepted, const std::vector<uint8_t>& pd);
    static void OnCompletionThunk(RdmaPingPong* app, Ptr<Peer> peer, const WorkCompletion& c);
    void OnCompletion(Ptr<Peer> peer, const WorkCompletion& c);
    /** Post this end's message: a Send of Size, or a Write of Size + a zero-length Send. */
    bool PostMessage(Ptr<Peer> peer);
    /** A message of the peer has arrived at this end: answer it (server) or end the iteration (client). */
    void OnMessageArrived(Ptr<Peer> peer);
    /** WritePoll: a segment was placed in `peer`'s buffer; was it the last octet of the next message? */
    void OnPlaced(Ptr<Peer> peer, uint32_t stag, uint64_t to, uint64_t length);
    /** WritePoll: the value the last octet of the n-th message carries (never the initial fill's). */
    static uint8_t PollMarker(uint32_t n) { return uint8_t(1 + n % 255); }
    bool PostRecv(Ptr<Peer> peer);
    void StartIteration();

    RdmaAppRole m_role;
    Address m_remote;
    uint16_t m_port;
    uint32_t m_size;
    uint32_t m_count;
    Mode m_mode;
    RdmaAppPayload m_payload;

    Ptr<Rnic> m_rnic;
    Ptr<ProtectionDomain> m_pd;
    Ptr<MemoryRegion> m_region;
    Ptr<Peer> m_client;
    std::vector<Ptr<Peer>> m_peers;
    bool m_connected{false};
    bool m_running{false};
    uint64_t m_nextWrId{1};
    uint32_t m_done{0};
    uint32_t m_received{0};
    Time m_iterStart;
    std::vector<Time> m_halfRtts;

    TracedCallback<uint32_t, uint32_t> m_postedTrace;
    TracedCallback<uint32_t, uint32_t, Time> m_completedTrace;
    TracedCallback<uint32_t, uint32_t> m_deliveredTrace;
    TracedCallback<Ptr<QueuePair>> m_queuePairTrace;
};

} // namespace ns3

#endif // IWARP_RDMA_PING_PONG_H
