#include "net/ipv4-ecmp-routing.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Ipv4EcmpRouting");
NS_OBJECT_ENSURE_REGISTERED(Ipv4EcmpRouting);

namespace
{
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;

/** splitmix64's finaliser: every input bit moves every output bit, cheap. */
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

TypeId
Ipv4EcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Ipv4EcmpRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Iwarp")
            .AddConstructor<Ipv4EcmpRouting>()
            .AddAttribute("Salt",
                          "Mixed into the flow hash together with the node id, so that the "
                          "switches of successive tiers do not all make the same choice "
                          "(which would leave paths unused)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Ipv4EcmpRouting::m_salt),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

void
Ipv4EcmpRouting::SetRoute(Ipv4Address dest, std::vector<NextHop> nextHops)
{
    NS_ASSERT(!nextHops.empty());
    // Builders add destinations in an order where neighbours share sets; comparing with the
    // last set only keeps this O(1) and still stores each run once.
    if (m_sets.empty() || m_sets.back() != nextHops)
    {
        m_sets.push_back(std::move(nextHops));
    }
    m_routes[dest.Get()] = static_cast<uint32_t>(m_sets.size() - 1);
    m_denseStale = true;
}

void
Ipv4EcmpRouting::ClearRoutes()
{
    m_routes.clear();
    m_sets.clear();
    m_denseStale = true;
}

const std::vector<Ipv4EcmpRouting::NextHop>*
Ipv4EcmpRouting::GetNextHops(Ipv4Address dest) const
{
    auto it = m_routes.find(dest.Get());
    return it == m_routes.end() ? nullptr : &m_sets[it->second];
}

void
Ipv4EcmpRouting::BuildDense() const
{
    m_denseStale = false;
    m_dense.clear();
    if (m_routes.empty() || m_sets.size() >= kNoRoute)
    {
        return;
    }
    uint32_t lo = UINT32_MAX;
    uint32_t hi = 0;
    for (const auto& [dst, set] : m_routes)
    {
        lo = std::min(lo, dst);
        hi = std::max(hi, dst);
    }
    // Generated topologies number host links among all links (/30s in link order), so a
    // switch's destinations span a few addresses per route; 16 per route bounds the array
    // at 32 octets per route, about what the hash map itself costs.
    const uint64_t span = uint64_t(hi) - lo + 1;
    if (span > 16 * uint64_t(m_routes.size()) + 1024)
    {
        return;
    }
    m_denseBase = lo;
    m_dense.assign(span, kNoRoute);
    for (const auto& [dst, set] : m_routes)
    {
        m_dense[dst - lo] = static_cast<uint16_t>(set);
    }
}

const std::vector<uint16_t>&
Ipv4EcmpRouting::Dense() const
{
    if (m_denseStale)
    {
        BuildDense();
    }
    return m_dense;
}

const std::vector<Ipv4EcmpRouting::NextHop>*
Ipv4EcmpRouting::ForwardLookup(Ipv4Address dest) const
{
    if (Dense().empty())
    {
        return GetNextHops(dest);
    }
    const uint32_t i = dest.Get() - m_denseBase; // wraps below the base: out of range too
    if (i >= m_dense.size() || m_dense[i] == kNoRoute)
    {
        return nullptr;
    }
    return &m_sets[m_dense[i]];
}

bool
Ipv4EcmpRouting::ForwardsFromArray() const
{
    return !Dense().empty();
}

const Ipv4EcmpRouting::NextHop*
Ipv4EcmpRouting::ChooseForwardHop(Ptr<const Packet> payload, const Ipv4Header& header) const
{
    const std::vector<NextHop>* hops = ForwardLookup(header.GetDestination());
    if (!hops)
    {
        return nullptr;
    }
    uint16_t sport = 0;
    uint16_t dport = 0;
    const uint8_t proto = header.GetProtocol();
    // Both TCP and UDP start with the two ports; a non-first fragment has none, so only the
    // addresses decide for it (the model never fragments: MTU-sized segments).
    if (hops->size() > 1 && (proto == kTcp || proto == kUdp) && header.GetFragmentOffset() == 0 &&
        payload->GetSize() >= 4)
    {
        uint8_t b[4];
        payload->CopyData(b, 4);
        sport = uint16_t(b[0] << 8 | b[1]);
        dport = uint16_t(b[2] << 8 | b[3]);
    }
    const uint32_t i =
        Select(hops->size(), header.GetSource(), header.GetDestination(), proto, sport, dport);
    NS_LOG_LOGIC("forward " << header.GetSource() << ":" << sport << " -> "
                            << header.GetDestination() << ":" << dport << " via hop " << i << "/"
                            << hops->size());
    return &(*hops)[i];
}

uint64_t
Ipv4EcmpRouting::TupleHash(Ipv4Address src, Ipv4Address dst, uint8_t proto, uint16_t sport, uint16_t dport)
{
    const uint64_t h = Mix((uint64_t(src.Get()) << 32) | dst.Get());
    return Mix(h ^ ((uint64_t(proto) << 32) | (uint64_t(sport) << 16) | dport));
}

uint32_t
Ipv4EcmpRouting::Select(uint32_t n, Ipv4Address src, Ipv4Address dst, uint8_t proto,
                        uint16_t sport, uint16_t dport) const
{
    if (n <= 1)
    {
        return 0;
    }
    if (m_nodeId < 0 && m_ipv4)
    {
        // Looked up once: the Ipv4 may not be aggregated to its node yet at SetIpv4.
        Ptr<Node> node = m_ipv4->GetObject<Node>();
        m_nodeId = node ? node->GetId() : 0;
    }
    const uint32_t node = m_nodeId < 0 ? 0 : static_cast<uint32_t>(m_nodeId);
    const uint64_t h = Mix(TupleHash(src, dst, proto, sport, dport) ^ ((uint64_t(m_salt) << 32) | node));
    return static_cast<uint32_t>(h % n);
}

Ptr<Ipv4Route>
Ipv4EcmpRouting::MakeRoute(const NextHop& hop, Ipv4Address dst) const
{
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetDestination(dst);
    r->SetGateway(hop.gateway);
    r->SetSource(m_ipv4->GetAddress(hop.interface, 0).GetLocal());
    r->SetOutputDevice(m_ipv4->GetNetDevice(hop.interface));
    return r;
}

Ptr<Ipv4Route>
Ipv4EcmpRouting::RouteOutput(Ptr<Packet> /* p */, const Ipv4Header& header, Ptr<NetDevice> oif,
                             Socket::SocketErrno& sockerr)
{
    const std::vector<NextHop>* hops = GetNextHops(header.GetDestination());
    if (!hops)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr; // Ipv4ListRouting asks the next protocol (static)
    }
    // Locally sent packets do not reliably carry their transport header here (UDP routes
    // before adding it, TCP routes once with no packet at connect) nor always a source
    // address, so the sender hashes on destination and protocol only: one path per flow.
    const uint32_t i = Select(hops->size(), Ipv4Address::GetZero(), header.GetDestination(),
                              header.GetProtocol(), 0, 0);
    for (uint32_t j = 0; j < hops->size(); ++j)
    {
        const NextHop& hop = (*hops)[(i + j) % hops->size()];
        if (!oif || m_ipv4->GetNetDevice(hop.interface) == oif)
        {
            sockerr = Socket::ERROR_NOTERROR;
            return MakeRoute(hop, header.GetDestination());
        }
    }
    sockerr = Socket::ERROR_NOROUTETOHOST;
    return nullptr;
}

bool
Ipv4EcmpRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header& header,
                            Ptr<const NetDevice> idev, UnicastForwardCallback ucb,
                            MulticastForwardCallback, LocalDeliverCallback, ErrorCallback)
{
    // Local delivery and the forwarding check are Ipv4ListRouting's, before it asks us.
    (void)idev;
    const NextHop* hop = ChooseForwardHop(p, header);
    if (!hop)
    {
        return false;
    }
    ucb(MakeRoute(*hop, header.GetDestination()), p, header);
    return true;
}

void
Ipv4EcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
Ipv4EcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "Ipv4EcmpRouting: " << m_routes.size() << " host routes\n";
    for (const auto& [dst, set] : m_routes)
    {
        os << std::left << std::setw(16) << Ipv4Address(dst);
        for (const NextHop& h : m_sets[set])
        {
            os << " if" << h.interface << "/" << h.gateway;
        }
        os << "\n";
    }
}

void
Ipv4EcmpRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_routes.clear();
    m_sets.clear();
    m_dense.clear();
    Ipv4RoutingProtocol::DoDispose();
}

} // namespace ns3
