/*
 * LlpConnector: how one LLP sets up the streams DDP runs on (listen, connect with private data,
 * accept, reject). Each LLP has its own subclass (mpa/MpaLlpConnector, sctp-ddp/SctpDdpLlpConnector);
 * the ConnectionManager creates one by TypeId (its "LlpConnector" attribute) and never looks at
 * which LLP it is.
 *
 * Every stream a connector makes is handed out as a Ptr<DdpLowerLayer> through a StreamCallback,
 * before the LLP's set-up goes on with it, so that whatever is bound to the stream (a QueuePair) sees
 * every event of the set-up, Established included.
 */
/**
 * \file
 * \ingroup iwarp-ddp
 */
#ifndef IWARP_LLP_CONNECTOR_H
#define IWARP_LLP_CONNECTOR_H

#include "ddp/ddp-lower-layer.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * A peer's connection request, waiting for the listener's Accept or Reject. It says nothing about
 * the LLP: a connector hands out its own subclass, with the state it needs to answer.
 */
class ConnectionRequest : public SimpleRefCount<ConnectionRequest>
{
  public:
    virtual ~ConnectionRequest() = default;

    Address from;                     ///< the peer's transport address
    uint16_t port{0};                 ///< the local port that was listened on
    std::vector<uint8_t> privateData; ///< the peer's private data
    uint16_t peerIrd{0};
    bool peerIrdKnown{false}; ///< the peer announced IRD/ORD (MPA Rev 2, RFC 6581); otherwise both are 0
    uint16_t peerOrd{0};
};

/** What a Connect came to. */
struct LlpConnectResult
{
    bool accepted{false};
    std::vector<uint8_t> privateData; ///< the peer's (empty when set-up failed before an answer)
    /**
     * The initiator's ORD after set-up: MPA Rev 2 may lower it to the responder's IRD; an LLP that
     * negotiates none gives back the ORD Connect was given.
     */
    uint16_t ord{0};
};

class LlpConnector : public Object
{
  public:
    static TypeId GetTypeId();

    /** A request arrived on a listened port; answer it with Accept or Reject. */
    typedef Callback<void, Ptr<ConnectionRequest>> RequestCallback;
    /** The stream DDP will run on, handed out before the set-up goes on. */
    typedef Callback<void, Ptr<DdpLowerLayer>> StreamCallback;
    typedef Callback<void, const LlpConnectResult&> ConnectCallback;

    /** The node whose transport the connector uses; set before Listen or Connect. */
    void SetNode(Ptr<Node> node) { m_node = node; }
    Ptr<Node> GetNode() const { return m_node; }

    /** Configures an object the connector makes (its connections, associations): the RNIC's part settings. */
    typedef Callback<void, Ptr<Object>> PartCallback;
    void SetPartCallback(PartCallback cb) { m_configurePart = cb; }

    /**
     * Take requests on transport port `port`: each one is handed to `cb` (a null `cb` rejects
     * them with no private data). Aborts if the port cannot be bound.
     */
    virtual void Listen(uint16_t port, RequestCallback cb) = 0;

    /**
     * Open a stream to `remote` (an InetSocketAddress) asking with `privateData` and, where the
     * LLP carries them, this side's `ird` and `ord`. `stream` gets the new stream before the LLP's
     * set-up messages go out (MPA at once, SCTP once its association is up, so never when that
     * fails); `done` reports the outcome once.
     */
    virtual void Connect(const Address& remote, const std::vector<uint8_t>& privateData, uint16_t ird,
                         uint16_t ord, StreamCallback stream, ConnectCallback done) = 0;

    /**
     * Accept `req` (one of this connector's) answering with `privateData` and, where the LLP
     * carries them, `ird` and `ord`; `stream` gets the stream before the answer leaves.
     */
    virtual void Accept(Ptr<ConnectionRequest> req, uint16_t ird, uint16_t ord,
                        const std::vector<uint8_t>& privateData, StreamCallback stream) = 0;

    /** Refuse `req` (one of this connector's); the peer's Connect reports `privateData`. */
    virtual void Reject(Ptr<ConnectionRequest> req, const std::vector<uint8_t>& privateData) = 0;

  protected:
    void DoDispose() override;
    /** For the parts that make parts of their own (an SCTP association its sessions). */
    PartCallback GetPartCallback() const { return m_configurePart; }
    /** Every connector calls this on each connection or association it creates, before using it. */
    void ConfigurePart(Ptr<Object> part) const
    {
        if (!m_configurePart.IsNull())
        {
            m_configurePart(part);
        }
    }

  private:
    Ptr<Node> m_node;
    PartCallback m_configurePart;
};

} // namespace ns3

#endif // IWARP_LLP_CONNECTOR_H
