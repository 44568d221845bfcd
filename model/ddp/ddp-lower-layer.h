/*
 * DdpLowerLayer: the LLP interface DDP runs on (doc/architecture.md "DdpLowerLayer", RFC 5041 §3).
 *
 * MPA over TCP and the RFC 5043 SCTP adaptation implement it; so does TestLowerLayer,
 * which lets the conformance suites drive DDP/RDMAP without any transport.
 *
 * What the LLP owes DDP (doc/conformance.md §2.1):
 *  - DDP-001: GetMulpdu() and a notification whenever it changes;
 *  - DDP-003: a segment it accepts is delivered reliably, or the stream fails;
 *  - DDP-004/007: segment boundaries and lengths are preserved (one Packet = one segment);
 *  - DDP-005: segments may be handed up out of order for placement, with the sender's order;
 *    an LLP that hands a segment up twice (a placement hint, then in order) tags both copies
 *    with the same DdpLlpPositionTag, so that DDP moves its octets only once.
 *  - DDP-009: graceful teardown is signalled.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_DDP_LOWER_LAYER_H
#define IWARP_DDP_LOWER_LAYER_H

#include "common/iwarp-constants.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/tag.h"

#include <cstdint>
#include <limits>

namespace ns3
{

class Socket;

class DdpLowerLayer : public Object
{
  public:
    static TypeId GetTypeId();

    /** Position in the sender's order for a segment handed up only as a placement hint. */
    static constexpr uint64_t kOrderUnknown = std::numeric_limits<uint64_t>::max();

    enum class CloseMode
    {
        Graceful,
        Abortive,
    };

    /** Stream events an LLP reports upwards. */
    enum class Event
    {
        Established,       ///< the LLP stream is ready for DDP segments
        PeerGracefulClose, ///< the peer closed its half gracefully (DDP-009, DDP-053)
        Closed,            ///< both halves closed gracefully (DDP-010)
        ConnectionLost,    ///< reset or lost (DDP-055)
        LlpError,          ///< an LLP protocol error (e.g. MPA CRC); carries an LLP ErrorCause
    };

    /**
     * A received segment (header + payload) and its position in the sender's order:
     * consecutive integers from 0 in the order the peer submitted segments, or
     * kOrderUnknown for a placement-only hint that will be handed up again in order.
     * The two copies of a hinted segment should carry the same DdpLlpPositionTag; without it
     * DDP places the in-order copy again (harmless for the data, but the octets move twice).
     */
    typedef Callback<void, Ptr<Packet>, uint64_t> ReceiveCallback;
    typedef Callback<void, uint32_t> MulpduCallback;
    typedef Callback<void> SendReadyCallback;
    typedef Callback<void, Event, iwarp::ErrorCause> EventCallback;

    /**
     * The layer above as one interface, the alternative to the four callbacks: the model's own layers
     * (DdpEndpoint, RnicPipeline) attach this way, since each ns-3 Callback bound to a member costs a
     * few hundred octets of heap per connection (doc/performance.md, "Idle QPs"). A user, once set,
     * gets every notification and the callbacks none; the user must outlive the attachment or detach
     * with SetUser(nullptr).
     */
    class User
    {
      public:
        virtual ~User() = default;
        virtual void OnLlpReceive(Ptr<Packet> segment, uint64_t order) = 0; ///< as ReceiveCallback
        virtual void OnLlpMulpdu(uint32_t mulpdu) = 0;                       ///< as MulpduCallback
        virtual void OnLlpSendReady() = 0;                                   ///< as SendReadyCallback
        virtual void OnLlpEvent(Event e, iwarp::ErrorCause cause) = 0;       ///< as EventCallback
    };

    /** Largest DDP segment (header + payload) the LLP carries in one unit (DDP-001). */
    virtual uint32_t GetMulpdu() const = 0;

    /**
     * Hand one DDP segment to the LLP. Returns false (and keeps nothing) when the LLP has
     * no room now; SendReady is then signalled when it has. A true return is DDP's local
     * completion of the segment (DDP-044).
     */
    virtual bool SendSegment(Ptr<Packet> segment) = 0;

    /** Tear the LLP stream down. */
    virtual void Close(CloseMode mode) = 0;

    /**
     * The transport socket under this stream (MPA's TCP connection, the SCTP association of an
     * RFC 5043 session), or null when there is none: what probes follow for transport statistics
     * without knowing the LLP.
     */
    virtual Ptr<Socket> GetSocket() const;

    void SetReceiveCallback(ReceiveCallback cb) { m_callbacks.receive = cb; }
    void SetMulpduCallback(MulpduCallback cb) { m_callbacks.mulpdu = cb; }
    void SetSendReadyCallback(SendReadyCallback cb) { m_callbacks.sendReady = cb; }
    void SetEventCallback(EventCallback cb) { m_callbacks.event = cb; }
    /** Attach the layer above through its interface (nullptr detaches); see User. */
    void SetUser(User* user) { m_user = user; }

  protected:
    void NotifyReceive(Ptr<Packet> segment, uint64_t order);
    void NotifyMulpduChanged(uint32_t mulpdu);
    void NotifySendReady();
    void NotifyEvent(Event e, iwarp::ErrorCause cause = {});
    void DoDispose() override;

  private:
    /** The four callbacks as a User: who is told when no user is attached (a null callback: nobody). */
    struct CallbackUser : public User
    {
        ReceiveCallback receive;
        MulpduCallback mulpdu;
        SendReadyCallback sendReady;
        EventCallback event;
        void OnLlpReceive(Ptr<Packet> segment, uint64_t order) override;
        void OnLlpMulpdu(uint32_t m) override;
        void OnLlpSendReady() override;
        void OnLlpEvent(Event e, iwarp::ErrorCause cause) override;
    };
    /** The one place that chooses between the attached user and the callbacks. */
    User& Upper() { return m_user ? *m_user : m_callbacks; }

    CallbackUser m_callbacks;
    User* m_user{nullptr};
};

const char* ToString(DdpLowerLayer::Event e);

/**
 * Where a received segment sits in the LLP's stream (MPA: the TCP stream offset just past its
 * FPDU, modulo 2^32), as a packet tag on the segment handed up. An LLP that hands a segment
 * up as a placement hint and later in order gives both copies the same position, and no
 * other segment that position while either copy may still come: DDP recognises the in-order
 * copy of a segment it already placed and does not place (or count) its octets again.
 */
class DdpLlpPositionTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    DdpLlpPositionTag() = default;
    explicit DdpLlpPositionTag(uint64_t position)
        : m_position(position)
    {
    }

    uint64_t GetPosition() const { return m_position; }

    uint32_t GetSerializedSize() const override { return 8; }
    void Serialize(TagBuffer i) const override { i.WriteU64(m_position); }
    void Deserialize(TagBuffer i) override { m_position = i.ReadU64(); }
    void Print(std::ostream& os) const override { os << "llp-position=" << m_position; }

  private:
    uint64_t m_position{0};
};

} // namespace ns3

#endif // IWARP_DDP_LOWER_LAYER_H
