/*
 * TransportProfile: per-node transport settings applied to new sockets; see transport-profile.h.
 */
#include "transport/transport-profile.h"

#include "sctp/sctp-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/rtt-estimator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransportProfile");
NS_OBJECT_ENSURE_REGISTERED(TransportProfile);

TypeId
TransportProfile::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TransportProfile")
                            .SetParent<Object>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<TransportProfile>()
                            .AddTraceSource("Applied",
                                            "A socket of this node has just been given the profile's settings",
                                            MakeTraceSourceAccessor(&TransportProfile::m_applied),
                                            "ns3::TransportProfile::AppliedTracedCallback");
    return tid;
}

void
TransportProfile::Add(Settings& to, TypeId tid, const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info), tid.GetName() << " has no attribute " << name);
    NS_ABORT_MSG_UNLESS(info.checker->Check(value), "invalid value for " << tid.GetName() << "::" << name);
    for (auto& [n, v] : to)
    {
        if (n == name)
        {
            v = value.Copy(); // the later setting wins, as with SetAttribute
            return;
        }
    }
    to.emplace_back(name, value.Copy());
}

void
TransportProfile::SetTcpAttribute(const std::string& name, const AttributeValue& value)
{
    // Handled by SetTcpCongestionOps: a PointerValue would share one object among all sockets.
    NS_ABORT_MSG_IF(name == "CongestionOps", "use SetTcpCongestionOps");
    Add(m_tcp, TcpSocketBase::GetTypeId(), name, value);
}

void
TransportProfile::SetSctpAttribute(const std::string& name, const AttributeValue& value)
{
    Add(m_sctp, SctpSocket::GetTypeId(), name, value);
}

void
TransportProfile::SetTcpCongestionOps(TypeId congestion)
{
    // Checked by making one: ns-3 3.37's TcpCubic registers TcpSocketBase as its TypeId's parent, so
    // TypeId::IsChildOf cannot tell a congestion control from something else.
    ObjectFactory f;
    f.SetTypeId(congestion);
    NS_ABORT_MSG_UNLESS(DynamicCast<TcpCongestionOps>(f.Create()),
                        congestion.GetName() << " is not a TcpCongestionOps");
    m_tcpCongestion = congestion;
    m_tcpCongestionAttributes.clear(); // they were another type's
}

void
TransportProfile::SetTcpCongestionAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_UNLESS(m_tcpCongestion, "SetTcpCongestionAttribute(" << name << ") before SetTcpCongestionOps");
    Add(m_tcpCongestionAttributes, *m_tcpCongestion, name, value);
}

void
TransportProfile::SetTcpInitialRto(Time rto)
{
    NS_ABORT_MSG_UNLESS(rto.IsStrictlyPositive(), "the initial RTO must be above zero");
    m_tcpInitialRto = rto;
}

void
TransportProfile::SetTcpPacing(bool pacing)
{
    m_tcpPacing = pacing;
}

void
TransportProfile::SetTcpPaceInitialWindow(bool pace)
{
    m_tcpPaceInitialWindow = pace;
}

void
TransportProfile::AddSocketAttributes(const AttributeSet& settings)
{
    m_byType.Add(settings);
}

void
TransportProfile::Apply(Ptr<Socket> socket) const
{
    const bool tcp = DynamicCast<TcpSocketBase>(socket) != nullptr;
    if (!tcp && !DynamicCast<SctpSocket>(socket))
    {
        return;
    }
    m_byType.ApplyTo(socket);
    if (tcp)
    {
        ApplyTcp(socket);
    }
    else
    {
        for (const auto& [name, value] : m_sctp)
        {
            socket->SetAttribute(name, *value);
        }
    }
    m_applied(socket);
}

void
TransportProfile::ApplyTcp(Ptr<Socket> socket) const
{
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    for (const auto& [name, value] : m_tcp)
    {
        tcp->SetAttribute(name, *value);
    }
    if (m_tcpPacing)
    {
        tcp->SetPacingStatus(*m_tcpPacing);
    }
    if (m_tcpPaceInitialWindow)
    {
        tcp->SetPaceInitialWindow(*m_tcpPaceInitialWindow);
    }
    if (m_tcpInitialRto)
    {
        // Before its first sample ns-3 sets the RTO to the estimator's initial estimate plus the clock
        // granularity (RFC 6298 (2.3) with RTTVAR 0), so the estimate is the RTO less G.  A fresh
        // estimator of the node's type: the socket's own cannot be reached.
        TimeValue granularity;
        tcp->GetAttribute("ClockGranularity", granularity);
        TypeIdValue estimatorType(RttMeanDeviation::GetTypeId());
        if (Ptr<TcpL4Protocol> l4 = socket->GetNode()->GetObject<TcpL4Protocol>())
        {
            l4->GetAttribute("RttEstimatorType", estimatorType);
        }
        ObjectFactory f;
        f.SetTypeId(estimatorType.Get());
        const Time g = granularity.Get();
        f.Set("InitialEstimation", TimeValue(*m_tcpInitialRto > g ? *m_tcpInitialRto - g : Time(0)));
        Ptr<RttEstimator> rtt = f.Create<RttEstimator>();
        rtt->Reset(); // the constructor took the estimate from the default, before the factory's value
        tcp->SetRtt(rtt);
        tcp->SetAttribute("ConnTimeout", TimeValue(*m_tcpInitialRto));
    }
    if (m_tcpCongestion)
    {
        // After the attributes: DCTCP's Init turns ECN on, which a later UseEcn would undo.
        ObjectFactory f;
        f.SetTypeId(*m_tcpCongestion);
        for (const auto& [name, value] : m_tcpCongestionAttributes)
        {
            f.Set(name, *value);
        }
        tcp->SetCongestionControlAlgorithm(DynamicCast<TcpCongestionOps>(f.Create()));
    }
}

void
TransportProfile::Configure(Ptr<Socket> socket)
{
    if (Ptr<TransportProfile> p = socket->GetNode()->GetObject<TransportProfile>())
    {
        p->Apply(socket);
    }
}

Ptr<TransportProfile>
TransportProfile::Of(Ptr<Node> node)
{
    Ptr<TransportProfile> p = node->GetObject<TransportProfile>();
    if (!p)
    {
        p = CreateObject<TransportProfile>();
        node->AggregateObject(p);
    }
    return p;
}

} // namespace ns3
