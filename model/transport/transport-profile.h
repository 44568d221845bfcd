/*
 * TransportProfile: the transport settings of one node, applied to every TCP and SCTP socket made on
 * it, so that RDMA's LLP (the ConnectionManager's MPA/TCP and SCTP sockets) and the sockets baseline
 * (SocketApp) of one host run with the same TCP and the same buffers.
 *
 * A profile is aggregated to the node.  Whoever creates a transport socket calls
 * TransportProfile::Configure(socket) right after Socket::CreateSocket, before Bind, Listen or
 * Connect; a node without a profile keeps ns-3's and the model's defaults.  Sockets accepted by a
 * listener inherit the listener's settings (ns-3's TCP forks the listener, SctpSocket copies its
 * attributes), so listeners are configured and accepted sockets are not touched again.
 *
 *   Ptr<TransportProfile> p = CreateObject<TransportProfile>();
 *   p->SetTcpAttribute("MinRto", TimeValue(MilliSeconds(5)));
 *   p->SetTcpCongestionOps(TcpLinuxCubic::GetTypeId());
 *   p->SetTcpInitialRto(Seconds(1));
 *   p->SetSctpAttribute("RtoMin", TimeValue(MilliSeconds(5)));
 *   node->AggregateObject(p);
 *   ...
 *   Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
 *   TransportProfile::Configure(s);
 *
 * What ns-3's TCP has no socket attribute for is set by hand: pacing (SetTcpPacing, through
 * TcpSocketBase's setters), the congestion control (a new TcpCongestionOps of the chosen TypeId,
 * SetCongestionControlAlgorithm) and the RTO before the first RTT sample (a fresh RTT estimator whose initial estimate gives that RTO, and ConnTimeout,
 * the SYN's timeout, set to it as RFC 6298 §2.1 asks of every segment before a sample).
 */
/**
 * \file
 * \ingroup iwarp-transport
 */
#ifndef IWARP_TRANSPORT_PROFILE_H
#define IWARP_TRANSPORT_PROFILE_H

#include "common/attribute-set.h"

#include "ns3/attribute.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TransportProfile : public Object
{
  public:
    static TypeId GetTypeId();

    /** Set attribute `name` of ns3::TcpSocketBase (or its parent TcpSocket) on every TCP socket. */
    void SetTcpAttribute(const std::string& name, const AttributeValue& value);
    /** Set attribute `name` of ns3::SctpSocket on every SCTP socket. */
    void SetSctpAttribute(const std::string& name, const AttributeValue& value);
    /** Every TCP socket runs a new congestion control of this TypeId (a TcpCongestionOps). */
    void SetTcpCongestionOps(TypeId congestion);
    /** Set attribute `name` of the congestion control on each one made (after SetTcpCongestionOps). */
    void SetTcpCongestionAttribute(const std::string& name, const AttributeValue& value);
    /** The TCP RTO before the first RTT sample, for SYNs and data alike (RFC 6298 §2.1). */
    void SetTcpInitialRto(Time rto);
    /**
     * TCP pacing (TcpSocketState's EnablePacing, PaceInitialWindow): the socket's state object has no
     * attribute path from the socket, so these go through TcpSocketBase's own setters.
     */
    void SetTcpPacing(bool pacing);
    void SetTcpPaceInitialWindow(bool pace);

    /**
     * Settings by type (ns3::TcpSocket, ns3::TcpSocketBase, ns3::SctpSocket, ...) for every socket of
     * a matching type, applied before the named settings above (which win where both set one).
     */
    void AddSocketAttributes(const AttributeSet& settings);

    /** Apply the settings of the socket's kind (TCP or SCTP); other sockets are left alone. */
    void Apply(Ptr<Socket> socket) const;

    /** Apply the profile of the socket's node, if it has one. */
    static void Configure(Ptr<Socket> socket);
    /** The node's profile, aggregated to it first (with no settings) if it has none. */
    static Ptr<TransportProfile> Of(Ptr<Node> node);

    /** Signature of the Applied trace: `socket` has just been given this profile's settings. */
    typedef void (*AppliedTracedCallback)(Ptr<Socket> socket);

  private:
    using Settings = std::vector<std::pair<std::string, Ptr<const AttributeValue>>>;

    /** Checks `name` and `value` against `tid` now, so that a bad setting fails where it is made. */
    static void Add(Settings& to, TypeId tid, const std::string& name, const AttributeValue& value);
    void ApplyTcp(Ptr<Socket> socket) const;

    AttributeSet m_byType;
    Settings m_tcp;
    Settings m_sctp;
    std::optional<TypeId> m_tcpCongestion;
    Settings m_tcpCongestionAttributes;
    std::optional<Time> m_tcpInitialRto;
    std::optional<bool> m_tcpPacing;
    std::optional<bool> m_tcpPaceInitialWindow;
    TracedCallback<Ptr<Socket>> m_applied;
};

} // namespace ns3

#endif // IWARP_TRANSPORT_PROFILE_H
