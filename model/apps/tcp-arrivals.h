/*
 * TcpArrivals: every TCP segment carrying data that reaches one node, told to whoever watches its
 * connection. A kernel's receive path works on each arriving packet (interrupt, driver, IP, TCP),
 * whether it is new, out of order or a duplicate of one already received; ns-3's TcpSocketBase
 * traces only the segments it accepts, so the sockets baseline counts arrivals here instead, at
 * Ipv4L3Protocol's LocalDeliver, once per node for all its connections.
 *
 * A connection is named by its 4-tuple as the receiving node sees it (its own port, the peer's
 * address and port); Watch on a connected socket looks it up (one watcher per connection: a second
 * Watch replaces the first), Unwatch forgets it.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_TCP_ARRIVALS_H
#define IWARP_TCP_ARRIVALS_H

#include "ns3/callback.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"

#include <map>
#include <tuple>

namespace ns3
{

class TcpArrivals : public Object
{
  public:
    static TypeId GetTypeId();

    /** The node's TcpArrivals, aggregated (and hooked to its Ipv4L3Protocol) on first use. */
    static Ptr<TcpArrivals> Of(Ptr<Node> node);

    /**
     * Call `arrived(first sequence number, payload octets)` for each data segment of connected socket `s`
     * that reaches the node, before TCP has seen it.
     * Returns false (and watches nothing) if `s` has no peer yet.
     */
    bool Watch(Ptr<Socket> s, Callback<void, SequenceNumber32, uint32_t> arrived);
    /** Stop telling of `s`'s segments (it may have closed since Watch). */
    void Unwatch(Ptr<Socket> s);

    /** Connections watched now. */
    std::size_t GetWatched() const { return m_watched.size(); }

  protected:
    void DoDispose() override;

  private:
    /** (local port, peer address, peer port) */
    using Key = std::tuple<uint16_t, uint32_t, uint16_t>;

    void OnLocalDeliver(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t interface);
    static bool KeyOf(Ptr<Socket> s, Key& key);

    std::map<Key, Callback<void, SequenceNumber32, uint32_t>> m_watched;
    std::map<const Socket*, Key> m_keyOf; ///< each watched socket's key, as it was when watched
};

} // namespace ns3

#endif // IWARP_TCP_ARRIVALS_H
