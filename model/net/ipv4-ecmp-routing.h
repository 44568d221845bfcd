/*
 * Ipv4EcmpRouting: host routes with several equal-cost next hops. Each packet takes the next
 * hop chosen by a hash of its 5-tuple (addresses, protocol, ports), so the packets of one TCP
 * connection always follow one path (no reordering) while distinct flows spread over the
 * paths. TopologyBuilder fills it from shortest paths on its graph and adds it to each node's
 * Ipv4ListRouting above Ipv4StaticRouting (which still handles the connected /30s).
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_IPV4_ECMP_ROUTING_H
#define IWARP_IPV4_ECMP_ROUTING_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class Ipv4EcmpRouting : public Ipv4RoutingProtocol
{
  public:
    struct NextHop
    {
        uint32_t interface;
        Ipv4Address gateway; ///< 0.0.0.0 when the destination is the neighbour itself

        bool operator==(const NextHop& o) const
        {
            return interface == o.interface && gateway == o.gateway;
        }
    };

    static TypeId GetTypeId();

    /** Room for `routes` destinations (avoids rehashing while a builder fills the table). */
    void Reserve(uint32_t routes) { m_routes.reserve(routes); }
    /** Replace the next hops to host `dest` (a /32). */
    void SetRoute(Ipv4Address dest, std::vector<NextHop> nextHops);
    /** Forget every route (before a rerouting sets them anew; a destination not set again has none). */
    void ClearRoutes();
    const std::vector<NextHop>* GetNextHops(Ipv4Address dest) const;

    /**
     * The next hop a forwarded packet takes: `payload` is the packet after its IPv4 header
     * (its first four octets are the TCP or UDP ports), null when there is no route. Used by
     * RouteInput and by SwitchForwarder, so both choose alike.
     */
    const NextHop* ChooseForwardHop(Ptr<const Packet> payload, const Ipv4Header& header) const;
    /** Whether ChooseForwardHop looks up an array (true) or the hash map (exposed for tests). */
    bool ForwardsFromArray() const;
    uint32_t GetNRoutes() const { return static_cast<uint32_t>(m_routes.size()); }

    /**
     * A connection's 5-tuple mixed so that every input bit moves every output bit: the hash Select
     * salts per node, and what RSS spreads receive queues by (SocketHostPath).
     */
    static uint64_t TupleHash(Ipv4Address src, Ipv4Address dst, uint8_t proto, uint16_t sport, uint16_t dport);
    /** The index into the next hops a packet with this 5-tuple takes (exposed for tests). */
    uint32_t Select(uint32_t n, Ipv4Address src, Ipv4Address dst, uint8_t proto,
                    uint16_t sport, uint16_t dport) const;

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p, const Ipv4Header& header, Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb, MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb, ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<Ipv4Route> MakeRoute(const NextHop& hop, Ipv4Address dst) const;
    /** GetNextHops through m_dense when the destinations are packed closely enough. */
    const std::vector<NextHop>* ForwardLookup(Ipv4Address dest) const;
    void BuildDense() const;
    const std::vector<uint16_t>& Dense() const; ///< m_dense, rebuilt first if SetRoute staled it

    Ptr<Ipv4> m_ipv4;
    uint32_t m_salt{0};
    mutable int64_t m_nodeId{-1}; ///< hashed in; -1 until first needed
    // Many destinations share one set of next hops (all hosts behind the same uplinks), so
    // sets are stored once and routes point at them: a k = 16 fat-tree has 1.4 M routes.
    std::vector<std::vector<NextHop>> m_sets;
    std::unordered_map<uint32_t, uint32_t> m_routes; ///< destination address -> index in m_sets
    // The forwarding path's copy of m_routes as an array indexed by address - m_denseBase
    // (kNoRoute where none), rebuilt after SetRoute. A switch looks up every packet it forwards,
    // and the hash map's lookup was 2.8 % of a k = 16 fat-tree run (doc/performance.md). Left
    // empty when the addresses are too spread out for an array; lookups then use m_routes.
    static constexpr uint16_t kNoRoute = 0xFFFF;
    mutable std::vector<uint16_t> m_dense;
    mutable uint32_t m_denseBase{0};
    mutable bool m_denseStale{true};
};

} // namespace ns3

#endif // IWARP_IPV4_ECMP_ROUTING_H
